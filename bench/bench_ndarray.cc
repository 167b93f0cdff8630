// NDArray layout benchmarks: contiguous() of a permuted 64^4 float tensor and of a transposed
// 4096x4096 float matrix, against LibTorch's .contiguous() in the same binary. NumPy's
// ascontiguousarray on the same shapes is timed by bench/ndarray_numpy.py.
#include <benchmark/benchmark.h>
#include <omp.h>

#include <cstdint>

#include "shade/backend/cpu/parallel.h"
#include "shade/ndarray/ndarray.h"

#ifdef SHADE_BENCH_HAVE_TORCH
#include <torch/torch.h>
#endif

namespace {

using shade::index_t;
using shade::NDArray;

void SetThreads(int n) {
  shade::SetNumThreads(n);
  omp_set_num_threads(n);
#ifdef SHADE_BENCH_HAVE_TORCH
  torch::set_num_threads(n);
#endif
}

NDArray Pattern(std::initializer_list<index_t> sizes) {
  NDArray a = NDArray::Empty<float>(sizes);
  float* d = a.data<float>();
  for (index_t i = 0; i < a.numel(); ++i) d[i] = static_cast<float>(i % 1000);
  return a;
}

// state.range(0): 0 = permute (0,2,3,1) of 64^4, 1 = transpose of 4096x4096; range(1): threads.
void BM_Shade_Contiguous(benchmark::State& state) {
  SetThreads(static_cast<int>(state.range(1)));
  NDArray x = state.range(0) == 0 ? Pattern({64, 64, 64, 64}) : Pattern({4096, 4096});
  NDArray v = state.range(0) == 0 ? x.permute({0, 2, 3, 1}) : x.transpose(0, 1);
  for (auto _ : state) {
    NDArray y = v.contiguous();
    benchmark::DoNotOptimize(y.data_ptr());
  }
  state.SetBytesProcessed(state.iterations() * x.numel() * 4 * 2);
}
BENCHMARK(BM_Shade_Contiguous)->ArgsProduct({{0, 1}, {1, 2}})->Unit(benchmark::kMillisecond)->UseRealTime();

#ifdef SHADE_BENCH_HAVE_TORCH
void BM_Torch_Contiguous(benchmark::State& state) {
  SetThreads(static_cast<int>(state.range(1)));
  torch::Tensor x = state.range(0) == 0 ? torch::rand({64, 64, 64, 64}) : torch::rand({4096, 4096});
  torch::Tensor v = state.range(0) == 0 ? x.permute({0, 2, 3, 1}) : x.transpose(0, 1);
  for (auto _ : state) {
    torch::Tensor y = v.contiguous();
    benchmark::DoNotOptimize(y.data_ptr());
  }
  state.SetBytesProcessed(state.iterations() * x.numel() * 4 * 2);
}
BENCHMARK(BM_Torch_Contiguous)->ArgsProduct({{0, 1}, {1, 2}})->Unit(benchmark::kMillisecond)->UseRealTime();
#endif

// copy_ into an existing destination (no allocation): the engine alone.
void BM_Shade_CopyInto(benchmark::State& state) {
  SetThreads(static_cast<int>(state.range(1)));
  NDArray x = state.range(0) == 0 ? Pattern({64, 64, 64, 64}) : Pattern({4096, 4096});
  NDArray v = state.range(0) == 0 ? x.permute({0, 2, 3, 1}) : x.transpose(0, 1);
  NDArray y = NDArray::Empty<float>(v.sizes());
  for (auto _ : state) {
    y.copy_(v);
    benchmark::DoNotOptimize(y.data_ptr());
  }
  state.SetBytesProcessed(state.iterations() * x.numel() * 4 * 2);
}
BENCHMARK(BM_Shade_CopyInto)->ArgsProduct({{0, 1}, {1, 2}})->Unit(benchmark::kMillisecond)->UseRealTime();

#ifdef SHADE_BENCH_HAVE_TORCH
void BM_Torch_CopyInto(benchmark::State& state) {
  SetThreads(static_cast<int>(state.range(1)));
  torch::Tensor x = state.range(0) == 0 ? torch::rand({64, 64, 64, 64}) : torch::rand({4096, 4096});
  torch::Tensor v = state.range(0) == 0 ? x.permute({0, 2, 3, 1}) : x.transpose(0, 1);
  torch::Tensor y = torch::empty(v.sizes());
  for (auto _ : state) {
    y.copy_(v);
    benchmark::DoNotOptimize(y.data_ptr());
  }
  state.SetBytesProcessed(state.iterations() * x.numel() * 4 * 2);
}
BENCHMARK(BM_Torch_CopyInto)->ArgsProduct({{0, 1}, {1, 2}})->Unit(benchmark::kMillisecond)->UseRealTime();
#endif

}  // namespace

BENCHMARK_MAIN();
