// GPU benchmarks of the static front end (issue 42 item 6), run by tools/run-gpu-tests.sh:
//  - elementwise a * b + exp(a) - a / b over 2^26 floats against a device-to-device copy of
//    the same size (bandwidth counts bytes read and written; target >= 85% of the copy's);
//  - sgemm 8192 through dot() against cublasSgemm called directly (target >= 0.95x).
// Each figure is the median of 15 timed runs (CUDA events) after 3 warm-ups. One line each:
// "name value unit".
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

#include "shade/expr/expression.h"
#include "shade/functor/op.h"
#include "shade/tensor/tensor.h"
#include "shade/tensor/tensor_gpu.cuh"
#include "shade/tensor/tensor_gpu.h"

namespace {
using shade::gpu;
using shade::Tensor;

// Median milliseconds of `fn` over 15 runs after 3 warm-ups.
double TimeMs(const std::function<void()>& fn) {
  cudaEvent_t start, stop;
  SHADE_CUDA_CALL(cudaEventCreate(&start));
  SHADE_CUDA_CALL(cudaEventCreate(&stop));
  for (int i = 0; i < 3; ++i) fn();
  std::vector<double> ms;
  for (int i = 0; i < 15; ++i) {
    SHADE_CUDA_CALL(cudaEventRecord(start));
    fn();
    SHADE_CUDA_CALL(cudaEventRecord(stop));
    SHADE_CUDA_CALL(cudaEventSynchronize(stop));
    float t = 0;
    SHADE_CUDA_CALL(cudaEventElapsedTime(&t, start, stop));
    ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  SHADE_CUDA_CALL(cudaEventDestroy(start));
  SHADE_CUDA_CALL(cudaEventDestroy(stop));
  return ms[ms.size() / 2];
}
}  // namespace

int main() {
  if (shade::cuda::DeviceCount() == 0) {
    std::printf("skipped: no CUDA device\n");
    return 0;
  }
  shade::InitTensorEngine<gpu>(0);
  cudaDeviceProp prop{};
  SHADE_CUDA_CALL(cudaGetDeviceProperties(&prop, 0));
  std::printf("device %s\n", prop.name);
  {
    const shade::index_t n = shade::index_t(1) << 26;
    Tensor<gpu, 1, float> a(shade::Shape1(n)), b(shade::Shape1(n)), c(shade::Shape1(n));
    shade::AllocSpace(&a);
    shade::AllocSpace(&b);
    shade::AllocSpace(&c);
    a = 0.5f;
    b = 1.5f;
    const double t_map = TimeMs([&] { c = a * b + shade::expr::F<shade::op::exp>(a) - a / b; });
    const double t_copy = TimeMs([&] {
      SHADE_CUDA_CALL(
          cudaMemcpyAsync(c.dptr_, a.dptr_, n * sizeof(float), cudaMemcpyDeviceToDevice));
    });
    const double gb_map = 3.0 * n * sizeof(float) / (t_map * 1e6);
    const double gb_copy = 2.0 * n * sizeof(float) / (t_copy * 1e6);
    std::printf("elementwise_2^26_ms %.4f ms\n", t_map);
    std::printf("elementwise_2^26_bandwidth %.1f GB/s\n", gb_map);
    std::printf("d2d_copy_2^26_bandwidth %.1f GB/s\n", gb_copy);
    std::printf("elementwise_vs_copy %.3f ratio (target >= 0.85)\n", gb_map / gb_copy);
    shade::FreeSpace(&a);
    shade::FreeSpace(&b);
    shade::FreeSpace(&c);
  }
  {
    const shade::index_t n = 8192;
    Tensor<gpu, 2, float> a(shade::Shape2(n, n)), b(shade::Shape2(n, n)), c(shade::Shape2(n, n));
    shade::AllocSpace(&a, false);
    shade::AllocSpace(&b, false);
    shade::AllocSpace(&c, false);
    a = 0.25f;
    b = 0.5f;
    const double t_dot = TimeMs([&] { c = shade::expr::dot(a, b); });
    cublasHandle_t h = shade::cuda::DefaultBlasHandle();
    const float one = 1.0f, zero = 0.0f;
    const double t_cublas = TimeMs([&] {
      SHADE_CUBLAS_CALL(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, int(n), int(n), int(n), &one,
                                    b.dptr_, int(n), a.dptr_, int(n), &zero, c.dptr_, int(n)));
    });
    const double flop = 2.0 * n * n * n;
    std::printf("sgemm_8192_shade %.1f TFLOP/s\n", flop / (t_dot * 1e9));
    std::printf("sgemm_8192_cublas %.1f TFLOP/s\n", flop / (t_cublas * 1e9));
    std::printf("sgemm_shade_vs_cublas %.3f ratio (target >= 0.95)\n", t_cublas / t_dot);
    shade::FreeSpace(&a);
    shade::FreeSpace(&b);
    shade::FreeSpace(&c);
  }
  return 0;
}
