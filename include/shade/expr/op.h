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
 * (backend/cpu/reduce.h, which take the `red::` reducers below) all use them. Transcendental functions compute in float for the 16-bit types and in
 * the type's own precision otherwise (double for integers), then convert back.
 */
#ifndef SHADE_EXPR_OP_H_
#define SHADE_EXPR_OP_H_

#include <cmath>
#include <limits>
#include <type_traits>

#include "shade/base/dtype.h"
#include "shade/base/index.h"
#include "shade/packet/packet.h"

namespace shade {
namespace op {
namespace hn = packet::hn;
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

/*! \brief a */
struct identity {
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a) { return a; }
  /*! \brief Packet form. */
  template <class D, class V>
  static HWY_INLINE V MapPacket(D d, V a) { (void)d; return a; }
};
/*! \brief a + b */
struct plus {
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a, DType b) { return DType(a + b); }
  /*! \brief Packet form. */
  template <class D, class V>
  static HWY_INLINE V MapPacket(D d, V a, V b) { return packet::Add(d, a, b); }
};
/*! \brief a - b */
struct minus {
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a, DType b) { return DType(a - b); }
  /*! \brief Packet form. */
  template <class D, class V>
  static HWY_INLINE V MapPacket(D d, V a, V b) { return packet::Sub(d, a, b); }
};
/*! \brief a * b */
struct mul {
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a, DType b) { return DType(a * b); }
  /*! \brief Packet form. */
  template <class D, class V, SHADE_PACKET_IF(packet::kHasMul<hn::TFromD<D>>)>
  static HWY_INLINE V MapPacket(D d, V a, V b) { return packet::Mul(d, a, b); }
};
/*! \brief a / b (integer division truncates, as in C++) */
struct div {
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a, DType b) { return DType(a / b); }
  /*! \brief Packet form. */
  template <class D, class V, SHADE_PACKET_IF(packet::kIsFloat<hn::TFromD<D>>)>
  static HWY_INLINE V MapPacket(D d, V a, V b) { return packet::Div(d, a, b); }
};
/*! \brief b: the right operand (the saver `=` applies it). */
struct right {
  template <typename DType>
  static SHADE_XINLINE DType Map(DType /*a*/, DType b) { return b; }
  /*! \brief Packet form. */
  template <class D, class V>
  static HWY_INLINE V MapPacket(D d, V a, V b) { (void)d; (void)a; return b; }
};
/*! \brief max(a, b); NaN in a is kept. */
struct maximum {
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a, DType b) { return a < b ? b : a; }
  /*! \brief Packet form. */
  template <class D, class V>
  static HWY_INLINE V MapPacket(D d, V a, V b) { return packet::Max(d, a, b); }
};
/*! \brief min(a, b); NaN in a is kept. */
struct minimum {
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a, DType b) { return b < a ? b : a; }
  /*! \brief Packet form. */
  template <class D, class V>
  static HWY_INLINE V MapPacket(D d, V a, V b) { return packet::Min(d, a, b); }
};
/*! \brief a ** b */
struct power {
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a, DType b) {
    return DType(std::pow(detail::M(a), detail::M(b)));
  }
};
/*! \brief -a */
struct negation {
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a) { return DType(-a); }
  /*! \brief Packet form. */
  template <class D, class V, SHADE_PACKET_IF(packet::kIsSignedLane<hn::TFromD<D>>)>
  static HWY_INLINE V MapPacket(D d, V a) { return packet::Neg(d, a); }
};
/*! \brief e ** a */
struct exp {
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a) { return DType(std::exp(detail::M(a))); }
  /*! \brief Packet form. */
  template <class D, class V, SHADE_PACKET_IF(packet::kIsFloat<hn::TFromD<D>>)>
  static HWY_INLINE V MapPacket(D d, V a) { return packet::Exp(d, a); }
  /*! \brief Packet work per element relative to an add (sets the threading grain). */
  static constexpr int kCost = 20;
};
/*! \brief natural logarithm */
struct log {
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a) { return DType(std::log(detail::M(a))); }
  /*! \brief Packet form. */
  template <class D, class V, SHADE_PACKET_IF(packet::kIsFloat<hn::TFromD<D>>)>
  static HWY_INLINE V MapPacket(D d, V a) { return packet::Log(d, a); }
  /*! \brief Packet work per element relative to an add (sets the threading grain). */
  static constexpr int kCost = 20;
};
/*! \brief log(1 + a), accurate near 0 */
struct log1p {
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a) { return DType(std::log1p(detail::M(a))); }
  /*! \brief Packet form. */
  template <class D, class V, SHADE_PACKET_IF(packet::kIsFloat<hn::TFromD<D>>)>
  static HWY_INLINE V MapPacket(D d, V a) { return packet::Log1p(d, a); }
  /*! \brief Packet work per element relative to an add (sets the threading grain). */
  static constexpr int kCost = 20;
};
/*! \brief e ** a - 1, accurate near 0 */
struct expm1 {
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a) { return DType(std::expm1(detail::M(a))); }
  /*! \brief Packet form. */
  template <class D, class V, SHADE_PACKET_IF(packet::kIsFloat<hn::TFromD<D>>)>
  static HWY_INLINE V MapPacket(D d, V a) { return packet::Expm1(d, a); }
  /*! \brief Packet work per element relative to an add (sets the threading grain). */
  static constexpr int kCost = 20;
};
/*! \brief square root */
struct sqrt {
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a) { return DType(std::sqrt(detail::M(a))); }
  /*! \brief Packet form. */
  template <class D, class V, SHADE_PACKET_IF(packet::kIsFloat<hn::TFromD<D>>)>
  static HWY_INLINE V MapPacket(D d, V a) { return packet::Sqrt(d, a); }
  /*! \brief Packet work per element relative to an add (sets the threading grain). */
  static constexpr int kCost = 4;
};
/*! \brief 1 / sqrt(a) */
struct rsqrt {
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a) {
    using T = std::conditional_t<std::is_integral<DType>::value, double, detail::MathT<DType>>;
    return DType(T(1) / std::sqrt(static_cast<T>(a)));
  }
  /*! \brief Packet form. */
  template <class D, class V, SHADE_PACKET_IF(packet::kIsFloat<hn::TFromD<D>>)>
  static HWY_INLINE V MapPacket(D d, V a) { return packet::Rsqrt(d, a); }
  /*! \brief Packet work per element relative to an add (sets the threading grain). */
  static constexpr int kCost = 6;
};
/*! \brief |a| (unsigned types are returned unchanged) */
struct abs {
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a) {
    if constexpr (std::is_unsigned<DType>::value) {
      return a;
    } else {
      return a < DType(0) ? DType(-a) : a;
    }
  }
  /*! \brief Packet form. */
  template <class D, class V, SHADE_PACKET_IF(packet::kIsSignedLane<hn::TFromD<D>>)>
  static HWY_INLINE V MapPacket(D d, V a) { return packet::Abs(d, a); }
};
/*! \brief a * a */
struct square {
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a) { return DType(a * a); }
  /*! \brief Packet form. */
  template <class D, class V, SHADE_PACKET_IF(packet::kHasMul<hn::TFromD<D>>)>
  static HWY_INLINE V MapPacket(D d, V a) { return packet::Square(d, a); }
};
/*! \brief hyperbolic tangent */
struct tanh {
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a) { return DType(std::tanh(detail::M(a))); }
  /*! \brief Packet form. */
  template <class D, class V, SHADE_PACKET_IF(packet::kIsFloat<hn::TFromD<D>>)>
  static HWY_INLINE V MapPacket(D d, V a) { return packet::Tanh(d, a); }
  /*! \brief Packet work per element relative to an add (sets the threading grain). */
  static constexpr int kCost = 20;
};
/*! \brief 1 / (1 + e ** -a) */
struct sigmoid {
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a) {
    using T = std::conditional_t<std::is_integral<DType>::value, double, detail::MathT<DType>>;
    return DType(T(1) / (T(1) + std::exp(-static_cast<T>(a))));
  }
  /*! \brief Packet form. */
  template <class D, class V, SHADE_PACKET_IF(packet::kIsFloat<hn::TFromD<D>>)>
  static HWY_INLINE V MapPacket(D d, V a) { return packet::Sigmoid(d, a); }
  /*! \brief Packet work per element relative to an add (sets the threading grain). */
  static constexpr int kCost = 20;
};
/*! \brief max(a, 0) */
struct relu {
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a) { return DType(0) < a ? a : DType(0); }
  /*! \brief Packet form. */
  template <class D, class V>
  static HWY_INLINE V MapPacket(D d, V a) { return packet::Relu(d, a); }
};
/*! \brief -1, 0 or 1 by the sign of a */
struct sign {
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a) {
    if (DType(0) < a) return DType(1);
    if (a < DType(0)) return DType(-1);
    return DType(0);
  }
  /*! \brief Packet form. */
  template <class D, class V, SHADE_PACKET_IF(packet::kIsSignedLane<hn::TFromD<D>>)>
  static HWY_INLINE V MapPacket(D d, V a) { return packet::Sign(d, a); }
};
}  // namespace op

namespace red {
namespace hn = packet::hn;
namespace detail {
/*! \brief Most negative value of DType (-inf for floating types). */
template <typename DType>
SHADE_XINLINE DType Lowest() {
  if constexpr (kIsFloating<DType>) {
    return DType(-std::numeric_limits<float>::infinity());
  } else {
    return std::numeric_limits<DType>::lowest();
  }
}
/*! \brief Most positive value of DType (+inf for floating types). */
template <typename DType>
SHADE_XINLINE DType Highest() {
  if constexpr (kIsFloating<DType>) {
    return DType(std::numeric_limits<float>::infinity());
  } else {
    return std::numeric_limits<DType>::max();
  }
}
}  // namespace detail

/*! \brief Sum reduction: dst += src from 0. */
struct sum {
  /*! \brief Folds src into dst. */
  template <typename DType>
  static SHADE_XINLINE void Reduce(DType& dst, DType src) { dst = DType(dst + src); }  // NOLINT
  /*! \brief d(sum)/d(src) = 1. */
  template <typename DType>
  static SHADE_XINLINE DType PartialGrad(DType /*redres*/, DType /*redsrc*/) { return DType(1); }
  /*! \brief Identity element: 0. */
  template <typename DType>
  static SHADE_XINLINE void SetInitValue(DType& initv) { initv = DType(0); }  // NOLINT
  /*! \brief Packet fold, lanewise identical to Reduce (used by backend/cpu/reduce.h). */
  template <class D, class V>
  static HWY_INLINE V ReducePacket(D d, V dst, V src) { return packet::Add(d, dst, src); }
};
/*! \brief Maximum reduction, starting from the lowest value. */
struct maximum {
  /*! \brief Folds src into dst. */
  template <typename DType>
  static SHADE_XINLINE void Reduce(DType& dst, DType src) {  // NOLINT
    if (dst < src) dst = src;
  }
  /*! \brief 1 where src is the maximum, else 0. */
  template <typename DType>
  static SHADE_XINLINE DType PartialGrad(DType redres, DType redsrc) {
    return redres == redsrc ? DType(1) : DType(0);
  }
  /*! \brief Identity element: the lowest value (-inf for floats). */
  template <typename DType>
  static SHADE_XINLINE void SetInitValue(DType& initv) { initv = detail::Lowest<DType>(); }  // NOLINT
  /*! \brief Packet fold, lanewise identical to Reduce (used by backend/cpu/reduce.h). */
  template <class D, class V>
  static HWY_INLINE V ReducePacket(D d, V dst, V src) { (void)d; return hn::IfThenElse(hn::Lt(dst, src), src, dst); }
};
/*! \brief Minimum reduction, starting from the highest value. */
struct minimum {
  /*! \brief Folds src into dst. */
  template <typename DType>
  static SHADE_XINLINE void Reduce(DType& dst, DType src) {  // NOLINT
    if (src < dst) dst = src;
  }
  /*! \brief 1 where src is the minimum, else 0. */
  template <typename DType>
  static SHADE_XINLINE DType PartialGrad(DType redres, DType redsrc) {
    return redres == redsrc ? DType(1) : DType(0);
  }
  /*! \brief Identity element: the highest value (+inf for floats). */
  template <typename DType>
  static SHADE_XINLINE void SetInitValue(DType& initv) { initv = detail::Highest<DType>(); }  // NOLINT
  /*! \brief Packet fold, lanewise identical to Reduce (used by backend/cpu/reduce.h). */
  template <class D, class V>
  static HWY_INLINE V ReducePacket(D d, V dst, V src) { (void)d; return hn::IfThenElse(hn::Lt(src, dst), src, dst); }
};
}  // namespace red
}  // namespace shade

#endif  // SHADE_EXPR_OP_H_
