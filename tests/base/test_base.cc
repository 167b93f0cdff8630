// Tests of the base layer: errors and CHECK macros, checked arithmetic, dtype flags and the
// dispatch, half_t / bf16_t conversions (against the compiler's _Float16 and a double oracle).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <set>
#include <string>

#include "shade/base/checked.h"
#include "shade/base/device.h"
#include "shade/base/dtype.h"
#include "shade/base/error.h"
#include "shade/base/half.h"

namespace {

std::string ThrownMessage(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const shade::Error& e) {
    return e.what();
  }
  return "<no throw>";
}

// A message says what failed and where (repo-relative), never the C++ condition text nor the
// build machine's absolute path.
void ExpectCleanMessage(const std::string& msg) {
  EXPECT_EQ(msg.find("Check failed"), std::string::npos) << msg;
  EXPECT_EQ(msg.find(SHADE_SOURCE_DIR), std::string::npos) << msg;
  ASSERT_FALSE(msg.empty());
  EXPECT_NE(msg.front(), '/') << msg;
}

TEST(Error, CheckNamesWhatFailedFileAndLineNotTheCondition) {
  const int line = __LINE__ + 1;
  const std::string msg = ThrownMessage([] { SHADE_CHECK(1 + 1 == 3) << "arithmetic is off"; });
  EXPECT_EQ(msg, "tests/base/test_base.cc:" + std::to_string(line) + ": arithmetic is off");
  ExpectCleanMessage(msg);
}

TEST(Error, BinaryChecksAppendBothValues) {
  const int a = 3, b = 4;
  const int line = __LINE__ + 1;
  const std::string msg = ThrownMessage([&] { SHADE_CHECK_EQ(a, b) << "ctx"; });
  EXPECT_EQ(msg, "tests/base/test_base.cc:" + std::to_string(line) + ": ctx (got 3 vs. 4)");
  EXPECT_NO_THROW(SHADE_CHECK_LT(a, b));
  EXPECT_THROW(SHADE_CHECK_GT(a, b), shade::ValueError);
  EXPECT_THROW(SHADE_CHECK_GE(a, b), shade::ValueError);
  EXPECT_THROW(SHADE_CHECK_NE(a, a), shade::ValueError);
  EXPECT_THROW(SHADE_CHECK_LE(b, a), shade::ValueError);
  EXPECT_THROW(SHADE_CHECK_SHAPE_EQ(a, b), shade::ShapeError);
  EXPECT_THROW(SHADE_CHECK_INDEX_LT(b, a), shade::IndexError);
  EXPECT_THROW(SHADE_CHECK_TYPE_EQ(a, b), shade::TypeError);
  EXPECT_THROW(SHADE_CHECK_IO_EQ(a, b), shade::IOError);
}

TEST(Error, EachMacroThrowsItsClassAndAllAreShadeErrors) {
  EXPECT_THROW(SHADE_CHECK(false) << "x", shade::ValueError);
  EXPECT_THROW(SHADE_CHECK_SHAPE(false) << "x", shade::ShapeError);
  EXPECT_THROW(SHADE_CHECK_SHAPE(false) << "x", shade::ValueError);  // a ShapeError is a ValueError
  EXPECT_THROW(SHADE_CHECK_INDEX(false) << "x", shade::IndexError);
  EXPECT_THROW(SHADE_CHECK_TYPE(false) << "x", shade::TypeError);
  EXPECT_THROW(SHADE_CHECK_IO(false) << "x", shade::IOError);
  EXPECT_THROW(SHADE_CHECK_NOT_IMPLEMENTED(false) << "x", shade::NotImplementedError);
  EXPECT_THROW(SHADE_THROW_INDEX << "x", shade::Error);
  EXPECT_THROW(SHADE_THROW_IO << "x", std::runtime_error);
  EXPECT_NO_THROW(SHADE_CHECK_IO(true) << "x");
}

TEST(Error, RelativeSourcePathDropsTheBuildMachinesDirectories) {
  using shade::detail::RelativeSourcePath;
  EXPECT_STREQ(RelativeSourcePath("/home/ci/shade/src/io/npy.cc"), "src/io/npy.cc");
  EXPECT_STREQ(RelativeSourcePath("/usr/local/include/shade/tensor/tensor.h"),
               "shade/tensor/tensor.h");
  EXPECT_STREQ(RelativeSourcePath("/a/src/b/include/shade/x.h"), "shade/x.h");
  EXPECT_STREQ(RelativeSourcePath("/tmp/user_code.cc"), "user_code.cc");
  EXPECT_STREQ(RelativeSourcePath("plain.cc"), "plain.cc");
}

TEST(Error, CheckEvaluatesOperandsOnceWhenPassing) {
  int calls = 0;
  auto f = [&] { return ++calls; };
  SHADE_CHECK(f() == 1);
  EXPECT_EQ(calls, 1);
}

TEST(Error, CheckIsSafeInUnbracedIfElse) {
  bool reached_else = false;
  if (false)
    SHADE_CHECK(false) << "never";
  else
    reached_else = true;
  EXPECT_TRUE(reached_else);
}

TEST(Error, ThrowMacro) {
  const std::string msg = ThrownMessage([] { SHADE_THROW << "value " << 42; });
  EXPECT_NE(msg.find("value 42"), std::string::npos);
}

TEST(Checked, MulAddProduct) {
  EXPECT_EQ(shade::CheckedMul(1 << 20, 1 << 20), shade::index_t(1) << 40);
  EXPECT_THROW(shade::CheckedMul(shade::index_t(1) << 40, shade::index_t(1) << 40), shade::Error);
  EXPECT_THROW(shade::CheckedAdd(std::numeric_limits<shade::index_t>::max(), 1), shade::Error);
  const shade::index_t dims[] = {2, 3, 4};
  EXPECT_EQ(shade::CheckedProduct(dims, 3), 24);
  const shade::index_t neg[] = {2, -3};
  EXPECT_THROW(shade::CheckedProduct(neg, 2), shade::Error);
  const shade::index_t zero[] = {0, shade::index_t(1) << 62, shade::index_t(1) << 62};
  EXPECT_EQ(shade::CheckedProduct(zero, 3), 0);  // a zero extent makes the product exact
}

TEST(Device, Masks) {
  EXPECT_TRUE(shade::cpu::kDevCPU);
  EXPECT_FALSE(shade::gpu::kDevCPU);
  EXPECT_NE(shade::cpu::kDevMask, shade::gpu::kDevMask);
  EXPECT_STREQ(shade::DevMaskName(shade::cpu::kDevMask), "cpu");
}

TEST(DType, MshadowNumbering) {
  EXPECT_EQ(shade::DataType<float>::kFlag, 0);
  EXPECT_EQ(shade::DataType<double>::kFlag, 1);
  EXPECT_EQ(shade::DataType<shade::half_t>::kFlag, 2);
  EXPECT_EQ(shade::DataType<uint8_t>::kFlag, 3);
  EXPECT_EQ(shade::DataType<int32_t>::kFlag, 4);
  EXPECT_EQ(shade::DataType<int8_t>::kFlag, 5);
  EXPECT_EQ(shade::DataType<int64_t>::kFlag, 6);
  EXPECT_EQ(shade::DataType<bool>::kFlag, 7);
  EXPECT_EQ(shade::DataType<shade::bf16_t>::kFlag, 8);
}

TEST(DType, DispatchCoversEveryFlagAndRoundTrips) {
  std::set<std::string> names;
  for (int flag = 0; flag < shade::kNumTypeFlags; ++flag) {
    const int back = shade::DispatchDTypeWithComplex(
        flag, [](auto tag) { return shade::DataType<typename decltype(tag)::type>::kFlag; });
    EXPECT_EQ(back, flag);
    names.insert(shade::TypeFlagName(flag));
  }
  EXPECT_EQ(names.size(), static_cast<size_t>(shade::kNumTypeFlags));
  EXPECT_EQ(shade::TypeFlagSize(shade::kFloat64), 8u);
  EXPECT_EQ(shade::TypeFlagSize(shade::kBfloat16), 2u);
  EXPECT_EQ(shade::TypeFlagSize(shade::kBool), 1u);
  EXPECT_STREQ(shade::TypeFlagName(shade::kFloat16), "float16");
}

TEST(DType, UnknownFlagThrows) {
  const std::string msg = ThrownMessage([] { shade::TypeFlagName(99); });
  EXPECT_NE(msg.find("unknown dtype flag 99"), std::string::npos) << msg;
  EXPECT_THROW(shade::TypeFlagSize(-1), shade::Error);
}

TEST(DType, TypeSwitchMacro) {
  size_t size = 0;
  SHADE_TYPE_SWITCH(shade::kInt16, DType, { size = sizeof(DType); });
  EXPECT_EQ(size, 2u);
}

// ---- half_t ----
TEST(Half, EveryBitPatternRoundTrips) {
#ifndef __FLT16_MAX__
  GTEST_SKIP() << "no _Float16 oracle in this compiler (clang < 15 on x86-64)";
#else
  for (uint32_t bits = 0; bits < 0x10000u; ++bits) {
    const shade::half_t h = shade::half_t::FromBits(static_cast<uint16_t>(bits));
    const float f = static_cast<float>(h);
    _Float16 ref;
    const uint16_t b16 = static_cast<uint16_t>(bits);
    std::memcpy(&ref, &b16, 2);
    if (std::isnan(f)) {
      EXPECT_TRUE(std::isnan(static_cast<float>(ref)));
      EXPECT_TRUE(std::isnan(static_cast<float>(shade::half_t(f))));
      continue;
    }
    ASSERT_EQ(f, static_cast<float>(ref)) << "bits " << bits;
    ASSERT_EQ(shade::half_t(f).bits_, b16) << "bits " << bits;
  }
#endif
}

TEST(Half, RoundsToNearestEvenLikeTheCompiler) {
#ifndef __FLT16_MAX__
  GTEST_SKIP() << "no _Float16 oracle in this compiler (clang < 15 on x86-64)";
#else
  std::mt19937 rng(7);
  std::uniform_int_distribution<uint32_t> any;
  for (int i = 0; i < 200000; ++i) {
    uint32_t u = any(rng);
    // Bias half the samples into the half range, where rounding matters.
    if (i & 1) u = (u & 0x807fffffu) | ((103u + u % 40u) << 23);
    float f;
    std::memcpy(&f, &u, 4);
    if (std::isnan(f)) continue;
    const _Float16 ref = static_cast<_Float16>(f);
    uint16_t ref_bits;
    std::memcpy(&ref_bits, &ref, 2);
    ASSERT_EQ(shade::half_t(f).bits_, ref_bits) << "float bits " << std::hex << u;
  }
  // Ties: 1 + 2^-11 lies halfway between 1 and 1 + 2^-10 and goes to the even one (1).
  EXPECT_EQ(static_cast<float>(shade::half_t(1.0f + std::ldexp(1.0f, -11))), 1.0f);
  EXPECT_EQ(static_cast<float>(shade::half_t(65520.0f)), std::numeric_limits<float>::infinity());
  EXPECT_EQ(static_cast<float>(shade::half_t(65519.0f)), 65504.0f);
#endif
}

// From double the value is rounded once (through a round-to-odd float): rounding to float first
// and then to half would turn 1 + 2^-11 + 2^-40 into the tie 1 + 2^-11 and then into 1.
TEST(Half, RoundsFromDoubleOnceLikeTheCompiler) {
#ifndef __FLT16_MAX__
  GTEST_SKIP() << "no _Float16 oracle in this compiler (clang < 15 on x86-64)";
#else
  std::mt19937_64 rng(13);
  std::uniform_int_distribution<uint64_t> any;
  for (int i = 0; i < 200000; ++i) {
    uint64_t u = any(rng);
    // Bias most samples into the half range (exponents 2^-26 .. 2^17).
    if (i % 4 != 0) u = (u & 0x800fffffffffffffull) | (uint64_t(1023 - 26 + u % 44) << 52);
    // Every 3rd one: just above or below a half tie (bits past the 12th set sparsely).
    if (i % 3 == 0)
      u = (u & 0xfff0000000000000ull) | (u & 0x000ffc0000000000ull) | 0x0000020000000000ull |
          ((u >> 7) & 1 ? 1ull : 0ull);
    double d;
    std::memcpy(&d, &u, 8);
    if (std::isnan(d)) continue;
    const _Float16 ref = static_cast<_Float16>(d);
    uint16_t ref_bits;
    std::memcpy(&ref_bits, &ref, 2);
    ASSERT_EQ(shade::half_t(d).bits_, ref_bits) << "double bits " << std::hex << u;
  }
  EXPECT_EQ(static_cast<float>(shade::half_t(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40))),
            1.0f + std::ldexp(1.0f, -10));
  EXPECT_EQ(static_cast<float>(shade::half_t(-1.0 - std::ldexp(1.0, -11) - std::ldexp(1.0, -40))),
            -1.0f - std::ldexp(1.0f, -10));
  EXPECT_EQ(static_cast<float>(shade::half_t(1e300)), std::numeric_limits<float>::infinity());
  EXPECT_EQ(static_cast<float>(shade::half_t(-1e-300)), 0.0f);
  EXPECT_TRUE(std::signbit(static_cast<float>(shade::half_t(-1e-300))));
  EXPECT_TRUE(std::isnan(static_cast<float>(shade::half_t(std::nan("")))));
#endif
}

TEST(Half, RoundsFromWideIntegersOnce) {
#ifndef __FLT16_MAX__
  GTEST_SKIP() << "no _Float16 oracle in this compiler (clang < 15 on x86-64)";
#else
  // 65519 + tiny excess must still not overflow; integers round like the compiler's int->half.
  for (int64_t v : {int64_t{65519}, int64_t{65520}, int64_t{-65519}, int64_t{2049}, int64_t{2051},
                    int64_t{4097}, int64_t{1} << 40, -(int64_t{1} << 62)}) {
    const _Float16 ref = static_cast<_Float16>(static_cast<double>(v));  // exact double here
    uint16_t ref_bits;
    std::memcpy(&ref_bits, &ref, 2);
    EXPECT_EQ(shade::half_t(v).bits_, ref_bits) << v;
  }
#endif
}

TEST(Half, ArithmeticGoesThroughFloat) {
  const shade::half_t a(1.5f), b(2.25f);
  EXPECT_EQ(static_cast<float>(a + b), 3.75f);
  EXPECT_EQ(static_cast<float>(a * b), 3.375f);
  EXPECT_EQ(static_cast<float>(b - a), 0.75f);
  EXPECT_EQ(static_cast<float>(-a), -1.5f);
  shade::half_t c(1.0f);
  c += 2.0f;
  EXPECT_EQ(static_cast<float>(c), 3.0f);
  EXPECT_TRUE(a < b);
  EXPECT_TRUE(a == shade::half_t(1.5));
}

// ---- bf16_t ----
// Oracle: the two bf16 neighbours of f are its truncation and the next value up; pick the
// nearer in double arithmetic, ties to the even significand.
uint16_t Bf16Reference(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  const uint16_t down = static_cast<uint16_t>(u >> 16);
  const uint16_t up = static_cast<uint16_t>(down + 1);
  const double d = f;
  const double vd = shade::detail::Bf16BitsToFloat(down);
  const double vu = shade::detail::Bf16BitsToFloat(up);
  const double ed = std::fabs(d - vd), eu = std::fabs(vu - d);
  if ((u & 0xffffu) == 0) return down;
  if (ed < eu) return down;
  if (eu < ed) return up;
  return (down & 1) ? up : down;
}

TEST(Bf16, RoundsToNearestEven) {
  std::mt19937 rng(11);
  std::uniform_int_distribution<uint32_t> any;
  for (int i = 0; i < 200000; ++i) {
    uint32_t u = any(rng);
    if (i % 3 == 0) u = (u & 0xffff0000u) | 0x8000u;  // exact ties
    float f;
    std::memcpy(&f, &u, 4);
    if (!std::isfinite(f) || std::fabs(f) > 3.3e38f) continue;
    ASSERT_EQ(shade::bf16_t(f).bits_, Bf16Reference(f)) << std::hex << u;
  }
  // Truncation would give 1.0 for 1 + 2^-8 + 2^-9; nearest gives 1 + 2^-7.
  EXPECT_EQ(static_cast<float>(shade::bf16_t(1.0f + std::ldexp(1.0f, -8) + std::ldexp(1.0f, -9))),
            1.0f + std::ldexp(1.0f, -7));
  EXPECT_TRUE(std::isnan(static_cast<float>(shade::bf16_t(std::nanf("")))));
  EXPECT_TRUE(
      std::isinf(static_cast<float>(shade::bf16_t(std::numeric_limits<float>::infinity()))));
}

// Oracle for a double or a wide integer: the nearest of the bf16 values next to the float
// rounding, compared in exact arithmetic (long double holds every difference exactly here).
template <typename T>
uint16_t Bf16ReferenceWide(T v) {
  const float approx = static_cast<float>(v);
  uint32_t u;
  std::memcpy(&u, &approx, 4);
  const uint16_t mid = static_cast<uint16_t>(u >> 16);
  uint16_t best = mid;
  long double best_err = -1;
  for (int delta = -2; delta <= 2; ++delta) {
    const uint16_t cand = static_cast<uint16_t>(mid + delta);
    if (((cand ^ mid) & 0x8000u) != 0) continue;  // stay on the same sign
    const float cv = shade::detail::Bf16BitsToFloat(cand);
    if (!std::isfinite(cv)) continue;
    const long double err = std::fabs(static_cast<long double>(v) - static_cast<long double>(cv));
    if (best_err < 0 || err < best_err || (err == best_err && (cand & 1) == 0)) {
      best = cand;
      best_err = err;
    }
  }
  return best;
}

TEST(Bf16, RoundsFromDoubleAndWideIntegersOnce) {
  std::mt19937_64 rng(17);
  std::uniform_int_distribution<uint64_t> any;
  for (int i = 0; i < 200000; ++i) {
    uint64_t u = any(rng);
    u = (u & 0x800fffffffffffffull) | (uint64_t(1023 - 100 + u % 200) << 52);
    // Every other one: a bf16 tie plus or minus a far-away bit, where float would round to the tie.
    if (i & 1)
      u = (u & 0xfff0000000000000ull) | (u & 0x000fe00000000000ull) | 0x0000100000000000ull |
          ((u >> 9) & 1 ? 1ull : 0ull);
    double d;
    std::memcpy(&d, &u, 8);
    ASSERT_EQ(shade::bf16_t(d).bits_, Bf16ReferenceWide(d)) << "double bits " << std::hex << u;
    const int64_t iv = static_cast<int64_t>(any(rng)) >> (any(rng) % 63);
    ASSERT_EQ(shade::bf16_t(iv).bits_, Bf16ReferenceWide(iv)) << "int64 " << iv;
    const uint32_t uv = static_cast<uint32_t>(any(rng)) >> (any(rng) % 31);
    ASSERT_EQ(shade::bf16_t(uv).bits_, Bf16ReferenceWide(uv)) << "uint32 " << uv;
  }
  // 2^24 + 2^16 + 1: just above a bf16 tie; through float it becomes the tie and rounds down.
  EXPECT_EQ(static_cast<float>(shade::bf16_t(int32_t{(1 << 24) + (1 << 16) + 1})),
            static_cast<float>((1 << 24) + (1 << 17)));
  EXPECT_EQ(static_cast<float>(shade::bf16_t(1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40))),
            1.0f + std::ldexp(1.0f, -7));
  EXPECT_TRUE(std::isinf(static_cast<float>(shade::bf16_t(1e300))));
  EXPECT_TRUE(std::isnan(static_cast<float>(shade::bf16_t(std::nan("")))));
}

TEST(Bf16, EveryBitPatternRoundTrips) {
  for (uint32_t bits = 0; bits < 0x10000u; ++bits) {
    const shade::bf16_t h = shade::bf16_t::FromBits(static_cast<uint16_t>(bits));
    const float f = static_cast<float>(h);
    if (std::isnan(f)) continue;
    ASSERT_EQ(shade::bf16_t(f).bits_, bits);
  }
}

}  // namespace
