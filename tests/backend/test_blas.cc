// BLAS dot engine against naive loops: gemm for every transpose pair, alpha/beta, padded leading
// dimensions; gemv both forms with strides; ger; batched gemm; degenerate sizes; error paths.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "shade/backend/cpu/blas.h"
#include "shade/backend/cpu/parallel.h"

namespace shade {
namespace {

template <class T>
std::vector<T> Random(index_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(-1, 1);
  std::vector<T> v(static_cast<size_t>(n));
  for (auto& x : v) x = static_cast<T>(dist(gen));
  return v;
}

template <class T>
double Tol(index_t k) {
  return 4.0 * (k + 2) * std::numeric_limits<T>::epsilon();
}

template <class T>
void CheckGemm(bool ta, bool tb, index_t m, index_t n, index_t k, T alpha, T beta, index_t pad) {
  const index_t ar = ta ? k : m, ac = ta ? m : k, br = tb ? n : k, bc = tb ? k : n;
  const index_t lda = ac + pad, ldb = bc + pad, ldc = n + pad;
  auto a = Random<T>(ar * lda, 1), b = Random<T>(br * ldb, 2), c = Random<T>(m * ldc, 3);
  auto ref = c;
  for (index_t i = 0; i < m; ++i) {
    for (index_t j = 0; j < n; ++j) {
      double s = 0;
      for (index_t p = 0; p < k; ++p) {
        const double av = ta ? a[p * lda + i] : a[i * lda + p];
        const double bv = tb ? b[j * ldb + p] : b[p * ldb + j];
        s += av * bv;
      }
      ref[i * ldc + j] = static_cast<T>(alpha * s + (beta == T(0) ? 0.0 : beta * double(c[i * ldc + j])));
    }
  }
  blas::Gemm<T>(ta, tb, m, n, k, alpha, a.data(), lda, b.data(), ldb, beta, c.data(), ldc);
  for (index_t i = 0; i < m; ++i) {
    for (index_t j = 0; j < ldc; ++j) {
      if (j < n) {
        ASSERT_NEAR(c[i * ldc + j], ref[i * ldc + j], Tol<T>(k)) << ta << tb << " " << m << "x" << n << "x" << k;
      } else {
        ASSERT_EQ(c[i * ldc + j], ref[i * ldc + j]) << "padding written";
      }
    }
  }
}

template <class T>
void GemmAll() {
  for (bool ta : {false, true}) {
    for (bool tb : {false, true}) {
      for (auto ab : std::vector<std::pair<T, T>>{{T(1), T(0)}, {T(1), T(1)}, {T(-0.5), T(2)}, {T(2), T(-1)}}) {
        CheckGemm<T>(ta, tb, 7, 5, 3, ab.first, ab.second, 0);
        CheckGemm<T>(ta, tb, 33, 17, 65, ab.first, ab.second, 3);
        CheckGemm<T>(ta, tb, 1, 1, 1, ab.first, ab.second, 1);
      }
    }
  }
}
TEST(Blas, GemmFloat) { GemmAll<float>(); }
TEST(Blas, GemmDouble) { GemmAll<double>(); }

TEST(Blas, GemmDegenerate) {
  std::vector<float> c(6, std::numeric_limits<float>::quiet_NaN());
  float dummy = 1;
  blas::Gemm<float>(false, false, 2, 3, 0, 1.f, &dummy, 1, &dummy, 3, 0.f, c.data(), 3);
  for (float v : c) EXPECT_EQ(v, 0.f);  // beta == 0 clears NaN
  std::vector<float> c2(6, 2.f);
  blas::Gemm<float>(false, false, 2, 3, 0, 1.f, &dummy, 1, &dummy, 3, 0.5f, c2.data(), 3);
  for (float v : c2) EXPECT_EQ(v, 1.f);
  blas::Gemm<float>(false, false, 0, 3, 4, 1.f, nullptr, 4, &dummy, 3, 0.f, nullptr, 3);
  // beta == 0 with NaN in C and k > 0: NaNs must not propagate.
  auto a = Random<double>(4, 5), b = Random<double>(4, 6);
  std::vector<double> cn(4, std::numeric_limits<double>::quiet_NaN());
  blas::Gemm<double>(false, false, 2, 2, 2, 1.0, a.data(), 2, b.data(), 2, 0.0, cn.data(), 2);
  for (double v : cn) EXPECT_FALSE(std::isnan(v));
}

template <class T>
void CheckGemv(bool ta, index_t rows, index_t cols, index_t lda, index_t incx, index_t incy, T alpha, T beta) {
  const index_t xl = ta ? rows : cols, yl = ta ? cols : rows;
  auto a = Random<T>(rows * lda, 7), x = Random<T>(xl * incx, 8), y = Random<T>(yl * incy, 9);
  auto ref = y;
  for (index_t i = 0; i < yl; ++i) {
    double s = 0;
    for (index_t p = 0; p < xl; ++p) s += double(ta ? a[p * lda + i] : a[i * lda + p]) * x[p * incx];
    ref[i * incy] = static_cast<T>(alpha * s + (beta == T(0) ? 0.0 : beta * double(y[i * incy])));
  }
  blas::Gemv<T>(ta, rows, cols, alpha, a.data(), lda, x.data(), incx, beta, y.data(), incy);
  for (index_t i = 0; i < yl * incy; ++i) ASSERT_NEAR(y[i], ref[i], Tol<T>(xl)) << "gemv " << ta << " i=" << i;
}
TEST(Blas, Gemv) {
  for (bool ta : {false, true}) {
    CheckGemv<float>(ta, 9, 13, 13, 1, 1, 1.f, 0.f);
    CheckGemv<float>(ta, 9, 13, 16, 2, 3, -2.f, 0.5f);
    CheckGemv<double>(ta, 31, 4, 5, 1, 2, 0.5, 1.0);
    CheckGemv<double>(ta, 1, 1, 1, 1, 1, 1.0, 1.0);
  }
  std::vector<float> y(3, 4.f);
  blas::Gemv<float>(false, 3, 0, 1.f, nullptr, 1, nullptr, 1, 0.5f, y.data(), 1);
  for (float v : y) EXPECT_EQ(v, 2.f);
}

TEST(Blas, Ger) {
  for (index_t ld : {5, 8}) {
    const index_t rows = 4, cols = 5;
    auto a = Random<double>(rows * ld, 10), x = Random<double>(rows * 2, 11), y = Random<double>(cols, 12);
    auto ref = a;
    for (index_t i = 0; i < rows; ++i) {
      for (index_t j = 0; j < cols; ++j) ref[i * ld + j] += 1.5 * x[i * 2] * y[j];
    }
    blas::Ger<double>(rows, cols, 1.5, x.data(), 2, y.data(), 1, a.data(), ld);
    for (size_t i = 0; i < a.size(); ++i) ASSERT_NEAR(a[i], ref[i], 1e-14);
  }
  auto af = Random<float>(6, 1), xf = Random<float>(2, 2), yf = Random<float>(3, 3);
  auto rf = af;
  blas::Ger<float>(2, 3, -1.f, xf.data(), 1, yf.data(), 1, af.data(), 3);
  for (index_t i = 0; i < 2; ++i) {
    for (index_t j = 0; j < 3; ++j) EXPECT_NEAR(af[i * 3 + j], rf[i * 3 + j] - xf[i] * yf[j], 1e-6);
  }
}

template <class T>
void CheckBatch(bool ta, bool tb) {
  const index_t batch = 3, m = 4, n = 6, k = 5;
  const index_t lda = (ta ? m : k) + 1, ldb = (tb ? k : n) + 2, ldc = n + 1;
  const index_t sa = (ta ? k : m) * lda + 3, sb = (tb ? n : k) * ldb, sc = m * ldc + 2;
  auto a = Random<T>(batch * sa, 1), b = Random<T>(batch * sb, 2), c = Random<T>(batch * sc, 3);
  auto ref = c;
  for (index_t q = 0; q < batch; ++q) {
    blas::Gemm<T>(ta, tb, m, n, k, T(2), a.data() + q * sa, lda, b.data() + q * sb, ldb, T(0.5),
                  ref.data() + q * sc, ldc);
  }
  blas::BatchGemm<T>(ta, tb, batch, m, n, k, T(2), a.data(), lda, sa, b.data(), ldb, sb, T(0.5), c.data(), ldc, sc);
  for (size_t i = 0; i < c.size(); ++i) ASSERT_EQ(c[i], ref[i]) << i;
}
TEST(Blas, BatchGemm) {
  for (bool ta : {false, true}) {
    for (bool tb : {false, true}) {
      CheckBatch<float>(ta, tb);
      CheckBatch<double>(ta, tb);
    }
  }
  blas::BatchGemm<float>(false, false, 0, 2, 2, 2, 1.f, nullptr, 2, 4, nullptr, 2, 4, 0.f, nullptr, 2, 4);
}

TEST(Blas, BatchGemmThreadedOverTheBatch) {
  // 160 products of 32x32x32 (65536 flops each): small enough to be split over the batch
  // (grain 76 products), so with 2 threads two workers each run Gemm at one BLAS thread.
  const int saved = shade::GetNumThreads();
  shade::SetNumThreads(2);
  const index_t batch = 160, m = 32, n = 32, k = 32, ld = 33, s = m * ld + 1;
  auto a = Random<float>(batch * s, 4), b = Random<float>(batch * s, 5), c = Random<float>(batch * s, 6);
  auto ref = c;
  for (index_t q = 0; q < batch; ++q) {
    blas::Gemm<float>(false, true, m, n, k, 1.5f, a.data() + q * s, ld, b.data() + q * s, ld, 1.0f,
                      ref.data() + q * s, ld);
  }
  blas::BatchGemm<float>(false, true, batch, m, n, k, 1.5f, a.data(), ld, s, b.data(), ld, s, 1.0f, c.data(), ld, s);
  // Afterwards a plain Gemm, split over the threads, must be right.
  std::vector<float> big_a(256 * 256, 1.0f), big_c(256 * 256, 0.0f);
  blas::Gemm<float>(false, false, 256, 256, 256, 1.0f, big_a.data(), 256, big_a.data(), 256, 0.0f, big_c.data(), 256);
  shade::SetNumThreads(saved);
  for (size_t i = 0; i < c.size(); ++i) ASSERT_NEAR(c[i], ref[i], 1e-4f * (1.0f + std::fabs(ref[i]))) << i;
  for (float v : big_c) ASSERT_EQ(v, 256.0f);
}

// Products, matrix-vector products and rank-1 updates large enough to be split over the threads
// (with the CBLAS engine: ctest runs this file again as test_blas_cblas, SHADE_GEMM=cblas): C
// split by columns (n >= m) and by rows, every transpose pair, padded rows, beta 0 and not, an
// extent that is not a whole number of blocks; y of Gemv split in both forms; Ger by rows.
TEST(Blas, SplitOverThreads) {
  const int saved = shade::GetNumThreads();
  for (int threads : {2, 3}) {
    shade::SetNumThreads(threads);
    for (bool ta : {false, true}) {
      for (bool tb : {false, true}) {
        CheckGemm<float>(ta, tb, 37, 301, 211, 1.f, 0.f, 3);    // 4.7e6 flops: by columns
        CheckGemm<float>(ta, tb, 301, 37, 211, -0.5f, 2.f, 1);  // by rows
        CheckGemm<double>(ta, tb, 250, 70, 130, 2.0, -1.0, 2);
      }
      CheckGemv<float>(ta, 2100, 1030, 1031, 1, 1, 1.f, 0.f);
      CheckGemv<double>(ta, 1030, 2100, 2100, 2, 3, -2.0, 0.5);
    }
    const index_t rows = 2050, cols = 1100, ld = 1103;
    auto a = Random<float>(rows * ld, 20), x = Random<float>(rows * 2, 21),
         y = Random<float>(cols, 22);
    auto ref = a;
    for (index_t i = 0; i < rows; ++i) {
      for (index_t j = 0; j < cols; ++j) ref[i * ld + j] += 0.75f * x[i * 2] * y[j];
    }
    blas::Ger<float>(rows, cols, 0.75f, x.data(), 2, y.data(), 1, a.data(), ld);
    for (size_t i = 0; i < a.size(); ++i) ASSERT_NEAR(a[i], ref[i], 1e-5f) << i;
  }
  shade::SetNumThreads(saved);
}

void ExpectMsg(const std::function<void()>& fn, const std::vector<std::string>& parts) {
  try {
    fn();
    ADD_FAILURE() << "no throw";
  } catch (const Error& e) {
    for (const auto& p : parts) EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what() << " lacks " << p;
  }
}

TEST(Blas, ErrorPaths) {
  std::vector<float> buf(64, 0.f);
  float* p = buf.data();
  ExpectMsg([&] { blas::Gemm<float>(false, false, -1, 2, 2, 1, p, 2, p, 2, 0, p, 2); }, {"negative", "m=-1"});
  ExpectMsg([&] { blas::Gemm<float>(false, false, 2, 3, 4, 1, p, 3, p, 3, 0, p, 3); }, {"lda", "3"});
  ExpectMsg([&] { blas::Gemm<float>(true, false, 2, 3, 4, 1, p, 1, p, 3, 0, p, 3); }, {"lda"});
  ExpectMsg([&] { blas::Gemm<float>(false, true, 2, 3, 4, 1, p, 4, p, 3, 0, p, 3); }, {"ldb"});
  ExpectMsg([&] { blas::Gemm<float>(false, false, 2, 3, 4, 1, p, 4, p, 3, 0, p, 2); }, {"ldc"});
  ExpectMsg([&] { blas::Gemm<float>(false, false, index_t(1) << 32, 1, 1, 1, p, 1, p, 1, 0, p, 1); }, {"BLAS integer range"});
  ExpectMsg([&] { blas::Gemv<float>(false, 2, -3, 1, p, 3, p, 1, 0, p, 1); }, {"negative", "2x-3"});
  ExpectMsg([&] { blas::Gemv<float>(false, 2, 3, 1, p, 2, p, 1, 0, p, 1); }, {"lda"});
  ExpectMsg([&] { blas::Gemv<float>(false, 2, 3, 1, p, 3, p, 0, 0, p, 1); }, {"zero increment"});
  ExpectMsg([&] { blas::Ger<double>(-1, 2, 1, nullptr, 1, nullptr, 1, nullptr, 2); }, {"negative"});
  ExpectMsg([&] { blas::Ger<float>(2, 3, 1, p, 1, p, 0, p, 3); }, {"zero increment"});
  ExpectMsg([&] { blas::Ger<float>(2, 3, 1, p, 1, p, 1, p, 2); }, {"lda"});
  ExpectMsg([&] { blas::BatchGemm<float>(false, false, -2, 1, 1, 1, 1, p, 1, 1, p, 1, 1, 0, p, 1, 1); }, {"negative batch"});
}

// SHADE_GEMM with a value that names no engine is refused, naming the engines. Runs in the ctest
// test_blas_bad_engine (SHADE_GEMM=bogus): the variable is read once per process.
TEST(Blas, UnknownGemmEngineIsRefused) {
  const char* env = std::getenv("SHADE_GEMM");
  if (env == nullptr || std::string(env) != "bogus") {
    GTEST_SKIP() << "needs SHADE_GEMM=bogus (ctest test_blas_bad_engine)";
  }
  std::vector<float> buf(4, 1.f);
  float* p = buf.data();
  ExpectMsg([&] { blas::Gemm<float>(false, false, 2, 2, 2, 1, p, 2, p, 2, 0, p, 2); },
            {"SHADE_GEMM=bogus", "cblas, eigen and dnnl"});
  ExpectMsg(
      [&] { blas::Gemm<double>(false, false, 1, 1, 1, 1, nullptr, 1, nullptr, 1, 0, nullptr, 1); },
      {"SHADE_GEMM=bogus"});
}

}  // namespace
}  // namespace shade
