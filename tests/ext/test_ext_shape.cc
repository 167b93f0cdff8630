// reshape, swapaxis and transpose(axes) against naive index loops: float/double/int32, padded
// sources and destinations, expression sources, ranks 2-5, empty shapes and the error paths.
#include <gtest/gtest.h>

#include "ext_test_util.h"
#include "shade/expr/ext/reshape.h"
#include "shade/expr/ext/swapaxis.h"
#include "shade/expr/ext/transpose.h"

namespace {

using namespace ext_test;     // NOLINT(build/namespaces)
using namespace shade::expr;  // NOLINT(build/namespaces)

template <typename DType>
using ShapeExtTest = ExtTest<DType>;
TYPED_TEST_SUITE(ShapeExtTest, ExtTypes);

TYPED_TEST(ShapeExtTest, Reshape) {
  using T = TypeParam;
  Buf<T, 3> src(Shape3(3, 4, 5), 3);
  src.FillSeq(89, -44);
  Buf<T, 2> a(Shape2(6, 10), 2);
  a.t = reshape(src.t, Shape2(6, 10));
  for (index_t k = 0; k < 60; ++k) ASSERT_EQ(a.flat(k), src.flat(k));
  EXPECT_TRUE(a.PaddingIntact());
  Buf<T, 4> b(Shape4(2, 2, 3, 5), 1);  // same last extent: the no-division path
  b.t = reshape(src.t * T(2), Shape4(2, 2, 3, 5));
  for (index_t k = 0; k < 60; ++k) ASSERT_EQ(b.flat(k), T(2 * src.flat(k)));
  Buf<T, 1> c(Shape1(60));
  c.t = reshape(reshape(src.t, Shape2(12, 5)), Shape1(60));
  for (index_t k = 0; k < 60; ++k) ASSERT_EQ(c.flat(k), src.flat(k));
  Buf<T, 2> e(Shape2(0, 7));
  Buf<T, 3> e3(Shape3(7, 0, 2));
  e.t = reshape(e3.t, Shape2(0, 7));
  std::string m = ErrorOf([&] { (void)reshape(src.t, Shape2(7, 9)); });
  EXPECT_NE(m.find("cannot reshape (3,4,5) to (7,9)"), std::string::npos) << m;
  m = ErrorOf([&] { (void)reshape(src.t, Shape2(-6, -10)); });
  EXPECT_NE(m.find("negative"), std::string::npos) << m;
}

template <typename T, int dim>
void CheckPermute(Buf<T, dim>& src, const Shape<dim>& axes, Buf<T, dim>& dst) {
  for (index_t k = 0; k < dst.size(); ++k) {
    const auto i = Unflat<dim>(k, dst.t.shape_);
    std::array<index_t, dim> j{};
    for (int d = 0; d < dim; ++d) j[size_t(axes[d])] = i[size_t(d)];
    ASSERT_EQ(dst.at(i), src.at(j)) << "axes " << axes << " at " << k;
  }
  EXPECT_TRUE(dst.PaddingIntact());
}

TYPED_TEST(ShapeExtTest, SwapaxisAndTranspose) {
  using T = TypeParam;
  Buf<T, 4> src(Shape4(2, 3, 4, 5), 2);
  src.FillSeq(113, -50);
  {
    Buf<T, 4> d(Shape4(4, 3, 2, 5), 3);
    d.t = swapaxis<0, 2>(src.t);
    CheckPermute(src, Shape4(2, 1, 0, 3), d);
  }
  {
    Buf<T, 4> d(Shape4(2, 3, 5, 4), 1);
    d.t = swapaxis<3, 2>(src.t + T(0));
    CheckPermute(src, Shape4(0, 1, 3, 2), d);
  }
  {
    Buf<T, 4> d(Shape4(2, 3, 4, 5), 1);
    d.t = swapaxis<1, 1>(src.t);
    CheckPermute(src, Shape4(0, 1, 2, 3), d);
  }
  const index_t perms[4][4] = {{3, 0, 2, 1}, {1, 2, 3, 0}, {3, 2, 1, 0}, {0, 3, 1, 2}};
  for (const auto& p : perms) {
    const auto axes = Shape4(p[0], p[1], p[2], p[3]);
    Shape<4> ds;
    for (int d = 0; d < 4; ++d) ds[d] = src.t.shape_[p[d]];
    Buf<T, 4> d(ds, 2);
    d.t = transpose(src.t, axes);
    CheckPermute(src, axes, d);
  }
  Buf<T, 2> m(Shape2(7, 3), 2);
  m.FillSeq(19, -9);
  Buf<T, 2> mt(Shape2(3, 7), 1);
  mt.t = transpose(m.t, Shape2(1, 0)) * T(1);
  CheckPermute(m, Shape2(1, 0), mt);
  // round trip of a 5-D permutation
  Buf<T, 5> f(shade::Shape5(2, 1, 3, 2, 4));
  f.FillSeq(37, -18);
  Buf<T, 5> g(shade::Shape5(4, 2, 2, 3, 1)), h(f.t.shape_);
  g.t = transpose(f.t, shade::Shape5(4, 0, 3, 2, 1));
  h.t = transpose(g.t, shade::Shape5(1, 4, 3, 2, 0));
  for (index_t k = 0; k < f.size(); ++k) ASSERT_EQ(h.flat(k), f.flat(k));
  std::string msg = ErrorOf([&] { (void)transpose(src.t, Shape4(0, 1, 1, 3)); });
  EXPECT_NE(msg.find("(0,1,1,3) are not a permutation"), std::string::npos) << msg;
  msg = ErrorOf([&] { (void)transpose(src.t, Shape4(0, 1, 2, 4)); });
  EXPECT_NE(msg.find("not a permutation of 0..3"), std::string::npos) << msg;
  Buf<T, 4> wrong(src.t.shape_);
  msg = ErrorOf([&] { wrong.t = swapaxis<0, 1>(src.t); });
  EXPECT_NE(msg.find("(3,2,4,5)"), std::string::npos) << msg;
}

}  // namespace
