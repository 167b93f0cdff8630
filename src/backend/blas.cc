// CBLAS bindings for the dot engine. Arguments are validated here so a bad call throws
// shade::Error instead of reaching the BLAS's own xerbla (which prints and may exit).
#if defined(SHADE_HAVE_EIGEN_GEMM) && !defined(__clang__)
// GCC 12 reports false -W(maybe-)uninitialized (the _mm512_undefined_* idiom) inside
// avx512fintrin.h when Eigen's GEMM kernels are inlined here; the diagnostic's location is the
// intrinsic header, so it must be silenced before any header is included. (Clang has no
// -Wmaybe-uninitialized and does not report this.)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#include "shade/backend/cpu/blas.h"

#include <cblas.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>

#ifdef SHADE_HAVE_EIGEN_GEMM
#include <Eigen/Core>
#endif
#ifdef SHADE_HAVE_DNNL
#include <dnnl.h>
#include <omp.h>
#endif

#include "shade/backend/cpu/parallel.h"

namespace shade {
namespace blas {
namespace {

blasint ToBlasInt(index_t v, const char* what) {
  SHADE_CHECK(v >= 0 && v <= static_cast<index_t>(INT_MAX))
      << "BLAS: " << what << " = " << v << " is outside the BLAS integer range [0, " << INT_MAX
      << "]";
  return static_cast<blasint>(v);
}

void CheckLd(index_t ld, index_t cols, const char* what) {
  SHADE_CHECK_SHAPE_GE(ld, cols > 0 ? cols : 1)
      << "BLAS: leading dimension " << what << " smaller than the row length";
}

CBLAS_TRANSPOSE Trans(bool t) {
  return t ? CblasTrans : CblasNoTrans;
}

// The GEMM engine, chosen once from measurements (docs/design/kernel-layer.md): on a CPU built for
// AVX-512, Eigen's own GEMM is ~1.4x faster than OpenBLAS running its Haswell kernels (which
// OPENBLAS_CORETYPE=Haswell forces, as tests/CI do), while OpenBLAS's own AVX-512 kernels beat
// Eigen by ~1.3x. So: Eigen when available, AVX-512 is compiled in, and OpenBLAS reports a
// pre-AVX-512 core; otherwise CBLAS. SHADE_GEMM overrides (GemmOverride).
enum class Engine { kCblas, kEigen, kDnnl };

// SHADE_GEMM, read once: the engine it names, or none when unset or empty. Any other value is
// refused, naming the accepted ones (as SHADE_SIMD_TARGET is), rather than silently ignored.
std::optional<Engine> GemmOverride() {
  static const std::optional<Engine> value = []() -> std::optional<Engine> {
    const char* env = std::getenv("SHADE_GEMM");
    const std::string v(env == nullptr ? "" : env);
    if (v.empty()) return std::nullopt;
    if (v == "cblas") return Engine::kCblas;
    if (v == "eigen") return Engine::kEigen;
    if (v == "dnnl") return Engine::kDnnl;
    SHADE_THROW << "SHADE_GEMM=" << v << ": the GEMM engines are cblas, eigen and dnnl";
  }();
  return value;
}

// The engine of double products, and of float ones that oneDNN does not take. "eigen" falls
// back to CBLAS where Eigen's GEMM is not built in; "dnnl" leaves this choice as it is.
Engine ChooseEngine() {
  const std::optional<Engine> o = GemmOverride();
#ifdef SHADE_HAVE_EIGEN_GEMM
  if (o == Engine::kEigen) return Engine::kEigen;
#endif
  if (o == Engine::kCblas || o == Engine::kEigen) return Engine::kCblas;
#if defined(SHADE_HAVE_EIGEN_GEMM) && defined(__AVX512F__) && defined(SHADE_BLAS_OPENBLAS)
  std::string core = openblas_get_corename();
  for (auto& ch : core) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  const bool avx512_kernels = core.find("skylakex") != std::string::npos ||
                              core.find("cooperlake") != std::string::npos ||
                              core.find("sapphire") != std::string::npos;
  if (!avx512_kernels) return Engine::kEigen;
#endif
  return Engine::kCblas;
}

Engine GemmEngine() {
  static const Engine engine = ChooseEngine();
  return engine;
}

// Float products: oneDNN's sgemm when the build has it. It generates AVX-512 (or AVX2, ...)
// kernels for the CPU it runs on, whatever OPENBLAS_CORETYPE says and whatever the build's
// -march, and at the CNN's conv shapes it ran at 150-190 GFLOP/s on one Zen 5 core against
// Eigen's 95-130 and OpenBLAS's Haswell kernels' 75-95 (bench/RESULTS.md, "oneDNN's sgemm").
// It was slower than Eigen only where A has few rows and the inner dimension is at least the
// output width (the weight gradients: m = 64, n = 800, k = 1024 at 70 against 99 GFLOP/s), so
// those shapes keep the double engine. SHADE_GEMM=dnnl sends every float product to oneDNN,
// SHADE_GEMM=eigen|cblas none.
Engine FloatEngine(index_t m, index_t n, index_t k) {
#ifdef SHADE_HAVE_DNNL
  const std::optional<Engine> o = GemmOverride();
  if (o == Engine::kDnnl || (!o && !(m <= 64 && k >= n))) {
    return Engine::kDnnl;
  }
#else
  (void)m, (void)n, (void)k;
#endif
  return GemmEngine();
}

// OpenBLAS runs its own thread pool, separate from the OpenMP threads ParallelFor uses. Called
// both inside ParallelFor regions (the CNN's per-thread products) and outside them, the two pools
// competed for the cores: OpenBLAS's idle threads spin and sched_yield after each threaded call,
// and a CNN epoch at 2 threads took 1.7x as long as with OpenBLAS kept single-threaded
// (bench/RESULTS.md, "OpenBLAS's threads"). So the BLAS always runs on the calling thread, and
// shade splits large products over its own threads (SplitOverThreads). The OpenBLAS setting is
// process-wide and a caller may change it, so it is checked on every call (a load) and set under
// a lock (the setter is not made for concurrent calls, and workers of a region call here at once).
void SingleThreadedBlas() {
#ifdef SHADE_BLAS_OPENBLAS
  if (openblas_get_num_threads() != 1) {
    static std::mutex mutex;
    const std::lock_guard<std::mutex> lock(mutex);
    if (openblas_get_num_threads() != 1) openblas_set_num_threads(1);
  }
#endif
}

// A BLAS call of this many flops or more, made outside a ParallelFor region with several threads
// set, is split over the threads; each part then carries at least kSplitGrainFlops (~20 us at
// one core's ~100 GFLOP/s, against ~1.2 us for the fork and join).
constexpr double kSplitFlops = 4e6;
constexpr double kSplitGrainFlops = 2e6;
// Parts are whole blocks of this many rows or columns, so that each stays in the BLAS kernels'
// full-width tiles.
constexpr index_t kSplitBlock = 16;

// Runs part(i0, i1) on disjoint ranges covering [0, extent), split over the threads when the
// whole call is worth `flops` >= kSplitFlops and ParallelFor may fork; else part(0, extent).
template <typename F>
void SplitOverThreads(index_t extent, double flops, F part) {
  if (flops < kSplitFlops || GetNumThreads() < 2 || InParallelRegion() || extent < 2) {
    part(0, extent);
    return;
  }
  const index_t blocks = (extent + kSplitBlock - 1) / kSplitBlock;
  const double block_flops = flops / static_cast<double>(blocks);
  const auto grain = static_cast<index_t>(std::ceil(kSplitGrainFlops / block_flops));
  ParallelFor(0, blocks, grain, [&](index_t b0, index_t b1) {
    part(b0 * kSplitBlock, std::min(extent, b1 * kSplitBlock));
  });
}

#ifdef SHADE_HAVE_EIGEN_GEMM
template <typename T>
void EigenGemm(bool ta, bool tb, index_t m, index_t n, index_t k, T alpha, const T* a, index_t lda,
               const T* b, index_t ldb, T beta, T* c, index_t ldc) {
  using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using CMap = Eigen::Map<const Mat, Eigen::Unaligned, Eigen::OuterStride<>>;
  using MMap = Eigen::Map<Mat, Eigen::Unaligned, Eigen::OuterStride<>>;
  Eigen::setNbThreads(InParallelRegion() ? 1 : GetNumThreads());
  const CMap A(a, ta ? k : m, ta ? m : k, Eigen::OuterStride<>(lda));
  const CMap B(b, tb ? n : k, tb ? k : n, Eigen::OuterStride<>(ldb));
  MMap C(c, m, n, Eigen::OuterStride<>(ldc));
  if (beta == T(0)) {
    C.setZero();  // BLAS semantics: C is not read when beta == 0
  } else if (beta != T(1)) {
    C *= beta;
  }
  // Transposed operands are views: Eigen's GEMM packs them directly, nothing is copied.
  if (!ta && !tb) C.noalias() += alpha * A * B;
  if (ta && !tb) C.noalias() += alpha * A.transpose() * B;
  if (!ta && tb) C.noalias() += alpha * A * B.transpose();
  if (ta && tb) C.noalias() += alpha * A.transpose() * B.transpose();
}
#endif

#ifdef SHADE_HAVE_DNNL
// oneDNN's sgemm on the calling thread. It threads over OpenMP's team size, which belongs to the
// calling thread (an ICV), so that is set to 1 for the call: shade splits large products itself
// (SplitOverThreads), and inside a ParallelFor region every worker calls here at once.
void DnnlGemm(bool ta, bool tb, index_t m, index_t n, index_t k, float alpha, const float* a,
              index_t lda, const float* b, index_t ldb, float beta, float* c, index_t ldc) {
  const int threads = omp_get_max_threads();
  if (threads != 1) omp_set_num_threads(1);
  const dnnl_status_t status =
      dnnl_sgemm(ta ? 'T' : 'N', tb ? 'T' : 'N', m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  if (threads != 1) omp_set_num_threads(threads);
  SHADE_CHECK(status == dnnl_success) << "Gemm: oneDNN's sgemm failed with status " << status
                                      << " (m=" << m << " n=" << n << " k=" << k << ")";
}
#endif

// One product (or one part of a split one) on `engine`, kCblas or kDnnl (float only).
void Gemm_(Engine engine, bool ta, bool tb, index_t m, index_t n, index_t k, float alpha,
           const float* a, index_t lda, const float* b, index_t ldb, float beta, float* c,
           index_t ldc) {
#ifdef SHADE_HAVE_DNNL
  if (engine == Engine::kDnnl) {
    DnnlGemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    return;
  }
#else
  (void)engine;
#endif
  cblas_sgemm(CblasRowMajor, Trans(ta), Trans(tb), ToBlasInt(m, "m"), ToBlasInt(n, "n"),
              ToBlasInt(k, "k"), alpha, a, ToBlasInt(lda, "lda"), b, ToBlasInt(ldb, "ldb"), beta, c,
              ToBlasInt(ldc, "ldc"));
}
void Gemm_(Engine /*engine*/, bool ta, bool tb, index_t m, index_t n, index_t k, double alpha,
           const double* a, index_t lda, const double* b, index_t ldb, double beta, double* c,
           index_t ldc) {
  cblas_dgemm(CblasRowMajor, Trans(ta), Trans(tb), ToBlasInt(m, "m"), ToBlasInt(n, "n"),
              ToBlasInt(k, "k"), alpha, a, ToBlasInt(lda, "lda"), b, ToBlasInt(ldb, "ldb"), beta, c,
              ToBlasInt(ldc, "ldc"));
}
// Complex products: CBLAS's cgemm / zgemm (alpha and beta by address; std::complex has the
// layout of the BLAS complex types).
void Gemm_(Engine /*engine*/, bool ta, bool tb, index_t m, index_t n, index_t k, complex64_t alpha,
           const complex64_t* a, index_t lda, const complex64_t* b, index_t ldb, complex64_t beta,
           complex64_t* c, index_t ldc) {
  cblas_cgemm(CblasRowMajor, Trans(ta), Trans(tb), ToBlasInt(m, "m"), ToBlasInt(n, "n"),
              ToBlasInt(k, "k"), &alpha, a, ToBlasInt(lda, "lda"), b, ToBlasInt(ldb, "ldb"), &beta,
              c, ToBlasInt(ldc, "ldc"));
}
void Gemm_(Engine /*engine*/, bool ta, bool tb, index_t m, index_t n, index_t k, complex128_t alpha,
           const complex128_t* a, index_t lda, const complex128_t* b, index_t ldb,
           complex128_t beta, complex128_t* c, index_t ldc) {
  cblas_zgemm(CblasRowMajor, Trans(ta), Trans(tb), ToBlasInt(m, "m"), ToBlasInt(n, "n"),
              ToBlasInt(k, "k"), &alpha, a, ToBlasInt(lda, "lda"), b, ToBlasInt(ldb, "ldb"), &beta,
              c, ToBlasInt(ldc, "ldc"));
}

}  // namespace

template <typename T>
void Gemm(bool trans_a, bool trans_b, index_t m, index_t n, index_t k, T alpha, const T* a,
          index_t lda, const T* b, index_t ldb, T beta, T* c, index_t ldc) {
  SHADE_CHECK(m >= 0 && n >= 0 && k >= 0)
      << "Gemm: negative size m=" << m << " n=" << n << " k=" << k;
  CheckLd(lda, trans_a ? m : k, "lda");
  CheckLd(ldb, trans_b ? k : n, "ldb");
  CheckLd(ldc, n, "ldc");
  // Same limits for every engine, so a call valid here is valid on any installed BLAS.
  ToBlasInt(m, "m");
  ToBlasInt(n, "n");
  ToBlasInt(k, "k");
  ToBlasInt(lda, "lda");
  ToBlasInt(ldb, "ldb");
  ToBlasInt(ldc, "ldc");
  if (m == 0 || n == 0) return;
  if (k == 0) {  // BLAS would scale C by beta; do it here so beta == 0 clears NaNs too
    for (index_t i = 0; i < m; ++i) {
      for (index_t j = 0; j < n; ++j) c[i * ldc + j] = beta == T(0) ? T(0) : c[i * ldc + j] * beta;
    }
    return;
  }
  // Complex products always go to CBLAS (no Eigen instantiation for them: compile time).
  const Engine engine = kIsComplex<T>                   ? Engine::kCblas
                        : std::is_same<T, float>::value ? FloatEngine(m, n, k)
                                                        : GemmEngine();
#ifdef SHADE_HAVE_EIGEN_GEMM
  if constexpr (!kIsComplex<T>) {
    if (engine == Engine::kEigen) {
      EigenGemm(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
      return;
    }
  }
#endif
  // CBLAS or oneDNN (float, through Gemm_): both on the calling thread, split here.
  SingleThreadedBlas();
  const double flops =
      2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
  if (n >= m) {  // column blocks of C: columns of op(B)
    SplitOverThreads(n, flops, [&](index_t j0, index_t j1) {
      Gemm_(engine, trans_a, trans_b, m, j1 - j0, k, alpha, a, lda, trans_b ? b + j0 * ldb : b + j0,
            ldb, beta, c + j0, ldc);
    });
  } else {  // row blocks of C: rows of op(A)
    SplitOverThreads(m, flops, [&](index_t i0, index_t i1) {
      Gemm_(engine, trans_a, trans_b, i1 - i0, n, k, alpha, trans_a ? a + i0 : a + i0 * lda, lda, b,
            ldb, beta, c + i0 * ldc, ldc);
    });
  }
}

const char* GemmEngineName() {
#ifdef SHADE_HAVE_DNNL
  if (!GemmOverride() || GemmOverride() == Engine::kDnnl) {
    return GemmEngine() == Engine::kEigen ? "dnnl+eigen" : "dnnl+cblas";
  }
#endif
  return GemmEngine() == Engine::kEigen ? "eigen" : "cblas";
}

template <typename T>
void Gemv(bool trans_a, index_t rows, index_t cols, T alpha, const T* a, index_t lda, const T* x,
          index_t incx, T beta, T* y, index_t incy) {
  SHADE_CHECK(rows >= 0 && cols >= 0) << "Gemv: negative size " << rows << "x" << cols;
  CheckLd(lda, cols, "lda");
  SHADE_CHECK(incx != 0 && incy != 0) << "Gemv: zero increment";
  const index_t ylen = trans_a ? cols : rows;
  if (ylen == 0) return;
  if (rows == 0 || cols == 0) {
    for (index_t i = 0; i < ylen; ++i) y[i * incy] = beta == T(0) ? T(0) : y[i * incy] * beta;
    return;
  }
  SingleThreadedBlas();
  const auto gemv = [&](index_t r, index_t c, const T* ap, const T* xp, T* yp) {
    if constexpr (std::is_same<T, float>::value) {
      cblas_sgemv(CblasRowMajor, Trans(trans_a), ToBlasInt(r, "rows"), ToBlasInt(c, "cols"), alpha,
                  ap, ToBlasInt(lda, "lda"), xp, static_cast<blasint>(incx), beta, yp,
                  static_cast<blasint>(incy));
    } else {
      cblas_dgemv(CblasRowMajor, Trans(trans_a), ToBlasInt(r, "rows"), ToBlasInt(c, "cols"), alpha,
                  ap, ToBlasInt(lda, "lda"), xp, static_cast<blasint>(incx), beta, yp,
                  static_cast<blasint>(incy));
    }
  };
  // Split over the entries of y (a negative increment walks y from its end: not split).
  const double flops = incy > 0 ? 2.0 * static_cast<double>(rows) * static_cast<double>(cols) : 0;
  SplitOverThreads(ylen, flops, [&](index_t i0, index_t i1) {
    if (trans_a) {  // y[i0, i1) = A[:, i0, i1)^T x
      gemv(rows, i1 - i0, a + i0, x, y + i0 * incy);
    } else {  // y[i0, i1) = A[i0, i1) x
      gemv(i1 - i0, cols, a + i0 * lda, x, y + i0 * incy);
    }
  });
}

template <typename T>
void Ger(index_t rows, index_t cols, T alpha, const T* x, index_t incx, const T* y, index_t incy,
         T* a, index_t lda) {
  SHADE_CHECK(rows >= 0 && cols >= 0) << "Ger: negative size " << rows << "x" << cols;
  CheckLd(lda, cols, "lda");
  SHADE_CHECK(incx != 0 && incy != 0) << "Ger: zero increment";
  if (rows == 0 || cols == 0) return;
  SingleThreadedBlas();
  // Split over the rows of A (a negative increment walks x from its end: not split).
  const double flops = incx > 0 ? 2.0 * static_cast<double>(rows) * static_cast<double>(cols) : 0;
  SplitOverThreads(rows, flops, [&](index_t i0, index_t i1) {
    const blasint r = ToBlasInt(i1 - i0, "rows");
    if constexpr (std::is_same<T, float>::value) {
      cblas_sger(CblasRowMajor, r, ToBlasInt(cols, "cols"), alpha, x + i0 * incx,
                 static_cast<blasint>(incx), y, static_cast<blasint>(incy), a + i0 * lda,
                 ToBlasInt(lda, "lda"));
    } else {
      cblas_dger(CblasRowMajor, r, ToBlasInt(cols, "cols"), alpha, x + i0 * incx,
                 static_cast<blasint>(incx), y, static_cast<blasint>(incy), a + i0 * lda,
                 ToBlasInt(lda, "lda"));
    }
  });
}

// Products up to this many flops (2mnk; 128^3 x 2) are threaded over the batch rather than
// split one by one (SplitOverThreads); a chunk of the batch carries at least kBatchGrainFlops of
// work (~50 us at one core's ~100 GFLOP/s) so the fork/join stays small against it.
constexpr double kBatchThreadFlops = 2.0 * 128 * 128 * 128;
constexpr double kBatchGrainFlops = 5e6;

template <typename T>
void BatchGemm(bool trans_a, bool trans_b, index_t batch, index_t m, index_t n, index_t k, T alpha,
               const T* a, index_t lda, index_t stride_a, const T* b, index_t ldb, index_t stride_b,
               T beta, T* c, index_t ldc, index_t stride_c) {
  SHADE_CHECK_GE(batch, 0) << "BatchGemm: negative batch";
  const auto one = [&](index_t i) {
    Gemm<T>(trans_a, trans_b, m, n, k, alpha, a + i * stride_a, lda, b + i * stride_b, ldb, beta,
            c + i * stride_c, ldc);
  };
  // Small products gain little from being split (the fork/join and the packing dominate), so
  // batches of them are split over the batch instead, each product on one thread. Only
  // when the outputs are disjoint (stride_c covers a whole m x n block with pitch ldc): a
  // zero or short stride_c accumulates into shared memory and must stay sequential.
  const double flops =
      2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
  const bool disjoint = m == 0 || n == 0 || stride_c >= (m - 1) * ldc + n;
  if (batch >= 2 && disjoint && flops <= kBatchThreadFlops && GetNumThreads() > 1 &&
      !InParallelRegion()) {
    const index_t grain =
        std::max<index_t>(1, static_cast<index_t>(kBatchGrainFlops / std::max(flops, 1.0)));
    ParallelFor(0, batch, grain, [&](index_t b0, index_t b1) {
      for (index_t i = b0; i < b1; ++i) one(i);
    });
    return;
  }
  for (index_t i = 0; i < batch; ++i) one(i);
}

#define SHADE_INSTANTIATE_BLAS_(T)                                                                 \
  template void Gemm<T>(bool, bool, index_t, index_t, index_t, T, const T*, index_t, const T*,     \
                        index_t, T, T*, index_t);                                                  \
  template void Gemv<T>(bool, index_t, index_t, T, const T*, index_t, const T*, index_t, T, T*,    \
                        index_t);                                                                  \
  template void Ger<T>(index_t, index_t, T, const T*, index_t, const T*, index_t, T*, index_t);    \
  template void BatchGemm<T>(bool, bool, index_t, index_t, index_t, index_t, T, const T*, index_t, \
                             index_t, const T*, index_t, index_t, T, T*, index_t, index_t);
SHADE_INSTANTIATE_BLAS_(float)
SHADE_INSTANTIATE_BLAS_(double)
#undef SHADE_INSTANTIATE_BLAS_
// Complex: the products only (matmul's path); Gemv and Ger stay real.
template void Gemm<complex64_t>(bool, bool, index_t, index_t, index_t, complex64_t,
                                const complex64_t*, index_t, const complex64_t*, index_t,
                                complex64_t, complex64_t*, index_t);
template void Gemm<complex128_t>(bool, bool, index_t, index_t, index_t, complex128_t,
                                 const complex128_t*, index_t, const complex128_t*, index_t,
                                 complex128_t, complex128_t*, index_t);
template void BatchGemm<complex64_t>(bool, bool, index_t, index_t, index_t, index_t, complex64_t,
                                     const complex64_t*, index_t, index_t, const complex64_t*,
                                     index_t, index_t, complex64_t, complex64_t*, index_t, index_t);
template void BatchGemm<complex128_t>(bool, bool, index_t, index_t, index_t, index_t, complex128_t,
                                      const complex128_t*, index_t, index_t, const complex128_t*,
                                      index_t, index_t, complex128_t, complex128_t*, index_t,
                                      index_t);

}  // namespace blas
}  // namespace shade
