// dot / batch_dot against a naive triple loop: every transpose form and saver, alpha scaling,
// padded operands (leading dimension > row length), vector forms (gemv, ger), empty shapes,
// and every run-time error path.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "shade/tensor/tensor.h"
#include "ext_test_util.h"

namespace {

using ext_test::ErrorOf;

using shade::cpu;
using shade::index_t;
using shade::Shape1;
using shade::Shape2;
using shade::Shape3;
using shade::Tensor;
using shade::expr::batch_dot;
using shade::expr::dot;

/*! An owning buffer of `batch` matrices rows x cols with rows padded by `pad`. */
template <typename T>
struct Mat {
  std::vector<T> data;
  index_t rows, cols, ld;
  Mat(index_t r, index_t c, index_t pad = 3, index_t batch = 1)
      : data(static_cast<size_t>(batch * r * (c + pad) + 1)), rows(r), cols(c), ld(c + pad) {
    for (size_t i = 0; i < data.size(); ++i) data[i] = T(double((i * 7) % 11) - 5.0) / T(4);
  }
  Tensor<cpu, 2, T> t2() { return Tensor<cpu, 2, T>(data.data(), Shape2(rows, cols), ld, nullptr); }
  Tensor<cpu, 3, T> t3(index_t batch) {
    return Tensor<cpu, 3, T>(data.data(), Shape3(batch, rows, cols), ld, nullptr);
  }
  T at(index_t i, index_t j, index_t b = 0) const { return data[static_cast<size_t>((b * rows + i) * ld + j)]; }
};

template <typename T>
double Tol() {
  return std::is_same<T, float>::value ? 1e-4 : 1e-12;
}

template <typename T>
double Apply(char sv, double old, double v) {
  return sv == '=' ? v : sv == '+' ? old + v : old - v;
}

/*! Runs `dst sv= expr` for sv in =, +=, -=. */
template <typename Dst, typename E>
void Assign(char sv, Dst dst, const E& e) {
  if (sv == '=') dst = e;
  if (sv == '+') dst += e;
  if (sv == '-') dst -= e;
}

template <typename T>
class DotTest : public ::testing::Test {};
using Types = ::testing::Types<float, double>;
TYPED_TEST_SUITE(DotTest, Types);

template <bool LT, bool RT, typename T>
void GemmCase(index_t m, index_t n, index_t k, char sv, T scale) {
  Mat<T> a(LT ? k : m, LT ? m : k), b(RT ? n : k, RT ? k : n, 5), c(m, n, 2);
  const Mat<T> c0 = c;
  auto A = a.t2(), B = b.t2();
  if constexpr (!LT && !RT) Assign(sv, c.t2(), scale * dot(A, B));
  if constexpr (LT && !RT) Assign(sv, c.t2(), dot(A.T(), B) * scale);
  if constexpr (!LT && RT) Assign(sv, c.t2(), scale * dot(A, B.T()));
  if constexpr (LT && RT) Assign(sv, c.t2(), scale * dot(A.T(), B.T()));
  for (index_t i = 0; i < m; ++i) {
    for (index_t j = 0; j < n; ++j) {
      double ref = 0;
      for (index_t p = 0; p < k; ++p)
        ref += double(LT ? a.at(p, i) : a.at(i, p)) * double(RT ? b.at(j, p) : b.at(p, j));
      const double want = Apply<T>(sv, c0.at(i, j), double(scale) * ref);
      ASSERT_NEAR(c.at(i, j), want, Tol<T>() * (1 + std::fabs(want)))
          << "LT=" << LT << " RT=" << RT << " sv=" << sv << " at " << i << "," << j;
    }
    for (index_t j = n; j < c.ld; ++j) ASSERT_EQ(c.at(i, j), c0.at(i, j)) << "padding written";
  }
}

TYPED_TEST(DotTest, GemmAllTransposeFormsAndSavers) {
  using T = TypeParam;
  for (char sv : {'=', '+', '-'}) {
    GemmCase<false, false, T>(4, 5, 3, sv, T(1));
    GemmCase<true, false, T>(4, 5, 3, sv, T(0.5));
    GemmCase<false, true, T>(4, 5, 3, sv, T(-2));
    GemmCase<true, true, T>(4, 5, 3, sv, T(3));
    GemmCase<false, false, T>(7, 1, 6, sv, T(2));
    GemmCase<true, true, T>(1, 9, 2, sv, T(1));
  }
}

TYPED_TEST(DotTest, GemmEmptyShapes) {
  using T = TypeParam;
  for (char sv : {'=', '+', '-'}) {
    GemmCase<false, false, T>(0, 4, 3, sv, T(1));
    GemmCase<false, true, T>(3, 0, 3, sv, T(1));
    GemmCase<true, false, T>(3, 4, 0, sv, T(1));  // k = 0: = gives zeros, += keeps
  }
}

TYPED_TEST(DotTest, GemvBothForms) {
  using T = TypeParam;
  Mat<T> m(4, 6), xv(1, 6, 0), xr(1, 4, 0);
  Tensor<cpu, 1, T> x6(xv.data.data(), Shape1(6)), x4(xr.data.data(), Shape1(4));
  auto M = m.t2();
  for (char sv : {'=', '+', '-'}) {
    std::vector<T> y4(4, T(1.5)), y6(6, T(-0.5));
    Tensor<cpu, 1, T> Y4(y4.data(), Shape1(4)), Y6(y6.data(), Shape1(6));
    Assign(sv, Y4, T(2) * dot(M, x6));   // (4,6) x (6,) -> (4,)
    Assign(sv, Y6, dot(M.T(), x4));      // (6,4) x (4,) -> (6,)
    for (index_t i = 0; i < 4; ++i) {
      double r = 0;
      for (index_t j = 0; j < 6; ++j) r += double(m.at(i, j)) * double(x6[j]);
      ASSERT_NEAR(y4[i], Apply<T>(sv, 1.5, 2 * r), Tol<T>() * (1 + std::fabs(r))) << sv;
    }
    for (index_t j = 0; j < 6; ++j) {
      double r = 0;
      for (index_t i = 0; i < 4; ++i) r += double(m.at(i, j)) * double(x4[i]);
      ASSERT_NEAR(y6[j], Apply<T>(sv, -0.5, r), Tol<T>() * (1 + std::fabs(r))) << sv;
    }
    // vector * matrix: (4,) x (4,6) -> (6,) and (6,) x (6,4)^T... i.e. dot(v, M.T()) -> (4,)
    std::vector<T> z6(6, T(2)), z4(4, T(3));
    Tensor<cpu, 1, T> Z6(z6.data(), Shape1(6)), Z4(z4.data(), Shape1(4));
    Assign(sv, Z6, dot(x4, M));
    Assign(sv, Z4, dot(x6, M.T()) * T(-1));
    for (index_t j = 0; j < 6; ++j) {
      double r = 0;
      for (index_t i = 0; i < 4; ++i) r += double(x4[i]) * double(m.at(i, j));
      ASSERT_NEAR(z6[j], Apply<T>(sv, 2, r), Tol<T>() * (1 + std::fabs(r))) << sv;
    }
    for (index_t i = 0; i < 4; ++i) {
      double r = 0;
      for (index_t j = 0; j < 6; ++j) r += double(x6[j]) * double(m.at(i, j));
      ASSERT_NEAR(z4[i], Apply<T>(sv, 3, -r), Tol<T>() * (1 + std::fabs(r))) << sv;
    }
  }
}

TYPED_TEST(DotTest, OuterProductGer) {
  using T = TypeParam;
  Mat<T> xs(1, 3, 0), ys(1, 5, 0), c(3, 5, 4);
  Tensor<cpu, 1, T> x(xs.data.data(), Shape1(3)), y(ys.data.data(), Shape1(5));
  for (char sv : {'=', '+', '-'}) {
    const Mat<T> c0 = c;
    c.data[0] = std::is_same<T, float>::value ? T(NAN) : c.data[0];  // `=` must not keep NaN
    Assign(sv, c.t2(), T(2) * dot(x.T(), y));
    for (index_t i = 0; i < 3; ++i)
      for (index_t j = 0; j < 5; ++j) {
        const double old = (i == 0 && j == 0) ? double(c.data[0]) : double(c0.at(i, j));
        if (sv != '=' && i == 0 && j == 0) continue;
        ASSERT_NEAR(c.at(i, j), Apply<T>(sv, old, 2.0 * double(x[i]) * double(y[j])), Tol<T>()) << sv;
      }
    c.data[0] = T(1);
  }
}

template <bool LT, bool RT, typename T>
void BatchCase(char sv) {
  const index_t batch = 3, m = 2, n = 4, k = 3;
  Mat<T> a(LT ? k : m, LT ? m : k, 2, batch), b(RT ? n : k, RT ? k : n, 1, batch), c(m, n, 3, batch);
  const Mat<T> c0 = c;
  Assign(sv, c.t3(batch), batch_dot<LT, RT>(a.t3(batch), b.t3(batch)));
  for (index_t s = 0; s < batch; ++s)
    for (index_t i = 0; i < m; ++i)
      for (index_t j = 0; j < n; ++j) {
        double r = 0;
        for (index_t p = 0; p < k; ++p)
          r += double(LT ? a.at(p, i, s) : a.at(i, p, s)) * double(RT ? b.at(j, p, s) : b.at(p, j, s));
        ASSERT_NEAR(c.at(i, j, s), Apply<T>(sv, c0.at(i, j, s), r), Tol<T>() * (1 + std::fabs(r)))
            << LT << RT << sv;
      }
}

TYPED_TEST(DotTest, BatchDotAllFlags) {
  using T = TypeParam;
  for (char sv : {'=', '+', '-'}) {
    BatchCase<false, false, T>(sv);
    BatchCase<true, false, T>(sv);
    BatchCase<false, true, T>(sv);
    BatchCase<true, true, T>(sv);
  }
  // The default flags are (false, false), and scale applies.
  Mat<T> a(2, 3, 0, 2), b(3, 2, 0, 2), c(2, 2, 0, 2);
  auto C = c.t3(2);
  C = T(0.5) * batch_dot(a.t3(2), b.t3(2));
  double r = 0;
  for (index_t p = 0; p < 3; ++p) r += double(a.at(1, p, 1)) * double(b.at(p, 0, 1));
  EXPECT_NEAR(c.at(1, 0, 1), 0.5 * r, Tol<T>());
}


TEST(DotErrors, ShapesAreNamed) {
  std::vector<float> buf(200);
  Tensor<cpu, 2> a(buf.data(), Shape2(2, 3)), b(buf.data() + 10, Shape2(4, 5));
  std::vector<float> out(100);
  Tensor<cpu, 2> c(out.data(), Shape2(2, 5)), c2(out.data(), Shape2(3, 3));
  std::string msg = ErrorOf([&] { c = dot(a, b); });
  EXPECT_NE(msg.find("(2,3)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("(4,5)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("3 vs 4"), std::string::npos) << msg;
  Tensor<cpu, 2> b2(buf.data() + 10, Shape2(3, 5));
  msg = ErrorOf([&] { c2 = dot(a, b2); });
  EXPECT_NE(msg.find("(3,3)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("(2,5)"), std::string::npos) << msg;
  EXPECT_NO_THROW(c = dot(a, b2));
  EXPECT_THROW(c += dot(a.T(), b2), shade::Error);
  EXPECT_THROW(c -= dot(a, b2.T()), shade::Error);
  // Destination overlapping an operand would corrupt the product.
  msg = ErrorOf([&] {
    Tensor<cpu, 2> alias(buf.data() + 12, Shape2(2, 5));
    alias = dot(a, b2);
  });
  EXPECT_NE(msg.find("overlaps"), std::string::npos) << msg;
  {  // Memory right after an operand's last row (inside its pitch span only) is not an overlap.
    std::vector<float> pool(64, 1.f);
    Tensor<cpu, 2> pa(pool.data(), Shape2(2, 3), 8, nullptr);  // spans elements [0, 11)
    Tensor<cpu, 2> pb(pool.data() + 40, Shape2(3, 2));
    Tensor<cpu, 2> pc(pool.data() + 11, Shape2(2, 2));
    EXPECT_NO_THROW(pc = dot(pa, pb));
    EXPECT_EQ(pool[11], 3.f);
    Tensor<cpu, 2> pd(pool.data() + 10, Shape2(2, 2));
    EXPECT_THROW(pd = dot(pa, pb), shade::Error);
  }
  Tensor<cpu, 1> v3(buf.data() + 100, Shape1(3)), v4(buf.data() + 110, Shape1(4));
  Tensor<cpu, 1> y2(out.data() + 50, Shape1(2)), y5(out.data() + 60, Shape1(5));
  msg = ErrorOf([&] { y2 = dot(a, v4); });
  EXPECT_NE(msg.find("(2,3)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("(4,)"), std::string::npos) << msg;
  EXPECT_THROW(y5 = dot(a, v3), shade::Error);
  EXPECT_THROW(y5 = dot(v3, a), shade::Error);
  EXPECT_THROW(y2 = dot(v4, a.T()), shade::Error);
  Tensor<cpu, 2> outer(out.data(), Shape2(3, 3));
  EXPECT_THROW(outer = dot(v3.T(), v4), shade::Error);
  Tensor<cpu, 3> x(buf.data(), Shape3(2, 2, 3)), y(buf.data() + 50, Shape3(3, 3, 2));
  Tensor<cpu, 3> z(out.data(), Shape3(2, 2, 2));
  msg = ErrorOf([&] { z = batch_dot(x, y); });
  EXPECT_NE(msg.find("(2,2,3)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("(3,3,2)"), std::string::npos) << msg;
  Tensor<cpu, 3> y2b(buf.data() + 50, Shape3(2, 3, 2));
  EXPECT_NO_THROW(z = batch_dot(x, y2b));
  Tensor<cpu, 3> zbad(out.data(), Shape3(2, 3, 2));
  EXPECT_THROW(zbad = batch_dot(x, y2b), shade::Error);
}

}  // namespace
