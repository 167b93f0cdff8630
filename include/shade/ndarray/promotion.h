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

/*! \brief The kind of a dtype, in NumPy's order for same_kind casting (bool < uint < int < float). */
enum class DTypeKind : std::uint8_t { kBool = 0, kUnsigned = 1, kSigned = 2, kFloat = 3 };

/*! \brief Kind of a dtype flag (throws shade::Error for an unknown flag). */
DTypeKind KindOf(int flag);

/*!
 * \brief A weak (Python-like) scalar's kind for NEP 50: a C++ integer behaves as a Python int
 *  (it takes the other operand's dtype), a C++ floating value as a Python float. kNone marks an
 *  operand with a real (strong) dtype.
 */
enum class WeakKind : std::uint8_t { kNone = 0, kInt = 1, kFloat = 2 };

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
 *  bool/integer ones into float64; weak scalars alone give int64 / float64. Throws for an
 *  empty list.
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
 *  floats keep theirs; bool, int8, uint8 give float16; int16, uint16 float32; wider float64.
 */
int FloatTypeFor(int flag);

}  // namespace shade

#endif  // SHADE_NDARRAY_PROMOTION_H_
