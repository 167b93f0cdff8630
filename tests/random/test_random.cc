// Random<cpu, DType>: reproducibility (same seed, same values; independent of thread count and
// row padding; Seed restarts), distinct values per call and seed, distribution moments of
// uniform/gaussian/gamma/exponential/poisson against their formulas (5-sigma bounds on 2^17
// samples), [a, b) for uniform, the uniform/gaussian expressions, GetRandInt, and bad parameters.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "ext_test_util.h"
#include "shade/backend/cpu/parallel.h"
#include "shade/random/random.h"

namespace {

using namespace ext_test;  // NOLINT(build/namespaces)
using shade::Random;
using shade::Shape1;
using shade::Shape2;
using shade::Shape3;

template <typename DType>
class RandomTest : public ::testing::Test {};
using Types = ::testing::Types<float, double>;
TYPED_TEST_SUITE(RandomTest, Types);

template <typename T, int dim>
std::vector<double> Values(Buf<T, dim>& b) {
  std::vector<double> v;
  for (index_t k = 0; k < b.size(); ++k) v.push_back(double(b.flat(k)));
  return v;
}

/*! Checks sample mean and variance against the distribution's (5 standard errors). */
void Moments(const std::vector<double>& v, double mean, double var, const char* what) {
  double m = 0, m2 = 0;
  for (double x : v) m += x;
  m /= double(v.size());
  for (double x : v) m2 += (x - m) * (x - m);
  m2 /= double(v.size() - 1);
  const double n = double(v.size());
  EXPECT_NEAR(m, mean, 5 * std::sqrt(var / n) + 1e-12) << what << " mean";
  // the variance estimate's standard error is about var * sqrt(2 / n) for light tails
  EXPECT_NEAR(m2, var, 8 * var * std::sqrt(2 / n) + 1e-12) << what << " variance";
}

TYPED_TEST(RandomTest, ReproducibleAcrossThreadsAndPadding) {
  using T = TypeParam;
  const auto s = Shape2(37, 1001);  // 37037 elements: several chunks, a partial last chunk
  Buf<T, 2> a(s, 0), b(s, 5), c(s, 0);
  const int saved = shade::GetNumThreads();
  shade::SetNumThreads(1);
  Random<shade::cpu, T> r1(42);
  r1.SampleGaussian(&a.t, T(1), T(2));
  shade::SetNumThreads(2);
  Random<shade::cpu, T> r2(42);
  r2.SampleGaussian(&b.t, T(1), T(2));
  shade::SetNumThreads(saved);
  EXPECT_EQ(Values(a), Values(b));  // bit-identical: thread count and padding do not matter
  EXPECT_TRUE(b.PaddingIntact());
  r2.SampleGaussian(&c.t, T(1), T(2));
  EXPECT_NE(Values(b), Values(c));  // the next call is a new stream
  r2.Seed(42);
  r2.SampleGaussian(&c.t, T(1), T(2));
  EXPECT_EQ(Values(a), Values(c));  // Seed restarts the sequence
  Random<shade::cpu, T> r3(43);
  r3.SampleGaussian(&c.t, T(1), T(2));
  EXPECT_NE(Values(a), Values(c));
  // the 1-D view of the same elements draws the same values
  Buf<T, 1> flat(Shape1(s.Size()));
  Random<shade::cpu, T> r4(42);
  r4.SampleGaussian(&flat.t, T(1), T(2));
  EXPECT_EQ(Values(a), Values(flat));
}

TYPED_TEST(RandomTest, DistributionMoments) {
  using T = TypeParam;
  Buf<T, 2> x(Shape2(128, 1024), 3);
  Random<shade::cpu, T> rnd(7);
  rnd.SampleUniform(&x.t, T(-1.5), T(2.5));
  auto v = Values(x);
  for (double e : v) ASSERT_TRUE(e >= -1.5 && e < 2.5) << e;
  Moments(v, 0.5, 16.0 / 12, "uniform");
  rnd.SampleUniform(&x.t);
  Moments(Values(x), 0.5, 1.0 / 12, "uniform default");
  rnd.SampleGaussian(&x.t, T(-3), T(0.5));
  Moments(Values(x), -3, 0.25, "gaussian");
  rnd.SampleGaussian(&x.t, T(2), T(0));
  for (double e : Values(x)) ASSERT_EQ(e, 2.0);
  rnd.SampleGamma(&x.t, T(2.5), T(1.5));
  Moments(Values(x), 2.5 * 1.5, 2.5 * 1.5 * 1.5, "gamma");
  rnd.SampleGamma(&x.t, T(0.3), T(2));
  Moments(Values(x), 0.6, 1.2, "gamma alpha < 1");
  rnd.SampleExponential(&x.t, T(4));
  Moments(Values(x), 0.25, 1.0 / 16, "exponential");
  rnd.SamplePoisson(&x.t, T(3.5));
  v = Values(x);
  for (double e : v) ASSERT_EQ(e, std::floor(e));
  Moments(v, 3.5, 3.5, "poisson");
  rnd.SamplePoisson(&x.t, T(0));
  for (double e : Values(x)) ASSERT_EQ(e, 0.0);
  // expressions
  Buf<T, 3> g(Shape3(64, 32, 64), 1);
  g.t = rnd.gaussian(g.t.shape_) * T(3) + T(1);
  Moments(Values(g), 1, 9, "gaussian()");
  g.t = rnd.uniform(g.t.shape_);
  Moments(Values(g), 0.5, 1.0 / 12, "uniform()");
}

TEST(RandomInt, PoissonIntAndRandInt) {
  Buf<int32_t, 2> x(Shape2(256, 512), 2);
  Random<shade::cpu, int32_t> rnd(3);
  rnd.SamplePoisson(&x.t, 20);
  Moments(Values(x), 20, 20, "poisson int32");
  EXPECT_TRUE(x.PaddingIntact());
  std::vector<unsigned> buf(100000);
  shade::Tensor<shade::cpu, 1, unsigned> u(buf.data(), Shape1(100000));
  Random<shade::cpu, float> r(5);
  r.GetRandInt(u);
  std::vector<double> v(buf.begin(), buf.end());
  const double top = 4294967296.0;
  Moments(v, top / 2, top * top / 12, "GetRandInt");
  const unsigned a = r.GetRandInt(), b = r.GetRandInt();
  EXPECT_NE(a, b);
  Random<shade::cpu, float> r2(5);
  Random<shade::cpu, float> r3(5);
  EXPECT_EQ(r2.GetRandInt(), r3.GetRandInt());
}

TEST(RandomErrors, BadParameters) {
  Buf<float, 2> x(Shape2(3, 4));
  Random<shade::cpu, float> r(1);
  std::string m = ErrorOf([&] { r.SampleUniform(&x.t, 3.f, 2.f); });
  EXPECT_NE(m.find("a=3 b=2"), std::string::npos) << m;
  m = ErrorOf([&] { r.SampleUniform(&x.t, 0.f, INFINITY); });
  EXPECT_NE(m.find("finite"), std::string::npos) << m;
  m = ErrorOf([&] { r.SampleGaussian(&x.t, 0.f, INFINITY); });
  EXPECT_NE(m.find("sigma=inf"), std::string::npos) << m;
  // As in mshadow: a = b gives a, and sigma <= 0 fills mu.
  r.SampleUniform(&x.t, 2.f, 2.f);
  EXPECT_EQ(x.t[2][3], 2.f);
  r.SampleGaussian(&x.t, 5.f, -1.f);
  EXPECT_EQ(x.t[1][1], 5.f);
  m = ErrorOf([&] { r.SampleGamma(&x.t, 0.f, 1.f); });
  EXPECT_NE(m.find("alpha=0"), std::string::npos) << m;
  m = ErrorOf([&] { r.SampleGamma(&x.t, 1.f, -2.f); });
  EXPECT_NE(m.find("beta=-2"), std::string::npos) << m;
  m = ErrorOf([&] { r.SampleExponential(&x.t, 0.f); });
  EXPECT_NE(m.find("lambda=0"), std::string::npos) << m;
  m = ErrorOf([&] { r.SamplePoisson(&x.t, -1.f); });
  EXPECT_NE(m.find("lambda=-1"), std::string::npos) << m;
  m = ErrorOf([&] { (void)r.gaussian(Shape2(-2, 3)); });
  EXPECT_NE(m.find("negative"), std::string::npos) << m;
}

}  // namespace
