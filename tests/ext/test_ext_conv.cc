// Convolution-related extensions against naive loops: unpack_patch2col / pack_col2patch (every
// overload; stride, dilation, non-square kernels, padded images, leading batch dimensions),
// pool / unpool with red::maximum, red::sum, red::avg (clipped border windows, explicit pooled
// shape), chpool / ch_unpool (stride, pad, both overloads); float/double/int32, error paths.
#include <gtest/gtest.h>

#include <type_traits>

#include "ext_test_util.h"
#include "shade/expr/ext/chpool.h"
#include "shade/expr/ext/patch2col.h"
#include "shade/expr/ext/pool.h"

namespace {

using namespace ext_test;     // NOLINT(build/namespaces)
using namespace shade::expr;  // NOLINT(build/namespaces)
namespace red = shade::red;

template <typename DType>
using ConvTest = ExtTest<DType>;
TYPED_TEST_SUITE(ConvTest, ExtTypes);

struct Geo {
  index_t ky, kx, sy, sx, dy, dx;
};

template <typename T>
void CheckPatch(const Shape<4>& is, const Geo& g, int form) {
  Buf<T, 4> img(is, 3);
  img.FillSeq(61, -30);
  const index_t N = is[0], C = is[1], H = is[2], W = is[3];
  const index_t oh = (H - (g.dy * (g.ky - 1) + 1)) / g.sy + 1;
  const index_t ow = (W - (g.dx * (g.kx - 1) + 1)) / g.sx + 1;
  Buf<T, 2> col(Shape2(C * g.ky * g.kx, N * oh * ow), 2);
  if (form == 0) col.t = unpack_patch2col(img.t, g.ky, g.kx, g.sy, g.sx, g.dy, g.dx);
  if (form == 1) col.t = unpack_patch2col(img.t, g.ky, g.kx, g.sy, g.dy);
  if (form == 2) col.t = unpack_patch2col(img.t * T(1), g.ky, g.kx, g.sy);
  std::vector<double> back(static_cast<size_t>(img.size()), 0.0);
  for (index_t c = 0; c < C; ++c)
    for (index_t a = 0; a < g.ky; ++a)
      for (index_t b = 0; b < g.kx; ++b)
        for (index_t n = 0; n < N; ++n)
          for (index_t oy = 0; oy < oh; ++oy)
            for (index_t ox = 0; ox < ow; ++ox) {
              const index_t y = oy * g.sy + a * g.dy, x = ox * g.sx + b * g.dx;
              const double want = img.at({n, c, y, x});
              const T got = col.at({(c * g.ky + a) * g.kx + b, (n * oh + oy) * ow + ox});
              ASSERT_EQ(double(got), want) << "form " << form << " c" << c << " a" << a << " b" << b;
              back[size_t(((n * C + c) * H + y) * W + x)] += double(got);
            }
  EXPECT_TRUE(col.PaddingIntact());
  // pack_col2patch is the adjoint: it sums each column entry back to its pixel
  Buf<T, 4> img2(is, 1);
  if (form == 0) img2.t = pack_col2patch(col.t, is, g.ky, g.kx, g.sy, g.sx, g.dy, g.dx);
  if (form == 1) img2.t = pack_col2patch(col.t, is, g.ky, g.kx, g.sy, g.dy);
  if (form == 2) img2.t = pack_col2patch(col.t + T(0), is, g.ky, g.kx, g.sy);
  for (index_t k = 0; k < img2.size(); ++k)
    ASSERT_EQ(double(img2.flat(k)), back[size_t(k)]) << "pack form " << form << " at " << k;
  EXPECT_TRUE(img2.PaddingIntact());
}

TYPED_TEST(ConvTest, Patch2ColAndBack) {
  using T = TypeParam;
  CheckPatch<T>(Shape4(2, 3, 7, 9), {3, 2, 2, 1, 1, 2}, 0);
  CheckPatch<T>(Shape4(1, 2, 8, 6), {2, 3, 3, 2, 2, 1}, 0);
  CheckPatch<T>(Shape4(2, 1, 5, 5), {5, 5, 1, 1, 1, 1}, 0);  // kernel == image
  CheckPatch<T>(Shape4(2, 2, 9, 8), {2, 2, 2, 2, 2, 2}, 1);
  CheckPatch<T>(Shape4(3, 2, 6, 7), {3, 3, 2, 2, 1, 1}, 2);
  // rank 3 image (C, H, W) and rank 5 (two leading batch dimensions)
  Buf<T, 3> im3(Shape3(2, 5, 6));
  im3.FillSeq(23, -9);
  Buf<T, 2> c3(Shape2(2 * 2 * 3, 4 * 2));
  c3.t = unpack_patch2col(im3.t, 2, 3, 1, 2, 1, 1);
  for (index_t c = 0; c < 2; ++c)
    for (index_t oy = 0; oy < 4; ++oy)
      for (index_t ox = 0; ox < 2; ++ox)
        ASSERT_EQ(c3.at({(c * 2 + 1) * 3 + 2, oy * 2 + ox}), im3.at({c, oy + 1, ox * 2 + 2}));
  Buf<T, 5> im5(shade::Shape5(2, 2, 1, 4, 4));
  im5.FillSeq(17, -5);
  Buf<T, 2> c5(Shape2(4, 4 * 9));
  c5.t = unpack_patch2col(im5.t, 2, 2, 1);
  ASSERT_EQ(c5.at({3, 3 * 9 + 8}), im5.at({1, 1, 0, 3, 3}));
}

/*! Naive pooling reference (kind 0 max, 1 sum, 2 avg) and its gradient. */
template <typename T>
void CheckPool(const Shape<3>& s, index_t ky, index_t kx, index_t sy, index_t sx, int kind) {
  Buf<T, 3> src(s, 2);
  src.FillSeq(5, 0);  // many equal values: ties inside windows
  const index_t H = s[1], W = s[2];
  const index_t ph = (H - ky) / sy + 1;  // mshadow's spatial_pool.h
  const index_t pw = (W - kx) / sx + 1;
  Buf<T, 3> out(Shape3(s[0], ph, pw), 1), grad(Shape3(s[0], ph, pw)), gsrc(s, 3);
  grad.FillSeq(7, 1);
  if (kind == 0) out.t = pool<red::maximum>(src.t, ky, kx, sy, sx);
  if (kind == 1) out.t = pool<red::sum>(src.t, ky, kx, sy, sx);
  if (kind == 2) out.t = pool<red::avg>(src.t, ky, kx, sy, sx);
  if (kind == 0) gsrc.t = unpool<red::maximum>(src.t, out.t, grad.t, ky, kx, sy, sx);
  if (kind == 1) gsrc.t = unpool<red::sum>(src.t, out.t, grad.t * T(1), ky, kx, sy, sx);
  if (kind == 2) gsrc.t = unpool<red::avg>(src.t, out.t, grad.t, ky, kx, sy, sx);
  std::vector<double> gref(static_cast<size_t>(src.size()), 0.0);
  for (index_t c = 0; c < s[0]; ++c)
    for (index_t py = 0; py < ph; ++py)
      for (index_t px = 0; px < pw; ++px) {
        double acc = kind == 0 ? -1e300 : 0;
        index_t cnt = 0;
        for (index_t y = py * sy; y < std::min(py * sy + ky, H); ++y)
          for (index_t x = px * sx; x < std::min(px * sx + kx, W); ++x) {
            const double v = src.at({c, y, x});
            acc = kind == 0 ? std::max(acc, v) : acc + v;
            ++cnt;
          }
        double want = kind == 2 ? acc / double(cnt) : acc;
        if (std::is_integral<T>::value && kind == 2) want = double(T(T(acc) / T(cnt)));
        ASSERT_TRUE(Near(out.at({c, py, px}), want)) << "kind " << kind << " at " << c << "," << py << "," << px;
        const double g = grad.at({c, py, px});
        for (index_t y = py * sy; y < std::min(py * sy + ky, H); ++y)
          for (index_t x = px * sx; x < std::min(px * sx + kx, W); ++x) {
            double gv = kind == 0 ? (double(src.at({c, y, x})) == double(out.at({c, py, px})) ? g : 0) : g;
            if (kind == 2) gv /= double(cnt);
            gref[size_t((c * H + y) * W + x)] += gv;
          }
      }
  if (std::is_integral<T>::value && kind == 2) return;  // integer division order differs
  for (index_t k = 0; k < src.size(); ++k)
    ASSERT_TRUE(Near(gsrc.flat(k), gref[size_t(k)])) << "unpool kind " << kind << " at " << k;
  EXPECT_TRUE(out.PaddingIntact());
  EXPECT_TRUE(gsrc.PaddingIntact());
}

TYPED_TEST(ConvTest, PoolUnpool) {
  using T = TypeParam;
  for (int kind = 0; kind < 3; ++kind) {
    CheckPool<T>(Shape3(2, 7, 9), 3, 2, 2, 2, kind);  // trailing rows / columns unpooled
    CheckPool<T>(Shape3(3, 6, 5), 2, 2, 2, 2, kind);
    CheckPool<T>(Shape3(1, 8, 7), 3, 3, 1, 2, kind);  // overlapping windows
    CheckPool<T>(Shape3(2, 5, 4), 2, 1, 3, 3, kind);  // stride > kernel: gaps
    CheckPool<T>(Shape3(2, 4, 4), 4, 4, 1, 1, kind);  // one window
  }
  // explicit pooled shape (fewer windows) and a 4-D source
  Buf<T, 4> s4(Shape4(2, 2, 6, 6));
  s4.FillSeq(31, -10);
  Buf<T, 4> p4(Shape4(2, 2, 2, 3));
  p4.t = pool<red::maximum>(s4.t, Shape2(2, 3), 2, 2, 2, 2);
  for (index_t k = 0; k < p4.size(); ++k) {
    const auto i = Unflat<4>(k, p4.t.shape_);
    double m = -1e300;
    for (index_t y = i[2] * 2; y < i[2] * 2 + 2; ++y)
      for (index_t x = i[3] * 2; x < i[3] * 2 + 2; ++x) m = std::max(m, double(s4.at({i[0], i[1], y, x})));
    ASSERT_EQ(double(p4.at(i)), m);
  }
}

template <typename T>
void CheckChpool(const Shape<4>& s, index_t nsize, index_t stride, index_t pad, int kind, bool short_form) {
  Buf<T, 4> src(s, 2);
  src.FillSeq(4, 0);
  const index_t C = s[1];
  const index_t pc = (C + 2 * pad - nsize) / stride + 1;
  Shape<4> ps = s;
  ps[1] = pc;
  Buf<T, 4> out(ps, 1), grad(ps), gsrc(s, 1);
  grad.FillSeq(9, 1);
  if (short_form) {
    if (kind == 0) { out.t = chpool<red::maximum>(src.t, nsize); gsrc.t = ch_unpool<red::maximum>(src.t, out.t, grad.t, nsize); }
    if (kind == 1) { out.t = chpool<red::sum>(src.t, nsize); gsrc.t = ch_unpool<red::sum>(src.t, out.t, grad.t, nsize); }
    if (kind == 2) { out.t = chpool<red::avg>(src.t, nsize); gsrc.t = ch_unpool<red::avg>(src.t, out.t, grad.t, nsize); }
  } else {
    if (kind == 0) { out.t = chpool<red::maximum>(src.t, nsize, stride, pad); gsrc.t = ch_unpool<red::maximum>(src.t, out.t, grad.t, nsize, stride, pad); }
    if (kind == 1) { out.t = chpool<red::sum>(src.t, nsize, stride, pad); gsrc.t = ch_unpool<red::sum>(src.t, out.t, grad.t, nsize, stride, pad); }
    if (kind == 2) { out.t = chpool<red::avg>(src.t, nsize, stride, pad); gsrc.t = ch_unpool<red::avg>(src.t, out.t, grad.t, nsize, stride, pad); }
  }
  std::vector<double> gref(static_cast<size_t>(src.size()), 0.0);
  for (index_t k = 0; k < out.size(); ++k) {
    const auto i = Unflat<4>(k, ps);
    const index_t st = i[1] * stride - pad;
    double acc = kind == 0 ? -1e300 : 0;
    index_t cnt = 0;
    for (index_t c = std::max<index_t>(st, 0); c < std::min(st + nsize, C); ++c, ++cnt) {
      const double v = src.at({i[0], c, i[2], i[3]});
      acc = kind == 0 ? std::max(acc, v) : acc + v;
    }
    ASSERT_TRUE(Near(out.at(i), kind == 2 ? acc / double(cnt) : acc)) << "chpool kind " << kind << " at " << k;
    for (index_t c = std::max<index_t>(st, 0); c < std::min(st + nsize, C); ++c) {
      double gv = double(grad.at(i));
      if (kind == 0 && double(src.at({i[0], c, i[2], i[3]})) != double(out.at(i))) gv = 0;
      if (kind == 2) gv /= double(cnt);
      gref[size_t(((i[0] * C + c) * s[2] + i[2]) * s[3] + i[3])] += gv;
    }
  }
  for (index_t k = 0; k < src.size(); ++k)
    ASSERT_TRUE(Near(gsrc.flat(k), gref[size_t(k)])) << "ch_unpool kind " << kind << " at " << k;
}

TEST(ConvChannel, ChpoolChUnpool) {
  for (int kind = 0; kind < 3; ++kind) {
    CheckChpool<float>(Shape4(2, 7, 3, 4), 3, 1, 1, kind, true);
    CheckChpool<double>(Shape4(2, 7, 3, 4), 5, 1, 2, kind, true);
    CheckChpool<double>(Shape4(1, 9, 2, 3), 4, 2, 1, kind, false);
    CheckChpool<float>(Shape4(2, 6, 2, 5), 3, 3, 0, kind, false);
    CheckChpool<double>(Shape4(1, 3, 2, 2), 5, 1, 1, kind, false);
  }
}

TEST(ConvErrors, NameTheValues) {
  Buf<float, 4> img(Shape4(1, 2, 5, 6));
  std::string m = ErrorOf([&] { (void)unpack_patch2col(img.t, 6, 2, 1); });
  EXPECT_NE(m.find("larger than the image (1,2,5,6)"), std::string::npos) << m;
  m = ErrorOf([&] { (void)unpack_patch2col(img.t, 3, 3, 1, 1, 3, 1); });
  EXPECT_NE(m.find("dilated kernel (7x3"), std::string::npos) << m;
  m = ErrorOf([&] { (void)unpack_patch2col(img.t, 2, 2, 0); });
  EXPECT_NE(m.find("stride 0x0"), std::string::npos) << m;
  m = ErrorOf([&] { (void)unpack_patch2col(img.t, 2, 2, 1, 0); });
  EXPECT_NE(m.find("dilation 0x0"), std::string::npos) << m;
  m = ErrorOf([&] { (void)unpack_patch2col(img.t, 0, 2, 1); });
  EXPECT_NE(m.find("kernel size 0x2"), std::string::npos) << m;
  Buf<float, 2> col(Shape2(8, 21));
  m = ErrorOf([&] { (void)pack_col2patch(col.t, img.t.shape_, 2, 2, 1); });
  EXPECT_NE(m.find("(8,21)"), std::string::npos) << m;
  EXPECT_NE(m.find("(8,20)"), std::string::npos) << m;
  m = ErrorOf([&] { (void)pack_col2patch(col.t, Shape4(1, -2, 5, 6), 2, 2, 1); });
  EXPECT_NE(m.find("negative"), std::string::npos) << m;
  m = ErrorOf([&] { (void)pool<red::maximum>(img.t, 6, 2, 1, 1); });
  EXPECT_NE(m.find("kernel 6x2 is larger than the image 5x6"), std::string::npos) << m;
  m = ErrorOf([&] { (void)pool<red::sum>(img.t, 2, 2, 1, 0); });
  EXPECT_NE(m.find("stride 1x0"), std::string::npos) << m;
  m = ErrorOf([&] { (void)pool<red::sum>(img.t, Shape2(4, 2), 2, 2, 2, 2); });
  EXPECT_NE(m.find("pooled shape 4x2"), std::string::npos) << m;
  Buf<float, 4> p(Shape4(1, 2, 2, 3)), g(Shape4(1, 2, 2, 2)), p3(Shape4(1, 3, 2, 3));
  m = ErrorOf([&] { (void)unpool<red::maximum>(img.t, p.t, g.t, 2, 2, 2, 2); });
  EXPECT_NE(m.find("(1,2,2,2)"), std::string::npos) << m;
  m = ErrorOf([&] { (void)unpool<red::maximum>(img.t, p3.t, p3.t, 2, 2, 2, 2); });
  EXPECT_NE(m.find("dimension 1"), std::string::npos) << m;
  m = ErrorOf([&] { (void)chpool<red::sum>(img.t, 2); });
  EXPECT_NE(m.find("odd"), std::string::npos) << m;
  m = ErrorOf([&] { (void)chpool<red::sum>(img.t, 5, 1, 1); });
  EXPECT_NE(m.find("window 5 is larger than the 2 channels"), std::string::npos) << m;
  m = ErrorOf([&] { (void)chpool<red::sum>(img.t, 1, 0, 0); });
  EXPECT_NE(m.find("stride"), std::string::npos) << m;
  m = ErrorOf([&] { (void)ch_unpool<red::sum>(img.t, p.t, p.t, 1, 1, 0); });
  EXPECT_NE(m.find("(1,2,5,6)"), std::string::npos) << m;
  m = ErrorOf([&] { (void)ch_unpool<red::sum>(img.t, img.t, p.t, 1, 1, 0); });
  EXPECT_NE(m.find("differ in shape"), std::string::npos) << m;
}

}  // namespace
