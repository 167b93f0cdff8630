// Reductions: full sums within the stated bound (2^25 floats against a long double reference),
// max/min/argmax/argmin with ties and NaN, axis reductions of [outer, len, inner] blocks and of
// padded matrices against naive loops, threaded results bit-identical, error paths.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "shade/backend/cpu/reduce.h"

namespace shade {
namespace {

// Deterministic, fast generator (a 64-bit LCG) so that 2^25 values take milliseconds.
struct Lcg {
  std::uint64_t s;
  double Next() {  // uniform in [0, 1)
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(s >> 11) * (1.0 / 9007199254740992.0);
  }
};

template <class T>
std::vector<T> Values(index_t n, std::uint64_t seed, double lo, double hi) {
  Lcg g{seed};
  std::vector<T> v(static_cast<size_t>(n));
  for (auto& x : v) x = static_cast<T>(lo + (hi - lo) * g.Next());
  return v;
}

struct ScopedThreads {
  int saved = GetNumThreads();
  explicit ScopedThreads(int n) { SetNumThreads(n); }
  ~ScopedThreads() { SetNumThreads(saved); }
};

TEST(Reduce, Sum2Pow25FloatWithinBound) {
  const index_t n = index_t(1) << 25;
  auto x = Values<float>(n, 42, 0.0, 1.0);
  long double exact = 0, abs_sum = 0;
  float naive = 0;
  for (float v : x) {
    exact += v;
    abs_sum += std::fabs(v);
    naive += v;
  }
  const float got = kernel::Sum(n, x.data());
  const double err = std::fabs(static_cast<double>(got - exact));
  const double bound = kernel::SumErrorBound<float>(n, static_cast<double>(abs_sum));
  EXPECT_LE(err, bound) << "sum " << got << " exact " << static_cast<double>(exact);
  EXPECT_LT(bound, 1e-4 * static_cast<double>(abs_sum));  // useful even on the scalar target
  // A running float sum stalls near 2^24: the blocked order is what keeps the error small.
  EXPECT_GT(std::fabs(static_cast<double>(naive - exact)), 100 * err + 1);
}

template <class T>
void CheckSums(double lo, double hi) {
  for (index_t n : {0, 1, 3, 17, 63, 2047, 2048, 2049, 100003}) {
    auto x = Values<T>(n, static_cast<std::uint64_t>(n) + 5, lo, hi);
    long double exact = 0, abs_sum = 0;
    for (T v : x) {
      exact += static_cast<long double>(v);
      abs_sum += std::fabs(static_cast<long double>(v));
    }
    const T got = kernel::Sum(n, x.data());
    if constexpr (std::is_floating_point<T>::value) {
      EXPECT_LE(std::fabs(static_cast<double>(got - exact)),
                kernel::SumErrorBound<T>(n, static_cast<double>(abs_sum)))
          << "n=" << n;
    } else {
      EXPECT_EQ(got, static_cast<T>(exact)) << "n=" << n;
    }
    // Misaligned start: same bound.
    if (n > 1) {
      const T got1 = kernel::Sum(n - 1, x.data() + 1);
      const long double exact1 = exact - static_cast<long double>(x[0]);
      if constexpr (std::is_floating_point<T>::value) {
        EXPECT_LE(std::fabs(static_cast<double>(got1 - exact1)),
                  kernel::SumErrorBound<T>(n, static_cast<double>(abs_sum)));
      } else {
        EXPECT_EQ(got1, static_cast<T>(exact1));
      }
    }
  }
}
TEST(Reduce, SumFloat) { CheckSums<float>(-1, 1); }
TEST(Reduce, SumDouble) { CheckSums<double>(-1e3, 1e3); }
TEST(Reduce, SumInt32) { CheckSums<std::int32_t>(-1000, 1000); }
TEST(Reduce, SumInt64) { CheckSums<std::int64_t>(-1e9, 1e9); }
TEST(Reduce, SumUint8Wraps) {
  std::vector<std::uint8_t> x(1000, 1);
  EXPECT_EQ(kernel::Sum(1000, x.data()), static_cast<std::uint8_t>(1000 % 256));
}

TEST(Reduce, ThreadedBitIdentical) {
  const index_t n = (index_t(1) << 21) + 5;
  auto x = Values<float>(n, 9, -1, 1);
  float one, two;
  {
    ScopedThreads t(1);
    one = kernel::Sum(n, x.data());
  }
  {
    ScopedThreads t(2);
    two = kernel::Sum(n, x.data());
  }
  EXPECT_EQ(0, std::memcmp(&one, &two, sizeof(float)));
  EXPECT_EQ(0, std::memcmp(&one, &(const float&)kernel::ReduceAllRun<kernel::red::sum>(n, x.data()), 4));
  // Axis reductions too.
  const index_t rows = 300, cols = 1100;
  auto m = Values<float>(rows * cols, 3, -1, 1);
  std::vector<float> a1(cols), a2(cols), r1(rows), r2(rows);
  {
    ScopedThreads t(1);
    kernel::ReduceAxis<kernel::red::sum>(1, rows, cols, m.data(), a1.data());
    kernel::ReduceAxis<kernel::red::sum>(rows, cols, 1, m.data(), r1.data());
  }
  {
    ScopedThreads t(2);
    kernel::ReduceAxis<kernel::red::sum>(1, rows, cols, m.data(), a2.data());
    kernel::ReduceAxis<kernel::red::sum>(rows, cols, 1, m.data(), r2.data());
  }
  EXPECT_EQ(0, std::memcmp(a1.data(), a2.data(), a1.size() * sizeof(float)));
  EXPECT_EQ(0, std::memcmp(r1.data(), r2.data(), r1.size() * sizeof(float)));
}

// The threaded full reduction cuts the block tree at depth ceil(log2 threads): 3 and 4 threads
// cut deeper than 2. Every split gives the serial bits, for float, double and an integer type.
template <class T>
void CheckSumThreads(index_t n, double lo, double hi) {
  auto x = Values<T>(n, static_cast<std::uint64_t>(n) * 3 + 1, lo, hi);
  const T serial = kernel::ReduceAllRun<kernel::red::sum>(n, x.data());
  for (int t : {1, 2, 3, 4, 7}) {
    ScopedThreads s(t);
    const T got = kernel::Sum(n, x.data());
    EXPECT_EQ(0, std::memcmp(&got, &serial, sizeof(T))) << "n=" << n << " threads=" << t;
  }
}
TEST(Reduce, SumThreadSplitsBitIdentical) {
  for (index_t n : {index_t(1) << 16, (index_t(1) << 20) + 2047, index_t(3000001)}) {
    CheckSumThreads<float>(n, -1, 1);
    CheckSumThreads<double>(n, -1, 1);
    CheckSumThreads<std::int32_t>(n, -100, 100);
  }
}

// Axis-0 reductions large enough to split rows across threads (the row tree cut at depth
// ceil(log2(threads / tiles))) or columns into several tiles (inner > kReduceColTile), dense
// and with a padded pitch: bit-identical for every thread count and within the column bound.
TEST(Reduce, AxisThreadSplitsBitIdentical) {
  struct Case {
    index_t outer, len, inner, ld;
  };
  for (const Case c : {Case{1, 1000, 300, 300}, Case{1, 701, 4500, 4500}, Case{2, 600, 130, 130},
                       Case{1, 5000, 16, 16}, Case{1, 3001, 33, 33}, Case{1, 1000, 300, 311},
                       Case{1, 999, 37, 45}}) {
    auto x =
        Values<float>(c.outer * c.len * c.ld, static_cast<std::uint64_t>(c.len + c.inner), -1, 1);
    auto run = [&](std::vector<float>& out) {
      if (c.ld == c.inner) {
        kernel::ReduceAxis<kernel::red::sum>(c.outer, c.len, c.inner, x.data(), out.data());
      } else {
        kernel::ReduceRows<kernel::red::sum>(c.len, c.inner, x.data(), c.ld, out.data());
      }
    };
    std::vector<float> one(static_cast<size_t>(c.outer * c.inner));
    {
      ScopedThreads s(1);
      run(one);
    }
    for (int t : {2, 3, 4}) {
      ScopedThreads s(t);
      std::vector<float> got(one.size(), -7.f);
      run(got);
      ASSERT_EQ(0, std::memcmp(got.data(), one.data(), one.size() * sizeof(float)))
          << c.outer << "x" << c.len << "x" << c.inner << " ld " << c.ld << " threads " << t;
    }
    // Column bound of ReduceAxis's comment: (kReduceRowLeaf + ceil(log2(len / 32))) u sum |x|.
    index_t levels = 0;
    while ((index_t(kernel::kReduceRowLeaf) << levels) < c.len) ++levels;
    const double ku = static_cast<double>(kernel::kReduceRowLeaf + levels) *
                      std::numeric_limits<float>::epsilon() / 2;
    for (index_t o = 0; o < c.outer; ++o) {
      for (index_t j = 0; j < c.inner; ++j) {
        long double exact = 0, abs_sum = 0;
        for (index_t l = 0; l < c.len; ++l) {
          const float v = x[static_cast<size_t>((o * c.len + l) * c.ld + j)];
          exact += v;
          abs_sum += std::fabs(v);
        }
        const float got = one[static_cast<size_t>(o * c.inner + j)];
        ASSERT_LE(std::fabs(static_cast<double>(got - exact)),
                  ku / (1 - ku) * static_cast<double>(abs_sum))
            << "column " << j;
      }
    }
  }
}

TEST(Reduce, MaxMin) {
  for (index_t n : {1, 5, 16, 17, 4099}) {
    auto x = Values<float>(n, static_cast<std::uint64_t>(n), -100, 100);
    float mx = x[0], mn = x[0];
    for (float v : x) {
      mx = std::max(mx, v);
      mn = std::min(mn, v);
    }
    EXPECT_EQ(kernel::MaxAll(n, x.data()), mx);
    EXPECT_EQ(kernel::MinAll(n, x.data()), mn);
    x[static_cast<size_t>(n / 2)] = std::numeric_limits<float>::quiet_NaN();  // skipped
    EXPECT_FALSE(std::isnan(kernel::MaxAll(n, x.data())));
    auto xi = Values<std::int16_t>(n, 3, -30000, 30000);
    std::int16_t mi = xi[0];
    for (auto v : xi) mi = std::max(mi, v);
    EXPECT_EQ(kernel::MaxAll(n, xi.data()), mi);
  }
  EXPECT_EQ(kernel::MaxAll<float>(0, nullptr), -std::numeric_limits<float>::infinity());
  EXPECT_EQ(kernel::MinAll<std::int32_t>(0, nullptr), std::numeric_limits<std::int32_t>::max());
}

TEST(Reduce, ArgMaxArgMin) {
  const index_t n = 1000;
  auto x = Values<double>(n, 77, -5, 5);
  x[700] = 9;
  x[800] = 9;  // tie: first wins
  x[100] = -9;
  x[101] = -9;
  EXPECT_EQ(kernel::ArgMax(n, x.data()), 700);
  EXPECT_EQ(kernel::ArgMin(n, x.data()), 100);
  EXPECT_EQ(kernel::ArgMax(n - 1, x.data() + 1), 699);  // misaligned
  x[900] = std::numeric_limits<double>::quiet_NaN();
  x[950] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(kernel::ArgMax(n, x.data()), 900);  // NaN wins, as in NumPy
  EXPECT_EQ(kernel::ArgMin(n, x.data()), 900);
  x[701] = std::numeric_limits<double>::quiet_NaN();  // NaN in the same vector as the max
  EXPECT_EQ(kernel::ArgMax(n, x.data()), 701);
  std::vector<float> inf(5, -std::numeric_limits<float>::infinity());
  EXPECT_EQ(kernel::ArgMax(5, inf.data()), 0);
  std::vector<std::int32_t> xi = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 9, 0, 0, 0, 0, 0, 9, 1};
  EXPECT_EQ(kernel::ArgMax(static_cast<index_t>(xi.size()), xi.data()), 5);
  EXPECT_EQ(kernel::ArgMin(static_cast<index_t>(xi.size()), xi.data()), 12);
  try {
    kernel::ArgMax<float>(0, nullptr);
    ADD_FAILURE() << "no throw";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("ArgMax: empty"), std::string::npos) << e.what();
  }
}

// Naive oracle for [outer, len, inner] reductions.
template <class Red, class T>
std::vector<T> NaiveAxis(index_t outer, index_t len, index_t inner, const std::vector<T>& x) {
  std::vector<T> out(static_cast<size_t>(outer * inner));
  for (index_t o = 0; o < outer; ++o) {
    for (index_t j = 0; j < inner; ++j) {
      long double acc = 0;
      T r;
      Red::SetInitValue(r);
      for (index_t l = 0; l < len; ++l) {
        const T v = x[static_cast<size_t>((o * len + l) * inner + j)];
        acc += v;
        Red::Reduce(r, v);
      }
      out[static_cast<size_t>(o * inner + j)] =
          std::is_same<Red, kernel::red::sum>::value ? static_cast<T>(acc) : r;
    }
  }
  return out;
}

template <class Red, class T>
void CheckAxis(index_t outer, index_t len, index_t inner) {
  auto x = Values<T>(outer * len * inner, static_cast<std::uint64_t>(outer * 31 + len * 7 + inner), -1, 1);
  auto ref = NaiveAxis<Red>(outer, len, inner, x);
  std::vector<T> out(ref.size(), T(5));
  kernel::ReduceAxis<Red>(outer, len, inner, x.data(), out.data());
  std::vector<T> acc(ref.size(), T(5));
  kernel::ReduceAxis<Red, kernel::sv::plusto>(outer, len, inner, x.data(), acc.data());
  const double tol = std::is_same<Red, kernel::red::sum>::value
                         ? (40 + std::log2(len + 1.0)) * std::numeric_limits<T>::epsilon() * len
                         : 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    if (out[i] == ref[i]) continue;  // covers the +-inf init values of an empty axis
    ASSERT_NEAR(out[i], ref[i], tol) << outer << "x" << len << "x" << inner << " at " << i;
    ASSERT_NEAR(acc[i], ref[i] + T(5), tol + 8 * std::numeric_limits<T>::epsilon());
  }
}

TEST(Reduce, AxisSum) {
  for (auto s : std::vector<std::vector<index_t>>{{1, 100, 1},  {1, 1, 7},    {3, 1, 1},
                                                  {1, 70, 3},   {2, 33, 17},  {1, 257, 1300},
                                                  {5, 4, 1},    {4, 1000, 1}, {1, 0, 5},
                                                  {0, 5, 5},    {3, 5, 0},    {2, 65, 513}}) {
    CheckAxis<kernel::red::sum, float>(s[0], s[1], s[2]);
    CheckAxis<kernel::red::sum, double>(s[0], s[1], s[2]);
    CheckAxis<kernel::red::maximum, float>(s[0], s[1], s[2]);
    CheckAxis<kernel::red::minimum, double>(s[0], s[1], s[2]);
  }
}

TEST(Reduce, AxisIntAndScalarOnlyReducer) {
  struct product {  // no packet form: runs Reduce lane by lane
    static void SetInitValue(std::int32_t& v) { v = 1; }
    static void Reduce(std::int32_t& d, std::int32_t s) { d *= s; }
  };
  std::vector<std::int32_t> x = {1, 2, 3, 4, 5, 6};
  std::vector<std::int32_t> out(3);
  kernel::ReduceAxis<product>(1, 2, 3, x.data(), out.data());
  EXPECT_EQ(out, (std::vector<std::int32_t>{4, 10, 18}));
  kernel::ReduceAxis<product>(2, 3, 1, x.data(), out.data());
  EXPECT_EQ(out[0], 6);
  EXPECT_EQ(out[1], 120);
  EXPECT_EQ(kernel::ReduceAll<product>(6, x.data()), 720);
  kernel::ReduceAxis<kernel::red::sum>(2, 3, 1, x.data(), out.data());
  EXPECT_EQ(out[0], 6);
  EXPECT_EQ(out[1], 15);
}

TEST(Reduce, PaddedRowsAndCols) {
  const index_t rows = 70, cols = 37, ld = 41;
  auto x = Values<float>(rows * ld, 8, -1, 1);
  std::vector<float> col_sum(cols), row_max(rows);
  kernel::ReduceRows<kernel::red::sum>(rows, cols, x.data(), ld, col_sum.data());
  kernel::ReduceCols<kernel::red::maximum>(rows, cols, x.data(), ld, row_max.data());
  for (index_t j = 0; j < cols; ++j) {
    double s = 0;
    for (index_t i = 0; i < rows; ++i) s += x[static_cast<size_t>(i * ld + j)];
    EXPECT_NEAR(col_sum[j], s, 1e-4);
  }
  for (index_t i = 0; i < rows; ++i) {
    float m = -std::numeric_limits<float>::infinity();
    for (index_t j = 0; j < cols; ++j) m = std::max(m, x[static_cast<size_t>(i * ld + j)]);
    EXPECT_EQ(row_max[i], m);
  }
  // ld == cols takes the dense path.
  std::vector<float> dense(cols);
  kernel::ReduceRows<kernel::red::sum>(1, cols, x.data(), cols, dense.data());
  for (index_t j = 0; j < cols; ++j) EXPECT_EQ(dense[j], x[j]);
}

TEST(Reduce, ArgAxis) {
  const index_t outer = 3, len = 50, inner = 21;
  auto x = Values<float>(outer * len * inner, 12, -1, 1);
  x[(1 * len + 7) * inner + 4] = std::numeric_limits<float>::quiet_NaN();
  std::vector<std::int64_t> amax(outer * inner), amin(outer * inner);
  kernel::ArgReduceAxis<true>(outer, len, inner, x.data(), amax.data());
  kernel::ArgReduceAxis<false>(outer, len, inner, x.data(), amin.data());
  for (index_t o = 0; o < outer; ++o) {
    for (index_t j = 0; j < inner; ++j) {
      index_t bmax = 0, bmin = 0;
      for (index_t l = 0; l < len; ++l) {
        const float v = x[(o * len + l) * inner + j];
        if (std::isnan(v)) {
          bmax = bmin = l;
          break;
        }
        if (v > x[(o * len + bmax) * inner + j]) bmax = l;
        if (v < x[(o * len + bmin) * inner + j]) bmin = l;
      }
      EXPECT_EQ(amax[o * inner + j], bmax);
      EXPECT_EQ(amin[o * inner + j], bmin);
    }
  }
  std::vector<std::int32_t> rows(outer * len);
  kernel::ArgReduceAxis<true>(outer * len, inner, 1, x.data(), rows.data());
  for (index_t r = 0; r < outer * len; ++r) EXPECT_EQ(rows[r], kernel::ArgMax(inner, x.data() + r * inner));
}

TEST(Reduce, ErrorPaths) {
  float x[4] = {0, 0, 0, 0};
  auto expect_msg = [](auto fn, const char* what) {
    try {
      fn();
      ADD_FAILURE() << "no throw for " << what;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  expect_msg([&] { kernel::ReduceAll<kernel::red::sum>(-1, x); }, "ReduceAll");
  expect_msg([&] { kernel::ReduceAxis<kernel::red::sum>(1, -2, 1, x, x); }, "len=-2");
  expect_msg([&] { kernel::ReduceRows<kernel::red::sum>(2, 4, x, 3, x); }, "row pitch");
  expect_msg([&] { kernel::ReduceCols<kernel::red::sum>(-1, 4, x, 4, x); }, "-1x4");
  expect_msg([&] { kernel::ArgMin<float>(0, x); }, "ArgMin: empty");
  std::int64_t idx[4];
  expect_msg([&] { kernel::ArgReduceAxis<true>(1, 0, 2, x, idx); }, "empty reduced axis");
  const index_t big = index_t(1) << 40;
  expect_msg([&] { kernel::ReduceAxis<kernel::red::sum>(big, big, 2, x, x); }, "reduced block size");
}

}  // namespace
}  // namespace shade
