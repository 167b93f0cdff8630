// Broadcast extensions against naive loops: broadcast<dimcast> on every dimension, broadcast_scalar,
// repmat, broadcast_with_axis (axis -1..last), broadcast_keepdim, broadcast_multi_axes,
// broadcast_to; float/double/int32, padded sources and destinations, savers, empty results,
// every error path.
#include <gtest/gtest.h>

#include <functional>

#include "ext_test_util.h"
#include "shade/expr/ext/broadcast.h"

namespace {

using namespace ext_test;        // NOLINT(build/namespaces)
using namespace shade::expr;     // NOLINT(build/namespaces)
using shade::TShape;

template <typename DType>
using BroadcastTest = ExtTest<DType>;
TYPED_TEST_SUITE(BroadcastTest, ExtTypes);

/*! dst (pre-filled) must equal ref at every index, padding untouched. */
template <typename DType, int dim>
void Expect(Buf<DType, dim>& dst, const std::function<double(const std::array<index_t, dim>&)>& ref,
            const char* what) {
  for (index_t k = 0; k < dst.size(); ++k) {
    const auto i = Unflat<dim>(k, dst.t.shape_);
    ASSERT_TRUE(Near(dst.at(i), ref(i))) << what << " at flat " << k << ": got " << dst.at(i)
                                         << " want " << ref(i);
  }
  EXPECT_TRUE(dst.PaddingIntact()) << what;
}

TYPED_TEST(BroadcastTest, Broadcast1DEveryDim) {
  using T = TypeParam;
  const auto s = Shape4(2, 3, 5, 7);
  for (int dc = 0; dc < 4; ++dc) {
    Buf<T, 1> v(Shape1(s[dc]));
    v.FillSeq(13, -6);
    Buf<T, 4> dst(s);
    dst.FillSeq(7, 1);
    Buf<T, 4> old = dst;
    old.t.dptr_ = old.data.data();
    switch (dc) {
      case 0: dst.t += broadcast<0>(v.t, s); break;
      case 1: dst.t += broadcast<1>(v.t, s); break;
      case 2: dst.t += broadcast<2>(v.t, s); break;
      default: dst.t += broadcast<3>(v.t, s); break;
    }
    Expect<T, 4>(dst, [&](const std::array<index_t, 4>& i) {
      return static_cast<double>(T(old.at(i) + v.at({i[dc]})));
    }, "broadcast<dc> +=");
  }
}

TYPED_TEST(BroadcastTest, RepmatOfExpressionAndScalar) {
  using T = TypeParam;
  Buf<T, 1> v(Shape1(6));
  v.FillSeq(11, -5);
  Buf<T, 2> dst(Shape2(5, 6), 2);
  dst.t = repmat(v.t * T(2) + T(1), 5);
  Expect<T, 2>(dst, [&](const std::array<index_t, 2>& i) { return 2.0 * double(v.at({i[1]})) + 1; },
               "repmat");
  Buf<T, 1> one(Shape1(1));
  one.at({0}) = T(9);
  Buf<T, 3> d3(Shape3(2, 3, 4));
  d3.t = broadcast_scalar(one.t, d3.t.shape_) - T(1);
  Expect<T, 3>(d3, [](const std::array<index_t, 3>&) { return 8.0; }, "broadcast_scalar");
  // nested in a larger expression with the destination's own values: bias add
  Buf<T, 2> x(Shape2(5, 6), 1);
  x.FillSeq(17, -8);
  dst.t = x.t + repmat(v.t, 5);
  Expect<T, 2>(dst, [&](const std::array<index_t, 2>& i) { return double(x.at(i)) + double(v.at({i[1]})); },
               "x + repmat");
  // empty results
  Buf<T, 2> e(Shape2(0, 6));
  e.t = repmat(v.t, 0);
  Buf<T, 1> v0(Shape1(0));
  Buf<T, 2> e2(Shape2(4, 0));
  e2.t = repmat(v0.t, 4);
  EXPECT_TRUE(e2.PaddingIntact());
}

TYPED_TEST(BroadcastTest, WithAxisKeepdimMultiTo) {
  using T = TypeParam;
  Buf<T, 3> src(Shape3(2, 3, 4));
  src.FillSeq(29, -10);
  for (int axis = -1; axis < 3; ++axis) {
    auto e = broadcast_with_axis(src.t, axis, 5);
    Shape<4> want;
    for (int d = 0, k = 0; d < 4; ++d) want[d] = d == axis + 1 ? 5 : src.t.shape_[k++];
    ASSERT_EQ(e.shape_, want) << "axis " << axis;
    Buf<T, 4> dst(want);
    dst.t = e;
    Expect<T, 4>(dst, [&](const std::array<index_t, 4>& i) {
      std::array<index_t, 3> j{};
      for (int d = 0, k = 0; d < 4; ++d)
        if (d != axis + 1) j[k++] = i[d];
      return double(src.at(j));
    }, "broadcast_with_axis");
  }
  Buf<T, 3> k1(Shape3(2, 1, 4));
  k1.FillSeq(19, -3);
  Buf<T, 3> dk(Shape3(2, 6, 4));
  dk.t = broadcast_keepdim(k1.t, 1, 6);
  Expect<T, 3>(dk, [&](const std::array<index_t, 3>& i) { return double(k1.at({i[0], 0, i[2]})); },
               "broadcast_keepdim");
  Buf<T, 3> m(Shape3(1, 3, 1));
  m.FillSeq(5, 1);
  Buf<T, 3> dm(Shape3(4, 3, 5));
  dm.t = broadcast_multi_axes(m.t, TShape{0, 2}, TShape{4, 5});
  Expect<T, 3>(dm, [&](const std::array<index_t, 3>& i) { return double(m.at({0, i[1], 0})); },
               "broadcast_multi_axes");
  dm.t = T(0);
  dm.t += broadcast_to(m.t, TShape{4, 3, 5});
  Expect<T, 3>(dm, [&](const std::array<index_t, 3>& i) { return double(m.at({0, i[1], 0})); },
               "broadcast_to");
  // last dimension broadcast: (3, 1) -> (3, 7)
  Buf<T, 2> c(Shape2(3, 1));
  c.FillSeq(7, 2);
  Buf<T, 2> dc(Shape2(3, 7));
  dc.t = broadcast_to(c.t * T(3), TShape{3, 7});
  Expect<T, 2>(dc, [&](const std::array<index_t, 2>& i) { return 3.0 * double(c.at({i[0], 0})); },
               "broadcast_to last");
}

TEST(BroadcastErrors, NameTheValues) {
  Buf<float, 1> v(Shape1(4));
  Buf<float, 3> s3(Shape3(2, 3, 4));
  std::string m = ErrorOf([&] { (void)broadcast<1>(v.t, Shape2(3, 5)); });
  EXPECT_NE(m.find("broadcast<1>"), std::string::npos) << m;
  EXPECT_NE(m.find("(3,5)"), std::string::npos) << m;
  m = ErrorOf([&] { (void)broadcast<0>(v.t, Shape2(-4, 4)); });
  EXPECT_NE(m.find("negative"), std::string::npos) << m;
  m = ErrorOf([&] { (void)broadcast_scalar(v.t, Shape2(3, 5)); });
  EXPECT_NE(m.find("exactly one"), std::string::npos) << m;
  m = ErrorOf([&] { (void)repmat(v.t, -1); });
  EXPECT_NE(m.find("repmat"), std::string::npos) << m;
  m = ErrorOf([&] { (void)broadcast_with_axis(s3.t, 3, 2); });
  EXPECT_NE(m.find("axis 3"), std::string::npos) << m;
  m = ErrorOf([&] { (void)broadcast_with_axis(s3.t, -2, 2); });
  EXPECT_NE(m.find("axis -2"), std::string::npos) << m;
  m = ErrorOf([&] { (void)broadcast_with_axis(s3.t, 0, -2); });
  EXPECT_NE(m.find("negative"), std::string::npos) << m;
  m = ErrorOf([&] { (void)broadcast_keepdim(s3.t, 1, 5); });
  EXPECT_NE(m.find("(2,3,4)"), std::string::npos) << m;
  m = ErrorOf([&] { (void)broadcast_keepdim(s3.t, 5, 5); });
  EXPECT_NE(m.find("axis 5"), std::string::npos) << m;
  m = ErrorOf([&] { (void)broadcast_to(s3.t, TShape{2, 5, 4}); });
  EXPECT_NE(m.find("(2,5,4)"), std::string::npos) << m;
  m = ErrorOf([&] { (void)broadcast_to(s3.t, TShape{2, 3}); });
  EXPECT_NE(m.find("rank"), std::string::npos) << m;
  m = ErrorOf([&] { (void)broadcast_multi_axes(s3.t, TShape{1}, TShape{2, 3}); });
  EXPECT_NE(m.find("length"), std::string::npos) << m;
  Buf<float, 3> m1(Shape3(1, 3, 1));
  m = ErrorOf([&] { (void)broadcast_multi_axes(m1.t, TShape{2, 0}, TShape{2, 3}); });
  EXPECT_NE(m.find("increasing"), std::string::npos) << m;
  m = ErrorOf([&] { (void)broadcast_multi_axes(m1.t, TShape{1}, TShape{2}); });
  EXPECT_NE(m.find("must be 1"), std::string::npos) << m;
  // the destination shape is checked against the broadcast's
  Buf<float, 2> d(Shape2(3, 5));
  m = ErrorOf([&] { d.t = repmat(v.t, 3); });
  EXPECT_NE(m.find("(3,4)"), std::string::npos) << m;
  // overflowing shapes
  const index_t big = index_t(1) << 40;
  Buf<float, 1> b1(Shape1(1));
  m = ErrorOf([&] { (void)broadcast_scalar(b1.t, Shape3(big, big, 2)); });
  EXPECT_NE(m.find("overflow"), std::string::npos) << m;
}

}  // namespace
