/*!
 * \file histogram.h
 * \brief Counting and binning with NumPy 1.24's semantics: bincount, digitize, histogram,
 *  histogram2d.
 *
 * Bins are half-open [e_i, e_{i+1}) except the last, which includes its right edge; values
 * outside the bins and NaNs are not counted. Counts are int64; weighted counts take the
 * weights' dtype (histogram) or float64 (bincount, histogram2d).
 */
#ifndef SHADE_NDARRAY_HISTOGRAM_H_
#define SHADE_NDARRAY_HISTOGRAM_H_

#include <optional>
#include <utility>

#include "shade/base/index.h"
#include "shade/ndarray/ndarray.h"

namespace shade {

/*!
 * \brief Occurrences of each value 0..max(x) of a 1-D non-negative integer array (np.bincount):
 *  int64, or float64 sums of `weights` (x's shape). At least `minlength` bins. Float or uint64
 *  input: TypeError (no safe cast to int64); negative values, minlength < 0, a rank other than
 *  1 or mismatched weights: ValueError.
 */
NDArray bincount(const NDArray& x, const NDArray& weights = NDArray(), index_t minlength = 0);

/*!
 * \brief Index (int64, x's shape) of the bin of each x in the monotonic 1-D `bins`
 *  (np.digitize): bins[i-1] <= x < bins[i] for increasing bins (<, <= with `right`), mirrored
 *  for decreasing ones. Non-monotonic or not 1-D bins: ValueError.
 */
NDArray digitize(const NDArray& x, const NDArray& bins, bool right = false);

/*! \brief What np.histogram returns. */
struct HistogramResult {
  NDArray hist;       ///< counts (int64), weighted sums (weights' dtype) or density (float64)
  NDArray bin_edges;  ///< bins + 1 edges
};

/*!
 * \brief Histogram of the flattened `a` over `bins` equal-width bins spanning `range` (default:
 *  a's min and max; widened by 0.5 each side when they are equal; [0, 1] when a is empty)
 *  (np.histogram). Edges are float64, or a's dtype for float input. `weights` (a's shape)
 *  weigh each value; `density` divides by the total and the bin widths. Errors (ValueError):
 *  bins < 1, range min > max, a non-finite range, mismatched weights.
 */
HistogramResult histogram(const NDArray& a, index_t bins = 10,
                          std::optional<std::pair<double, double>> range = std::nullopt,
                          const NDArray& weights = NDArray(), bool density = false);

/*!
 * \brief Histogram over the given monotonically increasing 1-D edges `bins` (ValueError
 *  otherwise) (np.histogram with an array of bins).
 */
HistogramResult histogram(const NDArray& a, const NDArray& bins, const NDArray& weights = NDArray(),
                          bool density = false);

/*! \brief What np.histogram2d returns. */
struct Histogram2dResult {
  NDArray hist;    ///< float64 (nx, ny) counts, weighted sums or density
  NDArray xedges;  ///< float64 nx + 1 edges
  NDArray yedges;  ///< float64 ny + 1 edges
};

/*!
 * \brief Two-dimensional histogram of the points (x[i], y[i]) (np.histogram2d) with nx, ny
 *  equal bins over `range` ({xmin, xmax}, {ymin, ymax}; default the data's). x and y must have
 *  the same length (ValueError).
 */
Histogram2dResult histogram2d(
    const NDArray& x, const NDArray& y, index_t nx = 10, index_t ny = 10,
    std::optional<std::pair<std::pair<double, double>, std::pair<double, double>>> range =
        std::nullopt,
    const NDArray& weights = NDArray(), bool density = false);

}  // namespace shade

#endif  // SHADE_NDARRAY_HISTOGRAM_H_
