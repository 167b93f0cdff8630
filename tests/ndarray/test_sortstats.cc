// Sorting, searching, sets, counting, cumulative and statistics functions (ndarray/sort.h,
// searching.h, sets.h, histogram.h, cumulative.h, statistics.h) against naive loops.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include "shade/ndarray/creation.h"
#include "shade/ndarray/cumulative.h"
#include "shade/ndarray/histogram.h"
#include "shade/ndarray/ops.h"
#include "shade/ndarray/searching.h"
#include "shade/ndarray/sets.h"
#include "shade/ndarray/shape_ops.h"
#include "shade/ndarray/sort.h"
#include "shade/ndarray/statistics.h"

namespace shade {
namespace {

// Random values with ties (and NaNs for floats) of dtype `flag`, built through doubles.
NDArray Random(std::vector<index_t> shape, int flag, unsigned seed, bool nans = true) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> d(-20, 20);
  index_t n = 1;
  for (index_t s : shape) n *= s;
  std::vector<double> v(n);
  const bool is_float = KindOf(flag) == DTypeKind::kFloat;
  const bool is_unsigned = KindOf(flag) == DTypeKind::kUnsigned;
  for (auto& x : v) {
    x = d(gen);
    if (is_unsigned) x = std::abs(x);
    if (is_float) x *= 0.25;
    if (flag == kBool) x = x > 0;
  }
  if (is_float && nans && n > 4) v[n / 3] = NAN;
  NDArray out = NDArray::Empty({n}, kFloat64);
  std::copy(v.begin(), v.end(), out.data<double>());
  return astype(out, flag).reshape(shape).contiguous();
}

// Row-major values of any array as doubles.
std::vector<double> Values(const NDArray& a) {
  const NDArray d = astype(a, kFloat64).contiguous();
  return std::vector<double>(d.data<double>(), d.data<double>() + d.numel());
}

// NumPy's order: NaN last.
bool NanLess(double a, double b) {
  return std::isnan(b) ? !std::isnan(a) : a < b;
}

void ExpectSameValues(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << "at " << i;
    } else {
      EXPECT_EQ(got[i], want[i]) << "at " << i;
    }
  }
}

// Lanes of a 2-D (r, c) array along `axis`, as doubles.
std::vector<std::vector<double>> Lanes2d(const NDArray& a, int axis) {
  const std::vector<double> v = Values(a);
  const index_t r = a.size(0), c = a.size(1);
  std::vector<std::vector<double>> lanes;
  if (axis == 1) {
    for (index_t i = 0; i < r; ++i) lanes.emplace_back(v.begin() + i * c, v.begin() + (i + 1) * c);
  } else {
    for (index_t j = 0; j < c; ++j) {
      lanes.emplace_back();
      for (index_t i = 0; i < r; ++i) lanes.back().push_back(v[i * c + j]);
    }
  }
  return lanes;
}

const int kFlags[] = {kFloat32, kFloat64, kFloat16, kBfloat16, kInt8,   kInt16, kInt32,
                      kInt64,   kUint8,   kUint16,  kUint32,   kUint64, kBool};

TEST(SortStats, SortAndArgsortMatchStableLoops) {
  for (int flag : kFlags) {
    for (index_t cols : {index_t(7), index_t(300)}) {  // 300: radix passes and vqsort
      const NDArray base = Random({5, cols}, flag, 1 + flag);
      for (const NDArray& a : {base, base.transpose(0, 1)}) {  // contiguous and strided
        for (int axis : {0, 1}) {
          const auto lanes = Lanes2d(a, axis);
          const auto sorted = Lanes2d(sort(a, axis), axis);
          const auto order = Lanes2d(argsort(a, axis), axis);
          for (std::size_t l = 0; l < lanes.size(); ++l) {
            std::vector<double> want = lanes[l];
            std::stable_sort(want.begin(), want.end(), NanLess);
            ExpectSameValues(sorted[l], want);
            std::vector<double> idx(lanes[l].size());
            std::iota(idx.begin(), idx.end(), 0.0);
            std::stable_sort(idx.begin(), idx.end(), [&](double p, double q) {
              return NanLess(lanes[l][static_cast<std::size_t>(p)],
                             lanes[l][static_cast<std::size_t>(q)]);
            });
            ExpectSameValues(order[l], idx);
          }
        }
      }
    }
  }
}

TEST(SortStats, SortFlattensEmptyAndErrors) {
  const NDArray a = Random({3, 4}, kInt32, 5);
  std::vector<double> want = Values(a);
  std::sort(want.begin(), want.end());
  ExpectSameValues(Values(sort(a, std::nullopt)), want);
  EXPECT_EQ(sort(NDArray::Empty({0, 3}, kFloat32), 0).sizes(), IndexSpan({0, 3}));
  EXPECT_EQ(argsort(NDArray::Empty({0}, kFloat32)).numel(), 0);
  EXPECT_THROW(sort(a, 2), IndexError);
  EXPECT_THROW(sort(full({}, 1.0), -1), IndexError);
  EXPECT_THROW(sort(a, -1, "bogus"), ValueError);
  EXPECT_THROW(partition(a, {4}, 1), ValueError);
  EXPECT_THROW(lexsort({}), TypeError);
  EXPECT_THROW(lexsort({a, Random({4}, kInt32, 2)}), ValueError);
}

TEST(SortStats, PartitionPlacesKth) {
  const NDArray a = Random({4, 9}, kFloat64, 7);
  const NDArray p = partition(a, {2, 6}, 1);
  const auto lanes = Lanes2d(a, 1), parts = Lanes2d(p, 1);
  const auto idx = Lanes2d(argpartition(a, {2, 6}, 1), 1);
  for (std::size_t l = 0; l < lanes.size(); ++l) {
    std::vector<double> s = lanes[l];
    std::sort(s.begin(), s.end(), NanLess);
    for (int k : {2, 6}) {
      ExpectSameValues({parts[l][k]}, {s[k]});
      ExpectSameValues({lanes[l][static_cast<std::size_t>(idx[l][k])]}, {s[k]});
      for (int i = 0; i < k; ++i) EXPECT_FALSE(NanLess(s[k], parts[l][i]));
    }
  }
}

TEST(SortStats, LexsortLastKeyFirst) {
  const NDArray k0 = Random({50}, kInt8, 3), k1 = Random({50}, kInt8, 4);
  const std::vector<double> a = Values(k0), b = Values(k1);
  std::vector<double> idx(50);
  std::iota(idx.begin(), idx.end(), 0.0);
  std::stable_sort(idx.begin(), idx.end(), [&](double p, double q) {
    const auto i = static_cast<std::size_t>(p), j = static_cast<std::size_t>(q);
    return b[i] != b[j] ? b[i] < b[j] : a[i] < a[j];
  });
  ExpectSameValues(Values(lexsort({k0, k1})), idx);
}

TEST(SortStats, SearchsortedCountsLikeALoop) {
  for (int flag : {kInt16, kFloat32, kUint8, kFloat64}) {
    const NDArray a = sort(Random({40}, flag, 9));
    const NDArray v = Random({3, 5}, flag, 10);
    const std::vector<double> av = Values(a), vv = Values(v);
    for (const char* side : {"left", "right"}) {
      const std::vector<double> got = Values(searchsorted(a, v, side));
      for (std::size_t i = 0; i < vv.size(); ++i) {
        double c = 0;
        for (double x : av) {
          const bool before = std::string(side) == "left" ? NanLess(x, vv[i]) : !NanLess(vv[i], x);
          c += before;
        }
        EXPECT_EQ(got[i], c) << side << " " << vv[i];
      }
    }
  }
  EXPECT_THROW(searchsorted(full({2, 2}, 1.0), full({}, 1.0)), ValueError);
  EXPECT_THROW(searchsorted(full({3}, 1.0), full({}, 1.0), "middle"), ValueError);
}

TEST(SortStats, UniqueAndSets) {
  const NDArray a = Random({6, 5}, kInt32, 11), b = Random({13}, kInt32, 12);
  std::vector<double> av = Values(a), bv = Values(b);
  std::vector<double> u = av;
  std::sort(u.begin(), u.end());
  u.erase(std::unique(u.begin(), u.end()), u.end());
  const UniqueResult r = unique(a, true, true, true);
  ExpectSameValues(Values(r.values), u);
  const std::vector<double> idx = Values(r.index), inv = Values(r.inverse), cnt = Values(r.counts);
  for (std::size_t j = 0; j < u.size(); ++j) {
    const auto first = std::find(av.begin(), av.end(), u[j]) - av.begin();
    EXPECT_EQ(idx[j], static_cast<double>(first));
    EXPECT_EQ(cnt[j], static_cast<double>(std::count(av.begin(), av.end(), u[j])));
  }
  for (std::size_t i = 0; i < av.size(); ++i) EXPECT_EQ(u[static_cast<std::size_t>(inv[i])], av[i]);
  const std::vector<double> in = Values(isin(a, b));
  for (std::size_t i = 0; i < av.size(); ++i) {
    EXPECT_EQ(in[i], std::count(bv.begin(), bv.end(), av[i]) > 0 ? 1.0 : 0.0);
  }
  std::vector<double> common;
  for (double x : u) {
    if (std::count(bv.begin(), bv.end(), x)) common.push_back(x);
  }
  ExpectSameValues(Values(intersect1d(a, b).values), common);
  std::vector<double> diff;
  for (double x : u) {
    if (!std::count(bv.begin(), bv.end(), x)) diff.push_back(x);
  }
  ExpectSameValues(Values(setdiff1d(a, b)), diff);
  // NaNs collapse into one unique value by default, stay apart with equal_nan=false.
  const NDArray f = Random({20}, kFloat32, 13);
  EXPECT_EQ(unique(f).values.numel() + 0,
            unique(f, false, false, false, std::nullopt, false).values.numel());
}

TEST(SortStats, WhereCountAndSelect) {
  const NDArray a = Random({4, 5}, kInt16, 14);
  const std::vector<double> v = Values(a);
  const std::vector<NDArray> nz = where(a);
  const std::vector<double> rows = Values(nz[0]), cols = Values(nz[1]),
                            flat = Values(flatnonzero(a));
  std::size_t k = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i] == 0) continue;
    EXPECT_EQ(rows[k], static_cast<double>(i / 5));
    EXPECT_EQ(cols[k], static_cast<double>(i % 5));
    EXPECT_EQ(flat[k], static_cast<double>(i));
    ++k;
  }
  EXPECT_EQ(k, rows.size());
  EXPECT_EQ(argwhere(a).sizes(), IndexSpan({static_cast<index_t>(k), 2}));
  EXPECT_EQ(item<std::int64_t>(count_nonzero(a)), static_cast<std::int64_t>(k));
  EXPECT_THROW(select({}, {}, full({}, 0.0)), ValueError);
  EXPECT_THROW(select({a}, {a}, full({}, 0.0)), TypeError);
}

TEST(SortStats, BincountDigitizeHistogram) {
  const NDArray x = Random({60}, kUint8, 15);
  const std::vector<double> xv = Values(x);
  const std::vector<double> bc = Values(bincount(x));
  for (std::size_t b = 0; b < bc.size(); ++b) {
    EXPECT_EQ(bc[b], static_cast<double>(std::count(xv.begin(), xv.end(), double(b))));
  }
  EXPECT_THROW(bincount(Random({3}, kFloat32, 1)), TypeError);
  EXPECT_THROW(bincount(astype(full({2}, -1.0), kInt64)), ValueError);
  const HistogramResult h = histogram(x, 4);
  const std::vector<double> e = Values(h.bin_edges), hv = Values(h.hist);
  for (int b = 0; b < 4; ++b) {
    double c = 0;
    for (double v : xv) c += v >= e[b] && (b == 3 ? v <= e[b + 1] : v < e[b + 1]);
    EXPECT_EQ(hv[b], c);
  }
  const std::vector<double> dg = Values(digitize(x, h.bin_edges));
  for (std::size_t i = 0; i < xv.size(); ++i) {
    EXPECT_EQ(dg[i], static_cast<double>(std::upper_bound(e.begin(), e.end(), xv[i]) - e.begin()));
  }
  EXPECT_THROW(histogram(x, 0), ValueError);
}

TEST(SortStats, CumulativeAndDiff) {
  for (int flag : {kInt8, kFloat64, kUint16}) {
    const NDArray a = Random({3, 6}, flag, 16, false);
    const std::vector<double> v = Values(a);
    const NDArray cs = cumsum(a, 1), cp = cumprod(a.transpose(0, 1), 0), d = diff(a, 1, 1);
    EXPECT_EQ(cs.type_flag(), KindOf(flag) == DTypeKind::kUnsigned ? kUint64
                              : flag == kInt8                      ? kInt64
                                                                   : flag);
    const std::vector<double> csv = Values(cs), cpv = Values(cp.transpose(0, 1)), dv = Values(d);
    for (int r = 0; r < 3; ++r) {
      double s = 0, p = 1;
      for (int c = 0; c < 6; ++c) {
        s += v[r * 6 + c];
        p *= v[r * 6 + c];
        EXPECT_EQ(csv[r * 6 + c], s);
        if (KindOf(flag) == DTypeKind::kFloat) {
          EXPECT_EQ(cpv[r * 6 + c], p);
        }
        if (c > 0 && flag != kUint16) {
          EXPECT_EQ(dv[r * 5 + c - 1], v[r * 6 + c] - v[r * 6 + c - 1]);
        }
      }
    }
  }
  EXPECT_THROW(diff(full({}, 1.0)), ValueError);
  EXPECT_THROW(diff(full({3}, 1.0), -1), ValueError);
  EXPECT_THROW(cumsum(full({3}, 1.0), 1), IndexError);
}

TEST(SortStats, MedianQuantileLikeSortedLanes) {
  const NDArray a = Random({5, 8}, kFloat64, 17, false);
  const NDArray q = full({3}, 0.0);
  q.set({1}, 0.3);
  q.set({2}, 1.0);
  const std::vector<double> qs = {0.0, 0.3, 1.0};
  const auto lanes = Lanes2d(a, 1);
  const std::vector<double> med = Values(median(a, 1));
  const std::vector<double> qv = Values(quantile(a, q, 1));
  const std::vector<double> lo = Values(quantile(a, q, 1, "lower"));
  for (std::size_t l = 0; l < lanes.size(); ++l) {
    std::vector<double> s = lanes[l];
    std::sort(s.begin(), s.end());
    EXPECT_DOUBLE_EQ(med[l], (s[3] + s[4]) / 2);
    for (std::size_t j = 0; j < 3; ++j) {
      const double vi = qs[j] * 7;
      const std::size_t i0 = static_cast<std::size_t>(std::floor(vi));
      const double want = i0 + 1 < s.size() ? s[i0] + (s[i0 + 1] - s[i0]) * (vi - i0) : s[i0];
      EXPECT_NEAR(qv[j * lanes.size() + l], want, 1e-12);
      EXPECT_EQ(lo[j * lanes.size() + l], s[i0]);
    }
  }
  EXPECT_TRUE(std::isnan(item<double>(median(Random({9}, kFloat32, 18)))));
  EXPECT_EQ(median(Random({4}, kInt8, 1)).type_flag(), kFloat64);
  EXPECT_THROW(quantile(a, full({}, 1.5)), ValueError);
  EXPECT_THROW(quantile(a, full({}, 0.5), AxisSet(), "nope"), ValueError);
  EXPECT_THROW(ptp(NDArray::Empty({0}, kFloat32)), ValueError);
  const std::vector<double> av = Values(a);
  EXPECT_DOUBLE_EQ(item<double>(ptp(a)), *std::max_element(av.begin(), av.end()) -
                                             *std::min_element(av.begin(), av.end()));
}

TEST(SortStats, NanReductionsSkipNans) {
  const NDArray a = Random({4, 7}, kFloat64, 19);  // one NaN
  const auto lanes = Lanes2d(a, 1);
  const std::vector<double> s = Values(nansum(a, 1)), mx = Values(nanmax(a, 1)),
                            mn = Values(nanmean(a, 1)), md = Values(nanmedian(a, 1));
  for (std::size_t l = 0; l < lanes.size(); ++l) {
    std::vector<double> v;
    for (double x : lanes[l]) {
      if (!std::isnan(x)) v.push_back(x);
    }
    const double total = std::accumulate(v.begin(), v.end(), 0.0);
    EXPECT_DOUBLE_EQ(s[l], total);
    EXPECT_EQ(mx[l], *std::max_element(v.begin(), v.end()));
    EXPECT_DOUBLE_EQ(mn[l], total / static_cast<double>(v.size()));
    std::sort(v.begin(), v.end());
    const std::size_t h = v.size() / 2;
    EXPECT_DOUBLE_EQ(md[l], v.size() % 2 ? v[h] : (v[h - 1] + v[h]) / 2);
  }
  EXPECT_TRUE(std::isnan(item<double>(nanmax(full({3}, NAN)))));
  EXPECT_THROW(nanargmax(full({3}, NAN)), ValueError);
}

TEST(SortStats, ConvolveInterpIscloseAround) {
  const NDArray a = Random({9}, kInt32, 20), v = Random({4}, kInt32, 21);
  const std::vector<double> av = Values(a), vv = Values(v), full_conv = Values(convolve(a, v));
  ASSERT_EQ(full_conv.size(), 12u);
  for (std::size_t k = 0; k < 12; ++k) {
    double c = 0;
    for (std::size_t i = 0; i < 9; ++i) {
      if (k >= i && k - i < 4) c += av[i] * vv[k - i];
    }
    EXPECT_EQ(full_conv[k], c);
  }
  EXPECT_EQ(convolve(a, v, "valid").numel(), 6);
  EXPECT_THROW(convolve(a, NDArray::Empty({0}, kInt32)), ValueError);
  const NDArray xp = linspace(0, 4, 5), fp = linspace(10, 50, 5);
  const std::vector<double> iv = Values(interp(linspace(-1, 5, 13), xp, fp));
  for (int i = 0; i < 13; ++i) {
    const double x = -1 + 0.5 * i;
    EXPECT_DOUBLE_EQ(iv[i], x < 0 ? 10 : x > 4 ? 50 : 10 + 10 * x);
  }
  EXPECT_THROW(interp(xp, xp, linspace(0, 1, 3)), ValueError);
  const NDArray p = linspace(0, 1, 5);
  EXPECT_TRUE(allclose(p, NDArray(add(p, 1e-9))));
  EXPECT_FALSE(allclose(p, NDArray(add(p, 1e-3))));
  EXPECT_TRUE(array_equal(p, p.Clone()));
  const std::vector<double> r = Values(around(linspace(0.125, 1.125, 5), 2));
  const double want[] = {0.12, 0.38, 0.62, 0.88, 1.12};  // halves to even
  for (int i = 0; i < 5; ++i) EXPECT_NEAR(r[i], want[i], 1e-12);
}

}  // namespace
}  // namespace shade
