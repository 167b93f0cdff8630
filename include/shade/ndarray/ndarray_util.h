/*!
 * \file ndarray_util.h
 * \brief Internal helpers shared by the NDArray sources: layout validation and scalar casts.
 */
#ifndef SHADE_NDARRAY_NDARRAY_UTIL_H_
#define SHADE_NDARRAY_NDARRAY_UTIL_H_

#include <cmath>
#include <limits>
#include <type_traits>

#include "shade/base/checked.h"
#include "shade/base/dtype.h"
#include "shade/base/error.h"
#include "shade/ndarray/ndarray.h"

namespace shade {
namespace detail {

/*!
 * \brief Checks sizes/strides (same rank, sizes >= 0, strides >= 0) and returns the number of
 *  elements the layout spans from its first element (max offset + 1, or 0 when empty).
 */
inline index_t CheckStridedLayout(IndexSpan sizes, IndexSpan strides, const char* what) {
  SHADE_CHECK_SHAPE_EQ(sizes.size(), strides.size())
      << what << ": sizes " << sizes << " and strides " << strides << " differ in rank";
  index_t numel = 1;
  index_t reach = 0;
  for (std::size_t d = 0; d < sizes.size(); ++d) {
    SHADE_CHECK_SHAPE_GE(sizes[d], 0) << what << ": size " << sizes[d] << " of dimension " << d
                                      << " is negative (sizes " << sizes << ")";
    SHADE_CHECK_SHAPE_GE(strides[d], 0) << what << ": stride " << strides[d] << " of dimension "
                                        << d << " is negative (strides " << strides << ")";
    numel = CheckedMul(numel, sizes[d], "numel");
  }
  if (numel == 0) return 0;
  for (std::size_t d = 0; d < sizes.size(); ++d) {
    reach =
        CheckedAdd(reach, CheckedMul(sizes[d] - 1, strides[d], "strided extent"), "strided extent");
  }
  return CheckedAdd(reach, 1, "strided extent");
}

/*! \brief Throws unless every element the layout reaches from `offset` lies inside `storage`. */
inline void CheckInsideStorage(const Storage& storage, IndexSpan sizes, IndexSpan strides,
                               index_t offset, const char* what) {
  SHADE_CHECK_GE(offset, 0) << what << ": storage offset " << offset << " is negative";
  const index_t span = CheckStridedLayout(sizes, strides, what);
  if (span == 0) return;
  const index_t itemsize = static_cast<index_t>(storage.itemsize());
  SHADE_CHECK_TYPE_GT(itemsize, 0) << what << ": the storage has no element type yet";
  const index_t elements = static_cast<index_t>(storage.capacity()) / itemsize;
  const index_t end = CheckedAdd(offset, span, "strided extent");
  SHADE_CHECK_SHAPE_LE(end, elements)
      << what << ": sizes " << sizes << ", strides " << strides << " and offset " << offset
      << " reach element " << end - 1 << ", outside the storage of " << elements << " elements";
}

/*! \brief Any numeric element as double. */
template <typename T>
double ToDouble(T v) {
  if constexpr (kIsFloat16<T>) {
    return static_cast<double>(static_cast<float>(v));
  } else {
    return static_cast<double>(v);
  }
}

/*! \brief double -> numeric T; integers must be finite and in range (else shade::Error). */
template <typename T>
T CastScalar(double v, const char* what) {
  if constexpr (std::is_same<T, bool>::value) {
    return v != 0;
  } else if constexpr (std::is_integral<T>::value) {
    // Bounds as doubles: max() rounds up to 2^63 / 2^64, hence the strict upper comparison.
    const double lo = static_cast<double>(std::numeric_limits<T>::min());
    const double hi = static_cast<double>(std::numeric_limits<T>::max());
    SHADE_CHECK_TYPE(std::isfinite(v) && v >= lo && (v < hi || (hi < 9e15 && v <= hi)))
        << what << ": value " << v << " does not fit " << DataType<T>::kName;
    return static_cast<T>(v);
  } else {
    return static_cast<T>(v);
  }
}

}  // namespace detail
}  // namespace shade

#endif  // SHADE_NDARRAY_NDARRAY_UTIL_H_
