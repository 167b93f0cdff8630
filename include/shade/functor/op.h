/*!
 * \file op.h
 * \brief Element functors `op::` (used by F<OP>, the operators and the savers) and reduction
 *  functors `red::`.
 *
 * Every functor is a struct with `template <typename DType> static DType Map(DType a[, DType b])`
 * and, where SIMD can compute the same function, the packet form
 * `template <class D, class V> static V MapPacket(D d, V a[, V b])` (packet/packet.h's protocol),
 * constrained to the lane types it exists for, so that `packet::HasPacket<OP, T>` is false
 * elsewhere and every loop falls back to `Map`. These are THE functors of the library: the static
 * expressions, the contiguous kernels (backend/cpu/kernels.h) and the reductions
 * (backend/cpu/reduce.h, which take the `red::` reducers below) all use them. Transcendental
 * functions compute in float for the 16-bit types and in the type's own precision otherwise (double
 * for integers), then convert back.
 */
#ifndef SHADE_FUNCTOR_OP_H_
#define SHADE_FUNCTOR_OP_H_

#include <cmath>
#include <limits>
#include <type_traits>

#include "shade/base/dtype.h"
#include "shade/base/index.h"
#include "shade/functor/op_registry.h"
#include "shade/packet/packet.h"

namespace shade {
namespace op {
namespace hn = packet::hn;
SHADE_TARGET_NAMESPACE_BEGIN
namespace detail {
/*! \brief Type a math function is evaluated in: float for half_t/bf16_t, the type itself else. */
template <typename DType>
using MathT = std::conditional_t<kIsFloat16<DType>, float, DType>;
/*! \brief Widens a value to its math type. */
template <typename DType>
SHADE_XINLINE MathT<DType> M(DType a) {
  return static_cast<MathT<DType>>(a);
}
}  // namespace detail

// The functors below share their shape; these macros write it once. SHADE_OP_PACKET1_/2_ add the
// packet form forwarding to packet::`fn`, taking part in overload resolution only for lane types
// T with `cond<T>` (packet/packet.h's protocol); the others add whole functors.
/// Adds (internal) the unary packet form packet::fn, enabled for lane types T with cond<T>.
#define SHADE_OP_PACKET1_(cond, fn)                                 \
  /*! \brief Packet form. */                                        \
  template <class D, class V, SHADE_PACKET_IF(cond<hn::TFromD<D>>)> \
  static HWY_INLINE V MapPacket(D d, V a) {                         \
    return packet::fn(d, a);                                        \
  }
/// Adds (internal) the binary packet form packet::fn, enabled for lane types T with cond<T>.
#define SHADE_OP_PACKET2_(cond, fn)                                 \
  /*! \brief Packet form. */                                        \
  template <class D, class V, SHADE_PACKET_IF(cond<hn::TFromD<D>>)> \
  static HWY_INLINE V MapPacket(D d, V a, V b) {                    \
    return packet::fn(d, a, b);                                     \
  }
/// Adds (internal) kCost, the registry's cost of OpCode::code.
#define SHADE_OP_COST_(code)                                                            \
  /*! \brief Packet work per element relative to an add (sets the threading grain): the \
   *  registry's cost of OpCode::code (functor/op_registry.h). */                       \
  static constexpr int kCost = OpCostOf(OpCode::code);
/// Defines (internal) a unary functor whose scalar form is the expression `scalar` of a.
#define SHADE_OP_UNARY_(name, scalar, cond, fn) \
  struct name {                                 \
    /*! \brief Scalar form. */                  \
    template <typename DType>                   \
    static SHADE_XINLINE DType Map(DType a) {   \
      return DType(scalar);                     \
    }                                           \
    SHADE_OP_PACKET1_(cond, fn)                 \
  }
/// Defines (internal) a binary functor whose scalar form is the expression `scalar` of a and b.
#define SHADE_OP_BINARY_(name, scalar, cond, fn)       \
  struct name {                                        \
    /*! \brief Scalar form. */                         \
    template <typename DType>                          \
    static SHADE_XINLINE DType Map(DType a, DType b) { \
      return DType(scalar);                            \
    }                                                  \
    SHADE_OP_PACKET2_(cond, fn)                        \
  }
/// Defines (internal) the functor of C library function `cfn`, computed in MathT (float for
/// the 16-bit types), with packet::`fn` for float and double lanes and the cost of `code`.
#define SHADE_OP_MATH_(name, cfn, fn, code)                \
  struct name {                                            \
    /*! \brief Scalar form (the C library's, in MathT). */ \
    template <typename DType>                              \
    static SHADE_XINLINE DType Map(DType a) {              \
      return DType(std::cfn(detail::M(a)));                \
    }                                                      \
    SHADE_OP_PACKET1_(packet::kIsFloat, fn)                \
    SHADE_OP_COST_(code)                                   \
  }

/*! \brief a */
struct identity {
  /*! \brief Scalar form. */
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a) {
    return a;
  }
  /*! \brief Packet form. */
  template <class D, class V>
  static HWY_INLINE V MapPacket(D d, V a) {
    (void)d;
    return a;
  }
};
/*! \brief a + b */
SHADE_OP_BINARY_(plus, a + b, packet::kIsLane, Add);
/*! \brief a - b */
SHADE_OP_BINARY_(minus, a - b, packet::kIsLane, Sub);
/*! \brief a * b */
SHADE_OP_BINARY_(mul, a* b, packet::kHasMul, Mul);
/*! \brief a / b (integer division truncates, as in C++) */
SHADE_OP_BINARY_(div, a / b, packet::kIsFloat, Div);
/*! \brief max(a, b); NaN in a is kept. */
SHADE_OP_BINARY_(maximum, a < b ? b : a, packet::kIsLane, Max);
/*! \brief min(a, b); NaN in a is kept. */
SHADE_OP_BINARY_(minimum, b < a ? b : a, packet::kIsLane, Min);
/*! \brief b: the right operand (the saver `=` applies it). */
struct right {
  /*! \brief Scalar form. */
  template <typename DType>
  static SHADE_XINLINE DType Map(DType /*a*/, DType b) {
    return b;
  }
  /*! \brief Packet form. */
  template <class D, class V>
  static HWY_INLINE V MapPacket(D d, V a, V b) {
    (void)d;
    (void)a;
    return b;
  }
};
/*! \brief a ** b */
struct power {
  /*! \brief Scalar form (no packet form: the kernels run it lane by lane). */
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a, DType b) {
    return DType(std::pow(detail::M(a), detail::M(b)));
  }
};
/*! \brief -a */
SHADE_OP_UNARY_(negation, -a, packet::kIsSignedLane, Neg);
/*! \brief a * a */
SHADE_OP_UNARY_(square, a* a, packet::kHasMul, Square);
/*! \brief max(a, 0) */
SHADE_OP_UNARY_(relu, DType(0) < a ? a : DType(0), packet::kIsLane, Relu);
/*! \brief e ** a */
SHADE_OP_MATH_(exp, exp, Exp, kExp);
/*! \brief natural logarithm */
SHADE_OP_MATH_(log, log, Log, kLog);
/*! \brief log(1 + a), accurate near 0 */
SHADE_OP_MATH_(log1p, log1p, Log1p, kLog1p);
/*! \brief e ** a - 1, accurate near 0 */
SHADE_OP_MATH_(expm1, expm1, Expm1, kExpm1);
/*! \brief square root */
SHADE_OP_MATH_(sqrt, sqrt, Sqrt, kSqrt);
/*! \brief hyperbolic tangent */
SHADE_OP_MATH_(tanh, tanh, Tanh, kTanh);
/*! \brief 1 / sqrt(a) */
struct rsqrt {
  /*! \brief Scalar form (in double for integers). */
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a) {
    using T = std::conditional_t<std::is_integral<DType>::value, double, detail::MathT<DType>>;
    return DType(T(1) / std::sqrt(static_cast<T>(a)));
  }
  SHADE_OP_PACKET1_(packet::kIsFloat, Rsqrt)
  SHADE_OP_COST_(kRsqrt)
};
/*! \brief 1 / (1 + e ** -a) */
struct sigmoid {
  /*! \brief Scalar form (in double for integers). */
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a) {
    using T = std::conditional_t<std::is_integral<DType>::value, double, detail::MathT<DType>>;
    return DType(T(1) / (T(1) + std::exp(-static_cast<T>(a))));
  }
  SHADE_OP_PACKET1_(packet::kIsFloat, Sigmoid)
  SHADE_OP_COST_(kSigmoid)
};
/*! \brief |a| (unsigned types are returned unchanged) */
struct abs {
  /*! \brief Scalar form. */
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a) {
    if constexpr (std::is_unsigned<DType>::value) {
      return a;
    } else {
      return a < DType(0) ? DType(-a) : a;
    }
  }
  SHADE_OP_PACKET1_(packet::kIsSignedLane, Abs)
};
/*! \brief -1, 0 or 1 by the sign of a */
struct sign {
  /*! \brief Scalar form. */
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a) {
    if (DType(0) < a) return DType(1);
    if (a < DType(0)) return DType(-1);
    return DType(0);
  }
  SHADE_OP_PACKET1_(packet::kIsSignedLane, Sign)
};

// NumPy ufuncs from the C library, each registered (functor/op_registry.h) and used by both front
// ends: F<op::log2>(x) in static expressions, shade::log2(a) on NDArrays. Where Highway has no
// packet form (exp2, cbrt, arctan2, hypot, logaddexp) there is none here: the kernels then run
// Map lane by lane.
/*! \brief base-2 logarithm */
SHADE_OP_MATH_(log2, log2, Log2, kLog2);
/*! \brief base-10 logarithm */
SHADE_OP_MATH_(log10, log10, Log10, kLog10);
/// Defines (internal) the functor of the one-operand C library function `cfn`, computed in
/// MathT, without a packet form.
#define SHADE_OP_CMATH1_(name, cfn, code)                  \
  struct name {                                            \
    /*! \brief Scalar form (the C library's, in MathT). */ \
    template <typename DType>                              \
    static SHADE_XINLINE DType Map(DType a) {              \
      return DType(std::cfn(detail::M(a)));                \
    }                                                      \
    SHADE_OP_COST_(code)                                   \
  }
/// Defines (internal) the functor of the two-operand C library function `cfn`, computed in
/// MathT, without a packet form.
#define SHADE_OP_CMATH2_(name, cfn, code)                  \
  struct name {                                            \
    /*! \brief Scalar form (the C library's, in MathT). */ \
    template <typename DType>                              \
    static SHADE_XINLINE DType Map(DType a, DType b) {     \
      return DType(std::cfn(detail::M(a), detail::M(b)));  \
    }                                                      \
    SHADE_OP_COST_(code)                                   \
  }
/*! \brief 2 ** a */
SHADE_OP_CMATH1_(exp2, exp2, kExp2);
/*! \brief cube root (negative for negative a) */
SHADE_OP_CMATH1_(cbrt, cbrt, kCbrt);
/*! \brief the angle of the point (b, a): atan(a / b) in the right quadrant, in [-pi, pi] */
SHADE_OP_CMATH2_(arctan2, atan2, kArctan2);
/*! \brief sqrt(a * a + b * b) without intermediate overflow; inf if either is inf */
SHADE_OP_CMATH2_(hypot, hypot, kHypot);
#undef SHADE_OP_CMATH2_
#undef SHADE_OP_CMATH1_
/*! \brief log(e ** a + e ** b) without overflow (NumPy's npy_logaddexp) */
struct logaddexp {
  /*! \brief Scalar form, in MathT. */
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a, DType b) {
    using T = detail::MathT<DType>;
    const T x = static_cast<T>(a), y = static_cast<T>(b);
    if (x == y) return DType(x + T(0.693147180559945309417232121458176568));  // also +-inf
    const T d = x - y;
    if (d > T(0)) return DType(x + std::log1p(std::exp(-d)));
    if (d <= T(0)) return DType(y + std::log1p(std::exp(d)));
    return DType(d);  // NaN
  }
  SHADE_OP_COST_(kLogaddexp)
};
/*! \brief |a| with the sign bit of b */
struct copysign {
  /*! \brief Scalar form, in MathT (exact). */
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a, DType b) {
    return DType(std::copysign(detail::M(a), detail::M(b)));
  }
  /*! \brief Packet form: the bit operation. */
  template <class D, class V, SHADE_PACKET_IF(packet::kIsFloat<hn::TFromD<D>>)>
  static HWY_INLINE V MapPacket(D d, V a, V b) {
    (void)d;
    return hn::CopySign(a, b);
  }
  SHADE_OP_COST_(kCopysign)
};
/*! \brief 0 for a < 0, b for a == 0, 1 for a > 0, NaN for NaN a (NumPy's npy_heaviside) */
struct heaviside {
  /*! \brief Scalar form, in MathT. */
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a, DType b) {
    using T = detail::MathT<DType>;
    const T x = static_cast<T>(a);
    if (x < T(0)) return DType(T(0));
    if (x > T(0)) return DType(T(1));
    if (x == T(0)) return b;
    return DType(std::numeric_limits<T>::quiet_NaN());
  }
  SHADE_OP_COST_(kHeaviside)
};
/// pi as NumPy's NPY_PI (double) and NPY_PIf (float): the constants of deg2rad and rad2deg are
/// computed in the math type, as npy_deg2rad / npy_deg2radf do.
#define SHADE_OP_PI_ 3.141592653589793238462643383279502884
/*! \brief a * (pi / 180), the constant computed in MathT (NumPy's npy_deg2rad) */
struct deg2rad {
  /*! \brief Scalar form, in MathT. */
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a) {
    using T = detail::MathT<DType>;
    return DType(static_cast<T>(a) * (static_cast<T>(SHADE_OP_PI_) / static_cast<T>(180)));
  }
  SHADE_OP_COST_(kDeg2rad)
};
/*! \brief a * (180 / pi), the constant computed in MathT (NumPy's npy_rad2deg) */
struct rad2deg {
  /*! \brief Scalar form, in MathT. */
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a) {
    using T = detail::MathT<DType>;
    return DType(static_cast<T>(a) * (static_cast<T>(180) / static_cast<T>(SHADE_OP_PI_)));
  }
  SHADE_OP_COST_(kRad2deg)
};
/*! \brief sin(pi a) / (pi a), 1 at 0 (numpy.sinc: pi * 1e-20 stands in for 0) */
struct sinc {
  /*! \brief Scalar form, in double (NumPy computes sinc of every dtype in float64). */
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a) {
    const double x = static_cast<double>(detail::M(a));
    const double y = SHADE_OP_PI_ * (x == 0 ? 1.0e-20 : x);
    return DType(std::sin(y) / y);
  }
  SHADE_OP_COST_(kSinc)
};
#undef SHADE_OP_PI_
#undef SHADE_OP_MATH_
#undef SHADE_OP_BINARY_
#undef SHADE_OP_UNARY_
#undef SHADE_OP_COST_
#undef SHADE_OP_PACKET2_
#undef SHADE_OP_PACKET1_
SHADE_TARGET_NAMESPACE_END
}  // namespace op

namespace red {
namespace hn = packet::hn;
SHADE_TARGET_NAMESPACE_BEGIN
namespace detail {
/*!
 * \brief The lowest (kLow) or highest value of DType: +-inf for floating types, or with kFinite
 *  the finite extreme as mshadow's red::limits (-FLT_MAX, -DBL_MAX, -65504, ...); the integer
 *  extremes for integers.
 */
template <typename DType, bool kLow, bool kFinite>
SHADE_XINLINE DType Limit() {
  if constexpr (kIsFloating<DType> && !kFinite) {
    const float inf = std::numeric_limits<float>::infinity();
    return DType(kLow ? -inf : inf);
  } else if constexpr (kIsFloat16<DType>) {
    // numeric_limits has no 16-bit floats: their largest finite bit patterns, sign set for kLow.
    const bool half = DataType<DType>::kFlag == kFloat16;
    return DType::Binary((kLow ? 0x8000 : 0) | (half ? 0x7BFF : 0x7F7F));
  } else {
    return kLow ? std::numeric_limits<DType>::lowest() : std::numeric_limits<DType>::max();
  }
}
}  // namespace detail

/*! \brief Sum reduction: dst += src from 0. */
struct sum {
  /*! \brief Folds src into dst. */
  template <typename DType>
  static SHADE_XINLINE void Reduce(DType& dst, DType src) {
    dst = DType(dst + src);
  }  // NOLINT
  /*! \brief d(sum)/d(src) = 1. */
  template <typename DType>
  static SHADE_XINLINE DType PartialGrad(DType /*redres*/, DType /*redsrc*/) {
    return DType(1);
  }
  /*! \brief Identity element: 0. */
  template <typename DType>
  static SHADE_XINLINE void SetInitValue(DType& initv) {
    initv = DType(0);
  }  // NOLINT
  /*! \brief Packet fold, lanewise identical to Reduce (used by backend/cpu/reduce.h). */
  template <class D, class V>
  static HWY_INLINE V ReducePacket(D d, V dst, V src) {
    return packet::Add(d, dst, src);
  }
  /*! \brief Compensated (Kahan) fold with a running residual (mshadow's three-argument form). */
  template <typename DType>
  static SHADE_XINLINE void Reduce(DType& dst, DType src, DType& residual) {  // NOLINT
    const DType y = DType(src - residual);
    const DType t = DType(dst + y);
    residual = DType(DType(t - dst) - y);
    dst = t;
  }
  /*! \brief Combines two partial sums (mshadow's Merge). */
  template <typename DType>
  static SHADE_XINLINE void Merge(DType& dst_val, DType& src_val) {  // NOLINT
    Reduce(dst_val, src_val);
  }
  /*! \brief Combines two compensated partial sums, residuals included (mshadow's formula). */
  template <typename DType>
  static SHADE_XINLINE void Merge(DType& dst_val, DType& dst_residual, DType& src_val,  // NOLINT
                                  DType& src_residual) {                                // NOLINT
    const DType t1 = DType(dst_val + src_val);
    const DType e = DType(t1 - dst_val);
    const DType t2 =
        DType(DType(DType(src_val - e) + DType(dst_val - DType(t1 - e))) + dst_residual) +
        src_residual;
    dst_val = DType(t1 + t2);
    dst_residual = DType(t2 - DType(dst_val - t1));
  }
  /*! \brief Nothing to finish for a sum. */
  template <typename DType>
  static SHADE_XINLINE void Finalize(DType& /*dst*/) {}  // NOLINT
  /*! \brief Nothing to finish for a compensated sum. */
  template <typename DType>
  static SHADE_XINLINE void Finalize(DType& /*dst*/, DType& /*residual*/) {}  // NOLINT
  /*! \brief Identity element and a zero residual. */
  template <typename DType>
  static SHADE_XINLINE void SetInitValue(DType& initv, DType& residual) {  // NOLINT
    initv = DType(0);
    residual = DType(0);
  }
};
namespace detail {
/*!
 * \brief The max (kMax) or min reduction: keeps the larger (smaller) value; NaN never wins.
 *  It starts from the lowest (highest) finite value, as mshadow's, or from -inf (+inf) with
 *  kFromInfinity, as NumPy's reductions need (the max of {-inf} is -inf).
 */
template <bool kMax, bool kFromInfinity>
struct Extremum {
  /*! \brief Folds src into dst. */
  template <typename DType>
  static SHADE_XINLINE void Reduce(DType& dst, DType src) {  // NOLINT
    if (kMax ? dst < src : src < dst) dst = src;
  }
  /*! \brief 1 where src is the extremum, else 0. */
  template <typename DType>
  static SHADE_XINLINE DType PartialGrad(DType redres, DType redsrc) {
    return redres == redsrc ? DType(1) : DType(0);
  }
  /*! \brief Initial value: the lowest (max) or highest (min) finite value, or +-inf. */
  template <typename DType>
  static SHADE_XINLINE void SetInitValue(DType& initv) {  // NOLINT
    initv = Limit<DType, kMax, !kFromInfinity>();
  }
  /*! \brief Packet fold, lanewise identical to Reduce (used by backend/cpu/reduce.h). */
  template <class D, class V>
  static HWY_INLINE V ReducePacket(D d, V dst, V src) {
    (void)d;
#if HWY_ARCH_X86 && HWY_TARGET != HWY_SCALAR && HWY_TARGET != HWY_EMU128
    // x86's max/min (Highway's Max/Min there) return their second operand unless the first
    // wins the strict comparison, so with src first they keep dst for NaN and for equal values
    // (+-0), as below, in one instruction instead of a compare and a blend; integers have no
    // such cases. pool's 2x2 row loops spent a third of their time in those blends.
    return kMax ? hn::Max(src, dst) : hn::Min(src, dst);
#else
    if constexpr (kMax) {
      return hn::IfThenElse(hn::Lt(dst, src), src, dst);
    } else {
      return hn::IfThenElse(hn::Lt(src, dst), src, dst);
    }
#endif
  }
  /*! \brief Three-argument form: the third (residual) argument is unused. */
  template <typename DType>
  static SHADE_XINLINE void Reduce(DType& dst, DType src, DType& /*none*/) {  // NOLINT
    Reduce(dst, src);
  }
  /*! \brief Combines two partial results (mshadow's Merge). */
  template <typename DType>
  static SHADE_XINLINE void Merge(DType& dst_val, DType& src_val) {  // NOLINT
    Reduce(dst_val, src_val);
  }
  /*! \brief Four-argument Merge: the residuals are unused. */
  template <typename DType>
  static SHADE_XINLINE void Merge(DType& dst_val, DType& /*dst_residual*/,
                                  DType& src_val,             // NOLINT
                                  DType& /*src_residual*/) {  // NOLINT
    Reduce(dst_val, src_val);
  }
  /*! \brief Nothing to finish. */
  template <typename DType>
  static SHADE_XINLINE void Finalize(DType& /*dst*/) {}  // NOLINT
  /*! \brief Nothing to finish. */
  template <typename DType>
  static SHADE_XINLINE void Finalize(DType& /*dst*/, DType& /*residual*/) {}  // NOLINT
  /*! \brief Identity element; the residual is unused. */
  template <typename DType>
  static SHADE_XINLINE void SetInitValue(DType& initv, DType& /*none*/) {  // NOLINT
    SetInitValue(initv);
  }
};
}  // namespace detail
/*!
 * \brief Maximum reduction, starting from the lowest finite value as mshadow's does (-FLT_MAX
 *  for float): a maximum over nothing, or over -inf only, gives that value.
 */
struct maximum : detail::Extremum<true, false> {};
/*! \brief Minimum reduction, starting from the highest finite value (mshadow's FLT_MAX). */
struct minimum : detail::Extremum<false, false> {};
/*! \brief Maximum reduction from -inf (NumPy's: the max of {-inf} is -inf). */
struct maximum_from_inf : detail::Extremum<true, true> {};
/*! \brief Minimum reduction from +inf (NumPy's: the min of {+inf} is +inf). */
struct minimum_from_inf : detail::Extremum<false, true> {};
SHADE_TARGET_NAMESPACE_END
}  // namespace red
}  // namespace shade

#endif  // SHADE_FUNCTOR_OP_H_
