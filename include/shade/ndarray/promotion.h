/*!
 * \file promotion.h
 * \brief NumPy 2 (NEP 50) type promotion over shade's dtypes, weak Python-like scalars, the
 *  casting rules (`safe`, `same_kind`) and the float type a unary math function picks.
 *
 * The table is written out in docs/design/dynamic-ops.md. bfloat16 (absent from NumPy) follows the
 * rule NumPy applies to float16, since both hold every 8-bit integer exactly and no wider one:
 * bf16 with bool/int8/uint8 gives bf16, with 16-bit integers float32, with wider integers
 * float64; bf16 with float16 gives float32 (as PyTorch does), with float32/64 the wider one.
 */
#ifndef SHADE_NDARRAY_PROMOTION_H_
#define SHADE_NDARRAY_PROMOTION_H_

#include <cstdint>
#include <initializer_list>

namespace shade {

/*! \brief The kind of a dtype, in NumPy's order for same_kind casting
 *  (bool < uint < int < float < complex). */
enum class DTypeKind : std::uint8_t {
  kBool = 0,
  kUnsigned = 1,
  kSigned = 2,
  kFloat = 3,
  kComplex = 4
};

/*! \brief Kind of a dtype flag (throws shade::Error for an unknown flag). */
DTypeKind KindOf(int flag);

/*!
 * \brief A weak (Python-like) scalar's kind for NEP 50: a C++ integer behaves as a Python int
 *  (it takes the other operand's dtype), a C++ floating value as a Python float, a
 *  std::complex value as a Python complex. kNone marks an operand with a real (strong) dtype.
 */
enum class WeakKind : std::uint8_t { kNone = 0, kInt = 1, kFloat = 2, kComplex = 3 };

/*! \brief One operand of a promotion: a strong dtype flag, or a weak scalar kind. */
struct PromotionOperand {
  int flag = -1;                   //!< dtype flag when strong
  WeakKind weak = WeakKind::kNone; //!< weak kind when a scalar
  /*! \brief A strong operand of dtype `f`. */
  static PromotionOperand Strong(int f) { return PromotionOperand{f, WeakKind::kNone}; }
  /*! \brief A weak scalar of kind `k`. */
  static PromotionOperand Weak(WeakKind k) { return PromotionOperand{-1, k}; }
};

/*! \brief `np.promote_types(a, b)` for two strong dtypes (bfloat16 as stated in the file comment). */
int PromoteTypes(int a, int b);

/*!
 * \brief `np.result_type(...)` under NEP 50: strong operands promote together; a weak int
 *  keeps that dtype unless it is bool (then int64); a weak float keeps a float dtype and turns
 *  bool/integer ones into float64; a weak complex keeps a complex dtype, turns float32/float16
 *  into complex64 and anything else into complex128; weak scalars alone give int64 / float64 /
 *  complex128. Throws for an empty list.
 */
int ResultType(std::initializer_list<PromotionOperand> operands);
/*! \brief ResultType over an array of operands. */
int ResultType(const PromotionOperand* operands, int n);

/*! \brief NumPy's casting levels. */
enum class Casting : std::uint8_t { kNo, kEquiv, kSafe, kSameKind, kUnsafe };

/*! \brief `np.can_cast(from, to, casting)` for dtype flags. */
bool CanCast(int from, int to, Casting casting);

/*!
 * \brief The dtype NumPy's float ufuncs (exp, sqrt, floor, ...) compute in for an input dtype:
 *  floats and complex keep theirs; bool, int8, uint8 give float16; int16, uint16 float32; wider
 *  float64.
 */
int FloatTypeFor(int flag);

/*! \brief The complex dtype holding `flag`'s values: complex64 for float16/bfloat16/float32 and
 *  the 8- and 16-bit integers and bool, complex128 otherwise (NumPy's promote_types with c8). */
int ComplexTypeFor(int flag);

/*! \brief The real dtype of a complex one's parts (complex64 -> float32, complex128 -> float64);
 *  any other flag is returned unchanged. */
int RealTypeOf(int flag);

}  // namespace shade

#endif  // SHADE_NDARRAY_PROMOTION_H_
