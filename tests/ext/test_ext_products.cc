// implicit_dot, VectorDot and BatchGEMM against naive triple loops: float and double (int32
// for the loop-based implicit_dot and VectorDot), odd non-square sizes, padded (pitched)
// operands and destinations, transposed forms, alpha/beta, expression operands, empty
// shapes and every error path.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ext_test_util.h"
#include "shade/compat/mshadow.h"
#include "shade/expr/ext/batch_gemm.h"
#include "shade/expr/ext/implicit_dot.h"
#include "shade/expr/ext/vector_dot.h"

namespace {

using namespace ext_test;     // NOLINT(build/namespaces)
using namespace shade::expr;  // NOLINT(build/namespaces)

template <typename DType>
using ProductTest = ExtTest<DType>;
TYPED_TEST_SUITE(ProductTest, ExtTypes);

template <typename DType>
class BlasTest : public ::testing::Test {};
using RealTypes = ::testing::Types<float, double>;
TYPED_TEST_SUITE(BlasTest, RealTypes);

TYPED_TEST(ProductTest, ImplicitDot) {
  using T = TypeParam;
  const index_t m = 5, k = 7, n = 3;
  Buf<T, 2> a(Shape2(m, k), 2), b(Shape2(k, n), 3), bt(Shape2(n, k), 1);
  a.FillSeq(13, -6);
  b.FillSeq(11, -5);
  for (index_t i = 0; i < k; ++i)
    for (index_t j = 0; j < n; ++j) bt.at({j, i}) = b.at({i, j});
  auto ref = [&](index_t y, index_t x) {
    T s = T(0);
    for (index_t i = 0; i < k; ++i) s += a.at({y, i}) * b.at({i, x});
    return s;
  };
  Buf<T, 2> out(Shape2(m, n), 4);
  out.t = implicit_dot(a.t, b.t);
  for (index_t y = 0; y < m; ++y)
    for (index_t x = 0; x < n; ++x) ASSERT_TRUE(Near(out.at({y, x}), double(ref(y, x))));
  EXPECT_TRUE(out.PaddingIntact());
  // Nested in a larger expression, with a transposed expression operand.
  out.t = implicit_dot(a.t * T(2), bt.t.T()) + T(1);
  for (index_t y = 0; y < m; ++y)
    for (index_t x = 0; x < n; ++x) ASSERT_TRUE(Near(out.at({y, x}), double(2 * ref(y, x) + 1)));
  // Inner extent 0: all zeros.
  Buf<T, 2> a0(Shape2(m, 0)), b0(Shape2(0, n));
  out.t = implicit_dot(a0.t, b0.t);
  for (index_t k2 = 0; k2 < out.size(); ++k2) ASSERT_EQ(out.flat(k2), T(0));
}

TYPED_TEST(ProductTest, VectorDot) {
  using T = TypeParam;
  for (index_t n : {0, 1, 7, 33}) {
    Buf<T, 1> a(Shape1(n)), b(Shape1(n)), d(Shape1(1));
    a.FillSeq(17, -8);
    b.FillSeq(19, -9);
    d.at({0}) = T(99);
    shade::VectorDot(d.t, a.t, b.t);
    double want = 0;
    for (index_t i = 0; i < n; ++i) want += double(a.at({i})) * double(b.at({i}));
    ASSERT_TRUE(Near(d.at({0}), want)) << n;
  }
}

template <bool tl, bool tr, typename T>
void CheckBatchGemm(index_t batch, index_t m, index_t n, index_t k, T alpha, T beta) {
  Buf<T, 3> a(tl ? Shape3(batch, k, m) : Shape3(batch, m, k), 2);
  Buf<T, 3> b(tr ? Shape3(batch, n, k) : Shape3(batch, k, n), 1);
  Buf<T, 3> c(Shape3(batch, m, n), 3);
  a.FillRandom(1);
  b.FillRandom(2);
  c.FillRandom(3);
  std::vector<T> c0(static_cast<size_t>(c.size()));
  for (index_t q = 0; q < c.size(); ++q) c0[static_cast<size_t>(q)] = c.flat(q);
  std::vector<T*> ws(static_cast<size_t>(3 * batch + 1));
  shade::Tensor<shade::cpu, 1, T*> workspace(ws.data(), Shape1(3 * batch));
  shade::BatchGEMM<tl, tr>(c.t, a.t, b.t, alpha, beta, workspace);
  for (index_t q = 0; q < c.size(); ++q) {
    auto i = Unflat<3>(q, c.t.shape_);
    double s = 0;
    for (index_t p = 0; p < k; ++p) {
      const double av = tl ? a.at({i[0], p, i[1]}) : a.at({i[0], i[1], p});
      const double bv = tr ? b.at({i[0], i[2], p}) : b.at({i[0], p, i[2]});
      s += av * bv;
    }
    const double want = double(alpha) * s + double(beta) * double(c0[static_cast<size_t>(q)]);
    ASSERT_TRUE(Near(c.flat(q), want, 1e-4)) << tl << tr << " " << q << " " << c.flat(q) << " vs " << want;
  }
  EXPECT_TRUE(c.PaddingIntact());
}

TYPED_TEST(BlasTest, BatchGEMM) {
  using T = TypeParam;
  CheckBatchGemm<false, false, T>(3, 5, 4, 7, T(1), T(0));
  CheckBatchGemm<true, false, T>(2, 5, 3, 6, T(0.5), T(1));
  CheckBatchGemm<false, true, T>(4, 1, 6, 3, T(-1), T(2));
  CheckBatchGemm<true, true, T>(3, 7, 2, 5, T(2), T(-0.5));
  CheckBatchGemm<false, false, T>(0, 3, 3, 3, T(1), T(0));
  CheckBatchGemm<false, false, T>(2, 3, 4, 0, T(1), T(1));  // k = 0: beta * C only
}

TYPED_TEST(BlasTest, BatchGEMMMatchesBatchDot) {
  using T = TypeParam;
  Buf<T, 3> a(Shape3(3, 4, 5)), b(Shape3(3, 6, 5)), c1(Shape3(3, 4, 6)), c2(Shape3(3, 4, 6));
  a.FillRandom(7);
  b.FillRandom(8);
  c1.t = batch_dot<false, true>(a.t, b.t);
  std::vector<T*> ws(9);
  shade::BatchGEMM<false, true>(c2.t, a.t, b.t, T(1), T(0),
                                shade::Tensor<shade::cpu, 1, T*>(ws.data(), Shape1(9)));
  for (index_t q = 0; q < c1.size(); ++q) ASSERT_TRUE(Near(c2.flat(q), double(c1.flat(q)), 1e-5));
}

// The mshadow spellings resolve through the compat header (mshadow:: and mshadow::expr::).
TEST(ProductCompat, MshadowNames) {
  Buf<float, 2> a(Shape2(2, 3)), b(Shape2(3, 2)), c(Shape2(2, 2)), cat(Shape2(2, 5));
  a.FillSeq(7, -3);
  b.FillSeq(5, -2);
  c.t = mshadow::expr::implicit_dot(a.t, b.t);
  cat.t = mshadow::expr::concat<1>(mshadow::expr::mirror(a.t), c.t);
  for (index_t y = 0; y < 2; ++y) {
    for (index_t x = 0; x < 3; ++x) ASSERT_EQ(cat.at({y, x}), a.at({y, 2 - x}));
    for (index_t x = 0; x < 2; ++x) ASSERT_EQ(cat.at({y, 3 + x}), c.at({y, x}));
  }
  Buf<float, 1> v(Shape1(3)), d(Shape1(1));
  v.t = mshadow::expr::range<float>(1, 4);
  mshadow::VectorDot(d.t, v.t, v.t);
  EXPECT_EQ(d.at({0}), 14.f);
  mshadow::Tensor<mshadow::cpu, 3, float> a3(a.t.dptr_, Shape3(1, 2, 3), a.t.stride_, nullptr);
  mshadow::Tensor<mshadow::cpu, 3, float> b3(b.t.dptr_, Shape3(1, 3, 2), b.t.stride_, nullptr);
  Buf<float, 3> c3(Shape3(1, 2, 2));
  float* ws[3];
  mshadow::BatchGEMM<false, false>(c3.t, a3, b3, 1.f, 0.f,
                                   mshadow::Tensor<mshadow::cpu, 1, float*>(ws, Shape1(3)));
  for (index_t k = 0; k < 4; ++k) EXPECT_EQ(c3.flat(k), c.flat(k));
}

TEST(ProductErrors, Messages) {
  Buf<float, 2> a(Shape2(3, 4)), b(Shape2(5, 2));
  std::string m = ErrorOf([&] { implicit_dot(a.t, b.t); });
  EXPECT_NE(m.find("(3,4)"), std::string::npos) << m;
  EXPECT_NE(m.find("(5,2)"), std::string::npos) << m;
  Buf<float, 2> o(Shape2(3, 2));
  m = ErrorOf([&] { o.t = implicit_dot(a.t, a.t.T()); });
  EXPECT_NE(m.find("(3,3)"), std::string::npos) << m;
  Buf<float, 1> v3(Shape1(3)), v4(Shape1(4)), d1(Shape1(1)), d2(Shape1(2));
  m = ErrorOf([&] { shade::VectorDot(d1.t, v3.t, v4.t); });
  EXPECT_NE(m.find("(3,)"), std::string::npos) << m;
  EXPECT_NE(m.find("(4,)"), std::string::npos) << m;
  m = ErrorOf([&] { shade::VectorDot(d2.t, v3.t, v3.t); });
  EXPECT_NE(m.find("exactly one element"), std::string::npos) << m;
  Buf<double, 3> x(Shape3(2, 3, 4)), y(Shape3(2, 4, 5)), z(Shape3(2, 3, 5)), y3(Shape3(3, 4, 5));
  std::vector<double*> ws(6);
  shade::Tensor<shade::cpu, 1, double*> w6(ws.data(), Shape1(6)), w5(ws.data(), Shape1(5));
  m = ErrorOf([&] { shade::BatchGEMM<false, false>(z.t, x.t, y3.t, 1.0, 0.0, w6); });
  EXPECT_NE(m.find("batch sizes differ"), std::string::npos) << m;
  m = ErrorOf([&] { shade::BatchGEMM<false, true>(z.t, x.t, y.t, 1.0, 0.0, w6); });
  EXPECT_NE(m.find("do not match"), std::string::npos) << m;
  EXPECT_NE(m.find("(2,5,4)"), std::string::npos) << m;
  m = ErrorOf([&] { shade::BatchGEMM<false, false>(z.t, x.t, y.t, 1.0, 0.0, w5); });
  EXPECT_NE(m.find("3 * batch = 6"), std::string::npos) << m;
  Buf<double, 3> sq(Shape3(2, 3, 3));
  shade::Tensor<shade::cpu, 3, double> alias(sq.t.dptr_, Shape3(2, 3, 3), sq.t.stride_, nullptr);
  m = ErrorOf([&] { shade::BatchGEMM<false, false>(alias, sq.t, sq.t, 1.0, 0.0, w6); });
  EXPECT_NE(m.find("overlaps"), std::string::npos) << m;
}

}  // namespace
