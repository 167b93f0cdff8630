// Static reductions against naive double loops: sumall_except_dim<k> / reduce_except_dim<k, Red>
// for every k, sum_rows, reduce_with_axis / reduce_keepdim (sum, max, min, arg-max/min with ties
// and NaN), full reductions; padded sources, expression sources, nesting in expressions with
// savers, empty shapes, float accuracy within the kernel layer's stated bound on 2^22 elements,
// bit-identical results for 1 and 2 threads, and the error paths.
#include <gtest/gtest.h>

#include <limits>

#include "ext_test_util.h"
#include "shade/backend/cpu/parallel.h"
#include "shade/expr/ext/reduce.h"

namespace {

using namespace ext_test;     // NOLINT(build/namespaces)
using namespace shade::expr;  // NOLINT(build/namespaces)
namespace red = shade::red;

template <typename DType>
using ReduceExprTest = ExtTest<DType>;
TYPED_TEST_SUITE(ReduceExprTest, ExtTypes);

/*! Naive reference: Red over all elements whose index along `keep` is k. */
template <typename DType, int dim>
std::vector<double> RefExcept(Buf<DType, dim>& x, int keep, int red_kind) {
  const index_t K = x.t.shape_[keep];
  std::vector<double> out(static_cast<size_t>(K), red_kind == 0 ? 0.0 : red_kind == 1 ? -1e300 : 1e300);
  for (index_t f = 0; f < x.size(); ++f) {
    const auto i = Unflat<dim>(f, x.t.shape_);
    double& o = out[static_cast<size_t>(i[keep])];
    const double v = double(x.at(i));
    o = red_kind == 0 ? o + v : red_kind == 1 ? std::max(o, v) : std::min(o, v);
  }
  return out;
}

TYPED_TEST(ReduceExprTest, ExceptDimEveryK) {
  using T = TypeParam;
  const auto s = Shape4(3, 4, 5, 7);
  Buf<T, 4> x(s, 5);
  x.FillSeq(23, -11);
  for (int keep = 0; keep < 4; ++keep) {
    Buf<T, 1> out(Shape1(s[keep]));
    for (int kind = 0; kind < 3; ++kind) {
      switch (keep * 3 + kind) {
        case 0: out.t = sumall_except_dim<0>(x.t); break;
        case 1: out.t = reduce_except_dim<0, red::maximum>(x.t); break;
        case 2: out.t = reduce_except_dim<0, red::minimum>(x.t); break;
        case 3: out.t = sumall_except_dim<1>(x.t); break;
        case 4: out.t = reduce_except_dim<1, red::maximum>(x.t); break;
        case 5: out.t = reduce_except_dim<1, red::minimum>(x.t); break;
        case 6: out.t = sumall_except_dim<2>(x.t); break;
        case 7: out.t = reduce_except_dim<2, red::maximum>(x.t); break;
        case 8: out.t = reduce_except_dim<2, red::minimum>(x.t); break;
        case 9: out.t = sum_rows(x.t); break;
        case 10: out.t = reduce_except_dim<3, red::maximum>(x.t); break;
        default: out.t = reduce_except_dim<3, red::minimum>(x.t); break;
      }
      const auto ref = RefExcept(x, keep, kind);
      for (index_t k = 0; k < s[keep]; ++k)
        ASSERT_TRUE(Near(out.at({k}), ref[static_cast<size_t>(k)]))
            << "keep " << keep << " kind " << kind << " k " << k << ": " << out.at({k}) << " vs "
            << ref[static_cast<size_t>(k)];
    }
  }
  // expression source (evaluated into a temporary), nested with a scale and the += saver
  Buf<T, 1> out(Shape1(s[1]));
  out.t = T(1);
  out.t += T(2) * sumall_except_dim<1>(x.t * T(3));
  const auto ref = RefExcept(x, 1, 0);
  for (index_t k = 0; k < s[1]; ++k) ASSERT_TRUE(Near(out.at({k}), 1 + 6 * ref[size_t(k)]));
  // 2-D sum_rows of a padded matrix and of an expression
  Buf<T, 2> m(Shape2(9, 13), 3);
  m.FillSeq(31, -15);
  Buf<T, 1> cs(Shape1(13));
  cs.t = sum_rows(m.t - T(1));
  const auto rm = RefExcept(m, 1, 0);
  for (index_t k = 0; k < 13; ++k) ASSERT_TRUE(Near(cs.at({k}), rm[size_t(k)] - 9));
  cs.t = sum_rows(m.t);
  for (index_t k = 0; k < 13; ++k) ASSERT_TRUE(Near(cs.at({k}), rm[size_t(k)]));
}

/*! Reference for reduce_with_axis over [outer, len, inner] (kind 0 sum, 1 max, 2 min, 3 argmax,
 *  4 argmin). */
template <typename DType, int dim>
double RefAxis(Buf<DType, dim>& x, int axis, std::array<index_t, dim> i, int kind) {
  double acc = kind == 0 ? 0 : kind == 1 ? -1e300 : 1e300;
  index_t arg = 0;
  double best = 0;
  for (index_t l = 0; l < x.t.shape_[axis]; ++l) {
    i[axis] = l;
    const double v = double(x.at(i));
    if (kind == 0) acc += v;
    if (kind == 1) acc = std::max(acc, v);
    if (kind == 2) acc = std::min(acc, v);
    if (l == 0 || (kind == 3 && v > best) || (kind == 4 && v < best)) {
      best = v;
      arg = l;
    }
  }
  return kind >= 3 ? double(arg) : acc;
}

TYPED_TEST(ReduceExprTest, WithAxisAndKeepdim) {
  using T = TypeParam;
  const auto s = Shape3(4, 6, 5);
  Buf<T, 3> x(s, 3);
  x.FillSeq(7, -3);  // many ties: the first index must win
  for (int axis = 0; axis < 3; ++axis) {
    Shape<2> rs;
    for (int d = 0, k = 0; d < 3; ++d)
      if (d != axis) rs[k++] = s[d];
    Shape<3> ks = s;
    ks[axis] = 1;
    for (int kind = 0; kind < 5; ++kind) {
      Buf<T, 2> r(rs, 2);
      Buf<T, 3> kd(ks, 1);
      switch (kind) {
        case 0: r.t = reduce_with_axis<red::sum, false>(x.t, axis);
                kd.t = reduce_keepdim<red::sum, false>(x.t + T(0), axis); break;
        case 1: r.t = reduce_with_axis<red::maximum, false>(x.t, axis);
                kd.t = reduce_keepdim<red::maximum, false>(x.t, axis); break;
        case 2: r.t = reduce_with_axis<red::minimum, false>(x.t * T(1), axis);
                kd.t = reduce_keepdim<red::minimum, false>(x.t, axis); break;
        case 3: r.t = reduce_with_axis<red::maximum, true>(x.t, axis);
                kd.t = reduce_keepdim<red::maximum, true>(x.t, axis); break;
        default: r.t = reduce_with_axis<red::minimum, true>(x.t - T(0), axis);
                 kd.t = reduce_keepdim<red::minimum, true>(x.t, axis); break;
      }
      EXPECT_TRUE(r.PaddingIntact());
      for (index_t f = 0; f < r.size(); ++f) {
        const auto j = Unflat<2>(f, rs);
        std::array<index_t, 3> i{};
        for (int d = 0, k = 0; d < 3; ++d) i[d] = d == axis ? 0 : j[k++];
        const double want = RefAxis<T, 3>(x, axis, i, kind);
        ASSERT_TRUE(Near(r.at(j), want)) << "axis " << axis << " kind " << kind << " at " << f;
        ASSERT_TRUE(Near(kd.at(i), want)) << "keepdim axis " << axis << " kind " << kind;
      }
    }
  }
}

TEST(ReduceExpr, FullReductionsAndNaN) {
  Buf<double, 3> x(Shape3(3, 5, 7), 4);
  x.FillSeq(41, -20);
  double sum = 0, mx = -1e300, mn = 1e300;
  index_t amx = 0, amn = 0;
  for (index_t f = 0; f < x.size(); ++f) {
    const double v = x.flat(f);
    sum += v;
    if (v > mx) { mx = v; amx = f; }
    if (v < mn) { mn = v; amn = f; }
  }
  EXPECT_DOUBLE_EQ(sum_all(x.t), sum);
  EXPECT_DOUBLE_EQ(sum_all(x.t * 2.0), 2 * sum);
  EXPECT_EQ(max_all(x.t), mx);
  EXPECT_EQ(min_all(x.t), mn);
  EXPECT_EQ(argmax_all(x.t), amx);
  EXPECT_EQ(argmin_all(x.t + 1.0), amn);
  x.flat(50) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(argmax_all(x.t), 50);  // NaN wins, as in NumPy
  // arg-max along the last axis of a padded matrix: NaN wins, ties give the first index
  Buf<float, 2> m(Shape2(3, 6), 2);
  const float vals[3][6] = {{1, 5, 5, 2, 0, 5}, {-1, -1, -1, -1, -1, -1}, {0, 3, NAN, 9, NAN, 1}};
  for (index_t i = 0; i < 3; ++i)
    for (index_t j = 0; j < 6; ++j) m.at({i, j}) = vals[i][j];
  Buf<float, 1> am(Shape1(3));
  am.t = reduce_with_axis<red::maximum, true>(m.t, 1);
  EXPECT_EQ(am.at({0}), 1.f);
  EXPECT_EQ(am.at({1}), 0.f);
  EXPECT_EQ(am.at({2}), 2.f);
  am.t = reduce_with_axis<red::minimum, true>(m.t, 1);
  EXPECT_EQ(am.at({0}), 4.f);
  EXPECT_EQ(am.at({2}), 2.f);
}

TEST(ReduceExpr, EmptyShapes) {
  Buf<float, 2> e(Shape2(0, 5));
  Buf<float, 1> out(Shape1(5));
  out.t = sum_rows(e.t);
  for (index_t k = 0; k < 5; ++k) EXPECT_EQ(out.at({k}), 0.f);
  out.t = reduce_except_dim<1, red::maximum>(e.t);  // mshadow's initial value, -FLT_MAX
  EXPECT_EQ(out.at({0}), -std::numeric_limits<float>::max());
  Buf<float, 1> none(Shape1(0));
  none.t = sumall_except_dim<0>(e.t);
  EXPECT_EQ(sum_all(e.t), 0.f);
  Buf<float, 2> r(Shape2(0, 1));
  r.t = reduce_keepdim<red::maximum, true>(e.t, 1) * 0.f + r.t;  // empty output: nothing to do
  auto empty_arg = [&] { (void)reduce_keepdim<red::maximum, true>(e.t, 0); };  // (1, 5) from nothing
  EXPECT_THROW(empty_arg(), shade::Error);
  Buf<int32_t, 2> ei(Shape2(4, 0));
  Buf<int32_t, 1> oi(Shape1(4));
  oi.t = reduce_with_axis<red::sum, false>(ei.t, 1);
  for (index_t k = 0; k < 4; ++k) EXPECT_EQ(oi.at({k}), 0);
  oi.t = reduce_with_axis<red::minimum, false>(ei.t, 1);
  EXPECT_EQ(oi.at({0}), std::numeric_limits<int32_t>::max());
}

TEST(ReduceExpr, FloatAccuracyWithinBoundAndThreadIndependent) {
  // 2^22 floats in 2^12 padded rows; a naive float running sum drifts by ~1e-3 relative here
  const index_t rows = index_t(1) << 12, cols = 1024;
  Buf<float, 2> x(Shape2(rows, cols), 16);
  x.FillRandom(7, 0.0, 1.0);
  double exact = 0, abs_sum = 0;
  std::vector<double> col(cols, 0.0), colabs(cols, 0.0);
  for (index_t i = 0; i < rows; ++i)
    for (index_t j = 0; j < cols; ++j) {
      const double v = x.at({i, j});
      exact += v;
      abs_sum += std::fabs(v);
      col[size_t(j)] += v;
      colabs[size_t(j)] += std::fabs(v);
    }
  const int saved = shade::GetNumThreads();
  shade::SetNumThreads(1);
  const float s1 = sum_all(x.t);
  Buf<float, 1> cs1(Shape1(cols));
  cs1.t = sum_rows(x.t);
  shade::SetNumThreads(2);
  const float s2 = sum_all(x.t);
  Buf<float, 1> cs2(Shape1(cols));
  cs2.t = sum_rows(x.t);
  shade::SetNumThreads(saved);
  // the padded source is reduced row by row then across rows: the bound of two pairwise stages
  const double bound = shade::kernel::SumErrorBound<float>(rows * cols, abs_sum) * 2;
  EXPECT_LE(std::fabs(double(s1) - exact), bound) << s1 << " vs " << exact;
  EXPECT_LT(std::fabs(double(s1) - exact), 1e-6 * exact);
  EXPECT_EQ(s1, s2);  // bit-identical for 1 and 2 threads
  const double u = std::numeric_limits<float>::epsilon() / 2;
  for (index_t j = 0; j < cols; ++j) {
    // axis-0 bound of the kernel layer: (32 + ceil(log2(rows / 32))) u sum |x|
    const double k = 32 + 7;
    ASSERT_LE(std::fabs(double(cs1.at({j})) - col[size_t(j)]), k * u / (1 - k * u) * colabs[size_t(j)]);
    ASSERT_EQ(cs1.at({j}), cs2.at({j}));
  }
}

TEST(ReduceExpr, Errors) {
  Buf<float, 3> x(Shape3(2, 0, 3));
  std::string m = ErrorOf([&] { (void)reduce_with_axis<red::sum, false>(x.t, 3); });
  EXPECT_NE(m.find("axis 3"), std::string::npos) << m;
  EXPECT_NE(m.find("(2,0,3)"), std::string::npos) << m;
  m = ErrorOf([&] { (void)reduce_keepdim<red::sum, false>(x.t, -1); });
  EXPECT_NE(m.find("axis -1"), std::string::npos) << m;
  m = ErrorOf([&] { (void)reduce_with_axis<red::maximum, true>(x.t, 1); });
  EXPECT_NE(m.find("arg-max over the empty axis 1"), std::string::npos) << m;
  m = ErrorOf([&] { (void)argmax_all(x.t); });
  EXPECT_NE(m.find("argmax_all: empty"), std::string::npos) << m;
  m = ErrorOf([&] { (void)argmin_all(x.t); });
  EXPECT_NE(m.find("argmin_all"), std::string::npos) << m;
  Buf<float, 2> y(Shape2(4, 5));
  Buf<float, 1> out(Shape1(4));
  m = ErrorOf([&] { out.t = sum_rows(y.t); });
  EXPECT_NE(m.find("(5,)"), std::string::npos) << m;
  EXPECT_NE(m.find("(4,)"), std::string::npos) << m;
}

}  // namespace
