// Contiguous kernels: map with every saver and scalar operand position, ternary map, fill, copy,
// typecast; misaligned pointers and odd lengths; threaded results bit-identical to one thread.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "guarded_array.h"
#include "per_target_check.h"
#include "shade/backend/cpu/kernels.h"

namespace shade {
namespace {

namespace hn = packet::hn;

struct Mul {
  template <class T>
  static T Map(T a, T b) {
    return static_cast<T>(a * b);
  }
  template <class D, class V, SHADE_PACKET_IF(packet::kHasMul<hn::TFromD<D>>)>
  static V MapPacket(D d, V a, V b) {
    return packet::Mul(d, a, b);
  }
};
struct Tanh {
  static constexpr int kCost = 20;
  template <class T>
  static T Map(T a) {
    return std::tanh(a);
  }
  template <class D, class V, SHADE_PACKET_IF(packet::kIsFloat<hn::TFromD<D>>)>
  static V MapPacket(D d, V a) {
    return packet::Tanh(d, a);
  }
};
struct MulAdd {  // a * b + c, ternary
  template <class T>
  static T Map(T a, T b, T c) {
    return static_cast<T>(a * b + c);
  }
  template <class D, class V, SHADE_PACKET_IF(packet::kHasMul<hn::TFromD<D>>)>
  static V MapPacket(D, V a, V b, V c) {
    return hn::Add(hn::Mul(a, b), c);
  }
};
struct Identity {
  template <class T>
  static T Map(T a) {
    return a;
  }
  template <class D, class V>
  static V MapPacket(D, V a) {
    return a;
  }
};

template <class T>
std::vector<T> Random(index_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> dist(1, 9);
  std::vector<T> v(static_cast<size_t>(n));
  for (auto& x : v) x = static_cast<T>(dist(gen));
  return v;
}

const index_t kLengths[] = {0, 1, 3, 15, 16, 17, 33, 1003};

template <class SV, class T>
void CheckSaver() {
  for (index_t n : kLengths) {
    auto a = Random<T>(n + 1, 1), b = Random<T>(n + 1, 2), d0 = Random<T>(n + 1, 3);
    // Tensor-tensor, tensor-scalar, scalar-tensor, all with operands misaligned by one element.
    for (int form = 0; form < 3; ++form) {
      auto dst = d0;
      const T s = T(3);
      if (form == 0) kernel::MapBinary<SV, Mul>(n, dst.data() + 1, a.data() + 1, static_cast<const T*>(b.data() + 1));
      if (form == 1) kernel::MapBinary<SV, Mul>(n, dst.data() + 1, a.data() + 1, kernel::MakeScalar(s));
      if (form == 2) kernel::MapBinary<SV, Mul>(n, dst.data() + 1, kernel::MakeScalar(s), a.data() + 1);
      for (index_t i = 0; i < n; ++i) {
        const T x = a[i + 1];
        const T y = form == 0 ? b[i + 1] : s;
        T ref = d0[i + 1];
        SV::Save(ref, static_cast<T>(x * y));
        ASSERT_EQ(dst[i + 1], ref) << "n=" << n << " form=" << form << " i=" << i;
      }
      EXPECT_EQ(dst[0], d0[0]);
    }
  }
}

template <class T>
void CheckAllSavers() {
  CheckSaver<kernel::sv::saveto, T>();
  CheckSaver<kernel::sv::plusto, T>();
  CheckSaver<kernel::sv::minusto, T>();
  CheckSaver<kernel::sv::multo, T>();
  CheckSaver<kernel::sv::divto, T>();
}

// Every length 0..70 (around the 4/8/16-lane widths and their multiples), each operand and the
// destination ending exactly at an inaccessible page: the partial packet of the tail must read
// and write only the n elements (a masked load or store past them would fault). Compared with a
// naive loop for =, += and -=, array and scalar operands.
template <class SV, class T>
void CheckTailsEveryLength() {
  for (index_t n = 0; n <= 70; ++n) {
    shade_test::GuardedArray<T> a(static_cast<size_t>(n)), b(static_cast<size_t>(n)),
        dst(static_cast<size_t>(n));
    std::vector<T> ref(static_cast<size_t>(n));
    for (int form = 0; form < 2; ++form) {
      for (index_t i = 0; i < n; ++i) {
        a[i] = static_cast<T>(i % 11 + 1);
        b[i] = static_cast<T>(i % 7 + 2);
        dst[i] = static_cast<T>(i % 5);
        ref[i] = dst[i];
        SV::Save(ref[i], static_cast<T>(a[i] + (form == 0 ? b[i] : T(3))));
      }
      if (form == 0) {
        kernel::MapRun<SV, op::plus>(n, dst.data(), static_cast<const T*>(a.data()),
                                     static_cast<const T*>(b.data()));
      } else {
        kernel::MapRun<SV, op::plus>(n, dst.data(), static_cast<const T*>(a.data()), kernel::MakeScalar(T(3)));
      }
      for (index_t i = 0; i < n; ++i) ASSERT_EQ(dst[i], ref[i]) << "n=" << n << " form=" << form << " i=" << i;
    }
  }
}
template <class T>
void CheckTailsEveryLengthAllSavers() {
  CheckTailsEveryLength<kernel::sv::saveto, T>();
  CheckTailsEveryLength<kernel::sv::plusto, T>();
  CheckTailsEveryLength<kernel::sv::minusto, T>();
}
TEST(Kernels, TailsEveryLengthStayInside) {
  static_assert(packet::HasPacket<op::plus, std::int8_t>::value, "int8 add has packets");
  CheckTailsEveryLengthAllSavers<float>();
  CheckTailsEveryLengthAllSavers<double>();
  CheckTailsEveryLengthAllSavers<std::int32_t>();
  CheckTailsEveryLengthAllSavers<std::int8_t>();
  CheckTailsEveryLengthAllSavers<std::uint16_t>();
  CheckTailsEveryLengthAllSavers<std::int64_t>();
}

TEST(Kernels, SaversFloat) { CheckAllSavers<float>(); }
TEST(Kernels, SaversDouble) { CheckAllSavers<double>(); }
TEST(Kernels, SaversInt32) { CheckAllSavers<std::int32_t>(); }
TEST(Kernels, SaversInt8ScalarFallback) { CheckAllSavers<std::int8_t>(); }
TEST(Kernels, SaversUint64) { CheckAllSavers<std::uint64_t>(); }

TEST(Kernels, TernaryWithScalars) {
  for (index_t n : kLengths) {
    auto a = Random<float>(n, 4), b = Random<float>(n, 5), c = Random<float>(n, 6);
    std::vector<float> out(static_cast<size_t>(n));
    kernel::MapTernary<kernel::sv::saveto, MulAdd>(n, out.data(), static_cast<const float*>(a.data()),
                                            kernel::MakeScalar(2.0f), static_cast<const float*>(c.data()));
    for (index_t i = 0; i < n; ++i) ASSERT_EQ(out[i], a[i] * 2.0f + c[i]);
    kernel::MapTernary<kernel::sv::plusto, MulAdd>(n, out.data(), static_cast<const float*>(a.data()),
                                            static_cast<const float*>(b.data()), kernel::MakeScalar(1.0f));
    for (index_t i = 0; i < n; ++i) ASSERT_EQ(out[i], a[i] * 2.0f + c[i] + (a[i] * b[i] + 1.0f));
  }
}

TEST(Kernels, InPlace) {
  auto a = Random<float>(1003, 7);
  auto ref = a;
  kernel::MapBinary<kernel::sv::saveto, Mul>(1003, a.data(), static_cast<const float*>(a.data()),
                                       static_cast<const float*>(a.data()));
  for (size_t i = 0; i < a.size(); ++i) ASSERT_EQ(a[i], ref[i] * ref[i]);
}

// Elementwise results do not depend on the thread count: the tail is computed by the packet
// function too, so chunk boundaries do not change any value.
TEST(Kernels, ThreadedBitIdentical) {
  const index_t n = (index_t(1) << 17) + 7;
  std::mt19937 gen(11);
  std::uniform_real_distribution<float> dist(-5, 5);
  std::vector<float> x(static_cast<size_t>(n));
  for (auto& v : x) v = dist(gen);
  std::vector<float> one(static_cast<size_t>(n)), two(static_cast<size_t>(n));
  const int saved = GetNumThreads();
  SetNumThreads(1);
  kernel::MapUnary<kernel::sv::saveto, Tanh>(n - 1, one.data() + 1, static_cast<const float*>(x.data() + 1));
  SetNumThreads(2);
  kernel::MapUnary<kernel::sv::saveto, Tanh>(n - 1, two.data() + 1, static_cast<const float*>(x.data() + 1));
  SetNumThreads(saved);
  EXPECT_EQ(0, std::memcmp(one.data(), two.data(), one.size() * sizeof(float)));
  EXPECT_EQ((kernel::MapGrain<Tanh, float>()), kernel::kMathGrain);
  EXPECT_EQ((kernel::MapGrain<Mul, float>()), kernel::kMapGrain);
}

TEST(Kernels, FillCopy) {
  for (index_t n : {index_t(0), index_t(1), index_t(17), index_t(1) << 17}) {
    std::vector<double> a(static_cast<size_t>(n + 1), -1.0), b(static_cast<size_t>(n + 1), -2.0);
    kernel::Fill<double>(n, a.data() + 1, 4.5);
    for (index_t i = 1; i <= n; ++i) ASSERT_EQ(a[i], 4.5);
    EXPECT_EQ(a[0], -1.0);
    kernel::Copy<double>(n, b.data(), a.data() + 1);
    for (index_t i = 0; i < n; ++i) ASSERT_EQ(b[i], 4.5);
    EXPECT_EQ(b[n], -2.0);
  }
}

TEST(Kernels, Cast) {
  const index_t n = 1003;
  std::vector<float> f(n);
  for (index_t i = 0; i < n; ++i) f[i] = static_cast<float>(i) * 0.75f - 300.0f;
  std::vector<std::int32_t> i32(n);
  kernel::Cast(n, i32.data(), f.data());
  for (index_t i = 0; i < n; ++i) ASSERT_EQ(i32[i], static_cast<std::int32_t>(f[i]));
  std::vector<double> d(n);
  kernel::Cast(n, d.data(), i32.data());
  for (index_t i = 0; i < n; ++i) ASSERT_EQ(d[i], static_cast<double>(i32[i]));
  std::vector<half_t> h(n);
  kernel::Cast(n, h.data(), f.data());
  std::vector<float> back(n);
  kernel::Cast(n, back.data(), h.data());
  for (index_t i = 0; i < n; ++i) ASSERT_NEAR(back[i], f[i], std::fabs(f[i]) * 1e-3 + 1e-3);
  std::vector<bf16_t> bf(n);
  kernel::Cast(n, bf.data(), h.data());  // half -> bf16 through float
  for (index_t i = 0; i < n; ++i) ASSERT_NEAR(static_cast<float>(bf[i]), f[i], std::fabs(f[i]) * 1e-2 + 1e-2);
  std::vector<std::uint8_t> u8(n);
  kernel::Cast(n, u8.data(), i32.data());  // integer narrowing wraps modulo 256
  for (index_t i = 0; i < n; ++i) ASSERT_EQ(u8[i], static_cast<std::uint8_t>(i32[i]));
  kernel::Cast<float, float>(0, nullptr, nullptr);
}

// Transpose of every element type the register path takes (4 and 8 bytes) and some it does
// not (1 and 2 bytes), at sizes that are and are not multiples of the 16x16 / 8x8 squares and
// the 64-row outer tiles, with padded and dense pitches, at 1 and 2 threads.
template <class T>
void CheckTranspose(index_t rows, index_t cols, index_t pad_s, index_t pad_d) {
  const index_t lds = cols + pad_s, ldd = rows + pad_d;
  std::vector<T> src(static_cast<size_t>(rows * lds));
  for (size_t k = 0; k < src.size(); ++k)
    src[k] = static_cast<T>(static_cast<int>(k * 7 + 1) % 127);
  for (int threads : {1, 2}) {
    const int saved = GetNumThreads();
    SetNumThreads(threads);
    std::vector<T> dst(static_cast<size_t>(cols * ldd), static_cast<T>(-1));
    kernel::Transpose(rows, cols, src.data(), lds, dst.data(), ldd);
    SetNumThreads(saved);
    for (index_t j = 0; j < cols; ++j) {
      for (index_t i = 0; i < ldd; ++i) {
        const T want = i < rows ? src[static_cast<size_t>(i * lds + j)] : static_cast<T>(-1);
        ASSERT_EQ(0, std::memcmp(&dst[static_cast<size_t>(j * ldd + i)], &want, sizeof(T)))
            << rows << "x" << cols << " pads " << pad_s << "," << pad_d << " at " << i << "," << j
            << " threads " << threads;
      }
    }
  }
}

TEST(Kernels, Transpose) {
  for (auto rc : std::vector<std::pair<index_t, index_t>>{{0, 5},
                                                          {5, 0},
                                                          {1, 1},
                                                          {31, 33},
                                                          {64, 96},
                                                          {100, 7},
                                                          {16, 16},
                                                          {17, 15},
                                                          {8, 8},
                                                          {130, 257},
                                                          {257, 300},
                                                          {64, 1030},
                                                          {200, 64}}) {
    for (auto pads : std::vector<std::pair<index_t, index_t>>{{0, 0}, {3, 2}, {16, 0}}) {
      CheckTranspose<float>(rc.first, rc.second, pads.first, pads.second);
      CheckTranspose<double>(rc.first, rc.second, pads.first, pads.second);
      CheckTranspose<std::int32_t>(rc.first, rc.second, pads.first, pads.second);
      CheckTranspose<std::int64_t>(rc.first, rc.second, pads.first, pads.second);
      CheckTranspose<std::uint8_t>(rc.first, rc.second, pads.first, pads.second);
      CheckTranspose<std::int16_t>(rc.first, rc.second, pads.first, pads.second);
    }
  }
  // TransposeRun over a row range leaves the other rows' columns alone.
  std::vector<float> src(40 * 50), dst(50 * 40, -1.f);
  for (size_t k = 0; k < src.size(); ++k) src[k] = static_cast<float>(k);
  kernel::TransposeRun(5, 37, 50, src.data(), 50, dst.data(), 40);
  for (index_t j = 0; j < 50; ++j) {
    for (index_t i = 0; i < 40; ++i) {
      ASSERT_EQ(dst[j * 40 + i], i >= 5 && i < 37 ? src[i * 50 + j] : -1.f) << i << "," << j;
    }
  }
  float x = 0;
  EXPECT_THROW(kernel::Transpose(2, 3, &x, 2, &x, 2), Error);
  EXPECT_THROW(kernel::Transpose(2, 3, &x, 3, &x, 1), Error);
  EXPECT_THROW(kernel::Transpose(-2, 3, &x, 3, &x, 1), Error);
}

// Outputs of kTransposeStreamBytes and more with 64-byte aligned rows take the non-temporal
// store path; unaligned ones (offset by one element) the ordinary one. Both exact.
TEST(Kernels, TransposeLargeStreamed) {
  const index_t rows = 1504, cols = 1400;  // 8.4 MB of floats, ldd * 4 a multiple of 64
  ASSERT_GE(rows * cols * index_t(sizeof(float)), kernel::kTransposeStreamBytes);
  const size_t n = static_cast<size_t>(rows * cols);
  float* src = static_cast<float*>(std::aligned_alloc(64, n * sizeof(float)));
  float* dst = static_cast<float*>(std::aligned_alloc(64, (n + 16) * sizeof(float)));
  for (size_t k = 0; k < n; ++k) src[k] = static_cast<float>(k % 100003);
  for (float* out : {dst, dst + 1}) {
    kernel::Transpose(rows, cols, static_cast<const float*>(src), cols, out, rows);
    for (index_t j = 0; j < cols; ++j) {
      for (index_t i = 0; i < rows; ++i) {
        ASSERT_EQ(out[j * rows + i], src[i * cols + j]) << i << "," << j;
      }
    }
  }
  std::free(src);
  std::free(dst);
}

TEST(Kernels, NegativeCountThrows) {
  float x = 0;
  auto expect_msg = [](auto fn, const char* what) {
    try {
      fn();
      ADD_FAILURE() << "no throw for " << what;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("-1"), std::string::npos) << e.what();
    }
  };
  expect_msg([&] { kernel::MapUnary<kernel::sv::saveto, Identity>(-1, &x, static_cast<const float*>(&x)); }, "Map");
  expect_msg([&] { kernel::Fill<float>(-1, &x, 1.f); }, "Fill");
  expect_msg([&] { kernel::Copy<float>(-1, &x, &x); }, "Copy");
  expect_msg([&] { kernel::Cast<float, float>(-1, &x, &x); }, "Cast");
}

}  // namespace
}  // namespace shade
