/*!
 * \file runtime.h
 * \brief The CUDA backend's runtime layer (a SHADE_WITH_CUDA build only): error checks, device
 *  queries, and the device and pinned-host allocations of the static front end, all through the
 *  library's allocation cap (memory/allocator.h: SetMaxAllocationBytes). Host-compilable: it
 *  needs the CUDA runtime's headers, not nvcc.
 */
#ifndef SHADE_BACKEND_CUDA_RUNTIME_H_
#define SHADE_BACKEND_CUDA_RUNTIME_H_

#include <cublas_api.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace shade {
namespace cuda {

/*! \brief Throws shade::Error naming `what` and CUDA's message unless `status` is cudaSuccess. */
void CheckCuda(cudaError_t status, const char* what);
/*! \brief Throws shade::Error naming `what` and cuBLAS's status unless it is a success. */
void CheckCublas(cublasStatus_t status, const char* what);

/*! \brief Number of usable CUDA devices; 0 when there is no driver or no device (never throws). */
int DeviceCount() noexcept;

/*! \brief Makes `dev_id` the calling thread's device; throws shade::Error naming the device
 *  count when it is out of range. */
void SetDevice(int dev_id);

/*! \brief `bytes` of device memory (cudaMalloc); throws shade::Error when the allocation cap or
 *  the device refuses (naming the size). 0 bytes gives null. */
void* DeviceAlloc(std::size_t bytes);
/*! \brief `rows` rows of `width_bytes` (cudaMallocPitch; the pitch in bytes goes to `*pitch`);
 *  throws as DeviceAlloc. */
void* DeviceAllocPitch(std::size_t* pitch, std::size_t width_bytes, std::size_t rows);
/*! \brief Frees DeviceAlloc / DeviceAllocPitch memory; null is allowed. */
void DeviceFree(void* ptr) noexcept;
/*! \brief `bytes` of page-locked host memory (cudaHostAlloc): host buffers that asynchronous
 *  copies overlap with; throws as DeviceAlloc. */
void* PinnedAlloc(std::size_t bytes);
/*! \brief Frees PinnedAlloc memory; null is allowed. */
void PinnedFree(void* ptr) noexcept;
/*! \brief Successful DeviceAlloc/DeviceAllocPitch calls so far (tests count allocations). */
std::uint64_t DeviceAllocationCount() noexcept;

/*! \brief True when `ptr` is device (or managed) memory, false for host memory. */
bool IsDevicePointer(const void* ptr);

/*! \brief The calling thread's cuBLAS handle for the default stream (created on first use, on
 *  the current device; destroyed at thread exit). */
cublasHandle_t DefaultBlasHandle();

}  // namespace cuda
}  // namespace shade

/*! \brief Calls a CUDA runtime function; a failure throws shade::Error naming the call. */
#define SHADE_CUDA_CALL(call) ::shade::cuda::CheckCuda((call), #call)
/*! \brief Calls a cuBLAS function; a failure throws shade::Error naming the call. */
#define SHADE_CUBLAS_CALL(call) ::shade::cuda::CheckCublas((call), #call)

#endif  // SHADE_BACKEND_CUDA_RUNTIME_H_
