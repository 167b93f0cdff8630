/*!
 * \file put_take.h
 * \brief NumPy's flat and along-axis scatters and gathers on NDArrays: put, place, putmask,
 *  take_along_axis, put_along_axis, copyto.
 *
 * All are compositions of the advanced-indexing primitives of indexing.h (`index`,
 * `index_put_`), so index checks, negative indices and dtype conversion are theirs. The writing
 * functions check that the destination is writeable and return it.
 */
#ifndef SHADE_NDARRAY_PUT_TAKE_H_
#define SHADE_NDARRAY_PUT_TAKE_H_

#include "shade/base/index.h"
#include "shade/ndarray/construct.h"
#include "shade/ndarray/ndarray.h"
#include "shade/ndarray/promotion.h"

namespace shade {

/*!
 * \brief a.flat[ind] = v (np.put): v (flattened) is repeated cyclically to ind's length and
 *  converted to a's dtype; `mode` handles indices outside [-size, size) (raise: IndexError,
 *  wrap: modulo, clip: clamped to [0, size-1]). An empty v changes nothing. Returns a.
 */
const NDArray& put(const NDArray& a, const NDArray& ind, const NDArray& v,
                   IndexMode mode = IndexMode::kRaise);
/*!
 * \brief arr[mask] = vals with vals repeated cyclically over the true positions (np.place);
 *  mask (any dtype, its truth) must have arr's size. Returns arr.
 */
const NDArray& place(const NDArray& arr, const NDArray& mask, const NDArray& vals);
/*!
 * \brief a.flat[i] = values.flat[i % len(values)] where mask.flat[i] (np.putmask); mask must have
 *  a's size. Returns a.
 */
const NDArray& putmask(const NDArray& a, const NDArray& mask, const NDArray& values);
/*!
 * \brief Gathers arr's values at `indices` along `axis` (np.take_along_axis): indices is an
 *  integer array of arr's rank that broadcasts against arr except along axis.
 */
NDArray take_along_axis(const NDArray& arr, const NDArray& indices, index_t axis);
/*! \brief np.take_along_axis(arr, indices, axis=None): 1-D indices into the flattened arr. */
NDArray take_along_axis(const NDArray& arr, const NDArray& indices);
/*! \brief Scatters `values` into arr at `indices` along `axis` (np.put_along_axis). Returns arr. */
const NDArray& put_along_axis(const NDArray& arr, const NDArray& indices, const NDArray& values,
                              index_t axis);
/*! \brief np.put_along_axis(axis=None): 1-D indices into the flattened arr. Returns arr. */
const NDArray& put_along_axis(const NDArray& arr, const NDArray& indices, const NDArray& values);
/*!
 * \brief Copies src (broadcast to dst's shape) into dst where `where` is true (np.copyto); the
 *  dtype conversion must be allowed by `casting` (TypeError otherwise, NumPy's message); an
 *  undefined `where` means everywhere. `where` must be bool. Returns dst.
 */
const NDArray& copyto(const NDArray& dst, const NDArray& src, Casting casting = Casting::kSameKind,
                      const NDArray& where = NDArray());

}  // namespace shade

#endif  // SHADE_NDARRAY_PUT_TAKE_H_
