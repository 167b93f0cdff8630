/*!
 * \file dtype.h
 * \brief Runtime dtype flags, `DataType<T>`, and the one flag -> C++ type dispatch.
 *
 * Flags keep mshadow's numbering (kFloat32=0 ... kInt64=6) so serialized flags stay
 * compatible. `DispatchDType` is the only switch over dtype flags in the library: every
 * type-erased operation calls it.
 */
#ifndef SHADE_BASE_DTYPE_H_
#define SHADE_BASE_DTYPE_H_

#include <complex>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "shade/base/error.h"
#include "shade/base/half.h"

namespace shade {

/*! \brief Runtime element-type flags. */
enum TypeFlag : int {
  kFloat32 = 0,
  kFloat64 = 1,
  kFloat16 = 2,
  kUint8 = 3,
  kInt32 = 4,
  kInt8 = 5,
  kInt64 = 6,
  kBool = 7,
  kBfloat16 = 8,
  kInt16 = 9,
  kUint16 = 10,
  kUint32 = 11,
  kUint64 = 12,
  kComplex64 = 13,
  kComplex128 = 14,
  kNumTypeFlags = 15
};

/*! \brief The real (non-complex) flags are 0 .. kNumRealTypeFlags - 1: the ones DispatchDType
 *  covers. The complex flags follow them (docs/design/complex.md). */
constexpr int kNumRealTypeFlags = 13;

/*! \brief Element type of complex64: std::complex<float> (two floats, real first: the layout
 *  of NumPy, C99 `float _Complex`, BLAS cgemm and mshadow's interleaved pairs). */
using complex64_t = std::complex<float>;
/*! \brief Element type of complex128: std::complex<double>. */
using complex128_t = std::complex<double>;

/*! \brief Compile-time facts about an element type: its flag, name and lanes (1; mshadow's
 *  kLanes, which is 2 only for its half2_t). */
template <typename T>
struct DataType;

/// Defines (internal; undefined after use) DataType<T> with flag FLAG and NumPy name NAME.
#define SHADE_DEFINE_DATATYPE_(T, FLAG, NAME)  \
  template <>                                  \
  struct DataType<T> {                         \
    static constexpr int kFlag = FLAG;         \
    static constexpr const char* kName = NAME; \
    static constexpr int kLanes = 1;           \
  };
SHADE_DEFINE_DATATYPE_(float, kFloat32, "float32")
SHADE_DEFINE_DATATYPE_(double, kFloat64, "float64")
SHADE_DEFINE_DATATYPE_(half_t, kFloat16, "float16")
SHADE_DEFINE_DATATYPE_(std::uint8_t, kUint8, "uint8")
SHADE_DEFINE_DATATYPE_(std::int32_t, kInt32, "int32")
SHADE_DEFINE_DATATYPE_(std::int8_t, kInt8, "int8")
SHADE_DEFINE_DATATYPE_(std::int64_t, kInt64, "int64")
SHADE_DEFINE_DATATYPE_(bool, kBool, "bool")
SHADE_DEFINE_DATATYPE_(bf16_t, kBfloat16, "bfloat16")
SHADE_DEFINE_DATATYPE_(std::int16_t, kInt16, "int16")
SHADE_DEFINE_DATATYPE_(std::uint16_t, kUint16, "uint16")
SHADE_DEFINE_DATATYPE_(std::uint32_t, kUint32, "uint32")
SHADE_DEFINE_DATATYPE_(std::uint64_t, kUint64, "uint64")
SHADE_DEFINE_DATATYPE_(complex64_t, kComplex64, "complex64")
SHADE_DEFINE_DATATYPE_(complex128_t, kComplex128, "complex128")
#undef SHADE_DEFINE_DATATYPE_

/*!
 * \brief Carries a type through a generic lambda, which recovers it as the member `type` of
 *  `decltype(tag)`.
 */
template <typename T>
struct TypeTag {
  /*! \brief The carried type. */
  using type = T;
};

/*! \brief True for a valid flag. */
constexpr bool IsValidTypeFlag(int flag) {
  return flag >= 0 && flag < kNumTypeFlags;
}

/*! \brief True for the complex flags (kComplex64, kComplex128). */
constexpr bool IsComplexTypeFlag(int flag) {
  return flag == kComplex64 || flag == kComplex128;
}

/*!
 * \brief Calls `f(TypeTag<T>{})` with the C++ type of runtime flag `flag`, for the real dtypes.
 * A complex flag throws shade::Error (TypeError in Python) naming it, so a generic lambda is never
 * instantiated for std::complex; paths that support complex call DispatchDTypeWithComplex.
 * Throws shade::Error for an unknown flag. With DispatchDTypeWithComplex the library's only
 * switch over dtype flags.
 */
template <typename F>
decltype(auto) DispatchDType(int flag, F&& f) {
  // The throw is written here, not in a helper function: an out-of-line inline function would be
  // one symbol shared by the per-SIMD-target kernel objects (tools/check-target-symbols.py).
  if (IsComplexTypeFlag(flag)) {
    SHADE_THROW_TYPE << (flag == kComplex64 ? "complex64" : "complex128")
                     << " is not supported by this operation (the operations that take complex "
                        "dtypes are listed in docs/design/complex.md)";
  }
  switch (flag) {
    case kFloat32:
      return f(TypeTag<float>{});
    case kFloat64:
      return f(TypeTag<double>{});
    case kFloat16:
      return f(TypeTag<half_t>{});
    case kUint8:
      return f(TypeTag<std::uint8_t>{});
    case kInt32:
      return f(TypeTag<std::int32_t>{});
    case kInt8:
      return f(TypeTag<std::int8_t>{});
    case kInt64:
      return f(TypeTag<std::int64_t>{});
    case kBool:
      return f(TypeTag<bool>{});
    case kBfloat16:
      return f(TypeTag<bf16_t>{});
    case kInt16:
      return f(TypeTag<std::int16_t>{});
    case kUint16:
      return f(TypeTag<std::uint16_t>{});
    case kUint32:
      return f(TypeTag<std::uint32_t>{});
    case kUint64:
      return f(TypeTag<std::uint64_t>{});
    default:
      break;
  }
  SHADE_THROW_TYPE << "unknown dtype flag " << flag << " (valid flags are 0.." << kNumTypeFlags - 1
                   << ")";
}

/*!
 * \brief DispatchDType over every flag, complex64 (complex64_t) and complex128 (complex128_t)
 *  included: for the paths that support complex dtypes (f must compile for std::complex).
 */
template <typename F>
decltype(auto) DispatchDTypeWithComplex(int flag, F&& f) {
  if (flag == kComplex64) return f(TypeTag<complex64_t>{});
  if (flag == kComplex128) return f(TypeTag<complex128_t>{});
  return DispatchDType(flag, std::forward<F>(f));
}

/*! \brief Name of a flag ("float32", ...); throws for an unknown flag. */
inline const char* TypeFlagName(int flag) {
  return DispatchDTypeWithComplex(
      flag, [](auto tag) { return DataType<typename decltype(tag)::type>::kName; });
}

/*! \brief Element size in bytes of a flag; throws for an unknown flag. */
inline std::size_t TypeFlagSize(int flag) {
  return DispatchDTypeWithComplex(flag,
                                  [](auto tag) { return sizeof(typename decltype(tag)::type); });
}

/*! \brief True for half_t and bf16_t. */
template <typename T>
constexpr bool kIsFloat16 = std::is_same<T, half_t>::value || std::is_same<T, bf16_t>::value;

/*! \brief True for complex64_t and complex128_t. */
template <typename T>
constexpr bool kIsComplex =
    std::is_same<T, complex64_t>::value || std::is_same<T, complex128_t>::value;

/*! \brief True for every floating type, the 16-bit ones included. */
template <typename T>
constexpr bool kIsFloating = std::is_floating_point<T>::value || kIsFloat16<T>;

}  // namespace shade

/*! \brief mshadow-style switch: runs the body with `DType` bound to the flag's type. */
#define SHADE_TYPE_SWITCH(flag, DType, ...)                  \
  ::shade::DispatchDType((flag), [&](auto shade_type_tag_) { \
    using DType = typename decltype(shade_type_tag_)::type;  \
    __VA_ARGS__                                              \
  })

#endif  // SHADE_BASE_DTYPE_H_
