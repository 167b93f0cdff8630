// Row-major cuBLAS products (include/shade/backend/cuda/blas.h).
#include "shade/backend/cuda/blas.h"

#include <cublas_v2.h>

#include "shade/backend/cuda/runtime.h"

namespace shade {
namespace cuda {
namespace blas {
namespace {
cublasOperation_t Op(bool trans) {
  return trans ? CUBLAS_OP_T : CUBLAS_OP_N;
}

// The typed cuBLAS entry points (64-bit index API).
cublasStatus_t GemmT(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int64_t m,
                     int64_t n, int64_t k, const float* alpha, const float* a, int64_t lda,
                     const float* b, int64_t ldb, const float* beta, float* c, int64_t ldc) {
  return cublasSgemm_64(h, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
cublasStatus_t GemmT(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int64_t m,
                     int64_t n, int64_t k, const double* alpha, const double* a, int64_t lda,
                     const double* b, int64_t ldb, const double* beta, double* c, int64_t ldc) {
  return cublasDgemm_64(h, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
cublasStatus_t GemvT(cublasHandle_t h, cublasOperation_t t, int64_t m, int64_t n,
                     const float* alpha, const float* a, int64_t lda, const float* x, int64_t incx,
                     const float* beta, float* y, int64_t incy) {
  return cublasSgemv_64(h, t, m, n, alpha, a, lda, x, incx, beta, y, incy);
}
cublasStatus_t GemvT(cublasHandle_t h, cublasOperation_t t, int64_t m, int64_t n,
                     const double* alpha, const double* a, int64_t lda, const double* x,
                     int64_t incx, const double* beta, double* y, int64_t incy) {
  return cublasDgemv_64(h, t, m, n, alpha, a, lda, x, incx, beta, y, incy);
}
cublasStatus_t GerT(cublasHandle_t h, int64_t m, int64_t n, const float* alpha, const float* x,
                    int64_t incx, const float* y, int64_t incy, float* a, int64_t lda) {
  return cublasSger_64(h, m, n, alpha, x, incx, y, incy, a, lda);
}
cublasStatus_t GerT(cublasHandle_t h, int64_t m, int64_t n, const double* alpha, const double* x,
                    int64_t incx, const double* y, int64_t incy, double* a, int64_t lda) {
  return cublasDger_64(h, m, n, alpha, x, incx, y, incy, a, lda);
}
cublasStatus_t BatchT(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int64_t m,
                      int64_t n, int64_t k, const float* alpha, const float* a, int64_t lda,
                      int64_t sa, const float* b, int64_t ldb, int64_t sb, const float* beta,
                      float* c, int64_t ldc, int64_t sc, int64_t batch) {
  return cublasSgemmStridedBatched_64(h, ta, tb, m, n, k, alpha, a, lda, sa, b, ldb, sb, beta, c,
                                      ldc, sc, batch);
}
cublasStatus_t BatchT(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int64_t m,
                      int64_t n, int64_t k, const double* alpha, const double* a, int64_t lda,
                      int64_t sa, const double* b, int64_t ldb, int64_t sb, const double* beta,
                      double* c, int64_t ldc, int64_t sc, int64_t batch) {
  return cublasDgemmStridedBatched_64(h, ta, tb, m, n, k, alpha, a, lda, sa, b, ldb, sb, beta, c,
                                      ldc, sc, batch);
}
// cuBLAS requires a leading dimension >= 1 even for empty or single-row operands.
int64_t Ld(index_t ld) {
  return ld < 1 ? 1 : ld;
}
}  // namespace

template <typename T>
void Gemm(cublasHandle_t handle, cudaStream_t stream, bool trans_a, bool trans_b, index_t m,
          index_t n, index_t k, T alpha, const T* a, index_t lda, const T* b, index_t ldb, T beta,
          T* c, index_t ldc) {
  if (m == 0 || n == 0) return;
  SHADE_CUBLAS_CALL(cublasSetStream(handle, stream));
  // Row-major C (m x n) = op(A) op(B) is column-major C^T (n x m) = op(B)^T op(A)^T.
  SHADE_CUBLAS_CALL(GemmT(handle, Op(trans_b), Op(trans_a), n, m, k, &alpha, b, Ld(ldb), a, Ld(lda),
                          &beta, c, Ld(ldc)));
}

template <typename T>
void Gemv(cublasHandle_t handle, cudaStream_t stream, bool trans_a, index_t rows, index_t cols,
          T alpha, const T* a, index_t lda, const T* x, index_t incx, T beta, T* y, index_t incy) {
  if ((trans_a ? cols : rows) == 0) return;
  SHADE_CUBLAS_CALL(cublasSetStream(handle, stream));
  // The row-major rows x cols A is the column-major cols x rows A^T.
  SHADE_CUBLAS_CALL(
      GemvT(handle, Op(!trans_a), cols, rows, &alpha, a, Ld(lda), x, incx, &beta, y, incy));
}

template <typename T>
void Ger(cublasHandle_t handle, cudaStream_t stream, index_t rows, index_t cols, T alpha,
         const T* x, index_t incx, const T* y, index_t incy, T* a, index_t lda) {
  if (rows == 0 || cols == 0) return;
  SHADE_CUBLAS_CALL(cublasSetStream(handle, stream));
  // Row-major A += x y^T is column-major A^T += y x^T.
  SHADE_CUBLAS_CALL(GerT(handle, cols, rows, &alpha, y, incy, x, incx, a, Ld(lda)));
}

template <typename T>
void BatchGemm(cublasHandle_t handle, cudaStream_t stream, bool trans_a, bool trans_b,
               index_t batch, index_t m, index_t n, index_t k, T alpha, const T* a, index_t lda,
               index_t stride_a, const T* b, index_t ldb, index_t stride_b, T beta, T* c,
               index_t ldc, index_t stride_c) {
  if (batch == 0 || m == 0 || n == 0) return;
  SHADE_CUBLAS_CALL(cublasSetStream(handle, stream));
  SHADE_CUBLAS_CALL(BatchT(handle, Op(trans_b), Op(trans_a), n, m, k, &alpha, b, Ld(ldb), stride_b,
                           a, Ld(lda), stride_a, &beta, c, Ld(ldc), stride_c, batch));
}

#define SHADE_CUDA_BLAS_INSTANTIATE_(T)                                                           \
  template void Gemm<T>(cublasHandle_t, cudaStream_t, bool, bool, index_t, index_t, index_t, T,   \
                        const T*, index_t, const T*, index_t, T, T*, index_t);                    \
  template void Gemv<T>(cublasHandle_t, cudaStream_t, bool, index_t, index_t, T, const T*,        \
                        index_t, const T*, index_t, T, T*, index_t);                              \
  template void Ger<T>(cublasHandle_t, cudaStream_t, index_t, index_t, T, const T*, index_t,      \
                       const T*, index_t, T*, index_t);                                           \
  template void BatchGemm<T>(cublasHandle_t, cudaStream_t, bool, bool, index_t, index_t, index_t, \
                             index_t, T, const T*, index_t, index_t, const T*, index_t, index_t,  \
                             T, T*, index_t, index_t);
SHADE_CUDA_BLAS_INSTANTIATE_(float)
SHADE_CUDA_BLAS_INSTANTIATE_(double)
#undef SHADE_CUDA_BLAS_INSTANTIATE_

}  // namespace blas
}  // namespace cuda
}  // namespace shade
