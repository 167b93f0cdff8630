// mshadow's base.h, half.h/half2.h, tensor.h/tensor_cpu-inl.h and io.h names, compared with
// mshadow itself: tests/compat/mshadow_probe.h runs the same code that printed
// tests/data/compat/mshadow_probe.txt and wrote tests/data/compat/mshadow_savebinary.bin when
// built against dmlc/mshadow; here it is built against shade's compat header and must print and
// write the same. The other tests cover what that program cannot (mshadow aborts where shade
// throws) and shade's deliberate differences.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "shade/compat/mshadow.h"
// The probe after the mshadow header, as it is built against mshadow.
#include "compat/mshadow_probe.h"

namespace {

const std::string kData = std::string(SHADE_TEST_DATA_DIR) + "/compat/";

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << path;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(CompatMshadowProbe, PrintsWhatMshadowPrinted) {
  std::ostringstream os;
  const std::string bytes = mshadow_probe::Run(os);
  const std::vector<std::string> got = Lines(os.str());
  const std::vector<std::string> want = Lines(ReadFile(kData + "mshadow_probe.txt"));
  ASSERT_EQ(got.size(), want.size()) << os.str();
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_EQ(got[i], want[i]) << "line " << i + 1;
  // SaveBinary's bytes, byte for byte (32-bit extents, unpadded rows).
  EXPECT_EQ(bytes, ReadFile(kData + "mshadow_savebinary.bin"));
}

// Issue 17's part of the probe: half_t's mixed arithmetic, the reducers' initial values and
// Random's numbers, as mshadow printed them (tests/data/compat/mshadow_probe_more.txt).
TEST(CompatMshadowProbe, HalfReducersRandomPrintWhatMshadowPrinted) {
  std::ostringstream os;
  mshadow_probe::RunMore(os);
  const std::vector<std::string> got = Lines(os.str());
  const std::vector<std::string> want = Lines(ReadFile(kData + "mshadow_probe_more.txt"));
  ASSERT_EQ(got.size(), want.size()) << os.str();
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_EQ(got[i], want[i]) << "line " << i + 1;
}

// mshadow's operator templates: the result types, for every operand type the probe cannot list.
template <typename T>
void ExpectHalfMixes() {
  using mshadow::half::half_t;
  half_t h(2.5f);
  const T v = T(2);
  static_assert(std::is_same<decltype(h + v), half_t>::value, "");
  static_assert(std::is_same<decltype(v - h), half_t>::value, "");
  static_assert(std::is_same<decltype(h * v), half_t>::value, "");
  static_assert(std::is_same<decltype(v / h), half_t>::value, "");
  static_assert(std::is_same<decltype(h < v), bool>::value, "");
  static_assert(std::is_same<decltype(v >= h), bool>::value, "");
  static_assert(std::is_same<decltype(h == v), bool>::value, "");
  static_assert(std::is_same<decltype(h += v), half_t>::value, "");
  EXPECT_EQ(float(h + v), 4.5f);
  EXPECT_EQ(float(v - h), -0.5f);
  EXPECT_EQ(float(h * v), 5.0f);
  EXPECT_EQ(float(v / h), 0.8f == float(half_t(0.8f)) ? 0.8f : float(half_t(0.8f)));
  EXPECT_TRUE(v < h);
}

TEST(CompatMshadowProbe, HalfOperatorTemplates) {
  using mshadow::half::half_t;
  ExpectHalfMixes<float>();
  ExpectHalfMixes<double>();
  ExpectHalfMixes<int>();
  ExpectHalfMixes<std::int64_t>();
  ExpectHalfMixes<std::uint8_t>();
  static_assert(std::is_same<decltype(half_t() + half_t()), half_t>::value, "");
  const half_t c(1.0f);
  static_assert(std::is_same<decltype(-c), float>::value, "const: the built-in minus of float");
  half_t m(1.0f);
  static_assert(std::is_same<decltype(-m), half_t>::value, "");
  // Rounded once to half: 1 + 2^-12 is not a half, 1 + 2^-10 is.
  EXPECT_EQ((half_t(1.0f) + 0x1p-12f).half_, 0x3c00);
  EXPECT_EQ((half_t(1.0f) + 0x1p-10f).half_, 0x3c01);
  // shade's own half_t keeps NumPy's promotion: half with float gives float.
  static_assert(std::is_same<decltype(shade::half_t(1.0f) + 1.0f), float>::value, "");
  EXPECT_EQ(shade::half_t(1.0f) + 0x1p-12f, 1.0f + 0x1p-12f);
  // MXNet's bfloat.h operators: bf16_t with bf16_t gives bf16_t, with float or an integer
  // float, with double double (computed in that type): shade's bf16_t already does that.
  using mshadow::bfloat::bf16_t;
  static_assert(std::is_same<decltype(bf16_t(1.0f) + bf16_t(2.0f)), bf16_t>::value, "");
  static_assert(std::is_same<decltype(bf16_t(1.0f) * 2.0f), float>::value, "");
  static_assert(std::is_same<decltype(2.0 - bf16_t(1.0f)), double>::value, "");
  static_assert(std::is_same<decltype(bf16_t(1.0f) / std::int64_t{3}), float>::value, "");
  static_assert(std::is_same<decltype(std::uint8_t{3} < bf16_t(1.0f)), bool>::value, "");
  EXPECT_EQ(bf16_t(1.0f) + 0x1p-12f, 1.0f + 0x1p-12f);
  EXPECT_EQ(2.0 - bf16_t(1.0f), 1.0);
  // The two types convert bit for bit, and mshadow's half_t tensors carry the float16 flag.
  EXPECT_EQ(shade::half_t(half_t(0.1f)).bits_, half_t(0.1f).half_);
  EXPECT_EQ(mshadow::DataType<half_t>::kFlag, mshadow::kFloat16);
  mshadow::TensorContainer<mshadow::cpu, 1, half_t> t(mshadow::Shape1(3), half_t(0.5f));
  t = t * t + t;  // the expression engine with mshadow's half_t
  EXPECT_EQ(float(t[2]), 0.75f);
  mshadow::TBlob blob(t);
  EXPECT_EQ(blob.type_flag_, mshadow::kFloat16);
  EXPECT_EQ(float((blob.get<mshadow::cpu, 1, half_t>()[1])), 0.75f);
}

TEST(CompatMshadowProbe, LoadsMshadowsFile) {
  mshadow_probe::StringStream in;
  in.bytes = ReadFile(kData + "mshadow_savebinary.bin");
  mshadow::TensorContainer<mshadow::cpu, 3, float> f;
  mshadow::LoadBinary(in, &f);
  ASSERT_EQ(f.shape_, mshadow::Shape3(2, 3, 5));
  for (mshadow::index_t i = 0; i < 2; ++i)
    for (mshadow::index_t j = 0; j < 3; ++j)
      for (mshadow::index_t k = 0; k < 5; ++k)
        EXPECT_EQ(f[i][j][k], float(i * 100 + j * 10 + k) + 0.5f);
  // A truncated copy is refused (mshadow only checks that some bytes came).
  mshadow_probe::StringStream cut;
  cut.bytes = in.bytes.substr(0, 40);
  mshadow::Tensor<mshadow::cpu, 3, float> t;
  EXPECT_THROW(mshadow::LoadBinary(cut, &t, false), mshadow::Error);
  // An extent beyond mshadow's 32-bit index_t cannot be written in its format.
  mshadow::Tensor<mshadow::cpu, 2, float> huge(nullptr,
                                               mshadow::Shape2(mshadow::index_t{1} << 32, 0));
  mshadow_probe::StringStream out;
  EXPECT_THROW(mshadow::SaveBinary(out, huge), mshadow::Error);
}

int FirstFlagOrMinus(int flag) {
  // `return` inside the body leaves this function: the switches are real switch statements.
  MSHADOW_TYPE_SWITCH(flag, DType, { return static_cast<int>(sizeof(DType)); });
  return -1;
}

TEST(CompatMshadowProbe, SwitchesAbortCasesThrow) {
  EXPECT_EQ(FirstFlagOrMinus(mshadow::kFloat64), 8);
  EXPECT_THROW(FirstFlagOrMinus(mshadow::kBool), mshadow::Error);  // not one of mshadow's seven
  EXPECT_THROW(mshadow::mshadow_sizeof(7), mshadow::Error);
  int seen = 0;
  EXPECT_THROW(MSHADOW_TYPE_SWITCH_WITH_HALF2(mshadow::kInt8, DType, { seen = sizeof(DType); }),
               mshadow::Error);
  try {
    MSHADOW_REAL_TYPE_SWITCH(mshadow::kInt32, DType, { seen = sizeof(DType); });
    ADD_FAILURE();
  } catch (const mshadow::Error& e) {
    EXPECT_NE(std::string(e.what()).find("floating point types, not int32"), std::string::npos);
  }
  try {
    MSHADOW_REAL_TYPE_SWITCH_EX(mshadow::kUint8, DType, DLarge,
                                { seen = sizeof(DType) + sizeof(DLarge); });
    ADD_FAILURE();
  } catch (const mshadow::Error& e) {
    EXPECT_NE(std::string(e.what()).find("floating point types not uint8"), std::string::npos);
  }
  EXPECT_THROW(MSHADOW_SGL_DBL_TYPE_SWITCH(mshadow::kFloat16, DType, { seen = sizeof(DType); }),
               mshadow::Error);
  EXPECT_THROW(MSHADOW_LAYOUT_SWITCH(mshadow::kCHWN, Layout, { seen = Layout; }), mshadow::Error);
  EXPECT_THROW(MSHADOW_IDX_TYPE_SWITCH(mshadow::kInt32, IType, { seen = sizeof(IType); }),
               mshadow::Error);
  EXPECT_EQ(seen, 0);
}

TEST(CompatMshadowProbe, HalfBitsMembersAndMacros) {
  // half_ (and bf16_) are the raw bits; writing them changes the value.
  mshadow::half::half_t h(1.0f);
  EXPECT_EQ(h.half_, 0x3c00);
  h.half_ = 0xc000;
  EXPECT_EQ(static_cast<float>(h), -2.0f);
  mshadow::bfloat::bf16_t b(1.0f);
  EXPECT_EQ(b.bf16_, 0x3f80);
  b.bf16_ = 0x4040;
  EXPECT_EQ(static_cast<float>(b), 3.0f);
  // MXNet's bfloat.h macros (its copy of mshadow; dmlc/mshadow has no bfloat.h).
  const mshadow::bfloat::bf16_t bmin = MSHADOW_BF16_MIN const mshadow::bfloat::bf16_t bmax =
      MSHADOW_BF16_MAX EXPECT_EQ(static_cast<float>(bmax), 3.38953139e38f);
  EXPECT_EQ(static_cast<float>(bmin), -3.38953139e38f);
  EXPECT_EQ(bmin.bf16_ & MSHADOW_BF16_SIGN_BIT, 0x8000);
  EXPECT_EQ(bmax.bf16_ & MSHADOW_BF16_EXPONENT_BITS, 0x7f00);
  // Every half bit pattern: the member reads the bits Binary stored and converts exactly.
  for (unsigned bits = 0; bits < 0x10000u; ++bits) {
    const mshadow::half::half_t v = mshadow::half::half_t::Binary(static_cast<std::uint16_t>(bits));
    ASSERT_EQ(v.half_, bits);
    if (!std::isnan(static_cast<float>(v))) {
      ASSERT_EQ(mshadow::half::half_t(static_cast<float>(v)).half_, bits);
    }
  }
  static_assert(MSHADOW_USE_CUDA == 0 && MSHADOW_USE_SSE == 0 && MSHADOW_IN_CXX11 == 1, "");
  static_assert(MSHADOW_STAND_ALONE == 1 && MSHADOW_ALLOC_PAD == true && MSHADOW_MIN_PAD_RATIO == 2,
                "");
  static_assert(std::is_same<mshadow::openmp_index_t, mshadow::index_t>::value, "");
  struct MSHADOW_ALIGNED(16) Aligned {
    char c;
  };
  static_assert(alignof(Aligned) == 16, "");
  MSHADOW_CONSTEXPR int kSeven = 7;
  static_assert(kSeven == 7, "");
  // AllocHost / FreeHost: a second FreeHost is mshadow's "double free", here a throw.
  mshadow::Tensor<mshadow::cpu, 1, float> t(mshadow::Shape1(4));
  mshadow::AllocHost<mshadow::cpu>(&t);
  t[3] = 1.0f;
  mshadow::FreeHost<mshadow::cpu>(&t);
  EXPECT_THROW(mshadow::FreeHost<mshadow::cpu>(&t), mshadow::Error);
  // MapReduceKeepLowest over an empty reduction, and a length mismatch.
  mshadow::TensorContainer<mshadow::cpu, 2, float> empty(mshadow::Shape2(0, 3));
  mshadow::TensorContainer<mshadow::cpu, 1, float> out3(mshadow::Shape1(3)),
      out2(mshadow::Shape1(2));
  EXPECT_THROW((mshadow::MapReduceKeepLowest<mshadow::sv::saveto, mshadow::red::sum>(&out3, empty)),
               mshadow::Error);
  mshadow::TensorContainer<mshadow::cpu, 2, float> full(mshadow::Shape2(2, 3), 1.0f);
  EXPECT_THROW((mshadow::MapReduceKeepLowest<mshadow::sv::saveto, mshadow::red::sum>(&out2, full)),
               mshadow::Error);
  EXPECT_THROW(
      (mshadow::MapReduceKeepHighDim<mshadow::sv::saveto, mshadow::red::sum, 0>(&out3, full)),
      mshadow::Error);
  // KeepHighDim has no emptiness check in mshadow: an empty reduction gives the initial value.
  mshadow::TensorContainer<mshadow::cpu, 3, float> none(mshadow::Shape3(0, 3, 2));
  out3 = 5.0f;
  mshadow::MapReduceKeepHighDim<mshadow::sv::plusto, mshadow::red::sum, 1>(&out3, none);
  EXPECT_EQ(out3[2], 5.0f);
  // Keeping the last dimension (mshadow reads past the rows there) reduces over the rows,
  // against a reference loop over a padded source.
  mshadow::TensorContainer<mshadow::cpu, 3, float> src(mshadow::Shape3(2, 4, 3));
  for (mshadow::index_t i = 0; i < 2; ++i)
    for (mshadow::index_t j = 0; j < 4; ++j)
      for (mshadow::index_t k = 0; k < 3; ++k) src[i][j][k] = float((i * 5 + j * 3 + k * 7) % 11);
  mshadow::MapReduceKeepHighDim<mshadow::sv::saveto, mshadow::red::maximum, 2>(&out3, src, 2.0f);
  for (mshadow::index_t k = 0; k < 3; ++k) {
    float want = -1.0f;
    for (mshadow::index_t i = 0; i < 2; ++i)
      for (mshadow::index_t j = 0; j < 4; ++j) want = std::max(want, src[i][j][k]);
    EXPECT_EQ(out3[k], 2.0f * want) << k;
  }
}

// The configuration macros describe shade's build; the helper and logging macros expand.
TEST(CompatMshadowProbe, ConfigurationAndLoggingMacros) {
  static_assert(MSHADOW_USE_CBLAS == 1 && MSHADOW_USE_MKL == 0 && MSHADOW_USE_CUDNN == 0 &&
                    MSHADOW_USE_CUSOLVER == 0 && MSHADOW_OLD_CUDA == 0 && MSHADOW_USE_F16C == 0 &&
                    MSHADOW_USE_NVML == 0 && MSHADOW_USE_GLOG == 0 && MSHADOW_FORCE_STREAM == 1 &&
                    MSHADOW_HALF_ROUND_TO_NEAREST == 1 && MSHADOW_CUDA_HALF == 0 &&
                    MSHADOW_CUDA_HALF2 == 0,
                "");
#if !defined(NOMINMAX) || !defined(_CRT_SECURE_NO_WARNINGS) || !defined(_CRT_SECURE_NO_DEPRECATE)
  ADD_FAILURE() << "mshadow's Windows macros are missing";
#endif
  struct Thrower {
    ~Thrower() MSHADOW_THROW_EXCEPTION {}
    static int Quiet() MSHADOW_NO_EXCEPTION { return 1; }
  };
  static_assert(noexcept(Thrower::Quiet()), "");
  struct Inlined {
    static MSHADOW_FORCE_INLINE int One() { return 1; }
    static MSHADOW_CINLINE int Two() { return 2; }
    static MSHADOW_XINLINE int Three() { return 3; }
  };
  EXPECT_EQ(Inlined::One() + Inlined::Two() + Inlined::Three(), 6);
  // The remaining CHECK / DCHECK / LOG forms: those that pass or are off stay silent.
  CHECK_GE(2, 2) << "silent";
  CHECK_GT(3, 2);
  CHECK_LE(2, 2);
  CHECK_NE(1, 2);
#ifdef NDEBUG
  DCHECK(false) << "compiled out";
  DCHECK_EQ(1, 2);
  DCHECK_NE(1, 1);
  DCHECK_LT(2, 1);
  DCHECK_LE(2, 1);
  DCHECK_GT(1, 2);
  DCHECK_GE(1, 2);
  DLOG(FATAL) << "compiled out";
  DLOG_IF(FATAL, true) << "compiled out";
  EXPECT_NO_THROW(LOG_DFATAL.stream() << "an ERROR line under NDEBUG");
  LOG(DFATAL) << "an ERROR line under NDEBUG";
#else
  EXPECT_THROW(DCHECK(false), mshadow::Error);
  EXPECT_THROW(DCHECK_EQ(1, 2), mshadow::Error);
  EXPECT_THROW(DLOG(FATAL) << "x", mshadow::Error);
#endif
  DCHECK_EQ(1, 1);
  DCHECK_GE(2, 1);
  VLOG(1) << "a verbose line";
  LOG_EVERY_N(INFO, 10) << "every line is logged";
  EXPECT_THROW(LOG_FATAL.stream() << "fatal", mshadow::Error);
  EXPECT_THROW(LOG(QFATAL) << "fatal", mshadow::Error);
  LOG_INFO.stream() << "info";
  LOG_WARNING.stream() << "warning";
  LOG_ERROR.stream() << "error";
  // AllocHost_ / FreeHost_ are the raw allocators behind AllocHost / FreeHost.
  void* raw = mshadow::AllocHost_<mshadow::cpu>(64);
  ASSERT_NE(raw, nullptr);
  mshadow::FreeHost_<mshadow::cpu>(raw);
  EXPECT_EQ(mshadow::AllocHost_<mshadow::cpu>(0), nullptr);
}

}  // namespace
