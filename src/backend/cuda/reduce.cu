// Sums of row-pitched matrices on the GPU (include/shade/backend/cuda/reduce.h), the one CUDA
// translation unit of the library.
#include <cub/block/block_reduce.cuh>

#include "shade/backend/cuda/reduce.h"
#include "shade/backend/cuda/runtime.h"
#include "shade/base/error.h"

namespace shade {
namespace cuda {
namespace {
constexpr int kRowThreads = 256;  // threads per output of SumOverCols (one block per row)
constexpr int kColTile = 32;      // columns per block of SumOverRows (a warp's coalesced read)
constexpr int kRowLanes = 8;      // row lanes per column in SumOverRows

template <typename T>
__device__ T Combine(T sum, T scale, T beta, const T* old) {
  return beta == T(0) ? scale * sum : scale * sum + beta * *old;
}

// One block per row: strided partial sums, then one BlockReduce.
template <typename T>
__global__ void __launch_bounds__(kRowThreads)
    RowSumKernel(const T* src, index_t rows, index_t cols, index_t stride, T* dst, T scale,
                 T beta) {
  using Reduce = cub::BlockReduce<T, kRowThreads>;
  __shared__ typename Reduce::TempStorage tmp;
  for (index_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const T* row = src + r * stride;
    T acc = T(0);
    for (index_t j = threadIdx.x; j < cols; j += kRowThreads) acc += row[j];
    const T total = Reduce(tmp).Sum(acc);
    if (threadIdx.x == 0) dst[r] = Combine(total, scale, beta, dst + r);
    __syncthreads();  // tmp is reused by the next row
  }
}

// A block covers kColTile columns; its kRowLanes row lanes walk the rows with a stride of
// kRowLanes (each a coalesced warp read of kColTile columns), then the lanes are summed.
template <typename T>
__global__ void __launch_bounds__(kColTile* kRowLanes)
    ColSumKernel(const T* src, index_t rows, index_t cols, index_t stride, T* dst, T scale,
                 T beta) {
  __shared__ T part[kRowLanes][kColTile];
  const index_t j = static_cast<index_t>(blockIdx.x) * kColTile + threadIdx.x;
  T acc = T(0);
  if (j < cols) {
    for (index_t i = threadIdx.y; i < rows; i += kRowLanes) acc += src[i * stride + j];
  }
  part[threadIdx.y][threadIdx.x] = acc;
  __syncthreads();
  if (threadIdx.y == 0 && j < cols) {
    T total = T(0);
    for (int l = 0; l < kRowLanes; ++l) total += part[l][threadIdx.x];
    dst[j] = Combine(total, scale, beta, dst + j);
  }
}
}  // namespace

template <typename T>
void SumOverCols(const T* src, index_t rows, index_t cols, index_t stride, T* dst, T scale, T beta,
                 cudaStream_t stream) {
  if (rows == 0) return;
  const index_t blocks = rows < 65535 ? rows : 65535;
  RowSumKernel<T><<<static_cast<unsigned>(blocks), kRowThreads, 0, stream>>>(
      src, rows, cols, stride, dst, scale, beta);
  SHADE_CUDA_CALL(cudaGetLastError());
}

template <typename T>
void SumOverRows(const T* src, index_t rows, index_t cols, index_t stride, T* dst, T scale, T beta,
                 cudaStream_t stream) {
  if (cols == 0) return;
  const index_t blocks = (cols + kColTile - 1) / kColTile;
  SHADE_CHECK(blocks <= 0x7fffffff) << "SumOverRows (gpu): " << cols << " columns are too many";
  ColSumKernel<T><<<static_cast<unsigned>(blocks), dim3(kColTile, kRowLanes), 0, stream>>>(
      src, rows, cols, stride, dst, scale, beta);
  SHADE_CUDA_CALL(cudaGetLastError());
}

template void SumOverCols<float>(const float*, index_t, index_t, index_t, float*, float, float,
                                 cudaStream_t);
template void SumOverCols<double>(const double*, index_t, index_t, index_t, double*, double, double,
                                  cudaStream_t);
template void SumOverRows<float>(const float*, index_t, index_t, index_t, float*, float, float,
                                 cudaStream_t);
template void SumOverRows<double>(const double*, index_t, index_t, index_t, double*, double, double,
                                  cudaStream_t);

}  // namespace cuda
}  // namespace shade
