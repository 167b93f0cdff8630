// Shared pieces of the sorting, set, histogram and statistics files (sort.cc, sets.cc,
// histogram.cc, cumulative.cc, statistics.cc): order-preserving integer keys, axis handling and
// the lane layout (one axis moved innermost and copied contiguous).
#ifndef SHADE_SRC_NDARRAY_SORTSTATS_INTERNAL_H_
#define SHADE_SRC_NDARRAY_SORTSTATS_INTERNAL_H_

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "shade/base/dtype.h"
#include "shade/base/error.h"
#include "shade/base/half.h"
#include "shade/ndarray/ndarray.h"
#include "shade/ndarray/reduce.h"

namespace shade {
namespace sortstats {

/*! \brief The unsigned integer of a type's width. */
template <std::size_t W>
struct UnsignedOfWidth;
template <>
struct UnsignedOfWidth<1> {
  using type = std::uint8_t;
};
template <>
struct UnsignedOfWidth<2> {
  using type = std::uint16_t;
};
template <>
struct UnsignedOfWidth<4> {
  using type = std::uint32_t;
};
template <>
struct UnsignedOfWidth<8> {
  using type = std::uint64_t;
};
template <typename T>
using KeyType = typename UnsignedOfWidth<sizeof(T)>::type;

/*! \brief True when x is a NaN (false for every non-float type). */
template <typename T>
inline bool IsNan(T x) {
  if constexpr (kIsFloat16<T>) {
    const float f = static_cast<float>(x);
    return f != f;
  } else if constexpr (std::is_floating_point<T>::value) {
    return x != x;
  } else {
    return false;
  }
}

/*!
 * \brief An unsigned key whose integer order is NumPy's sort order of T: NaN last (every NaN
 *  maps to the largest key). With `merge_zeros`, -0.0 takes +0.0's key (NumPy compares them
 *  equal); without it the map is invertible by FromKey (for sorting values).
 */
template <typename T>
inline KeyType<T> ToKey(T x, bool merge_zeros) {
  using U = KeyType<T>;
  U b;
  std::memcpy(&b, &x, sizeof(T));
  if constexpr (std::is_same<T, bool>::value || std::is_unsigned<T>::value) {
    return b;
  } else if constexpr (std::is_integral<T>::value) {
    return static_cast<U>(b ^ (U(1) << (8 * sizeof(T) - 1)));
  } else {
    constexpr U kSign = U(1) << (8 * sizeof(T) - 1);
    if (IsNan(x)) return static_cast<U>(~U(0));
    if (merge_zeros && (b & static_cast<U>(~kSign)) == 0) b = 0;
    return (b & kSign) ? static_cast<U>(~b) : static_cast<U>(b | kSign);
  }
}

/*! \brief The value of a key made by ToKey(x, false) (the largest key gives a quiet NaN). */
template <typename T>
inline T FromKey(KeyType<T> k) {
  using U = KeyType<T>;
  U b = k;
  if constexpr (std::is_same<T, bool>::value || std::is_unsigned<T>::value) {
    b = k;
  } else if constexpr (std::is_integral<T>::value) {
    b = static_cast<U>(k ^ (U(1) << (8 * sizeof(T) - 1)));
  } else {
    constexpr U kSign = U(1) << (8 * sizeof(T) - 1);
    b = (k & kSign) ? static_cast<U>(k ^ kSign) : static_cast<U>(~k);
  }
  if constexpr (std::is_same<T, bool>::value) {
    return b != 0;  // a bool array's bytes may hold any non-zero value (NumPy's views do)
  } else {
    T x;
    std::memcpy(static_cast<void*>(&x), &b, sizeof(T));
    return x;
  }
}

/*! \brief x as double (through float for the 16-bit floats). */
template <typename T>
inline double ToDouble(T x) {
  if constexpr (kIsFloat16<T>) {
    return static_cast<double>(static_cast<float>(x));
  } else {
    return static_cast<double>(x);
  }
}

/*! \brief A double as T (through float for the 16-bit floats). */
template <typename T>
inline T FromDouble(double x) {
  if constexpr (kIsFloat16<T>) {
    return T(static_cast<float>(x));
  } else {
    return static_cast<T>(x);
  }
}

/*! \brief Checks that `a` is a defined, allocated, numeric NDArray (ValueError/TypeError). */
void CheckInput(const NDArray& a, const char* op);

/*! \brief One axis in [0, ndim) (IndexError naming op, axis and shape when out of range). */
int NormalizeAxis(index_t axis, const NDArray& a, const char* op);

/*! \brief A new contiguous copy of `a` with `axis` moved innermost (the lanes are its rows). */
NDArray AxisLastCopy(const NDArray& a, int axis);

/*! \brief The view of an axis-last array `r` with its last axis put back at `axis`. */
NDArray AxisBack(const NDArray& r, int axis);

/*! \brief The flattened (row-major) contiguous copy of `a` (a new buffer when `copy`). */
NDArray Flat(const NDArray& a, bool copy);

/*! \brief Rows per ParallelFor chunk for lanes of n elements (~kMapGrain elements a chunk). */
index_t LaneGrain(index_t n);

/*! \brief An array seen as lanes: the reduced axes moved innermost and merged. */
struct Lanes {
  NDArray data;                ///< contiguous (a's memory when it already is: read only)
  index_t lanes = 0;           ///< number of lanes
  index_t n = 0;               ///< elements per lane
  std::vector<index_t> kept;   ///< the result shape without keepdims
  std::vector<index_t> keep1;  ///< the result shape with keepdims (reduced axes as 1)
};

/*!
 * \brief `a` with the axes of `axes` moved innermost and contiguous (copied unless it already is;
 *  callers only read it); `op` names errors.
 */
Lanes MakeLanes(const NDArray& a, const AxisSet& axes, const char* op);

}  // namespace sortstats
}  // namespace shade

#endif  // SHADE_SRC_NDARRAY_SORTSTATS_INTERNAL_H_
