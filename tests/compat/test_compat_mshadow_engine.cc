// mshadow's dot_engine-inl.h (BLASEngine, GetBatchedView), expr_engine-inl.h (StreamInfo,
// TypeCheckPass, MapExp), random.h (GetSeed, SampleDistribution, the negative binomials),
// tensor_container.h (SaveBinary / LoadBinary members) and logging.h (CHECK, LOG, ...) through
// the compat header. Oracles: naive column-major loops (BLAS's definition), the distributions'
// moments, the free SaveBinary, and mshadow's logging text.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "shade/compat/mshadow.h"
#include "shade/io/stream.h"

namespace {

using mshadow::cpu;
using mshadow::index_t;

template <typename DType>
std::vector<DType> RandomVector(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-2, 2);
  std::vector<DType> v(n);
  for (auto& x : v) x = static_cast<DType>(u(gen));
  return v;
}

// Column-major element (i, j) of op(M) where M is stored with leading dimension ld.
template <typename DType>
DType OpAt(const std::vector<DType>& m, int ld, bool trans, int i, int j) {
  return trans ? m[i * ld + j] : m[j * ld + i];
}

template <typename DType>
void CheckGemm(bool ta, bool tb, int m, int n, int k, DType alpha, DType beta) {
  const int lda = (ta ? k : m) + 1, ldb = (tb ? n : k) + 2, ldc = m + 3;  // padded columns
  const auto a = RandomVector<DType>(static_cast<std::size_t>(lda) * (ta ? m : k) + 1, 1);
  const auto b = RandomVector<DType>(static_cast<std::size_t>(ldb) * (tb ? k : n) + 1, 2);
  auto c = RandomVector<DType>(static_cast<std::size_t>(ldc) * n + 1, 3);
  auto want = c;
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < m; ++i) {
      double acc = 0;
      for (int p = 0; p < k; ++p)
        acc += double(OpAt(a, lda, ta, i, p)) * double(OpAt(b, ldb, tb, p, j));
      want[j * ldc + i] = static_cast<DType>(alpha * acc + beta * double(c[j * ldc + i]));
    }
  }
  mshadow::expr::BLASEngine<cpu, DType>::gemm(nullptr, ta, tb, m, n, k, alpha, a.data(), lda,
                                              b.data(), ldb, beta, c.data(), ldc);
  const double tol = std::is_same<DType, float>::value ? 1e-4 : 1e-12;
  for (std::size_t i = 0; i < c.size(); ++i) {
    EXPECT_NEAR(c[i], want[i], tol * (1 + std::abs(double(want[i]))))
        << i << " ta=" << ta << " tb=" << tb;
  }
}

TEST(CompatMshadowEngine, BlasEngineGemmIsColumnMajorBlas) {
  for (bool ta : {false, true}) {
    for (bool tb : {false, true}) {
      CheckGemm<float>(ta, tb, 3, 4, 5, 1.0f, 0.0f);
      CheckGemm<float>(ta, tb, 2, 7, 3, -0.5f, 1.5f);
      CheckGemm<double>(ta, tb, 5, 3, 4, 2.0, -1.0);
      CheckGemm<double>(ta, tb, 1, 1, 0, 1.0, 0.5);  // k = 0: C = beta * C
    }
  }
  using Engine = mshadow::expr::BLASEngine<cpu, float>;
  EXPECT_TRUE(Engine::GetT(true));
  EXPECT_FALSE(Engine::GetT(false));
  Engine::SetStream(nullptr);
  float a[4] = {0}, c[4] = {0};
  EXPECT_THROW(Engine::gemm(nullptr, false, false, 2, 2, 2, 1.f, a, 1, a, 2, 0.f, c, 2),
               mshadow::Error);
  EXPECT_THROW(Engine::gemm(nullptr, false, false, -1, 2, 2, 1.f, a, 2, a, 2, 0.f, c, 2),
               mshadow::Error);
}

TEST(CompatMshadowEngine, BlasEngineGemvGerDotBatched) {
  using Engine = mshadow::expr::BLASEngine<cpu, double>;
  const int m = 3, n = 4, lda = 5, batch = 2;
  const auto a = RandomVector<double>(lda * n * batch + lda * n, 4);
  for (bool trans : {false, true}) {
    const int xl = trans ? m : n, yl = trans ? n : m;
    const auto x = RandomVector<double>(xl * 2 * batch, 5);
    auto y = RandomVector<double>(yl * 3 * batch, 6);
    auto want = y;
    for (int bi = 0; bi < batch; ++bi) {
      for (int i = 0; i < yl; ++i) {
        double acc = 0;
        for (int j = 0; j < xl; ++j) {
          const double aij = trans ? a[bi * m * n + i * lda + j] : a[bi * m * n + j * lda + i];
          acc += aij * x[(bi * xl + j) * 2];
        }
        want[(bi * yl + i) * 3] = 0.5 * acc + 2.0 * y[(bi * yl + i) * 3];
      }
    }
    Engine::batched_gemv(nullptr, trans, m, n, 0.5, a.data(), lda, x.data(), 2, 2.0, y.data(), 3,
                         batch);
    for (std::size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(y[i], want[i], 1e-12) << i << trans;
  }
  // ger: A (m x n, column-major, lda) += alpha x y^T, in each batch.
  auto g = RandomVector<double>(lda * n * batch, 7);
  const auto gx = RandomVector<double>(m * batch, 8), gy = RandomVector<double>(n * batch, 9);
  auto gwant = g;
  for (int bi = 0; bi < batch; ++bi)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i)
        gwant[bi * lda * n + j * lda + i] += -1.5 * gx[bi * m + i] * gy[bi * n + j];
  Engine::batched_ger(nullptr, m, n, -1.5, gx.data(), 1, gy.data(), 1, g.data(), lda, batch);
  for (std::size_t i = 0; i < g.size(); ++i) EXPECT_NEAR(g[i], gwant[i], 1e-12) << i;
  double ret = 0;
  const double dx[3] = {1, 2, 3}, dy[6] = {4, 0, 5, 0, 6, 0};
  Engine::dot(nullptr, 3, dx, 1, dy, 2, &ret);
  EXPECT_EQ(ret, 32.0);
  // batched_gemm: batches m*k, k*n, m*n elements apart, each an ordinary gemm.
  const int bm = 2, bn = 3, bk = 2;
  const auto ba = RandomVector<double>(bm * bk * batch, 10),
             bb = RandomVector<double>(bk * bn * batch, 11);
  std::vector<double> bc(bm * bn * batch, 0.0), single(bm * bn, 0.0);
  Engine::batched_gemm(nullptr, false, false, bm, bn, bk, 1.0, ba.data(), bm, bb.data(), bk, 0.0,
                       bc.data(), bm, batch);
  for (int bi = 0; bi < batch; ++bi) {
    Engine::gemm(nullptr, false, false, bm, bn, bk, 1.0, ba.data() + bi * bm * bk, bm,
                 bb.data() + bi * bk * bn, bk, 0.0, single.data(), bm);
    for (int i = 0; i < bm * bn; ++i) EXPECT_EQ(bc[bi * bm * bn + i], single[i]);
  }
  double* views[3];
  double base[9];
  mshadow::GetBatchedView(views, base, 3, 3, static_cast<mshadow::Stream<cpu>*>(nullptr));
  EXPECT_EQ(views[2], base + 6);
}

TEST(CompatMshadowEngine, StreamInfoTypeCheckPassMapExp) {
  mshadow::Stream<cpu>* stream = mshadow::NewStream<cpu>();
  mshadow::TensorContainer<cpu, 2, float> t(mshadow::Shape2(2, 3), 1.0f);
  t.set_stream(stream);
  EXPECT_EQ((mshadow::expr::StreamInfo<cpu, mshadow::Tensor<cpu, 2, float>>::Get(t)), stream);
  EXPECT_EQ((mshadow::expr::StreamInfo<cpu, mshadow::expr::ScalarExp<float>>::Get(
                mshadow::expr::scalar(1.f))),
            nullptr);
  mshadow::expr::TypeCheckPass<true>::Error_All_Tensor_in_Exp_Must_Have_Same_Type();
  mshadow::expr::TypeCheckPass<true>::Error_TypeCheck_Not_Pass_For_Reduce_Exp();
  mshadow::expr::TypeCheckPass<true>::Error_Expression_Does_Not_Meet_Dimension_Req();
  static_assert(sizeof(mshadow::expr::TypeCheckPass<false>) > 0, "");
  mshadow::Tensor<cpu, 2, float> view = t;
  mshadow::MapExp<mshadow::sv::plusto>(&view, t * 2.0f);
  EXPECT_EQ(t[1][2], 3.0f);
  mshadow::DeleteStream(stream);
}

TEST(CompatMshadowEngine, RandomAdditions) {
  mshadow::Random<cpu, float> rnd(-7);
  EXPECT_EQ(rnd.GetSeed(), static_cast<unsigned>(-7));
  rnd.Seed(42);
  EXPECT_EQ(rnd.GetSeed(), 42u);
  // SampleDistribution calls the sampler once per element, row-major, padding skipped.
  mshadow::TensorContainer<cpu, 2, float> t(mshadow::Shape2(3, 5), -1.0f);
  int next = 0;
  rnd.SampleDistribution(&t, [&next]() { return static_cast<float>(next++); });
  for (index_t i = 0; i < 3; ++i)
    for (index_t j = 0; j < 5; ++j) EXPECT_EQ(t[i][j], float(i * 5 + j));
  EXPECT_EQ(next, 15);
  // Negative binomial(k, p): mean k(1-p)/p, variance k(1-p)/p^2.
  mshadow::Random<cpu, double> rd(3);
  mshadow::TensorContainer<cpu, 1, double> s(mshadow::Shape1(200000));
  rd.SampleNegativeBinomial(&s, 4, 0.4);
  double mean = 0, var = 0;
  for (index_t i = 0; i < s.size(0); ++i) mean += s[i];
  mean /= s.size(0);
  for (index_t i = 0; i < s.size(0); ++i) var += (s[i] - mean) * (s[i] - mean);
  var /= s.size(0);
  EXPECT_NEAR(mean, 6.0, 0.05);
  EXPECT_NEAR(var, 15.0, 0.3);
  // Generalized: mean mu, variance mu + alpha mu^2; alpha = 0 is Poisson(mu).
  for (double alpha : {0.0, 0.5}) {
    rd.SampleGeneralizedNegativeBinomial(&s, 3.0, alpha);
    mean = var = 0;
    for (index_t i = 0; i < s.size(0); ++i) mean += s[i];
    mean /= s.size(0);
    for (index_t i = 0; i < s.size(0); ++i) var += (s[i] - mean) * (s[i] - mean);
    var /= s.size(0);
    EXPECT_NEAR(mean, 3.0, 0.03) << alpha;
    EXPECT_NEAR(var, 3.0 + alpha * 9.0, 0.15) << alpha;
  }
  EXPECT_THROW(rd.SampleNegativeBinomial(&s, 0, 0.5), mshadow::Error);
  EXPECT_THROW(rd.SampleNegativeBinomial(&s, 2, 1.5), mshadow::Error);
  EXPECT_THROW(rd.SampleGeneralizedNegativeBinomial(&s, -1.0, 0.5), mshadow::Error);
}

TEST(CompatMshadowEngine, ContainerBinaryMembers) {
  mshadow::TensorContainer<cpu, 2, float> t(mshadow::Shape2(3, 5));
  for (index_t i = 0; i < 3; ++i)
    for (index_t j = 0; j < 5; ++j) t[i][j] = float(i) - 0.25f * float(j);
  shade::io::MemoryStream member, free_fn;
  t.SaveBinary(member);
  mshadow::SaveBinary(free_fn, static_cast<const mshadow::Tensor<cpu, 2, float>&>(t));
  EXPECT_EQ(member.buffer(), free_fn.buffer());
  EXPECT_EQ(member.buffer().size(), 2 * 4 + 15 * sizeof(float));
  member.Seek(0);
  mshadow::TensorContainer<cpu, 2, float> back;
  back.LoadBinary(member);
  ASSERT_EQ(back.shape_, t.shape_);
  for (index_t i = 0; i < 3; ++i)
    for (index_t j = 0; j < 5; ++j) EXPECT_EQ(back[i][j], t[i][j]);
}

std::string ErrorText(void (*f)()) {
  try {
    f();
  } catch (const dmlc::Error& e) {
    return e.what();
  }
  return "no throw";
}

TEST(CompatMshadowEngine, LoggingMacros) {
  // mshadow's text: "[hh:mm:ss] file:line: Check failed: <expression> <streamed>".
  const std::regex check_re(
      R"(^\[\d\d:\d\d:\d\d\] .*test_compat_mshadow_engine\.cc:\d+: Check failed: \(1 \+ 1\) == \(3\) seen$)");
  EXPECT_TRUE(std::regex_match(ErrorText([] { CHECK_EQ(1 + 1, 3) << "seen"; }), check_re))
      << ErrorText([] { CHECK_EQ(1 + 1, 3) << "seen"; });
  EXPECT_NE(ErrorText([] { CHECK(2 < 1); }).find("Check failed: 2 < 1 "), std::string::npos);
  EXPECT_NE(ErrorText([] { LOG(FATAL) << "fatal " << 7; }).find(": fatal 7"), std::string::npos);
  EXPECT_NE(ErrorText([] {
              int* p = nullptr;
              (void)CHECK_NOTNULL(p);
            }).find("Check  notnull: p "),
            std::string::npos);
  EXPECT_EQ(ErrorText([] { CHECK_LT(1, 2) << "not shown"; }), "no throw");
  int value = 5;
  EXPECT_EQ(CHECK_NOTNULL(&value), &value);
  std::ostringstream captured;
  std::streambuf* old = std::cerr.rdbuf(captured.rdbuf());
  LOG(INFO) << "info " << 1;
  LOG(WARNING) << "warn";
  LOG_IF(ERROR, false) << "never";
  LOG_IF(ERROR, true) << "error";
  LG << "lg";
  MSHADOW_CATCH_ERROR(throw dmlc::Error("driver shutting down"));
  std::cerr.rdbuf(old);
  const std::regex lines_re(
      R"(\[\d\d:\d\d:\d\d\] .*\.cc:\d+: info 1\n\[\d\d:\d\d:\d\d\] .*\.cc:\d+: warn\n\[\d\d:\d\d:\d\d\] .*\.cc:\d+: error\n\[\d\d:\d\d:\d\d\] .*\.cc:\d+: lg\n)");
  EXPECT_TRUE(std::regex_match(captured.str(), lines_re)) << captured.str();
  captured.str("");
  old = std::cerr.rdbuf(captured.rdbuf());
  MSHADOW_CATCH_ERROR(throw dmlc::Error("boom"));
  std::cerr.rdbuf(old);
  EXPECT_NE(captured.str().find(": Ignore CUDA Error boom\n"), std::string::npos) << captured.str();
  dmlc::InitLogging("test");
  EXPECT_EQ(std::string(dmlc::DateLogger().HumanDate()).size(), 8u);
  // half_t's unary plus (a non-const member, as mshadow's) and mshadow's limits namespace.
  mshadow::half::half_t h(2.5f);
  EXPECT_EQ((+h).half_, h.half_);
  EXPECT_EQ(mshadow::red::limits::MaxValue<int8_t>(), 127);
}

TEST(CompatMshadowEngine, TransposeIndices) {
  // Oracle: transpose an iota tensor and look up where each source flat index went.
  const mshadow::Shape<3> src_shape = mshadow::Shape3(2, 3, 4);
  const mshadow::Shape<3> axes = mshadow::Shape3(2, 0, 1);
  mshadow::TensorContainer<cpu, 3, float> iota(src_shape);
  for (index_t i = 0; i < 24; ++i) iota[i / 12][(i / 4) % 3][i % 4] = float(i);
  mshadow::TensorContainer<cpu, 3, float> moved(mshadow::Shape3(4, 2, 3));
  moved = mshadow::expr::transpose(iota, axes);
  std::vector<float> where(24, -1.0f);
  for (index_t a = 0; a < 4; ++a)
    for (index_t b = 0; b < 2; ++b)
      for (index_t c = 0; c < 3; ++c)
        where[static_cast<std::size_t>(moved[a][b][c])] = float(a * 6 + b * 3 + c);
  mshadow::TensorContainer<cpu, 1, float> idx(mshadow::Shape1(24)), out(mshadow::Shape1(24));
  for (index_t i = 0; i < 24; ++i) idx[i] = float(23 - i);
  out = mshadow::expr::transpose_indices(idx, src_shape, axes);
  for (index_t i = 0; i < 24; ++i) EXPECT_EQ(out[i], where[23 - i]) << i;
  // 2-D index tensors keep their shape; a bad permutation throws with mshadow's message.
  mshadow::TensorContainer<cpu, 2, float> idx2(mshadow::Shape2(4, 6)), out2(mshadow::Shape2(4, 6));
  for (index_t i = 0; i < 24; ++i) idx2[i / 6][i % 6] = float(i);
  out2 = mshadow::expr::transpose_indices(idx2, src_shape, axes);
  for (index_t i = 0; i < 24; ++i) EXPECT_EQ(out2[i / 6][i % 6], where[i]) << i;
  try {
    out = mshadow::expr::transpose_indices(idx, src_shape, mshadow::Shape3(0, 0, 1));
    ADD_FAILURE();
  } catch (const mshadow::Error& e) {
    EXPECT_NE(std::string(e.what()).find("Invalid axes input!"), std::string::npos);
  }
  EXPECT_THROW(out = mshadow::expr::transpose_indices(idx, mshadow::Shape3(2, 0, 4), axes),
               mshadow::Error);
}

template <typename T>
struct IsDotExp : std::false_type {};
template <typename TA, typename TB, bool ltrans, bool rtrans, typename DType>
struct IsDotExp<mshadow::expr::DotExp<TA, TB, ltrans, rtrans, DType>> : std::true_type {};

// The remaining tensor.h / expression.h / expr_engine names a port may spell out.
TEST(CompatMshadowEngine, RemainingNames) {
  using namespace mshadow;        // NOLINT(build/namespaces)
  using namespace mshadow::expr;  // NOLINT(build/namespaces)
  static_assert(std::is_same<sv::saveto::OPType, op::right>::value &&
                    std::is_same<sv::plusto::OPType, op::plus>::value &&
                    std::is_same<sv::minusto::OPType, op::minus>::value &&
                    std::is_same<sv::multo::OPType, op::mul>::value &&
                    std::is_same<sv::divto::OPType, op::div>::value,
                "");
  const TypeFlag flag = kInt8;
  const LayoutFlag layout = kNHWC;
  EXPECT_EQ(flag, 5);
  EXPECT_EQ(layout, 1);
  static_assert(Shape<3>::kDimension == 3, "");
  static_assert(
      std::is_base_of<TRValue<Tensor<cpu, 2, float>, cpu, 2, float>, Tensor<cpu, 2, float>>::value,
      "");
  static_assert(TypeCheck<cpu, 2, float, Tensor<cpu, 2, float>>::kExpDim == 2, "");
  static_assert(std::is_class<DotEngine<sv::saveto, cpu, 2, 2, 2, false, false, float>>::value &&
                    std::is_class<ExpComplexEngine<sv::saveto, Tensor<cpu, 2, float>,
                                                   Tensor<cpu, 2, float>, float>>::value,
                "");
  SetDevice<cpu>(0);
  // AddTakeGradLargeBatch: dst[sorted[y]] += src[index[y]].
  TensorContainer<cpu, 2, float> dst(Shape2(3, 2), 0.0f), src(Shape2(4, 2));
  TensorContainer<cpu, 1, int> sorted(Shape1(4)), index(Shape1(4));
  const int sorted_v[4] = {0, 0, 2, 2}, index_v[4] = {3, 1, 0, 2};
  for (index_t i = 0; i < 4; ++i) {
    sorted[i] = sorted_v[i];
    index[i] = index_v[i];
    src[i][0] = float(i + 1);
    src[i][1] = float(10 * (i + 1));
  }
  AddTakeGradLargeBatch(dst, sorted, index, src);
  EXPECT_EQ(dst[0][0], 4.0f + 2.0f);
  EXPECT_EQ(dst[1][1], 0.0f);
  EXPECT_EQ(dst[2][1], 10.0f + 30.0f);
  sorted[3] = 3;
  EXPECT_THROW(AddTakeGradLargeBatch(dst, sorted, index, src), Error);
  // VectorizedSort: sorts the values within each segment.
  TensorContainer<cpu, 1, float> values(Shape1(6));
  TensorContainer<cpu, 1, int> segments(Shape1(6));
  const float vals[6] = {3, 1, 2, 9, 7, 8};
  for (index_t i = 0; i < 6; ++i) {
    values[i] = vals[i];
    segments[i] = i < 3 ? 0 : 1;
  }
  VectorizedSort(values, segments);
  for (index_t i = 0; i < 6; ++i) EXPECT_EQ(values[i], float(i < 3 ? i + 1 : i + 4)) << i;
  // Unpadded containers, ptrself, T(), MakeExp, ExpEngine, ScalarExp::scalar_, DotExp.
  TensorContainer<cpu, 2, float> a(false);
  a.set_pad(false);
  a.Resize(Shape2(2, 3), 1.0f);
  EXPECT_EQ(a.stride_, 3);
  EXPECT_EQ(a.ptrself(), &a);
  TensorContainer<cpu, 2, float> at(Shape2(3, 2));
  at = a.T() * 2.0f;
  EXPECT_EQ(at[2][1], 2.0f);
  TensorContainer<cpu, 2, float> sum(Shape2(2, 3));
  sum = MakeExp<op::plus>(a, a);
  EXPECT_EQ(sum[1][2], 2.0f);
  ExpEngine<sv::plusto, Tensor<cpu, 2, float>, float>::Eval(&sum, a);
  EXPECT_EQ(sum[0][0], 3.0f);
  EXPECT_EQ(scalar(2.5f).scalar_, 2.5f);
  static_assert(IsDotExp<decltype(dot(a, at))>::value, "");
  // slice(src, begin, end) (slice_ex.h): a writable box of the source.
  TensorContainer<cpu, 2, float> grid(Shape2(3, 4));
  for (index_t i = 0; i < 3; ++i)
    for (index_t j = 0; j < 4; ++j) grid[i][j] = float(i * 4 + j);
  TensorContainer<cpu, 2, float> box(Shape2(2, 2));
  box = slice(grid, Shape2(1, 1), Shape2(3, 3));
  EXPECT_EQ(box[0][0], 5.0f);
  EXPECT_EQ(box[1][1], 10.0f);
  // GetRndEngine: the sequential engine restarts with Seed.
  Random<cpu, float> rnd(9);
  const auto first = rnd.GetRndEngine()();
  rnd.Seed(9);
  EXPECT_EQ(rnd.GetRndEngine()(), first);
}

// complex.h: the last dimension interleaves (re, im); oracle: std::complex<double>.
TEST(CompatMshadowEngine, ComplexExtension) {
  using namespace mshadow::expr;  // NOLINT(build/namespaces)
  using C = std::complex<double>;
  const index_t rows = 3, pairs = 4;
  mshadow::TensorContainer<cpu, 2, double> a(mshadow::Shape2(rows, 2 * pairs)), b(a.shape_),
      r(mshadow::Shape2(rows, pairs));
  const auto va = RandomVector<double>(rows * 2 * pairs, 21),
             vb = RandomVector<double>(rows * 2 * pairs, 22),
             vr = RandomVector<double>(rows * pairs, 23);
  for (index_t i = 0; i < rows; ++i) {
    for (index_t j = 0; j < 2 * pairs; ++j) {
      a[i][j] = va[i * 2 * pairs + j];
      b[i][j] = vb[i * 2 * pairs + j];
    }
    for (index_t j = 0; j < pairs; ++j) r[i][j] = vr[i * pairs + j];
  }
  auto ca = [&](index_t i, index_t k) { return C(a[i][2 * k], a[i][2 * k + 1]); };
  auto cb = [&](index_t i, index_t k) { return C(b[i][2 * k], b[i][2 * k + 1]); };
  mshadow::TensorContainer<cpu, 2, double> out(a.shape_), half(r.shape_);
  auto expect_complex = [&](const char* what, auto want) {
    for (index_t i = 0; i < rows; ++i) {
      for (index_t k = 0; k < pairs; ++k) {
        const C w = want(i, k);
        EXPECT_NEAR(out[i][2 * k], w.real(), 1e-12) << what << ' ' << i << ' ' << k;
        EXPECT_NEAR(out[i][2 * k + 1], w.imag(), 1e-12) << what << ' ' << i << ' ' << k;
      }
    }
  };
  out = complex_mul_cc(a, b);
  expect_complex("mul_cc", [&](index_t i, index_t k) { return ca(i, k) * cb(i, k); });
  out = complex_div_cc(a, b);
  expect_complex("div_cc", [&](index_t i, index_t k) { return ca(i, k) / cb(i, k); });
  out = complex_mul_cr(a, r);
  expect_complex("mul_cr", [&](index_t i, index_t k) { return ca(i, k) * r[i][k]; });
  out = complex_div_cr(a, r);
  expect_complex("div_cr", [&](index_t i, index_t k) { return ca(i, k) / r[i][k]; });
  out = complex_mul_rc(r, b);
  expect_complex("mul_rc", [&](index_t i, index_t k) { return r[i][k] * cb(i, k); });
  out = complex_div_rc(r, b);
  expect_complex("div_rc", [&](index_t i, index_t k) { return r[i][k] / cb(i, k); });
  out = conj(a);
  expect_complex("conj", [&](index_t i, index_t k) { return std::conj(ca(i, k)); });
  out = complex_exchange(a);
  expect_complex("exchange",
                 [&](index_t i, index_t k) { return C(ca(i, k).imag(), ca(i, k).real()); });
  out = complex_pad_imag(r);
  expect_complex("pad_imag", [&](index_t i, index_t k) { return C(r[i][k], 0); });
  half = complex_toreal(a);
  for (index_t i = 0; i < rows; ++i)
    for (index_t k = 0; k < pairs; ++k) EXPECT_EQ(half[i][k], ca(i, k).real());
  half = complex_abs_square(a);
  for (index_t i = 0; i < rows; ++i)
    for (index_t k = 0; k < pairs; ++k) EXPECT_NEAR(half[i][k], std::norm(ca(i, k)), 1e-12);
  half = complex_sum_real_imag(a) * 2.0;  // nests in expressions
  for (index_t i = 0; i < rows; ++i)
    for (index_t k = 0; k < pairs; ++k)
      EXPECT_NEAR(half[i][k], 2 * (ca(i, k).real() + ca(i, k).imag()), 1e-12);
  // mshadow's shape rules.
  mshadow::TensorContainer<cpu, 2, double> odd(mshadow::Shape2(rows, 3));
  EXPECT_THROW(out = complex_mul_cc(a, odd), mshadow::Error);
  EXPECT_THROW(half = complex_toreal(odd), mshadow::Error);
  EXPECT_THROW(out = complex_mul_cr(a, a), mshadow::Error);
  try {
    out = complex_mul_rc(a, a);
    ADD_FAILURE();
  } catch (const mshadow::Error& e) {
    EXPECT_NE(std::string(e.what()).find("(RC): Shapes of operands do not match."),
              std::string::npos);
  }
  // A real source for pad_imag must have an even last extent too (mshadow's check).
  EXPECT_THROW(complex_pad_imag(odd), mshadow::Error);
}

}  // namespace
