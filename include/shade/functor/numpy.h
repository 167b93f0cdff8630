/*!
 * \file numpy.h
 * \brief Element functors with NumPy semantics for the dynamic front end (`op::numpy::`), in
 *  the style of functor/op.h: a scalar `Map` and, where the kernel layer can vectorise it, a packet
 *  `MapPacket` (packet.h's HasPacket protocol).
 *
 * There is one implementation of each operation: where functor/op.h's functor already has NumPy's
 * semantics its `Map` is inherited, and the packet form is packet.h's function of the same
 * name. The functors written here are those whose NumPy meaning differs from the C++ one:
 * signed integer arithmetic wraps (no C++ overflow UB), floor division and remainder take the
 * sign of the divisor and give 0 for an integer divisor of 0 (NumPy's result, without its
 * warning), integer power is exact and rejects negative exponents, maximum/minimum/sign
 * propagate NaN, comparisons give 1/0 in the compute type.
 */
#ifndef SHADE_FUNCTOR_NUMPY_H_
#define SHADE_FUNCTOR_NUMPY_H_

#include <cmath>
#include <cstdint>
#include <functional>
#include <type_traits>

#include "shade/base/dtype.h"
#include "shade/base/error.h"
#include "shade/base/index.h"
#include "shade/functor/op.h"
#include "shade/packet/packet.h"

namespace shade {
namespace op {
namespace numpy {

namespace hn = packet::hn;

SHADE_TARGET_NAMESPACE_BEGIN

namespace detail {
template <typename T>
constexpr bool kSignedInt = (std::is_integral<T>::value && std::is_signed<T>::value);
template <typename T>
using U = std::make_unsigned_t<T>;
/*! \brief Integer types (bool excluded) whose + - * go through WrapInt. */
template <typename T>
constexpr bool kWrapInt = std::is_integral<T>::value && !std::is_same<T, bool>::value;
/*!
 * \brief a op b for an integer type without C++ overflow: computed in unsigned arithmetic
 *  (unsigned int for types narrower than int, whose promotion to int could overflow in a
 *  product; else the unsigned twin), so signed results wrap as NumPy's do.
 */
template <class Op, typename T>
SHADE_XINLINE T WrapInt(T a, T b) {
  using W = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, U<T>>;
  return static_cast<T>(Op{}(static_cast<W>(a), static_cast<W>(b)));
}
/*! \brief float for the 16-bit floats, the type itself otherwise. */
template <typename T>
using MathT = op::detail::MathT<T>;
template <class D>
constexpr bool kFloatLane = packet::kIsFloat<hn::TFromD<D>>;
template <class D>
constexpr bool kIntLane = packet::kIsLane<hn::TFromD<D>> && !packet::kIsFloat<hn::TFromD<D>>;
template <typename T>
SHADE_XINLINE bool IsNaN(T v) {
  if constexpr (kIsFloating<T>) {
    return static_cast<MathT<T>>(v) != static_cast<MathT<T>>(v);
  } else {
    return false;
  }
}
}  // namespace detail
/*! \brief NaN test for every element type (the 16-bit floats through float; false for integers):
 *  the one NaN test of NumPy's functors and of NDArray's NaN-propagating reductions. */
using detail::IsNaN;

/*! \brief a + b; signed integers wrap as in NumPy. */
struct plus {
  /*! \brief Returns a + b (wrapping for signed integers). */
  template <typename T>
  static SHADE_XINLINE T Map(T a, T b) {
    if constexpr (detail::kWrapInt<T>) {
      return detail::WrapInt<std::plus<>>(a, b);
    } else {
      return op::plus::Map(a, b);
    }
  }
  /*! \brief Lane-wise a + b over the lanes of D. */
  template <class D, class V>
  static HWY_INLINE V MapPacket(D d, V a, V b) {
    return packet::Add(d, a, b);
  }
};
/*! \brief a - b; signed integers wrap. */
struct minus {
  /*! \brief Returns a - b (wrapping for signed integers). */
  template <typename T>
  static SHADE_XINLINE T Map(T a, T b) {
    if constexpr (detail::kWrapInt<T>) {
      return detail::WrapInt<std::minus<>>(a, b);
    } else {
      return op::minus::Map(a, b);
    }
  }
  /*! \brief Lane-wise a - b over the lanes of D. */
  template <class D, class V>
  static HWY_INLINE V MapPacket(D d, V a, V b) {
    return packet::Sub(d, a, b);
  }
};
/*! \brief a * b; signed integers wrap. */
struct mul {
  /*! \brief Returns a * b (wrapping for signed integers). */
  template <typename T>
  static SHADE_XINLINE T Map(T a, T b) {
    if constexpr (detail::kWrapInt<T>) {
      return detail::WrapInt<std::multiplies<>>(a, b);
    } else {
      return op::mul::Map(a, b);
    }
  }
  /*! \brief Lane-wise a * b (only for lane types with a packet multiply). */
  template <class D, class V, SHADE_PACKET_IF(packet::kHasMul<hn::TFromD<D>>)>
  static HWY_INLINE V MapPacket(D d, V a, V b) {
    return packet::Mul(d, a, b);
  }
};
/*! \brief a / b for floating types (true_divide computes in a float type). */
struct true_divide {
  /*! \brief Returns a / b. */
  template <typename T>
  static SHADE_XINLINE T Map(T a, T b) {
    return op::div::Map(a, b);
  }
  /*! \brief Lane-wise a / b (floating lanes only). */
  template <class D, class V, SHADE_PACKET_IF(detail::kFloatLane<D>)>
  static HWY_INLINE V MapPacket(D d, V a, V b) {
    return packet::Div(d, a, b);
  }
};

namespace detail {
// NumPy's float divmod: the quotient rounded toward -inf and the remainder with the sign of
// the divisor, computed from fmod so that q * b + r == a as closely as floating point allows.
template <typename F>
SHADE_XINLINE void FloatDivmod(F a, F b, F* q, F* r) {
  F mod = std::fmod(a, b);
  if (b == F(0)) {
    *r = mod;
    *q = a / b;
    return;
  }
  F div = (a - mod) / b;
  if (mod != F(0)) {
    if ((b < F(0)) != (mod < F(0))) {
      mod += b;
      div -= F(1);
    }
  } else {
    mod = std::copysign(F(0), b);
  }
  F floordiv;
  if (div != F(0)) {
    floordiv = std::floor(div);
    if (div - floordiv > F(0.5)) floordiv += F(1);
  } else {
    floordiv = std::copysign(F(0), a / b);
  }
  *q = floordiv;
  *r = mod;
}
}  // namespace detail

/*! \brief floor(a / b): integers round toward -inf, b == 0 gives 0, MIN // -1 gives MIN. */
struct floor_divide {
  /*! \brief The registry's cost (functor/op_registry.h). */
  static constexpr int kCost = OpCostOf(OpCode::kFloorDivide);
  /*! \brief Returns floor(a / b) with the integer rules above (b == 0 gives 0). */
  template <typename T>
  static SHADE_XINLINE T Map(T a, T b) {
    if constexpr (std::is_same<T, bool>::value) {
      return b ? a : false;
    } else if constexpr (std::is_integral<T>::value) {
      if (b == 0) return T(0);
      if constexpr (std::is_signed<T>::value) {
        if (b == T(-1)) return static_cast<T>(detail::U<T>(0) - static_cast<detail::U<T>>(a));
        T q = static_cast<T>(a / b);
        if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
        return q;
      } else {
        return static_cast<T>(a / b);
      }
    } else {
      using M = detail::MathT<T>;
      M q, r;
      if (static_cast<M>(b) == M(0)) return T(static_cast<M>(a) / static_cast<M>(b));
      detail::FloatDivmod(static_cast<M>(a), static_cast<M>(b), &q, &r);
      return T(q);
    }
  }
};
/*! \brief a - floor(a / b) * b with the sign of b (Python's %); integer b == 0 gives 0. */
struct remainder {
  /*! \brief The registry's cost (functor/op_registry.h). */
  static constexpr int kCost = OpCostOf(OpCode::kRemainder);
  /*! \brief Returns a % b with the sign of b (integer b == 0 gives 0). */
  template <typename T>
  static SHADE_XINLINE T Map(T a, T b) {
    if constexpr (std::is_same<T, bool>::value) {
      return false;
    } else if constexpr (std::is_integral<T>::value) {
      if (b == 0) return T(0);
      if constexpr (std::is_signed<T>::value) {
        if (b == T(-1)) return T(0);
        T r = static_cast<T>(a % b);
        if (r != 0 && ((r < 0) != (b < 0))) r = static_cast<T>(r + b);
        return r;
      } else {
        return static_cast<T>(a % b);
      }
    } else {
      using M = detail::MathT<T>;
      if (static_cast<M>(b) == M(0)) return T(std::fmod(static_cast<M>(a), static_cast<M>(b)));
      M q, r;
      detail::FloatDivmod(static_cast<M>(a), static_cast<M>(b), &q, &r);
      return T(r);
    }
  }
};
/*!
 * \brief a ** b: floats through op::power (the C library's pow); integers exactly by repeated
 *  squaring with wrap-around, and a negative integer exponent throws shade::Error (NumPy's
 *  ValueError).
 */
struct power {
  /*! \brief The registry's cost (functor/op_registry.h). */
  static constexpr int kCost = OpCostOf(OpCode::kPower);
  /*!
   * \brief Returns a ** b; throws shade::Error for a negative integer exponent of a signed integer
   *  type.
   */
  template <typename T>
  static SHADE_XINLINE T Map(T a, T b) {
    if constexpr (std::is_same<T, bool>::value) {
      return a || !b;
    } else if constexpr (std::is_integral<T>::value) {
      if constexpr (std::is_signed<T>::value) {
        if (b < 0) {
          SHADE_THROW << "power: integers to negative integer powers are not allowed (exponent "
                      << static_cast<std::int64_t>(b) << ")";
        }
      }
      using W = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, detail::U<T>>;
      W base = static_cast<W>(static_cast<detail::U<T>>(a)), out = 1;
      auto e = static_cast<detail::U<T>>(b);
      while (e) {
        if (e & 1u) out = static_cast<W>(static_cast<detail::U<T>>(out * base));
        base = static_cast<W>(static_cast<detail::U<T>>(base * base));
        e = static_cast<detail::U<T>>(e >> 1);
      }
      return static_cast<T>(static_cast<detail::U<T>>(out));
    } else {
      return op::power::Map(a, b);
    }
  }
};
/*!
 * \brief NumPy's maximum: a NaN in either operand is the result; on a tie (0.0 and -0.0) the
 *  second operand, as NumPy gives on x86 (`np.maximum(0.0, -0.0)` is -0.0).
 */
struct maximum {
  /*! \brief Returns the larger of a and b, or the NaN among them. */
  template <typename T>
  static SHADE_XINLINE T Map(T a, T b) {
    if (detail::IsNaN(a)) return a;
    return a > b ? a : b;  // a NaN in b is not greater: b
  }
  /*! \brief Lane-wise maximum, with the scalar form's NaN and tie rules. */
  template <class D, class V>
  static HWY_INLINE V MapPacket(D d, V a, V b) {
    if constexpr (detail::kFloatLane<D>) {
      return hn::IfThenElse(hn::IsNaN(a), a, hn::IfThenElse(hn::Gt(a, b), a, b));
    } else {
      return packet::Max(d, a, b);  // integers have no ties to tell apart
    }
  }
};
/*!
 * \brief NumPy's minimum: a NaN in either operand is the result; on a tie the second operand
 *  (`np.minimum(-0.0, 0.0)` is 0.0).
 */
struct minimum {
  /*! \brief Returns the smaller of a and b, or the NaN among them. */
  template <typename T>
  static SHADE_XINLINE T Map(T a, T b) {
    if (detail::IsNaN(a)) return a;
    return a < b ? a : b;
  }
  /*! \brief Lane-wise minimum, with the scalar form's NaN and tie rules. */
  template <class D, class V>
  static HWY_INLINE V MapPacket(D d, V a, V b) {
    if constexpr (detail::kFloatLane<D>) {
      return hn::IfThenElse(hn::IsNaN(a), a, hn::IfThenElse(hn::Lt(a, b), a, b));
    } else {
      return packet::Min(d, a, b);
    }
  }
};

namespace detail {
// Lane masks of the comparisons. Highway 1.0 has no integer >= / <=: for integers they are the
// negations of < / >, which is exact there (no NaN).
template <class V>
HWY_INLINE auto LeMask(V a, V b) {
  if constexpr (packet::kIsFloat<hn::TFromV<V>>) {
    return hn::Le(a, b);
  } else {
    return hn::Not(hn::Gt(a, b));
  }
}
template <class V>
HWY_INLINE auto GeMask(V a, V b) {
  if constexpr (packet::kIsFloat<hn::TFromV<V>>) {
    return hn::Ge(a, b);
  } else {
    return hn::Not(hn::Lt(a, b));
  }
}
}  // namespace detail

/// Defines (internal; undefined after use) the comparison functor NAME: scalar form EXPR,
/// packet form from the lane mask MASK.
#define SHADE_NUMPY_COMPARE_(NAME, EXPR, MASK)                             \
  /*! \brief 1 where the comparison holds, else 0, in the compute type. */ \
  struct NAME {                                                            \
    template <typename T>                                                  \
    static SHADE_XINLINE T Map(T a, T b) {                                 \
      return (EXPR) ? T(1) : T(0);                                         \
    }                                                                      \
    template <class D, class V>                                            \
    static HWY_INLINE V MapPacket(D d, V a, V b) {                         \
      return hn::IfThenElseZero(MASK, hn::Set(d, hn::TFromD<D>(1)));       \
    }                                                                      \
  };
SHADE_NUMPY_COMPARE_(equal, a == b, hn::Eq(a, b))
// Not Eq rather than hn::Ne: x86's Ne is the ordered compare (false for NaN); NaN != x holds.
SHADE_NUMPY_COMPARE_(not_equal, a != b, hn::Not(hn::Eq(a, b)))
SHADE_NUMPY_COMPARE_(less, a < b, hn::Lt(a, b))
SHADE_NUMPY_COMPARE_(less_equal, a <= b, detail::LeMask(a, b))
SHADE_NUMPY_COMPARE_(greater, a > b, hn::Gt(a, b))
SHADE_NUMPY_COMPARE_(greater_equal, a >= b, detail::GeMask(a, b))
#undef SHADE_NUMPY_COMPARE_

/*! \brief a and b (operands already converted to bool). */
struct logical_and {
  /*! \brief Returns T(a && b). */
  template <typename T>
  static SHADE_XINLINE T Map(T a, T b) {
    return T(a && b);
  }
};
/*! \brief a or b. */
struct logical_or {
  /*! \brief Returns T(a || b). */
  template <typename T>
  static SHADE_XINLINE T Map(T a, T b) {
    return T(a || b);
  }
};
/*! \brief a xor b. */
struct logical_xor {
  /*! \brief Returns T(bool(a) != bool(b)). */
  template <typename T>
  static SHADE_XINLINE T Map(T a, T b) {
    return T(bool(a) != bool(b));
  }
};
/*! \brief not a. */
struct logical_not {
  /*! \brief Returns T(!a). */
  template <typename T>
  static SHADE_XINLINE T Map(T a) {
    return T(!a);
  }
};
/*! \brief a & b (integers and bool). */
struct bitwise_and {
  /*! \brief Returns a & b. */
  template <typename T>
  static SHADE_XINLINE T Map(T a, T b) {
    return static_cast<T>(a & b);
  }
  /*! \brief Lane-wise a & b (integer lanes only). */
  template <class D, class V, SHADE_PACKET_IF(detail::kIntLane<D>)>
  static HWY_INLINE V MapPacket(D, V a, V b) {
    return hn::And(a, b);
  }
};
/*! \brief a | b. */
struct bitwise_or {
  /*! \brief Returns a | b. */
  template <typename T>
  static SHADE_XINLINE T Map(T a, T b) {
    return static_cast<T>(a | b);
  }
  /*! \brief Lane-wise a | b (integer lanes only). */
  template <class D, class V, SHADE_PACKET_IF(detail::kIntLane<D>)>
  static HWY_INLINE V MapPacket(D, V a, V b) {
    return hn::Or(a, b);
  }
};
/*! \brief a ^ b. */
struct bitwise_xor {
  /*! \brief Returns a ^ b. */
  template <typename T>
  static SHADE_XINLINE T Map(T a, T b) {
    return static_cast<T>(a ^ b);
  }
  /*! \brief Lane-wise a ^ b (integer lanes only). */
  template <class D, class V, SHADE_PACKET_IF(detail::kIntLane<D>)>
  static HWY_INLINE V MapPacket(D, V a, V b) {
    return hn::Xor(a, b);
  }
};
/*! \brief ~a (not a for bool). */
struct bitwise_not {
  /*! \brief Returns ~a (!a for bool). */
  template <typename T>
  static SHADE_XINLINE T Map(T a) {
    if constexpr (std::is_same<T, bool>::value) {
      return !a;
    } else {
      return static_cast<T>(~a);
    }
  }
  /*! \brief Lane-wise ~a (integer lanes only). */
  template <class D, class V, SHADE_PACKET_IF(detail::kIntLane<D>)>
  static HWY_INLINE V MapPacket(D, V a) {
    return hn::Not(a);
  }
};

/*! \brief -a; signed integers wrap (-MIN == MIN), unsigned ones wrap modulo 2^n. */
struct negative {
  /*! \brief Returns -a (wrapping for integers). */
  template <typename T>
  static SHADE_XINLINE T Map(T a) {
    if constexpr (std::is_integral<T>::value) {
      return static_cast<T>(detail::U<T>(0) - static_cast<detail::U<T>>(a));
    } else {
      return op::negation::Map(a);
    }
  }
  /*! \brief Lane-wise -a (signed lanes only). */
  template <class D, class V, SHADE_PACKET_IF(packet::kIsSignedLane<hn::TFromD<D>>)>
  static HWY_INLINE V MapPacket(D d, V a) {
    return packet::Neg(d, a);
  }
};
/*! \brief |a|; |MIN| == MIN for signed integers (two's complement, as NumPy). */
struct abs {
  /*! \brief Returns |a| (|MIN| == MIN for signed integers). */
  template <typename T>
  static SHADE_XINLINE T Map(T a) {
    if constexpr (detail::kSignedInt<T>) {
      return a < 0 ? negative::Map(a) : a;
    } else if constexpr (kIsFloating<T>) {
      return T(std::fabs(static_cast<detail::MathT<T>>(a)));
    } else {
      return op::abs::Map(a);
    }
  }
  /*! \brief Lane-wise |a| (signed lanes only). */
  template <class D, class V, SHADE_PACKET_IF(packet::kIsSignedLane<hn::TFromD<D>>)>
  static HWY_INLINE V MapPacket(D d, V a) {
    return packet::Abs(d, a);
  }
};

/// Defines (internal; undefined after use) the functor NAME: op::NAME's scalar form plus the
/// packet form packet::PACKETFN for floating lanes.
#define SHADE_NUMPY_MATH_(NAME, PACKETFN)                               \
  /*! \brief functor/op.h's op::NAME with packet.h's packet form. */    \
  struct NAME : op::NAME {                                              \
    template <class D, class V, SHADE_PACKET_IF(detail::kFloatLane<D>)> \
    static HWY_INLINE V MapPacket(D d, V a) {                           \
      return packet::PACKETFN(d, a);                                    \
    }                                                                   \
  };
SHADE_NUMPY_MATH_(exp, Exp)
SHADE_NUMPY_MATH_(log, Log)
SHADE_NUMPY_MATH_(log1p, Log1p)
SHADE_NUMPY_MATH_(expm1, Expm1)
SHADE_NUMPY_MATH_(sqrt, Sqrt)
SHADE_NUMPY_MATH_(rsqrt, Rsqrt)
SHADE_NUMPY_MATH_(tanh, Tanh)
SHADE_NUMPY_MATH_(sigmoid, Sigmoid)
#undef SHADE_NUMPY_MATH_

/*! \brief max(a, 0) (functor/op.h's relu: NaN gives 0). */
struct relu : op::relu {
  /*! \brief Lane-wise max(a, 0). */
  template <class D, class V>
  static HWY_INLINE V MapPacket(D d, V a) {
    return packet::Relu(d, a);
  }
};
/*! \brief sin(a) (the C library's, in float for the 16-bit floats). */
struct sin {
  /*! \brief The registry's cost (functor/op_registry.h). */
  static constexpr int kCost = OpCostOf(OpCode::kSin);
  /*! \brief Returns sin(a). */
  template <typename T>
  static SHADE_XINLINE T Map(T a) {
    return T(std::sin(static_cast<detail::MathT<T>>(a)));
  }
};
/*! \brief cos(a). */
struct cos {
  /*! \brief The registry's cost (functor/op_registry.h). */
  static constexpr int kCost = OpCostOf(OpCode::kCos);
  /*! \brief Returns cos(a). */
  template <typename T>
  static SHADE_XINLINE T Map(T a) {
    return T(std::cos(static_cast<detail::MathT<T>>(a)));
  }
};
/*! \brief Largest integer <= a (floating types). */
struct floor {
  /*! \brief Returns floor(a). */
  template <typename T>
  static SHADE_XINLINE T Map(T a) {
    return T(std::floor(static_cast<detail::MathT<T>>(a)));
  }
  /*! \brief Lane-wise floor(a) (floating lanes only). */
  template <class D, class V, SHADE_PACKET_IF(detail::kFloatLane<D>)>
  static HWY_INLINE V MapPacket(D, V a) {
    return hn::Floor(a);
  }
};
/*! \brief Smallest integer >= a (floating types). */
struct ceil {
  /*! \brief Returns ceil(a). */
  template <typename T>
  static SHADE_XINLINE T Map(T a) {
    return T(std::ceil(static_cast<detail::MathT<T>>(a)));
  }
  /*! \brief Lane-wise ceil(a) (floating lanes only). */
  template <class D, class V, SHADE_PACKET_IF(detail::kFloatLane<D>)>
  static HWY_INLINE V MapPacket(D, V a) {
    return hn::Ceil(a);
  }
};
/*! \brief Nearest integer, halves to even (NumPy's round / rint); integers unchanged. */
struct round {
  /*! \brief Returns a rounded to the nearest integer, halves to even. */
  template <typename T>
  static SHADE_XINLINE T Map(T a) {
    if constexpr (kIsFloating<T>) {
      return T(std::nearbyint(static_cast<detail::MathT<T>>(a)));
    } else {
      return a;
    }
  }
  /*! \brief Lane-wise round half to even (floating lanes only). */
  template <class D, class V, SHADE_PACKET_IF(detail::kFloatLane<D>)>
  static HWY_INLINE V MapPacket(D, V a) {
    return hn::Round(a);
  }
};
/*! \brief -1, 0 or 1 by the sign of a; NaN stays NaN (NumPy), unlike functor/op.h's sign. */
struct sign {
  /*! \brief Returns -1, 0 or 1 by the sign of a; NaN for NaN. */
  template <typename T>
  static SHADE_XINLINE T Map(T a) {
    if (detail::IsNaN(a)) return a;
    return op::sign::Map(a);
  }
  /*! \brief Lane-wise sign; NaN lanes stay NaN (signed lanes only). */
  template <class D, class V, SHADE_PACKET_IF(packet::kIsSignedLane<hn::TFromD<D>>)>
  static HWY_INLINE V MapPacket(D d, V a) {
    if constexpr (detail::kFloatLane<D>) {
      return hn::IfThenElse(hn::IsNaN(a), a, packet::Sign(d, a));
    } else {
      return packet::Sign(d, a);
    }
  }
};
/*! \brief min(max(a, lo), hi) with NaN propagation (np.clip). */
struct clamp {
  /*! \brief Returns min(max(a, lo), hi), NaN if any operand is NaN. */
  template <typename T>
  static SHADE_XINLINE T Map(T a, T lo, T hi) {
    return minimum::Map(maximum::Map(a, lo), hi);
  }
  /*! \brief Lane-wise clamp through maximum and minimum's packet forms. */
  template <class D, class V>
  static HWY_INLINE V MapPacket(D d, V a, V lo, V hi) {
    return minimum::MapPacket(d, maximum::MapPacket(d, a, lo), hi);
  }
};

/*! \brief x where cond else y (np.where; the dynamic kernel reads cond as bool). */
struct where {
  /*! \brief Returns x if cond is nonzero, else y. */
  template <typename T>
  static SHADE_XINLINE T Map(T cond, T x, T y) {
    return cond ? x : y;
  }
};

SHADE_TARGET_NAMESPACE_END
}  // namespace numpy
}  // namespace op
}  // namespace shade

#endif  // SHADE_FUNCTOR_NUMPY_H_
