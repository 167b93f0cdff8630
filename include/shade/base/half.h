/*!
 * \file half.h
 * \brief 16-bit floats `half_t` (IEEE binary16) and `bf16_t` (bfloat16).
 *
 * Both convert from float with round-to-nearest-even (mxnet's bf16 truncated, which biases
 * every result towards zero) and do arithmetic through float.
 */
#ifndef SHADE_BASE_HALF_H_
#define SHADE_BASE_HALF_H_

#include <cstdint>
#include <cstring>
#include <ostream>
#include <type_traits>

#include "shade/base/index.h"

namespace shade {
namespace detail {

SHADE_XINLINE std::uint32_t FloatBits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  return u;
}
SHADE_XINLINE float BitsFloat(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof(f));
  return f;
}

/*! \brief float -> binary16 bits, round to nearest even, NaN kept quiet, overflow to inf. */
SHADE_XINLINE std::uint16_t FloatToHalfBits(float value) {
  std::uint32_t f = FloatBits(value);
  const std::uint32_t sign = (f >> 16) & 0x8000u;
  std::uint32_t mag = f & 0x7fffffffu;
  if (mag >= 0x7f800000u) {  // inf or NaN
    return static_cast<std::uint16_t>(sign | 0x7c00u |
                                      (mag > 0x7f800000u ? 0x200u | ((mag >> 13) & 0x3ffu) : 0u));
  }
  if (mag >= 0x477ff000u) return static_cast<std::uint16_t>(sign | 0x7c00u);  // >= 65520 -> inf
  if (mag < 0x38800000u) {
    // Below the smallest normal half (2^-14): adding 0.5f makes the FPU round the value to a
    // multiple of 2^-24 (the half subnormal step) with round-to-nearest-even.
    const float t = BitsFloat(mag) + 0.5f;
    return static_cast<std::uint16_t>(sign | (FloatBits(t) - 0x3f000000u));
  }
  const std::uint32_t odd = (mag >> 13) & 1u;
  mag += 0xc8000fffu + odd;  // rebias exponent (127 -> 15) and round half to even
  return static_cast<std::uint16_t>(sign | (mag >> 13));
}

/*! \brief binary16 bits -> float (exact). */
SHADE_XINLINE float HalfBitsToFloat(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t exp = (h >> 10) & 0x1fu;
  const std::uint32_t mant = h & 0x3ffu;
  if (exp == 0) {
    const float v = static_cast<float>(mant) * 5.9604644775390625e-08f;  // mant * 2^-24
    return BitsFloat(FloatBits(v) | sign);
  }
  if (exp == 31) return BitsFloat(sign | 0x7f800000u | (mant << 13));
  return BitsFloat(sign | ((exp + 112u) << 23) | (mant << 13));
}

/*! \brief float -> bfloat16 bits, round to nearest even, NaN kept quiet. */
SHADE_XINLINE std::uint16_t FloatToBf16Bits(float value) {
  std::uint32_t f = FloatBits(value);
  if ((f & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((f >> 16) | 0x40u);
  f += 0x7fffu + ((f >> 16) & 1u);
  return static_cast<std::uint16_t>(f >> 16);
}

/*! \brief bfloat16 bits -> float (exact). */
SHADE_XINLINE float Bf16BitsToFloat(std::uint16_t b) {
  return BitsFloat(static_cast<std::uint32_t>(b) << 16);
}

/*!
 * \brief Narrows a double to float rounding to odd: truncate towards zero and, if anything was
 *  cut off, set the last significand bit. A 24-bit round-to-odd value rounded once more to
 *  nearest-even at 11 (half) or 8 (bf16) bits gives the same result as rounding the double
 *  directly (the sticky bit keeps "above the midpoint" visible), which `(float)d` followed by a
 *  second rounding does not: 1 + 2^-11 + 2^-40 would first round to the tie 1 + 2^-11 and then
 *  to even, 1, instead of up.
 */
SHADE_XINLINE float DoubleToFloatRoundOdd(double d) {
  float f = static_cast<float>(d);
  if (!(static_cast<double>(f) != d) || d != d) return f;  // exact, or NaN
  // Inexact: step back towards zero if nearest-even rounded away (this also turns an overflow
  // to inf into FLT_MAX), then mark the lost bits with an odd last bit.
  std::uint32_t u = FloatBits(f);
  if ((d > 0) ? (static_cast<double>(f) > d) : (static_cast<double>(f) < d)) {
    if ((u & 0x7fffffffu) != 0) u -= 1;  // magnitude minus one ulp (inf -> FLT_MAX)
  }
  return BitsFloat(u | 1u);
}

/*! \brief The same round-to-odd narrowing from a 64-bit integer magnitude (exact below 2^24). */
SHADE_XINLINE float U64ToFloatRoundOdd(std::uint64_t u) {
  int shift = 0;
  while ((u >> shift) >= (std::uint64_t{1} << 24)) ++shift;
  std::uint64_t m = u >> shift;
  if (shift > 0 && (u & ((std::uint64_t{1} << shift) - 1)) != 0) m |= 1u;
  float f = static_cast<float>(m);            // exact: m < 2^24
  for (int i = 0; i < shift; ++i) f *= 2.0f;  // exact: at most 2^64 < FLT_MAX
  return f;
}

/*!
 * \brief Any arithmetic value as a float that rounds correctly to half/bf16 afterwards: float
 *  itself, round-to-odd for double and for integers wider than float's 24-bit significand.
 */
template <typename T>
SHADE_XINLINE float ToFloatForNarrowing(T v) {
  if constexpr (std::is_same<T, double>::value || std::is_same<T, long double>::value) {
    return DoubleToFloatRoundOdd(static_cast<double>(v));
  } else if constexpr (std::is_integral<T>::value && (sizeof(T) > 2)) {
    if constexpr (std::is_signed<T>::value) {
      const bool neg = v < 0;
      const std::uint64_t mag =
          neg ? std::uint64_t{0} - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
      const float f = U64ToFloatRoundOdd(mag);
      return neg ? -f : f;
    } else {
      return U64ToFloatRoundOdd(static_cast<std::uint64_t>(v));
    }
  } else {
    return static_cast<float>(v);
  }
}

/*! \brief binary16 conversions (for Float16Base). */
struct HalfCodec {
  static SHADE_XINLINE std::uint16_t Encode(float v) { return FloatToHalfBits(v); }
  static SHADE_XINLINE float Decode(std::uint16_t b) { return HalfBitsToFloat(b); }
};
/*! \brief bfloat16 conversions (for Float16Base). */
struct Bf16Codec {
  static SHADE_XINLINE std::uint16_t Encode(float v) { return FloatToBf16Bits(v); }
  static SHADE_XINLINE float Decode(std::uint16_t b) { return Bf16BitsToFloat(b); }
};

/*!
 * \brief The two 16-bit float types: raw bits, conversions through Codec (rounding to nearest
 *  even from float, exact to float) and arithmetic through float.
 */
template <typename Derived, typename Codec>
struct Float16Base {
  // One 16-bit word under three names: shade's `bits_`, and the public members that ported
  // code reads, mshadow's `half_t::half_` and MXNet's `bf16_t::bf16_`. All three have the same
  // type, so reading any of them gives the stored bits (GCC and Clang define this union use).
  union {
    /*! \brief Raw bits. */
    std::uint16_t bits_ = 0;
    /*! \brief The raw bits under mshadow's name (`half::half_t::half_`). */
    std::uint16_t half_;
    /*! \brief The raw bits under MXNet's name (`bfloat::bf16_t::bf16_`). */
    std::uint16_t bf16_;
  };
  Float16Base() = default;
  /*! \brief Rounds `v` to the nearest representable value (ties to even), once: doubles and
   *  wide integers go through a round-to-odd float, never a second rounding. */
  template <typename T, typename = decltype(static_cast<float>(T()))>
  SHADE_XINLINE explicit Float16Base(T v) : bits_(Codec::Encode(NarrowInput(v))) {}
  /*! \brief Builds a value from raw bits. */
  static SHADE_XINLINE Derived FromBits(std::uint16_t b) {
    Derived h;
    h.bits_ = b;
    return h;
  }
  /*! \brief Builds a value from raw bits (mshadow's name for FromBits). */
  static SHADE_XINLINE Derived Binary(std::uint16_t b) { return FromBits(b); }
  /*! \brief Exact widening to float. */
  SHADE_XINLINE float ToFloat() const { return Codec::Decode(bits_); }
  SHADE_XINLINE operator float() const { return ToFloat(); }
  SHADE_XINLINE Derived& operator+=(float v) { return Self() = Derived(float(*this) + v); }
  SHADE_XINLINE Derived& operator-=(float v) { return Self() = Derived(float(*this) - v); }
  SHADE_XINLINE Derived& operator*=(float v) { return Self() = Derived(float(*this) * v); }
  SHADE_XINLINE Derived& operator/=(float v) { return Self() = Derived(float(*this) / v); }
  SHADE_XINLINE Derived operator-() const { return Derived(-float(*this)); }
  /*! \brief The value itself (mshadow's unary plus). */
  SHADE_XINLINE Derived operator+() const { return static_cast<const Derived&>(*this); }
  friend SHADE_XINLINE Derived operator+(Derived a, Derived b) {
    return Derived(float(a) + float(b));
  }
  friend SHADE_XINLINE Derived operator-(Derived a, Derived b) {
    return Derived(float(a) - float(b));
  }
  friend SHADE_XINLINE Derived operator*(Derived a, Derived b) {
    return Derived(float(a) * float(b));
  }
  friend SHADE_XINLINE Derived operator/(Derived a, Derived b) {
    return Derived(float(a) / float(b));
  }
  friend SHADE_XINLINE bool operator==(Derived a, Derived b) { return float(a) == float(b); }
  friend SHADE_XINLINE bool operator!=(Derived a, Derived b) { return float(a) != float(b); }
  friend SHADE_XINLINE bool operator<(Derived a, Derived b) { return float(a) < float(b); }
  friend SHADE_XINLINE bool operator<=(Derived a, Derived b) { return float(a) <= float(b); }
  friend SHADE_XINLINE bool operator>(Derived a, Derived b) { return float(a) > float(b); }
  friend SHADE_XINLINE bool operator>=(Derived a, Derived b) { return float(a) >= float(b); }
  friend std::ostream& operator<<(std::ostream& os, Derived v) { return os << float(v); }

 private:
  template <typename T>
  static SHADE_XINLINE float NarrowInput(T v) {
    if constexpr (std::is_arithmetic<T>::value) {
      return ToFloatForNarrowing(v);
    } else {
      return static_cast<float>(v);  // another 16-bit float or a class convertible to float
    }
  }
  SHADE_XINLINE Derived& Self() { return static_cast<Derived&>(*this); }
};

}  // namespace detail

/*! \brief IEEE 754 binary16. Construct explicitly from a number; reads back as float. */
struct half_t : detail::Float16Base<half_t, detail::HalfCodec> {
  using Float16Base::Float16Base;
  half_t() = default;
};

/*! \brief bfloat16: float's exponent with 8 bits of significand. */
struct bf16_t : detail::Float16Base<bf16_t, detail::Bf16Codec> {
  using Float16Base::Float16Base;
  bf16_t() = default;
};

static_assert(sizeof(half_t) == 2 && sizeof(bf16_t) == 2, "16-bit floats must be 2 bytes");

}  // namespace shade

#endif  // SHADE_BASE_HALF_H_
