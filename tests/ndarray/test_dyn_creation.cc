// Factories: zeros/ones/full/full_int/empty, arange (int exact, float as NumPy's start + i*step,
// empty and negative steps), linspace (endpoint, NumPy's formula, floor for ints), eye (offset
// diagonals), and the Generator (reproducible for a seed and independent of the thread count,
// moments, bounds, dtype checks). Expected values are NumPy's, written out (they are short).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "shade/backend/cpu/parallel.h"
#include "shade/ndarray/creation.h"
#include "shade/ndarray/reduce.h"
#include "shade/ndarray/shape_ops.h"

namespace shade {
namespace {

TEST(DynCreation, FillsAndDTypes) {
  NDArray z = zeros({2, 3}, kInt16);
  EXPECT_EQ(z.type_flag(), static_cast<int>(kInt16));
  EXPECT_EQ(item<std::int64_t>(sum(z)), 0);
  NDArray o = ones({4}, kFloat16);
  EXPECT_EQ(item<float>(sum(o)), 4.0f);
  NDArray f = full({3}, 2.5, kFloat32);
  EXPECT_EQ(f.at<float>(2), 2.5f);
  EXPECT_THROW(full({3}, 300, kUint8), Error);
  NDArray big = full_int({2}, (std::int64_t(1) << 62) + 1, kInt64);
  EXPECT_EQ(big.at<std::int64_t>(1), (std::int64_t(1) << 62) + 1);
  EXPECT_THROW(full_int({2}, -1, kUint32), Error);
  EXPECT_THROW(full_int({2}, 128, kInt8), Error);
  EXPECT_EQ(empty({0, 5}, kBool).numel(), 0);
  EXPECT_THROW(zeros({-1}), Error);
  EXPECT_THROW(zeros({2}, 99), Error);
}

TEST(DynCreation, Arange) {
  NDArray a = arange(2, 11, 3);  // np.arange(2, 11, 3) -> [2, 5, 8]
  ASSERT_EQ(a.numel(), 3);
  EXPECT_EQ(a.type_flag(), static_cast<int>(kInt64));
  EXPECT_EQ(a.at<std::int64_t>(2), 8);
  NDArray b = arange(5, -5, -4);  // [5, 1, -3]
  ASSERT_EQ(b.numel(), 3);
  EXPECT_EQ(b.at<std::int64_t>(2), -3);
  EXPECT_EQ(arange(3, 3).numel(), 0);
  EXPECT_EQ(arange(3, 1).numel(), 0);
  NDArray c = arange(0.0, 1.0, 0.1);  // NumPy: 10 values, value i = i * 0.1
  ASSERT_EQ(c.numel(), 10);
  EXPECT_EQ(c.type_flag(), static_cast<int>(kFloat64));
  EXPECT_EQ(c.at<double>(3), 0x1.3333333333334p-2);  // np.arange(0.0, 1.0, 0.1)[3]
  NDArray d = arange(1, 2.5, 0.5);  // [1. , 1.5, 2. ]
  ASSERT_EQ(d.numel(), 3);
  EXPECT_EQ(d.at<double>(2), 2.0);
  EXPECT_EQ(arange(4).numel(), 4);
  EXPECT_EQ(arange(0, 4, 1, kFloat32).type_flag(), static_cast<int>(kFloat32));
  EXPECT_THROW(arange(0, 4, 0), Error);
  EXPECT_THROW(arange(0.0, 4.0, 0.0), Error);
  NDArray e = arange(INT64_MIN, INT64_MAX, std::int64_t(1) << 62);  // no overflow in the length
  EXPECT_EQ(e.numel(), 4);
}

TEST(DynCreation, LinspaceAndEye) {
  NDArray l = linspace(0, 1, 5);  // [0, .25, .5, .75, 1]
  ASSERT_EQ(l.numel(), 5);
  EXPECT_EQ(l.at<double>(1), 0.25);
  EXPECT_EQ(l.at<double>(4), 1.0);
  NDArray m = linspace(0, 1, 4, false);  // [0, .25, .5, .75]
  EXPECT_EQ(m.at<double>(3), 0.75);
  NDArray t = linspace(0.1, 0.7, 7);  // the last is exactly stop
  EXPECT_EQ(t.at<double>(6), 0.7);
  EXPECT_EQ(t.at<double>(3), 0x1.999999999999ap-2);  // np.linspace(0.1, 0.7, 7)[3]
  NDArray i = linspace(-1, 1, 4, true, kInt32);  // floor of [-1, -1/3, 1/3, 1] (NumPy 2)
  EXPECT_EQ(i.at<std::int32_t>(1), -1);
  EXPECT_EQ(i.at<std::int32_t>(2), 0);
  EXPECT_EQ(linspace(3, 4, 1).at<double>(0), 3.0);
  EXPECT_EQ(linspace(3, 4, 0).numel(), 0);
  EXPECT_THROW(linspace(0, 1, -1), Error);
  NDArray e = eye(3, 4, 1, kInt32);
  EXPECT_EQ(e.at<std::int32_t>(0, 1), 1);
  EXPECT_EQ(e.at<std::int32_t>(2, 3), 1);
  EXPECT_EQ(e.at<std::int32_t>(0, 0), 0);
  EXPECT_EQ(item<std::int64_t>(sum(e)), 3);
  EXPECT_EQ(item<double>(sum(eye(4, -1, -2))), 2.0);
  EXPECT_THROW(eye(-1), Error);
}

TEST(DynCreation, GeneratorReproducibleAndThreadIndependent) {
  Generator g(42);
  const NDArray a = g.rand({300, 100}, kFloat32);
  const NDArray b = g.randn({50000});
  Generator h(42);
  const int threads = GetNumThreads();
  SetNumThreads(1);
  const NDArray a2 = h.rand({300, 100}, kFloat32);
  const NDArray b2 = h.randn({50000});
  SetNumThreads(threads);
  for (index_t i = 0; i < a.numel(); ++i) ASSERT_EQ(a.data<float>()[i], a2.data<float>()[i]);
  for (index_t i = 0; i < b.numel(); ++i) ASSERT_EQ(b.data<double>()[i], b2.data<double>()[i]);
  EXPECT_NE(a.data<float>()[0], g.rand({1}, kFloat32).data<float>()[0]);  // a fresh stream per call
  // Bounds and moments.
  EXPECT_GE(item<float>(min(a)), 0.0f);
  EXPECT_LT(item<float>(max(a)), 1.0f);
  EXPECT_NEAR(item<double>(mean(a)), 0.5, 0.01);
  EXPECT_NEAR(item<double>(mean(b)), 0.0, 0.02);
  EXPECT_NEAR(item<double>(shade::std(b)), 1.0, 0.02);
  const NDArray r = g.randint(-3, 4, {10000}, kInt8);
  EXPECT_EQ(item<std::int64_t>(min(r)), -3);
  EXPECT_EQ(item<std::int64_t>(max(r)), 3);
  const NDArray u = g.uniform(-2, -1, {1000}, kFloat16);
  EXPECT_LT(item<float>(max(u)), -1.0f);
  EXPECT_GE(item<float>(min(u)), -2.0f);
  EXPECT_THROW(g.randint(0, 300, {2}, kUint8), Error);
  EXPECT_THROW(g.randint(3, 3, {2}), Error);
  EXPECT_THROW(g.rand({2}, kInt32), Error);
  EXPECT_THROW(g.normal(0, -1, {2}), Error);
  EXPECT_THROW(g.uniform(1, 1, {2}), Error);
  EXPECT_EQ(g.randn({0, 3}).numel(), 0);
}

}  // namespace
}  // namespace shade
