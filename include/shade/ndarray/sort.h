/*!
 * \file sort.h
 * \brief Sorting and searching of NDArrays with NumPy 1.24's semantics: sort, argsort, lexsort,
 *  partition, argpartition, searchsorted.
 *
 * Every function works on any numeric dtype and any layout; `axis` counts from the end when
 * negative and `std::nullopt` means NumPy's axis=None (the flattened array). NaNs sort last
 * (NumPy's order); -0.0 and +0.0 compare equal. Index results are int64.
 *
 * Values are sorted as order-preserving unsigned keys: Highway's vqsort for 2-, 4- and 8-byte
 * types, a counting sort for 1-byte ones. Index sorts (argsort, lexsort) are always stable (an
 * LSD radix sort of the keys): NumPy leaves the order of ties of its other kinds unspecified, so
 * the stable order is a valid answer for every kind.
 */
#ifndef SHADE_NDARRAY_SORT_H_
#define SHADE_NDARRAY_SORT_H_

#include <optional>
#include <string>
#include <vector>

#include "shade/base/index.h"
#include "shade/ndarray/ndarray.h"

namespace shade {

/*!
 * \brief A sorted copy along `axis` (np.sort). `kind` is one of "quicksort", "mergesort",
 *  "heapsort", "stable" (ValueError otherwise); the values are the same for every kind.
 */
NDArray sort(const NDArray& a, std::optional<index_t> axis = -1,
             const std::string& kind = "quicksort");

/*! \brief Indices (int64) that sort `a` along `axis` (np.argsort); stable for every kind. */
NDArray argsort(const NDArray& a, std::optional<index_t> axis = -1,
                const std::string& kind = "quicksort");

/*!
 * \brief Indirect stable sort on several keys (np.lexsort): the last key is the primary one.
 *  The keys must share one shape (ValueError); a rank-0 key is refused (TypeError, as NumPy).
 */
NDArray lexsort(const std::vector<NDArray>& keys, index_t axis = -1);

/*!
 * \brief A copy where each kth element (negative counts from the end) is in its sorted place,
 *  smaller elements before it and larger after (np.partition). kth out of range: ValueError.
 */
NDArray partition(const NDArray& a, const std::vector<index_t>& kth,
                  std::optional<index_t> axis = -1);

/*! \brief The indices (int64) that partition `a` (np.argpartition). */
NDArray argpartition(const NDArray& a, const std::vector<index_t>& kth,
                     std::optional<index_t> axis = -1);

/*!
 * \brief Insertion indices (int64, v's shape) of `v` into the 1-D ascending array `a`
 *  (np.searchsorted). `side` is "left" (first suitable place) or "right" (last); `sorter`
 *  (optional, int) are the indices that sort `a`. Both are compared in their promoted dtype.
 */
NDArray searchsorted(const NDArray& a, const NDArray& v, const std::string& side = "left",
                     const NDArray& sorter = NDArray());

}  // namespace shade

#endif  // SHADE_NDARRAY_SORT_H_
