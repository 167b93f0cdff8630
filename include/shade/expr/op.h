/*!
 * \file op.h
 * \brief Element functors `op::` (used by F<OP>, the operators and the savers) and reduction
 *  functors `red::`.
 *
 * Every functor is a struct with `template <typename DType> static DType Map(DType a[, DType b])`
 * so that a packet form (`MapPacket`) can later be added beside each one without touching the
 * expression templates. Transcendental functions compute in float for the 16-bit types and in
 * the type's own precision otherwise (double for integers), then convert back.
 */
#ifndef SHADE_EXPR_OP_H_
#define SHADE_EXPR_OP_H_

#include <cmath>
#include <limits>
#include <type_traits>

#include "shade/base/dtype.h"
#include "shade/base/index.h"

namespace shade {
namespace op {
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
};
/*! \brief a + b */
struct plus {
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a, DType b) { return DType(a + b); }
};
/*! \brief a - b */
struct minus {
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a, DType b) { return DType(a - b); }
};
/*! \brief a * b */
struct mul {
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a, DType b) { return DType(a * b); }
};
/*! \brief a / b (integer division truncates, as in C++) */
struct div {
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a, DType b) { return DType(a / b); }
};
/*! \brief b: the right operand (the saver `=` applies it). */
struct right {
  template <typename DType>
  static SHADE_XINLINE DType Map(DType /*a*/, DType b) { return b; }
};
/*! \brief max(a, b); NaN in a is kept. */
struct maximum {
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a, DType b) { return a < b ? b : a; }
};
/*! \brief min(a, b); NaN in a is kept. */
struct minimum {
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a, DType b) { return b < a ? b : a; }
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
};
/*! \brief e ** a */
struct exp {
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a) { return DType(std::exp(detail::M(a))); }
};
/*! \brief natural logarithm */
struct log {
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a) { return DType(std::log(detail::M(a))); }
};
/*! \brief log(1 + a), accurate near 0 */
struct log1p {
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a) { return DType(std::log1p(detail::M(a))); }
};
/*! \brief e ** a - 1, accurate near 0 */
struct expm1 {
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a) { return DType(std::expm1(detail::M(a))); }
};
/*! \brief square root */
struct sqrt {
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a) { return DType(std::sqrt(detail::M(a))); }
};
/*! \brief 1 / sqrt(a) */
struct rsqrt {
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a) {
    using T = std::conditional_t<std::is_integral<DType>::value, double, detail::MathT<DType>>;
    return DType(T(1) / std::sqrt(static_cast<T>(a)));
  }
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
};
/*! \brief a * a */
struct square {
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a) { return DType(a * a); }
};
/*! \brief hyperbolic tangent */
struct tanh {
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a) { return DType(std::tanh(detail::M(a))); }
};
/*! \brief 1 / (1 + e ** -a) */
struct sigmoid {
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a) {
    using T = std::conditional_t<std::is_integral<DType>::value, double, detail::MathT<DType>>;
    return DType(T(1) / (T(1) + std::exp(-static_cast<T>(a))));
  }
};
/*! \brief max(a, 0) */
struct relu {
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a) { return DType(0) < a ? a : DType(0); }
};
/*! \brief -1, 0 or 1 by the sign of a */
struct sign {
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a) {
    if (DType(0) < a) return DType(1);
    if (a < DType(0)) return DType(-1);
    return DType(0);
  }
};
}  // namespace op

namespace red {
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
};
}  // namespace red
}  // namespace shade

#endif  // SHADE_EXPR_OP_H_
