/*!
 * \file map_kernel.cuh
 * \brief The GPU element loop (nvcc only): `dst(y, x) Saver= src(y, x)` over a rows x cols index
 *  space, for any pair of plans whose `REval`/`Eval` are `__host__ __device__` (SHADE_XINLINE
 *  expands so under nvcc: the same plans and functors as the cpu loop). The plans travel by
 *  value as kernel arguments, so they must be trivially copyable views (pointers and strides).
 *  tensor/tensor_gpu.cuh's MapBackend<gpu> calls it for every static assignment to a gpu tensor.
 */
#ifndef SHADE_BACKEND_CUDA_MAP_KERNEL_CUH_
#define SHADE_BACKEND_CUDA_MAP_KERNEL_CUH_

#ifndef __CUDACC__
#error "shade/backend/cuda/map_kernel.cuh needs nvcc (a .cu source)"
#endif

#include <cuda_runtime_api.h>

#include <type_traits>

#include "shade/backend/cuda/runtime.h"
#include "shade/base/index.h"

namespace shade {
namespace cuda {

/*! \brief Threads per block of the element loop. */
constexpr int kMapThreads = 256;
/*! \brief Largest grid of the element loop; larger index spaces are walked grid-stride. */
constexpr index_t kMapMaxBlocks = 65536;

/*! \brief One row (rows == 1): element x of the row, no index division. */
template <typename Saver, typename DType, typename DstPlan, typename SrcPlan>
__global__ void __launch_bounds__(kMapThreads) MapRowKernel(DstPlan dst, SrcPlan src, index_t n) {
  const index_t step = static_cast<index_t>(gridDim.x) * kMapThreads;
  for (index_t x = static_cast<index_t>(blockIdx.x) * kMapThreads + threadIdx.x; x < n; x += step) {
    Saver::Save(dst.REval(0, x), static_cast<DType>(src.Eval(0, x)));
  }
}

/*! \brief rows x cols: flat index i is element (i / cols, i % cols). */
template <typename Saver, typename DType, typename DstPlan, typename SrcPlan>
__global__ void __launch_bounds__(kMapThreads)
    MapKernel(DstPlan dst, SrcPlan src, index_t rows, index_t cols) {
  const index_t n = rows * cols;
  const index_t step = static_cast<index_t>(gridDim.x) * kMapThreads;
  for (index_t i = static_cast<index_t>(blockIdx.x) * kMapThreads + threadIdx.x; i < n; i += step) {
    const index_t y = i / cols, x = i - y * cols;
    Saver::Save(dst.REval(y, x), static_cast<DType>(src.Eval(y, x)));
  }
}

/*!
 * \brief Launches the element loop on `stream` (asynchronous); throws shade::Error when the launch
 *  fails. The plans must be device-safe (see the file comment).
 */
template <typename Saver, typename DType, typename DstPlan, typename SrcPlan>
inline void LaunchMap(const DstPlan& dst, const SrcPlan& src, index_t rows, index_t cols,
                      cudaStream_t stream) {
  static_assert(
      std::is_trivially_copyable<DstPlan>::value && std::is_trivially_copyable<SrcPlan>::value,
      "shade: a plan evaluated on the gpu must be a trivially copyable view");
  if (rows == 0 || cols == 0) return;
  const index_t n = rows * cols;
  index_t blocks = (n + kMapThreads - 1) / kMapThreads;
  if (blocks > kMapMaxBlocks) blocks = kMapMaxBlocks;
  if (rows == 1) {
    MapRowKernel<Saver, DType>
        <<<static_cast<unsigned>(blocks), kMapThreads, 0, stream>>>(dst, src, n);
  } else {
    MapKernel<Saver, DType>
        <<<static_cast<unsigned>(blocks), kMapThreads, 0, stream>>>(dst, src, rows, cols);
  }
  SHADE_CUDA_CALL(cudaGetLastError());
}

}  // namespace cuda
}  // namespace shade

#endif  // SHADE_BACKEND_CUDA_MAP_KERNEL_CUH_
