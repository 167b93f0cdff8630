/*!
 * \file searching.h
 * \brief Searching and counting with NumPy 1.24's semantics: one-argument where, argwhere,
 *  flatnonzero, count_nonzero, extract, select.
 *
 * An element is non-zero when it is != 0 (NaN counts as non-zero, as NumPy). Index results are
 * int64. The three-argument `where(cond, x, y)` is the elementwise op of ndarray/ops.h.
 */
#ifndef SHADE_NDARRAY_SEARCHING_H_
#define SHADE_NDARRAY_SEARCHING_H_

#include <vector>

#include "shade/ndarray/ndarray.h"
#include "shade/ndarray/reduce.h"

namespace shade {

/*! \brief np.where(condition) with one argument: nonzero(condition) (ndarray/indexing.h). */
std::vector<NDArray> where(const NDArray& condition);

/*! \brief The indices of the non-zero elements as an (N, ndim) int64 array (np.argwhere). */
NDArray argwhere(const NDArray& a);

/*! \brief The flat indices of the non-zero elements of a flattened (np.flatnonzero). */
NDArray flatnonzero(const NDArray& a);

/*! \brief Number of non-zero elements over `axes` as int64 (np.count_nonzero). */
NDArray count_nonzero(const NDArray& a, const AxisSet& axes = AxisSet(), bool keepdims = false);

/*!
 * \brief The elements of flattened `arr` where flattened `condition` is non-zero (np.extract);
 *  a non-zero condition past arr's size throws IndexError.
 */
NDArray extract(const NDArray& condition, const NDArray& arr);

/*!
 * \brief Elementwise choice from `choicelist` by the first true of `condlist` (bool arrays,
 *  else TypeError), `default_value` where none holds (np.select). The lists must have the same
 *  non-zero length (ValueError). The result dtype is the promotion of the choices and default.
 */
NDArray select(const std::vector<NDArray>& condlist, const std::vector<NDArray>& choicelist,
               const NDArray& default_value);

}  // namespace shade

#endif  // SHADE_NDARRAY_SEARCHING_H_
