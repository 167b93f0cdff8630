/*!
 * \file indexing.h
 * \brief NumPy advanced indexing on NDArrays: gather (`take`, `index` with integer and boolean
 *  arrays, `nonzero`) and scatter (`index_put_`, `masked_fill_`).
 *
 * Index arrays may have any integer dtype; negative indices count from the end (NumPy); an index
 * outside [-size, size) throws shade::Error naming the index, the axis and its size before
 * anything is read or written. Boolean arrays select where true and must match the indexed
 * dimensions exactly. Results are new contiguous arrays.
 */
#ifndef SHADE_NDARRAY_INDEXING_H_
#define SHADE_NDARRAY_INDEXING_H_

#include <vector>

#include "shade/base/index.h"
#include "shade/ndarray/ndarray.h"

namespace shade {

/*!
 * \brief Elements of `a` at `indices` along `axis` (np.take with an axis): the result has shape
 *  a.shape[:axis] + indices.shape + a.shape[axis+1:].
 */
NDArray take(const NDArray& a, const NDArray& indices, index_t axis);
/*! \brief np.take without axis: indices into the flattened array; result has indices' shape. */
NDArray take(const NDArray& a, const NDArray& indices);

/*! \brief Int64 index arrays (one per dimension) of the non-zero elements, row-major (np.nonzero). */
std::vector<NDArray> nonzero(const NDArray& a);

/*!
 * \brief `a[i0, i1, ...]` for index arrays over the leading dimensions (NumPy advanced
 *  indexing): a bool array stands for its nonzero() arrays (so `index(a, {mask})` is a[mask]);
 *  integer arrays broadcast together to shape B; the result has shape B + a.shape[k:] where k
 *  dimensions are indexed.
 */
NDArray index(const NDArray& a, const std::vector<NDArray>& indices);

/*!
 * \brief `a[i0, i1, ...] = values` in place (NumPy's index assignment / LibTorch's index_put_):
 *  values broadcast to the shape `index(a, indices)` would have and are converted to a's dtype
 *  (unsafe casting, as NumPy's assignment). With repeated indices the last write wins; with
 *  `accumulate` every value is added (`np.add.at`; same_kind casting as `+=`). a may be any
 *  non-overlapping view. Returns a.
 */
const NDArray& index_put_(const NDArray& a, const std::vector<NDArray>& indices, const NDArray& values,
                          bool accumulate = false);

/*! \brief `a[mask] = value`: mask is bool with a's shape (or its leading dims'). Returns a. */
const NDArray& masked_fill_(const NDArray& a, const NDArray& mask, double value);

}  // namespace shade

#endif  // SHADE_NDARRAY_INDEXING_H_
