// matmul / dot / tensordot against NumPy (tests/data/dyn2/linalg.txt): 1-D x 2-D, 2-D x 1-D,
// batched with broadcast batch dims, empty and 1x1 shapes, 7 dtypes and mixed dtypes (NEP 50
// result types), every case also with operands stored transposed (non-contiguous). Integers and
// bool exactly; float32/float64 within kUlps of max(|expected|, kScale) (BLAS and NumPy's BLAS
// sum in different orders); float16 within kHalfUlps. Then: transposed float operands reach the
// BLAS without a copy (allocation count), a large product against a naive loop, and the errors.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dyn2_oracle.h"
#include "shade/memory/alloc.h"
#include "shade/ndarray/linalg.h"
#include "shade/ndarray/shape_ops.h"

namespace shade {
namespace {

using dyn2::Case;

constexpr double kUlps = 16;
constexpr double kHalfUlps = 2;
constexpr double kScale = 16;

NDArray RunCase(const Case& c, const NDArray& a, const NDArray& b) {
  if (c.op == "matmul") return matmul(a, b);
  if (c.op == "dot") return dot(a, b);
  if (c.op == "tensordot") {
    const std::string axes = c.params.at("axes");
    const auto semi = axes.find(';');
    if (semi == std::string::npos) return tensordot(a, b, std::stoll(axes));
    return tensordot(a, b, dyn2::IntList(axes.substr(0, semi)), dyn2::IntList(axes.substr(semi + 1)));
  }
  ADD_FAILURE() << "unknown op " << c.op;
  return NDArray();
}

TEST(DynLinalg, NumPyOracle) {
  const std::vector<Case> cases = dyn2::ReadCases("linalg.txt");
  ASSERT_GT(cases.size(), 100u);
  for (const Case& c : cases) {
    const NDArray& a = c.in[0];
    const NDArray& b = c.in[1];
    const std::pair<NDArray, NDArray> layouts[] = {{a, b}, {dyn2::Transposed(a), dyn2::Transposed(b)},
                                                   {dyn2::Strided(a), b}};
    const char* names[] = {"contiguous", "transposed", "strided"};
    for (int l = 0; l < 3; ++l) {
      const std::string what = c.Where() + " (" + names[l] + " " + a.Describe() + " x " + b.Describe() + ")";
      const bool half = !c.error && c.out[0].type_flag() == kFloat16;
      dyn2::CheckOracleCase(
          c, what, [&] { return RunCase(c, layouts[l].first, layouts[l].second); },
          half ? kHalfUlps : kUlps, kScale);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

NDArray Iota(std::vector<index_t> shape, int flag, double scale) {
  NDArray a = NDArray::Empty(shape, flag);
  for (index_t i = 0; i < a.numel(); ++i) {
    std::vector<index_t> idx(a.ndim());
    index_t r = i;
    for (int d = a.ndim() - 1; d >= 0; --d) {
      idx[d] = r % a.size(d);
      r /= a.size(d);
    }
    a.set(idx, static_cast<double>((i * 37) % 23) * scale - 5 * scale);
  }
  return a;
}

TEST(DynLinalg, TransposedOperandsAreNotCopied) {
  const NDArray a = Iota({64, 48}, kFloat32, 0.25);   // stored 64x48
  const NDArray b = Iota({32, 48}, kFloat32, 0.5);    // stored 32x48
  const NDArray at = a.transpose(0, 1), bt = b.transpose(0, 1);  // 48x64, 48x32 views
  const std::uint64_t before = AllocationCount();
  const NDArray c = matmul(at.transpose(0, 1), bt);  // (64x48) x (48x32): a row-major, b transposed
  const NDArray d = matmul(bt.transpose(0, 1), at);  // (32x48) x (48x64)
  // Batched with a broadcast (expanded, stride-0) batch dim and a transposed matrix.
  const NDArray e = matmul(a.unsqueeze(0).expand({3, 64, 48}), bt);
  EXPECT_EQ(AllocationCount() - before, 3u) << "only the three results are allocated";
  for (index_t i = 0; i < 64; i += 9) {
    for (index_t j = 0; j < 32; j += 5) {
      double s = 0;
      for (index_t l = 0; l < 48; ++l) s += a.at<float>(i, l) * b.at<float>(j, l);
      EXPECT_FLOAT_EQ(c.at<float>(i, j), s);
      EXPECT_FLOAT_EQ(d.at<float>(j, i), s);
      EXPECT_FLOAT_EQ(e.at<float>(2, i, j), s);
    }
  }
  // A layout BLAS cannot read (stride 2 inside rows) is copied once and still right.
  const NDArray wide = Iota({64, 96}, kFloat32, 0.25);
  const NDArray f = matmul(wide.slice(1, 0, 96, 2), bt);
  EXPECT_EQ(f.sizes(), IndexSpan({64, 32}));
  double s = 0;
  for (index_t l = 0; l < 48; ++l) s += wide.at<float>(5, 2 * l) * b.at<float>(7, l);
  EXPECT_FLOAT_EQ(f.at<float>(5, 7), s);
}

TEST(DynLinalg, LargeIntegerAndDoubleMatchNaive) {
  const NDArray a = Iota({2, 70, 90}, kInt64, 1000003);
  const NDArray b = Iota({90, 40}, kInt64, 999983);
  const NDArray c = matmul(a, b);
  ASSERT_EQ(c.sizes(), IndexSpan({2, 70, 40}));
  for (index_t i = 0; i < 70; i += 13) {
    for (index_t j = 0; j < 40; j += 7) {
      std::uint64_t s = 0;  // wrapping, as NumPy
      for (index_t l = 0; l < 90; ++l) {
        s += static_cast<std::uint64_t>(a.at<std::int64_t>(1, i, l)) * static_cast<std::uint64_t>(b.at<std::int64_t>(l, j));
      }
      EXPECT_EQ(c.at<std::int64_t>(1, i, j), static_cast<std::int64_t>(s));
    }
  }
  const NDArray x = Iota({300, 200}, kFloat64, 0.125), y = Iota({200}, kFloat64, 0.5);
  const NDArray z = matmul(x, y);  // Gemv path
  for (index_t i = 0; i < 300; i += 17) {
    double s = 0;
    for (index_t l = 0; l < 200; ++l) s += x.at<double>(i, l) * y.at<double>(l);
    EXPECT_NEAR(z.at<double>(i), s, 1e-9 * (1 + std::fabs(s)));
  }
  const NDArray zt = matmul(y, x.transpose(0, 1));  // 1-D x transposed 2-D
  EXPECT_NEAR(zt.at<double>(17), z.at<double>(17), 1e-9 * (1 + std::fabs(z.at<double>(17))));
}

TEST(DynLinalg, ErrorsNameShapes) {
  const NDArray a = NDArray::Empty({2, 3}, kFloat32), b = NDArray::Empty({4, 5}, kFloat32);
  std::string m = dyn2::ErrorMessage([&] { matmul(a, b); });
  EXPECT_NE(m.find("(2,3) and (4,5)"), std::string::npos) << m;
  m = dyn2::ErrorMessage([&] {
    matmul(NDArray::Empty({2, 3, 4}, kFloat32), NDArray::Empty({5, 4, 3}, kFloat32));
  });
  EXPECT_NE(m.find("do not broadcast"), std::string::npos) << m;
  m = dyn2::ErrorMessage([&] { matmul(NDArray::Empty({}, kFloat32), a); });
  EXPECT_NE(m.find("enough dimensions"), std::string::npos) << m;
  m = dyn2::ErrorMessage([&] { dot(a, b); });
  EXPECT_NE(m.find("not aligned"), std::string::npos) << m;
  m = dyn2::ErrorMessage([&] { tensordot(a, b, 3); });
  EXPECT_NE(m.find("out of range"), std::string::npos) << m;
  m = dyn2::ErrorMessage([&] { tensordot(a, b, {1}, {0}); });
  EXPECT_NE(m.find("shape-mismatch"), std::string::npos) << m;
  m = dyn2::ErrorMessage([&] { tensordot(a, b, {5}, {0}); });
  EXPECT_NE(m.find("axis 5"), std::string::npos) << m;
  m = dyn2::ErrorMessage([&] { matmul(NDArray(), a); });
  EXPECT_NE(m.find("undefined"), std::string::npos) << m;
}

}  // namespace
}  // namespace shade
