/*!
 * \file reduce.h
 * \brief Sums of a row-pitched matrix on the GPU (a SHADE_WITH_CUDA build only), compiled once in
 *  the library (src/backend/cuda/reduce.cu) for float and double. Each output element is summed
 *  by one fixed tree (cub::BlockReduce over a fixed number of threads), so the results do not
 *  vary from run to run.
 */
#ifndef SHADE_BACKEND_CUDA_REDUCE_H_
#define SHADE_BACKEND_CUDA_REDUCE_H_

#include <cuda_runtime_api.h>

#include <type_traits>

#include "shade/base/index.h"

namespace shade {
namespace cuda {

/*! \brief Element types the GPU sums are compiled for. */
template <typename T>
constexpr bool kSumSupported = std::is_same<T, float>::value || std::is_same<T, double>::value;

/*! \brief dst[j] = scale * sum over i of src[i * stride + j] (j < cols, i < rows), plus
 *  `beta * dst[j]` when beta is not 0; async on `stream`. */
template <typename T>
void SumOverRows(const T* src, index_t rows, index_t cols, index_t stride, T* dst, T scale, T beta,
                 cudaStream_t stream);

/*! \brief dst[i] = scale * sum over j of src[i * stride + j] (i < rows, j < cols), plus
 *  `beta * dst[i]` when beta is not 0; async on `stream`. */
template <typename T>
void SumOverCols(const T* src, index_t rows, index_t cols, index_t stride, T* dst, T scale, T beta,
                 cudaStream_t stream);

}  // namespace cuda
}  // namespace shade

#endif  // SHADE_BACKEND_CUDA_REDUCE_H_
