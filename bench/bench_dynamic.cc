// Dynamic (NDArray) elementwise ops against LibTorch eager and shade's static expression
// templates, in the same binary:
//  - the fused 5-op expression a*b + exp(x) - a/x on 2^24 float32 elements (LibTorch runs 5
//    kernels with 4 temporaries; shade one pass; the static path is Tensor expression templates),
//    and on 2^14 elements (in cache: the evaluators' compute cost alone);
//  - broadcast add (N,1) + (1,N) at N = 4096;
//  - dynamic add of two 4-element tensors, the result allocated (and with out=).
// range(0) is the thread count of every library.
#include <benchmark/benchmark.h>

#include "bench/common.h"
#include "bench/ndarray_fill.h"
#include "shade/ndarray/ops.h"
#include "shade/tensor/tensor.h"
#include "shade/tensor/tensor_cpu.h"

namespace {

using shade::index_t;
using shade::NDArray;
using shade_bench::SetThreads;
using shade_bench::UniformNDArray;

constexpr index_t kBig = index_t(1) << 24;
constexpr index_t kBcast = 4096;

// ------------------------------------------------------------------ fused 5-op expression
void BM_Fused5_shade_alloc(benchmark::State& st) {
  SetThreads(static_cast<int>(st.range(0)));
  NDArray a = UniformNDArray({kBig}, -1, 1), b = UniformNDArray({kBig}, -1, 1),
          x = UniformNDArray({kBig}, 0.5, 1.5);
  for (auto _ : st) {
    NDArray c = a * b + shade::exp(x) - a / x;
    benchmark::DoNotOptimize(c.data_ptr());
  }
  shade_bench::SetBytes(st, 4.0 * 4 * kBig);
}
BENCHMARK(BM_Fused5_shade_alloc)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// shade's fused expression into an existing array of n elements (out=).
void Fused5Out(benchmark::State& st, index_t n, int threads) {
  SetThreads(threads);
  NDArray a = UniformNDArray({n}, -1, 1), b = UniformNDArray({n}, -1, 1),
          x = UniformNDArray({n}, 0.5, 1.5);
  NDArray c = NDArray::Empty<float>({n});
  for (auto _ : st) {
    (a * b + shade::exp(x) - a / x).eval(c);
    benchmark::DoNotOptimize(c.data_ptr());
  }
  shade_bench::SetBytes(st, 4.0 * 4 * n);
}
// The static expression template over n elements into an existing buffer.
void Fused5Static(benchmark::State& st, index_t n, int threads) {
  using namespace shade::expr;  // NOLINT(build/namespaces)
  SetThreads(threads);
  shade_bench::Buffer<float> ba(n, -1, 1), bb(n, -1, 1), bx(n, 0.5, 1.5), bc(n);
  shade::Tensor<shade::cpu, 1, float> a(ba.data(), shade::Shape1(n)), b(bb.data(), shade::Shape1(n)),
      x(bx.data(), shade::Shape1(n)), c(bc.data(), shade::Shape1(n));
  for (auto _ : st) {
    c = a * b + F<shade::op::exp>(x) - a / x;
    benchmark::DoNotOptimize(bc.data());
  }
  shade_bench::SetBytes(st, 4.0 * 4 * n);
}

void BM_Fused5_shade_out(benchmark::State& st) { Fused5Out(st, kBig, static_cast<int>(st.range(0))); }
BENCHMARK(BM_Fused5_shade_out)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Fused5_static(benchmark::State& st) { Fused5Static(st, kBig, static_cast<int>(st.range(0))); }
BENCHMARK(BM_Fused5_static)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// The static path with a fresh result per call (AllocSpace/FreeSpace), like the allocating
// dynamic form: both then pay the first touch of a new 64 MiB block.
void BM_Fused5_static_alloc(benchmark::State& st) {
  using namespace shade::expr;  // NOLINT(build/namespaces)
  SetThreads(static_cast<int>(st.range(0)));
  shade_bench::Buffer<float> ba(kBig, -1, 1), bb(kBig, -1, 1), bx(kBig, 0.5, 1.5);
  shade::Tensor<shade::cpu, 1, float> a(ba.data(), shade::Shape1(kBig)), b(bb.data(), shade::Shape1(kBig)),
      x(bx.data(), shade::Shape1(kBig));
  for (auto _ : st) {
    shade::Tensor<shade::cpu, 1, float> c(shade::Shape1(kBig));
    shade::AllocSpace(&c, false);
    c = a * b + F<shade::op::exp>(x) - a / x;
    benchmark::DoNotOptimize(c.dptr_);
    shade::FreeSpace(&c);
  }
  shade_bench::SetBytes(st, 4.0 * 4 * kBig);
}
BENCHMARK(BM_Fused5_static_alloc)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// The same expressions on 2^14 elements (four 64 KiB arrays, in L2), one thread: the
// evaluators' compute cost without the memory stream that bounds the 2^24 rows.
constexpr index_t kCached = index_t(1) << 14;

void BM_Fused5_shade_out_cached(benchmark::State& st) { Fused5Out(st, kCached, 1); }
BENCHMARK(BM_Fused5_shade_out_cached)->Unit(benchmark::kMicrosecond);

void BM_Fused5_static_cached(benchmark::State& st) { Fused5Static(st, kCached, 1); }
BENCHMARK(BM_Fused5_static_cached)->Unit(benchmark::kMicrosecond);

#ifdef SHADE_BENCH_HAVE_TORCH
void BM_Fused5_torch(benchmark::State& st) {
  SetThreads(static_cast<int>(st.range(0)));
  torch::Tensor a = torch::rand({kBig}) * 2 - 1, b = torch::rand({kBig}) * 2 - 1, x = torch::rand({kBig}) + 0.5;
  for (auto _ : st) {
    torch::Tensor c = a * b + torch::exp(x) - a / x;
    benchmark::DoNotOptimize(c.data_ptr());
  }
  shade_bench::SetBytes(st, 4.0 * 4 * kBig);
}
BENCHMARK(BM_Fused5_torch)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
#endif

// ------------------------------------------------------------------ broadcast add
void BM_BroadcastAdd_shade(benchmark::State& st) {
  SetThreads(static_cast<int>(st.range(0)));
  NDArray col = UniformNDArray({kBcast, 1}, -1, 1), row = UniformNDArray({1, kBcast}, -1, 1);
  for (auto _ : st) {
    NDArray c = col + row;
    benchmark::DoNotOptimize(c.data_ptr());
  }
  shade_bench::SetBytes(st, 4.0 * kBcast * kBcast);
}
BENCHMARK(BM_BroadcastAdd_shade)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

#ifdef SHADE_BENCH_HAVE_TORCH
void BM_BroadcastAdd_torch(benchmark::State& st) {
  SetThreads(static_cast<int>(st.range(0)));
  torch::Tensor col = torch::rand({kBcast, 1}), row = torch::rand({1, kBcast});
  for (auto _ : st) {
    torch::Tensor c = col + row;
    benchmark::DoNotOptimize(c.data_ptr());
  }
  shade_bench::SetBytes(st, 4.0 * kBcast * kBcast);
}
BENCHMARK(BM_BroadcastAdd_torch)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
#endif

// ------------------------------------------------------------------ tiny add (overhead)
void BM_Add4_shade_alloc(benchmark::State& st) {
  SetThreads(1);
  NDArray a = UniformNDArray({4}, -1, 1), b = UniformNDArray({4}, -1, 1);
  for (auto _ : st) {
    NDArray c = a + b;
    benchmark::DoNotOptimize(c.data_ptr());
  }
}
BENCHMARK(BM_Add4_shade_alloc)->Unit(benchmark::kNanosecond);

void BM_Add4_shade_out(benchmark::State& st) {
  SetThreads(1);
  NDArray a = UniformNDArray({4}, -1, 1), b = UniformNDArray({4}, -1, 1),
          c = NDArray::Empty<float>({4});
  for (auto _ : st) {
    shade::add(a, b, c);
    benchmark::DoNotOptimize(c.data_ptr());
  }
}
BENCHMARK(BM_Add4_shade_out)->Unit(benchmark::kNanosecond);

#ifdef SHADE_BENCH_HAVE_TORCH
void BM_Add4_torch_alloc(benchmark::State& st) {
  SetThreads(1);
  torch::Tensor a = torch::rand({4}), b = torch::rand({4});
  for (auto _ : st) {
    torch::Tensor c = a + b;
    benchmark::DoNotOptimize(c.data_ptr());
  }
}
BENCHMARK(BM_Add4_torch_alloc)->Unit(benchmark::kNanosecond);

void BM_Add4_torch_out(benchmark::State& st) {
  SetThreads(1);
  torch::Tensor a = torch::rand({4}), b = torch::rand({4}), c = torch::empty({4});
  for (auto _ : st) {
    torch::add_out(c, a, b);
    benchmark::DoNotOptimize(c.data_ptr());
  }
}
BENCHMARK(BM_Add4_torch_out)->Unit(benchmark::kNanosecond);
#endif

}  // namespace

BENCHMARK_MAIN();
