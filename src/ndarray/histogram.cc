// Counting and binning (ndarray/histogram.h). Equal-width bins find a value's bin from its
// offset times bins/width and then correct it by at most one against the actual edges (so the
// result agrees with the edges, as NumPy's); explicit edges use a binary search.
#include "shade/ndarray/histogram.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "shade/ndarray/creation.h"
#include "shade/ndarray/cumulative.h"
#include "shade/ndarray/ops.h"
#include "shade/ndarray/promotion.h"
#include "shade/ndarray/reduce.h"
#include "shade/ndarray/shape_ops.h"
#include "shade/ndarray/sort.h"
#include "sortstats_internal.h"

namespace shade {
namespace {

// a's values as contiguous doubles.
std::vector<double> Doubles(const NDArray& a) {
  const NDArray x = a.contiguous();
  std::vector<double> v(x.numel());
  DispatchDType(x.type_flag(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* p = x.data<T>();
    for (index_t i = 0; i < x.numel(); ++i) v[i] = sortstats::ToDouble(p[i]);
  });
  return v;
}

// Calls f(i, value as double) for every element of `a` in row-major order (no copy when a is
// contiguous).
template <typename F>
void ForEachValue(const NDArray& a, F&& f) {
  const NDArray x = a.contiguous();
  DispatchDType(x.type_flag(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* p = x.data<T>();
    for (index_t i = 0; i < x.numel(); ++i) f(i, sortstats::ToDouble(p[i]));
  });
}

// NumPy's _get_outer_edges: the range, or the data's min and max, widened when equal.
std::pair<double, double> OuterEdges(const NDArray& a,
                                     std::optional<std::pair<double, double>> range) {
  double lo, hi;
  if (range) {
    lo = range->first;
    hi = range->second;
    SHADE_CHECK(lo <= hi) << "max must be larger than min in range parameter.";
    SHADE_CHECK(std::isfinite(lo) && std::isfinite(hi))
        << "supplied range of [" << lo << ", " << hi << "] is not finite";
  } else if (a.numel() == 0) {
    lo = 0;
    hi = 1;
  } else {
    lo = INFINITY;
    hi = -INFINITY;
    bool nan = false;
    ForEachValue(a, [&](index_t, double v) {
      nan |= v != v;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    });
    if (nan) lo = hi = NAN;
    SHADE_CHECK(std::isfinite(lo) && std::isfinite(hi))
        << "autodetected range of [" << lo << ", " << hi << "] is not finite";
  }
  if (lo == hi) {
    lo -= 0.5;
    hi += 0.5;
  }
  return {lo, hi};
}

// The bin of v among the n bins of `edges` (n + 1 of them, increasing), or -1 outside.
index_t BinOf(double v, const std::vector<double>& e) {
  const index_t n = static_cast<index_t>(e.size()) - 1;
  if (!(v >= e[0] && v <= e[n])) return -1;
  if (v == e[n]) return n - 1;
  return static_cast<index_t>(std::upper_bound(e.begin(), e.end(), v) - e.begin()) - 1;
}

// The bin of v among n equal bins from lo with norm = n / (hi - lo), checked against edges.
index_t UniformBinOf(double v, double lo, double norm, const std::vector<double>& e) {
  const index_t n = static_cast<index_t>(e.size()) - 1;
  if (!(v >= e[0] && v <= e[n])) return -1;
  index_t i = static_cast<index_t>((v - lo) * norm);
  i = std::min(std::max<index_t>(i, 0), n - 1);
  if (v < e[i]) --i;
  if (i + 1 < n && v >= e[i + 1]) ++i;
  return i;
}

// Equal-width edges computed in float type `flag` step by step (each operation rounded to it).
NDArray EdgesIn(int flag, double lo, double hi, index_t bins) {
  NDArray out = NDArray::Empty({bins + 1}, flag);
  DispatchDType(flag, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kIsFloating<T>) {
      auto r = [](double v) { return sortstats::ToDouble(sortstats::FromDouble<T>(v)); };
      const double start = r(lo), stop = r(hi);
      const double step = r(r(stop - start) / static_cast<double>(bins));
      T* p = out.data<T>();
      for (index_t i = 0; i <= bins; ++i) {
        p[i] = sortstats::FromDouble<T>(i == bins ? stop
                                                  : r(r(static_cast<double>(i) * step) + start));
      }
    }
  });
  return out;
}

void CheckWeights(const NDArray& a, const NDArray& weights) {
  if (!weights.defined()) return;
  sortstats::CheckInput(weights, "histogram");
  SHADE_CHECK(weights.sizes() == a.sizes()) << "weights should have the same shape as a: weights "
                                            << weights.sizes() << ", a " << a.sizes();
}

// Counts (int64) or weighted sums (in the weights' dtype) of the bins of each value.
template <typename BinFn>
HistogramResult Count(const NDArray& a, const NDArray& edges_arr, const std::vector<double>& e,
                      const NDArray& weights, bool density, BinFn bin_of) {
  const index_t n = static_cast<index_t>(e.size()) - 1;
  std::vector<double> sums(n, 0.0);
  std::vector<std::int64_t> counts(n, 0);
  std::vector<double> w;
  if (weights.defined()) w = Doubles(weights);
  const bool weighted = weights.defined();
  ForEachValue(a, [&](index_t i, double v) {
    const index_t b = bin_of(v);
    if (b < 0) return;
    if (weighted) {
      sums[b] += w[i];
    } else {
      ++counts[b];
    }
  });
  HistogramResult r;
  r.bin_edges = edges_arr;
  if (density) {
    double total = 0;
    for (index_t b = 0; b < n; ++b) total += weights.defined() ? sums[b] : counts[b];
    r.hist = NDArray::Empty({n}, kFloat64);
    // Widths in the edges' dtype, as NumPy's diff of the edges.
    const std::vector<double> width = Doubles(diff(edges_arr));
    for (index_t b = 0; b < n; ++b) {
      const double c = weights.defined() ? sums[b] : static_cast<double>(counts[b]);
      r.hist.data<double>()[b] = c / width[b] / total;
    }
  } else if (weights.defined()) {
    NDArray s = NDArray::Empty({n}, kFloat64);
    std::copy(sums.begin(), sums.end(), s.data<double>());
    r.hist = astype(s, weights.type_flag());
  } else {
    r.hist = NDArray::Empty({n}, kInt64);
    std::copy(counts.begin(), counts.end(), r.hist.data<std::int64_t>());
  }
  return r;
}

}  // namespace

NDArray bincount(const NDArray& x, const NDArray& weights, index_t minlength) {
  sortstats::CheckInput(x, "bincount");
  SHADE_CHECK_TYPE(CanCast(x.type_flag(), kInt64, Casting::kSafe))
      << "Cannot cast array data from dtype('" << x.dtype().name()
      << "') to dtype('int64') according to the rule 'safe'";
  SHADE_CHECK(x.ndim() <= 1) << "object too deep for desired array";
  SHADE_CHECK(x.ndim() >= 1) << "object of too small depth for desired array";
  SHADE_CHECK(minlength >= 0) << "'minlength' must not be negative";
  const NDArray xi = astype(x, kInt64).contiguous();
  const std::int64_t* p = xi.data<std::int64_t>();
  std::int64_t top = -1, bottom = 0;
  for (index_t i = 0; i < xi.numel(); ++i) {  // branch-free: the compiler vectorises it
    top = std::max(top, p[i]);
    bottom = std::min(bottom, p[i]);
  }
  SHADE_CHECK(bottom >= 0) << "'list' argument must have no negative elements";
  const index_t len = std::max<index_t>(top + 1, minlength);
  if (weights.defined()) {
    sortstats::CheckInput(weights, "bincount");
    SHADE_CHECK(weights.ndim() == 1 && weights.numel() == x.numel())
        << "The weights and list don't have the same length.";
    const std::vector<double> w = Doubles(weights);
    NDArray out = zeros({len}, kFloat64);
    double* o = out.data<double>();
    for (index_t i = 0; i < xi.numel(); ++i) o[p[i]] += w[i];
    return out;
  }
  NDArray out = zeros({len}, kInt64);
  std::int64_t* o = out.data<std::int64_t>();
  for (index_t i = 0; i < xi.numel(); ++i) ++o[p[i]];
  return out;
}

NDArray digitize(const NDArray& x, const NDArray& bins, bool right) {
  sortstats::CheckInput(x, "digitize");
  sortstats::CheckInput(bins, "digitize");
  SHADE_CHECK(bins.ndim() <= 1) << "object too deep for desired array";
  SHADE_CHECK(bins.ndim() == 1) << "object of too small depth for desired array";
  const std::vector<double> b = Doubles(bins);
  bool inc = true, dec = true;
  for (std::size_t i = 1; i < b.size(); ++i) {
    inc &= b[i - 1] <= b[i];
    dec &= b[i - 1] >= b[i];
  }
  SHADE_CHECK(inc || dec) << "bins must be monotonically increasing or decreasing";
  const std::string side = right ? "left" : "right";
  if (inc) return searchsorted(bins, x, side);
  // Decreasing: search the reversed bins and mirror the index.
  return subtract(bins.size(0), searchsorted(flip(bins), x, side)).eval();
}

HistogramResult histogram(const NDArray& a, index_t bins,
                          std::optional<std::pair<double, double>> range, const NDArray& weights,
                          bool density) {
  sortstats::CheckInput(a, "histogram");
  SHADE_CHECK(bins >= 1) << "`bins` must be positive, when an integer";
  CheckWeights(a, weights);
  const auto lh = OuterEdges(a, range);
  const int edge_flag = KindOf(a.type_flag()) == DTypeKind::kFloat ? a.type_flag() : kFloat64;
  // NumPy's linspace computes in the edges' dtype when the range comes from the data (NEP 50:
  // its ends are scalars of a's dtype), in float64 when it is given (Python floats).
  const NDArray edges = range || edge_flag == kFloat64
                            ? linspace(lh.first, lh.second, bins + 1, true, edge_flag)
                            : EdgesIn(edge_flag, lh.first, lh.second, bins);
  const std::vector<double> e = Doubles(edges);
  const double norm = static_cast<double>(bins) / (lh.second - lh.first);
  return Count(a, edges, e, weights, density,
               [&](double x) { return UniformBinOf(x, lh.first, norm, e); });
}

HistogramResult histogram(const NDArray& a, const NDArray& bins, const NDArray& weights,
                          bool density) {
  sortstats::CheckInput(a, "histogram");
  sortstats::CheckInput(bins, "histogram");
  SHADE_CHECK(bins.ndim() == 1) << "`bins` must be 1d, when an array";
  CheckWeights(a, weights);
  const std::vector<double> e = Doubles(bins);
  for (std::size_t i = 1; i < e.size(); ++i) {
    SHADE_CHECK(e[i - 1] <= e[i]) << "`bins` must increase monotonically, when an array";
  }
  SHADE_CHECK(e.size() >= 2) << "histogram: `bins` needs at least two edges, got " << e.size();
  return Count(a, bins, e, weights, density, [&](double x) { return BinOf(x, e); });
}

Histogram2dResult histogram2d(
    const NDArray& x, const NDArray& y, index_t nx, index_t ny,
    std::optional<std::pair<std::pair<double, double>, std::pair<double, double>>> range,
    const NDArray& weights, bool density) {
  sortstats::CheckInput(x, "histogram2d");
  sortstats::CheckInput(y, "histogram2d");
  SHADE_CHECK(x.numel() == y.numel()) << "x and y must have the same length.";
  SHADE_CHECK(nx >= 1) << "`bins[0]` must be positive, when an integer";
  SHADE_CHECK(ny >= 1) << "`bins[1]` must be positive, when an integer";
  const NDArray xf = x.reshape({-1}), yf = y.reshape({-1});
  const std::vector<double> xv = Doubles(xf), yv = Doubles(yf);
  std::vector<double> w;
  if (weights.defined()) {
    sortstats::CheckInput(weights, "histogram2d");
    SHADE_CHECK(weights.numel() == x.numel()) << "histogram2d: weights has " << weights.numel()
                                              << " elements for " << x.numel() << " points";
    w = Doubles(weights.reshape({-1}));
  }
  const auto lx =
      OuterEdges(xf, range ? std::optional<std::pair<double, double>>(range->first) : std::nullopt);
  const auto ly = OuterEdges(
      yf, range ? std::optional<std::pair<double, double>>(range->second) : std::nullopt);
  Histogram2dResult r;
  r.xedges = linspace(lx.first, lx.second, nx + 1, true, kFloat64);
  r.yedges = linspace(ly.first, ly.second, ny + 1, true, kFloat64);
  const std::vector<double> ex = Doubles(r.xedges), ey = Doubles(r.yedges);
  r.hist = zeros({nx, ny}, kFloat64);
  double* h = r.hist.data<double>();
  for (std::size_t i = 0; i < xv.size(); ++i) {
    const index_t bx = BinOf(xv[i], ex), by = BinOf(yv[i], ey);
    if (bx < 0 || by < 0) continue;
    h[bx * ny + by] += weights.defined() ? w[i] : 1.0;
  }
  if (density) {
    double total = 0;
    for (index_t i = 0; i < nx * ny; ++i) total += h[i];
    for (index_t i = 0; i < nx; ++i) {
      for (index_t j = 0; j < ny; ++j) {
        h[i * ny + j] = h[i * ny + j] / (ex[i + 1] - ex[i]) / (ey[j + 1] - ey[j]) / total;
      }
    }
  }
  return r;
}

}  // namespace shade
