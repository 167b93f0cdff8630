/*!
 * \file sets.h
 * \brief Set routines with NumPy 1.24's semantics: unique, isin (in1d), intersect1d, union1d,
 *  setdiff1d, setxor1d.
 *
 * Results are sorted (NaN last) except setdiff1d with assume_unique, which keeps ar1's order.
 * Two arrays are compared in their promoted dtype; NaN never equals NaN (NumPy's == rule),
 * except that unique's equal_nan (default true) collapses the NaNs into one.
 */
#ifndef SHADE_NDARRAY_SETS_H_
#define SHADE_NDARRAY_SETS_H_

#include <optional>

#include "shade/base/index.h"
#include "shade/ndarray/ndarray.h"

namespace shade {

/*! \brief What np.unique returns: the values and the optional arrays (undefined if not asked). */
struct UniqueResult {
  NDArray values;   ///< the sorted unique values (or slices along the axis)
  NDArray index;    ///< int64: first occurrence of each unique value in the input
  NDArray inverse;  ///< int64: index of each input element (slice) in `values`
  NDArray counts;   ///< int64: occurrences of each unique value
};

/*!
 * \brief Sorted unique elements of the flattened array, or unique slices along `axis`
 *  (compared lexicographically) (np.unique).
 */
UniqueResult unique(const NDArray& a, bool return_index = false, bool return_inverse = false,
                    bool return_counts = false, std::optional<index_t> axis = std::nullopt,
                    bool equal_nan = true);

/*! \brief Bool array of element's shape: is each element in test_elements (np.isin)? */
NDArray isin(const NDArray& element, const NDArray& test_elements, bool assume_unique = false,
             bool invert = false);

/*! \brief isin on the flattened element (np.in1d). */
NDArray in1d(const NDArray& ar1, const NDArray& ar2, bool assume_unique = false,
             bool invert = false);

/*! \brief What np.intersect1d returns: the common values and, optionally, their indices. */
struct IntersectResult {
  NDArray values;    ///< sorted unique common values
  NDArray indices1;  ///< int64 first indices in ar1 (return_indices only)
  NDArray indices2;  ///< int64 first indices in ar2 (return_indices only)
};

/*! \brief Sorted unique values in both arrays (np.intersect1d). */
IntersectResult intersect1d(const NDArray& ar1, const NDArray& ar2, bool assume_unique = false,
                            bool return_indices = false);

/*! \brief Sorted unique values in either array (np.union1d). */
NDArray union1d(const NDArray& ar1, const NDArray& ar2);

/*! \brief Unique values of ar1 not in ar2 (np.setdiff1d); ar1's order with assume_unique. */
NDArray setdiff1d(const NDArray& ar1, const NDArray& ar2, bool assume_unique = false);

/*! \brief Sorted values in exactly one of the arrays (np.setxor1d). */
NDArray setxor1d(const NDArray& ar1, const NDArray& ar2, bool assume_unique = false);

}  // namespace shade

#endif  // SHADE_NDARRAY_SETS_H_
