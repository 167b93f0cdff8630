// Expression templates against naive loops: every operator and saver, scalars on either side,
// op:: functors, user functors, ternary maps, tcast, .T(), padded and empty tensors, the
// MakeTensorExp extension base, compile-time checks, and every ShapeCheck error path.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

#include "dyn2_oracle.h"
#include "shade/expr/check.h"
#include "shade/tensor/tensor.h"

namespace {

using shade::cpu;
using shade::gpu;
using shade::index_t;
using shade::Shape2;
using shade::Tensor;
using namespace shade::expr;  // NOLINT(build/namespaces)

/*! Owns a row-pitched buffer (pad extra elements per row) and views it as a tensor. */
template <typename DType>
struct Buf {
  std::vector<DType> data;
  Tensor<cpu, 2, DType> t;
  Buf(index_t rows, index_t cols, index_t pad = 3)
      : data(static_cast<size_t>(rows * (cols + pad) + 1), DType(-77)),
        t(data.data(), Shape2(rows, cols), cols + pad, nullptr) {}
  DType& at(index_t i, index_t j) { return t.dptr_[i * t.stride_ + j]; }
  /*! Fills with base + (i * cols + j) % mod. */
  void Fill(int base, int mod) {
    for (index_t i = 0; i < t.size(0); ++i)
      for (index_t j = 0; j < t.size(1); ++j) at(i, j) = DType(base + (i * t.size(1) + j) % mod);
  }
  /*! Padding must never be touched by an evaluation. */
  bool PaddingIntact() const {
    for (index_t i = 0; i < t.size(0); ++i)
      for (index_t j = t.size(1); j < t.stride_; ++j)
        if (data[static_cast<size_t>(i * t.stride_ + j)] != DType(-77)) return false;
    return true;
  }
};

template <typename DType>
bool Near(DType got, double want) {
  if (std::is_integral<DType>::value) return static_cast<double>(got) == want;
  const double tol = std::is_same<DType, float>::value ? 2e-6 : 1e-13;
  return std::fabs(static_cast<double>(got) - want) <= tol * std::fmax(1.0, std::fabs(want));
}

template <typename DType>
double ApplySaver(char sv, DType old, DType value) {
  switch (sv) {
    case '=': return static_cast<double>(value);
    case '+': return static_cast<double>(DType(old + value));
    case '-': return static_cast<double>(DType(old - value));
    case '*': return static_cast<double>(DType(old * value));
    default: return static_cast<double>(DType(old / value));
  }
}

template <typename DType>
class ExprTest : public ::testing::Test {
 protected:
  static constexpr index_t kRows = 3, kCols = 5;
  ExprTest() : a(kRows, kCols), b(kRows, kCols, 1), c(kRows, kCols, 0), dst(kRows, kCols) {
    a.Fill(10, 13);  // 10..22: never 0, never equal to b
    b.Fill(1, 5);    // 1..5
    c.Fill(2, 3);    // 2..4
  }
  void ResetDst() { dst.Fill(40, 7); }
  /*! Applies `dst sv= exp` via `assign` and compares with ref(i, j) under the saver. */
  // std::function keeps this helper a single instantiation per dtype (fast compiles).
  void Check(char sv, const std::function<void()>& assign,
             const std::function<DType(index_t, index_t)>& ref, const char* what) {
    ResetDst();
    std::vector<DType> old(dst.data);
    assign();
    for (index_t i = 0; i < kRows; ++i) {
      for (index_t j = 0; j < kCols; ++j) {
        const DType before = old[static_cast<size_t>(i * dst.t.stride_ + j)];
        const double want = ApplySaver<DType>(sv, before, DType(ref(i, j)));
        ASSERT_TRUE(Near(dst.at(i, j), want))
            << what << " saver '" << sv << "' at (" << i << "," << j << "): got "
            << +dst.at(i, j) << " want " << want;
      }
    }
    EXPECT_TRUE(dst.PaddingIntact()) << what;
  }
  Buf<DType> a, b, c, dst;
};

using Types = ::testing::Types<float, double, std::int32_t>;
TYPED_TEST_SUITE(ExprTest, Types);

// Expands `dst SV= EXPR` for the five savers and compares each with REF (a lambda of (i, j)).
#define CHECK_ALL_SAVERS(EXPR, REF)                                                     \
  do {                                                                                   \
    auto& D = this->dst.t;                                                               \
    this->Check('=', [&] { D = (EXPR); }, REF, #EXPR);                                   \
    this->Check('+', [&] { D += (EXPR); }, REF, #EXPR);                                  \
    this->Check('-', [&] { D -= (EXPR); }, REF, #EXPR);                                  \
    this->Check('*', [&] { D *= (EXPR); }, REF, #EXPR);                                  \
    this->Check('/', [&] { D /= (EXPR); }, REF, #EXPR);                                  \
  } while (0)

TYPED_TEST(ExprTest, ArithmeticBetweenTensorsEverySaver) {
  using T = TypeParam;
  auto A = this->a.t, B = this->b.t;
  auto a = [&](index_t i, index_t j) { return this->a.at(i, j); };
  auto b = [&](index_t i, index_t j) { return this->b.at(i, j); };
  CHECK_ALL_SAVERS(A + B, [&](index_t i, index_t j) { return T(a(i, j) + b(i, j)); });
  CHECK_ALL_SAVERS(A - B, [&](index_t i, index_t j) { return T(a(i, j) - b(i, j)); });
  CHECK_ALL_SAVERS(A * B, [&](index_t i, index_t j) { return T(a(i, j) * b(i, j)); });
  CHECK_ALL_SAVERS(A / B, [&](index_t i, index_t j) { return T(a(i, j) / b(i, j)); });
  CHECK_ALL_SAVERS(F<shade::op::identity>(A), [&](index_t i, index_t j) { return a(i, j); });
}

TEST(TensorAssign, TensorToTensorRebindsTheView) {
  float x[4] = {1, 2, 3, 4}, y[4] = {5, 6, 7, 8};
  Tensor<cpu, 2> tx(x, Shape2(2, 2)), ty(y, Shape2(2, 2));
  tx = ty;  // mshadow semantics: the view now points at y, no element is copied
  EXPECT_EQ(tx.dptr_, y);
  EXPECT_EQ(x[0], 1.f);
  Tensor<cpu, 2> tz(x, Shape2(2, 2));
  tz = F<shade::op::identity>(ty);  // copying elements is an expression
  EXPECT_EQ(x[3], 8.f);
}

TYPED_TEST(ExprTest, ScalarsOnEitherSide) {
  using T = TypeParam;
  auto A = this->a.t;
  auto a = [&](index_t i, index_t j) { return this->a.at(i, j); };
  CHECK_ALL_SAVERS(A + 2, [&](index_t i, index_t j) { return T(a(i, j) + T(2)); });
  CHECK_ALL_SAVERS(2 + A, [&](index_t i, index_t j) { return T(T(2) + a(i, j)); });
  CHECK_ALL_SAVERS(A - 3, [&](index_t i, index_t j) { return T(a(i, j) - T(3)); });
  CHECK_ALL_SAVERS(3 - A, [&](index_t i, index_t j) { return T(T(3) - a(i, j)); });
  CHECK_ALL_SAVERS(A * 2, [&](index_t i, index_t j) { return T(a(i, j) * T(2)); });
  CHECK_ALL_SAVERS(2 * A, [&](index_t i, index_t j) { return T(T(2) * a(i, j)); });
  CHECK_ALL_SAVERS(A / 2, [&](index_t i, index_t j) { return T(a(i, j) / T(2)); });
  CHECK_ALL_SAVERS(100 / A, [&](index_t i, index_t j) { return T(T(100) / a(i, j)); });
  CHECK_ALL_SAVERS(scalar<T>(7), [&](index_t, index_t) { return T(7); });
  // Scalar savers (dst op= s).
  auto& D = this->dst.t;
  this->Check('=', [&] { D = T(6); }, [](index_t, index_t) { return T(6); }, "= s");
  this->Check('+', [&] { D += T(6); }, [](index_t, index_t) { return T(6); }, "+= s");
  this->Check('-', [&] { D -= T(6); }, [](index_t, index_t) { return T(6); }, "-= s");
  this->Check('*', [&] { D *= T(6); }, [](index_t, index_t) { return T(6); }, "*= s");
  this->Check('/', [&] { D /= T(6); }, [](index_t, index_t) { return T(6); }, "/= s");
}

TYPED_TEST(ExprTest, NestedExpressionsStoredInVariables) {
  using T = TypeParam;
  auto A = this->a.t, B = this->b.t, C = this->c.t;
  auto sum = A + B * C;  // nodes hold operands by value: storing the expression is safe
  auto e = (sum - 1) * 2 + -C;
  this->Check('=', [&] { this->dst.t = e; },
              [&](index_t i, index_t j) {
                const T s = T(this->a.at(i, j) + T(this->b.at(i, j) * this->c.at(i, j)));
                return T(T(T(s - T(1)) * T(2)) + T(-this->c.at(i, j)));
              },
              "nested");
}

struct plus_twice_templated {
  template <typename DType>
  static DType Map(DType a, DType b) { return DType(a + b + b); }
};
struct clip_float_only {  // a non-templated functor
  static float Map(float x, float lo, float hi) { return x < lo ? lo : (hi < x ? hi : x); }
};
struct halve_int_only {
  static std::int32_t Map(std::int32_t x) { return x / 2; }
};
struct select3 {  // templated ternary functor: a if c > 3 else b
  template <typename DType>
  static DType Map(DType a, DType b, DType c) { return c > DType(3) ? a : b; }
};

TYPED_TEST(ExprTest, UserFunctorsAndTernaryMaps) {
  using T = TypeParam;
  auto A = this->a.t, B = this->b.t, C = this->c.t;
  auto a = [&](index_t i, index_t j) { return this->a.at(i, j); };
  auto b = [&](index_t i, index_t j) { return this->b.at(i, j); };
  auto c = [&](index_t i, index_t j) { return this->c.at(i, j); };
  CHECK_ALL_SAVERS(F<plus_twice_templated>(A, B),
                   [&](index_t i, index_t j) { return T(a(i, j) + 2 * b(i, j)); });
  CHECK_ALL_SAVERS(F<select3>(A, B, C),
                   [&](index_t i, index_t j) { return c(i, j) > T(3) ? a(i, j) : b(i, j); });
  // Scalars are wildcards in any position of a ternary map.
  CHECK_ALL_SAVERS(F<select3>(scalar<T>(9), B, C),
                   [&](index_t i, index_t j) { return c(i, j) > T(3) ? T(9) : b(i, j); });
  CHECK_ALL_SAVERS(F<select3>(A, scalar<T>(5), scalar<T>(4)), [&](index_t i, index_t j) { return a(i, j); });
  CHECK_ALL_SAVERS(F<select3>(scalar<T>(1), scalar<T>(5), C),
                   [&](index_t i, index_t j) { return c(i, j) > T(3) ? T(1) : T(5); });
  if constexpr (std::is_same<T, float>::value) {
    CHECK_ALL_SAVERS(F<clip_float_only>(A, scalar(12.f), scalar(20.f)), [&](index_t i, index_t j) {
      return a(i, j) < 12.f ? 12.f : (20.f < a(i, j) ? 20.f : a(i, j));
    });
  }
  if constexpr (std::is_same<T, std::int32_t>::value) {
    CHECK_ALL_SAVERS(F<halve_int_only>(A), [&](index_t i, index_t j) { return a(i, j) / 2; });
  }
}

template <typename T, typename OP, typename Ref>
void CheckUnary(Buf<T>& src, Ref ref, const char* name) {
  Buf<T> out(src.t.size(0), src.t.size(1));
  out.t = F<OP>(src.t);
  for (index_t i = 0; i < src.t.size(0); ++i)
    for (index_t j = 0; j < src.t.size(1); ++j)
      ASSERT_TRUE(Near(out.at(i, j), static_cast<double>(T(ref(src.at(i, j))))))
          << name << "(" << +src.at(i, j) << ") = " << +out.at(i, j);
  EXPECT_TRUE(out.PaddingIntact());
}
template <typename T, typename OP, typename Ref>
void CheckBinary(Buf<T>& x, Buf<T>& y, Ref ref, const char* name) {
  Buf<T> out(x.t.size(0), x.t.size(1));
  out.t = F<OP>(x.t, y.t);
  for (index_t i = 0; i < x.t.size(0); ++i)
    for (index_t j = 0; j < x.t.size(1); ++j)
      ASSERT_TRUE(Near(out.at(i, j), static_cast<double>(T(ref(x.at(i, j), y.at(i, j))))))
          << name << "(" << +x.at(i, j) << ", " << +y.at(i, j) << ") = " << +out.at(i, j);
}

TYPED_TEST(ExprTest, OpFunctors) {
  using T = TypeParam;
  Buf<T> s(3, 5);  // signed values -5..6, zero included
  for (index_t i = 0; i < 3; ++i)
    for (index_t j = 0; j < 5; ++j) s.at(i, j) = T(static_cast<int>((i * 5 + j) % 12) - 5);
  CheckUnary<T, shade::op::identity>(s, [](T v) { return v; }, "identity");
  CheckUnary<T, shade::op::negation>(s, [](T v) { return T(-v); }, "negation");
  CheckUnary<T, shade::op::abs>(s, [](T v) { return v < 0 ? T(-v) : v; }, "abs");
  CheckUnary<T, shade::op::square>(s, [](T v) { return T(v * v); }, "square");
  CheckUnary<T, shade::op::relu>(s, [](T v) { return v > 0 ? v : T(0); }, "relu");
  CheckUnary<T, shade::op::sign>(s, [](T v) { return T(v > 0 ? 1 : v < 0 ? -1 : 0); }, "sign");
  CheckBinary<T, shade::op::maximum>(s, this->b, [](T x, T y) { return x > y ? x : y; }, "maximum");
  CheckBinary<T, shade::op::minimum>(s, this->b, [](T x, T y) { return x < y ? x : y; }, "minimum");
  CheckBinary<T, shade::op::right>(s, this->b, [](T, T y) { return y; }, "right");
  CheckBinary<T, shade::op::plus>(s, this->b, [](T x, T y) { return T(x + y); }, "plus");
  CheckBinary<T, shade::op::minus>(s, this->b, [](T x, T y) { return T(x - y); }, "minus");
  CheckBinary<T, shade::op::mul>(s, this->b, [](T x, T y) { return T(x * y); }, "mul");
  CheckBinary<T, shade::op::div>(s, this->b, [](T x, T y) { return T(x / y); }, "div");
  if constexpr (!std::is_integral<T>::value) {
    Buf<T> p(3, 5);  // positive values 0.25 .. 3.75
    for (index_t i = 0; i < 3; ++i)
      for (index_t j = 0; j < 5; ++j) p.at(i, j) = T(0.25 * double(1 + i * 5 + j));
    CheckUnary<T, shade::op::exp>(s, [](T v) { return std::exp(v); }, "exp");
    CheckUnary<T, shade::op::expm1>(s, [](T v) { return std::expm1(v); }, "expm1");
    CheckUnary<T, shade::op::tanh>(s, [](T v) { return std::tanh(v); }, "tanh");
    CheckUnary<T, shade::op::sigmoid>(s, [](T v) { return T(1) / (T(1) + std::exp(-v)); }, "sigmoid");
    CheckUnary<T, shade::op::log>(p, [](T v) { return std::log(v); }, "log");
    CheckUnary<T, shade::op::log1p>(p, [](T v) { return std::log1p(v); }, "log1p");
    CheckUnary<T, shade::op::sqrt>(p, [](T v) { return std::sqrt(v); }, "sqrt");
    CheckUnary<T, shade::op::rsqrt>(p, [](T v) { return T(1) / std::sqrt(v); }, "rsqrt");
    CheckBinary<T, shade::op::power>(p, this->b, [](T x, T y) { return std::pow(x, y); }, "power");
  } else {
    CheckBinary<T, shade::op::power>(this->b, this->c, [](T x, T y) {
      return T(std::lround(std::pow(double(x), double(y))));
    }, "power");
  }
}

TYPED_TEST(ExprTest, TransposedOperands) {
  using T = TypeParam;
  Buf<T> at(5, 3), out(5, 3);  // transposes of the 3x5 operands
  auto A = this->a.t, B = this->b.t;
  out.t = A.T() + B.T() * 2;
  for (index_t i = 0; i < 5; ++i)
    for (index_t j = 0; j < 3; ++j)
      ASSERT_EQ(out.at(i, j), T(this->a.at(j, i) + T(this->b.at(j, i) * T(2))));
  EXPECT_TRUE(out.PaddingIntact());
  // Transposing twice gives the original.
  this->Check('+', [&] { this->dst.t += A.T().T(); },
              [&](index_t i, index_t j) { return this->a.at(i, j); }, "A.T().T()");
  EXPECT_THROW(this->dst.t = A.T(), shade::Error);  // (5,3) into (3,5)
}

// `dst = src.T()` alone runs the kernel layer's blocked transpose (TensorEvaluator in
// engine.h): sizes around the 16x16 / 8x8 register squares and the 64-row tiles, padded pitches
// on both sides, 0-size, and two disjoint views of one buffer.
TYPED_TEST(ExprTest, PlainTransposeMatchesTheElementLoop) {
  using T = TypeParam;
  const index_t sizes[][3] = {{0, 7, 1},    {1, 1, 0},    {16, 16, 0}, {17, 33, 3},
                              {64, 130, 5}, {130, 64, 0}, {200, 9, 16}};
  for (const auto& sz : sizes) {
    const index_t rows = sz[0], cols = sz[1], pad = sz[2];
    Buf<T> src(rows, cols, pad), dst(cols, rows, pad + 1);
    src.Fill(3, 1000);
    dst.t = src.t.T();
    for (index_t i = 0; i < rows; ++i)
      for (index_t j = 0; j < cols; ++j)
        ASSERT_EQ(dst.at(j, i), src.at(i, j)) << rows << "x" << cols << " at " << i << "," << j;
    EXPECT_TRUE(dst.PaddingIntact()) << rows << "x" << cols;
    dst.t += src.t.T();  // another saver: the element loop
    for (index_t i = 0; i < rows; ++i)
      for (index_t j = 0; j < cols; ++j) ASSERT_EQ(dst.at(j, i), T(src.at(i, j) + src.at(i, j)));
  }
  // Two views into one buffer (disjoint rows): the overlap test must let the kernel run.
  Buf<T> sq(8, 8, 8);
  sq.Fill(1, 97);
  Tensor<cpu, 2, T> top(sq.t.dptr_, Shape2(4, 4), sq.t.stride_, nullptr);
  Tensor<cpu, 2, T> below(sq.t.dptr_ + sq.t.stride_ * 4, Shape2(4, 4), sq.t.stride_, nullptr);
  std::vector<T> want;
  for (index_t i = 0; i < 4; ++i)
    for (index_t j = 0; j < 4; ++j) want.push_back(sq.at(j, i));
  below = top.T();
  for (index_t i = 0; i < 4; ++i)
    for (index_t j = 0; j < 4; ++j)
      ASSERT_EQ(sq.at(4 + i, j), want[static_cast<size_t>(i * 4 + j)]);
}

TYPED_TEST(ExprTest, Typecast) {
  using T = TypeParam;
  Buf<double> d(3, 5);
  for (index_t i = 0; i < 3; ++i)
    for (index_t j = 0; j < 5; ++j) d.at(i, j) = 1.75 * double(i * 5 + j) - 6.0;
  this->Check('=', [&] { this->dst.t = tcast<T>(d.t); },
              [&](index_t i, index_t j) { return static_cast<T>(d.at(i, j)); }, "tcast");
  this->Check('+', [&] { this->dst.t += tcast<T>(d.t * 2.0) + this->b.t; },
              [&](index_t i, index_t j) { return T(static_cast<T>(d.at(i, j) * 2.0) + this->b.at(i, j)); },
              "tcast in a map");
  Buf<std::int32_t> back(3, 5);
  back.t = tcast<std::int32_t>(this->a.t);
  for (index_t i = 0; i < 3; ++i)
    for (index_t j = 0; j < 5; ++j) ASSERT_EQ(back.at(i, j), static_cast<std::int32_t>(this->a.at(i, j)));
}

TYPED_TEST(ExprTest, EmptyTensorsAndRank1And4) {
  using T = TypeParam;
  for (auto shape : {Shape2(0, 5), Shape2(3, 0), Shape2(0, 0)}) {
    Tensor<cpu, 2, T> x(nullptr, shape), y(nullptr, shape);
    x = y * 2 + 1;  // visits nothing
    x += T(3);
    EXPECT_THROW(x = y + this->a.t, shade::Error);  // a 0-size tensor is not a wildcard
  }
  T v1[7], v2[7];
  Tensor<cpu, 1, T> x(v1, shade::Shape1(7)), y(v2, shade::Shape1(7));
  for (int i = 0; i < 7; ++i) v2[i] = T(i + 1);
  x = y * y - 1;
  for (int i = 0; i < 7; ++i) ASSERT_EQ(v1[i], T((i + 1) * (i + 1) - 1));
  std::vector<T> big(2 * 3 * 4 * 6, T(-1)), big2(2 * 3 * 4 * 5);
  // Rank 4 with padded rows: pitch 6 for rows of 5.
  Tensor<cpu, 4, T> p(big.data(), shade::Shape4(2, 3, 4, 5), 6, nullptr);
  Tensor<cpu, 4, T> q(big2.data(), shade::Shape4(2, 3, 4, 5));
  for (size_t i = 0; i < big2.size(); ++i) big2[i] = T(i % 9);
  p = q + 1;
  for (index_t r = 0; r < 24; ++r) {
    for (index_t k = 0; k < 5; ++k) ASSERT_EQ(big[r * 6 + k], T(big2[r * 5 + k] + 1));
    ASSERT_EQ(big[r * 6 + 5], T(-1));  // padding untouched
  }
}

TEST(Float16, MapsComputeThroughFloat) {
  using shade::half_t;
  using shade::bf16_t;
  half_t hx[6], hy[6];
  bf16_t bx[6];
  for (int i = 0; i < 6; ++i) hy[i] = half_t(0.5f * float(i) - 1.f);
  Tensor<cpu, 2, half_t> x(hx, Shape2(2, 3)), y(hy, Shape2(2, 3));
  Tensor<cpu, 2, bf16_t> bxt(bx, Shape2(2, 3));
  x = y * half_t(2) + F<shade::op::square>(y) - scalar(half_t(0.25f));
  x += F<shade::op::exp>(y) * half_t(0);
  bxt = tcast<bf16_t>(F<shade::op::relu>(y));
  for (int i = 0; i < 6; ++i) {
    const float v = 0.5f * float(i) - 1.f;
    EXPECT_EQ(float(hx[i]), float(half_t(float(half_t(float(half_t(2 * v)) + float(half_t(v * v)))) - 0.25f)));
    EXPECT_EQ(float(bx[i]), v > 0 ? v : 0.f);
  }
}

TEST(ShapeCheckErrors, NameBothShapes) {
  std::vector<float> m(64);
  Tensor<cpu, 2> a(m.data(), Shape2(2, 3)), b(m.data(), Shape2(3, 2)), c(m.data(), Shape2(2, 3));
  Tensor<cpu, 2> d(m.data() + 32, Shape2(2, 2));
  try {
    c = a + b;
    FAIL() << "no throw";
  } catch (const shade::Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("BinaryMapExp"), std::string::npos) << msg;
    EXPECT_NE(msg.find("(2,3)"), std::string::npos) << msg;
    EXPECT_NE(msg.find("(3,2)"), std::string::npos) << msg;
  }
  try {
    d = a * 2.f;
    FAIL() << "no throw";
  } catch (const shade::Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("(2,3)"), std::string::npos) << msg;
    EXPECT_NE(msg.find("(2,2)"), std::string::npos) << msg;
  }
  try {
    c = F<select3>(a, scalar(1.f), b);
    FAIL() << "no throw";
  } catch (const shade::Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("TernaryMapExp"), std::string::npos) << msg;
    EXPECT_NE(msg.find("(2,3), scalar, (3,2)"), std::string::npos) << msg;
  }
  EXPECT_THROW(c = F<select3>(scalar(1.f), a, b), shade::Error);
  EXPECT_THROW(c = F<select3>(b, a, scalar(2.f)), shade::Error);
  EXPECT_THROW(c += tcast<float>(tcast<int>(b)), shade::Error);
  EXPECT_THROW(c -= -b, shade::Error);
  EXPECT_THROW(c *= a.T(), shade::Error);
  EXPECT_NO_THROW(c /= b.T() + 1.f);
  // The failed assignments wrote nothing: c aliases a, values still 0 except the / above.
}

TEST(CompileTimeChecks, ExpInfoAndTypeCheck) {
  using T2 = Tensor<cpu, 2, float>;
  using T3 = Tensor<cpu, 3, float>;
  using G2 = Tensor<gpu, 2, float>;
  using Sum22 = decltype(std::declval<T2>() + std::declval<T2>());
  using Sum23 = decltype(std::declval<T2>() + std::declval<T3>());
  using SumS = decltype(std::declval<T2>() * 2.f);
  using Mixed = decltype(std::declval<T2>() + std::declval<G2>());
  static_assert(ExpInfo<Sum22>::kDim == 2, "");
  static_assert(ExpInfo<Sum23>::kDim == -1, "rank mismatch is detected");
  static_assert(ExpInfo<SumS>::kDim == 2, "scalars adopt the other rank");
  static_assert(ExpInfo<ScalarExp<float>>::kDim == 0, "");
  static_assert(TypeCheck<cpu, 2, float, Sum22>::kMapPass, "");
  static_assert(!TypeCheck<cpu, 3, float, Sum22>::kMapPass, "");
  static_assert(!TypeCheck<cpu, 2, float, Sum23>::kMapPass, "");
  static_assert(!TypeCheck<cpu, 2, float, Mixed>::kDevPass, "cpu and gpu operands do not mix");
  static_assert(!TypeCheck<gpu, 2, float, Sum22>::kMapPass, "");
  static_assert(TypeCheck<cpu, 1, float, Sum22>::kRedPass, "");
  static_assert(type::kRValue == 0 && type::kMapper == 1 && type::kChainer == 3 && type::kComplex == 7, "");
  static_assert(Sum22::kExpType == type::kMapper, "");
  static_assert(decltype(std::declval<T2>().T())::kExpType == type::kChainer, "");
  SUCCEED();
}

TEST(Reducers, InitAndReduce) {
  const float v[] = {3.f, -7.f, 11.f, 0.5f};
  float s, mx, mn;
  shade::red::sum::SetInitValue(s);
  shade::red::maximum::SetInitValue(mx);
  shade::red::minimum::SetInitValue(mn);
  EXPECT_EQ(s, 0.f);
  // mshadow's initial values: the finite extremes (red::limits), not infinities.
  EXPECT_EQ(mx, -std::numeric_limits<float>::max());
  EXPECT_EQ(mn, std::numeric_limits<float>::max());
  float imx_inf, imn_inf;  // the NumPy-facing reducers start from the infinities
  shade::red::maximum_from_inf::SetInitValue(imx_inf);
  shade::red::minimum_from_inf::SetInitValue(imn_inf);
  EXPECT_EQ(imx_inf, -std::numeric_limits<float>::infinity());
  EXPECT_EQ(imn_inf, std::numeric_limits<float>::infinity());
  shade::half_t hmx;
  shade::red::maximum::SetInitValue(hmx);
  EXPECT_EQ(float(hmx), -65504.f);
  double dmn;
  shade::red::minimum::SetInitValue(dmn);
  EXPECT_EQ(dmn, std::numeric_limits<double>::max());
  for (float x : v) {
    shade::red::sum::Reduce(s, x);
    shade::red::maximum::Reduce(mx, x);
    shade::red::minimum::Reduce(mn, x);
  }
  EXPECT_EQ(s, 7.5f);
  EXPECT_EQ(mx, 11.f);
  EXPECT_EQ(mn, -7.f);
  std::int32_t imx, imn;
  shade::red::maximum::SetInitValue(imx);
  shade::red::minimum::SetInitValue(imn);
  EXPECT_EQ(imx, INT32_MIN);
  EXPECT_EQ(imn, INT32_MAX);
  EXPECT_EQ(shade::red::maximum::PartialGrad(11.f, 11.f), 1.f);
  EXPECT_EQ(shade::red::maximum::PartialGrad(11.f, 3.f), 0.f);
  EXPECT_EQ(shade::red::sum::PartialGrad(11.f, 3.f), 1.f);
}

// ---- MakeTensorExp: a read-only extension and an assignable one -------------------------

/*! Repeats a 1-D source over `rows` rows. */
template <typename SrcExp, typename DType>
struct RepeatRowsExp : public MakeTensorExp<RepeatRowsExp<SrcExp, DType>, SrcExp, 2, DType> {
  SrcExp src_;
  RepeatRowsExp(const SrcExp& src, index_t rows, index_t cols) : src_(src) {
    this->shape_ = Shape2(rows, cols);
  }
};
template <typename DType>
RepeatRowsExp<Tensor<cpu, 1, DType>, DType> repeat_rows(const Tensor<cpu, 1, DType>& v, index_t rows) {
  return RepeatRowsExp<Tensor<cpu, 1, DType>, DType>(v, rows, v.size(0));
}
}  // namespace
namespace shade {
namespace expr {
template <typename SrcExp, typename DType>
class Plan<RepeatRowsExp<SrcExp, DType>, DType> {
 public:
  explicit Plan(const RepeatRowsExp<SrcExp, DType>& e) : src_(MakePlan(e.src_)) {}
  DType Eval(index_t /*y*/, index_t x) const { return src_.Eval(0, x); }

 private:
  Plan<SrcExp, DType> src_;
};
}  // namespace expr
}  // namespace shade
namespace {

/*! Columns [begin, end) of a 2-D tensor; assignable. */
template <typename DType>
struct ColumnsExp : public MakeTensorExp<ColumnsExp<DType>, Tensor<cpu, 2, DType>, 2, DType> {
  using MakeTensorExp<ColumnsExp<DType>, Tensor<cpu, 2, DType>, 2, DType>::operator=;
  Tensor<cpu, 2, DType> src_;
  index_t begin_;
  ColumnsExp(const Tensor<cpu, 2, DType>& src, index_t begin, index_t end) : src_(src), begin_(begin) {
    SHADE_CHECK(0 <= begin && begin <= end && end <= src.size(1)) << "columns out of range";
    this->shape_ = Shape2(src.size(0), end - begin);
  }
};
template <typename DType>
ColumnsExp<DType> columns(const Tensor<cpu, 2, DType>& t, index_t b, index_t e) {
  return ColumnsExp<DType>(t, b, e);
}
}  // namespace
namespace shade {
namespace expr {
template <typename DType>
class Plan<ColumnsExp<DType>, DType> {
 public:
  explicit Plan(const ColumnsExp<DType>& e) : dptr_(e.src_.dptr_ + e.begin_), stride_(e.src_.stride_) {}
  DType Eval(index_t y, index_t x) const { return dptr_[y * stride_ + x]; }
  DType& REval(index_t y, index_t x) { return dptr_[y * stride_ + x]; }

 private:
  DType* dptr_;
  index_t stride_;
};
}  // namespace expr
}  // namespace shade
namespace {

TEST(MakeTensorExp, ReadOnlyExtensionInExpressions) {
  float v[5] = {1, 2, 3, 4, 5};
  Tensor<cpu, 1> row(v, shade::Shape1(5));
  Buf<float> m(3, 5), out(3, 5);
  m.Fill(0, 100);
  static_assert(ExpInfo<RepeatRowsExp<Tensor<cpu, 1>, float>>::kDim == 2, "");
  static_assert(ExpInfo<RepeatRowsExp<Tensor<cpu, 1>, float>>::kDevMask == cpu::kDevMask, "");
  out.t = repeat_rows(row, 3) * 2.f + m.t;
  for (index_t i = 0; i < 3; ++i)
    for (index_t j = 0; j < 5; ++j) ASSERT_EQ(out.at(i, j), v[j] * 2.f + m.at(i, j));
  out.t = repeat_rows(row, 3);
  EXPECT_EQ(out.at(2, 4), 5.f);
  EXPECT_THROW(out.t = repeat_rows(row, 4), shade::Error);
  EXPECT_THROW(out.t = repeat_rows(row, 3) + repeat_rows(row, 2), shade::Error);
}

TEST(MakeTensorExp, AssignableExtension) {
  Buf<float> m(3, 6), src(3, 2);
  m.Fill(0, 100);
  src.Fill(50, 100);
  std::vector<float> before(m.data);
  columns(m.t, 2, 4) = src.t * 2.f;
  columns(m.t, 0, 1) += 10.f * scalar(1.f);
  columns(m.t, 5, 6) = 9.f;
  for (index_t i = 0; i < 3; ++i) {
    EXPECT_EQ(m.at(i, 0), before[i * m.t.stride_] + 10.f);
    EXPECT_EQ(m.at(i, 1), before[i * m.t.stride_ + 1]);
    EXPECT_EQ(m.at(i, 2), src.at(i, 0) * 2.f);
    EXPECT_EQ(m.at(i, 3), src.at(i, 1) * 2.f);
    EXPECT_EQ(m.at(i, 4), before[i * m.t.stride_ + 4]);
    EXPECT_EQ(m.at(i, 5), 9.f);
  }
  EXPECT_TRUE(m.PaddingIntact());
  // An extension on the right of another one.
  Buf<float> out(3, 2);
  out.t = columns(m.t, 2, 4) - columns(m.t, 2, 4);
  EXPECT_EQ(out.at(2, 1), 0.f);
  EXPECT_THROW(columns(m.t, 0, 3) = src.t, shade::Error);
}

}  // namespace

// The ufuncs added through the op registry (functor/op_registry.h) on the static front end:
// F<op::name>(x) / F<op::name>(a, b) over row-padded (non-contiguous) tensors against NumPy's
// results in tests/data/dyn/cases.txt (the cases whose operands and result share one float dtype
// and shape; the dynamic front end runs all of them in test_dyn_elementwise).
namespace registry_ufuncs {

namespace dyn2 = shade::dyn2;
using shade::NDArray;
using namespace shade;        // NOLINT(build/namespaces)
using namespace shade::expr;  // NOLINT(build/namespaces)

/*! A row-padded copy (pitch n + 3) of a's n elements as one row. */
template <typename T>
struct PaddedRow {
  std::vector<T> data;
  Tensor<cpu, 2, T> t;
  explicit PaddedRow(const NDArray& a)
      : data(static_cast<size_t>(a.numel() + 3), T(-77)),
        t(data.data(), Shape2(1, a.numel()), a.numel() + 3, nullptr) {
    const T* p = static_cast<const T*>(a.data_ptr());
    for (index_t i = 0; i < a.numel(); ++i) data[static_cast<size_t>(i)] = p[i];
  }
};

template <typename OP, int kArity, typename T>
NDArray Static(const std::vector<NDArray>& in, const NDArray& want) {
  NDArray out = NDArray::Empty(want.sizes(), want.type_flag());
  Tensor<cpu, 2, T> o(static_cast<T*>(out.data_ptr()), Shape2(1, out.numel()));
  PaddedRow<T> a(in[0]);
  if constexpr (kArity == 1) {
    o = F<OP>(a.t);
  } else {
    PaddedRow<T> b(in[1]);
    o = F<OP>(a.t, b.t) * scalar(T(1));  // inside a larger expression, too
  }
  return out;
}

template <typename OP, int kArity>
NDArray StaticAnyFloat(const std::vector<NDArray>& in, const NDArray& want) {
  switch (want.type_flag()) {
    case shade::kFloat16:
      return Static<OP, kArity, shade::half_t>(in, want);
    case shade::kFloat32:
      return Static<OP, kArity, float>(in, want);
    default:
      return Static<OP, kArity, double>(in, want);
  }
}

TEST(RegistryUfuncs, StaticFrontEndMatchesNumPy) {
  std::ifstream file(std::string(SHADE_TEST_DATA_DIR) + "/dyn/cases.txt");
  ASSERT_TRUE(file.good());
  const std::map<std::string, std::function<NDArray(const std::vector<NDArray>&, const NDArray&)>>
      ops = {{"log2", StaticAnyFloat<shade::op::log2, 1>},
             {"exp2", StaticAnyFloat<shade::op::exp2, 1>},
             {"log10", StaticAnyFloat<shade::op::log10, 1>},
             {"cbrt", StaticAnyFloat<shade::op::cbrt, 1>},
             {"arctan2", StaticAnyFloat<shade::op::arctan2, 2>},
             {"hypot", StaticAnyFloat<shade::op::hypot, 2>},
             {"logaddexp", StaticAnyFloat<shade::op::logaddexp, 2>},
             {"copysign", StaticAnyFloat<shade::op::copysign, 2>}};
  std::map<std::string, int> checked;
  std::string line, op;
  std::vector<NDArray> in;
  bool usable = false;
  while (std::getline(file, line)) {
    const std::vector<std::string> w = dyn2::Words(line);
    if (w.empty()) continue;
    if (w[0] == "case") {
      op = w[1];
      in.clear();
      usable = ops.count(op) > 0;
    } else if (w[0] == "in") {
      if (w[1] == "int" || w[1] == "float") {
        usable = false;  // weak scalars: the dynamic front end's business
      } else if (usable) {
        in.push_back(dyn2::ParseArray(w));
      }
    } else if (w[0] == "out" && usable && w[1] != "error") {
      const NDArray want = dyn2::ParseArray(w);
      bool same = shade::KindOf(want.type_flag()) == shade::DTypeKind::kFloat;
      for (const NDArray& a : in)
        same = same && a.type_flag() == want.type_flag() && a.sizes() == want.sizes();
      if (!same) continue;
      const NDArray got = ops.at(op)(in, want);
      dyn2::ExpectClose(got, want, want.type_flag() == shade::kFloat16 ? 1 : 4, 0,
                        "static " + line);
      ++checked[op + " " + shade::TypeFlagName(want.type_flag())];
    }
  }
  for (const auto& kv : ops) {
    for (const char* dt : {"float16", "float32", "float64"}) {
      EXPECT_GT(checked[kv.first + " " + dt], 0) << kv.first << " " << dt << " never checked";
    }
  }
}

// Integer and bool tensors compute in double (float for the 16-bit floats) and convert back, as
// every op:: math functor does; the registry cost is the functor's kCost (the static grain).
TEST(RegistryUfuncs, StaticIntegerTensorsAndCost) {
  std::int32_t xv[5] = {1, 2, 8, 100, 1000}, yv[5] = {-3, 4, 0, 7, 1}, zv[5];
  Tensor<cpu, 1, std::int32_t> x(xv, shade::Shape1(5)), y(yv, shade::Shape1(5)),
      z(zv, shade::Shape1(5));
  z = F<shade::op::log2>(x);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(zv[i], static_cast<std::int32_t>(std::log2(double(xv[i]))));
  z = F<shade::op::hypot>(x, y);
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(zv[i], static_cast<std::int32_t>(std::hypot(double(xv[i]), double(yv[i]))));
  z = F<shade::op::copysign>(x, y);
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(zv[i], static_cast<std::int32_t>(std::copysign(double(xv[i]), double(yv[i]))));
  static_assert(shade::op::log2::kCost == shade::OpCostOf(shade::OpCode::kLog2), "one cost");
  static_assert(shade::op::exp::kCost == shade::OpCostOf(shade::OpCode::kExp), "one cost");
  static_assert(shade::expr::detail::FunctorCost<shade::op::arctan2>::value ==
                    shade::OpCostOf(shade::OpCode::kArctan2),
                "the static plan reads the registry cost");
}

}  // namespace registry_ufuncs
