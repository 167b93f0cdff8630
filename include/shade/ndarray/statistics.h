/*!
 * \file statistics.h
 * \brief Order statistics and related reductions with NumPy 1.24's semantics: median,
 *  quantile, percentile (NumPy's thirteen methods), ptp, average.
 *
 * `axes` is a reduction axis set (ndarray/reduce.h: all axes by default, one axis or a list).
 * A lane that holds a NaN gives NaN (NumPy). Result dtypes: median is float64 for integers and
 * bool and keeps float dtypes; quantile/percentile are float64 for the interpolating methods and
 * keep the input dtype for the discrete ones (lower, higher, nearest, inverted_cdf,
 * closest_observation).
 */
#ifndef SHADE_NDARRAY_STATISTICS_H_
#define SHADE_NDARRAY_STATISTICS_H_

#include <string>

#include "shade/ndarray/ndarray.h"
#include "shade/ndarray/reduce.h"

namespace shade {

/*! \brief Median over `axes` (np.median); an empty lane gives NaN. */
NDArray median(const NDArray& a, const AxisSet& axes = AxisSet(), bool keepdims = false);

/*!
 * \brief Quantiles `q` (each in [0, 1], else ValueError) over `axes` (np.quantile). The result
 *  has shape q.shape + the reduced shape. `method` is one of NumPy's: "linear" (default),
 *  "lower", "higher", "midpoint", "nearest", "inverted_cdf", "averaged_inverted_cdf",
 *  "closest_observation", "interpolated_inverted_cdf", "hazen", "weibull", "median_unbiased",
 *  "normal_unbiased" (ValueError otherwise). Bool input with an interpolating method and an
 *  empty lane are refused (TypeError, IndexError) as NumPy does.
 */
NDArray quantile(const NDArray& a, const NDArray& q, const AxisSet& axes = AxisSet(),
                 const std::string& method = "linear", bool keepdims = false);

/*! \brief quantile(a, q / 100, ...) with q in [0, 100] (np.percentile). */
NDArray percentile(const NDArray& a, const NDArray& q, const AxisSet& axes = AxisSet(),
                   const std::string& method = "linear", bool keepdims = false);

/*!
 * \brief Range max - min over `axes` in the input dtype (np.ptp: integers wrap, bool refused
 *  as NumPy's subtract refuses it); an empty reduction throws ValueError.
 */
NDArray ptp(const NDArray& a, const AxisSet& axes = AxisSet(), bool keepdims = false);

/*!
 * \brief Weighted mean over `axes` (np.average): without `weights` it is mean(); with them,
 *  sum(a * w) / sum(w), `weights` either of a's shape or 1-D along the one reduced axis
 *  (TypeError/ValueError otherwise, as NumPy). Weights summing to zero: ZeroDivisionError's
 *  analogue, ValueError "Weights sum to zero, can't be normalized".
 */
NDArray average(const NDArray& a, const AxisSet& axes = AxisSet(),
                const NDArray& weights = NDArray(), bool keepdims = false);

}  // namespace shade

#endif  // SHADE_NDARRAY_STATISTICS_H_
