// Packet ops against the scalar path: every op over lengths around the vector width, misaligned
// pointers and 0 size; transcendental packets within 4 ulp of the C library over wide ranges.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "per_target_check.h"
#include "shade/backend/cpu/kernels.h"
#include "shade/packet/packet.h"

namespace shade {
namespace {

namespace hn = packet::hn;

// Test functors following the packet protocol of packet.h (the scalar Map is the reference).
#define SHADE_TEST_UNARY_(Name, cond, scalar, pfn)                           \
  struct Name {                                                              \
    template <class T>                                                       \
    static T Map(T a) {                                                      \
      return static_cast<T>(scalar);                                         \
    }                                                                        \
    template <class D, class V, SHADE_PACKET_IF(cond<hn::TFromD<D>>)>        \
    static V MapPacket(D d, V a) {                                           \
      return packet::pfn(d, a);                                              \
    }                                                                        \
  };
#define SHADE_TEST_BINARY_(Name, cond, scalar, pfn)                          \
  struct Name {                                                              \
    template <class T>                                                       \
    static T Map(T a, T b) {                                                 \
      return static_cast<T>(scalar);                                         \
    }                                                                        \
    template <class D, class V, SHADE_PACKET_IF(cond<hn::TFromD<D>>)>        \
    static V MapPacket(D d, V a, V b) {                                      \
      return packet::pfn(d, a, b);                                           \
    }                                                                        \
  };
template <class T>
constexpr bool kAny = packet::kIsLane<T>;

SHADE_TEST_BINARY_(AddOp, kAny, a + b, Add)
SHADE_TEST_BINARY_(SubOp, kAny, a - b, Sub)
SHADE_TEST_BINARY_(MulOp, packet::kHasMul, a * b, Mul)
SHADE_TEST_BINARY_(DivOp, packet::kIsFloat, a / b, Div)
SHADE_TEST_BINARY_(MinOp, kAny, (b < a ? b : a), Min)
SHADE_TEST_BINARY_(MaxOp, kAny, (a < b ? b : a), Max)
SHADE_TEST_UNARY_(NegOp, packet::kIsSignedLane, -a, Neg)
SHADE_TEST_UNARY_(AbsOp, packet::kIsSignedLane, (a < 0 ? -a : a), Abs)
SHADE_TEST_UNARY_(SquareOp, packet::kHasMul, a * a, Square)
SHADE_TEST_UNARY_(ReluOp, kAny, (a > T(0) ? a : T(0)), Relu)
SHADE_TEST_UNARY_(SignOp, packet::kIsSignedLane, (a > T(0)) - (a < T(0)), Sign)
SHADE_TEST_UNARY_(SqrtOp, packet::kIsFloat, std::sqrt(a), Sqrt)
SHADE_TEST_UNARY_(RsqrtOp, packet::kIsFloat, T(1) / std::sqrt(a), Rsqrt)
SHADE_TEST_UNARY_(ExpOp, packet::kIsFloat, std::exp(a), Exp)
SHADE_TEST_UNARY_(LogOp, packet::kIsFloat, std::log(a), Log)
SHADE_TEST_UNARY_(Log1pOp, packet::kIsFloat, std::log1p(a), Log1p)
SHADE_TEST_UNARY_(Log2Op, packet::kIsFloat, std::log2(a), Log2)
SHADE_TEST_UNARY_(Log10Op, packet::kIsFloat, std::log10(a), Log10)
SHADE_TEST_UNARY_(Expm1Op, packet::kIsFloat, std::expm1(a), Expm1)
SHADE_TEST_UNARY_(TanhOp, packet::kIsFloat, std::tanh(a), Tanh)
SHADE_TEST_UNARY_(SigmoidOp, packet::kIsFloat, T(1) / (T(1) + std::exp(-a)), Sigmoid)

struct ScalarOnly {  // no packet form: the kernels must fall back to Map
  template <class T>
  static T Map(T a) {
    return static_cast<T>(a + a);
  }
};

static_assert(packet::HasPacket<AddOp, float>::value, "Add has a float packet");
static_assert(packet::HasPacket<AddOp, std::int64_t>::value, "Add has an int64 packet");
static_assert(!packet::HasPacket<DivOp, std::int32_t>::value, "no integer vector division");
static_assert(!packet::HasPacket<MulOp, std::int8_t>::value, "no int8 vector multiply");
static_assert(!packet::HasPacket<AddOp, half_t>::value, "half has no packet");
static_assert(!packet::HasPacket<ScalarOnly, float>::value, "scalar-only functor");
static_assert(packet::kHasPacketArity<ExpOp, double, 1> && !packet::kHasPacketArity<ExpOp, double, 2>,
              "arity detection");

// Distance in units in the last place between two floats (0 when both NaN or equal infinities).
template <class T>
std::int64_t UlpDistance(T a, T b) {
  if (std::isnan(a) || std::isnan(b)) return (std::isnan(a) && std::isnan(b)) ? 0 : INT64_MAX;
  if (a == b) return 0;
  if (std::isinf(a) || std::isinf(b)) return INT64_MAX;
  using I = std::conditional_t<sizeof(T) == 4, std::int32_t, std::int64_t>;
  I ia, ib;
  std::memcpy(&ia, &a, sizeof(T));
  std::memcpy(&ib, &b, sizeof(T));
  // Map sign-magnitude to a monotone integer line.
  const std::int64_t la = ia < 0 ? std::int64_t(std::numeric_limits<I>::min()) - ia : ia;
  const std::int64_t lb = ib < 0 ? std::int64_t(std::numeric_limits<I>::min()) - ib : ib;
  return la > lb ? la - lb : lb - la;
}

std::vector<index_t> TestLengths() {
  const index_t w = static_cast<index_t>(packet::Lanes<std::int8_t>());  // widest lane count
  const index_t wf = static_cast<index_t>(packet::Lanes<float>());
  return {0, 1, 2, wf - 1, wf, wf + 1, 3 * wf + 2, w - 1, w + 1, 1000 + 3};
}

template <class T>
std::vector<T> RandomValues(index_t n, double lo, double hi, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(lo, hi);
  std::vector<T> v(static_cast<size_t>(n));
  for (auto& x : v) x = static_cast<T>(dist(gen));
  return v;
}

// Runs OP through MapRun (packet body + packet tail) on operands offset by one element from
// their allocation and compares with the scalar Map within max_ulp (0 = bit-exact).
template <class OP, class T, int kArity>
void CheckOp(double lo, double hi, std::int64_t max_ulp) {
  for (index_t n : TestLengths()) {
    for (index_t off : {0, 1}) {
      auto a = RandomValues<T>(n + 1, lo, hi, 1u + static_cast<unsigned>(n));
      auto b = RandomValues<T>(n + 1, lo, hi, 7u + static_cast<unsigned>(n));
      if constexpr (std::is_integral<T>::value) {
        for (auto& x : b) {
          if (x == 0) x = 1;
        }
      }
      std::vector<T> out(static_cast<size_t>(n + 2), T(-7));
      if constexpr (kArity == 1) {
        kernel::MapRun<kernel::sv::saveto, OP>(n, out.data() + off, a.data() + off);
      } else {
        kernel::MapRun<kernel::sv::saveto, OP>(n, out.data() + off, a.data() + off, b.data() + off);
      }
      for (index_t i = 0; i < n; ++i) {
        T ref;
        if constexpr (kArity == 1) {
          ref = OP::Map(a[i + off]);
        } else {
          ref = OP::Map(a[i + off], b[i + off]);
        }
        const T got = out[i + off];
        if constexpr (std::is_floating_point<T>::value) {
          ASSERT_LE(UlpDistance(got, ref), max_ulp)
              << "n=" << n << " off=" << off << " i=" << i << " a=" << a[i + off] << " got=" << got
              << " ref=" << ref;
        } else {
          ASSERT_EQ(got, ref) << "n=" << n << " off=" << off << " i=" << i;
        }
      }
      // Elements outside [off, off + n) untouched.
      if (off == 1) {
        EXPECT_EQ(out[0], T(-7));
      }
      EXPECT_EQ(out[n + off], T(-7)) << "n=" << n;
    }
  }
}

template <class T>
void CheckExactFloat() {
  CheckOp<AddOp, T, 2>(-100, 100, 0);
  CheckOp<SubOp, T, 2>(-100, 100, 0);
  CheckOp<MulOp, T, 2>(-100, 100, 0);
  CheckOp<DivOp, T, 2>(-100, 100, 0);
  CheckOp<MinOp, T, 2>(-100, 100, 0);
  CheckOp<MaxOp, T, 2>(-100, 100, 0);
  CheckOp<NegOp, T, 1>(-100, 100, 0);
  CheckOp<AbsOp, T, 1>(-100, 100, 0);
  CheckOp<SquareOp, T, 1>(-100, 100, 0);
  CheckOp<ReluOp, T, 1>(-100, 100, 0);
  CheckOp<SignOp, T, 1>(-100, 100, 0);
  CheckOp<SqrtOp, T, 1>(0, 1e6, 0);
  CheckOp<RsqrtOp, T, 1>(1e-6, 1e6, 0);
}

TEST(Packet, ExactOpsFloat) { CheckExactFloat<float>(); }
TEST(Packet, ExactOpsDouble) { CheckExactFloat<double>(); }

template <class T>
void CheckIntegers(double lo, double hi) {
  CheckOp<AddOp, T, 2>(lo, hi, 0);
  CheckOp<SubOp, T, 2>(lo, hi, 0);
  CheckOp<MinOp, T, 2>(lo, hi, 0);
  CheckOp<MaxOp, T, 2>(lo, hi, 0);
  CheckOp<ReluOp, T, 1>(lo, hi, 0);
  if constexpr (packet::kHasMul<T>) CheckOp<MulOp, T, 2>(lo / 8, hi / 8, 0);
  if constexpr (packet::kIsSignedLane<T>) {
    CheckOp<NegOp, T, 1>(lo, hi, 0);
    CheckOp<AbsOp, T, 1>(lo, hi, 0);
    CheckOp<SignOp, T, 1>(lo, hi, 0);
  }
  CheckOp<DivOp, T, 2>(lo, hi, 0);  // scalar fallback for integers
}

TEST(Packet, Integers) {
  CheckIntegers<std::int8_t>(-60, 60);
  CheckIntegers<std::uint8_t>(0, 120);
  CheckIntegers<std::int16_t>(-1000, 1000);
  CheckIntegers<std::uint16_t>(0, 2000);
  CheckIntegers<std::int32_t>(-100000, 100000);
  CheckIntegers<std::uint32_t>(0, 100000);
  CheckIntegers<std::int64_t>(-1e12, 1e12);
  CheckIntegers<std::uint64_t>(0, 1e12);
}

TEST(Packet, ScalarFallbackTypes) {
  CheckOp<ScalarOnly, float, 1>(-10, 10, 0);
  // half_t: no packets, Map runs lane by lane.
  std::vector<half_t> a(5, half_t(1.5f)), out(5, half_t(0.f));
  kernel::MapRun<kernel::sv::saveto, ScalarOnly>(5, out.data(), static_cast<const half_t*>(a.data()));
  for (auto v : out) EXPECT_EQ(static_cast<float>(v), 3.0f);
}

template <class T>
void CheckMath() {
  const std::int64_t ulp = 4;
  CheckOp<ExpOp, T, 1>(-5, 5, ulp);
  CheckOp<ExpOp, T, 1>(-87, 88, ulp);
  CheckOp<LogOp, T, 1>(1e-30, 1e30, ulp);
  CheckOp<LogOp, T, 1>(0.5, 2, ulp);
  CheckOp<Log2Op, T, 1>(1e-30, 1e30, ulp);
  CheckOp<Log2Op, T, 1>(0.5, 2, ulp);
  CheckOp<Log10Op, T, 1>(1e-30, 1e30, ulp);
  CheckOp<Log10Op, T, 1>(0.5, 2, ulp);
  CheckOp<Log1pOp, T, 1>(-0.99, 1e6, ulp);
  CheckOp<Log1pOp, T, 1>(-1e-3, 1e-3, ulp);
  CheckOp<Expm1Op, T, 1>(-1e-3, 1e-3, ulp);
  CheckOp<Expm1Op, T, 1>(-80, 80, ulp);
  CheckOp<TanhOp, T, 1>(-1e-3, 1e-3, ulp);
  CheckOp<TanhOp, T, 1>(-30, 30, ulp);
  CheckOp<SigmoidOp, T, 1>(-80, 80, ulp);
  CheckOp<SigmoidOp, T, 1>(-1, 1, ulp);
}
TEST(Packet, MathFloatWithin4Ulp) { CheckMath<float>(); }
TEST(Packet, MathDoubleWithin4Ulp) { CheckMath<double>(); }

// Special values: inf, -inf, nan, 0, -0, denormals, huge arguments.
template <class T>
void CheckSpecials() {
  using L = std::numeric_limits<T>;
  const std::vector<T> sp = {T(0),          T(-0.0),        L::infinity(), -L::infinity(),
                             L::quiet_NaN(), L::denorm_min(), L::min(),      -L::min(),
                             L::max(),       -L::max(),       T(1),          T(-1),
                             T(100),         T(-100),         T(89),         T(-89),
                             T(710),         T(-710),         T(1e-20),      T(-1e-20),
                             T(20),          T(-20)};
  const index_t n = static_cast<index_t>(sp.size());
  std::vector<T> out(sp.size());
  auto check = [&](auto op, const char* name) {
    using OP = decltype(op);
    kernel::MapRun<kernel::sv::saveto, OP>(n, out.data(), sp.data());
    for (index_t i = 0; i < n; ++i) {
      EXPECT_LE(UlpDistance(out[i], OP::Map(sp[i])), 4)
          << name << "(" << sp[i] << ") = " << out[i] << ", libm " << OP::Map(sp[i]);
    }
  };
  check(ExpOp{}, "exp");
  check(LogOp{}, "log");
  check(Log1pOp{}, "log1p");
  check(Log2Op{}, "log2");
  check(Log10Op{}, "log10");
  check(Expm1Op{}, "expm1");
  check(TanhOp{}, "tanh");
  check(SigmoidOp{}, "sigmoid");
  check(SqrtOp{}, "sqrt");
  check(RsqrtOp{}, "rsqrt");
  check(AbsOp{}, "abs");
  check(ReluOp{}, "relu");
  check(SignOp{}, "sign");
}
TEST(Packet, SpecialValuesFloat) { CheckSpecials<float>(); }
TEST(Packet, SpecialValuesDouble) { CheckSpecials<double>(); }

// Float exp and tanh (packet.h detail::ExpF32 / TanhF32, derived in-house) against the C
// library's expf / tanhf over float bit patterns. Unlike UlpDistance, zeros of opposite sign
// count as a mismatch here: tanh(-0) must be -0.
std::int64_t UlpSigned(float got, float ref) {
  if (got == ref && std::signbit(got) != std::signbit(ref)) return INT64_MAX;
  return UlpDistance(got, ref);
}

// Evaluates exp and tanh through MapRun (packet body and tail) on the floats whose bit patterns
// are first, first + stride, ... below `end` (a uint64 so the whole 2^32 range can be named),
// and returns the largest ulp distance from libm for each, with an argument where it occurs.
// tanh is measured twice: against tanhf, and against tanh in double rounded to float (the
// correctly rounded result but for double-rounding cases far rarer than one per 2^32), since
// glibc's tanhf is itself up to 2.2 ulp off in [0.125, 1).
struct SweepResult {
  std::int64_t exp_ulp = 0, tanh_ulp = 0, tanh_exact_ulp = 0;
  float exp_at = 0, tanh_at = 0, tanh_exact_at = 0;
};
SweepResult SweepBits(std::uint64_t first, std::uint64_t end, std::uint64_t stride) {
  SweepResult r;
  constexpr size_t kChunk = 1 << 16;
  std::vector<float> in(kChunk), ex(kChunk), th(kChunk);
  std::uint64_t b = first;
  while (b < end) {
    size_t n = 0;
    for (; n < kChunk && b < end; ++n, b += stride) {
      const auto u = static_cast<std::uint32_t>(b);
      std::memcpy(&in[n], &u, sizeof u);
    }
    const auto len = static_cast<index_t>(n);
    kernel::MapRun<kernel::sv::saveto, ExpOp>(len, ex.data(), static_cast<const float*>(in.data()));
    kernel::MapRun<kernel::sv::saveto, TanhOp>(len, th.data(),
                                               static_cast<const float*>(in.data()));
    for (size_t i = 0; i < n; ++i) {
      const std::int64_t ue = UlpSigned(ex[i], std::exp(in[i]));
      const std::int64_t ut = UlpSigned(th[i], std::tanh(in[i]));
      const std::int64_t ux =
          UlpSigned(th[i], static_cast<float>(std::tanh(static_cast<double>(in[i]))));
      if (ue > r.exp_ulp) r.exp_ulp = ue, r.exp_at = in[i];
      if (ut > r.tanh_ulp) r.tanh_ulp = ut, r.tanh_at = in[i];
      if (ux > r.tanh_exact_ulp) r.tanh_exact_ulp = ux, r.tanh_exact_at = in[i];
    }
  }
  return r;
}

// The row tails of every packet loop step down to narrower vectors (kernels.h, StepDownTail),
// so each packet function must give the same bits at every vector width: else a value would
// depend on its position in a row (and on the thread split). Checked for the float math
// functions on a bit sweep at the full width, 256 and 128 bits.
template <class Op, class D>
void EvalAtWidth(D d, const std::vector<float>& in, std::vector<float>* out) {
  const size_t n = hn::Lanes(d);
  for (size_t i = 0; i + n <= in.size(); i += n) {
    hn::StoreU(Op::MapPacket(d, hn::LoadU(d, in.data() + i)), d, out->data() + i);
  }
}
template <class Op>
void CheckSameAtEveryWidth(const char* name, const std::vector<float>& in) {
  std::vector<float> full(in.size()), w256(in.size()), w128(in.size());
  EvalAtWidth<Op>(hn::ScalableTag<float>(), in, &full);
  EvalAtWidth<Op>(hn::CappedTag<float, 8>(), in, &w256);
  EvalAtWidth<Op>(hn::CappedTag<float, 4>(), in, &w128);
  for (size_t i = 0; i < in.size(); ++i) {
    ASSERT_EQ(0, std::memcmp(&full[i], &w256[i], sizeof(float)))
        << name << "(" << in[i] << "): " << full[i] << " at full width, " << w256[i]
        << " at 256 bits";
    ASSERT_EQ(0, std::memcmp(&full[i], &w128[i], sizeof(float)))
        << name << "(" << in[i] << "): " << full[i] << " at full width, " << w128[i]
        << " at 128 bits";
  }
}
TEST(Packet, FloatMathIsTheSameAtEveryVectorWidth) {
  std::vector<float> in;
  for (std::uint64_t b = 0; b < (std::uint64_t(1) << 32); b += 4099) {
    const auto u = static_cast<std::uint32_t>(b);
    float f;
    std::memcpy(&f, &u, sizeof f);
    in.push_back(f);
  }
  in.resize(in.size() / 16 * 16);  // whole vectors at every width
  CheckSameAtEveryWidth<ExpOp>("exp", in);
  CheckSameAtEveryWidth<TanhOp>("tanh", in);
  CheckSameAtEveryWidth<SigmoidOp>("sigmoid", in);
  CheckSameAtEveryWidth<LogOp>("log", in);
  CheckSameAtEveryWidth<Log1pOp>("log1p", in);
  CheckSameAtEveryWidth<Expm1Op>("expm1", in);
  CheckSameAtEveryWidth<RsqrtOp>("rsqrt", in);
  CheckSameAtEveryWidth<SqrtOp>("sqrt", in);
}

// Every 331st bit pattern of the whole float space (denormals, both zeros, infinities, NaNs;
// ~13M arguments, a prime stride so every low-bit pattern occurs): ~0.2 s in Release, ~3 s under
// AddressSanitizer. Every 97th (~10 s under ASan) and every float were checked once by hand.
TEST(Packet, ExpTanhFloatBitSweep) {
  const SweepResult r = SweepBits(0, std::uint64_t(1) << 32, 331);
  EXPECT_LE(r.exp_ulp, 4) << "exp(" << r.exp_at << ")";
  EXPECT_LE(r.tanh_ulp, 4) << "tanh(" << r.tanh_at << ")";
  EXPECT_LE(r.tanh_exact_ulp, 4) << "tanh(" << r.tanh_exact_at << ")";
}

// The edges themselves: overflow and underflow thresholds, the largest denormal results, the
// tanh branch point and saturation, and the special values.
TEST(Packet, ExpTanhFloatEdges) {
  using L = std::numeric_limits<float>;
  std::vector<float> x = {0.f,
                          -0.f,
                          L::infinity(),
                          -L::infinity(),
                          L::quiet_NaN(),
                          -L::quiet_NaN(),
                          L::denorm_min(),
                          -L::denorm_min(),
                          L::min(),
                          -L::min(),
                          L::max(),
                          -L::max(),
                          88.72283f,
                          88.72284f,
                          88.7229f,
                          89.f,
                          -87.33654f,
                          -87.3366f,
                          -103.2789f,
                          -103.9721f,
                          -103.9728f,
                          -104.f,
                          -150.f,
                          0.625f,
                          -0.625f,
                          9.f,
                          9.0109f,
                          9.011f,
                          -9.011f,
                          10.f,
                          20.f,
                          3.7373f,
                          0.1f,
                          1e-20f,
                          -1e-20f};
  // A few ulp either side of each.
  const size_t base = x.size();
  for (size_t i = 0; i < base; ++i) {
    if (!std::isfinite(x[i])) continue;
    float lo = x[i], hi = x[i];
    for (int k = 0; k < 4; ++k) {
      lo = std::nextafter(lo, -L::infinity());
      hi = std::nextafter(hi, L::infinity());
      x.push_back(lo);
      x.push_back(hi);
    }
  }
  const auto n = static_cast<index_t>(x.size());
  std::vector<float> ex(x.size()), th(x.size());
  kernel::MapRun<kernel::sv::saveto, ExpOp>(n, ex.data(), static_cast<const float*>(x.data()));
  kernel::MapRun<kernel::sv::saveto, TanhOp>(n, th.data(), static_cast<const float*>(x.data()));
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_LE(UlpSigned(ex[i], std::exp(x[i])), 4) << "exp(" << x[i] << ") = " << ex[i];
    EXPECT_LE(UlpSigned(th[i], std::tanh(x[i])), 4) << "tanh(" << x[i] << ") = " << th[i];
  }
}

// Every float in [-104, 89] (the range where exp neither overflows nor underflows to 0, and a
// superset of tanh's unsaturated [-9, 9]) for both functions, ~2.2e9 arguments: minutes, so only
// with SHADE_EXHAUSTIVE=1. The measured maxima are in docs/design/kernel-layer.md "Math accuracy".
TEST(Packet, ExpTanhFloatExhaustive) {
  const char* env = std::getenv("SHADE_EXHAUSTIVE");
  if (env == nullptr || std::string(env) != "1") GTEST_SKIP() << "set SHADE_EXHAUSTIVE=1";
  auto bits = [](float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return std::uint64_t(u);
  };
  // Non-negative floats ascend with their bits from +0, negative ones from -0 (0x80000000).
  const SweepResult pos = SweepBits(0, bits(89.f) + 1, 1);
  const SweepResult neg = SweepBits(bits(-0.f), bits(-104.f) + 1, 1);
  std::printf(
      "exhaustive [-104, 89]: exp max %lld / %lld ulp (x >= 0 at %.9g / x <= 0 at %.9g), "
      "tanh max %lld / %lld ulp from tanhf (at %.9g / %.9g), %lld / %lld from the correctly "
      "rounded tanh (at %.9g / %.9g)\n",
      static_cast<long long>(pos.exp_ulp), static_cast<long long>(neg.exp_ulp), pos.exp_at,
      neg.exp_at, static_cast<long long>(pos.tanh_ulp), static_cast<long long>(neg.tanh_ulp),
      pos.tanh_at, neg.tanh_at, static_cast<long long>(pos.tanh_exact_ulp),
      static_cast<long long>(neg.tanh_exact_ulp), pos.tanh_exact_at, neg.tanh_exact_at);
  // What the float kernels promise (detail::ExpF32, detail::TanhF32), tighter than the public
  // <= 4 ulp: every target measured 1 and 2 (2026-11-27), and a faster tanh must stay within 2.
  EXPECT_LE(pos.exp_ulp, 1) << "exp(" << pos.exp_at << ")";
  EXPECT_LE(neg.exp_ulp, 1) << "exp(" << neg.exp_at << ")";
  EXPECT_LE(pos.tanh_ulp, 2) << "tanh(" << pos.tanh_at << ")";
  EXPECT_LE(neg.tanh_ulp, 2) << "tanh(" << neg.tanh_at << ")";
  // Against the correctly rounded tanh every target measured 1 (2026-11-27).
  EXPECT_LE(pos.tanh_exact_ulp, 1) << "tanh(" << pos.tanh_exact_at << ")";
  EXPECT_LE(neg.tanh_exact_ulp, 1) << "tanh(" << neg.tanh_exact_at << ")";
}

// The pair order of EvenLanesPairOrder / OddLanesPairOrder is undone by FromPairOrder, also
// after a lane-wise fold of both (pooling's 2-wide windows), for 4- and 8-byte lanes, float and
// integer (the AVX2 shuffles move bits, so integers take them too).
#if HWY_TARGET != HWY_SCALAR && HWY_TARGET != HWY_EMU128
template <typename T>
void CheckPairOrder() {
  const packet::Tag<T> d;
  const size_t n = packet::Lanes<T>();
  std::vector<T> lo_in(n), hi_in(n), even(n), odd(n), sum(n), got(n);
  for (size_t i = 0; i < n; ++i) {
    lo_in[i] = static_cast<T>(i + 1);
    hi_in[i] = static_cast<T>(100 * (i + 1));
  }
  const auto lo = packet::LoadUnaligned(d, lo_in.data());
  const auto hi = packet::LoadUnaligned(d, hi_in.data());
  packet::StoreUnaligned(d, packet::FromPairOrder(packet::EvenLanesPairOrder(d, hi, lo)),
                         even.data());
  packet::StoreUnaligned(d, packet::FromPairOrder(packet::OddLanesPairOrder(d, hi, lo)),
                         odd.data());
  packet::StoreUnaligned(d,
                         packet::FromPairOrder(packet::Add(d, packet::EvenLanesPairOrder(d, hi, lo),
                                                           packet::OddLanesPairOrder(d, hi, lo))),
                         sum.data());
  // ConcatEven(hi, lo): lo's even lanes, then hi's.
  const size_t half = n / 2;
  for (size_t i = 0; i < n; ++i) {
    const std::vector<T>& src = i < half ? lo_in : hi_in;
    const size_t j = 2 * (i % half);
    EXPECT_EQ(even[i], src[j]) << "lane " << i << " of " << n;
    EXPECT_EQ(odd[i], src[j + 1]) << "lane " << i << " of " << n;
    EXPECT_EQ(sum[i], src[j] + src[j + 1]) << "lane " << i << " of " << n;
  }
}
#endif
TEST(Packet, PairOrderRoundTrip) {
#if HWY_TARGET != HWY_SCALAR && HWY_TARGET != HWY_EMU128
  CheckPairOrder<float>();
  CheckPairOrder<double>();
  CheckPairOrder<std::int32_t>();
  CheckPairOrder<std::int64_t>();
#else
  GTEST_SKIP() << "one-lane target: no pairs inside a vector";
#endif
}

TEST(Packet, LoadStoreFillSum) {
  const packet::Tag<float> d;
  const size_t n = packet::Lanes<float>();
  std::vector<float> buf(2 * n + 1);
  for (size_t i = 0; i < buf.size(); ++i) buf[i] = static_cast<float>(i);
  HWY_ALIGN float aligned[packet::kMaxLanes<float>];
  auto v = packet::LoadUnaligned(d, buf.data() + 1);  // misaligned by one element
  packet::Store(d, v, aligned);
  auto w = packet::Load(d, aligned);
  EXPECT_FLOAT_EQ(packet::Sum(d, w), static_cast<float>(n * (n + 1) / 2));
  EXPECT_EQ(packet::MaxLane(d, w), static_cast<float>(n));
  EXPECT_EQ(packet::MinLane(d, w), 1.0f);
  packet::StoreUnaligned(d, packet::Fill(d, 2.5f), buf.data() + 1);
  EXPECT_EQ(buf[0], 0.0f);
  for (size_t i = 1; i <= n; ++i) EXPECT_EQ(buf[i], 2.5f);
  EXPECT_EQ(buf[n + 1], static_cast<float>(n + 1));
  const packet::Tag<std::int32_t> di;
  EXPECT_EQ(packet::Sum(di, packet::Fill(di, 3)), 3 * static_cast<int>(packet::Lanes<std::int32_t>()));
}

}  // namespace
}  // namespace shade
