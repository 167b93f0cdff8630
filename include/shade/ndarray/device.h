/*!
 * \file device.h
 * \brief The dynamic front end's device seam: every NDArray op that runs a kernel first checks,
 *  here, that its arrays share one device and that this build has kernels for it, so an array
 *  whose memory is not host memory (a gpu NDArray from FromBlob, DLPack or a CUDA build's
 *  allocator) never reaches a CPU kernel.
 */
#ifndef SHADE_NDARRAY_DEVICE_H_
#define SHADE_NDARRAY_DEVICE_H_

#include <initializer_list>

#include "shade/ndarray/ndarray.h"

namespace shade {

/*! \brief Whether this build has NDArray kernels for `dev_mask` (cpu; gpu only with CUDA). */
bool HasKernelBackend(int dev_mask) noexcept;

/*!
 * \brief Throws shade::Error unless the defined arrays among `arrays[0..n)` are all on one
 *  device with a kernel backend. Messages: "<op>: operand 2 is on gpu but operand 0 is on cpu:
 *  arrays on different devices" and "<op>: no kernels for device gpu in this build (CPU only)".
 */
void CheckDevices(const char* op, const NDArray* const* arrays, int n);

/*! \brief CheckDevices over a list: `CheckDevices("matmul", {&a, &b})`. */
inline void CheckDevices(const char* op, std::initializer_list<const NDArray*> arrays) {
  CheckDevices(op, arrays.begin(), static_cast<int>(arrays.size()));
}

/*!
 * \brief The SIMD target NDArray's compiled CPU kernels run on this machine, in Highway's
 *  names ("AVX3", "AVX2", "SSE4", "EMU128", ...). A native build (SHADE_NATIVE=ON) has the one
 *  target it was compiled for; a portable build picks the best of SSE4, AVX2 and AVX-512 that the
 *  CPU supports the first time a kernel runs. The environment variable SHADE_SIMD_TARGET
 *  (sse4, avx2, avx3, baseline) caps the choice, for testing each target on one machine.
 */
const char* SimdTargetName();

}  // namespace shade

#endif  // SHADE_NDARRAY_DEVICE_H_
