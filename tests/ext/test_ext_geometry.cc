// flip, mirror, pad, crop and upsampling_nearest against naive index loops: float, double and
// int32, ranks 1-4, odd non-square sizes, padded (pitched) sources and destinations, expression
// sources, assignment through flip/mirror, empty shapes and every error path.
#include <gtest/gtest.h>

#include <array>
#include <limits>
#include <string>

#include "ext_test_util.h"
#include "shade/compat/mshadow.h"
#include "shade/expr/ext/crop.h"
#include "shade/expr/ext/flip.h"
#include "shade/expr/ext/mirror.h"
#include "shade/expr/ext/pad.h"
#include "shade/expr/ext/upsampling.h"

namespace {

using namespace ext_test;     // NOLINT(build/namespaces)
using namespace shade::expr;  // NOLINT(build/namespaces)

template <typename DType>
using GeometryTest = ExtTest<DType>;
TYPED_TEST_SUITE(GeometryTest, ExtTypes);

template <typename T, int dim>
void CheckFlip(Shape<dim> s, int fd) {
  Buf<T, dim> src(s, 2);
  src.FillSeq();
  Buf<T, dim> out(s, 3);
  out.t = flip(src.t, fd) + T(1);
  for (index_t k = 0; k < out.size(); ++k) {
    auto i = Unflat<dim>(k, s);
    i[fd] = s[fd] - 1 - i[fd];
    ASSERT_EQ(out.flat(k), T(src.at(i) + T(1))) << "dim " << fd << " k " << k;
  }
  EXPECT_TRUE(out.PaddingIntact());
  // Assigning through flip writes the reversed values: flip(dst) = out - 1 gives dst == src.
  Buf<T, dim> dst(s, 1);
  flip(dst.t, fd) = out.t - T(1);
  for (index_t k = 0; k < dst.size(); ++k) ASSERT_EQ(dst.flat(k), src.flat(k));
  EXPECT_TRUE(dst.PaddingIntact());
}

TYPED_TEST(GeometryTest, FlipEveryDim) {
  using T = TypeParam;
  CheckFlip<T, 1>(Shape1(9), 0);
  CheckFlip<T, 2>(Shape2(5, 7), 0);
  CheckFlip<T, 2>(Shape2(5, 7), 1);
  for (int d = 0; d < 3; ++d) CheckFlip<T, 3>(Shape3(3, 4, 5), d);
  for (int d = 0; d < 4; ++d) CheckFlip<T, 4>(Shape4(2, 3, 5, 4), d);
  CheckFlip<T, 3>(Shape3(3, 0, 5), 1);
}

TYPED_TEST(GeometryTest, Mirror) {
  using T = TypeParam;
  Buf<T, 3> src(Shape3(2, 3, 5), 1);
  src.FillSeq();
  Buf<T, 3> out(Shape3(2, 3, 5), 2);
  out.t = mirror(src.t);
  for (index_t k = 0; k < out.size(); ++k) {
    auto i = Unflat<3>(k, out.t.shape_);
    ASSERT_EQ(out.flat(k), src.at({i[0], i[1], 4 - i[2]}));
  }
  mirror(out.t) = mirror(src.t) * T(2);  // same node type on both sides: writes elements
  for (index_t k = 0; k < out.size(); ++k) ASSERT_EQ(out.flat(k), T(2 * src.flat(k)));
  EXPECT_TRUE(out.PaddingIntact());
}

template <typename T, int dim>
void CheckPad(Shape<dim> s, index_t top, index_t bottom, index_t left, index_t right) {
  Buf<T, dim> src(s, 2);
  src.FillSeq();
  Shape<dim> os = s;
  os[dim - 2] += top + bottom;
  os[dim - 1] += left + right;
  Buf<T, dim> out(os, 3);
  if (top == bottom && left == right && top == left) {
    out.t = pad(src.t, top);
  } else if (top == bottom && left == right) {
    out.t = pad(src.t, top, left);
  } else {
    out.t = pad(src.t, top, bottom, left, right);
  }
  for (index_t k = 0; k < out.size(); ++k) {
    auto i = Unflat<dim>(k, os);
    auto j = i;
    j[dim - 2] -= top;
    j[dim - 1] -= left;
    const bool in = j[dim - 2] >= 0 && j[dim - 2] < s[dim - 2] && j[dim - 1] >= 0 &&
                    j[dim - 1] < s[dim - 1];
    ASSERT_EQ(out.flat(k), in ? src.at(j) : T(0)) << k;
  }
  EXPECT_TRUE(out.PaddingIntact());
}

TYPED_TEST(GeometryTest, Pad) {
  using T = TypeParam;
  CheckPad<T, 2>(Shape2(3, 5), 1, 1, 1, 1);
  CheckPad<T, 3>(Shape3(2, 4, 3), 2, 2, 1, 1);
  CheckPad<T, 4>(Shape4(2, 3, 5, 4), 0, 0, 2, 2);
  CheckPad<T, 4>(Shape4(2, 3, 5, 4), 1, 3, 0, 2);
  CheckPad<T, 3>(Shape3(2, 0, 3), 1, 2, 2, 1);  // empty source: all zeros
  CheckPad<T, 3>(Shape3(0, 2, 3), 1, 1, 1, 1);
  // An expression source, nested in a bigger expression.
  Buf<T, 2> a(Shape2(3, 4));
  a.FillSeq();
  Buf<T, 2> out(Shape2(5, 6));
  out.t = pad(a.t * T(2), 1) + T(1);
  for (index_t y = 0; y < 5; ++y)
    for (index_t x = 0; x < 6; ++x) {
      const bool in = y >= 1 && y < 4 && x >= 1 && x < 5;
      ASSERT_EQ(out.at({y, x}), T((in ? T(2 * a.at({y - 1, x - 1})) : T(0)) + T(1)));
    }
}

TYPED_TEST(GeometryTest, Crop) {
  using T = TypeParam;
  Buf<T, 4> src(Shape4(2, 3, 7, 8), 2);
  src.FillSeq();
  Buf<T, 4> out(Shape4(2, 3, 4, 3), 1);
  out.t = crop(src.t, Shape2(4, 3));  // centre: start (1, 2)
  for (index_t k = 0; k < out.size(); ++k) {
    auto i = Unflat<4>(k, out.t.shape_);
    ASSERT_EQ(out.flat(k), src.at({i[0], i[1], i[2] + 1, i[3] + 2})) << k;
  }
  out.t = crop(src.t, Shape2(4, 3), 3, 5);  // window touching the bottom-right border
  for (index_t k = 0; k < out.size(); ++k) {
    auto i = Unflat<4>(k, out.t.shape_);
    ASSERT_EQ(out.flat(k), src.at({i[0], i[1], i[2] + 3, i[3] + 5})) << k;
  }
  EXPECT_TRUE(out.PaddingIntact());
  // crop(pad(x)) gives x back.
  Buf<T, 2> a(Shape2(5, 3));
  a.FillSeq();
  Buf<T, 2> back(Shape2(5, 3), 4);
  back.t = crop(pad(a.t, 2, 1), Shape2(5, 3));
  for (index_t k = 0; k < a.size(); ++k) ASSERT_EQ(back.flat(k), a.flat(k));
  Buf<T, 2> none(Shape2(0, 0));
  none.t = crop(a.t, Shape2(0, 0), 5, 3);
}

TYPED_TEST(GeometryTest, UpsamplingNearest) {
  using T = TypeParam;
  for (index_t scale : {1, 2, 3}) {
    Buf<T, 4> src(Shape4(2, 3, 3, 5), 1);
    src.FillSeq();
    Buf<T, 4> out(Shape4(2, 3, 3 * scale, 5 * scale), 2);
    out.t = upsampling_nearest(src.t, scale);
    for (index_t k = 0; k < out.size(); ++k) {
      auto i = Unflat<4>(k, out.t.shape_);
      ASSERT_EQ(out.flat(k), src.at({i[0], i[1], i[2] / scale, i[3] / scale})) << k;
    }
    EXPECT_TRUE(out.PaddingIntact());
  }
  Buf<T, 2> a(Shape2(2, 3));
  a.FillSeq();
  Buf<T, 2> out(Shape2(4, 6));
  out.t = upsampling_nearest(a.t + T(1), 2) - T(1);
  for (index_t y = 0; y < 4; ++y)
    for (index_t x = 0; x < 6; ++x) ASSERT_EQ(out.at({y, x}), a.at({y / 2, x / 2}));
}

TEST(GeometryErrors, Messages) {
  Buf<float, 3> a(Shape3(2, 4, 5));
  std::string m = ErrorOf([&] { flip(a.t, 3); });
  EXPECT_NE(m.find("dimension 3 outside [0, 3)"), std::string::npos) << m;
  m = ErrorOf([&] { flip(a.t, -1); });
  EXPECT_NE(m.find("dimension -1"), std::string::npos) << m;
  m = ErrorOf([&] { pad(a.t, -1); });
  EXPECT_NE(m.find("negative padding (top -1"), std::string::npos) << m;
  m = ErrorOf([&] { pad(a.t, 0, 0, 0, -2); });
  EXPECT_NE(m.find("right -2"), std::string::npos) << m;
  m = ErrorOf([&] { pad(a.t, std::numeric_limits<index_t>::max() - 2); });
  EXPECT_FALSE(m.empty());
  m = ErrorOf([&] { crop(a.t, Shape2(5, 5)); });
  EXPECT_NE(m.find("window (5,5)"), std::string::npos) << m;
  EXPECT_NE(m.find("(2,4,5)"), std::string::npos) << m;
  m = ErrorOf([&] { crop(a.t, Shape2(2, 2), 3, 0); });
  EXPECT_NE(m.find("at (3, 0)"), std::string::npos) << m;
  m = ErrorOf([&] { crop(a.t, Shape2(2, 2), 0, -1); });
  EXPECT_NE(m.find("at (0, -1)"), std::string::npos) << m;
  m = ErrorOf([&] { crop(a.t, Shape2(-1, 2), 0, 0); });
  EXPECT_NE(m.find("window (-1,2)"), std::string::npos) << m;
  m = ErrorOf([&] { upsampling_nearest(a.t, 0); });
  EXPECT_NE(m.find("scale"), std::string::npos) << m;
  m = ErrorOf([&] { upsampling_nearest(a.t, std::numeric_limits<index_t>::max() / 2); });
  EXPECT_FALSE(m.empty());
  Buf<float, 3> wrong(Shape3(2, 6, 6));
  m = ErrorOf([&] { wrong.t = pad(a.t, 1); });
  EXPECT_NE(m.find("(2,6,7)"), std::string::npos) << m;
}

}  // namespace
