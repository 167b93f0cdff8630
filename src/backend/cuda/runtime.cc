// The CUDA backend's runtime layer (include/shade/backend/cuda/runtime.h).
#include "shade/backend/cuda/runtime.h"

#include <cublas_v2.h>

#include <atomic>
#include <memory>

#include "shade/base/error.h"
#include "shade/memory/allocator.h"

namespace shade {
namespace cuda {
namespace {
std::atomic<std::uint64_t> g_device_allocations{0};

// The message of a failed allocation: what, the size, the device's free/total memory.
[[noreturn]] void ThrowAllocFailure(cudaError_t status, const char* what, std::size_t bytes) {
  (void)cudaGetLastError();  // clear the sticky-free error state of a failed allocation
  std::size_t free_bytes = 0, total_bytes = 0;
  (void)cudaMemGetInfo(&free_bytes, &total_bytes);
  SHADE_THROW_AS(::shade::Error) << what << ": cannot allocate " << bytes << " bytes ("
                                 << cudaGetErrorString(status) << "; " << free_bytes << " of "
                                 << total_bytes << " bytes free on the device)";
}
}  // namespace

void CheckCuda(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return;
  (void)cudaGetLastError();
  SHADE_THROW_AS(::shade::Error) << "CUDA error in " << what << ": " << cudaGetErrorName(status)
                                 << " (" << cudaGetErrorString(status) << ")";
}

void CheckCublas(cublasStatus_t status, const char* what) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  SHADE_THROW_AS(::shade::Error) << "cuBLAS error in " << what << ": "
                                 << cublasGetStatusName(status) << " ("
                                 << cublasGetStatusString(status) << ")";
}

int DeviceCount() noexcept {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return n;
}

void SetDevice(int dev_id) {
  const int n = DeviceCount();
  SHADE_CHECK(0 <= dev_id && dev_id < n) << "SetDevice: device " << dev_id << " does not exist ("
                                         << n << " CUDA device" << (n == 1 ? "" : "s") << " found)";
  SHADE_CUDA_CALL(cudaSetDevice(dev_id));
}

void* DeviceAlloc(std::size_t bytes) {
  if (bytes == 0) return nullptr;
  CheckAllocationLimit(bytes, "DeviceAlloc (gpu)");
  void* p = nullptr;
  const cudaError_t st = cudaMalloc(&p, bytes);
  if (st != cudaSuccess) ThrowAllocFailure(st, "DeviceAlloc (gpu)", bytes);
  g_device_allocations.fetch_add(1, std::memory_order_relaxed);
  return p;
}

void* DeviceAllocPitch(std::size_t* pitch, std::size_t width_bytes, std::size_t rows) {
  *pitch = width_bytes;
  if (width_bytes == 0 || rows == 0) return nullptr;
  // The cap applies to the unpadded size; the pitch adds at most one alignment unit per row.
  SHADE_CHECK(rows <= static_cast<std::size_t>(-1) / width_bytes)
      << "DeviceAllocPitch (gpu): " << rows << " rows of " << width_bytes
      << " bytes overflow the size type";
  CheckAllocationLimit(width_bytes * rows, "DeviceAllocPitch (gpu)");
  void* p = nullptr;
  const cudaError_t st = cudaMallocPitch(&p, pitch, width_bytes, rows);
  if (st != cudaSuccess) ThrowAllocFailure(st, "DeviceAllocPitch (gpu)", width_bytes * rows);
  g_device_allocations.fetch_add(1, std::memory_order_relaxed);
  return p;
}

void DeviceFree(void* ptr) noexcept {
  if (ptr != nullptr) (void)cudaFree(ptr);
}

void* PinnedAlloc(std::size_t bytes) {
  if (bytes == 0) return nullptr;
  CheckAllocationLimit(bytes, "PinnedAlloc (cpu pinned)");
  void* p = nullptr;
  const cudaError_t st = cudaHostAlloc(&p, bytes, cudaHostAllocDefault);
  if (st != cudaSuccess) ThrowAllocFailure(st, "PinnedAlloc (cpu pinned)", bytes);
  return p;
}

void PinnedFree(void* ptr) noexcept {
  if (ptr != nullptr) (void)cudaFreeHost(ptr);
}

std::uint64_t DeviceAllocationCount() noexcept {
  return g_device_allocations.load(std::memory_order_relaxed);
}

bool IsDevicePointer(const void* ptr) {
  cudaPointerAttributes attr{};
  if (cudaPointerGetAttributes(&attr, ptr) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return attr.type == cudaMemoryTypeDevice || attr.type == cudaMemoryTypeManaged;
}

cublasHandle_t DefaultBlasHandle() {
  struct Holder {
    cublasHandle_t handle = nullptr;
    ~Holder() {
      if (handle != nullptr) (void)cublasDestroy(handle);
    }
  };
  thread_local Holder holder;
  if (holder.handle == nullptr) SHADE_CUBLAS_CALL(cublasCreate(&holder.handle));
  return holder.handle;
}

}  // namespace cuda
}  // namespace shade
