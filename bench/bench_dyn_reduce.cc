// Dynamic (NDArray) reductions and matmul against LibTorch eager in the same binary (NumPy's line
// comes from bench/dyn_reduce_numpy.py):
//  - sum over axis 1 of a 4096x4096 float32 array (the target: at least NumPy), also
//    axis 0, and axis 1 of the transposed view (read in place in memory order);
//  - matmul of 512x512 float32, one operand transposed (no copy).
// range(0) is the thread count of every library.
#include <benchmark/benchmark.h>

#include "bench/common.h"
#include "bench/ndarray_fill.h"
#include "shade/ndarray/linalg.h"
#include "shade/ndarray/reduce.h"

namespace {

using shade::index_t;
using shade::NDArray;
using shade_bench::SetThreads;
using shade_bench::UniformNDArray;

constexpr index_t kN = 4096;
constexpr index_t kM = 512;

void BM_SumAxis1_shade(benchmark::State& st) {
  SetThreads(static_cast<int>(st.range(0)));
  NDArray a = UniformNDArray({kN, kN}, -1, 1);
  for (auto _ : st) {
    NDArray r = shade::sum(a, 1);
    benchmark::DoNotOptimize(r.data_ptr());
  }
  shade_bench::SetBytes(st, 4.0 * kN * kN);
}
BENCHMARK(BM_SumAxis1_shade)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_SumAxis0_shade(benchmark::State& st) {
  SetThreads(static_cast<int>(st.range(0)));
  NDArray a = UniformNDArray({kN, kN}, -1, 1);
  for (auto _ : st) {
    NDArray r = shade::sum(a, 0);
    benchmark::DoNotOptimize(r.data_ptr());
  }
  shade_bench::SetBytes(st, 4.0 * kN * kN);
}
BENCHMARK(BM_SumAxis0_shade)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_SumAxis1_transposed_shade(benchmark::State& st) {
  SetThreads(static_cast<int>(st.range(0)));
  NDArray a = UniformNDArray({kN, kN}, -1, 1);
  NDArray t = a.transpose(0, 1);
  for (auto _ : st) {
    NDArray r = shade::sum(t, 1);
    benchmark::DoNotOptimize(r.data_ptr());
  }
  shade_bench::SetBytes(st, 4.0 * kN * kN);
}
BENCHMARK(BM_SumAxis1_transposed_shade)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_MatmulT_shade(benchmark::State& st) {
  SetThreads(static_cast<int>(st.range(0)));
  NDArray a = UniformNDArray({kM, kM}, -1, 1), b = UniformNDArray({kM, kM}, -1, 1);
  NDArray bt = b.transpose(0, 1);
  for (auto _ : st) {
    NDArray c = shade::matmul(a, bt);
    benchmark::DoNotOptimize(c.data_ptr());
  }
}
BENCHMARK(BM_MatmulT_shade)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

#ifdef SHADE_BENCH_HAVE_TORCH
void BM_SumAxis1_torch(benchmark::State& st) {
  SetThreads(static_cast<int>(st.range(0)));
  torch::Tensor a = torch::rand({kN, kN}) * 2 - 1;
  for (auto _ : st) {
    torch::Tensor r = a.sum(1);
    benchmark::DoNotOptimize(r.data_ptr());
  }
  shade_bench::SetBytes(st, 4.0 * kN * kN);
}
BENCHMARK(BM_SumAxis1_torch)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_SumAxis0_torch(benchmark::State& st) {
  SetThreads(static_cast<int>(st.range(0)));
  torch::Tensor a = torch::rand({kN, kN}) * 2 - 1;
  for (auto _ : st) {
    torch::Tensor r = a.sum(0);
    benchmark::DoNotOptimize(r.data_ptr());
  }
  shade_bench::SetBytes(st, 4.0 * kN * kN);
}
BENCHMARK(BM_SumAxis0_torch)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_MatmulT_torch(benchmark::State& st) {
  SetThreads(static_cast<int>(st.range(0)));
  torch::Tensor a = torch::rand({kM, kM}), b = torch::rand({kM, kM});
  torch::Tensor bt = b.t();
  for (auto _ : st) {
    torch::Tensor c = torch::matmul(a, bt);
    benchmark::DoNotOptimize(c.data_ptr());
  }
}
BENCHMARK(BM_MatmulT_torch)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
#endif

}  // namespace

BENCHMARK_MAIN();
