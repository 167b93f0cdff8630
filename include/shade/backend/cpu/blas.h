/*!
 * \file blas.h
 * \brief The BLAS dot engine's entry points: row-major gemm, gemv, ger and batched gemm over
 *  CBLAS, for float and double, with leading dimensions (padded operands are never copied).
 *  Gemm and BatchGemm also take complex64_t / complex128_t (CBLAS cgemm / zgemm).
 *
 * Every matrix product in shade (static `dot`/`batch_dot`, dynamic matmul) calls these.
 */
#ifndef SHADE_BACKEND_CPU_BLAS_H_
#define SHADE_BACKEND_CPU_BLAS_H_

#include <type_traits>

#include "shade/base/dtype.h"
#include "shade/base/error.h"
#include "shade/base/index.h"

namespace shade {
namespace blas {

/*! \brief True for the element types the BLAS engine supports. */
template <typename T>
constexpr bool kSupported = std::is_same<T, float>::value || std::is_same<T, double>::value;

/*!
 * \brief C = alpha * op(A) * op(B) + beta * C, all row-major. op(A) is m x k, op(B) is k x n.
 *  lda/ldb/ldc are the row pitches of the stored (untransposed) matrices, in elements.
 *  beta == 0 overwrites C without reading it (NaNs in C do not propagate). With the CBLAS engine
 *  the BLAS runs on the calling thread, and a large product outside a ParallelFor region is split
 *  over shade's threads into blocks of C's rows or columns; Eigen's engine threads it itself.
 */
template <typename T>
void Gemm(bool trans_a, bool trans_b, index_t m, index_t n, index_t k, T alpha, const T* a,
          index_t lda, const T* b, index_t ldb, T beta, T* c, index_t ldc);

/*! \brief y = alpha * op(A) * x + beta * y; A is rows x cols row-major, x/y strided by incx/incy.
 *  Large calls are split over the entries of y, as Gemm splits its products. */
template <typename T>
void Gemv(bool trans_a, index_t rows, index_t cols, T alpha, const T* a, index_t lda, const T* x,
          index_t incx, T beta, T* y, index_t incy);

/*! \brief A += alpha * x * y^T; A is rows x cols row-major. Large calls are split over A's rows. */
template <typename T>
void Ger(index_t rows, index_t cols, T alpha, const T* x, index_t incx, const T* y, index_t incy,
         T* a, index_t lda);

/*!
 * \brief `batch` independent Gemm calls; operand i starts at a + i*stride_a (likewise b, c).
 *  Threads over the batch when the matrices are small, else splits each product over the threads.
 */
template <typename T>
void BatchGemm(bool trans_a, bool trans_b, index_t batch, index_t m, index_t n, index_t k, T alpha,
               const T* a, index_t lda, index_t stride_a, const T* b, index_t ldb, index_t stride_b,
               T beta, T* c, index_t ldc, index_t stride_c);

/*!
 * \brief The engine Gemm dispatches float/double products to: "cblas" (the BLAS found by CMake)
 *  or "eigen" (Eigen's GEMM, chosen when it measured faster: see docs/design/kernel-layer.md),
 *  prefixed "dnnl+" when float products go to oneDNN's sgemm (builds with oneDNN; shapes where
 *  it measured slower keep the other engine). The environment variable
 *  SHADE_GEMM=cblas|eigen|dnnl, read once, overrides the choice.
 */
const char* GemmEngineName();

}  // namespace blas
}  // namespace shade

#endif  // SHADE_BACKEND_CPU_BLAS_H_
