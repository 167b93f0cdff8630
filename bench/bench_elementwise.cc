// W1 (STREAM copy and triad, 2^24 floats), W3 (tanh and exp over 2^22 floats) and the threading
// crossover of the elementwise kernels: shade's contiguous kernels against Eigen (Array and
// Tensor with a thread pool), xtensor, LibTorch and hand loops, in one binary.
#define EIGEN_USE_THREADS
#include <cmath>
#include <cstring>
#include <unsupported/Eigen/CXX11/Tensor>
#include <xtensor/xadapt.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xnoalias.hpp>

#include "bench/common.h"
#include "shade/backend/cpu/kernels.h"
#include "shade/functor/op.h"

namespace shade_bench {
namespace {

namespace hn = shade::packet::hn;
namespace kernel = shade::kernel;
using shade::packet::kIsFloat;

struct MulAddOp {  // a * b + c
  template <class T>
  static T Map(T a, T b, T c) { return a * b + c; }
  template <class D, class V>
  static V MapPacket(D, V a, V b, V c) { return hn::MulAdd(a, b, c); }
};
struct TanhOp {
  static constexpr int kCost = 20;
  template <class T>
  static T Map(T a) { return std::tanh(a); }
  template <class D, class V, SHADE_PACKET_IF(kIsFloat<hn::TFromD<D>>)>
  static V MapPacket(D d, V a) { return shade::packet::Tanh(d, a); }
};
struct ExpOp {
  static constexpr int kCost = 15;
  template <class T>
  static T Map(T a) { return std::exp(a); }
  template <class D, class V, SHADE_PACKET_IF(kIsFloat<hn::TFromD<D>>)>
  static V MapPacket(D d, V a) { return shade::packet::Exp(d, a); }
};
struct AddOp {
  template <class T>
  static T Map(T a, T b) { return a + b; }
  template <class D, class V>
  static V MapPacket(D, V a, V b) { return hn::Add(a, b); }
};

constexpr index_t kStreamN = index_t(1) << 24;
constexpr index_t kMathN = index_t(1) << 22;
using Vec1 = Eigen::TensorMap<Eigen::Tensor<float, 1, Eigen::RowMajor>, Eigen::Aligned>;

struct Pool {  // Eigen Tensor's thread pool device for st.range(0) threads
  Eigen::ThreadPool pool;
  Eigen::ThreadPoolDevice dev;
  explicit Pool(int n) : pool(n), dev(&pool, n) {}
};

// ---- W1 copy ----
void BM_W1_copy_shade(benchmark::State& st) {
  SetThreads(static_cast<int>(st.range(0)));
  Buffer<float> a(kStreamN), b(kStreamN);
  for (auto _ : st) {
    kernel::Copy(kStreamN, a.data(), static_cast<const float*>(b.data()));
    benchmark::ClobberMemory();
  }
  SetBytes(st, 2.0 * 4 * kStreamN);
}
void BM_W1_copy_hand(benchmark::State& st) {
  SetThreads(static_cast<int>(st.range(0)));
  Buffer<float> a(kStreamN), b(kStreamN);
  float* __restrict pa = a.data();
  const float* __restrict pb = b.data();
  for (auto _ : st) {
#pragma omp parallel for simd num_threads(static_cast<int>(st.range(0)))
    for (index_t i = 0; i < kStreamN; ++i) pa[i] = pb[i];
    benchmark::ClobberMemory();
  }
  SetBytes(st, 2.0 * 4 * kStreamN);
}
void BM_W1_copy_eigen_tensor(benchmark::State& st) {
  Pool p(static_cast<int>(st.range(0)));
  Buffer<float> a(kStreamN), b(kStreamN);
  Vec1 A(a.data(), kStreamN), B(b.data(), kStreamN);
  for (auto _ : st) {
    A.device(p.dev) = B;
    benchmark::ClobberMemory();
  }
  SetBytes(st, 2.0 * 4 * kStreamN);
}
void BM_W1_copy_xtensor(benchmark::State& st) {
  Buffer<float> a(kStreamN), b(kStreamN);
  auto A = xt::adapt(a.data(), static_cast<size_t>(kStreamN), xt::no_ownership(), std::vector<size_t>{size_t(kStreamN)});
  auto B = xt::adapt(b.data(), static_cast<size_t>(kStreamN), xt::no_ownership(), std::vector<size_t>{size_t(kStreamN)});
  for (auto _ : st) {
    xt::noalias(A) = B;
    benchmark::ClobberMemory();
  }
  SetBytes(st, 2.0 * 4 * kStreamN);
}

// ---- W1 triad a = b + s * c ----
void BM_W1_triad_shade(benchmark::State& st) {
  SetThreads(static_cast<int>(st.range(0)));
  Buffer<float> a(kStreamN), b(kStreamN), c(kStreamN);
  for (auto _ : st) {
    kernel::MapTernary<kernel::sv::saveto, MulAddOp>(kStreamN, a.data(), static_cast<const float*>(c.data()),
                                              kernel::MakeScalar(3.0f), static_cast<const float*>(b.data()));
    benchmark::ClobberMemory();
  }
  SetBytes(st, 3.0 * 4 * kStreamN);
}
void BM_W1_triad_hand(benchmark::State& st) {
  Buffer<float> a(kStreamN), b(kStreamN), c(kStreamN);
  float* __restrict pa = a.data();
  const float* __restrict pb = b.data();
  const float* __restrict pc = c.data();
  for (auto _ : st) {
#pragma omp parallel for simd num_threads(static_cast<int>(st.range(0)))
    for (index_t i = 0; i < kStreamN; ++i) pa[i] = pb[i] + 3.0f * pc[i];
    benchmark::ClobberMemory();
  }
  SetBytes(st, 3.0 * 4 * kStreamN);
}
void BM_W1_triad_eigen_tensor(benchmark::State& st) {
  Pool p(static_cast<int>(st.range(0)));
  Buffer<float> a(kStreamN), b(kStreamN), c(kStreamN);
  Vec1 A(a.data(), kStreamN), B(b.data(), kStreamN), C(c.data(), kStreamN);
  for (auto _ : st) {
    A.device(p.dev) = B + C * 3.0f;
    benchmark::ClobberMemory();
  }
  SetBytes(st, 3.0 * 4 * kStreamN);
}
void BM_W1_triad_eigen_array(benchmark::State& st) {
  Buffer<float> a(kStreamN), b(kStreamN), c(kStreamN);
  Eigen::Map<Eigen::ArrayXf> A(a.data(), kStreamN), B(b.data(), kStreamN), C(c.data(), kStreamN);
  for (auto _ : st) {
    A = B + 3.0f * C;
    benchmark::ClobberMemory();
  }
  SetBytes(st, 3.0 * 4 * kStreamN);
}
void BM_W1_triad_xtensor(benchmark::State& st) {
  Buffer<float> a(kStreamN), b(kStreamN), c(kStreamN);
  std::vector<size_t> sh{size_t(kStreamN)};
  auto A = xt::adapt(a.data(), size_t(kStreamN), xt::no_ownership(), sh);
  auto B = xt::adapt(b.data(), size_t(kStreamN), xt::no_ownership(), sh);
  auto C = xt::adapt(c.data(), size_t(kStreamN), xt::no_ownership(), sh);
  for (auto _ : st) {
    xt::noalias(A) = B + 3.0f * C;
    benchmark::ClobberMemory();
  }
  SetBytes(st, 3.0 * 4 * kStreamN);
}
#ifdef SHADE_BENCH_HAVE_TORCH
void BM_W1_triad_torch(benchmark::State& st) {
  SetThreads(static_cast<int>(st.range(0)));
  auto b = torch::rand({kStreamN}), c = torch::rand({kStreamN}), a = torch::empty({kStreamN});
  for (auto _ : st) {
    torch::add_out(a, b, c, 3.0);
    benchmark::ClobberMemory();
  }
  SetBytes(st, 3.0 * 4 * kStreamN);
}
void BM_W1_copy_torch(benchmark::State& st) {
  SetThreads(static_cast<int>(st.range(0)));
  auto b = torch::rand({kStreamN}), a = torch::empty({kStreamN});
  for (auto _ : st) {
    a.copy_(b);
    benchmark::ClobberMemory();
  }
  SetBytes(st, 2.0 * 4 * kStreamN);
}
#endif

// ---- W3 tanh / exp over 2^22 ----
template <class OP, index_t kN = kMathN>
void BM_W3_shade(benchmark::State& st) {
  SetThreads(static_cast<int>(st.range(0)));
  Buffer<float> a(kN), b(kN, -4, 4);
  for (auto _ : st) {
    kernel::MapUnary<kernel::sv::saveto, OP>(kN, a.data(), static_cast<const float*>(b.data()));
    benchmark::ClobberMemory();
  }
  st.SetItemsProcessed(st.iterations() * kN);
}
template <class OP>
void BM_W3_hand(benchmark::State& st) {
  Buffer<float> a(kMathN), b(kMathN, -4, 4);
  float* __restrict pa = a.data();
  const float* __restrict pb = b.data();
  for (auto _ : st) {
#pragma omp parallel for num_threads(static_cast<int>(st.range(0)))
    for (index_t i = 0; i < kMathN; ++i) pa[i] = OP::Map(pb[i]);
    benchmark::ClobberMemory();
  }
  st.SetItemsProcessed(st.iterations() * kMathN);
}
template <bool kTanh>
void BM_W3_eigen_tensor(benchmark::State& st) {
  Pool p(static_cast<int>(st.range(0)));
  Buffer<float> a(kMathN), b(kMathN, -4, 4);
  Vec1 A(a.data(), kMathN), B(b.data(), kMathN);
  for (auto _ : st) {
    if (kTanh) {
      A.device(p.dev) = B.tanh();
    } else {
      A.device(p.dev) = B.exp();
    }
    benchmark::ClobberMemory();
  }
  st.SetItemsProcessed(st.iterations() * kMathN);
}
template <bool kTanh, index_t kN = kMathN>
void BM_W3_eigen_array(benchmark::State& st) {
  Buffer<float> a(kN), b(kN, -4, 4);
  Eigen::Map<Eigen::ArrayXf> A(a.data(), kN), B(b.data(), kN);
  for (auto _ : st) {
    if (kTanh) {
      A = B.tanh();
    } else {
      A = B.exp();
    }
    benchmark::ClobberMemory();
  }
  st.SetItemsProcessed(st.iterations() * kN);
}
template <bool kTanh>
void BM_W3_xtensor(benchmark::State& st) {
  Buffer<float> a(kMathN), b(kMathN, -4, 4);
  std::vector<size_t> sh{size_t(kMathN)};
  auto A = xt::adapt(a.data(), size_t(kMathN), xt::no_ownership(), sh);
  auto B = xt::adapt(b.data(), size_t(kMathN), xt::no_ownership(), sh);
  for (auto _ : st) {
    if (kTanh) {
      xt::noalias(A) = xt::tanh(B);
    } else {
      xt::noalias(A) = xt::exp(B);
    }
    benchmark::ClobberMemory();
  }
  st.SetItemsProcessed(st.iterations() * kMathN);
}
// The memory floor of W3: the same arrays and traffic with one multiply per element, so the
// difference to BM_W3_*_shade is the math's compute cost. _stream writes with non-temporal
// stores (no read-for-ownership of the destination), which shows whether the floor is set by
// the cache hierarchy or by the destination's write-allocate traffic.
void BM_W3_floor_hand(benchmark::State& st) {
  Buffer<float> a(kMathN), b(kMathN, -4, 4);
  float* __restrict pa = a.data();
  const float* __restrict pb = b.data();
  for (auto _ : st) {
    for (index_t i = 0; i < kMathN; ++i) pa[i] = pb[i] * 1.0001f;
    benchmark::ClobberMemory();
  }
  st.SetItemsProcessed(st.iterations() * kMathN);
}
void BM_W3_floor_shade(benchmark::State& st) {
  SetThreads(1);
  Buffer<float> a(kMathN), b(kMathN, -4, 4);
  for (auto _ : st) {
    kernel::MapBinary<kernel::sv::saveto, shade::op::mul>(
        kMathN, a.data(), static_cast<const float*>(b.data()), kernel::MakeScalar(1.0001f));
    benchmark::ClobberMemory();
  }
  st.SetItemsProcessed(st.iterations() * kMathN);
}
void BM_W3_floor_stream(benchmark::State& st) {
  Buffer<float> a(kMathN), b(kMathN, -4, 4);
  const hn::ScalableTag<float> d;
  const index_t lanes = static_cast<index_t>(hn::Lanes(d));
  for (auto _ : st) {
    const auto s = hn::Set(d, 1.0001f);
    for (index_t i = 0; i + lanes <= kMathN; i += lanes)
      hn::Stream(hn::Mul(hn::Load(d, b.data() + i), s), d, a.data() + i);
    benchmark::ClobberMemory();
  }
  st.SetItemsProcessed(st.iterations() * kMathN);
}
#ifdef SHADE_BENCH_HAVE_TORCH
template <bool kTanh>
void BM_W3_torch(benchmark::State& st) {
  SetThreads(static_cast<int>(st.range(0)));
  auto b = torch::rand({kMathN}) * 8 - 4, a = torch::empty({kMathN});
  for (auto _ : st) {
    if (kTanh) {
      torch::tanh_out(a, b);
    } else {
      torch::exp_out(a, b);
    }
    benchmark::ClobberMemory();
  }
  st.SetItemsProcessed(st.iterations() * kMathN);
}
#endif

// ---- Threading crossover: c = a + b at n elements, serial kernel vs 2-thread split ----
void BM_Grain_add(benchmark::State& st) {
  const index_t n = st.range(0);
  const int threads = static_cast<int>(st.range(1));
  SetThreads(threads);
  Buffer<float> a(n), b(n), c(n);
  for (auto _ : st) {
    shade::ParallelFor(0, n, 1, [&](index_t lo, index_t hi) {
      kernel::MapRun<kernel::sv::saveto, AddOp>(hi - lo, c.data() + lo, static_cast<const float*>(a.data() + lo),
                                          static_cast<const float*>(b.data() + lo));
    });
    benchmark::ClobberMemory();
  }
  st.SetItemsProcessed(st.iterations() * n);
}
void BM_Grain_tanh(benchmark::State& st) {
  const index_t n = st.range(0);
  SetThreads(static_cast<int>(st.range(1)));
  Buffer<float> a(n), c(n);
  for (auto _ : st) {
    shade::ParallelFor(0, n, 1, [&](index_t lo, index_t hi) {
      kernel::MapRun<kernel::sv::saveto, TanhOp>(hi - lo, c.data() + lo, static_cast<const float*>(a.data() + lo));
    });
    benchmark::ClobberMemory();
  }
  st.SetItemsProcessed(st.iterations() * n);
}

void Threads(benchmark::internal::Benchmark* b) {
  b->ArgName("threads")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMicrosecond);
}
void GrainArgs(benchmark::internal::Benchmark* b) {
  for (int t : {1, 2}) {
    for (int lg = 10; lg <= 18; ++lg) b->Args({1 << lg, t});
  }
  b->ArgNames({"n", "threads"})->UseRealTime()->Unit(benchmark::kMicrosecond);
}

BENCHMARK(BM_W1_copy_shade)->Apply(Threads);
BENCHMARK(BM_W1_copy_hand)->Apply(Threads);
BENCHMARK(BM_W1_copy_eigen_tensor)->Apply(Threads);
BENCHMARK(BM_W1_copy_xtensor)->ArgName("threads")->Arg(1)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_W1_triad_shade)->Apply(Threads);
BENCHMARK(BM_W1_triad_hand)->Apply(Threads);
BENCHMARK(BM_W1_triad_eigen_tensor)->Apply(Threads);
BENCHMARK(BM_W1_triad_eigen_array)->ArgName("threads")->Arg(1)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_W1_triad_xtensor)->ArgName("threads")->Arg(1)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_W3_shade, TanhOp)->Name("BM_W3_tanh_shade")->Apply(Threads);
BENCHMARK_TEMPLATE(BM_W3_hand, TanhOp)->Name("BM_W3_tanh_hand")->Apply(Threads);
BENCHMARK_TEMPLATE(BM_W3_eigen_tensor, true)->Name("BM_W3_tanh_eigen_tensor")->Apply(Threads);
BENCHMARK_TEMPLATE(BM_W3_eigen_array, true)->Name("BM_W3_tanh_eigen_array")->ArgName("threads")->Arg(1)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_W3_xtensor, true)->Name("BM_W3_tanh_xtensor")->ArgName("threads")->Arg(1)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_W3_floor_hand)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_W3_floor_shade)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_W3_floor_stream)->UseRealTime()->Unit(benchmark::kMicrosecond);
// In cache: 4096 floats (16 KiB per array, L1), one thread: the math alone.
constexpr index_t kCacheN = 4096;
BENCHMARK_TEMPLATE(BM_W3_shade, TanhOp, kCacheN)->Name("BM_W3c_tanh_shade")->Arg(1)->UseRealTime();
BENCHMARK_TEMPLATE(BM_W3_eigen_array, true, kCacheN)
    ->Name("BM_W3c_tanh_eigen_array")
    ->Arg(1)
    ->UseRealTime();
BENCHMARK_TEMPLATE(BM_W3_shade, ExpOp, kCacheN)->Name("BM_W3c_exp_shade")->Arg(1)->UseRealTime();
BENCHMARK_TEMPLATE(BM_W3_eigen_array, false, kCacheN)
    ->Name("BM_W3c_exp_eigen_array")
    ->Arg(1)
    ->UseRealTime();
BENCHMARK_TEMPLATE(BM_W3_shade, ExpOp)->Name("BM_W3_exp_shade")->Apply(Threads);
BENCHMARK_TEMPLATE(BM_W3_hand, ExpOp)->Name("BM_W3_exp_hand")->Apply(Threads);
BENCHMARK_TEMPLATE(BM_W3_eigen_tensor, false)->Name("BM_W3_exp_eigen_tensor")->Apply(Threads);
BENCHMARK_TEMPLATE(BM_W3_eigen_array, false)->Name("BM_W3_exp_eigen_array")->ArgName("threads")->Arg(1)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_W3_xtensor, false)->Name("BM_W3_exp_xtensor")->ArgName("threads")->Arg(1)->UseRealTime()->Unit(benchmark::kMicrosecond);
#ifdef SHADE_BENCH_HAVE_TORCH
BENCHMARK(BM_W1_copy_torch)->Apply(Threads);
BENCHMARK(BM_W1_triad_torch)->Apply(Threads);
BENCHMARK_TEMPLATE(BM_W3_torch, true)->Name("BM_W3_tanh_torch")->Apply(Threads);
BENCHMARK_TEMPLATE(BM_W3_torch, false)->Name("BM_W3_exp_torch")->Apply(Threads);
#endif
BENCHMARK(BM_Grain_add)->Apply(GrainArgs);
BENCHMARK(BM_Grain_tanh)->Apply(GrainArgs);

}  // namespace
}  // namespace shade_bench

BENCHMARK_MAIN();
