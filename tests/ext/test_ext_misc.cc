// one_hot_encode, mat_choose_row_element and mat_fill_row_element against naive loops: float,
// double and int32 data, int32/float/uint8 indices, padded matrices, expression operands,
// empty shapes, and every error path (bad index values, lengths).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "ext_test_util.h"
#include "shade/compat/mshadow.h"
#include "shade/expr/ext/choose_row.h"
#include "shade/expr/ext/one_hot.h"

namespace {

using namespace ext_test;     // NOLINT(build/namespaces)
using namespace shade::expr;  // NOLINT(build/namespaces)
using shade::Shape1;
using shade::Shape2;

template <typename DType>
class MiscTest : public ::testing::Test {};
using Types = ::testing::Types<float, double, int32_t>;
TYPED_TEST_SUITE(MiscTest, Types);

TYPED_TEST(MiscTest, OneHot) {
  using T = TypeParam;
  Buf<T, 1> idx(Shape1(7));
  const int labels[7] = {3, 0, 4, 4, 1, 2, 0};
  for (index_t i = 0; i < 7; ++i) idx.at({i}) = T(labels[i]);
  Buf<float, 2> out(Shape2(7, 5), 3);
  out.t = one_hot_encode(idx.t, 5);
  for (index_t y = 0; y < 7; ++y)
    for (index_t x = 0; x < 5; ++x) ASSERT_EQ(out.at({y, x}), labels[y] == x ? 1.f : 0.f);
  EXPECT_TRUE(out.PaddingIntact());
  Buf<T, 2> o2(Shape2(7, 6), 1);
  o2.t = T(2) * one_hot_encode<T>(idx.t + T(1), 6) - T(1);  // nested, index expression
  for (index_t y = 0; y < 7; ++y)
    for (index_t x = 0; x < 6; ++x) ASSERT_EQ(o2.at({y, x}), labels[y] + 1 == x ? T(1) : T(-1));
  Buf<float, 2> e(Shape2(7, 0));
  std::string m = ErrorOf([&] { e.t = one_hot_encode(idx.t, 0); });  // every index is out of range
  EXPECT_NE(m.find("index 3 at position 0"), std::string::npos) << m;
  EXPECT_NE(m.find("[0, 0)"), std::string::npos) << m;
  Buf<T, 1> none(Shape1(0));
  Buf<float, 2> e2(Shape2(0, 4));
  e2.t = one_hot_encode(none.t, 4);
}

TYPED_TEST(MiscTest, ChooseAndFillRow) {
  using T = TypeParam;
  Buf<T, 2> src(Shape2(6, 9), 4);
  src.FillSeq(53, -20);
  Buf<int32_t, 1> idx(Shape1(6));
  const int cols[6] = {8, 0, 3, 3, 7, 1};
  for (index_t i = 0; i < 6; ++i) idx.at({i}) = cols[i];
  Buf<T, 1> out(Shape1(6));
  out.t = mat_choose_row_element(src.t, idx.t);
  for (index_t y = 0; y < 6; ++y) ASSERT_EQ(out.at({y}), src.at({y, cols[y]}));
  out.t += mat_choose_row_element(src.t * T(2), idx.t);
  for (index_t y = 0; y < 6; ++y) ASSERT_EQ(out.at({y}), T(3) * src.at({y, cols[y]}));
  Buf<T, 1> val(Shape1(6));
  val.FillSeq(11, 100);
  Buf<T, 2> f(Shape2(6, 9), 2);
  f.t = mat_fill_row_element(src.t, val.t, idx.t);
  for (index_t y = 0; y < 6; ++y)
    for (index_t x = 0; x < 9; ++x)
      ASSERT_EQ(f.at({y, x}), x == cols[y] ? val.at({y}) : src.at({y, x}));
  EXPECT_TRUE(f.PaddingIntact());
  // float and uint8 indices
  Buf<float, 1> fidx(Shape1(6));
  Buf<uint8_t, 1> bidx(Shape1(6));
  for (index_t i = 0; i < 6; ++i) {
    fidx.at({i}) = float(cols[i]);
    bidx.at({i}) = uint8_t(cols[i]);
  }
  out.t = mat_choose_row_element(src.t, fidx.t) - mat_choose_row_element(src.t, bidx.t);
  for (index_t y = 0; y < 6; ++y) ASSERT_EQ(out.at({y}), T(0));
}

TEST(MiscErrors, IndicesAndLengths) {
  Buf<float, 2> src(Shape2(3, 4));
  Buf<float, 1> idx(Shape1(3)), val(Shape1(3)), out(Shape1(3));
  idx.at({0}) = 1;
  idx.at({1}) = 4;
  idx.at({2}) = 0;
  out.t = 5.f;
  std::string m = ErrorOf([&] { out.t = mat_choose_row_element(src.t, idx.t); });
  EXPECT_NE(m.find("index 4 at position 1"), std::string::npos) << m;
  EXPECT_NE(m.find("[0, 4)"), std::string::npos) << m;
  EXPECT_EQ(out.at({0}), 5.f);  // nothing written before the check
  idx.at({1}) = 1.5f;
  m = ErrorOf([&] { out.t = mat_choose_row_element(src.t, idx.t); });
  EXPECT_NE(m.find("index 1.5 at position 1 is not an integer"), std::string::npos) << m;
  idx.at({1}) = NAN;
  m = ErrorOf([&] { out.t = mat_choose_row_element(src.t, idx.t); });
  EXPECT_NE(m.find("not an integer"), std::string::npos) << m;
  Buf<int32_t, 1> neg(Shape1(3));
  neg.at({0}) = 0;
  neg.at({1}) = -1;
  neg.at({2}) = 0;
  m = ErrorOf([&] { src.t = mat_fill_row_element(src.t, val.t, neg.t); });
  EXPECT_NE(m.find("index -1 at position 1"), std::string::npos) << m;
  m = ErrorOf([&] { (void)one_hot_encode(neg.t, 3); Buf<float, 2> o(Shape2(3, 3)); o.t = one_hot_encode(neg.t, 3); });
  EXPECT_NE(m.find("one_hot_encode: index -1"), std::string::npos) << m;
  m = ErrorOf([&] { (void)one_hot_encode(neg.t, -3); });
  EXPECT_NE(m.find("negative"), std::string::npos) << m;
  Buf<float, 1> four(Shape1(4));
  m = ErrorOf([&] { (void)mat_choose_row_element(src.t, four.t); });
  EXPECT_NE(m.find("(3,4)"), std::string::npos) << m;
  m = ErrorOf([&] { (void)mat_fill_row_element(src.t, four.t, idx.t); });
  EXPECT_NE(m.find("value length"), std::string::npos) << m;
  m = ErrorOf([&] { (void)mat_fill_row_element(src.t, val.t, four.t); });
  EXPECT_NE(m.find("index length"), std::string::npos) << m;
}

// An mshadow program (a tiny conv + pool + dense + softmax step) compiles through the compat
// header unchanged, and its loss matches the same steps computed with naive loops.
namespace mshadow_style {
using namespace mshadow;        // NOLINT(build/namespaces)
using namespace mshadow::expr;  // NOLINT(build/namespaces)
struct Result {
  float loss;
  std::vector<float> img, wconv, w;
};
Result Forward(int seed) {
  Random<cpu, float> rnd(seed);
  TensorContainer<cpu, 4> img(Shape4(2, 1, 6, 6));
  TensorContainer<cpu, 2> wconv(Shape2(3, 9)), col(Shape2(9, 2 * 4 * 4)), out(Shape2(3, 32));
  TensorContainer<cpu, 4> act(Shape4(2, 3, 4, 4)), pooled(Shape4(2, 3, 2, 2));
  TensorContainer<cpu, 1> bias(Shape1(3)), label(Shape1(2));
  TensorContainer<cpu, 2> flat(Shape2(2, 12)), w(Shape2(12, 4)), prob(Shape2(2, 4));
  rnd.SampleUniform(&img, -1.0f, 1.0f);
  rnd.SampleGaussian(&wconv, 0.0f, 0.5f);
  rnd.SampleGaussian(&w, 0.0f, 0.5f);
  bias = 0.1f;
  col = unpack_patch2col(img, 3, 3, 1, 1, 1, 1);
  out = dot(wconv, col);
  act = swapaxis<1, 0>(reshape(out, Shape4(3, 2, 4, 4))) + broadcast<1>(bias, act.shape_);
  pooled = pool<red::maximum>(act, 2, 2, 2, 2);
  flat = reshape(pooled, flat.shape_);
  prob = dot(flat, w);
  Softmax(prob, prob);
  label[0] = 1;
  label[1] = 3;
  TensorContainer<cpu, 1> p(Shape1(2));
  p = mat_choose_row_element(prob, label);
  Result r;
  r.loss = -(std::log(p[0]) + std::log(p[1]));
  for (index_t i = 0; i < 72; ++i) r.img.push_back(img.dptr_[(i / 6) * img.stride_ + i % 6]);
  for (index_t i = 0; i < 27; ++i) r.wconv.push_back(wconv.dptr_[(i / 9) * wconv.stride_ + i % 9]);
  for (index_t i = 0; i < 48; ++i) r.w.push_back(w.dptr_[(i / 4) * w.stride_ + i % 4]);
  return r;
}
}  // namespace mshadow_style

TEST(MshadowCompat, ProgramCompilesAndMatchesNaiveLoops) {
  const auto r = mshadow_style::Forward(1);
  EXPECT_EQ(r.loss, mshadow_style::Forward(1).loss);
  // naive: conv 3x3 valid (1 channel), + bias 0.1, 2x2 max pool, dense 12x4, softmax, -log p
  double loss = 0;
  const int labels[2] = {1, 3};
  for (int n = 0; n < 2; ++n) {
    double flat[12];
    for (int c = 0; c < 3; ++c)
      for (int py = 0; py < 2; ++py)
        for (int px = 0; px < 2; ++px) {
          double m = -1e300;
          for (int y = py * 2; y < py * 2 + 2; ++y)
            for (int x = px * 2; x < px * 2 + 2; ++x) {
              double a = 0.1;
              for (int ky = 0; ky < 3; ++ky)
                for (int kx = 0; kx < 3; ++kx)
                  a += double(r.wconv[size_t(c * 9 + ky * 3 + kx)]) * r.img[size_t(n * 36 + (y + ky) * 6 + x + kx)];
              m = std::max(m, a);
            }
          flat[(c * 2 + py) * 2 + px] = m;
        }
    double z[4], mx = -1e300, sum = 0;
    for (int j = 0; j < 4; ++j) {
      z[j] = 0;
      for (int i = 0; i < 12; ++i) z[j] += flat[i] * r.w[size_t(i * 4 + j)];
      mx = std::max(mx, z[j]);
    }
    for (int j = 0; j < 4; ++j) sum += std::exp(z[j] - mx);
    loss -= z[labels[n]] - mx - std::log(sum);
  }
  EXPECT_NEAR(r.loss, loss, 1e-4 * std::max(1.0, loss));
}

}  // namespace
