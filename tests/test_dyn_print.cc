// NumPy-style printing: expected strings are NumPy 1.24's repr of the same arrays (with shade's
// two stated differences: dtype always shown, shape shown when summarised or empty).
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>

#include "shade/ndarray/creation.h"
#include "shade/ndarray/print.h"
#include "shade/ndarray/shape_ops.h"

namespace shade {
namespace {

NDArray Vals(std::vector<double> v, std::vector<index_t> shape, int flag) {
  NDArray a = NDArray::Empty(shape, flag);
  for (std::size_t i = 0; i < v.size(); ++i) {
    std::vector<index_t> idx(shape.size());
    index_t r = static_cast<index_t>(i);
    for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
      idx[d] = r % shape[d];
      r /= shape[d];
    }
    a.set(idx, v[i]);
  }
  return a;
}

TEST(DynPrint, MatchesNumPyRepr) {
  EXPECT_EQ(ToString(Vals({1, 2, 3, 4}, {2, 2}, kFloat32)), "array([[1., 2.],\n       [3., 4.]], dtype=float32)");
  EXPECT_EQ(ToString(Vals({1.5, 2.25, -3, 10}, {4}, kFloat64)), "array([ 1.5 ,  2.25, -3.  , 10.  ], dtype=float64)");
  EXPECT_EQ(ToString(Vals({0.1}, {1}, kFloat32)), "array([0.1], dtype=float32)");
  EXPECT_EQ(ToString(Vals({1, -20, 300}, {3}, kInt32)), "array([  1, -20, 300], dtype=int32)");
  EXPECT_EQ(ToString(Vals({1, 0}, {2}, kBool)), "array([ True, False], dtype=bool)");
  EXPECT_EQ(ToString(Vals({1e8, 1}, {2}, kFloat64)), "array([1.e+08, 1.e+00], dtype=float64)");
  EXPECT_EQ(ToString(Vals({1.5e-5, 1}, {2}, kFloat64)), "array([1.5e-05, 1.0e+00], dtype=float64)");
  const double nan = std::nan("");
  EXPECT_EQ(ToString(Vals({nan, 1.5, -INFINITY}, {3}, kFloat64)), "array([ nan,  1.5, -inf], dtype=float64)");
  EXPECT_EQ(ToString(Vals({3.5}, {}, kFloat32)), "array(3.5, dtype=float32)");
  EXPECT_EQ(ToString(NDArray::Empty({0, 3}, kFloat64)), "array([[]], shape=(0, 3), dtype=float64)");
  // 3-D: a blank line between blocks.
  EXPECT_EQ(ToString(arange(0, 8).view({2, 2, 2})),
            "array([[[0, 1],\n        [2, 3]],\n\n       [[4, 5],\n        [6, 7]]], dtype=int64)");
  // Non-contiguous views print their logical order.
  EXPECT_EQ(ToString(Vals({1, 2, 3, 4}, {2, 2}, kInt8).transpose(0, 1)), "array([[1, 3],\n       [2, 4]], dtype=int8)");
}

TEST(DynPrint, SummarisesAndWraps) {
  const std::string s = ToString(arange(0, 2000));
  EXPECT_EQ(s, "array([   0,    1,    2, ..., 1997, 1998, 1999], shape=(2000,), dtype=int64)");
  const std::string m = ToString(arange(0, 1100).view({100, 11}));
  EXPECT_EQ(m,
            "array([[   0,    1,    2, ...,    8,    9,   10],\n"
            "       [  11,   12,   13, ...,   19,   20,   21],\n"
            "       [  22,   23,   24, ...,   30,   31,   32],\n"
            "       ...,\n"
            "       [1067, 1068, 1069, ..., 1075, 1076, 1077],\n"
            "       [1078, 1079, 1080, ..., 1086, 1087, 1088],\n"
            "       [1089, 1090, 1091, ..., 1097, 1098, 1099]], shape=(100, 11), dtype=int64)");
  const std::string w = ToString(arange(0, 30));
  EXPECT_EQ(w,
            "array([ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16,\n"
            "       17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29], dtype=int64)");
  std::ostringstream os;
  os << Print(arange(0, 3));
  EXPECT_EQ(os.str(), "array([0, 1, 2], dtype=int64)");
  PrintOptions opt;
  opt.threshold = 5;
  opt.edgeitems = 1;
  EXPECT_EQ(ToString(arange(0, 6), opt), "array([0, ..., 5], shape=(6,), dtype=int64)");
  opt.edgeitems = 0;
  EXPECT_THROW(ToString(arange(0, 6), opt), Error);
  EXPECT_THROW(ToString(NDArray()), Error);
}

}  // namespace
}  // namespace shade
