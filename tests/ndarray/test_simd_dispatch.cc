// The SIMD target choice of NDArray's compiled kernels (ndarray/device.h SimdTargetName,
// src/ndarray/simd_dispatch.cc). A portable build runs this and the dynamic-op test executables
// once per target with SHADE_SIMD_TARGET set (tests/CMakeLists.txt); this file proves that the
// variable took effect, so those runs really test the target they name, and checks a kernel of
// each table entry (ops, register program, cast, fill, reductions, transpose) against plain loops.
#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "shade/ndarray/creation.h"
#include "shade/ndarray/device.h"
#include "shade/ndarray/ndarray.h"
#include "shade/ndarray/ops.h"
#include "shade/ndarray/reduce.h"
#include "shade/ndarray/shape_ops.h"

namespace {

using shade::NDArray;

std::string Upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

TEST(SimdDispatch, TargetIsOneOfHighwaysX86Targets) {
  const std::string name = shade::SimdTargetName();
  EXPECT_TRUE(name == "AVX3_DL" || name == "AVX3" || name == "AVX2" || name == "SSE4" ||
              name == "SSSE3" || name == "EMU128" || name == "SCALAR")
      << name;
}

TEST(SimdDispatch, EnvironmentCapTakesEffect) {
  const char* cap = std::getenv("SHADE_SIMD_TARGET");
  if (cap == nullptr || *cap == '\0' || std::string(cap) == "best") {
    GTEST_SKIP() << "SHADE_SIMD_TARGET not set: the best target runs (" << shade::SimdTargetName()
                 << ")";
  }
  const std::string want = Upper(cap), got = shade::SimdTargetName();
  if (want == "BASELINE") {
    // The baseline of a portable x86-64 build has no SIMD target of its own.
    EXPECT_TRUE(got == "EMU128" || got == "SCALAR") << got;
    return;
  }
  const long long bit = want == "AVX3" ? HWY_AVX3 : want == "AVX2" ? HWY_AVX2 : HWY_SSE4;
  if ((hwy::SupportedTargets() & bit) == 0) GTEST_SKIP() << "this CPU has no " << want;
  EXPECT_EQ(got, want);
}

TEST(SimdDispatch, KernelsOfTheChosenTargetAgreeWithPlainLoops) {
  constexpr int n = 1000;  // not a multiple of any vector width: the tails run too
  NDArray x = shade::empty({n}, shade::kFloat32);
  float* px = x.data<float>();
  for (int i = 0; i < n; ++i) px[i] = (i - 500) * 0.013f;

  // Unary and binary op tiles; a fused expression (the register program).
  const NDArray e = shade::exp(x);
  const NDArray f = x * x + shade::exp(x) - x / (x + 100.0f);
  for (int i = 0; i < n; ++i) {
    const double want_e = std::exp(static_cast<double>(px[i]));
    EXPECT_NEAR(e.data<float>()[i], want_e, 2e-6 * want_e) << i;
    const double v = px[i];
    const double want_f = v * v + std::exp(v) - v / (v + 100.0);
    EXPECT_NEAR(f.data<float>()[i], want_f, 1e-5 * (std::abs(want_f) + 1)) << i;
  }
  // Cast and fill.
  const NDArray xi = shade::astype(x * 100.0f, shade::kInt32);
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(xi.data<std::int32_t>()[i], static_cast<std::int32_t>(px[i] * 100.0f)) << i;
  }
  const NDArray ones = shade::full({n}, 3.5, shade::kFloat64);
  for (int i = 0; i < n; ++i) ASSERT_EQ(ones.data<double>()[i], 3.5);
  // Reductions: an axis sum, max with a NaN, argmax.
  const NDArray m = shade::arange(0, 12 * 37, 1, shade::kInt64).view({12, 37});
  const NDArray s = shade::sum(m, shade::AxisSet({1}));
  for (int r = 0; r < 12; ++r) {
    std::int64_t want = 0;
    for (int c = 0; c < 37; ++c) want += r * 37 + c;
    EXPECT_EQ(s.data<std::int64_t>()[r], want) << r;
  }
  EXPECT_EQ(shade::item<std::int64_t>(shade::argmax(x)), n - 1);
  px[17] = std::nanf("");
  EXPECT_TRUE(std::isnan(shade::item<float>(shade::max(x))));
  // Transpose (the register transpose of 4-byte elements on AVX-512).
  const NDArray t = shade::astype(m, shade::kInt32).transpose(0, 1).contiguous();
  for (int r = 0; r < 37; ++r) {
    for (int c = 0; c < 12; ++c) ASSERT_EQ(t.data<std::int32_t>()[r * 12 + c], c * 37 + r);
  }
}

}  // namespace
