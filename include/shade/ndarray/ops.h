/*!
 * \file ops.h
 * \brief Elementwise operations on NDArrays with NumPy semantics: broadcasting, NEP 50 type
 *  promotion (promotion.h), lazy fused evaluation (lazy.h); rules: docs/design/dynamic-ops.md.
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

// One function per registry entry (functor/op_registry.h: its NumPy name, arity and rule;
// docs/design/dynamic-ops.md says what each computes) and per alias, each with its out= form:
//   Expr NAME(Expr a[, Expr b[, Expr c]]);      lazy
//   const NDArray& NAME(a[, b[, c]], out);      evaluated into out (out=); returns out
// e.g. add, true_divide (alias divide), absolute (alias abs), exp, log2, arctan2, hypot, invert
// (alias bitwise_not), where(cond, x, y), clip (alias clamp)(a, lo, hi).

/// Declares (internal; undefined after use) unary NAME: lazy and out= forms.
#define SHADE_DECLARE_ELEMENTWISE_OP_1_(NAME) \
  Expr NAME(Expr a);                          \
  const NDArray& NAME(Expr a, const NDArray& out);
/// Declares (internal; undefined after use) binary NAME: lazy and out= forms.
#define SHADE_DECLARE_ELEMENTWISE_OP_2_(NAME) \
  Expr NAME(Expr a, Expr b);                  \
  const NDArray& NAME(Expr a, Expr b, const NDArray& out);
/// Declares (internal; undefined after use) ternary NAME: lazy and out= forms.
#define SHADE_DECLARE_ELEMENTWISE_OP_3_(NAME) \
  Expr NAME(Expr a, Expr b, Expr c);          \
  const NDArray& NAME(Expr a, Expr b, Expr c, const NDArray& out);
/// Declares (internal; undefined after use) the functions of one registry entry.
#define SHADE_DECLARE_REGISTRY_OP_(CODE, NAME, ARITY, ...) \
  SHADE_DECLARE_ELEMENTWISE_OP_##ARITY##_(NAME)
/// Declares (internal; undefined after use) the functions of one alias.
#define SHADE_DECLARE_ALIAS_OP_(CODE, NAME, ARITY) SHADE_DECLARE_ELEMENTWISE_OP_##ARITY##_(NAME)
SHADE_ELEMENTWISE_OPS(SHADE_DECLARE_REGISTRY_OP_)
SHADE_ELEMENTWISE_OP_ALIASES(SHADE_DECLARE_ALIAS_OP_)
#undef SHADE_DECLARE_ALIAS_OP_
#undef SHADE_DECLARE_REGISTRY_OP_
#undef SHADE_DECLARE_ELEMENTWISE_OP_3_
#undef SHADE_DECLARE_ELEMENTWISE_OP_2_
#undef SHADE_DECLARE_ELEMENTWISE_OP_1_

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
