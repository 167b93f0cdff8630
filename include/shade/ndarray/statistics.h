/*!
 * \file statistics.h
 * \brief Statistics with NumPy 1.24's semantics: median, quantile, percentile (NumPy's thirteen
 *  methods), ptp, average, the nan* reductions, cov, corrcoef, isclose, allclose, array_equal,
 *  nan_to_num, around.
 *
 * `axes` is a reduction axis set (ndarray/reduce.h: all axes by default, one axis or a list).
 * A lane that holds a NaN gives NaN (NumPy). Result dtypes: median is float64 for integers and
 * bool and keeps float dtypes; quantile/percentile are float64 for the interpolating methods and
 * keep the input dtype for the discrete ones (lower, higher, nearest, inverted_cdf,
 * closest_observation).
 */
#ifndef SHADE_NDARRAY_STATISTICS_H_
#define SHADE_NDARRAY_STATISTICS_H_

#include <optional>
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

// ------------------------------------------------------------------ NaN-ignoring reductions
// NumPy's nan* functions: NaNs are skipped (integers have none, so these equal the plain
// reductions there). An all-NaN lane gives NaN (nanmin, nanmax, nanmean, nanvar, nanstd,
// nanmedian, nanquantile, nanpercentile), 0 (nansum) or 1 (nanprod); nanargmin/nanargmax throw
// ValueError "All-NaN slice encountered".

/*! \brief Sum treating NaN as 0 (np.nansum). */
NDArray nansum(const NDArray& a, const AxisSet& axes = AxisSet(), bool keepdims = false);
/*! \brief Product treating NaN as 1 (np.nanprod). */
NDArray nanprod(const NDArray& a, const AxisSet& axes = AxisSet(), bool keepdims = false);
/*! \brief Mean of the non-NaN elements (np.nanmean). */
NDArray nanmean(const NDArray& a, const AxisSet& axes = AxisSet(), bool keepdims = false);
/*! \brief Variance of the non-NaN elements (np.nanvar); count - ddof <= 0 gives NaN. */
NDArray nanvar(const NDArray& a, const AxisSet& axes = AxisSet(), index_t ddof = 0,
               bool keepdims = false);
/*! \brief sqrt(nanvar) (np.nanstd). */
NDArray nanstd(const NDArray& a, const AxisSet& axes = AxisSet(), index_t ddof = 0,
               bool keepdims = false);
/*! \brief Smallest non-NaN element (np.nanmin); empty reductions throw as min does. */
NDArray nanmin(const NDArray& a, const AxisSet& axes = AxisSet(), bool keepdims = false);
/*! \brief Largest non-NaN element (np.nanmax). */
NDArray nanmax(const NDArray& a, const AxisSet& axes = AxisSet(), bool keepdims = false);
/*! \brief Index of the smallest non-NaN element (np.nanargmin); flat when axis is nullopt. */
NDArray nanargmin(const NDArray& a, std::optional<index_t> axis = std::nullopt,
                  bool keepdims = false);
/*! \brief Index of the largest non-NaN element (np.nanargmax). */
NDArray nanargmax(const NDArray& a, std::optional<index_t> axis = std::nullopt,
                  bool keepdims = false);
/*! \brief Median of the non-NaN elements (np.nanmedian). */
NDArray nanmedian(const NDArray& a, const AxisSet& axes = AxisSet(), bool keepdims = false);
/*! \brief Quantiles of the non-NaN elements (np.nanquantile; methods as quantile). */
NDArray nanquantile(const NDArray& a, const NDArray& q, const AxisSet& axes = AxisSet(),
                    const std::string& method = "linear", bool keepdims = false);
/*! \brief Percentiles of the non-NaN elements (np.nanpercentile). */
NDArray nanpercentile(const NDArray& a, const NDArray& q, const AxisSet& axes = AxisSet(),
                      const std::string& method = "linear", bool keepdims = false);
/*! \brief Running sum treating NaN as 0 (np.nancumsum). */
NDArray nancumsum(const NDArray& a, std::optional<index_t> axis = std::nullopt, int dtype = -1);
/*! \brief Running product treating NaN as 1 (np.nancumprod). */
NDArray nancumprod(const NDArray& a, std::optional<index_t> axis = std::nullopt, int dtype = -1);

// ------------------------------------------------------------------ covariance

/*!
 * \brief Covariance matrix (np.cov, float64) of the variables in the rows of `m` (columns when
 *  !rowvar), with the rows of `y` appended; normalised by N - 1, N with `bias`, or N - ddof
 *  when ddof >= 0. One variable gives a rank-0 result. m of rank > 2: ValueError.
 */
NDArray cov(const NDArray& m, const NDArray& y = NDArray(), bool rowvar = true, bool bias = false,
            index_t ddof = -1);

/*! \brief Pearson correlation coefficients (np.corrcoef), clipped to [-1, 1]. */
NDArray corrcoef(const NDArray& x, const NDArray& y = NDArray(), bool rowvar = true);

// ------------------------------------------------------------------ comparisons

/*!
 * \brief |a - b| <= atol + rtol * |b| elementwise, broadcasting (np.isclose); infinities are close
 *  only to themselves, NaNs to NaNs only with `equal_nan`. Integers compare as float64.
 */
NDArray isclose(const NDArray& a, const NDArray& b, double rtol = 1e-5, double atol = 1e-8,
                bool equal_nan = false);

/*! \brief True when every element isclose (np.allclose). */
bool allclose(const NDArray& a, const NDArray& b, double rtol = 1e-5, double atol = 1e-8,
              bool equal_nan = false);

/*! \brief True when the shapes and all elements are equal (np.array_equal). */
bool array_equal(const NDArray& a1, const NDArray& a2, bool equal_nan = false);

/*!
 * \brief NaN -> `nan`, +inf -> `posinf`, -inf -> `neginf` (defaults: the dtype's largest and
 *  smallest finite values) (np.nan_to_num); a copy; non-float arrays are returned copied as
 *  they are.
 */
NDArray nan_to_num(const NDArray& x, double nan = 0.0, std::optional<double> posinf = std::nullopt,
                   std::optional<double> neginf = std::nullopt);

/*!
 * \brief a rounded to `decimals` decimal places, halves to even (np.around / np.round): the
 *  registry's round for decimals == 0, else round(a * 10^d) / 10^d in a's dtype (negative d
 *  rounds to tens, hundreds...; integers too). Integers are unchanged for d > 0; bool with
 *  d != 0 throws TypeError (NumPy cannot cast the product back).
 */
NDArray around(const NDArray& a, int decimals = 0);

}  // namespace shade

#endif  // SHADE_NDARRAY_STATISTICS_H_
