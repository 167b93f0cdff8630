// W2 (fused `a = b*c + d*2.5f - e/f` over 2^24 floats) and W7 (per-op time of `a = b + c` at 4
// and 1024 elements): shade's static expression templates (expr/map.h's packet loop)
// against Eigen Array / Tensor, xtensor, LibTorch's eager form and hand loops, in one binary.
// The STREAM-triad bandwidth equivalent of W2 is bench_elementwise's BM_W1_triad_* rows: W2
// moves 24 bytes per element (5 reads, 1 write), the triad 12, and both report bytes_per_second.
#define EIGEN_USE_THREADS
#include <unsupported/Eigen/CXX11/Tensor>
#include <xtensor/xadapt.hpp>
#include <xtensor/xnoalias.hpp>

#include <vector>

#include "bench/common.h"
#include "shade/tensor/tensor.h"

namespace shade_bench {
namespace {

using shade::cpu;
using shade::Shape1;
using shade::Tensor;
constexpr index_t kW2N = index_t(1) << 24;
constexpr double kW2Bytes = 6.0 * 4 * kW2N;
using Vec1 = Eigen::TensorMap<Eigen::Tensor<float, 1, Eigen::RowMajor>, Eigen::Aligned>;

/*! The six 2^24-float operands of W2. */
struct W2Data {
  Buffer<float> a{kW2N}, b{kW2N}, c{kW2N}, d{kW2N}, e{kW2N}, f{kW2N, 0.5, 2.0};
};
/*! One set of operands for every W2 row: the loop is memory-bound, and rows that each faulted in
 *  their own 384 MiB differed by up to 10% run to run with identical inner loops (placement of
 *  the huge pages), which the peer ratios then reported as speed. */
W2Data& SharedW2Data() {
  static W2Data data;
  return data;
}

void BM_W2_shade(benchmark::State& st) {
  SetThreads(static_cast<int>(st.range(0)));
  W2Data& w = SharedW2Data();
  Tensor<cpu, 1, float> A(w.a.data(), Shape1(kW2N)), B(w.b.data(), Shape1(kW2N)),
      C(w.c.data(), Shape1(kW2N)), D(w.d.data(), Shape1(kW2N)), E(w.e.data(), Shape1(kW2N)),
      F(w.f.data(), Shape1(kW2N));
  for (auto _ : st) {
    A = B * C + D * 2.5f - E / F;
    benchmark::ClobberMemory();
  }
  SetBytes(st, kW2Bytes);
}
void BM_W2_hand(benchmark::State& st) {
  W2Data& w = SharedW2Data();
  float* __restrict a = w.a.data();
  const float *__restrict b = w.b.data(), *__restrict c = w.c.data(), *__restrict d = w.d.data(),
              *__restrict e = w.e.data(), *__restrict f = w.f.data();
  for (auto _ : st) {
#pragma omp parallel for simd num_threads(static_cast<int>(st.range(0)))
    for (index_t i = 0; i < kW2N; ++i) a[i] = b[i] * c[i] + d[i] * 2.5f - e[i] / f[i];
    benchmark::ClobberMemory();
  }
  SetBytes(st, kW2Bytes);
}
void BM_W2_eigen_array(benchmark::State& st) {
  W2Data& w = SharedW2Data();
  Eigen::Map<Eigen::ArrayXf> A(w.a.data(), kW2N), B(w.b.data(), kW2N), C(w.c.data(), kW2N),
      D(w.d.data(), kW2N), E(w.e.data(), kW2N), F(w.f.data(), kW2N);
  for (auto _ : st) {
    A = B * C + D * 2.5f - E / F;
    benchmark::ClobberMemory();
  }
  SetBytes(st, kW2Bytes);
}
void BM_W2_eigen_tensor(benchmark::State& st) {
  const int n = static_cast<int>(st.range(0));
  Eigen::ThreadPool pool(n);
  Eigen::ThreadPoolDevice dev(&pool, n);
  W2Data& w = SharedW2Data();
  Vec1 A(w.a.data(), kW2N), B(w.b.data(), kW2N), C(w.c.data(), kW2N), D(w.d.data(), kW2N),
      E(w.e.data(), kW2N), F(w.f.data(), kW2N);
  for (auto _ : st) {
    A.device(dev) = B * C + D * 2.5f - E / F;
    benchmark::ClobberMemory();
  }
  SetBytes(st, kW2Bytes);
}
void BM_W2_xtensor(benchmark::State& st) {
  W2Data& w = SharedW2Data();
  std::vector<size_t> sh{size_t(kW2N)};
  auto ad = [&](Buffer<float>& x) { return xt::adapt(x.data(), size_t(kW2N), xt::no_ownership(), sh); };
  auto A = ad(w.a);
  auto B = ad(w.b);
  auto C = ad(w.c);
  auto D = ad(w.d);
  auto E = ad(w.e);
  auto F = ad(w.f);
  for (auto _ : st) {
    xt::noalias(A) = B * C + D * 2.5f - E / F;
    benchmark::ClobberMemory();
  }
  SetBytes(st, kW2Bytes);
}
#ifdef SHADE_BENCH_HAVE_TORCH
void BM_W2_torch(benchmark::State& st) {  // the eager form: one temporary per operator
  SetThreads(static_cast<int>(st.range(0)));
  auto b = torch::rand({kW2N}), c = torch::rand({kW2N}), d = torch::rand({kW2N}),
       e = torch::rand({kW2N}), f = torch::rand({kW2N}) + 0.5, a = torch::empty({kW2N});
  for (auto _ : st) {
    torch::sub_out(a, b * c + d * 2.5, e / f);
    benchmark::ClobberMemory();
  }
  SetBytes(st, kW2Bytes);
}
#endif

// ---- W7: a = b + c at 4 and 1024 elements (per-call overhead of the static path) ----
// kHidden: the size is hidden from the compiler (a run-time-sized tensor, as most code has);
// else it is a constant after inlining, as for Eigen's fixed-size type.
template <int N, bool kHidden>
void BM_W7_shade(benchmark::State& st) {
  SetThreads(1);
  index_t n = N;
  if (kHidden) benchmark::DoNotOptimize(n);
  Buffer<float> a(n), b(n), c(n);
  Tensor<cpu, 1, float> A(a.data(), Shape1(n)), B(b.data(), Shape1(n)), C(c.data(), Shape1(n));
  for (auto _ : st) {
    A = B + C;
    benchmark::DoNotOptimize(a.data());
    benchmark::ClobberMemory();
  }
}
/*! Eigen's Array type ArrayT (fixed-size or ArrayXf) mapped with alignment kMapAlign. */
template <int N, bool kHidden, class ArrayT, int kMapAlign>
void BM_W7_eigen(benchmark::State& st) {
  index_t n = N;
  if (kHidden) benchmark::DoNotOptimize(n);
  Buffer<float> a(n), b(n), c(n);
  Eigen::Map<ArrayT, kMapAlign> A(a.data(), n), B(b.data(), n), C(c.data(), n);
  for (auto _ : st) {
    A = B + C;
    benchmark::DoNotOptimize(a.data());
    benchmark::ClobberMemory();
  }
}
using Fixed4 = Eigen::Array<float, 4, 1>;
using Fixed1024 = Eigen::Array<float, 1024, 1>;

// ---- Narrow rows: 4-D (128, 64, 4, 4) tensors, the CNN's pooled activations ----
// The static map flattens to 2-D rows of the last extent (4 floats). kPacket: `a = b * c + 1`
// (packet path); else `a = step(b) * c` with a functor without a packet form (the scalar loop).
constexpr index_t kNarrowN = 128 * 64 * 4 * 4;
/*! The ReLU gradient of the CNN example: a functor with only a scalar form. */
struct StepScalarOnly {
  static float Map(float a) { return a > 0.0f ? 1.0f : 0.0f; }
  float operator()(float a) const { return Map(a); }
};
template <bool kPacket>
void BM_Narrow4D_shade(benchmark::State& st) {
  SetThreads(1);
  Buffer<float> a(kNarrowN), b(kNarrowN), c(kNarrowN);
  const shade::Shape<4> s = shade::Shape4(128, 64, 4, 4);
  Tensor<cpu, 4, float> A(a.data(), s), B(b.data(), s), C(c.data(), s);
  for (auto _ : st) {
    if constexpr (kPacket) {
      A = B * C + 1.0f;
    } else {
      A = shade::expr::F<StepScalarOnly>(B) * C;
    }
    benchmark::ClobberMemory();
  }
  SetBytes(st, 3.0 * 4 * kNarrowN);
}
template <bool kPacket>
void BM_Narrow4D_eigen_tensor(benchmark::State& st) {
  Buffer<float> a(kNarrowN), b(kNarrowN), c(kNarrowN);
  using Map4 = Eigen::TensorMap<Eigen::Tensor<float, 4, Eigen::RowMajor>, Eigen::Aligned>;
  Map4 A(a.data(), 128, 64, 4, 4), B(b.data(), 128, 64, 4, 4), C(c.data(), 128, 64, 4, 4);
  for (auto _ : st) {
    if constexpr (kPacket) {
      A = B * C + 1.0f;
    } else {
      A = B.unaryExpr(StepScalarOnly()) * C;
    }
    benchmark::ClobberMemory();
  }
  SetBytes(st, 3.0 * 4 * kNarrowN);
}

void Threads(benchmark::internal::Benchmark* b) {
  b->ArgName("threads")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMicrosecond);
}
void OneThread(benchmark::internal::Benchmark* b) {
  b->ArgName("threads")->Arg(1)->UseRealTime()->Unit(benchmark::kMicrosecond);
}

BENCHMARK(BM_W2_shade)->Apply(Threads);
BENCHMARK(BM_W2_hand)->Apply(Threads);
BENCHMARK(BM_W2_eigen_tensor)->Apply(Threads);
BENCHMARK(BM_W2_eigen_array)->Apply(OneThread);
BENCHMARK(BM_W2_xtensor)->Apply(OneThread);
#ifdef SHADE_BENCH_HAVE_TORCH
BENCHMARK(BM_W2_torch)->Apply(Threads);
#endif
BENCHMARK_TEMPLATE(BM_W7_shade, 4, false)->Name("BM_W7_add_shade/n:4")->Unit(benchmark::kNanosecond);
BENCHMARK_TEMPLATE(BM_W7_eigen, 4, false, Fixed4, Eigen::Aligned64)
    ->Name("BM_W7_add_eigen_fixed/n:4")->Unit(benchmark::kNanosecond);
BENCHMARK_TEMPLATE(BM_W7_shade, 1024, false)->Name("BM_W7_add_shade/n:1024")->Unit(benchmark::kNanosecond);
BENCHMARK_TEMPLATE(BM_W7_eigen, 1024, false, Fixed1024, Eigen::Aligned64)
    ->Name("BM_W7_add_eigen_fixed/n:1024")->Unit(benchmark::kNanosecond);
BENCHMARK_TEMPLATE(BM_W7_shade, 4, true)->Name("BM_W7_addrt_shade/n:4")->Unit(benchmark::kNanosecond);
BENCHMARK_TEMPLATE(BM_W7_eigen, 4, true, Eigen::ArrayXf, Eigen::Unaligned)
    ->Name("BM_W7_addrt_eigen_array/n:4")->Unit(benchmark::kNanosecond);
BENCHMARK_TEMPLATE(BM_W7_shade, 1024, true)->Name("BM_W7_addrt_shade/n:1024")->Unit(benchmark::kNanosecond);
BENCHMARK_TEMPLATE(BM_W7_eigen, 1024, true, Eigen::ArrayXf, Eigen::Unaligned)
    ->Name("BM_W7_addrt_eigen_array/n:1024")->Unit(benchmark::kNanosecond);

BENCHMARK_TEMPLATE(BM_Narrow4D_shade, true)
    ->Name("BM_Narrow4D_packet_shade")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_Narrow4D_eigen_tensor, true)
    ->Name("BM_Narrow4D_packet_eigen_tensor")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_Narrow4D_shade, false)
    ->Name("BM_Narrow4D_scalarop_shade")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_Narrow4D_eigen_tensor, false)
    ->Name("BM_Narrow4D_scalarop_eigen_tensor")
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace shade_bench

BENCHMARK_MAIN();
