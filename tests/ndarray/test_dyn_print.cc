// NumPy-style printing: expected strings are NumPy 1.24's repr of the same arrays (with shade's
// two stated differences: dtype always shown, shape shown when summarised or empty).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "shade/io/npy.h"
#include "shade/ndarray/creation.h"
#include "shade/ndarray/print.h"
#include "shade/ndarray/shape_ops.h"
#include "shade/tensor/tensor_cpu.h"

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
  EXPECT_EQ(ToString(Vals({1, 2, 3, 4}, {2, 2}, kFloat32)),
            "array([[1., 2.],\n       [3., 4.]], dtype=float32)");
  EXPECT_EQ(ToString(Vals({1.5, 2.25, -3, 10}, {4}, kFloat64)),
            "array([ 1.5 ,  2.25, -3.  , 10.  ], dtype=float64)");
  EXPECT_EQ(ToString(Vals({0.1}, {1}, kFloat32)), "array([0.1], dtype=float32)");
  EXPECT_EQ(ToString(Vals({1, -20, 300}, {3}, kInt32)), "array([  1, -20, 300], dtype=int32)");
  EXPECT_EQ(ToString(Vals({1, 0}, {2}, kBool)), "array([ True, False], dtype=bool)");
  EXPECT_EQ(ToString(Vals({1e8, 1}, {2}, kFloat64)), "array([1.e+08, 1.e+00], dtype=float64)");
  EXPECT_EQ(ToString(Vals({1.5e-5, 1}, {2}, kFloat64)), "array([1.5e-05, 1.0e+00], dtype=float64)");
  const double nan = std::nan("");
  EXPECT_EQ(ToString(Vals({nan, 1.5, -INFINITY}, {3}, kFloat64)),
            "array([ nan,  1.5, -inf], dtype=float64)");
  EXPECT_EQ(ToString(Vals({3.5}, {}, kFloat32)), "array(3.5, dtype=float32)");
  EXPECT_EQ(ToString(NDArray::Empty({0, 3}, kFloat64)), "array([], shape=(0, 3), dtype=float64)");
  EXPECT_EQ(ToString(NDArray::Empty({0}, kInt32)), "array([], dtype=int32)");
  // 3-D: a blank line between blocks.
  EXPECT_EQ(ToString(arange(0, 8).view({2, 2, 2})),
            "array([[[0, 1],\n        [2, 3]],\n\n       [[4, 5],\n        [6, 7]]], dtype=int64)");
  // Non-contiguous views print their logical order.
  EXPECT_EQ(ToString(Vals({1, 2, 3, 4}, {2, 2}, kInt8).transpose(0, 1)),
            "array([[1, 3],\n       [2, 4]], dtype=int8)");
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

// `os << a` against NumPy's repr of the same values: shade writes each array as .npy and its
// printed text; /usr/bin/python3 loads the .npy, takes repr() and adds the dtype where NumPy
// omits it (float64, int64, bool; shade always shows it). Several dtypes, rank 0 to 3, 0-size,
// non-contiguous views and a static Tensor.
TEST(DynPrint, StreamOperatorMatchesNumPyReprOracle) {
  if (std::system("/usr/bin/python3 -c 'import numpy' >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "/usr/bin/python3 with numpy not available";
  }
  const std::string dir = ::testing::TempDir() + "shade_print_numpy/";
  ASSERT_EQ(std::system(("mkdir -p " + dir).c_str()), 0);
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> real(-50, 50);
  std::vector<NDArray> arrays;
  const std::vector<std::vector<index_t>> shapes = {{},        {1}, {5},    {2, 3}, {3, 4},
                                                    {2, 2, 3}, {0}, {0, 3}, {3, 0}, {2, 0, 2}};
  for (int flag : {kFloat32, kFloat64, kInt32, kInt64, kUint8, kBool}) {
    for (const auto& shape : shapes) {
      NDArray a = NDArray::Empty(shape, flag);
      const std::vector<index_t> sizes(shape);
      for (index_t i = 0; i < a.numel(); ++i) {
        std::vector<index_t> idx(sizes.size());
        index_t r = i;
        for (int d = static_cast<int>(sizes.size()) - 1; d >= 0; --d) {
          idx[d] = r % sizes[d];
          r /= sizes[d];
        }
        double v = real(rng);
        if (flag == kBool) v = v > 0;
        if (flag == kUint8) v = std::abs(v);
        if (flag == kFloat32 || flag == kFloat64) v = std::round(v * 100) / (i % 3 == 0 ? 1 : 100);
        a.set(idx, v);
      }
      arrays.push_back(a);
      if (a.ndim() == 2) arrays.push_back(a.transpose(0, 1));  // non-contiguous view
    }
  }
  arrays.push_back(arange(0, 12).view({3, 4}).slice(1, 0, 4, 2));  // strided columns
  std::ofstream list(dir + "list.txt");
  for (std::size_t k = 0; k < arrays.size(); ++k) {
    const std::string base = dir + "a" + std::to_string(k);
    io::SaveNpy(base + ".npy", arrays[k]);
    std::ofstream(base + ".txt") << arrays[k];
    list << base << "\n";
  }
  // A static Tensor prints the same way as its NDArray view.
  float data[6] = {1.5f, -2.f, 3.25f, 0.f, 10.f, -0.5f};
  Tensor<cpu, 2, float> t(data, Shape2(2, 3));
  std::ostringstream ts;
  ts << t;
  NDArray tv = NDArray::Empty({2, 3}, kFloat32);
  for (int i = 0; i < 6; ++i) tv.set({i / 3, i % 3}, data[i]);
  io::SaveNpy(dir + "tensor.npy", tv);
  std::ofstream(dir + "tensor.txt") << ts.str();
  list << dir << "tensor\n";
  list.close();
  std::ofstream(dir + "check.py") << R"PY(import sys
import numpy as np
bad = 0
for base in open(sys.argv[1]).read().split():
    a = np.load(base + '.npy')
    want = repr(a)
    if 'dtype=' not in want:
        want = want[:-1] + ', dtype=' + str(a.dtype) + ')'
    got = open(base + '.txt').read()
    if got != want:
        print('MISMATCH', base, repr(got), repr(want)); bad += 1
sys.exit(1 if bad else 0)
)PY";
  EXPECT_EQ(std::system(("/usr/bin/python3 " + dir + "check.py " + dir + "list.txt").c_str()), 0);
  std::system(("rm -rf " + dir).c_str());
}

TEST(DynPrint, DescribeKeepsTheOneLineSummaryAndErrorsUseIt) {
  const NDArray a = arange(0, 6).view({2, 3});
  std::ostringstream os;
  os << a;
  EXPECT_EQ(os.str(), "array([[0, 1, 2],\n       [3, 4, 5]], dtype=int64)");
  EXPECT_EQ(a.Describe(), "NDArray(int64, sizes=(2,3), strides=(3,1), offset=0, cpu)");
  std::ostringstream undefined;
  undefined << NDArray();
  EXPECT_EQ(undefined.str(), "NDArray(undefined)");
  try {
    SHADE_CHECK(false) << "op: operand " << a;
    FAIL() << "no throw";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("op: operand NDArray(int64, sizes=(2,3)"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace shade
