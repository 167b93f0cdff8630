// Shape ops against NumPy (tests/data/dyn2/shape_ops.txt): cat/stack with dtype promotion,
// split/array_split (views), flip, roll, tile, repeat, astype (incl. float -> bool of 1e-300);
// each also on a transposed (non-contiguous) input. Exact comparison (these ops move values).
// Then item<T>() and the error paths.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "dyn2_oracle.h"
#include "shade/ndarray/ops.h"
#include "shade/ndarray/shape_ops.h"

namespace shade {
namespace {

using dyn2::Case;

std::vector<NDArray> RunCase(const Case& c, const std::vector<NDArray>& in) {
  auto p = [&](const char* k) { return c.params.at(k); };
  if (c.op == "cat") return {cat(in, std::stoll(p("axis")))};
  if (c.op == "stack") return {stack(in, std::stoll(p("axis")))};
  if (c.op == "split") return split(in[0], std::stoll(p("sections")), std::stoll(p("axis")));
  if (c.op == "array_split") return array_split(in[0], std::stoll(p("sections")), std::stoll(p("axis")));
  if (c.op == "split_at") return split(in[0], dyn2::IntList(p("indices")), std::stoll(p("axis")));
  if (c.op == "flip") return {p("axes") == "all" ? flip(in[0]) : flip(in[0], dyn2::IntList(p("axes")))};
  if (c.op == "roll") {
    return {p("axes") == "none" ? roll(in[0], std::stoll(p("shift")))
                                : roll(in[0], std::stoll(p("shift")), std::stoll(p("axes")))};
  }
  if (c.op == "roll2") return {roll(in[0], dyn2::IntList(p("shifts")), dyn2::IntList(p("axes")))};
  if (c.op == "tile") return {tile(in[0], dyn2::IntList(p("reps")))};
  if (c.op == "repeat") {
    const std::vector<index_t> r = dyn2::IntList(p("repeats"));
    if (p("axis") == "none") return {repeat(in[0], r[0])};
    return {r.size() == 1 ? repeat(in[0], r[0], std::stoll(p("axis"))) : repeat(in[0], r, std::stoll(p("axis")))};
  }
  if (c.op == "astype") return {astype(in[0], dyn2::FlagOf(p("dtype")))};
  if (c.op == "copy_") {
    // Each cast path against the one expected array: copy_ into a contiguous and into a
    // transposed destination (the strided run loop), and the fused evaluator's operand cast
    // (logical_not reads its operand as bool).
    const int flag = dyn2::FlagOf(p("dtype"));
    NDArray out = NDArray::Empty(in[0].sizes(), flag);
    out.copy_(in[0]);
    NDArray zeros = NDArray::Empty(in[0].sizes(), flag);
    zeros.Fill(0);
    NDArray out_t = dyn2::Transposed(zeros);
    out_t.copy_(in[0]);
    return {out, out_t, logical_not(logical_not(in[0]))};
  }
  ADD_FAILURE() << "unknown op " << c.op;
  return {};
}

TEST(DynShapeOps, NumPyOracle) {
  const std::vector<Case> cases = dyn2::ReadCases("shape_ops.txt");
  ASSERT_GT(cases.size(), 40u);
  for (const Case& c : cases) {
    for (int l = 0; l < 2; ++l) {
      std::vector<NDArray> in;
      for (const NDArray& x : c.in) in.push_back(l == 0 ? x : dyn2::Transposed(x));
      const std::string what = c.Where() + (l == 0 ? " (contiguous)" : " (transposed)");
      // copy_ computes NumPy's one result by several paths (RunCase says which).
      dyn2::CheckOracleCase(
          c, what, [&] { return RunCase(c, in); }, 0, 0, c.op == "copy_");
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

TEST(DynShapeOps, SplitReturnsViewsAndItem) {
  NDArray a = NDArray::Empty({4, 6}, kInt32);
  for (index_t i = 0; i < 24; ++i) a.data<std::int32_t>()[i] = static_cast<std::int32_t>(i);
  std::vector<NDArray> parts = split(a, 3, 1);
  ASSERT_EQ(parts.size(), 3u);
  parts[1].at<std::int32_t>(0, 0) = -1;  // a view: writes reach a
  EXPECT_EQ(a.at<std::int32_t>(0, 2), -1);
  EXPECT_EQ(item<double>(a.narrow(0, 1, 1).narrow(1, 3, 1)), 9.0);
  EXPECT_EQ(item<std::int64_t>(astype(a.select(0, 2).select(0, 5), kFloat16)), 17);
  EXPECT_THROW(item<int>(a), Error);
  EXPECT_THROW(item<int>(NDArray::Empty({0}, kInt32)), Error);
  EXPECT_THROW(item<int>(NDArray()), Error);
}

// float64 -> float16/bfloat16 rounds once, as NumPy does: 1 + 2^-11 + 2^-40 is above the half
// tie 1 + 2^-11 and goes up; rounding to float first would land on the tie and go to 1.
TEST(DynShapeOps, AstypeFromDoubleRoundsOnce) {
  NDArray a = NDArray::Empty({2}, kFloat64);
  a.data<double>()[0] = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  a.data<double>()[1] = 1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40);
  EXPECT_EQ(item<double>(astype(a.narrow(0, 0, 1), kFloat16)), 1.0 + std::ldexp(1.0, -10));
  EXPECT_EQ(item<double>(astype(a.narrow(0, 1, 1), kBfloat16)), 1.0 + std::ldexp(1.0, -7));
}

TEST(DynShapeOps, Errors) {
  const NDArray a = NDArray::Empty({2, 3}, kFloat32), b = NDArray::Empty({2, 4}, kFloat32);
  std::string m = dyn2::ErrorMessage([&] { cat({a, b}, 0); });
  EXPECT_NE(m.find("(2,3)"), std::string::npos) << m;
  EXPECT_NE(m.find("(2,4)"), std::string::npos) << m;
  m = dyn2::ErrorMessage([&] { cat({}, 0); });
  EXPECT_NE(m.find("at least one"), std::string::npos) << m;
  m = dyn2::ErrorMessage([&] { cat({a, a}, 2); });
  EXPECT_NE(m.find("axis 2"), std::string::npos) << m;
  m = dyn2::ErrorMessage([&] { cat({NDArray::Empty({}, kFloat32)}, 0); });
  EXPECT_NE(m.find("zero-dimensional"), std::string::npos) << m;
  m = dyn2::ErrorMessage([&] { stack({a, b}); });
  EXPECT_NE(m.find("same shape"), std::string::npos) << m;
  m = dyn2::ErrorMessage([&] { split(a, 2, 1); });
  EXPECT_NE(m.find("equal division"), std::string::npos) << m;
  m = dyn2::ErrorMessage([&] { split(a, 0, 1); });
  EXPECT_NE(m.find("larger than 0"), std::string::npos) << m;
  m = dyn2::ErrorMessage([&] { flip(a, {0, -2}); });
  EXPECT_NE(m.find("repeated"), std::string::npos) << m;
  m = dyn2::ErrorMessage([&] { roll(a, 1, 3); });
  EXPECT_NE(m.find("axis 3"), std::string::npos) << m;
  m = dyn2::ErrorMessage([&] { tile(a, {-1}); });
  EXPECT_NE(m.find("negative"), std::string::npos) << m;
  m = dyn2::ErrorMessage([&] { repeat(a, std::vector<index_t>{1, 2}, 1); });
  EXPECT_NE(m.find("repeat counts"), std::string::npos) << m;
  m = dyn2::ErrorMessage([&] { astype(a, kInt32, Casting::kSafe); });
  EXPECT_NE(m.find("cannot cast float32 to int32"), std::string::npos) << m;
}

}  // namespace
}  // namespace shade
