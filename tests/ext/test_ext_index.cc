// take (raise/clip/wrap), take_grad, mask and range against naive loops: float, double and int32
// data, int32/float/double indices, padded matrices, expression operands, empty shapes, and
// every error path (bad index values, lengths, steps).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "ext_test_util.h"
#include "shade/compat/mshadow.h"
#include "shade/expr/ext/mask.h"
#include "shade/expr/ext/range.h"
#include "shade/expr/ext/take.h"

namespace {

using namespace ext_test;     // NOLINT(build/namespaces)
using namespace shade::expr;  // NOLINT(build/namespaces)

template <typename DType>
using IndexTest = ExtTest<DType>;
TYPED_TEST_SUITE(IndexTest, ExtTypes);

TYPED_TEST(IndexTest, Take) {
  using T = TypeParam;
  Buf<T, 2> w(Shape2(5, 7), 3);
  w.FillSeq();
  const int ids[8] = {4, 0, 2, 2, 1, 4, 3, 0};
  Buf<T, 1> idx(Shape1(8));  // index in the data's own type, as in mshadow
  Buf<int32_t, 1> iidx(Shape1(8));
  for (index_t i = 0; i < 8; ++i) {
    idx.at({i}) = T(ids[i]);
    iidx.at({i}) = ids[i];
  }
  Buf<T, 2> out(Shape2(8, 7), 2);
  out.t = take(idx.t, w.t);
  for (index_t y = 0; y < 8; ++y)
    for (index_t x = 0; x < 7; ++x) ASSERT_EQ(out.at({y, x}), w.at({ids[y], x}));
  out.t += take(iidx.t, w.t * T(2));  // int32 index, expression source
  for (index_t y = 0; y < 8; ++y)
    for (index_t x = 0; x < 7; ++x) ASSERT_EQ(out.at({y, x}), T(3 * w.at({ids[y], x})));
  EXPECT_TRUE(out.PaddingIntact());
  Buf<int32_t, 1> none(Shape1(0));
  Buf<T, 2> empty(Shape2(0, 7));
  empty.t = take(none.t, w.t);
}

TYPED_TEST(IndexTest, TakeClipAndWrap) {
  using T = TypeParam;
  Buf<T, 2> w(Shape2(4, 3));
  w.FillSeq();
  const int ids[6] = {-5, -1, 0, 3, 4, 9};
  Buf<int32_t, 1> idx(Shape1(6));
  for (index_t i = 0; i < 6; ++i) idx.at({i}) = ids[i];
  Buf<T, 2> out(Shape2(6, 3));
  out.t = take(idx.t, w.t, take_mode::kClip);
  for (index_t y = 0; y < 6; ++y) {
    const index_t r = ids[y] < 0 ? 0 : ids[y] > 3 ? 3 : ids[y];
    for (index_t x = 0; x < 3; ++x) ASSERT_EQ(out.at({y, x}), w.at({r, x}));
  }
  out.t = take(idx.t, w.t, take_mode::kWrap);
  for (index_t y = 0; y < 6; ++y) {
    const index_t r = ((ids[y] % 4) + 4) % 4;
    for (index_t x = 0; x < 3; ++x) ASSERT_EQ(out.at({y, x}), w.at({r, x}));
  }
  // Float indices are truncated in clip mode.
  Buf<double, 1> fidx(Shape1(2));
  fidx.at({0}) = 2.7;
  fidx.at({1}) = 7.5;
  Buf<T, 2> o2(Shape2(2, 3));
  o2.t = take(fidx.t, w.t, take_mode::kClip);
  for (index_t x = 0; x < 3; ++x) {
    ASSERT_EQ(o2.at({0, x}), w.at({2, x}));
    ASSERT_EQ(o2.at({1, x}), w.at({3, x}));
  }
}

TYPED_TEST(IndexTest, TakeGrad) {
  using T = TypeParam;
  const index_t n = 9, vocab = 6, cols = 5;
  const int ids[9] = {4, 0, 2, 2, 1, 4, 4, 0, 1};  // row 3 and 5 never taken
  Buf<int32_t, 1> idx(Shape1(n));
  for (index_t i = 0; i < n; ++i) idx.at({i}) = ids[i];
  Buf<T, 2> g(Shape2(n, cols), 2);
  g.FillSeq(23, -11);
  Buf<T, 2> out(Shape2(vocab, cols), 3);
  out.t = take_grad(idx.t, g.t, vocab);
  for (index_t r = 0; r < vocab; ++r)
    for (index_t x = 0; x < cols; ++x) {
      T want = T(0);
      for (index_t i = 0; i < n; ++i)
        if (ids[i] == r) want += g.at({i, x});
      ASSERT_EQ(out.at({r, x}), want) << r << "," << x;
    }
  EXPECT_TRUE(out.PaddingIntact());
  // Accumulate with +=, gradient given as an expression, float indices.
  Buf<T, 1> fidx(Shape1(n));
  for (index_t i = 0; i < n; ++i) fidx.at({i}) = T(ids[i]);
  out.t += take_grad(fidx.t, g.t * T(2), vocab);
  for (index_t r = 0; r < vocab; ++r)
    for (index_t x = 0; x < cols; ++x) {
      T want = T(0);
      for (index_t i = 0; i < n; ++i)
        if (ids[i] == r) want += g.at({i, x});
      ASSERT_EQ(out.at({r, x}), T(3 * want));
    }
  // take_grad is the adjoint of take: <take(idx, W), G> == <W, take_grad(idx, G)>.
  Buf<double, 2> W(Shape2(vocab, cols)), G(Shape2(n, cols)), tk(Shape2(n, cols)),
      tg(Shape2(vocab, cols));
  W.FillRandom(3);
  G.FillRandom(4);
  tk.t = take(idx.t, W.t);
  tg.t = take_grad(idx.t, G.t, vocab);
  double lhs = 0, rhs = 0;
  for (index_t k = 0; k < tk.size(); ++k) lhs += tk.flat(k) * G.flat(k);
  for (index_t k = 0; k < tg.size(); ++k) rhs += W.flat(k) * tg.flat(k);
  EXPECT_NEAR(lhs, rhs, 1e-9);
  // Wrap mode maps negative indices like take does.
  Buf<int32_t, 1> neg(Shape1(2));
  neg.at({0}) = -1;
  neg.at({1}) = 6;
  Buf<T, 2> g2(Shape2(2, cols));
  g2.FillSeq();
  out.t = take_grad(neg.t, g2.t, vocab, take_mode::kWrap);
  for (index_t x = 0; x < cols; ++x) {
    ASSERT_EQ(out.at({5, x}), g2.at({0, x}));
    ASSERT_EQ(out.at({0, x}), g2.at({1, x}));
    ASSERT_EQ(out.at({3, x}), T(0));
  }
  Buf<int32_t, 1> none(Shape1(0));
  Buf<T, 2> g0(Shape2(0, cols));
  out.t = take_grad(none.t, g0.t, vocab);
  for (index_t k = 0; k < out.size(); ++k) ASSERT_EQ(out.flat(k), T(0));
}

TYPED_TEST(IndexTest, Mask) {
  using T = TypeParam;
  Buf<T, 2> src(Shape2(5, 7), 2);
  src.FillSeq();
  Buf<T, 1> m(Shape1(5));
  const int mv[5] = {1, 0, 2, 0, -1};
  for (index_t i = 0; i < 5; ++i) m.at({i}) = T(mv[i]);
  Buf<T, 2> out(Shape2(5, 7), 1);
  out.t = mask(m.t, src.t) + T(1);
  for (index_t y = 0; y < 5; ++y)
    for (index_t x = 0; x < 7; ++x) ASSERT_EQ(out.at({y, x}), T(mv[y] * src.at({y, x}) + 1));
  EXPECT_TRUE(out.PaddingIntact());
  Buf<T, 3> s3(Shape3(5, 3, 4), 3);
  s3.FillSeq();
  Buf<T, 3> o3(Shape3(5, 3, 4), 2);
  o3.t = mask(m.t * T(2), s3.t);
  for (index_t k = 0; k < o3.size(); ++k) {
    auto i = Unflat<3>(k, o3.t.shape_);
    ASSERT_EQ(o3.flat(k), T(2 * mv[i[0]] * s3.flat(k)));
  }
  Buf<T, 1> m0(Shape1(0));
  Buf<T, 2> e(Shape2(0, 4));
  e.t = mask(m0.t, e.t);
}

TYPED_TEST(IndexTest, Range) {
  using T = TypeParam;
  auto check = [](T start, T stop, T step, int repeat) {
    std::vector<T> want;
    if (step > 0) {
      for (T v = start; v < stop; v = T(v + step))
        for (int r = 0; r < repeat; ++r) want.push_back(v);
    } else {
      for (T v = start; v > stop; v = T(v + step))
        for (int r = 0; r < repeat; ++r) want.push_back(v);
    }
    Buf<T, 1> out(Shape1(static_cast<index_t>(want.size())));
    out.t = range<T>(start, stop, step, repeat);
    for (index_t i = 0; i < out.size(); ++i) ASSERT_EQ(out.at({i}), want[static_cast<size_t>(i)]);
  };
  check(T(0), T(5), T(1), 1);
  check(T(2), T(11), T(3), 2);
  check(T(5), T(0), T(-2), 1);
  check(T(-3), T(4), T(2), 3);
  check(T(3), T(3), T(1), 1);   // empty
  check(T(3), T(0), T(1), 2);   // wrong direction: empty, as NumPy's arange
  Buf<T, 1> out(Shape1(4));
  out.t = range<T>(0, 4) * T(2) + range<T>(1, 5);  // nested
  for (index_t i = 0; i < 4; ++i) ASSERT_EQ(out.at({i}), T(3 * i + 1));
  EXPECT_EQ(range<T>(0, 7, 2, 3).shape_[0], 12);
}

TEST(IndexExtras, RangeFractionalAndInt32Extremes) {
  Buf<double, 1> out(Shape1(4));
  out.t = range(0.0, 1.0, 0.3);
  for (index_t i = 0; i < 4; ++i) EXPECT_DOUBLE_EQ(out.at({i}), 0.3 * static_cast<double>(i));
  const int32_t lo = std::numeric_limits<int32_t>::min() + 1;
  const int32_t hi = std::numeric_limits<int32_t>::max();
  Buf<int32_t, 1> two(Shape1(2));
  two.t = range<int32_t>(lo, hi, hi);  // k * step overflows int32 in a naive evaluation
  EXPECT_EQ(two.at({0}), lo);
  EXPECT_EQ(two.at({1}), lo + hi);
}

TEST(IndexErrors, Messages) {
  Buf<float, 2> w(Shape2(4, 3));
  Buf<int32_t, 1> idx(Shape1(3));
  idx.at({0}) = 1;
  idx.at({1}) = 4;
  idx.at({2}) = 0;
  Buf<float, 2> out(Shape2(3, 3), 1);
  out.t = 5.f;
  std::string m = ErrorOf([&] { out.t = take(idx.t, w.t); });
  EXPECT_NE(m.find("index 4 at position 1"), std::string::npos) << m;
  EXPECT_NE(m.find("[0, 4)"), std::string::npos) << m;
  for (index_t k = 0; k < out.size(); ++k) EXPECT_EQ(out.flat(k), 5.f);  // nothing written
  idx.at({1}) = -1;
  m = ErrorOf([&] { out.t = take(idx.t, w.t); });
  EXPECT_NE(m.find("index -1 at position 1"), std::string::npos) << m;
  Buf<float, 1> fidx(Shape1(3));
  fidx.t = 0.f;
  fidx.at({2}) = 1.5f;
  m = ErrorOf([&] { out.t = take(fidx.t, w.t); });
  EXPECT_NE(m.find("index 1.5 at position 2"), std::string::npos) << m;
  fidx.at({2}) = std::numeric_limits<float>::quiet_NaN();
  m = ErrorOf([&] { out.t = take(fidx.t, w.t, take_mode::kClip); });
  EXPECT_NE(m.find("not a finite number"), std::string::npos) << m;
  m = ErrorOf([&] { out.t = take(idx.t, w.t, static_cast<take_mode::Mode>(7)); });
  EXPECT_NE(m.find("unknown mode 7"), std::string::npos) << m;
  Buf<float, 2> w0(Shape2(0, 3));
  m = ErrorOf([&] { out.t = take(idx.t, w0.t, take_mode::kWrap); });
  EXPECT_NE(m.find("0 rows"), std::string::npos) << m;
  Buf<float, 2> g(Shape2(4, 3));
  m = ErrorOf([&] { take_grad(idx.t, g.t, 5); });
  EXPECT_NE(m.find("index length 3"), std::string::npos) << m;
  m = ErrorOf([&] { take_grad(idx.t, out.t, -1); });
  EXPECT_NE(m.find("negative"), std::string::npos) << m;
  idx.at({1}) = 5;
  Buf<float, 2> dg(Shape2(5, 3));
  m = ErrorOf([&] { dg.t = take_grad(idx.t, out.t, 5); });
  EXPECT_NE(m.find("index 5 at position 1"), std::string::npos) << m;
  Buf<float, 1> mv(Shape1(3));
  m = ErrorOf([&] { mask(mv.t, w.t); });
  EXPECT_NE(m.find("(3,)"), std::string::npos) << m;
  EXPECT_NE(m.find("(4,3)"), std::string::npos) << m;
  m = ErrorOf([&] { range(0.f, 1.f, 0.f); });
  EXPECT_NE(m.find("step must not be 0"), std::string::npos) << m;
  m = ErrorOf([&] { range(0.f, 1.f, 1.f, 0); });
  EXPECT_NE(m.find("repeat"), std::string::npos) << m;
  m = ErrorOf([&] { range(0.f, std::numeric_limits<float>::infinity()); });
  EXPECT_NE(m.find("finite"), std::string::npos) << m;
  m = ErrorOf([&] { range(0.0, 1e300, 1e-300); });
  EXPECT_NE(m.find("do not fit"), std::string::npos) << m;
  m = ErrorOf([&] { range(0.0, 1e18, 1.0, 100); });  // 1e20 values
  EXPECT_FALSE(m.empty());
}

}  // namespace
