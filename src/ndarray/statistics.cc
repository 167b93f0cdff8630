// Order statistics (ndarray/statistics.h): each reduced lane is copied once as order keys
// (sortstats_internal.h) and the needed order statistics are selected with nth_element; NaN is
// the largest key, so a lane holding one is recognised by its largest element.
#include "shade/ndarray/statistics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "shade/backend/cpu/parallel.h"
#include "shade/ndarray/cumulative.h"
#include "shade/ndarray/linalg.h"
#include "shade/ndarray/ops.h"
#include "shade/ndarray/promotion.h"
#include "shade/ndarray/shape_ops.h"
#include "sortstats_internal.h"

namespace shade {
namespace {

using sortstats::FromKey;
using sortstats::KeyType;
using sortstats::ToDouble;
using sortstats::ToKey;

enum class QMethod {
  kInvertedCdf,
  kAveragedInvertedCdf,
  kClosestObservation,
  kInterpolatedInvertedCdf,
  kHazen,
  kWeibull,
  kLinear,
  kMedianUnbiased,
  kNormalUnbiased,
  kLower,
  kHigher,
  kMidpoint,
  kNearest,
};

QMethod ParseMethod(const std::string& m) {
  static const char* const kNames[] = {"inverted_cdf",
                                       "averaged_inverted_cdf",
                                       "closest_observation",
                                       "interpolated_inverted_cdf",
                                       "hazen",
                                       "weibull",
                                       "linear",
                                       "median_unbiased",
                                       "normal_unbiased",
                                       "lower",
                                       "higher",
                                       "midpoint",
                                       "nearest"};
  for (int i = 0; i < 13; ++i) {
    if (m == kNames[i]) return static_cast<QMethod>(i);
  }
  std::string all;
  for (const char* n : kNames) all += std::string(all.empty() ? "" : ", ") + "'" + n + "'";
  SHADE_CHECK(false) << "'" << m << "' is not a valid method. Use one of: " << all;
  return QMethod::kLinear;
}

bool IsDiscrete(QMethod m) {
  return m == QMethod::kInvertedCdf || m == QMethod::kClosestObservation || m == QMethod::kLower ||
         m == QMethod::kHigher || m == QMethod::kNearest;
}

// Hyndman & Fan's virtual index n*q + alpha + q*(1 - alpha - beta) - 1.
double VirtualIndex(double n, double q, double alpha, double beta) {
  return n * q + (alpha + q * (1 - alpha - beta)) - 1;
}

// The two neighbouring order statistics (prev, next) of a quantile and the weight of next, as
// NumPy's _quantile chooses them for lanes of n elements (indices clamped to [0, n-1]).
struct Pick {
  index_t prev, next;
  double gamma;
};

// NumPy's rounding of a virtual index to a boundary: floor(index), or floor(index) + 1 unless
// the condition holds; clamped at 0.
index_t DiscreteBoundary(double index, bool odd_rule) {
  const double prev = std::floor(index);
  const double gamma = index - prev;
  bool take_prev = gamma == 0;
  if (odd_rule) take_prev = take_prev && std::fmod(prev, 2.0) == 0;
  index_t r = static_cast<index_t>(take_prev ? prev : prev + 1);
  return r < 0 ? 0 : r;
}

Pick PickFor(QMethod m, index_t n_i, double q) {
  const double n = static_cast<double>(n_i);
  Pick p{0, 0, 0.0};
  if (IsDiscrete(m)) {
    index_t i = 0;
    switch (m) {
      case QMethod::kInvertedCdf:
        i = DiscreteBoundary(n * q - 1, false);
        break;
      case QMethod::kClosestObservation:
        i = DiscreteBoundary(n * q - 1 - 0.5, true);
        break;
      case QMethod::kLower:
        i = static_cast<index_t>(std::floor((n - 1) * q));
        break;
      case QMethod::kHigher:
        i = static_cast<index_t>(std::ceil((n - 1) * q));
        break;
      default:  // nearest: NumPy's around, halves to even
        i = static_cast<index_t>(std::nearbyint((n - 1) * q));
        break;
    }
    i = std::min(std::max<index_t>(i, 0), n_i - 1);
    p.prev = p.next = i;
    return p;
  }
  double v = 0;
  switch (m) {
    case QMethod::kAveragedInvertedCdf:
      v = n * q - 1;
      break;
    case QMethod::kInterpolatedInvertedCdf:
      v = VirtualIndex(n, q, 0, 1);
      break;
    case QMethod::kHazen:
      v = VirtualIndex(n, q, 0.5, 0.5);
      break;
    case QMethod::kWeibull:
      v = VirtualIndex(n, q, 0, 0);
      break;
    case QMethod::kMedianUnbiased:
      v = VirtualIndex(n, q, 1 / 3.0, 1 / 3.0);
      break;
    case QMethod::kNormalUnbiased:
      v = VirtualIndex(n, q, 3 / 8.0, 3 / 8.0);
      break;
    case QMethod::kMidpoint:
      v = 0.5 * (std::floor((n - 1) * q) + std::ceil((n - 1) * q));
      break;
    default:  // linear
      v = (n - 1) * q;
      break;
  }
  const double prev = std::floor(v);
  double gamma = v - prev;
  if (m == QMethod::kAveragedInvertedCdf) gamma = gamma == 0 ? 0.5 : 1.0;
  if (m == QMethod::kMidpoint) gamma = std::fmod(v, 1.0) == 0 ? 0.0 : 0.5;
  if (v >= n - 1) {
    p.prev = p.next = n_i - 1;
  } else if (v < 0) {
    p.prev = p.next = 0;
  } else {
    p.prev = static_cast<index_t>(prev);
    p.next = p.prev + 1;
  }
  p.gamma = gamma;
  return p;
}

// NumPy's _lerp: a + (b-a)*t, or b - (b-a)*(1-t) from t >= 0.5 (exact at both ends).
double Lerp(double a, double b, double t) {
  const double d = b - a;
  return t >= 0.5 ? b - d * (1 - t) : a + d * t;
}

// Puts the order statistics want[b, e) (sorted, unique, all in [lo, hi)) of keys k in place:
// the middle one first, then each half inside its own sub-range, so several quantiles cost
// about n log(count) instead of n * count; an extreme of a range is a scan, not a selection.
template <typename U>
void SelectRange(U* k, index_t lo, index_t hi, const index_t* want, std::size_t b, std::size_t e) {
  if (b >= e) return;
  const std::size_t mid = b + (e - b) / 2;
  const index_t w = want[mid];
  if (w == lo) {
    std::iter_swap(k + lo, std::min_element(k + lo, k + hi));
  } else if (w == hi - 1) {
    std::iter_swap(k + hi - 1, std::max_element(k + lo, k + hi));
  } else {
    std::nth_element(k + lo, k + w, k + hi);
  }
  SelectRange(k, lo, w, want, b, mid);
  SelectRange(k, w + 1, hi, want, mid + 1, e);
}

template <typename U>
void SelectKeys(U* k, index_t n, const std::vector<index_t>& want) {
  SelectRange(k, 0, n, want.data(), 0, want.size());
}

NDArray ReshapeKeep(NDArray r, const std::vector<index_t>& lead, const sortstats::Lanes& l,
                    bool keepdims) {
  std::vector<index_t> shape = lead;
  const auto& tail = keepdims ? l.keep1 : l.kept;
  shape.insert(shape.end(), tail.begin(), tail.end());
  return r.reshape(shape);
}

}  // namespace

namespace {

// The non-NaN keys of a lane moved to its front (NaN keys are the largest); their count.
template <typename T, typename U>
index_t DropNans(U* k, index_t n, bool skip_nan) {
  if constexpr (kIsFloating<T>) {
    if (skip_nan) return std::partition(k, k + n, [](U x) { return x != U(~U(0)); }) - k;
  }
  return n;
}

NDArray QuantileImpl(const NDArray& a, const NDArray& q, const AxisSet& axes,
                     const std::string& method, bool keepdims, bool skip_nan, const char* op) {
  sortstats::CheckInput(q, op);
  const QMethod m = ParseMethod(method);
  const NDArray qd = astype(q, kFloat64).contiguous();
  const double* qp = qd.data<double>();
  for (index_t i = 0; i < qd.numel(); ++i) {
    SHADE_CHECK(qp[i] >= 0 && qp[i] <= 1) << "Quantiles must be in the range [0, 1]";
  }
  sortstats::Lanes l = sortstats::MakeLanes(a, axes, op);
  SHADE_CHECK_TYPE(IsDiscrete(m) || a.type_flag() != kBool)
      << "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the "
         "`^` operator, or the logical_xor function instead.";
  SHADE_CHECK_INDEX(l.n > 0 || l.lanes == 0) << "cannot do a non-empty take from an empty axes.";
  const index_t nq = qd.numel();
  const int out_flag = IsDiscrete(m) ? a.type_flag() : kFloat64;
  NDArray out = NDArray::Empty({nq, l.lanes}, out_flag);
  if (l.lanes > 0 && nq > 0) {
    DispatchDType(a.type_flag(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using U = KeyType<T>;
      const T* data = l.data.data<T>();
      ParallelFor(0, l.lanes, sortstats::LaneGrain(l.n), [&](index_t b, index_t e) {
        std::vector<U> k(l.n);
        std::vector<Pick> picks(nq);
        std::vector<index_t> want;
        for (index_t lane = b; lane < e; ++lane) {
          const T* x = data + lane * l.n;
          for (index_t i = 0; i < l.n; ++i) k[i] = ToKey(x[i], false);
          const index_t n = DropNans<T>(k.data(), l.n, skip_nan);
          want.clear();
          for (index_t i = 0; i < nq && n > 0; ++i) {
            picks[i] = PickFor(m, n, qp[i]);
            want.push_back(picks[i].prev);
            want.push_back(picks[i].next);
          }
          if (n > 0) want.push_back(n - 1);  // the largest: NaN when the lane holds one
          std::sort(want.begin(), want.end());
          want.erase(std::unique(want.begin(), want.end()), want.end());
          SelectKeys(k.data(), n, want);
          const bool nan = n == 0 || sortstats::IsNan(FromKey<T>(k[n - 1]));
          for (index_t i = 0; i < nq; ++i) {
            const Pick& p = picks[i];
            if (IsDiscrete(m)) {
              out.data<T>()[i * l.lanes + lane] =
                  nan ? FromKey<T>(static_cast<U>(~U(0))) : FromKey<T>(k[p.prev]);
            } else {
              out.data<double>()[i * l.lanes + lane] =
                  nan ? NAN
                      : Lerp(ToDouble(FromKey<T>(k[p.prev])), ToDouble(FromKey<T>(k[p.next])),
                             p.gamma);
            }
          }
        }
      });
    });
  }
  NDArray r = ReshapeKeep(out, q.sizes().vec(), l, keepdims);
  // NumPy gives a scalar NaN result a's own float dtype (its nan branch builds arr.dtype.type).
  if (!skip_nan && r.ndim() == 0 && out_flag == kFloat64 &&
      KindOf(a.type_flag()) == DTypeKind::kFloat && std::isnan(*out.data<double>())) {
    r = astype(r, a.type_flag());
  }
  return r;
}

NDArray PercentQ(const NDArray& q, const char* op) {
  sortstats::CheckInput(q, op);
  const NDArray qd = astype(q, kFloat64).contiguous();
  for (index_t i = 0; i < qd.numel(); ++i) {
    const double v = qd.data<double>()[i];
    SHADE_CHECK(v >= 0 && v <= 100) << "Percentiles must be in the range [0, 100]";
  }
  return true_divide(qd, 100.0).eval();
}

NDArray MedianImpl(const NDArray& a, const AxisSet& axes, bool keepdims, bool skip_nan,
                   const char* op) {
  sortstats::Lanes l = sortstats::MakeLanes(a, axes, op);
  const int out_flag = MeanResultType(a.type_flag());
  NDArray out = NDArray::Empty({l.lanes}, out_flag);
  DispatchDType(a.type_flag(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using U = KeyType<T>;
    const T* data = l.data.data<T>();
    ParallelFor(0, l.lanes, sortstats::LaneGrain(l.n), [&](index_t b, index_t e) {
      std::vector<U> k(l.n);
      for (index_t lane = b; lane < e; ++lane) {
        double r = NAN;
        const T* x = data + lane * l.n;
        for (index_t i = 0; i < l.n; ++i) k[i] = ToKey(x[i], false);
        const index_t n = DropNans<T>(k.data(), l.n, skip_nan);
        if (n > 0) {
          SelectKeys(k.data(), n,
                     n % 2 ? std::vector<index_t>{n / 2, n - 1}
                           : std::vector<index_t>{n / 2 - 1, n / 2, n - 1});
          if (!sortstats::IsNan(FromKey<T>(k[n - 1]))) {
            const double hi = ToDouble(FromKey<T>(k[n / 2]));
            // The mean of the middle two, as NumPy (a float16 mean rounds once).
            r = n % 2 ? hi : (ToDouble(FromKey<T>(k[n / 2 - 1])) + hi) / 2;
          }
        }
        DispatchDType(out_flag, [&](auto otag) {
          using O = typename decltype(otag)::type;
          if constexpr (kIsFloating<O>) out.data<O>()[lane] = sortstats::FromDouble<O>(r);
        });
      }
    });
  });
  return ReshapeKeep(out, {}, l, keepdims);
}

}  // namespace

NDArray quantile(const NDArray& a, const NDArray& q, const AxisSet& axes, const std::string& method,
                 bool keepdims) {
  return QuantileImpl(a, q, axes, method, keepdims, false, "quantile");
}

NDArray percentile(const NDArray& a, const NDArray& q, const AxisSet& axes,
                   const std::string& method, bool keepdims) {
  return QuantileImpl(a, PercentQ(q, "percentile"), axes, method, keepdims, false, "percentile");
}

NDArray median(const NDArray& a, const AxisSet& axes, bool keepdims) {
  return MedianImpl(a, axes, keepdims, false, "median");
}

NDArray nanquantile(const NDArray& a, const NDArray& q, const AxisSet& axes,
                    const std::string& method, bool keepdims) {
  return QuantileImpl(a, q, axes, method, keepdims, true, "nanquantile");
}

NDArray nanpercentile(const NDArray& a, const NDArray& q, const AxisSet& axes,
                      const std::string& method, bool keepdims) {
  return QuantileImpl(a, PercentQ(q, "nanpercentile"), axes, method, keepdims, true,
                      "nanpercentile");
}

NDArray nanmedian(const NDArray& a, const AxisSet& axes, bool keepdims) {
  return MedianImpl(a, axes, keepdims, true, "nanmedian");
}

NDArray ptp(const NDArray& a, const AxisSet& axes, bool keepdims) {
  sortstats::CheckInput(a, "ptp");
  return NDArray(subtract(max(a, axes, keepdims), min(a, axes, keepdims)));
}

NDArray average(const NDArray& a, const AxisSet& axes, const NDArray& weights, bool keepdims) {
  sortstats::CheckInput(a, "average");
  if (!weights.defined()) return mean(a, axes, keepdims);
  sortstats::CheckInput(weights, "average");
  NDArray w = weights;
  if (w.sizes() != a.sizes()) {
    SHADE_CHECK_TYPE(!axes.all()) << "Axis must be specified when shapes of a and weights differ.";
    SHADE_CHECK_TYPE(w.ndim() == 1) << "1D weights expected when shapes of a and weights differ.";
    SHADE_CHECK_TYPE(axes.axes().size() == 1)
        << "1D weights expected when shapes of a and weights differ.";
    const int ax = sortstats::NormalizeAxis(axes.axes()[0], a, "average");
    SHADE_CHECK_SHAPE(w.size(0) == a.size(ax))
        << "Length of weights not compatible with specified axis.";
    std::vector<index_t> shape(a.ndim(), 1);
    shape[ax] = w.size(0);
    w = w.reshape(shape).expand(a.sizes());
  }
  const DTypeKind ka = KindOf(a.type_flag());
  int rt = PromoteTypes(a.type_flag(), w.type_flag());
  if (ka != DTypeKind::kFloat) rt = PromoteTypes(rt, kFloat64);
  const NDArray wc = astype(w, rt);
  const NDArray scl = sum(wc, axes, keepdims);
  const NDArray num = sum(NDArray(multiply(astype(a, rt), wc)), axes, keepdims);
  const NDArray zero = NDArray(equal(scl, 0.0));
  SHADE_CHECK(!item<bool>(any(zero))) << "Weights sum to zero, can't be normalized";
  return NDArray(true_divide(num, scl));
}

// ------------------------------------------------------------------ NaN-ignoring reductions

namespace {

bool IsFloatArray(const NDArray& a) {
  return KindOf(a.type_flag()) == DTypeKind::kFloat;
}

// a with its NaNs replaced by `fill` (a itself for non-float arrays).
NDArray FillNans(const NDArray& a, double fill) {
  if (!IsFloatArray(a)) return a;
  return where(not_equal(a, a), Expr(fill), a).eval();
}

// True where a whole reduced lane is NaN (keepdims shape when asked).
NDArray AllNan(const NDArray& a, const AxisSet& axes, bool keepdims) {
  return all(not_equal(a, a).eval(), axes, keepdims);
}

}  // namespace

NDArray nansum(const NDArray& a, const AxisSet& axes, bool keepdims) {
  sortstats::CheckInput(a, "nansum");
  return sum(FillNans(a, 0.0), axes, keepdims);
}

NDArray nanprod(const NDArray& a, const AxisSet& axes, bool keepdims) {
  sortstats::CheckInput(a, "nanprod");
  return prod(FillNans(a, 1.0), axes, keepdims);
}

NDArray nanmean(const NDArray& a, const AxisSet& axes, bool keepdims) {
  sortstats::CheckInput(a, "nanmean");
  if (!IsFloatArray(a)) return mean(a, axes, keepdims);
  const NDArray cnt = sum(equal(a, a).eval(), axes, keepdims);
  // 0/0 = NaN for all-NaN lanes; NumPy divides into the sum's own dtype.
  return astype(true_divide(nansum(a, axes, keepdims), cnt).eval(), a.type_flag());
}

NDArray nanvar(const NDArray& a, const AxisSet& axes, index_t ddof, bool keepdims) {
  sortstats::CheckInput(a, "nanvar");
  SHADE_CHECK(ddof >= 0) << "nanvar: ddof must be >= 0, got " << ddof;
  if (!IsFloatArray(a)) return var(a, axes, ddof, keepdims);
  const NDArray cnt = sum(equal(a, a).eval(), axes, true);
  const NDArray avg = true_divide(nansum(a, axes, true), cnt).eval();
  const NDArray dev = FillNans(subtract(a, avg).eval(), 0.0);
  const NDArray ss = sum(multiply(dev, dev).eval(), axes, keepdims);
  const NDArray n = keepdims ? cnt : sum(equal(a, a).eval(), axes, false);
  const NDArray dof = subtract(n, ddof).eval();
  // count - ddof <= 0: NaN, as NumPy.
  return astype(where(less_equal(dof, 0), Expr(NAN), true_divide(ss, dof)).eval(), a.type_flag());
}

NDArray nanstd(const NDArray& a, const AxisSet& axes, index_t ddof, bool keepdims) {
  return sqrt(nanvar(a, axes, ddof, keepdims)).eval();
}

NDArray nanmin(const NDArray& a, const AxisSet& axes, bool keepdims) {
  sortstats::CheckInput(a, "nanmin");
  if (!IsFloatArray(a)) return min(a, axes, keepdims);
  const NDArray r = min(FillNans(a, INFINITY), axes, keepdims);
  return where(AllNan(a, axes, keepdims), Expr(NAN), r).eval();
}

NDArray nanmax(const NDArray& a, const AxisSet& axes, bool keepdims) {
  sortstats::CheckInput(a, "nanmax");
  if (!IsFloatArray(a)) return max(a, axes, keepdims);
  const NDArray r = max(FillNans(a, -INFINITY), axes, keepdims);
  return where(AllNan(a, axes, keepdims), Expr(NAN), r).eval();
}

namespace {
NDArray NanArg(bool is_max, const NDArray& a, std::optional<index_t> axis, bool keepdims) {
  sortstats::CheckInput(a, is_max ? "nanargmax" : "nanargmin");
  const NDArray x = FillNans(a, is_max ? -INFINITY : INFINITY);
  if (IsFloatArray(a)) {
    const NDArray bad = axis ? AllNan(a, AxisSet(*axis), false) : AllNan(a, AxisSet(), false);
    SHADE_CHECK(!item<bool>(any(bad))) << "All-NaN slice encountered";
  }
  if (!axis) return is_max ? argmax(x) : argmin(x);
  return is_max ? argmax(x, *axis, keepdims) : argmin(x, *axis, keepdims);
}
}  // namespace

NDArray nanargmin(const NDArray& a, std::optional<index_t> axis, bool keepdims) {
  return NanArg(false, a, axis, keepdims);
}

NDArray nanargmax(const NDArray& a, std::optional<index_t> axis, bool keepdims) {
  return NanArg(true, a, axis, keepdims);
}

NDArray nancumsum(const NDArray& a, std::optional<index_t> axis, int dtype) {
  sortstats::CheckInput(a, "nancumsum");
  return cumsum(FillNans(a, 0.0), axis, dtype);
}

NDArray nancumprod(const NDArray& a, std::optional<index_t> axis, int dtype) {
  sortstats::CheckInput(a, "nancumprod");
  return cumprod(FillNans(a, 1.0), axis, dtype);
}

// ------------------------------------------------------------------ covariance

NDArray cov(const NDArray& m, const NDArray& y, bool rowvar, bool bias, index_t ddof) {
  sortstats::CheckInput(m, "cov");
  SHADE_CHECK(m.ndim() <= 2) << "m has more than 2 dimensions";
  // The products below are real ones (no conjugate): complex input is refused, not cast.
  SHADE_CHECK_TYPE(!IsComplexTypeFlag(m.type_flag()) &&
                   !(y.defined() && IsComplexTypeFlag(y.type_flag())))
      << "cov: complex arrays are not supported yet";
  auto as_rows = [&](const NDArray& v) {
    NDArray x = astype(v, kFloat64);
    if (x.ndim() < 2) x = x.reshape({1, -1});
    if (!rowvar && x.size(0) != 1) x = x.transpose(0, 1);
    return x;
  };
  NDArray x = as_rows(m);
  if (y.defined()) {
    sortstats::CheckInput(y, "cov");
    SHADE_CHECK(y.ndim() <= 2) << "y has more than 2 dimensions";
    x = cat({x, as_rows(y)}, 0);
  }
  if (ddof < 0) ddof = bias ? 0 : 1;
  const index_t n = x.size(1);
  const NDArray avg = mean(x, 1, true);
  const NDArray xc = subtract(x, avg).eval();
  // NumPy multiplies by 1 / (n - ddof) (not a division): the same rounding.
  const NDArray c =
      multiply(matmul(xc, xc.transpose(0, 1)), 1.0 / static_cast<double>(n - ddof)).eval();
  return c.squeeze();
}

NDArray corrcoef(const NDArray& x, const NDArray& y, bool rowvar) {
  const NDArray c = cov(x, y, rowvar);
  if (c.ndim() == 0) return true_divide(c, c).eval();
  const index_t n = c.size(0);
  const NDArray d = c.as_strided({n}, {n + 1}).contiguous();  // the diagonal
  const NDArray sd = sqrt(d).eval();
  const NDArray r = true_divide(true_divide(c, sd.reshape({n, 1})), sd.reshape({1, n})).eval();
  return clip(r, -1.0, 1.0).eval();
}

// ------------------------------------------------------------------ comparisons

NDArray isclose(const NDArray& a, const NDArray& b, double rtol, double atol, bool equal_nan) {
  sortstats::CheckInput(a, "isclose");
  sortstats::CheckInput(b, "isclose");
  // NumPy computes in y's dtype made float (result_type(y, 1.0)), promoted with x.
  const NDArray y = IsFloatArray(b) ? b : astype(b, kFloat64);
  const NDArray x = IsFloatArray(a) ? a : astype(a, kFloat64);
  // Evaluated in parts: one expression would exceed the fused evaluator's node limit.
  const NDArray finite = logical_and(equal(subtract(x, x), 0), equal(subtract(y, y), 0)).eval();
  const NDArray near =
      less_equal(absolute(subtract(x, y)), add(Expr(atol), multiply(Expr(rtol), absolute(y))))
          .eval();
  NDArray r = where(finite, near, equal(x, y)).eval();
  if (equal_nan) r = logical_or(r, logical_and(not_equal(x, x), not_equal(y, y))).eval();
  return r;
}

bool allclose(const NDArray& a, const NDArray& b, double rtol, double atol, bool equal_nan) {
  return item<bool>(all(isclose(a, b, rtol, atol, equal_nan)));
}

bool array_equal(const NDArray& a1, const NDArray& a2, bool equal_nan) {
  sortstats::CheckInput(a1, "array_equal");
  sortstats::CheckInput(a2, "array_equal");
  if (a1.sizes() != a2.sizes()) return false;
  Expr eq = equal(a1, a2);
  if (equal_nan) eq = logical_or(eq, logical_and(not_equal(a1, a1), not_equal(a2, a2)));
  return item<bool>(all(eq.eval()));
}

NDArray nan_to_num(const NDArray& x, double nan, std::optional<double> posinf,
                   std::optional<double> neginf) {
  sortstats::CheckInput(x, "nan_to_num");
  if (!IsFloatArray(x)) return x.Clone();
  double big = 0;
  DispatchDType(x.type_flag(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same<T, half_t>::value) {
      big = 65504.0;
    } else if constexpr (std::is_same<T, bf16_t>::value) {
      big = static_cast<double>(static_cast<float>(bf16_t::FromBits(0x7F7F)));
    } else if constexpr (std::is_floating_point<T>::value) {
      big = static_cast<double>(std::numeric_limits<T>::max());
    }
  });
  const double hi = posinf ? *posinf : big, lo = neginf ? *neginf : -big;
  return where(not_equal(x, x), Expr(nan),
               where(equal(x, INFINITY), Expr(hi), where(equal(x, -INFINITY), Expr(lo), x)))
      .eval();
}

NDArray around(const NDArray& a, int decimals) {
  sortstats::CheckInput(a, "around");
  if (decimals == 0) return round(a).eval();
  SHADE_CHECK_TYPE(a.type_flag() != kBool)
      << "Cannot cast ufunc 'multiply' output from dtype('float64') to dtype('bool') with "
         "casting rule 'same_kind'";
  const double f = std::pow(10.0, std::abs(decimals));
  if (!IsFloatArray(a)) {
    if (decimals > 0) return a.Clone();
    // Through float64 as NumPy does, then back to the integer dtype.
    return astype(multiply(round(true_divide(a, f)), f).eval(), a.type_flag());
  }
  // The scale is a weak scalar: the arithmetic stays in a's float dtype, as NumPy's.
  if (decimals > 0) return true_divide(round(multiply(a, f)), f).eval();
  return multiply(round(true_divide(a, f)), f).eval();
}

}  // namespace shade
