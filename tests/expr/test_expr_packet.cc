// The packet (SIMD) path of the static element loop (expr/map.h) against the scalar path
// (the same expression's Plan::Eval, element by element): every op:: functor with a packet form,
// every saver, scalars, typecasts and a user ternary functor, on row lengths that are not
// multiples of the vector width, misaligned row starts, padded row pitches and empty tensors;
// threaded results bit-identical to one thread; expressions without a packet plan (transpose,
// functors without MapPacket) fall back to the scalar loop and still compute the right values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "guarded_array.h"
#include "shade/backend/cpu/kernels.h"
#include "shade/backend/cpu/parallel.h"
#include "shade/expr/plan.h"
#include "shade/tensor/tensor.h"

namespace {

using shade::cpu;
using shade::index_t;
using shade::Shape2;
using shade::Tensor;
namespace op = shade::op;
namespace sv = shade::sv;
namespace ex = shade::expr;

/*! Owns a buffer viewed as a rows x cols tensor with row pitch cols + pad, starting `off`
 *  elements into the buffer (off = 1 makes every row start misaligned). */
template <typename T>
struct Buf {
  std::vector<T> data;
  Tensor<cpu, 2, T> t;
  index_t off;
  Buf(index_t rows, index_t cols, index_t pad, index_t off)
      : data(static_cast<size_t>(rows * (cols + pad) + off + 1), T(-77)),
        t(data.data() + off, Shape2(rows, cols), cols + pad, nullptr),
        off(off) {}
  T& at(index_t i, index_t j) { return t.dptr_[i * t.stride_ + j]; }
  /*! Deterministic values in [lo, hi) (for floats) or small integers. */
  void Fill(double lo, double hi, unsigned seed) {
    unsigned s = seed * 2654435761u + 12345u;
    for (index_t i = 0; i < t.size(0); ++i)
      for (index_t j = 0; j < t.size(1); ++j) {
        s = s * 1664525u + 1013904223u;
        const double u = (s >> 8) / double(1 << 24);
        at(i, j) = static_cast<T>(lo + (hi - lo) * u);
      }
  }
  /*! Elements outside the view (padding, before and after) must never be written. */
  bool OutsideIntact() const {
    for (index_t k = 0; k < off; ++k)
      if (!(data[static_cast<size_t>(k)] == T(-77))) return false;
    for (index_t i = 0; i < t.size(0); ++i)
      for (index_t j = t.size(1); j < t.stride_; ++j)
        if (!(data[static_cast<size_t>(off + i * t.stride_ + j)] == T(-77))) return false;
    return data.back() == T(-77);
  }
};

/*! Distance in units in the last place between two floats or doubles (0 for equal NaNs). */
template <typename T>
int64_t UlpDiff(T a, T b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b) ? 0 : INT64_MAX;
  if (a == b) return 0;
  using I = std::conditional_t<sizeof(T) == 4, int32_t, int64_t>;
  I ia, ib;
  std::memcpy(&ia, &a, sizeof(T));
  std::memcpy(&ib, &b, sizeof(T));
  if (ia < 0) ia = std::numeric_limits<I>::min() - ia;
  if (ib < 0) ib = std::numeric_limits<I>::min() - ib;
  const int64_t d = static_cast<int64_t>(ia) - static_cast<int64_t>(ib);
  return d < 0 ? -d : d;
}

/*!
 * Runs `dst SV= exp` (through the engine: packet path when kPacketPlan) and compares with the
 * scalar path `SV::Save(ref(y, x), plan.Eval(y, x))` computed before on a copy of dst. Integers
 * and exact float ops must agree bit for bit, transcendental ones within `ulp`.
 */
template <typename SV, typename T, typename E, int et>
void CheckAgainstScalar(Buf<T>* dst, const ex::Exp<E, T, et>& exp, int64_t ulp, const char* what,
                        double abs_tol = 0) {
  const index_t rows = dst->t.size(0), cols = dst->t.size(1);
  std::vector<T> ref(static_cast<size_t>(rows * cols));
  const auto plan = ex::MakePlan(exp.self());
  for (index_t y = 0; y < rows; ++y)
    for (index_t x = 0; x < cols; ++x) {
      T v = dst->at(y, x);
      SV::Save(v, static_cast<T>(plan.Eval(y, x)));
      ref[static_cast<size_t>(y * cols + x)] = v;
    }
  ex::MapExp<SV>(&dst->t, exp);
  for (index_t y = 0; y < rows; ++y)
    for (index_t x = 0; x < cols; ++x) {
      const T got = dst->at(y, x), want = ref[static_cast<size_t>(y * cols + x)];
      if constexpr (std::is_floating_point<T>::value) {
        if (std::fabs(double(got) - double(want)) <= abs_tol) continue;
        ASSERT_LE(UlpDiff(got, want), ulp) << what << " at (" << y << "," << x << ") of " << rows
                                           << "x" << cols << ": " << got << " vs " << want;
      } else {
        ASSERT_EQ(got, want) << what << " at (" << y << "," << x << ") of " << rows << "x" << cols;
      }
    }
  ASSERT_TRUE(dst->OutsideIntact()) << what << ": wrote outside the view";
}

// Shapes around the vector width (16 floats on AVX-512, 8 on AVX2, 4 on SSE): 0-size, shorter
// than a packet, one off either side of one and two packets, and long rows.
const index_t kShapes[][2] = {{0, 0}, {0, 5}, {3, 0}, {1, 1},  {2, 3},  {3, 7},  {1, 15},
                              {2, 16}, {3, 17}, {2, 31}, {1, 33}, {4, 63}, {3, 100}, {2, 257}};

struct Layout {
  index_t pad, off;
};
const Layout kLayouts[] = {{0, 0}, {0, 1}, {3, 1}, {5, 0}, {1, 3}};

/*! A ternary functor with a packet form: a * b + c (no fused multiply-add, to stay exact). */
struct mul_add {
  template <typename T>
  static T Map(T a, T b, T c) {
    const T product = a * b;  // its own statement: clang would contract a * b + c into an FMA
    return T(product + c);
  }
  template <class D, class V>
  static V MapPacket(D, V a, V b, V c) { return shade::packet::hn::Add(shade::packet::hn::Mul(a, b), c); }
};
/*! A functor without a packet form: forces the scalar loop. */
struct scalar_only_twice {
  template <typename T>
  static T Map(T a) { return T(a + a); }
};

template <typename T>
void RunFloatOps() {
  for (const auto& s : kShapes) {
    for (const Layout& L : kLayouts) {
      const index_t r = s[0], c = s[1];
      Buf<T> a(r, c, L.pad, L.off), b(r, c, L.pad + 1, 0), cc(r, c, 2, L.off), d(r, c, L.pad, L.off);
      a.Fill(-3, 3, 1);
      b.Fill(0.5, 4, 2);
      cc.Fill(-2, 2, 3);
      d.Fill(-1, 1, 4);
      const auto& A = a.t;
      const auto& B = b.t;
      const auto& C = cc.t;
      const T k = T(2.5);
      // Exact arithmetic: bit-identical, except where the expression multiplies and adds: GCC
      // contracts a * b + c into an FMA (-ffp-contract=fast, the GNU default) in the scalar
      // loop and in the packet loop inlined here, and may fuse a different product in each
      // (A * B or C * k). That moves one rounding of a product (|A * B|, |C * k| <= 12 here),
      // so the bound is absolute: a few epsilons of the terms' size, not ulps of a result
      // that may cancel to near zero.
      CheckAgainstScalar<sv::saveto>(&d, A * B + C * k - A / B, 1, "fused",
                                     4 * 12 * double(std::numeric_limits<T>::epsilon()));
      CheckAgainstScalar<sv::plusto>(&d, A + B, 0, "+=");
      CheckAgainstScalar<sv::minusto>(&d, k - A, 0, "-=");
      CheckAgainstScalar<sv::multo>(&d, B * k, 0, "*=");
      CheckAgainstScalar<sv::divto>(&d, B + T(1), 0, "/=");
      CheckAgainstScalar<sv::saveto>(&d, -A, 0, "neg");
      CheckAgainstScalar<sv::saveto>(&d, ex::F<op::maximum>(A, C) + ex::F<op::minimum>(C, A), 0, "max/min");
      CheckAgainstScalar<sv::saveto>(&d, ex::F<op::abs>(A), 0, "abs");
      CheckAgainstScalar<sv::saveto>(&d, ex::F<op::square>(C), 0, "square");
      CheckAgainstScalar<sv::saveto>(&d, ex::F<op::relu>(A) + ex::F<op::sign>(C), 0, "relu/sign");
      CheckAgainstScalar<sv::saveto>(&d, ex::F<op::sqrt>(B) + ex::F<op::identity>(A), 0, "sqrt");
      CheckAgainstScalar<sv::saveto>(&d, ex::F<op::right>(A, B), 0, "right");
      CheckAgainstScalar<sv::saveto>(&d, ex::F<mul_add>(A, B, C), 1, "ternary");
      CheckAgainstScalar<sv::saveto>(&d, ex::scalar<T>(k), 0, "scalar fill");
      CheckAgainstScalar<sv::saveto>(&d, A, 0, "copy");
      // transcendental: within a few ulp of the C library (the scalar path)
      CheckAgainstScalar<sv::saveto>(&d, ex::F<op::rsqrt>(B), 1, "rsqrt");
      CheckAgainstScalar<sv::saveto>(&d, ex::F<op::exp>(A), 2, "exp");
      CheckAgainstScalar<sv::saveto>(&d, ex::F<op::log>(B), 2, "log");
      CheckAgainstScalar<sv::saveto>(&d, ex::F<op::log1p>(B), 2, "log1p");
      CheckAgainstScalar<sv::saveto>(&d, ex::F<op::expm1>(A), 4, "expm1");
      CheckAgainstScalar<sv::saveto>(&d, ex::F<op::tanh>(A), 4, "tanh");
      CheckAgainstScalar<sv::saveto>(&d, ex::F<op::sigmoid>(A), 4, "sigmoid");
    }
  }
}

TEST(ExprPacket, EveryFloatOpMatchesScalarPath) {
  static_assert(ex::kPacketPlan<ex::BinaryMapExp<op::plus, Tensor<cpu, 2, float>, ex::ScalarExp<float>,
                                                  float, shade::expr::type::kMapper>, float>, "");
  static_assert(ex::kPacketPlan<ex::UnaryMapExp<op::tanh, Tensor<cpu, 2, float>, float,
                                                 shade::expr::type::kMapper>, float>, "");
  RunFloatOps<float>();
}

TEST(ExprPacket, EveryDoubleOpMatchesScalarPath) { RunFloatOps<double>(); }

template <typename T>
void RunIntOps() {
  for (const auto& s : kShapes) {
    for (const Layout& L : kLayouts) {
      const index_t r = s[0], c = s[1];
      Buf<T> a(r, c, L.pad, L.off), b(r, c, 1, 0), d(r, c, L.pad, L.off);
      a.Fill(-50, 50, 5);
      b.Fill(1, 9, 6);
      d.Fill(-5, 5, 7);
      const auto& A = a.t;
      const auto& B = b.t;
      CheckAgainstScalar<sv::saveto>(&d, A + B * T(3) - A, 0, "int fused");
      CheckAgainstScalar<sv::plusto>(&d, ex::F<op::maximum>(A, B), 0, "int max +=");
      CheckAgainstScalar<sv::minusto>(&d, ex::F<op::minimum>(A, B), 0, "int min -=");
      CheckAgainstScalar<sv::saveto>(&d, ex::F<op::abs>(A) + ex::F<op::sign>(A) + ex::F<op::relu>(B), 0,
                                     "int abs/sign/relu");
      CheckAgainstScalar<sv::saveto>(&d, -A, 0, "int neg");
      // integer division has no packet form: the scalar loop runs, same results
      CheckAgainstScalar<sv::saveto>(&d, A / B, 0, "int div (scalar fallback)");
    }
  }
}

TEST(ExprPacket, IntegerOpsMatchScalarPath) {
  static_assert(!ex::kPacketPlan<ex::BinaryMapExp<op::div, Tensor<cpu, 2, int32_t>, Tensor<cpu, 2, int32_t>,
                                                   int32_t, shade::expr::type::kMapper>, int32_t>,
                "integer division has no packet form");
  RunIntOps<int32_t>();
  RunIntOps<int16_t>();
}

TEST(ExprPacket, Int64AndUint8) {
  for (const auto& s : kShapes) {
    Buf<int64_t> a(s[0], s[1], 2, 1), d(s[0], s[1], 0, 1);
    a.Fill(-1e6, 1e6, 8);
    CheckAgainstScalar<sv::saveto>(&d, a.t + a.t - int64_t(7), 0, "int64");
    Buf<uint8_t> u(s[0], s[1], 1, 1), ud(s[0], s[1], 3, 0);
    u.Fill(0, 255, 9);
    CheckAgainstScalar<sv::plusto>(&ud, u.t + uint8_t(200), 0, "uint8 wrap");
  }
}

TEST(ExprPacket, TypecastsMatchScalarPath) {
  static_assert(ex::kPacketPlan<ex::TypecastExp<float, int32_t, Tensor<cpu, 2, int32_t>, 1>, float>, "");
  static_assert(!ex::kPacketPlan<ex::TypecastExp<double, float, Tensor<cpu, 2, float>, 1>, double>,
                "widening casts take the scalar loop");
  for (const auto& s : kShapes) {
    for (const Layout& L : kLayouts) {
      Buf<int32_t> i(s[0], s[1], L.pad, L.off), id(s[0], s[1], 1, L.off);
      Buf<float> f(s[0], s[1], 2, L.off), fd(s[0], s[1], L.pad, 0);
      Buf<double> g(s[0], s[1], 1, 0), gd(s[0], s[1], L.pad, L.off);
      Buf<int64_t> l(s[0], s[1], 0, L.off);
      i.Fill(-1000, 1000, 10);
      f.Fill(-1000, 1000, 11);
      g.Fill(-1e9, 1e9, 12);
      l.Fill(-1e12, 1e12, 13);
      CheckAgainstScalar<sv::saveto>(&fd, ex::tcast<float>(i.t) * 0.5f + f.t, 0, "int32->float");
      CheckAgainstScalar<sv::saveto>(&id, ex::tcast<int32_t>(f.t * 3.0f) + i.t, 0, "float->int32");
      CheckAgainstScalar<sv::plusto>(&gd, ex::tcast<double>(l.t) + g.t, 0, "int64->double");
      CheckAgainstScalar<sv::saveto>(&fd, ex::tcast<float>(ex::tcast<double>(f.t) * 2.0), 0,
                                     "float->double->float (scalar fallback)");
    }
  }
}

TEST(ExprPacket, FallbacksComputeTheSameValues) {
  using TE = ex::TransposeExp<Tensor<cpu, 2, float>, float>;
  static_assert(!ex::kPacketPlan<ex::BinaryMapExp<op::plus, TE, Tensor<cpu, 2, float>, float, 3>, float>,
                "a transposed operand has no packet plan");
  static_assert(!ex::kPacketPlan<ex::UnaryMapExp<scalar_only_twice, Tensor<cpu, 2, float>, float, 1>, float>,
                "a functor without MapPacket has no packet plan");
  Buf<float> a(19, 21, 1, 1), b(21, 19, 2, 0), d(21, 19, 3, 1);
  a.Fill(-2, 2, 14);
  b.Fill(-2, 2, 15);
  d.t = a.t.T() + b.t * 2.0f;
  for (index_t y = 0; y < 21; ++y)
    for (index_t x = 0; x < 19; ++x) ASSERT_EQ(d.at(y, x), a.at(x, y) + b.at(y, x) * 2.0f);
  d.t = ex::F<scalar_only_twice>(b.t) + ex::F<op::exp>(b.t);
  for (index_t y = 0; y < 21; ++y)
    for (index_t x = 0; x < 19; ++x)
      ASSERT_LE(UlpDiff(d.at(y, x), (b.at(y, x) + b.at(y, x)) + std::exp(b.at(y, x))), 2);
  ASSERT_TRUE(d.OutsideIntact());
}

TEST(ExprPacket, InPlaceOperand) {
  Buf<float> a(5, 37, 2, 1), ref(5, 37, 2, 1);
  a.Fill(-3, 3, 16);
  ref.Fill(-3, 3, 16);
  a.t = a.t * a.t + 1.0f;
  for (index_t y = 0; y < 5; ++y)
    for (index_t x = 0; x < 37; ++x) {
      const float square = ref.at(y, x) * ref.at(y, x);  // own statement: no FMA contraction
      ASSERT_EQ(a.at(y, x), square + 1.0f);
    }
}

// Rows of every length 0..70 (around the 4/8/16/32/64-lane widths) for =, += and -= in six
// element types against a naive loop. Each tensor's last row ends exactly at an inaccessible
// page (tests/guarded_array.h) and the 3-row tensors have a padded pitch, so a partial packet
// touching anything past a row's last element would fault or show in the padding.
template <typename SV, typename T>
void CheckRowsEveryLength() {
  for (index_t cols = 0; cols <= 70; ++cols) {
    for (const index_t rows : {1, 3}) {
      const index_t pitch = cols + (rows == 1 ? 0 : 5);
      const size_t total = static_cast<size_t>((rows - 1) * pitch + cols);
      shade_test::GuardedArray<T> a(total), b(total), d(total);
      std::vector<T> want(total);
      for (size_t i = 0; i < total; ++i) {
        a[i] = static_cast<T>(i % 13 + 1);
        b[i] = static_cast<T>(i % 6 + 3);
        d[i] = static_cast<T>(i % 9);
        want[i] = d[i];
      }
      for (index_t y = 0; y < rows; ++y)
        for (index_t x = 0; x < cols; ++x) {
          const size_t i = static_cast<size_t>(y * pitch + x);
          SV::Save(want[i], static_cast<T>(static_cast<T>(a[i] + b[i]) - T(2)));
        }
      Tensor<cpu, 2, T> A(a.data(), Shape2(rows, cols), pitch, nullptr),
          B(b.data(), Shape2(rows, cols), pitch, nullptr), D(d.data(), Shape2(rows, cols), pitch, nullptr);
      ex::MapExp<SV>(&D, A + B - T(2));
      for (size_t i = 0; i < total; ++i)
        ASSERT_EQ(d[i], want[i]) << rows << "x" << cols << " pitch " << pitch << " element " << i;
    }
  }
}
template <typename T>
void CheckRowsEveryLengthAllSavers() {
  static_assert(ex::kPacketPlan<ex::BinaryMapExp<op::minus,
                                                  ex::BinaryMapExp<op::plus, Tensor<cpu, 2, T>, Tensor<cpu, 2, T>,
                                                                   T, shade::expr::type::kMapper>,
                                                  ex::ScalarExp<T>, T, shade::expr::type::kMapper>,
                                T>,
                "the packet loop runs");
  CheckRowsEveryLength<sv::saveto, T>();
  CheckRowsEveryLength<sv::plusto, T>();
  CheckRowsEveryLength<sv::minusto, T>();
}
TEST(ExprPacket, EveryRowLengthTo70StaysInsideTheRows) {
  CheckRowsEveryLengthAllSavers<float>();
  CheckRowsEveryLengthAllSavers<double>();
  CheckRowsEveryLengthAllSavers<int32_t>();
  CheckRowsEveryLengthAllSavers<int8_t>();
  CheckRowsEveryLengthAllSavers<uint16_t>();
  CheckRowsEveryLengthAllSavers<int64_t>();
}

// Unpadded destination and operands: the rows are joined into one (map.h, MapBackend<cpu>),
// so narrow rows run as full vectors. Every element must still get the value the row-by-row
// loop gives it (the padded copies below cannot be joined), on the packet path and on the
// scalar path of a functor without MapPacket, for a 4-D tensor of 4-wide rows too.
TEST(ExprPacket, JoinedContiguousRowsMatchRowByRow) {
  for (index_t cols : {1, 4, 5, 17}) {
    const index_t rows = 37;
    Buf<float> a(rows, cols, 0, 0), b(rows, cols, 0, 1), pa(rows, cols, 3, 1), pb(rows, cols, 2, 0);
    a.Fill(-3, 3, 31);
    b.Fill(0.5, 2, 32);
    for (index_t y = 0; y < rows; ++y)
      for (index_t x = 0; x < cols; ++x) {
        pa.at(y, x) = a.at(y, x);
        pb.at(y, x) = b.at(y, x);
      }
    Buf<float> joined(rows, cols, 0, 1), by_row(rows, cols, 1, 1);
    joined.Fill(-1, 1, 33);
    by_row.Fill(-1, 1, 33);
    joined.t += ex::F<op::tanh>(a.t) * b.t - a.t / b.t;
    by_row.t += ex::F<op::tanh>(pa.t) * pb.t - pa.t / pb.t;
    for (index_t y = 0; y < rows; ++y)
      ASSERT_EQ(0, std::memcmp(&joined.at(y, 0), &by_row.at(y, 0), sizeof(float) * cols))
          << "packet path, row " << y << " of " << rows << "x" << cols;
    joined.t = ex::F<scalar_only_twice>(a.t) + b.t;
    by_row.t = ex::F<scalar_only_twice>(pa.t) + pb.t;
    for (index_t y = 0; y < rows; ++y)
      ASSERT_EQ(0, std::memcmp(&joined.at(y, 0), &by_row.at(y, 0), sizeof(float) * cols))
          << "scalar path, row " << y << " of " << rows << "x" << cols;
    ASSERT_TRUE(joined.OutsideIntact());
    ASSERT_TRUE(by_row.OutsideIntact());
  }
  // A 4-D (3, 5, 4, 4) tensor, flattened by the map to 60 rows of 4, joined into one.
  std::vector<float> x(240), y(240, -1.0f);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 13) - 6.0f;
  const shade::Shape<4> s4 = shade::Shape4(3, 5, 4, 4);
  Tensor<cpu, 4, float> x4(x.data(), s4), y4(y.data(), s4);
  y4 = ex::F<scalar_only_twice>(x4) * 0.5f + 1.0f;
  for (size_t i = 0; i < x.size(); ++i) ASSERT_EQ(y[i], (x[i] + x[i]) * 0.5f + 1.0f) << i;
}

/*! Restores the thread count on scope exit. */
struct ThreadGuard {
  int n = shade::GetNumThreads();
  ~ThreadGuard() { shade::SetNumThreads(n); }
};

TEST(ExprPacket, ThreadedBitIdenticalToSingleThreaded) {
  ThreadGuard guard;
  // Rows longer than a grain (one row split across threads) and many short padded rows.
  const index_t shapes[][2] = {{1, (1 << 17) + 13}, {613, 1001}, {5000, 7}};
  for (const auto& s : shapes) {
    Buf<float> a(s[0], s[1], 3, 1), b(s[0], s[1], 0, 0), one(s[0], s[1], 2, 1), many(s[0], s[1], 2, 1);
    a.Fill(-4, 4, 17);
    b.Fill(0.5, 3, 18);
    one.Fill(-1, 1, 19);
    many.Fill(-1, 1, 19);
    shade::SetNumThreads(1);
    one.t += ex::F<op::tanh>(a.t) * b.t + a.t / b.t;
    for (int threads : {2, 3, 4}) {
      shade::SetNumThreads(threads);
      Buf<float> m(s[0], s[1], 2, 1);
      m.Fill(-1, 1, 19);
      m.t += ex::F<op::tanh>(a.t) * b.t + a.t / b.t;
      ASSERT_EQ(0, std::memcmp(m.data.data(), one.data.data(), one.data.size() * sizeof(float)))
          << threads << " threads, " << s[0] << "x" << s[1];
    }
  }
}

// Large memory-bound expressions store with non-temporal stores (kernel::UseStreamingStores),
// the full vectors from the first aligned column on; head, tail and padding as before. The
// result must equal the cached-store path's, which a row-by-row (or slice-by-slice)
// evaluation of the same expression takes (each piece is far below the threshold).
TEST(ExprPacket, StreamingStoresMatchCachedStores) {
  ThreadGuard guard;
  const index_t shapes[][2] = {{1, (index_t(1) << 22) + 13}, {2049, 2053}};
  for (const auto& s : shapes) {
    // Four float arrays: 16 bytes per element moved, >= 64 MiB for both shapes.
    ASSERT_TRUE(shade::kernel::UseStreamingStores(s[0] * s[1] * 16, 3));
    Buf<float> a(s[0], s[1], 3, 1), b(s[0], s[1], 0, 0), c(s[0], s[1], 5, 2);
    a.Fill(-4, 4, 21);
    b.Fill(0.5, 3, 22);
    c.Fill(-1, 1, 23);
    Buf<float> expect(s[0], s[1], 2, 1);
    constexpr index_t kSlice = 4096;
    for (index_t i = 0; i < s[0]; ++i) {
      for (index_t j = 0; j < s[1]; j += kSlice) {
        const index_t len = std::min(kSlice, s[1] - j);
        auto piece = [&](Buf<float>& x) {
          return Tensor<cpu, 1, float>(&x.at(i, j), shade::Shape1(len));
        };
        Tensor<cpu, 1, float> out = piece(expect);
        out = piece(a) * piece(b) + piece(c) / piece(b);
      }
    }
    for (int threads : {1, 2}) {
      shade::SetNumThreads(threads);
      for (index_t off : {0, 1, 3}) {
        Buf<float> got(s[0], s[1], 2, off);
        got.t = a.t * b.t + c.t / b.t;
        ASSERT_TRUE(got.OutsideIntact()) << threads << " threads, offset " << off;
        for (index_t i = 0; i < s[0]; ++i) {
          ASSERT_EQ(0, std::memcmp(&got.at(i, 0), &expect.at(i, 0), sizeof(float) * s[1]))
              << "row " << i << ", " << threads << " threads, offset " << off << ", " << s[0] << "x"
              << s[1];
        }
      }
    }
  }
}

}  // namespace
