/*!
 * \file ops.h
 * \brief Elementwise operations on NDArrays with NumPy semantics: broadcasting, NEP 50 type
 *  promotion (promotion.h), lazy fused evaluation (lazy.h). docs/dynamic-ops.md has the rules.
 *
 * Every function and operator below returns an `Expr` (nothing is computed yet); operands are
 * NDArrays, other Exprs or C++ scalars (weak, like Python scalars: `a + 1` keeps a's dtype).
 * Evaluation happens on conversion to NDArray, on `.eval()`, or at once in the out= forms
 * (`add(a, b, out)`) and the compound assignments (`a += b` writes into a's elements, also
 * through a view). Results are written with NumPy's same_kind casting rule.
 *
 * Note: inside namespace shade, an unqualified call such as `exp(x)` on a double finds these
 * functions first; write `std::exp` there.
 */
#ifndef SHADE_NDARRAY_OPS_H_
#define SHADE_NDARRAY_OPS_H_

#include <type_traits>

#include "shade/ndarray/lazy.h"
#include "shade/ndarray/ndarray.h"
#include "shade/ndarray/promotion.h"

namespace shade {

/*! \brief a + b. */
Expr add(Expr a, Expr b);
/*! \brief add into out (out=); returns out. */
const NDArray& add(Expr a, Expr b, const NDArray& out);

/*! \brief a - b. */
Expr subtract(Expr a, Expr b);
/*! \brief subtract into out (out=); returns out. */
const NDArray& subtract(Expr a, Expr b, const NDArray& out);

/*! \brief a * b. */
Expr multiply(Expr a, Expr b);
/*! \brief multiply into out (out=); returns out. */
const NDArray& multiply(Expr a, Expr b, const NDArray& out);

/*! \brief a / b (true division: integers give a float). */
Expr divide(Expr a, Expr b);
/*! \brief divide into out (out=); returns out. */
const NDArray& divide(Expr a, Expr b, const NDArray& out);

/*! \brief a / b. */
Expr true_divide(Expr a, Expr b);
/*! \brief true_divide into out (out=); returns out. */
const NDArray& true_divide(Expr a, Expr b, const NDArray& out);

/*! \brief floor(a / b) (NumPy: integer b == 0 gives 0). */
Expr floor_divide(Expr a, Expr b);
/*! \brief floor_divide into out (out=); returns out. */
const NDArray& floor_divide(Expr a, Expr b, const NDArray& out);

/*! \brief a mod b with the sign of b (Python %; integer b == 0 gives 0). */
Expr remainder(Expr a, Expr b);
/*! \brief remainder into out (out=); returns out. */
const NDArray& remainder(Expr a, Expr b, const NDArray& out);

/*! \brief a ** b (negative integer exponents throw). */
Expr power(Expr a, Expr b);
/*! \brief power into out (out=); returns out. */
const NDArray& power(Expr a, Expr b, const NDArray& out);

/*! \brief elementwise max, NaN-propagating. */
Expr maximum(Expr a, Expr b);
/*! \brief maximum into out (out=); returns out. */
const NDArray& maximum(Expr a, Expr b, const NDArray& out);

/*! \brief elementwise min, NaN-propagating. */
Expr minimum(Expr a, Expr b);
/*! \brief minimum into out (out=); returns out. */
const NDArray& minimum(Expr a, Expr b, const NDArray& out);

/*! \brief a == b as bool. */
Expr equal(Expr a, Expr b);
/*! \brief equal into out (out=); returns out. */
const NDArray& equal(Expr a, Expr b, const NDArray& out);

/*! \brief a != b as bool. */
Expr not_equal(Expr a, Expr b);
/*! \brief not_equal into out (out=); returns out. */
const NDArray& not_equal(Expr a, Expr b, const NDArray& out);

/*! \brief a < b as bool. */
Expr less(Expr a, Expr b);
/*! \brief less into out (out=); returns out. */
const NDArray& less(Expr a, Expr b, const NDArray& out);

/*! \brief a <= b as bool. */
Expr less_equal(Expr a, Expr b);
/*! \brief less_equal into out (out=); returns out. */
const NDArray& less_equal(Expr a, Expr b, const NDArray& out);

/*! \brief a > b as bool. */
Expr greater(Expr a, Expr b);
/*! \brief greater into out (out=); returns out. */
const NDArray& greater(Expr a, Expr b, const NDArray& out);

/*! \brief a >= b as bool. */
Expr greater_equal(Expr a, Expr b);
/*! \brief greater_equal into out (out=); returns out. */
const NDArray& greater_equal(Expr a, Expr b, const NDArray& out);

/*! \brief bool(a) and bool(b). */
Expr logical_and(Expr a, Expr b);
/*! \brief logical_and into out (out=); returns out. */
const NDArray& logical_and(Expr a, Expr b, const NDArray& out);

/*! \brief bool(a) or bool(b). */
Expr logical_or(Expr a, Expr b);
/*! \brief logical_or into out (out=); returns out. */
const NDArray& logical_or(Expr a, Expr b, const NDArray& out);

/*! \brief bool(a) != bool(b). */
Expr logical_xor(Expr a, Expr b);
/*! \brief logical_xor into out (out=); returns out. */
const NDArray& logical_xor(Expr a, Expr b, const NDArray& out);

/*! \brief a & b (integers, bool). */
Expr bitwise_and(Expr a, Expr b);
/*! \brief bitwise_and into out (out=); returns out. */
const NDArray& bitwise_and(Expr a, Expr b, const NDArray& out);

/*! \brief a | b (integers, bool). */
Expr bitwise_or(Expr a, Expr b);
/*! \brief bitwise_or into out (out=); returns out. */
const NDArray& bitwise_or(Expr a, Expr b, const NDArray& out);

/*! \brief a ^ b (integers, bool). */
Expr bitwise_xor(Expr a, Expr b);
/*! \brief bitwise_xor into out (out=); returns out. */
const NDArray& bitwise_xor(Expr a, Expr b, const NDArray& out);

/*! \brief -a (not for bool). */
Expr negative(Expr a);
/*! \brief negative into out (out=); returns out. */
const NDArray& negative(Expr a, const NDArray& out);

/*! \brief |a|. */
Expr abs(Expr a);
/*! \brief abs into out (out=); returns out. */
const NDArray& abs(Expr a, const NDArray& out);

/*! \brief |a|. */
Expr absolute(Expr a);
/*! \brief absolute into out (out=); returns out. */
const NDArray& absolute(Expr a, const NDArray& out);

/*! \brief e ** a. */
Expr exp(Expr a);
/*! \brief exp into out (out=); returns out. */
const NDArray& exp(Expr a, const NDArray& out);

/*! \brief natural log. */
Expr log(Expr a);
/*! \brief log into out (out=); returns out. */
const NDArray& log(Expr a, const NDArray& out);

/*! \brief log(1 + a). */
Expr log1p(Expr a);
/*! \brief log1p into out (out=); returns out. */
const NDArray& log1p(Expr a, const NDArray& out);

/*! \brief e ** a - 1. */
Expr expm1(Expr a);
/*! \brief expm1 into out (out=); returns out. */
const NDArray& expm1(Expr a, const NDArray& out);

/*! \brief square root. */
Expr sqrt(Expr a);
/*! \brief sqrt into out (out=); returns out. */
const NDArray& sqrt(Expr a, const NDArray& out);

/*! \brief 1 / sqrt(a). */
Expr rsqrt(Expr a);
/*! \brief rsqrt into out (out=); returns out. */
const NDArray& rsqrt(Expr a, const NDArray& out);

/*! \brief sine. */
Expr sin(Expr a);
/*! \brief sin into out (out=); returns out. */
const NDArray& sin(Expr a, const NDArray& out);

/*! \brief cosine. */
Expr cos(Expr a);
/*! \brief cos into out (out=); returns out. */
const NDArray& cos(Expr a, const NDArray& out);

/*! \brief hyperbolic tangent. */
Expr tanh(Expr a);
/*! \brief tanh into out (out=); returns out. */
const NDArray& tanh(Expr a, const NDArray& out);

/*! \brief 1 / (1 + e ** -a). */
Expr sigmoid(Expr a);
/*! \brief sigmoid into out (out=); returns out. */
const NDArray& sigmoid(Expr a, const NDArray& out);

/*! \brief max(a, 0) (NaN gives 0). */
Expr relu(Expr a);
/*! \brief relu into out (out=); returns out. */
const NDArray& relu(Expr a, const NDArray& out);

/*! \brief largest integer <= a (float result). */
Expr floor(Expr a);
/*! \brief floor into out (out=); returns out. */
const NDArray& floor(Expr a, const NDArray& out);

/*! \brief smallest integer >= a (float result). */
Expr ceil(Expr a);
/*! \brief ceil into out (out=); returns out. */
const NDArray& ceil(Expr a, const NDArray& out);

/*! \brief nearest integer, halves to even (integers unchanged). */
Expr round(Expr a);
/*! \brief round into out (out=); returns out. */
const NDArray& round(Expr a, const NDArray& out);

/*! \brief -1, 0, 1 (NaN stays NaN; not for bool). */
Expr sign(Expr a);
/*! \brief sign into out (out=); returns out. */
const NDArray& sign(Expr a, const NDArray& out);

/*! \brief not bool(a). */
Expr logical_not(Expr a);
/*! \brief logical_not into out (out=); returns out. */
const NDArray& logical_not(Expr a, const NDArray& out);

/*! \brief ~a (integers, bool). */
Expr bitwise_not(Expr a);
/*! \brief bitwise_not into out (out=); returns out. */
const NDArray& bitwise_not(Expr a, const NDArray& out);

/*! \brief ~a (integers, bool). */
Expr invert(Expr a);
/*! \brief invert into out (out=); returns out. */
const NDArray& invert(Expr a, const NDArray& out);

/*! \brief x where bool(cond) else y. */
Expr where(Expr cond, Expr x, Expr y);
/*! \brief where into out (out=); returns out. */
const NDArray& where(Expr cond, Expr x, Expr y, const NDArray& out);

/*! \brief min(max(a, lo), hi), NaN-propagating (np.clip). */
Expr clamp(Expr a, Expr lo, Expr hi);
/*! \brief clamp into out (out=); returns out. */
const NDArray& clamp(Expr a, Expr lo, Expr hi, const NDArray& out);

/*! \brief np.clip: same as clamp. */
Expr clip(Expr a, Expr lo, Expr hi);
/*! \brief clip into out (out=); returns out. */
const NDArray& clip(Expr a, Expr lo, Expr hi, const NDArray& out);


// Operators (lazy). `/` is true division, `%` NumPy's remainder, `&|^~` bitwise (logical on bool).

/*! \brief Lazy `+`. */
Expr operator+(Expr a, Expr b);

/*! \brief Lazy `-`. */
Expr operator-(Expr a, Expr b);

/*! \brief Lazy `*`. */
Expr operator*(Expr a, Expr b);

/*! \brief Lazy `/`. */
Expr operator/(Expr a, Expr b);

/*! \brief Lazy `%`. */
Expr operator%(Expr a, Expr b);

/*! \brief Lazy `==`. */
Expr operator==(Expr a, Expr b);

/*! \brief Lazy `!=`. */
Expr operator!=(Expr a, Expr b);

/*! \brief Lazy `<`. */
Expr operator<(Expr a, Expr b);

/*! \brief Lazy `<=`. */
Expr operator<=(Expr a, Expr b);

/*! \brief Lazy `>`. */
Expr operator>(Expr a, Expr b);

/*! \brief Lazy `>=`. */
Expr operator>=(Expr a, Expr b);

/*! \brief Lazy `&`. */
Expr operator&(Expr a, Expr b);

/*! \brief Lazy `|`. */
Expr operator|(Expr a, Expr b);

/*! \brief Lazy `^`. */
Expr operator^(Expr a, Expr b);

// Two NDArray operands: the same lazy node, built in place (Expr::MakeArrays) instead of from
// two leaf Exprs moved through by-value parameters. Templates, so they match only when both
// operands are NDArrays (deduction sees no conversions): NDArray op Expr stays with the Expr
// overloads above instead of becoming ambiguous through Expr's conversion to NDArray.

namespace detail {
/*! \brief Enables the two-array operator overloads for exactly (NDArray, NDArray). */
template <typename A, typename B>
using EnableIfTwoArrays =
    std::enable_if_t<std::is_same<A, NDArray>::value && std::is_same<B, NDArray>::value, int>;
}  // namespace detail

/*! \brief Defines the lazy operator `sym` (OpCode::code) for exactly two NDArrays. */
#define SHADE_TWO_ARRAY_OPERATOR(sym, code)                                   \
  template <typename A, typename B, detail::EnableIfTwoArrays<A, B> = 0>     \
  Expr operator sym(const A& a, const B& b) {                                \
    return Expr::MakeArrays(OpCode::code, a, b);                             \
  }
SHADE_TWO_ARRAY_OPERATOR(+, kAdd)
SHADE_TWO_ARRAY_OPERATOR(-, kSubtract)
SHADE_TWO_ARRAY_OPERATOR(*, kMultiply)
SHADE_TWO_ARRAY_OPERATOR(/, kTrueDivide)
SHADE_TWO_ARRAY_OPERATOR(%, kRemainder)
SHADE_TWO_ARRAY_OPERATOR(==, kEqual)
SHADE_TWO_ARRAY_OPERATOR(!=, kNotEqual)
SHADE_TWO_ARRAY_OPERATOR(<, kLess)
SHADE_TWO_ARRAY_OPERATOR(<=, kLessEqual)
SHADE_TWO_ARRAY_OPERATOR(>, kGreater)
SHADE_TWO_ARRAY_OPERATOR(>=, kGreaterEqual)
SHADE_TWO_ARRAY_OPERATOR(&, kBitwiseAnd)
SHADE_TWO_ARRAY_OPERATOR(|, kBitwiseOr)
SHADE_TWO_ARRAY_OPERATOR(^, kBitwiseXor)
#undef SHADE_TWO_ARRAY_OPERATOR

/*! \brief Lazy negation. */
Expr operator-(Expr a);
/*! \brief Lazy bitwise not. */
Expr operator~(Expr a);
/*! \brief Lazy logical not. */
Expr operator!(Expr a);


// Compound assignment: evaluated at once into a's own elements (a may be a view; it must not
// overlap itself), casting the result to a's dtype under same_kind (int += float throws).

/*! \brief In-place `+=` into a's storage; returns a. */
const NDArray& operator+=(const NDArray& a, Expr b);

/*! \brief In-place `-=` into a's storage; returns a. */
const NDArray& operator-=(const NDArray& a, Expr b);

/*! \brief In-place `*=` into a's storage; returns a. */
const NDArray& operator*=(const NDArray& a, Expr b);

/*! \brief In-place `/=` into a's storage; returns a. */
const NDArray& operator/=(const NDArray& a, Expr b);

/*! \brief In-place `%=` into a's storage; returns a. */
const NDArray& operator%=(const NDArray& a, Expr b);

/*! \brief In-place `&=` into a's storage; returns a. */
const NDArray& operator&=(const NDArray& a, Expr b);

/*! \brief In-place `|=` into a's storage; returns a. */
const NDArray& operator|=(const NDArray& a, Expr b);

/*! \brief In-place `^=` into a's storage; returns a. */
const NDArray& operator^=(const NDArray& a, Expr b);


}  // namespace shade

#endif  // SHADE_NDARRAY_OPS_H_
