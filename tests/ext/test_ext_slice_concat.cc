// slice<dim>, box slice and concat<dim> against naive index loops: ranks 1-4, every dimension,
// odd sizes, padded sources and destinations, expression operands, the assign-through forms
// (=, +=, slice = slice of the same type, concat = c splitting into its operands), empty
// ranges, and every error path.
#include <gtest/gtest.h>

#include <array>
#include <string>

#include "ext_test_util.h"
#include "shade/compat/mshadow.h"
#include "shade/expr/ext/concat.h"
#include "shade/expr/ext/slice.h"

namespace {

using namespace ext_test;     // NOLINT(build/namespaces)
using namespace shade::expr;  // NOLINT(build/namespaces)

template <typename DType>
using SliceConcatTest = ExtTest<DType>;
TYPED_TEST_SUITE(SliceConcatTest, ExtTypes);

// Checks slice<sdim>(src, b, e) read, then written with = and +=, against index loops.
template <int sdim, typename T, int dim>
void CheckSlice(Shape<dim> s, index_t b, index_t e) {
  Buf<T, dim> src(s, 2);
  src.FillSeq();
  Shape<dim> os = s;
  os[sdim] = e - b;
  Buf<T, dim> out(os, 3);
  out.t = slice<sdim>(src.t, b, e);
  for (index_t k = 0; k < out.size(); ++k) {
    std::array<index_t, dim> i = Unflat<dim>(k, os);
    const T want = src.at([&] { auto j = i; j[sdim] += b; return j; }());
    ASSERT_EQ(out.flat(k), want) << "sdim " << sdim << " k " << k;
  }
  EXPECT_TRUE(out.PaddingIntact());
  // Assign through: write 2 * out + 1 into the slice, += out; outside untouched.
  Buf<T, dim> dst(s, 1);
  dst.FillSeq(31, 5);
  Buf<T, dim> orig(s, 1);
  orig.FillSeq(31, 5);
  slice<sdim>(dst.t, b, e) = out.t * T(2) + T(1);
  slice<sdim>(dst.t, b, e) += out.t;
  for (index_t k = 0; k < dst.size(); ++k) {
    std::array<index_t, dim> i = Unflat<dim>(k, s);
    const bool in = i[sdim] >= b && i[sdim] < e;
    T want = orig.flat(k);
    if (in) {
      auto j = i;
      j[sdim] -= b;
      want = T(out.at(j) * T(3) + T(1));
    }
    ASSERT_EQ(dst.flat(k), want) << "k " << k;
  }
  EXPECT_TRUE(dst.PaddingIntact());
}

TYPED_TEST(SliceConcatTest, SliceEveryDim) {
  using T = TypeParam;
  CheckSlice<0, T, 1>(Shape1(11), 3, 9);
  CheckSlice<0, T, 2>(Shape2(7, 5), 2, 7);
  CheckSlice<1, T, 2>(Shape2(7, 5), 1, 4);
  CheckSlice<0, T, 3>(Shape3(5, 6, 7), 0, 3);
  CheckSlice<1, T, 3>(Shape3(5, 6, 7), 2, 5);
  CheckSlice<2, T, 3>(Shape3(5, 6, 7), 6, 7);
  CheckSlice<1, T, 4>(Shape4(3, 5, 4, 3), 1, 4);
  CheckSlice<2, T, 4>(Shape4(3, 5, 4, 3), 0, 4);
  CheckSlice<3, T, 4>(Shape4(3, 5, 4, 3), 1, 2);
  CheckSlice<1, T, 3>(Shape3(5, 6, 7), 4, 4);  // empty range
}

TYPED_TEST(SliceConcatTest, SliceOfExpressionAndSameTypeAssign) {
  using T = TypeParam;
  Buf<T, 2> a(Shape2(6, 9)), b(Shape2(6, 9));
  a.FillSeq();
  b.FillSeq(41, -3);
  Buf<T, 2> out(Shape2(6, 4));
  out.t = slice<1>(a.t + b.t, 3, 7) * T(2);  // source is an expression
  for (index_t y = 0; y < 6; ++y)
    for (index_t x = 0; x < 4; ++x)
      ASSERT_EQ(out.at({y, x}), T(2) * T(a.at({y, x + 3}) + b.at({y, x + 3})));
  // Same node type on both sides: must copy elements, not rebind the view.
  slice<1>(a.t, 0, 4) = slice<1>(b.t, 5, 9);
  for (index_t y = 0; y < 6; ++y)
    for (index_t x = 0; x < 4; ++x) ASSERT_EQ(a.at({y, x}), b.at({y, x + 5}));
  slice<0>(a.t, 2, 3) = T(7);
  for (index_t x = 0; x < 9; ++x) ASSERT_EQ(a.at({2, x}), T(7));
}

TYPED_TEST(SliceConcatTest, BoxSlice) {
  using T = TypeParam;
  const Shape<3> s = Shape3(5, 7, 6);
  Buf<T, 3> src(s, 2);
  src.FillSeq();
  const Shape<3> b = Shape3(1, 2, 3), e = Shape3(4, 7, 5);
  Buf<T, 3> out(Shape3(3, 5, 2), 1);
  out.t = slice(src.t, b, e);
  for (index_t k = 0; k < out.size(); ++k) {
    auto i = Unflat<3>(k, out.t.shape_);
    ASSERT_EQ(out.flat(k), src.at({i[0] + 1, i[1] + 2, i[2] + 3}));
  }
  EXPECT_TRUE(out.PaddingIntact());
  Buf<T, 3> dst(s, 3);
  dst.t = T(0);
  slice(dst.t, b, e) = out.t + T(1);
  slice(dst.t, b, e) -= T(1) + out.t * T(0);
  for (index_t k = 0; k < dst.size(); ++k) {
    auto i = Unflat<3>(k, s);
    const bool in = i[0] >= 1 && i[0] < 4 && i[1] >= 2 && i[2] >= 3 && i[2] < 5;
    ASSERT_EQ(dst.flat(k), in ? src.flat(k) : T(0)) << k;
  }
  EXPECT_TRUE(dst.PaddingIntact());
  Buf<T, 1> v(Shape1(9));
  v.FillSeq();
  Buf<T, 1> w(Shape1(0));
  w.t = slice(v.t, Shape1(4), Shape1(4));
  slice(v.t, Shape1(2), Shape1(5)) = slice(v.t * T(0), Shape1(0), Shape1(3));
  for (index_t i = 0; i < 9; ++i) ASSERT_EQ(v.at({i}), i >= 2 && i < 5 ? T(0) : T((i * 37 + 11) % 97 - 40));
}

template <int cdim, typename T, int dim>
void CheckConcat(Shape<dim> sa, index_t nb) {
  Shape<dim> sb = sa;
  sb[cdim] = nb;
  Buf<T, dim> a(sa, 1), b(sb, 4);
  a.FillSeq();
  b.FillSeq(43, 100);
  Shape<dim> so = sa;
  so[cdim] += nb;
  Buf<T, dim> out(so, 2);
  out.t = concat<cdim>(a.t, b.t);
  auto want = [&](index_t k) {
    auto i = Unflat<dim>(k, so);
    if (i[cdim] < sa[cdim]) return a.at(i);
    i[cdim] -= sa[cdim];
    return b.at(i);
  };
  for (index_t k = 0; k < out.size(); ++k) ASSERT_EQ(out.flat(k), want(k)) << "cdim " << cdim << " k " << k;
  EXPECT_TRUE(out.PaddingIntact());
  // Splitting assignment: write -out into (a, b), then check against the negated reference.
  Buf<T, dim> ref(so, 0);
  for (index_t k = 0; k < ref.size(); ++k) ref.flat(k) = want(k);
  concat<cdim>(a.t, b.t) = T(0) - out.t;
  for (index_t k = 0; k < out.size(); ++k) {
    auto i = Unflat<dim>(k, so);
    T got;
    if (i[cdim] < sa[cdim]) {
      got = a.at(i);
    } else {
      i[cdim] -= sa[cdim];
      got = b.at(i);
    }
    ASSERT_EQ(got, T(-ref.flat(k))) << k;
  }
  EXPECT_TRUE(a.PaddingIntact());
  EXPECT_TRUE(b.PaddingIntact());
}

TYPED_TEST(SliceConcatTest, ConcatAnyRankAnyDim) {
  using T = TypeParam;
  CheckConcat<0, T, 1>(Shape1(5), 3);
  CheckConcat<0, T, 2>(Shape2(3, 7), 4);
  CheckConcat<1, T, 2>(Shape2(3, 7), 2);
  CheckConcat<0, T, 3>(Shape3(2, 5, 3), 3);
  CheckConcat<1, T, 3>(Shape3(2, 5, 3), 1);
  CheckConcat<2, T, 3>(Shape3(2, 5, 3), 4);
  CheckConcat<1, T, 4>(Shape4(2, 3, 5, 3), 2);
  CheckConcat<2, T, 4>(Shape4(2, 3, 5, 3), 3);
  CheckConcat<3, T, 4>(Shape4(2, 3, 5, 3), 5);
  CheckConcat<1, T, 3>(Shape3(2, 0, 3), 4);  // empty operand
  CheckConcat<1, T, 3>(Shape3(2, 3, 3), 0);
}

TYPED_TEST(SliceConcatTest, ConcatNestedAndExpressions) {
  using T = TypeParam;
  Buf<T, 2> a(Shape2(4, 3)), b(Shape2(4, 2)), c(Shape2(4, 1));
  a.FillSeq();
  b.FillSeq(13, 1);
  c.FillSeq(7, 50);
  Buf<T, 2> out(Shape2(4, 6));
  out.t = concat<1>(concat<1>(a.t, b.t * T(2)), c.t) + T(1);
  for (index_t y = 0; y < 4; ++y)
    for (index_t x = 0; x < 6; ++x) {
      const T want = x < 3 ? a.at({y, x}) : x < 5 ? T(2 * b.at({y, x - 3})) : c.at({y, 0});
      ASSERT_EQ(out.at({y, x}), T(want + T(1)));
    }
  // A concat of slices is assignable too: fill columns 1..2 of a and all of c from src.
  Buf<T, 2> src(Shape2(4, 3));
  src.FillSeq(19, 2);
  concat<1>(slice<1>(a.t, 1, 3), c.t) = src.t;
  for (index_t y = 0; y < 4; ++y) {
    ASSERT_EQ(a.at({y, 1}), src.at({y, 0}));
    ASSERT_EQ(a.at({y, 2}), src.at({y, 1}));
    ASSERT_EQ(c.at({y, 0}), src.at({y, 2}));
  }
}

TEST(SliceConcatErrors, Messages) {
  Buf<float, 3> a(Shape3(2, 3, 4)), b(Shape3(2, 5, 4)), c(Shape3(3, 5, 4));
  std::string m = ErrorOf([&] { slice<1>(a.t, 1, 4); });
  EXPECT_NE(m.find("[1, 4)"), std::string::npos) << m;
  EXPECT_NE(m.find("[0, 3]"), std::string::npos) << m;
  m = ErrorOf([&] { slice<2>(a.t, 3, 2); });
  EXPECT_NE(m.find("[3, 2)"), std::string::npos) << m;
  m = ErrorOf([&] { slice<0>(a.t, -1, 1); });
  EXPECT_NE(m.find("[-1, 1)"), std::string::npos) << m;
  m = ErrorOf([&] { slice(a.t, Shape3(0, 0, 0), Shape3(2, 3, 5)); });
  EXPECT_NE(m.find("dimension 2"), std::string::npos) << m;
  m = ErrorOf([&] { concat<1>(a.t, c.t); });
  EXPECT_NE(m.find("differ in dimension 0"), std::string::npos) << m;
  EXPECT_NE(m.find("(2,3,4)"), std::string::npos) << m;
  m = ErrorOf([&] { concat<2>(a.t, b.t); });
  EXPECT_NE(m.find("differ in dimension 1"), std::string::npos) << m;
  Buf<float, 3> out(Shape3(2, 7, 4));
  m = ErrorOf([&] { out.t = concat<1>(a.t, a.t); });
  EXPECT_NE(m.find("differs from destination"), std::string::npos) << m;
  m = ErrorOf([&] { concat<1>(a.t, b.t) = out.t; });
  EXPECT_NE(m.find("differs"), std::string::npos) << m;
}

}  // namespace
