/*!
 * \file blas.h
 * \brief Row-major products on the GPU through cuBLAS (a SHADE_WITH_CUDA build only): the same
 *  four forms and argument conventions as backend/cpu/blas.h (row-major, leading dimension =
 *  row pitch in elements), issued on `stream` with `handle`. cuBLAS is column-major: a row-major
 *  C = op(A) op(B) is computed as the column-major C^T = op(B)^T op(A)^T, without copies. The
 *  64-bit-index cuBLAS API is used, so no extent is narrowed to int.
 */
#ifndef SHADE_BACKEND_CUDA_BLAS_H_
#define SHADE_BACKEND_CUDA_BLAS_H_

#include <cublas_api.h>
#include <cuda_runtime_api.h>

#include <type_traits>

#include "shade/base/index.h"

namespace shade {
namespace cuda {
namespace blas {

/*! \brief Element types with a cuBLAS product here: float and double. */
template <typename T>
constexpr bool kSupported = std::is_same<T, float>::value || std::is_same<T, double>::value;

/*! \brief C = alpha * op(A) * op(B) + beta * C (m x n, inner k), row-major; async on `stream`. */
template <typename T>
void Gemm(cublasHandle_t handle, cudaStream_t stream, bool trans_a, bool trans_b, index_t m,
          index_t n, index_t k, T alpha, const T* a, index_t lda, const T* b, index_t ldb, T beta,
          T* c, index_t ldc);

/*! \brief y = alpha * op(A) * x + beta * y for the row-major rows x cols matrix A. */
template <typename T>
void Gemv(cublasHandle_t handle, cudaStream_t stream, bool trans_a, index_t rows, index_t cols,
          T alpha, const T* a, index_t lda, const T* x, index_t incx, T beta, T* y, index_t incy);

/*! \brief A += alpha * x * y^T for the row-major rows x cols matrix A. */
template <typename T>
void Ger(cublasHandle_t handle, cudaStream_t stream, index_t rows, index_t cols, T alpha,
         const T* x, index_t incx, const T* y, index_t incy, T* a, index_t lda);

/*! \brief `batch` Gemms; operand i starts stride_* elements after operand i - 1. */
template <typename T>
void BatchGemm(cublasHandle_t handle, cudaStream_t stream, bool trans_a, bool trans_b,
               index_t batch, index_t m, index_t n, index_t k, T alpha, const T* a, index_t lda,
               index_t stride_a, const T* b, index_t ldb, index_t stride_b, T beta, T* c,
               index_t ldc, index_t stride_c);

}  // namespace blas
}  // namespace cuda
}  // namespace shade

#endif  // SHADE_BACKEND_CUDA_BLAS_H_
