// Softmax (2-D rows, 3-D over dimension 1), SoftmaxGrad (with and without ignore_label, 2-D and
// 3-D), SmoothSoftmaxGrad against naive double loops: padded tensors, in place, huge energies,
// thread-count independence, label checks (range, integer, lengths) that leave dst untouched.
#include <gtest/gtest.h>

#include <cmath>

#include "ext_test_util.h"
#include "shade/backend/cpu/parallel.h"
#include "shade/expr/ext/softmax.h"

namespace {

using namespace ext_test;  // NOLINT(build/namespaces)
using shade::Shape1;
using shade::Shape2;
using shade::Shape3;

template <typename DType>
class SoftmaxTest : public ::testing::Test {};
using Types = ::testing::Types<float, double>;
TYPED_TEST_SUITE(SoftmaxTest, Types);

TYPED_TEST(SoftmaxTest, Rows2D) {
  using T = TypeParam;
  Buf<T, 2> e(Shape2(7, 13), 3), d(Shape2(7, 13), 1);
  e.FillRandom(3, -5, 5);
  e.at({2, 4}) = T(1000);  // would overflow exp without subtracting the maximum
  e.at({2, 5}) = T(999);
  shade::Softmax(d.t, e.t);
  for (index_t y = 0; y < 7; ++y) {
    double mx = -1e300, sum = 0;
    for (index_t x = 0; x < 13; ++x) mx = std::max(mx, double(e.at({y, x})));
    for (index_t x = 0; x < 13; ++x) sum += std::exp(double(e.at({y, x})) - mx);
    for (index_t x = 0; x < 13; ++x)
      ASSERT_TRUE(Near(d.at({y, x}), std::exp(double(e.at({y, x})) - mx) / sum, 1e-6, 1e-14))
          << y << "," << x << ": " << d.at({y, x});
  }
  EXPECT_TRUE(d.PaddingIntact());
  shade::Softmax(e.t, e.t);  // in place
  for (index_t k = 0; k < e.size(); ++k) ASSERT_EQ(e.flat(k), d.flat(k));
  Buf<T, 2> z(Shape2(0, 4)), z2(Shape2(3, 0));
  shade::Softmax(z.t, z.t);
  shade::Softmax(z2.t, z2.t);
}

TYPED_TEST(SoftmaxTest, Channels3D) {
  using T = TypeParam;
  Buf<T, 3> e(Shape3(3, 5, 6), 2), d(Shape3(3, 5, 6), 3);
  e.FillRandom(9, -4, 4);
  shade::Softmax(d.t, e.t);
  for (index_t n = 0; n < 3; ++n)
    for (index_t x = 0; x < 6; ++x) {
      double mx = -1e300, sum = 0;
      for (index_t k = 0; k < 5; ++k) mx = std::max(mx, double(e.at({n, k, x})));
      for (index_t k = 0; k < 5; ++k) sum += std::exp(double(e.at({n, k, x})) - mx);
      for (index_t k = 0; k < 5; ++k)
        ASSERT_TRUE(Near(d.at({n, k, x}), std::exp(double(e.at({n, k, x})) - mx) / sum, 1e-6, 1e-14));
    }
  EXPECT_TRUE(d.PaddingIntact());
}

TYPED_TEST(SoftmaxTest, Grad2DAnd3D) {
  using T = TypeParam;
  Buf<T, 2> p(Shape2(6, 4), 2), g(Shape2(6, 4), 1);
  p.FillRandom(4, 0, 1);
  Buf<T, 1> lab(Shape1(6));
  Buf<int32_t, 1> ilab(Shape1(6));
  const int L[6] = {3, 0, 2, 2, 1, 3};
  for (index_t i = 0; i < 6; ++i) {
    lab.at({i}) = T(L[i]);
    ilab.at({i}) = L[i];
  }
  shade::SoftmaxGrad(g.t, p.t, lab.t);
  for (index_t y = 0; y < 6; ++y)
    for (index_t x = 0; x < 4; ++x) ASSERT_EQ(g.at({y, x}), T(p.at({y, x}) - (x == L[y] ? 1 : 0)));
  lab.at({1}) = T(-1);  // ignored row
  shade::SoftmaxGrad(g.t, p.t, lab.t, T(-1));
  for (index_t x = 0; x < 4; ++x) ASSERT_EQ(g.at({1, x}), T(0));
  ASSERT_EQ(g.at({0, 3}), T(p.at({0, 3}) - 1));
  Buf<T, 2> q = p;
  q.t.dptr_ = q.data.data();
  shade::SoftmaxGrad(q.t, q.t, ilab.t);  // in place, int labels
  for (index_t y = 0; y < 6; ++y)
    for (index_t x = 0; x < 4; ++x) ASSERT_EQ(q.at({y, x}), T(p.at({y, x}) - (x == L[y] ? 1 : 0)));
  shade::SmoothSoftmaxGrad(g.t, p.t, ilab.t, 0.3f);
  for (index_t y = 0; y < 6; ++y)
    for (index_t x = 0; x < 4; ++x)
      ASSERT_TRUE(Near(g.at({y, x}), double(p.at({y, x})) - (x == L[y] ? 0.7 : 0.1), 1e-6, 1e-7));
  // 3-D
  Buf<T, 3> p3(Shape3(2, 3, 5), 1), g3(Shape3(2, 3, 5), 2);
  p3.FillRandom(5, 0, 1);
  Buf<T, 2> l3(Shape2(2, 5), 3);
  for (index_t n = 0; n < 2; ++n)
    for (index_t x = 0; x < 5; ++x) l3.at({n, x}) = T((n + x) % 3);
  l3.at({1, 2}) = T(7);
  shade::SoftmaxGrad(g3.t, p3.t, l3.t, T(7));
  for (index_t n = 0; n < 2; ++n)
    for (index_t k = 0; k < 3; ++k)
      for (index_t x = 0; x < 5; ++x) {
        const double want = (n == 1 && x == 2) ? 0.0 : double(T(p3.at({n, k, x}) - ((n + x) % 3 == k ? 1 : 0)));
        ASSERT_EQ(double(g3.at({n, k, x})), want);
      }
  l3.at({1, 2}) = T(1);
  shade::SoftmaxGrad(g3.t, p3.t, l3.t);
  ASSERT_EQ(g3.at({1, 1, 2}), T(p3.at({1, 1, 2}) - 1));
  EXPECT_TRUE(g3.PaddingIntact());
}

TEST(SoftmaxThreads, SameResultForOneAndTwoThreads) {
  Buf<float, 2> e(Shape2(3000, 37), 3), a(Shape2(3000, 37)), b(Shape2(3000, 37), 5);
  e.FillRandom(11, -10, 10);
  const int saved = shade::GetNumThreads();
  shade::SetNumThreads(1);
  shade::Softmax(a.t, e.t);
  shade::SetNumThreads(2);
  shade::Softmax(b.t, e.t);
  shade::SetNumThreads(saved);
  for (index_t k = 0; k < a.size(); ++k) ASSERT_EQ(a.flat(k), b.flat(k));
}

TEST(SoftmaxErrors, LabelsAndShapes) {
  Buf<float, 2> p(Shape2(3, 4)), g(Shape2(3, 4)), bad(Shape2(4, 3));
  g.t = 5.f;
  Buf<float, 1> lab(Shape1(3)), lab2(Shape1(2));
  lab.at({0}) = 1;
  lab.at({1}) = 4;
  lab.at({2}) = 0;
  std::string m = ErrorOf([&] { shade::SoftmaxGrad(g.t, p.t, lab.t); });
  EXPECT_NE(m.find("label 4 at position 1 is not a class index in [0, 4)"), std::string::npos) << m;
  EXPECT_EQ(g.at({0, 0}), 5.f);  // checked before writing
  lab.at({1}) = 0.5f;
  m = ErrorOf([&] { shade::SoftmaxGrad(g.t, p.t, lab.t, -1.f); });
  EXPECT_NE(m.find("label 0.5"), std::string::npos) << m;
  m = ErrorOf([&] { shade::SoftmaxGrad(g.t, p.t, lab2.t); });
  EXPECT_NE(m.find("one label per row of (3,4)"), std::string::npos) << m;
  m = ErrorOf([&] { shade::Softmax(bad.t, p.t); });
  EXPECT_NE(m.find("(4,3)"), std::string::npos) << m;
  m = ErrorOf([&] { shade::SmoothSoftmaxGrad(g.t, p.t, lab.t, 1.5f); });
  EXPECT_NE(m.find("alpha 1.5"), std::string::npos) << m;
  Buf<float, 3> p3(Shape3(2, 3, 4)), g3(Shape3(2, 3, 4));
  Buf<float, 2> l3(Shape2(2, 3));
  m = ErrorOf([&] { shade::SoftmaxGrad(g3.t, p3.t, l3.t); });
  EXPECT_NE(m.find("label shape (2,3)"), std::string::npos) << m;
  Buf<float, 3> b3(Shape3(2, 3, 5));
  m = ErrorOf([&] { shade::Softmax(b3.t, p3.t); });
  EXPECT_NE(m.find("(2,3,5)"), std::string::npos) << m;
}

}  // namespace
