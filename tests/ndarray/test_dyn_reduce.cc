// NDArray reductions against NumPy (tests/data/dyn2/reduce.txt from make_oracle.py): sum, prod,
// mean, max, min, all, any, var, std, argmax, argmin over axis sets with keepdims, on 9 dtypes,
// rank 0 and empty shapes, NaN and ties; every case also on a transposed and a strided view.
// Integers and bool compare exactly; floats within kUlps units in the last place of
// max(|expected|, kScale) (summation orders differ: NumPy's pairwise blocks vs the kernel
// layer's; both within their stated bounds). Then accuracy against the stated bound, large
// threaded inputs against naive loops, wrapping integer sums, and error messages.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "dyn2_oracle.h"
#include "shade/backend/cpu/parallel.h"
#include "shade/ndarray/reduce.h"
#include "shade/ndarray/shape_ops.h"

// Compile-time probes: whether sum/var/argmax accept these argument types (a deleted overload
// is a substitution failure here).
template <typename... A>
auto SumAccepts(int) -> decltype(shade::sum(std::declval<A>()...), std::true_type{});
template <typename... A>
std::false_type SumAccepts(...);
template <typename... A>
auto VarAccepts(int) -> decltype(shade::var(std::declval<A>()...), std::true_type{});
template <typename... A>
std::false_type VarAccepts(...);
template <typename... A>
auto ArgmaxAccepts(int) -> decltype(shade::argmax(std::declval<A>()...), std::true_type{});
template <typename... A>
std::false_type ArgmaxAccepts(...);

using shade::NDArray;
// keepdims is a bool only; ddof is an integer only: the call forms that meant one thing in one
// function and another in the next do not compile.
static_assert(decltype(SumAccepts<NDArray, int, bool>(0))::value, "sum(a, 1, true) keeps dims");
static_assert(!decltype(SumAccepts<NDArray, int, int>(0))::value, "sum(a, 1, 1) is refused");
static_assert(!decltype(SumAccepts<NDArray, int, long>(0))::value, "sum(a, 1, 1L) is refused");
static_assert(decltype(VarAccepts<NDArray, int, int>(0))::value, "var(a, 1, 1) is ddof=1");
static_assert(decltype(VarAccepts<NDArray, int, int, bool>(0))::value, "var(a, 1, 0, true)");
static_assert(!decltype(VarAccepts<NDArray, int, bool>(0))::value, "var(a, 1, true) is refused");
static_assert(!decltype(VarAccepts<NDArray, int, int, int>(0))::value, "var(a, 1, 0, 1) refused");
static_assert(decltype(ArgmaxAccepts<NDArray, int, bool>(0))::value, "argmax(a, 1, true)");
static_assert(!decltype(ArgmaxAccepts<NDArray, int, int>(0))::value, "argmax(a, 1, 1) refused");

namespace shade {
namespace {

using dyn2::Case;

constexpr double kUlps = 64;     // float32/float64 results (sums of up to 60 values ~ N(0, 3))
constexpr double kHalfUlps = 8;  // float16 results (NumPy rounds partial sums differently)
constexpr double kScale = 16;    // magnitude floor of the tolerance (cancellation in sums)

NDArray RunCase(const Case& c, const NDArray& x) {
  const std::string axes = c.params.at("axes");
  const bool keepdims = c.params.count("keepdims") && c.params.at("keepdims") == "1";
  AxisSet set = axes == "none" ? AxisSet() : AxisSet(dyn2::IntList(axes));
  const index_t ddof = c.params.count("ddof") ? std::stoll(c.params.at("ddof")) : 0;
  if (c.op == "sum") return sum(x, set, keepdims);
  if (c.op == "prod") return prod(x, set, keepdims);
  if (c.op == "mean") return mean(x, set, keepdims);
  if (c.op == "max") return max(x, set, keepdims);
  if (c.op == "min") return min(x, set, keepdims);
  if (c.op == "all") return all(x, set, keepdims);
  if (c.op == "any") return any(x, set, keepdims);
  if (c.op == "var") return var(x, set, ddof, keepdims);
  if (c.op == "std") return shade::std(x, set, ddof, keepdims);
  if (c.op == "argmax") return axes == "none" ? argmax(x) : argmax(x, std::stoll(axes), keepdims);
  if (c.op == "argmin") return axes == "none" ? argmin(x) : argmin(x, std::stoll(axes), keepdims);
  ADD_FAILURE() << "unknown op " << c.op;
  return NDArray();
}

TEST(DynReduce, NumPyOracle) {
  const std::vector<Case> cases = dyn2::ReadCases("reduce.txt");
  ASSERT_GT(cases.size(), 900u);
  int errors = 0;
  for (const Case& c : cases) {
    const NDArray& x = c.in[0];
    const NDArray layouts[] = {x, dyn2::Transposed(x), dyn2::Strided(x)};
    const char* names[] = {"contiguous", "transposed", "strided"};
    for (int l = 0; l < 3; ++l) {
      const std::string what = c.Where() + " (" + names[l] + " input " + x.Describe() + ")";
      errors += c.error ? 1 : 0;
      const bool half = !c.error && c.out[0].type_flag() == kFloat16;
      dyn2::CheckOracleCase(
          c, what, [&] { return RunCase(c, layouts[l]); }, half ? kHalfUlps : kUlps,
          c.op == "prod" ? 0 : kScale);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
  EXPECT_GT(errors, 50);
}

TEST(DynReduce, SumAccuracyWithinStatedBound) {
  const index_t n = index_t(1) << 22;
  NDArray a = NDArray::Empty({n}, kFloat32);
  float* p = a.data<float>();
  std::mt19937 g(7);
  std::uniform_real_distribution<float> u(-1, 3);
  double exact = 0, abs_sum = 0;
  for (index_t i = 0; i < n; ++i) {
    p[i] = u(g);
    exact += p[i];
    abs_sum += std::fabs(p[i]);
  }
  const double got = item<double>(sum(a));
  // The kernel layer's bound (backend/cpu/reduce.h) for 2^22 floats is a few 1e-6 relative.
  EXPECT_LE(std::fabs(got - exact), 1e-5 * abs_sum);
  // A naive float running sum is far off: the test can tell.
  float naive = 0;
  for (index_t i = 0; i < n; ++i) naive += p[i];
  EXPECT_GT(std::fabs(naive - exact), std::fabs(got - exact));
  // Rows of a 2-D sum (axis 1) and columns (axis 0) are accurate too.
  const NDArray m = a.view({1024, 4096});
  const NDArray r1 = sum(m, 1), r0 = sum(m, 0);
  for (index_t i = 0; i < 1024; i += 97) {
    double e = 0;
    for (index_t j = 0; j < 4096; ++j) e += p[i * 4096 + j];
    EXPECT_NEAR(r1.at<float>(i), e, 1e-5 * 4096 * 3);
  }
  for (index_t j = 0; j < 4096; j += 301) {
    double e = 0;
    for (index_t i = 0; i < 1024; ++i) e += p[i * 4096 + j];
    EXPECT_NEAR(r0.at<float>(j), e, 1e-5 * 1024 * 3);
  }
}

TEST(DynReduce, LargeThreadedAndPermutedMatchNaive) {
  // 3-D, reduce axes {0, 2} of a permuted view (read in place) and of a strided one (copied).
  NDArray a = NDArray::Empty({64, 96, 80}, kFloat64);
  double* p = a.data<double>();
  for (index_t i = 0; i < a.numel(); ++i) p[i] = static_cast<double>((i * 7919) % 1000) / 7.0;
  for (const NDArray& x : {a, a.permute({2, 0, 1}), a.slice(2, 0, 80, 3)}) {
    const NDArray r = sum(x, {0, 2}, true);
    ASSERT_EQ(r.ndim(), 3);
    for (index_t j = 0; j < x.size(1); j += 7) {
      double e = 0;
      for (index_t i = 0; i < x.size(0); ++i) {
        for (index_t k = 0; k < x.size(2); ++k) e += x.at<double>(i, j, k);
      }
      EXPECT_NEAR(r.at<double>(0, j, 0), e, 1e-9 * std::fabs(e) + 1e-9) << x.Describe();
    }
    const NDArray mx = max(x, 1);
    const NDArray am = argmax(x, 1);
    for (index_t i = 0; i < x.size(0); i += 5) {
      for (index_t k = 0; k < x.size(2); k += 11) {
        double best = -1;
        index_t at = -1;
        for (index_t j = 0; j < x.size(1); ++j) {
          if (x.at<double>(i, j, k) > best) {
            best = x.at<double>(i, j, k);
            at = j;
          }
        }
        EXPECT_EQ(mx.at<double>(i, k), best);
        EXPECT_EQ(am.at<std::int64_t>(i, k), at);
      }
    }
  }
  // Threaded results do not depend on the thread count (fixed summation order).
  const int threads = GetNumThreads();
  const NDArray t = sum(a, {1});
  SetNumThreads(1);
  const NDArray s = sum(a, {1});
  SetNumThreads(threads);
  for (index_t i = 0; i < t.numel(); ++i) ASSERT_EQ(t.data<double>()[i], s.data<double>()[i]);
}

TEST(DynReduce, IntegerSumsWrapAndStayExact) {
  NDArray a = NDArray::Empty({3}, kInt64);
  a.at<std::int64_t>(0) = std::numeric_limits<std::int64_t>::max();
  a.at<std::int64_t>(1) = 1;
  a.at<std::int64_t>(2) = 5;
  EXPECT_EQ(item<std::int64_t>(sum(a)),
            std::numeric_limits<std::int64_t>::min() + 5);  // NumPy wraps
  NDArray u = NDArray::Empty({2}, kUint64);
  u.at<std::uint64_t>(0) = (std::uint64_t(1) << 63) + 3;
  u.at<std::uint64_t>(1) = 4;
  EXPECT_EQ(item<std::uint64_t>(sum(u)), (std::uint64_t(1) << 63) + 7);
  EXPECT_EQ(sum(u).type_flag(), static_cast<int>(kUint64));
  NDArray i8 = NDArray::Empty({300}, kInt8);
  i8.Fill(100);
  EXPECT_EQ(item<std::int64_t>(sum(i8)), 30000);  // int8 sums in int64, as NumPy
  EXPECT_EQ(mean(i8).type_flag(), static_cast<int>(kFloat64));
}

TEST(DynReduce, ErrorsNameAxesAndShapes) {
  NDArray a = NDArray::Empty({3, 4}, kFloat32);
  a.Fill(1);
  std::string m = dyn2::ErrorMessage([&] { sum(a, 2); });
  EXPECT_NE(m.find("axis 2 is out of bounds"), std::string::npos) << m;
  EXPECT_NE(m.find("(3,4)"), std::string::npos) << m;
  m = dyn2::ErrorMessage([&] { sum(a, {0, -2}); });
  EXPECT_NE(m.find("repeated"), std::string::npos) << m;
  m = dyn2::ErrorMessage([&] { max(NDArray::Empty({0, 3}, kFloat32), 0); });
  EXPECT_NE(m.find("zero-size"), std::string::npos) << m;
  EXPECT_NE(m.find("(0,3)"), std::string::npos) << m;
  m = dyn2::ErrorMessage([&] { argmax(NDArray::Empty({2, 0}, kFloat32), 1); });
  EXPECT_NE(m.find("empty"), std::string::npos) << m;
  m = dyn2::ErrorMessage([&] { var(a, AxisSet(), -1); });
  EXPECT_NE(m.find("ddof"), std::string::npos) << m;
  m = dyn2::ErrorMessage([&] { sum(NDArray()); });
  EXPECT_NE(m.find("undefined"), std::string::npos) << m;
  m = dyn2::ErrorMessage([&] { argmin(a, -3); });
  EXPECT_NE(m.find("axis -3"), std::string::npos) << m;
}

TEST(DynReduce, RankZeroAndResultTypes) {
  NDArray s = NDArray::Empty({}, kInt32);
  s.Fill(-4);
  EXPECT_EQ(item<std::int64_t>(sum(s)), -4);
  EXPECT_EQ(sum(s).ndim(), 0);
  EXPECT_EQ(item<std::int64_t>(argmax(s, 0)), 0);
  EXPECT_EQ(SumResultType(kBool), static_cast<int>(kInt64));
  EXPECT_EQ(SumResultType(kUint8), static_cast<int>(kUint64));
  EXPECT_EQ(SumResultType(kFloat16), static_cast<int>(kFloat16));
  EXPECT_EQ(MeanResultType(kInt16), static_cast<int>(kFloat64));
  NDArray b = NDArray::Empty({2, 2}, kBfloat16);
  b.Fill(1.5);
  EXPECT_EQ(sum(b).type_flag(), static_cast<int>(kBfloat16));
  EXPECT_EQ(item<float>(sum(b)), 6.0f);
  EXPECT_EQ(item<float>(max(b)), 1.5f);
}

// NumPy's max of {-inf, ...} is -inf (the expression engine's red::maximum starts from mshadow's
// -FLT_MAX; NDArray's reductions must not): whole arrays, along an axis, and the arg forms.
TEST(DynReduce, InfinitiesAreTheirOwnExtremes) {
  const double inf = std::numeric_limits<double>::infinity();
  for (int dtype : {static_cast<int>(kFloat32), static_cast<int>(kFloat64),
                    static_cast<int>(kFloat16), static_cast<int>(kBfloat16)}) {
    NDArray lo = NDArray::Empty({1, 3}, dtype);
    lo.Fill(-inf);
    NDArray hi = NDArray::Empty({3, 1}, dtype);
    hi.Fill(inf);
    EXPECT_EQ(item<double>(max(lo)), -inf) << dtype;
    EXPECT_EQ(item<double>(min(hi)), inf) << dtype;
    EXPECT_EQ(item<double>(max(lo, 1)), -inf) << dtype;
    EXPECT_EQ(item<double>(min(hi, 0)), inf) << dtype;
    EXPECT_EQ(item<std::int64_t>(argmax(lo, 1)), 0) << dtype;
    EXPECT_EQ(item<std::int64_t>(argmin(hi, 0)), 0) << dtype;
  }
}

}  // namespace
}  // namespace shade
