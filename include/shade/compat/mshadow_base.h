/*!
 * \file mshadow_base.h
 * \brief The names of mshadow's base.h, half.h and half2.h that shade's own headers do not
 *  already give: build-configuration macros (with the values that describe shade's build),
 *  mshadow's type switches, layout flags, numeric limits and the CPU form of `half2_t`.
 *  Included by shade/compat/mshadow.h; not meant to be included on its own.
 */
#ifndef SHADE_COMPAT_MSHADOW_BASE_H_
#define SHADE_COMPAT_MSHADOW_BASE_H_

#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "shade/base/dtype.h"
#include "shade/base/error.h"
#include "shade/base/half.h"
#include "shade/base/index.h"
#include "shade/functor/op.h"
#include "shade/shape/shape.h"

// ------------------------------------------------------------- build configuration (base.h)
// mshadow lets a build override each of these; the values below describe what shade is, so a
// port's `#if MSHADOW_USE_CUDA` branches take the CPU path. Each is guarded like mshadow's.
#ifndef _CRT_SECURE_NO_WARNINGS
/*! \brief mshadow defines it for MSVC's CRT; harmless elsewhere. */
#define _CRT_SECURE_NO_WARNINGS
#endif
#ifndef _CRT_SECURE_NO_DEPRECATE
/*! \brief mshadow defines it for MSVC's CRT; harmless elsewhere. */
#define _CRT_SECURE_NO_DEPRECATE
#endif
#ifndef NOMINMAX
/*! \brief mshadow defines it so that windows.h keeps min/max free. */
#define NOMINMAX
#endif
/*! \brief 1: shade needs no dmlc-core (mshadow's stand-alone mode). */
#define MSHADOW_STAND_ALONE 1
/*! \brief AllocSpace pads rows by default, as in mshadow. */
#define MSHADOW_ALLOC_PAD true
/*! \brief mshadow's padding threshold ratio (a CUDA pitch setting; kept for its value). */
#define MSHADOW_MIN_PAD_RATIO 2
/*! \brief shade calls a CBLAS (OpenBLAS) for dot. */
#define MSHADOW_USE_CBLAS 1
/*! \brief shade does not link MKL. */
#define MSHADOW_USE_MKL 0
#if defined(SHADE_WITH_CUDA) && SHADE_WITH_CUDA && defined(__CUDACC__)
/*! \brief 1 in a .cu source of a CUDA build of shade (gpu tensors evaluate there; docs/gpu.md). */
#define MSHADOW_USE_CUDA 1
#else
/*! \brief 0: no CUDA here (a host source, or a build without the CUDA backend). */
#define MSHADOW_USE_CUDA 0
#endif
/*! \brief Streams are always used, as in mshadow's default. */
#define MSHADOW_FORCE_STREAM 1
/*! \brief No cuDNN. */
#define MSHADOW_USE_CUDNN 0
/*! \brief No cuSOLVER. */
#define MSHADOW_USE_CUSOLVER 0
/*! \brief No pre-2.0 CUDA. */
#define MSHADOW_OLD_CUDA 0
/*! \brief shade is C++17. */
#define MSHADOW_IN_CXX11 1
/*! \brief 0: mshadow's SSE packet layer is not used (shade vectorises with its own packet layer).
 */
#define MSHADOW_USE_SSE 0
/*! \brief 0: half conversions are shade's portable ones, not F16C intrinsics. */
#define MSHADOW_USE_F16C 0
/*! \brief No NVML. */
#define MSHADOW_USE_NVML 0
/*! \brief 0: no glog; failed checks throw shade::Error. */
#define MSHADOW_USE_GLOG 0
/*! \brief Forced inlining (mshadow's definition for GCC and Clang). */
#define MSHADOW_FORCE_INLINE inline __attribute__((always_inline))
/*! \brief `constexpr` (mshadow: const before C++11). */
#define MSHADOW_CONSTEXPR constexpr
/*! \brief Marks a destructor that may throw. */
#define MSHADOW_THROW_EXCEPTION noexcept(false)
/*! \brief Marks a function that does not throw. */
#define MSHADOW_NO_EXCEPTION noexcept(true)
/*! \brief Aligns a type or variable to x bytes. */
#define MSHADOW_ALIGNED(x) __attribute__((aligned(x)))
/*! \brief half_t rounds to nearest even (mshadow's default, 1). */
#define MSHADOW_HALF_ROUND_TO_NEAREST 1
/*! \brief No CUDA half type. */
#define MSHADOW_CUDA_HALF 0
/*! \brief No CUDA half2 type: half2_t is the two-half_t CPU form. */
#define MSHADOW_CUDA_HALF2 0
/*! \brief Lowest finite half_t, -65504 (bits 0xFBFF). Ends in a semicolon, as mshadow's does. */
#define MSHADOW_HALF_MIN ::mshadow::half::half_t::Binary(0xFBFF);
/*! \brief Largest finite half_t, 65504 (bits 0x7BFF). Ends in a semicolon, as mshadow's does. */
#define MSHADOW_HALF_MAX ::mshadow::half::half_t::Binary(0x7BFF);

/*! \brief Lowest finite bf16_t (bits 0xFF7F; MXNet's bfloat.h). Ends in a semicolon, as there. */
#define MSHADOW_BF16_MIN ::mshadow::bfloat::bf16_t::Binary(0xFF7F);
/*! \brief Largest finite bf16_t (bits 0x7F7F). Ends in a semicolon, as in MXNet's bfloat.h. */
#define MSHADOW_BF16_MAX ::mshadow::bfloat::bf16_t::Binary(0x7F7F);
/*! \brief Sign bit of bf16_t::bf16_. */
#define MSHADOW_BF16_SIGN_BIT 0x8000
/*! \brief Exponent bits of bf16_t::bf16_. */
#define MSHADOW_BF16_EXPONENT_BITS 0x7f80

namespace mshadow {
/*! \brief mshadow's 16-bit float namespace. */
namespace half {
namespace detail {
/*!
 * \brief float -> binary16 bits as mshadow's half_t rounds: to nearest even (shade's rounding),
 *  but a NaN keeps the top ten bits of its payload without being made quiet (1 if they are 0).
 */
inline std::uint16_t MshadowHalfBits(float value) {
  const std::uint32_t f = ::shade::detail::FloatBits(value);
  const std::uint32_t mag = f & 0x7fffffffu;
  if (mag <= 0x7f800000u) return ::shade::detail::FloatToHalfBits(value);
  const std::uint32_t payload = (mag >> 13) & 0x3ffu;
  return static_cast<std::uint16_t>(((f >> 16) & 0x8000u) | 0x7c00u | (payload ? payload : 1u));
}
/*! \brief The types mshadow's mixed operators take here: numbers and 16-bit floats. (mshadow's
 *  take any type and fail to compile on others, such as a tensor expression.) */
template <typename T>
constexpr bool kMixes = std::is_arithmetic<T>::value || ::shade::kIsFloat16<T>;
}  // namespace detail

/*!
 * \brief mshadow's half_t: IEEE binary16 with mshadow's arithmetic. It differs from shade's own
 *  half_t (which NDArray's float16 dtype uses, with NumPy's promotion) only in its operators:
 *  half_t op half_t, half_t op number and number op half_t all give half_t (computed in float,
 *  rounded once to half), comparisons give bool, compound assignments return a copy, and unary
 *  + and - are non-const members, so on a const half_t they act on its float value. It converts
 *  implicitly from float and explicitly from double (through float, as mshadow: two roundings)
 *  and the integers; reads back as float.
 */
class alignas(2) half_t {
 public:
  union {
    /*! \brief The raw bits (mshadow's name). */
    std::uint16_t half_;
    /*! \brief The raw bits under shade's name. */
    std::uint16_t bits_;
  };
  /*! \brief Builds a value from raw bits. */
  static half_t Binary(std::uint16_t value) {
    half_t res;
    res.half_ = value;
    return res;
  }
  /*! \brief Builds a value from raw bits (shade's name). */
  static half_t FromBits(std::uint16_t value) { return Binary(value); }
  /*! \brief Zero (mshadow leaves it uninitialised). */
  half_t() : half_(0) {}
  /*! \brief Rounds value to half (implicit, as in mshadow). */
  half_t(const float& value) : half_(detail::MshadowHalfBits(value)) {}  // NOLINT
  /*! \brief Rounds value to float, then to half. */
  explicit half_t(const double& value) : half_t(static_cast<float>(value)) {}
  /*! \brief Rounds value to float, then to half. */
  explicit half_t(const std::int8_t& value) : half_t(static_cast<float>(value)) {}
  /*! \brief Rounds value to float, then to half. */
  explicit half_t(const std::uint8_t& value) : half_t(static_cast<float>(value)) {}
  /*! \brief Rounds value to float, then to half. */
  explicit half_t(const std::int32_t& value) : half_t(static_cast<float>(value)) {}
  /*! \brief Rounds value to float, then to half. */
  explicit half_t(const std::uint32_t& value) : half_t(static_cast<float>(value)) {}
  /*! \brief Rounds value to float, then to half. */
  explicit half_t(const std::int64_t& value) : half_t(static_cast<float>(value)) {}
  /*! \brief Rounds value to float, then to half. */
  explicit half_t(const std::uint64_t& value) : half_t(static_cast<float>(value)) {}
  /*! \brief The same bits as shade's half_t. */
  explicit half_t(const ::shade::half_t& value) : half_(value.bits_) {}
  /*! \brief Exact widening to float. */
  operator float() const { return ::shade::detail::HalfBitsToFloat(half_); }
  /*! \brief Exact widening to float, of a volatile value. */
  operator float() const volatile { return ::shade::detail::HalfBitsToFloat(half_); }
  /*! \brief The same bits as shade's half_t. */
  explicit operator ::shade::half_t() const { return ::shade::half_t::FromBits(half_); }
  /*! \brief `*this = half_t(float(*this) + float(a))`; returns the new value. */
  template <typename T>
  half_t operator+=(const T& a) {
    return *this = half_t(float(*this) + float(a));
  }
  /*! \brief `*this = half_t(float(*this) - float(a))`; returns the new value. */
  template <typename T>
  half_t operator-=(const T& a) {
    return *this = half_t(float(*this) - float(a));
  }
  /*! \brief `*this = half_t(float(*this) * float(a))`; returns the new value. */
  template <typename T>
  half_t operator*=(const T& a) {
    return *this = half_t(float(*this) * float(a));
  }
  /*! \brief `*this = half_t(float(*this) / float(a))`; returns the new value. */
  template <typename T>
  half_t operator/=(const T& a) {
    return *this = half_t(float(*this) / float(a));
  }
  /*! \brief The value (non-const, as mshadow's). */
  half_t operator+() { return *this; }
  /*! \brief The negated value (non-const, as mshadow's). */
  half_t operator-() { return half_t(-float(*this)); }
  /*! \brief Copies the bits; returns the value assigned. */
  half_t operator=(const half_t& a) {
    half_ = a.half_;
    return a;
  }
  /*! \brief Assigns half_t(a); returns it. */
  template <typename T>
  half_t operator=(const T& a) {
    return *this = half_t(a);
  }
  /*! \brief Copies the bits into a volatile value. */
  half_t operator=(const half_t& a) volatile {
    half_ = a.half_;
    return a;
  }
  /*! \brief Copy construction copies the bits. */
  half_t(const half_t& a) : half_(a.half_) {}
};
static_assert(sizeof(half_t) == 2, "mshadow's half_t must be 2 bytes");
}  // namespace half
}  // namespace mshadow

// Before anything (the operators below, half2_t) asks whether a type is a 16-bit float.
namespace shade {
/*! \brief mshadow's half_t is a float16 (a 16-bit float to shade's kernels). */
template <>
constexpr bool kIsFloat16<::mshadow::half::half_t> = true;
/*! \brief mshadow's half_t has the float16 flag. */
template <>
struct DataType<::mshadow::half::half_t> {
  static constexpr int kFlag = kFloat16;           //!< the dtype flag
  static constexpr int kLanes = 1;                 //!< one value
  static constexpr const char* kName = "float16";  //!< printed name
};
}  // namespace shade

namespace mshadow {
namespace half {

/*! \brief Writes mshadow's namespace-level operator OP: half_t with half_t, and with any number
 *  on either side, giving RTYPE (undefined again below). */
#define MSHADOW_COMPAT_HALF_OPERATOR_(RTYPE, OP)                             \
  /*! \brief Computed in float; the result is RTYPE (half_t rounds once). */ \
  inline RTYPE operator OP(half_t a, half_t b) {                             \
    return RTYPE(float(a) OP float(b));                                      \
  }                                                                          \
  /*! \brief half_t with a number: computed in float, result RTYPE. */       \
  template <typename T, typename = std::enable_if_t<detail::kMixes<T>>>      \
  inline RTYPE operator OP(half_t a, T b) {                                  \
    return RTYPE(float(a) OP float(b));                                      \
  }                                                                          \
  /*! \brief A number with half_t: computed in float, result RTYPE. */       \
  template <typename T, typename = std::enable_if_t<detail::kMixes<T>>>      \
  inline RTYPE operator OP(T a, half_t b) {                                  \
    return RTYPE(float(a) OP float(b));                                      \
  }
MSHADOW_COMPAT_HALF_OPERATOR_(half_t, +)
MSHADOW_COMPAT_HALF_OPERATOR_(half_t, -)
MSHADOW_COMPAT_HALF_OPERATOR_(half_t, *)
MSHADOW_COMPAT_HALF_OPERATOR_(half_t, /)
MSHADOW_COMPAT_HALF_OPERATOR_(bool, >)
MSHADOW_COMPAT_HALF_OPERATOR_(bool, <)
MSHADOW_COMPAT_HALF_OPERATOR_(bool, >=)
MSHADOW_COMPAT_HALF_OPERATOR_(bool, <=)
#undef MSHADOW_COMPAT_HALF_OPERATOR_

/*! \brief Two half_t lanes (mshadow's half2.h, the form it has without CUDA). */
class alignas(4) half2_t {
 public:
  /*! \brief The two lanes. */
  half_t half_t2[2];
  half2_t() = default;
  /*! \brief Lanes a and b. */
  explicit half2_t(half_t a, half_t b) : half_t2{a, b} {}
  /*! \brief Both lanes hold `a` (rounded to half). */
  explicit half2_t(int a) : half_t2{half_t(a), half_t(a)} {}
  /*! \brief Itself. */
  half2_t operator+() const { return *this; }
  /*! \brief Lanewise negation. */
  half2_t operator-() const { return half2_t(-half_t2[0], -half_t2[1]); }
  /*! \brief Lanewise `+=` (the right side converts to half2_t as in mshadow). */
  template <typename T>
  half2_t operator+=(const T& a) {
    return *this = half2_t(*this + a);
  }
  /*! \brief Lanewise `-=`. */
  template <typename T>
  half2_t operator-=(const T& a) {
    return *this = half2_t(*this - a);
  }
  /*! \brief Lanewise `*=`. */
  template <typename T>
  half2_t operator*=(const T& a) {
    return *this = half2_t(*this * a);
  }
  /*! \brief Lanewise `/=`. */
  template <typename T>
  half2_t operator/=(const T& a) {
    return *this = half2_t(*this / a);
  }
};
/*! \brief Lanewise sum, each lane rounded to half. */
inline half2_t operator+(half2_t a, half2_t b) {
  return half2_t(a.half_t2[0] + b.half_t2[0], a.half_t2[1] + b.half_t2[1]);
}
/*! \brief Lanewise difference. */
inline half2_t operator-(half2_t a, half2_t b) {
  return half2_t(a.half_t2[0] - b.half_t2[0], a.half_t2[1] - b.half_t2[1]);
}
/*! \brief Lanewise product. */
inline half2_t operator*(half2_t a, half2_t b) {
  return half2_t(a.half_t2[0] * b.half_t2[0], a.half_t2[1] * b.half_t2[1]);
}
/*! \brief Lanewise quotient. */
inline half2_t operator/(half2_t a, half2_t b) {
  return half2_t(a.half_t2[0] / b.half_t2[0], a.half_t2[1] / b.half_t2[1]);
}
/*! \brief Lanewise fmod, computed in float as mshadow does. */
inline half2_t operator%(half2_t a, half2_t b) {
  return half2_t(half_t(std::fmod(float(a.half_t2[0]), float(b.half_t2[0]))),
                 half_t(std::fmod(float(a.half_t2[1]), float(b.half_t2[1]))));
}
/*! \brief True when both lanes compare equal. */
inline bool operator==(half2_t a, half2_t b) {
  return a.half_t2[0] == b.half_t2[0] && a.half_t2[1] == b.half_t2[1];
}
}  // namespace half

/*! \brief MXNet's bfloat16 namespace (mshadow/bfloat.h of MXNet's copy of mshadow). */
namespace bfloat {
using ::shade::bf16_t;
}  // namespace bfloat

/*! \brief Size of the CPU random buffer in mshadow (kept for its value). */
const unsigned kRandBufferSize = 1000000;
/*! \brief mshadow's pi, 3.1415926f (as a float, not M_PI). */
const float kPi = 3.1415926f;
/*! \brief Index type of OpenMP loops (mshadow: index_t on Linux). */
typedef ::shade::index_t openmp_index_t;
/*! \brief Type flag of default_real_t (kFloat32). */
const int default_type_flag = ::shade::DataType<::shade::default_real_t>::kFlag;

// LayoutFlag (kNCHW, ...) is shade's own (shade/shape/shape.h), with mshadow's values.
/*! \brief Facts about a layout: kNdim, and kCudnnFlag = -1 (no cuDNN). */
template <int layout>
struct LayoutType;
/*! \brief NCHW: 4 dimensions. */
template <>
struct LayoutType<::shade::kNCHW> {
  static constexpr ::shade::index_t kNdim = 4;  //!< dimensions of the layout
  static constexpr int kCudnnFlag = -1;         //!< cuDNN's layout flag (no cuDNN here: -1)
};
/*! \brief NHWC: 4 dimensions. */
template <>
struct LayoutType<::shade::kNHWC> {
  static constexpr ::shade::index_t kNdim = 4;  //!< dimensions of the layout
  static constexpr int kCudnnFlag = -1;         //!< cuDNN's layout flag (no cuDNN here: -1)
};
/*! \brief NCDHW: 5 dimensions. */
template <>
struct LayoutType<::shade::kNCDHW> {
  static constexpr ::shade::index_t kNdim = 5;  //!< dimensions of the layout
  static constexpr int kCudnnFlag = -1;         //!< cuDNN's layout flag (no cuDNN here: -1)
};
/*! \brief NDHWC: 5 dimensions. */
template <>
struct LayoutType<::shade::kNDHWC> {
  static constexpr ::shade::index_t kNdim = 5;  //!< dimensions of the layout
  static constexpr int kCudnnFlag = -1;         //!< cuDNN's layout flag (no cuDNN here: -1)
};
/*! \brief Default 4-D layout. */
const int default_layout = ::shade::kNCHW;
/*! \brief Default 5-D layout. */
const int default_layout_5d = ::shade::kNCDHW;
}  // namespace mshadow

namespace shade {
/*! \brief half2_t's flag is kFloat16 with two lanes (mshadow's DataType<half2_t>). */
template <>
struct DataType<::mshadow::half::half2_t> {
  static constexpr int kFlag = kFloat16;             //!< the lanes' dtype flag
  static constexpr int kLanes = 2;                   //!< two halfs per value
  static constexpr const char* kName = "float16x2";  //!< printed name
};
namespace red {
/*! \brief mshadow's reduction limits: the finite extremes (not infinities) of each type. */
namespace limits {
/*! \brief Lowest finite value: -FLT_MAX, -DBL_MAX, MSHADOW_HALF_MIN, or the integer minimum. */
template <typename DType>
inline DType MinValue() {
  return detail::Limit<DType, true, true>();
}
/*! \brief Largest finite value: FLT_MAX, DBL_MAX, MSHADOW_HALF_MAX, or the integer maximum. */
template <typename DType>
inline DType MaxValue() {
  return detail::Limit<DType, false, true>();
}
}  // namespace limits
}  // namespace red
}  // namespace shade

/*! \brief One case of the switches below: binds DType and runs the body in a block. */
#define MSHADOW_CASE_TYPE_(flag, T, DType, ...) \
  case flag: {                                  \
    typedef T DType;                            \
    { __VA_ARGS__ }                             \
  } break;

/*!
 * \brief mshadow's switch over its seven type flags: a real `switch`, so `return` in the body
 *  leaves the enclosing function as in mshadow. Other flags throw shade::Error (mshadow aborts).
 */
#define MSHADOW_TYPE_SWITCH(type, DType, ...)                                            \
  switch (type) {                                                                        \
    MSHADOW_CASE_TYPE_(::mshadow::kFloat32, float, DType, __VA_ARGS__)                   \
    MSHADOW_CASE_TYPE_(::mshadow::kFloat64, double, DType, __VA_ARGS__)                  \
    MSHADOW_CASE_TYPE_(::mshadow::kFloat16, ::mshadow::half::half_t, DType, __VA_ARGS__) \
    MSHADOW_CASE_TYPE_(::mshadow::kUint8, uint8_t, DType, __VA_ARGS__)                   \
    MSHADOW_CASE_TYPE_(::mshadow::kInt8, int8_t, DType, __VA_ARGS__)                     \
    MSHADOW_CASE_TYPE_(::mshadow::kInt32, int32_t, DType, __VA_ARGS__)                   \
    MSHADOW_CASE_TYPE_(::mshadow::kInt64, int64_t, DType, __VA_ARGS__)                   \
    default:                                                                             \
      SHADE_THROW << "Unknown type enum " << (type);                                     \
  }

/*! \brief As MSHADOW_TYPE_SWITCH but kFloat16 binds half2_t and kInt8 is refused (mshadow's). */
#define MSHADOW_TYPE_SWITCH_WITH_HALF2(type, DType, ...)                                  \
  switch (type) {                                                                         \
    MSHADOW_CASE_TYPE_(::mshadow::kFloat32, float, DType, __VA_ARGS__)                    \
    MSHADOW_CASE_TYPE_(::mshadow::kFloat64, double, DType, __VA_ARGS__)                   \
    MSHADOW_CASE_TYPE_(::mshadow::kFloat16, ::mshadow::half::half2_t, DType, __VA_ARGS__) \
    MSHADOW_CASE_TYPE_(::mshadow::kUint8, uint8_t, DType, __VA_ARGS__)                    \
    MSHADOW_CASE_TYPE_(::mshadow::kInt32, int32_t, DType, __VA_ARGS__)                    \
    MSHADOW_CASE_TYPE_(::mshadow::kInt64, int64_t, DType, __VA_ARGS__)                    \
    default:                                                                              \
      SHADE_THROW << "Unknown type enum " << (type);                                      \
  }

/*! \brief float or double only; other flags throw with mshadow's message. */
#define MSHADOW_SGL_DBL_TYPE_SWITCH(type, DType, ...)                                 \
  switch (type) {                                                                     \
    MSHADOW_CASE_TYPE_(::mshadow::kFloat32, float, DType, __VA_ARGS__)                \
    MSHADOW_CASE_TYPE_(::mshadow::kFloat64, double, DType, __VA_ARGS__)               \
    default:                                                                          \
      SHADE_THROW << "This operation only supports 32-bit and 64-bit floating point"; \
  }

/*! \brief The message mshadow's floating-point switches give for a non-floating flag. */
#define MSHADOW_REAL_TYPE_REFUSE_(type)                                           \
  case ::mshadow::kUint8:                                                         \
    SHADE_THROW << "This operation only support floating point types not uint8";  \
  case ::mshadow::kInt8:                                                          \
    SHADE_THROW << "This operation only support floating point types not int8";   \
  case ::mshadow::kInt32:                                                         \
    SHADE_THROW << "This operation only support floating point types, not int32"; \
  case ::mshadow::kInt64:                                                         \
    SHADE_THROW << "This operation only support floating point types, not int64"; \
  default:                                                                        \
    SHADE_THROW << "Unknown type enum " << (type);

/*! \brief float, double or half_t; the integer flags throw with mshadow's messages. */
#define MSHADOW_REAL_TYPE_SWITCH(type, DType, ...)                                       \
  switch (type) {                                                                        \
    MSHADOW_CASE_TYPE_(::mshadow::kFloat32, float, DType, __VA_ARGS__)                   \
    MSHADOW_CASE_TYPE_(::mshadow::kFloat64, double, DType, __VA_ARGS__)                  \
    MSHADOW_CASE_TYPE_(::mshadow::kFloat16, ::mshadow::half::half_t, DType, __VA_ARGS__) \
    MSHADOW_REAL_TYPE_REFUSE_(type)                                                      \
  }

/*! \brief As MSHADOW_REAL_TYPE_SWITCH, also binding DLargeType (float for half_t). */
#define MSHADOW_REAL_TYPE_SWITCH_EX(type$, DType$, DLargeType$, ...) \
  switch (type$) {                                                   \
    case ::mshadow::kFloat32: {                                      \
      typedef float DType$;                                          \
      typedef float DLargeType$;                                     \
      { __VA_ARGS__ }                                                \
    } break;                                                         \
    case ::mshadow::kFloat64: {                                      \
      typedef double DType$;                                         \
      typedef double DLargeType$;                                    \
      { __VA_ARGS__ }                                                \
    } break;                                                         \
    case ::mshadow::kFloat16: {                                      \
      typedef ::mshadow::half::half_t DType$;                        \
      typedef float DLargeType$;                                     \
      { __VA_ARGS__ }                                                \
    } break;                                                         \
      MSHADOW_REAL_TYPE_REFUSE_(type$)                               \
  }

/*! \brief Binds `const int Layout` to one of the four layouts with a LayoutType. */
#define MSHADOW_LAYOUT_SWITCH(layout, Layout, ...)       \
  switch (layout) {                                      \
    case ::mshadow::kNCHW: {                             \
      const int Layout = ::mshadow::kNCHW;               \
      { __VA_ARGS__ }                                    \
    } break;                                             \
    case ::mshadow::kNHWC: {                             \
      const int Layout = ::mshadow::kNHWC;               \
      { __VA_ARGS__ }                                    \
    } break;                                             \
    case ::mshadow::kNCDHW: {                            \
      const int Layout = ::mshadow::kNCDHW;              \
      { __VA_ARGS__ }                                    \
    } break;                                             \
    case ::mshadow::kNDHWC: {                            \
      const int Layout = ::mshadow::kNDHWC;              \
      { __VA_ARGS__ }                                    \
    } break;                                             \
    default:                                             \
      SHADE_THROW << "Unknown layout enum " << (layout); \
  }

/*! \brief Index types: kInt64 only, as in mshadow. */
#define MSHADOW_IDX_TYPE_SWITCH(type, DType, ...)                      \
  switch (type) {                                                      \
    MSHADOW_CASE_TYPE_(::mshadow::kInt64, int64_t, DType, __VA_ARGS__) \
    default:                                                           \
      SHADE_THROW << "Unknown type enum " << (type);                   \
  }

#endif  // SHADE_COMPAT_MSHADOW_BASE_H_
