// ufunc methods (ndarray/ufunc.h) against naive loops: Reduce, Accumulate, ReduceAt, Outer, At,
// the registry-generated descriptions, several dtypes, rank 0, empty, views and the errors.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "shade/ndarray/creation.h"
#include "shade/ndarray/ops.h"
#include "shade/ndarray/shape_ops.h"
#include "shade/ndarray/ufunc.h"

namespace shade {
namespace {

// a[i][j] = (i * cols + j) % 5 + 1 in `flag`.
NDArray Grid(index_t rows, index_t cols, int flag) {
  NDArray a = NDArray::Empty({rows, cols}, flag);
  for (index_t i = 0; i < rows; ++i)
    for (index_t j = 0; j < cols; ++j) a.set({i, j}, static_cast<double>((i * cols + j) % 5 + 1));
  return a;
}

double At2(const NDArray& a, index_t i, index_t j) {
  return item<double>(a.select(0, i).select(0, j));
}

double At1(const NDArray& a, index_t i) {
  return item<double>(a.select(0, i));
}

TEST(Ufunc, DescriptionsComeFromTheRegistry) {
  EXPECT_EQ(AllUfuncs().size(), static_cast<std::size_t>(OpCode::kNumOps));
  const UfuncInfo& add = UfuncInfoOf(OpCode::kAdd);
  EXPECT_STREQ(add.name, "add");
  EXPECT_EQ(add.nin, 2);
  EXPECT_EQ(add.nout, 1);
  EXPECT_EQ(add.identity, UfuncIdentity::kZero);
  EXPECT_EQ(UfuncInfoOf(OpCode::kMultiply).identity, UfuncIdentity::kOne);
  EXPECT_EQ(UfuncInfoOf(OpCode::kMaximum).identity, UfuncIdentity::kNone);
  EXPECT_TRUE(UfuncInfoOf(OpCode::kMaximum).reorderable);
  EXPECT_FALSE(UfuncInfoOf(OpCode::kSubtract).reorderable);
  EXPECT_EQ(UfuncInfoOf(OpCode::kLogicalAnd).identity, UfuncIdentity::kTrue);
  EXPECT_EQ(UfuncInfoOf(OpCode::kBitwiseAnd).identity, UfuncIdentity::kMinusOne);
  EXPECT_EQ(UfuncInfoOf(OpCode::kExp).nin, 1);
  EXPECT_EQ(UfuncInfoOf(OpCode::kWhere).nin, 3);
  EXPECT_THROW(UfuncInfoOf(OpCode::kNumOps), Error);
  EXPECT_TRUE(std::isinf(UfuncIdentityValue(UfuncIdentity::kMinusInf)));
}

TEST(Ufunc, ReduceFoldsLikeANaiveLoop) {
  for (int flag : {kFloat64, kFloat32, kInt32, kInt64}) {
    const NDArray a = Grid(3, 4, flag);
    UfuncReduceOptions opt;
    opt.axes = AxisSet(index_t{1});
    const NDArray r = Reduce(OpCode::kSubtract, a, opt);
    ASSERT_EQ(r.ndim(), 1);
    EXPECT_EQ(r.type_flag(), flag);
    for (index_t i = 0; i < 3; ++i) {
      double want = At2(a, i, 0);
      for (index_t j = 1; j < 4; ++j) want -= At2(a, i, j);
      EXPECT_EQ(At1(r, i), want);
    }
    // Transposed view: axis 0 of a.T is axis 1 of a.
    opt.axes = AxisSet(index_t{0});
    const NDArray rt = Reduce(OpCode::kSubtract, a.transpose(0, 1), opt);
    for (index_t i = 0; i < 3; ++i) EXPECT_EQ(At1(rt, i), At1(r, i));
  }
}

TEST(Ufunc, ReduceDtypesIdentityInitialWhere) {
  const NDArray a = Grid(2, 3, kInt8);
  UfuncReduceOptions opt;
  opt.axes = AxisSet();
  EXPECT_EQ(Reduce(OpCode::kAdd, a, opt).type_flag(), kInt64);  // NumPy widens add/multiply
  EXPECT_EQ(Reduce(OpCode::kMaximum, a, opt).type_flag(), kInt8);
  EXPECT_EQ(Reduce(OpCode::kAdd, Grid(2, 3, kUint8), opt).type_flag(), kUint64);
  EXPECT_EQ(Reduce(OpCode::kTrueDivide, a.select(0, 0), opt).type_flag(), kFloat64);
  double total = 0;
  for (index_t i = 0; i < 2; ++i)
    for (index_t j = 0; j < 3; ++j) total += At2(a, i, j);
  EXPECT_EQ(item<double>(Reduce(OpCode::kAdd, a, opt)), total);
  opt.initial = full({}, 10.0, kInt64);
  EXPECT_EQ(item<double>(Reduce(OpCode::kAdd, a, opt)), total + 10);
  // where: only the masked elements (the identity elsewhere).
  opt.initial = NDArray();
  const NDArray mask = Grid(2, 3, kInt32) > 2;
  opt.where = mask;
  double masked = 0;
  for (index_t i = 0; i < 2; ++i)
    for (index_t j = 0; j < 3; ++j)
      if (At2(a, i, j) > 2) masked += At2(a, i, j);
  EXPECT_EQ(item<double>(Reduce(OpCode::kAdd, a, opt)), masked);
  EXPECT_THROW(Reduce(OpCode::kMaximum, a, opt), ValueError);  // where needs identity/initial
  opt.initial = full({}, -100.0, kInt64);
  EXPECT_EQ(item<double>(Reduce(OpCode::kMaximum, a, opt)), 5);
  // keepdims and an axis list.
  UfuncReduceOptions k;
  k.axes = AxisSet({0, 1});
  k.keepdims = true;
  const NDArray kd = Reduce(OpCode::kMultiply, Grid(2, 3, kFloat32), k);
  EXPECT_EQ(kd.sizes(), IndexSpan({1, 1}));
  // Rank 0 over no axes is the value itself.
  UfuncReduceOptions none;
  none.axes = AxisSet();
  EXPECT_EQ(item<double>(Reduce(OpCode::kSubtract, full({}, 7.0, kFloat64), none)), 7.0);
}

TEST(Ufunc, ReduceEmptyAndErrors) {
  UfuncReduceOptions opt;
  const NDArray e = NDArray::Empty({0, 3}, kFloat64);
  const NDArray s = Reduce(OpCode::kAdd, e, opt);
  ASSERT_EQ(s.numel(), 3);
  EXPECT_EQ(s.at<double>({2}), 0.0);
  const NDArray l = Reduce(OpCode::kLogaddexp, e, opt);
  EXPECT_TRUE(std::isinf(l.at<double>({0})));
  EXPECT_EQ(Reduce(OpCode::kBitwiseAnd, NDArray::Empty({0}, kUint8), opt).at<std::uint8_t>({}),
            255);
  EXPECT_THROW(Reduce(OpCode::kMaximum, e, opt), ValueError);
  opt.initial = full({}, 4.0, kFloat64);
  EXPECT_EQ(Reduce(OpCode::kMaximum, e, opt).at<double>({1}), 4.0);
  UfuncReduceOptions all;
  all.axes = AxisSet();
  EXPECT_THROW(Reduce(OpCode::kSubtract, Grid(2, 2, kFloat64), all), ValueError);
  EXPECT_THROW(Reduce(OpCode::kExp, Grid(2, 2, kFloat64), all), ValueError);
  EXPECT_THROW(Reduce(OpCode::kEqual, Grid(2, 2, kFloat64), all), TypeError);
  UfuncReduceOptions bad;
  bad.axes = AxisSet(index_t{5});
  EXPECT_THROW(Reduce(OpCode::kAdd, Grid(2, 2, kFloat64), bad), Error);
  UfuncReduceOptions stated;
  stated.dtype = kFloat64;
  EXPECT_THROW(Reduce(OpCode::kLogicalAnd, Grid(2, 2, kInt32), stated), TypeError);
}

TEST(Ufunc, AccumulateReduceAtOuterAt) {
  const NDArray a = Grid(3, 4, kFloat64);
  const NDArray c = Accumulate(OpCode::kSubtract, a, 1);
  for (index_t i = 0; i < 3; ++i) {
    double run = At2(a, i, 0);
    EXPECT_EQ(At2(c, i, 0), run);
    for (index_t j = 1; j < 4; ++j) {
      run -= At2(a, i, j);
      EXPECT_EQ(At2(c, i, j), run);
    }
  }
  EXPECT_EQ(Accumulate(OpCode::kAdd, Grid(2, 2, kInt16), 0).type_flag(), kInt64);
  EXPECT_EQ(Accumulate(OpCode::kAdd, NDArray::Empty({0, 2}, kFloat32), 0).numel(), 0);
  EXPECT_THROW(Accumulate(OpCode::kAdd, full({}, 1.0, kFloat64), 0), TypeError);
  EXPECT_THROW(Accumulate(OpCode::kAdd, a, 2), IndexError);

  const NDArray r = ReduceAt(OpCode::kAdd, a, {0, 2, 1}, 1);
  ASSERT_EQ(r.sizes(), IndexSpan({3, 3}));
  for (index_t i = 0; i < 3; ++i) {
    EXPECT_EQ(At2(r, i, 0), At2(a, i, 0) + At2(a, i, 1));
    EXPECT_EQ(At2(r, i, 1), At2(a, i, 2));  // 2 >= 1: the element at 2
    EXPECT_EQ(At2(r, i, 2), At2(a, i, 1) + At2(a, i, 2) + At2(a, i, 3));
  }
  EXPECT_THROW(ReduceAt(OpCode::kAdd, a, {0, 4}, 1), IndexError);
  EXPECT_THROW(ReduceAt(OpCode::kAdd, a, {-1}, 1), IndexError);

  const NDArray o = Outer(OpCode::kSubtract, a.select(0, 1), a.select(1, 2));
  ASSERT_EQ(o.sizes(), IndexSpan({4, 3}));
  for (index_t i = 0; i < 4; ++i)
    for (index_t j = 0; j < 3; ++j) EXPECT_EQ(At2(o, i, j), At2(a, 1, i) - At2(a, j, 2));
  EXPECT_THROW(Outer(OpCode::kExp, a, a), ValueError);

  // At: repeated indices apply once each; negative ones count from the end.
  NDArray x = zeros({4}, kInt32);
  const NDArray idx = arange(0, 6, 1, kInt64) % 2;  // 0 1 0 1 0 1
  At(OpCode::kAdd, x, {idx}, full({}, 3.0, kInt32));
  EXPECT_EQ(x.at<std::int32_t>({0}), 9);
  EXPECT_EQ(x.at<std::int32_t>({1}), 9);
  EXPECT_EQ(x.at<std::int32_t>({2}), 0);
  At(OpCode::kNegative, x, {full_int({2}, -3, kInt64)});
  EXPECT_EQ(x.at<std::int32_t>({1}), 9);  // negated twice
  NDArray m = zeros({2, 3}, kFloat64);
  At(OpCode::kAdd, m, {full_int({2}, 1, kInt64)}, arange(0.0, 3.0, 1.0, kFloat64));
  EXPECT_EQ(At2(m, 1, 2), 4.0);
  EXPECT_EQ(At2(m, 0, 2), 0.0);
  EXPECT_THROW(At(OpCode::kAdd, x, {full_int({1}, 4, kInt64)}, full({}, 1.0, kInt32)), IndexError);
  EXPECT_THROW(At(OpCode::kAdd, x, {full_int({1}, 0, kInt64)}), TypeError);
  EXPECT_THROW(At(OpCode::kAdd, x, {full({1}, 0.0, kFloat64)}, full({}, 1.0, kInt32)), IndexError);
}

}  // namespace
}  // namespace shade
