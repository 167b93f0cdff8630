// Advanced indexing against NumPy (tests/data/dyn2/indexing.txt): take along an axis and flat,
// boolean masks (full and leading-dims), broadcast integer index arrays of several int dtypes,
// negative indices, nonzero, index assignment (last write wins) and np.add.at accumulation;
// each also with the array stored transposed. Exact comparison. Then every error path, writing
// through a non-contiguous view, and an expanded destination.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dyn2_oracle.h"
#include "shade/ndarray/indexing.h"
#include "shade/ndarray/shape_ops.h"

namespace shade {
namespace {

using dyn2::Case;

std::vector<NDArray> RunCase(const Case& c, const std::vector<NDArray>& in) {
  if (c.op == "take") return {take(in[0], in[1], std::stoll(c.params.at("axis")))};
  if (c.op == "take_flat") return {take(in[0], in[1])};
  if (c.op == "index") return {index(in[0], std::vector<NDArray>(in.begin() + 1, in.end()))};
  if (c.op == "nonzero") return nonzero(in[0]);
  if (c.op == "index_put") {
    NDArray dst = in[0].Clone();
    index_put_(dst, std::vector<NDArray>(in.begin() + 2, in.end()), in[1], c.params.at("accumulate") == "1");
    return {dst};
  }
  ADD_FAILURE() << "unknown op " << c.op;
  return {};
}

TEST(DynIndexing, NumPyOracle) {
  const std::vector<Case> cases = dyn2::ReadCases("indexing.txt");
  ASSERT_GT(cases.size(), 20u);
  for (const Case& c : cases) {
    for (int l = 0; l < 2; ++l) {
      std::vector<NDArray> in = c.in;
      if (l == 1) in[0] = dyn2::Transposed(in[0]);
      const std::string what = c.Where() + (l == 0 ? " (contiguous)" : " (transposed)");
      dyn2::CheckOracleCase(
          c, what, [&] { return RunCase(c, in); }, 0, 0);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

NDArray Ints(std::vector<std::int64_t> v) {
  NDArray a = NDArray::Empty({static_cast<index_t>(v.size())}, kInt64);
  for (std::size_t i = 0; i < v.size(); ++i) a.data<std::int64_t>()[i] = v[i];
  return a;
}

TEST(DynIndexing, WritesThroughViewsAndMaskedFill) {
  NDArray base = NDArray::Empty({4, 6}, kFloat32);
  base.Fill(0);
  NDArray view = base.slice(1, 0, 6, 2);  // 4x3, stride 2
  NDArray v = NDArray::Empty({2}, kFloat32);
  v.at<float>(0) = 5;
  v.at<float>(1) = 7;
  index_put_(view, {Ints({0, 3}), Ints({2, 0})}, v);
  EXPECT_EQ(base.at<float>(0, 4), 5.0f);
  EXPECT_EQ(base.at<float>(3, 0), 7.0f);
  EXPECT_EQ(base.at<float>(0, 5), 0.0f);
  NDArray mask = astype(base, kBool);
  masked_fill_(base, mask, -1.5);
  EXPECT_EQ(base.at<float>(0, 4), -1.5f);
  EXPECT_EQ(base.at<float>(1, 1), 0.0f);
}

TEST(DynIndexing, Errors) {
  NDArray a = NDArray::Empty({3, 4}, kFloat32);
  a.Fill(1);
  std::string m = dyn2::ErrorMessage([&] { take(a, Ints({0, 3}), 0); });
  EXPECT_NE(m.find("index 3 is out of bounds for axis 0 with size 3"), std::string::npos) << m;
  m = dyn2::ErrorMessage([&] { take(a, Ints({-5}), 1); });
  EXPECT_NE(m.find("index -5"), std::string::npos) << m;
  m = dyn2::ErrorMessage([&] { take(a, Ints({0}), 2); });
  EXPECT_NE(m.find("axis 2"), std::string::npos) << m;
  m = dyn2::ErrorMessage([&] { take(a, NDArray::Empty({1}, kFloat32), 0); });
  EXPECT_NE(m.find("integer dtype"), std::string::npos) << m;
  m = dyn2::ErrorMessage([&] { index(a, {Ints({0}), Ints({0}), Ints({0})}); });
  EXPECT_NE(m.find("too many indices"), std::string::npos) << m;
  m = dyn2::ErrorMessage([&] { index(a, {Ints({0, 1}), Ints({0, 1, 2})}); });
  EXPECT_NE(m.find("could not be broadcast"), std::string::npos) << m;
  m = dyn2::ErrorMessage([&] { index(a, {NDArray::Empty({2}, kBool)}); });
  EXPECT_NE(m.find("boolean index did not match"), std::string::npos) << m;
  m = dyn2::ErrorMessage([&] { index_put_(a, {Ints({0, 1})}, NDArray::Empty({3}, kFloat32)); });
  EXPECT_NE(m.find("could not be broadcast"), std::string::npos) << m;
  m = dyn2::ErrorMessage([&] { index_put_(a, {Ints({7})}, NDArray::Empty({}, kFloat32)); });
  EXPECT_NE(m.find("index 7"), std::string::npos) << m;
  m = dyn2::ErrorMessage([&] { index_put_(a.unsqueeze(0).expand({2, 3, 4}), {Ints({0})}, a); });
  EXPECT_NE(m.find("overlap"), std::string::npos) << m;
  m = dyn2::ErrorMessage([&] { masked_fill_(a, a, 1.0); });
  EXPECT_NE(m.find("must be bool"), std::string::npos) << m;
  m = dyn2::ErrorMessage([&] { nonzero(NDArray::Empty({}, kFloat32)); });
  EXPECT_NE(m.find("rank-0"), std::string::npos) << m;
}

}  // namespace
}  // namespace shade
