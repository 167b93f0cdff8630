// The dynamic front end's compiled kernels under run-time SIMD dispatch (issue 14, item 4): the
// same NDArray workloads, built once natively and once as a portable build
// (bench/dispatch_compare.sh runs both, and the portable one under each SHADE_SIMD_TARGET).
// One thread, so that the rows measure the kernels rather than the machine's other load. Each
// row's label is the SIMD target the kernels ran on.
#include <benchmark/benchmark.h>

#include <cstdint>

#include "shade/backend/cpu/parallel.h"
#include "shade/ndarray/creation.h"
#include "shade/ndarray/device.h"
#include "shade/ndarray/ndarray.h"
#include "shade/ndarray/ops.h"
#include "shade/ndarray/reduce.h"
#include "shade/ndarray/shape_ops.h"

namespace {

using shade::index_t;
using shade::NDArray;

constexpr index_t kBig = index_t(1) << 22;  // 16 MiB of float32: out of cache
constexpr index_t kSmall = 4000;            // in L1: the per-call and tail costs
constexpr index_t kSide = 2048;

// Deterministic values in (lo, hi).
NDArray Filled(std::initializer_list<index_t> shape, float lo, float hi) {
  NDArray a = shade::empty(shape, shade::kFloat32);
  float* p = a.data<float>();
  std::uint32_t s = 12345;
  for (index_t i = 0; i < a.numel(); ++i) {
    s = s * 1664525u + 1013904223u;
    p[i] = lo + (hi - lo) * static_cast<float>((s >> 8) + 1) / 16777218.0f;
  }
  return a;
}

void Setup(benchmark::State& st, double bytes) {
  shade::SetNumThreads(1);
  st.SetLabel(shade::SimdTargetName());
  st.SetBytesProcessed(static_cast<std::int64_t>(bytes * static_cast<double>(st.iterations())));
}

void BM_Fused(benchmark::State& st) {
  const index_t n = st.range(0);
  NDArray a = Filled({n}, -2, 2), b = Filled({n}, 1, 3), out = shade::empty({n}, shade::kFloat32);
  for (auto _ : st) {
    (a * b + shade::exp(a) - a / b).eval(out);
    benchmark::DoNotOptimize(out.data_ptr());
  }
  Setup(st, 12.0 * n);
}
BENCHMARK(BM_Fused)->Arg(kSmall)->Arg(kBig)->Unit(benchmark::kMicrosecond);

void BM_Tanh(benchmark::State& st) {
  const index_t n = st.range(0);
  NDArray a = Filled({n}, -4, 4), out = shade::empty({n}, shade::kFloat32);
  for (auto _ : st) {
    shade::tanh(a).eval(out);
    benchmark::DoNotOptimize(out.data_ptr());
  }
  Setup(st, 8.0 * n);
}
BENCHMARK(BM_Tanh)->Arg(kSmall)->Arg(kBig)->Unit(benchmark::kMicrosecond);

void BM_AddBroadcast(benchmark::State& st) {
  NDArray a = Filled({kSide, kSide}, -1, 1), row = Filled({kSide}, -1, 1);
  NDArray out = shade::empty({kSide, kSide}, shade::kFloat32);
  for (auto _ : st) {
    (a + row).eval(out);
    benchmark::DoNotOptimize(out.data_ptr());
  }
  Setup(st, 8.0 * kSide * kSide);
}
BENCHMARK(BM_AddBroadcast)->Unit(benchmark::kMicrosecond);

void BM_CastToDouble(benchmark::State& st) {
  NDArray a = Filled({kBig}, -1, 1);
  NDArray out = shade::empty({kBig}, shade::kFloat64);
  for (auto _ : st) {
    out.copy_(a);
    benchmark::DoNotOptimize(out.data_ptr());
  }
  Setup(st, 12.0 * kBig);
}
BENCHMARK(BM_CastToDouble)->Unit(benchmark::kMicrosecond);

void BM_SumAxis(benchmark::State& st) {
  NDArray a = Filled({kSide, kSide}, -1, 1);
  const index_t axis = st.range(0);
  for (auto _ : st) {
    NDArray r = shade::sum(a, shade::AxisSet(axis));
    benchmark::DoNotOptimize(r.data_ptr());
  }
  Setup(st, 4.0 * kSide * kSide);
}
BENCHMARK(BM_SumAxis)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

void BM_MaxAll(benchmark::State& st) {
  NDArray a = Filled({kBig}, -1, 1);
  for (auto _ : st) {
    NDArray r = shade::max(a);
    benchmark::DoNotOptimize(r.data_ptr());
  }
  Setup(st, 4.0 * kBig);
}
BENCHMARK(BM_MaxAll)->Unit(benchmark::kMicrosecond);

void BM_ArgMax(benchmark::State& st) {
  NDArray a = Filled({kBig}, -1, 1);
  for (auto _ : st) {
    NDArray r = shade::argmax(a);
    benchmark::DoNotOptimize(r.data_ptr());
  }
  Setup(st, 4.0 * kBig);
}
BENCHMARK(BM_ArgMax)->Unit(benchmark::kMicrosecond);

void BM_TransposeCopy(benchmark::State& st) {
  NDArray a = Filled({kSide, kSide}, -1, 1);
  NDArray out = shade::empty({kSide, kSide}, shade::kFloat32);
  const NDArray t = a.transpose(0, 1);
  for (auto _ : st) {
    out.copy_(t);
    benchmark::DoNotOptimize(out.data_ptr());
  }
  Setup(st, 8.0 * kSide * kSide);
}
BENCHMARK(BM_TransposeCopy)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
