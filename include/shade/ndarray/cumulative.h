/*!
 * \file cumulative.h
 * \brief Cumulative operations, differences and their relatives with NumPy 1.24's semantics:
 *  cumsum, cumprod, diff, ediff1d, gradient, trapz, convolve, correlate, interp.
 *
 * `axis` = std::nullopt is NumPy's axis=None (the flattened array). Accumulations run in the
 * result dtype, element after element as NumPy's accumulate does (float16 rounds each step):
 * by default sum's dtype (int64 for bool and signed integers, uint64 for unsigned, floats keep
 * theirs); integers wrap on overflow.
 */
#ifndef SHADE_NDARRAY_CUMULATIVE_H_
#define SHADE_NDARRAY_CUMULATIVE_H_

#include <optional>
#include <string>
#include <vector>

#include "shade/base/index.h"
#include "shade/ndarray/ndarray.h"
#include "shade/ndarray/reduce.h"

namespace shade {

/*! \brief Running sum along `axis` (np.cumsum); `dtype` -1 picks sum's result dtype. */
NDArray cumsum(const NDArray& a, std::optional<index_t> axis = std::nullopt, int dtype = -1);

/*! \brief Running product along `axis` (np.cumprod); `dtype` -1 picks prod's result dtype. */
NDArray cumprod(const NDArray& a, std::optional<index_t> axis = std::nullopt, int dtype = -1);

/*!
 * \brief n-th discrete difference along `axis` (np.diff): a[1:] - a[:-1] applied n times
 *  (not_equal for bool). `prepend` / `append` (optional) are joined along the axis first; a
 *  rank-0 one is broadcast to a slab of size 1. n < 0 or a rank-0 `a`: ValueError.
 */
NDArray diff(const NDArray& a, index_t n = 1, index_t axis = -1, const NDArray& prepend = NDArray(),
             const NDArray& append = NDArray());

/*!
 * \brief Differences of the flattened array with optional values before and after
 *  (np.ediff1d); in a's dtype (the extra values must cast to it under same_kind: TypeError).
 */
NDArray ediff1d(const NDArray& ary, const NDArray& to_end = NDArray(),
                const NDArray& to_begin = NDArray());

/*!
 * \brief Integral of y along `axis` by the trapezoidal rule (np.trapz): spacing `dx`, or the
 *  differences of the sample points `x` (1-D of y's length along axis, or y's shape).
 */
NDArray trapz(const NDArray& y, const NDArray& x = NDArray(), double dx = 1.0, index_t axis = -1);

/*!
 * \brief Discrete linear convolution of two 1-D arrays (np.convolve): `mode` "full" (default),
 *  "same" or "valid"; in their promoted dtype. An empty input or another mode: ValueError.
 */
NDArray convolve(const NDArray& a, const NDArray& v, const std::string& mode = "full");

/*! \brief Cross-correlation of two 1-D arrays (np.correlate; default mode "valid"). */
NDArray correlate(const NDArray& a, const NDArray& v, const std::string& mode = "valid");

/*!
 * \brief Piecewise-linear interpolation (np.interp, float64) of the points (xp, fp) at x; xp is
 *  increasing. Left of xp: `left` (default fp[0]); right: `right` (default fp[-1]). Empty xp or
 *  mismatched lengths: ValueError.
 */
NDArray interp(const NDArray& x, const NDArray& xp, const NDArray& fp,
               std::optional<double> left = std::nullopt,
               std::optional<double> right = std::nullopt);

/*!
 * \brief Gradient of f along each axis of `axes` (np.gradient with scalar spacings): central
 *  differences inside, one-sided differences of order `edge_order` (1 or 2) at the ends.
 *  `spacing` is empty (1 everywhere), one value for every axis, or one per axis. Integers
 *  compute in float64. An axis shorter than edge_order + 1: ValueError.
 */
std::vector<NDArray> gradient(const NDArray& f, const std::vector<double>& spacing = {},
                              const AxisSet& axes = AxisSet(), int edge_order = 1);

}  // namespace shade

#endif  // SHADE_NDARRAY_CUMULATIVE_H_
