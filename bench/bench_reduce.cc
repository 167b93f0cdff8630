// W4: full sum of 2^25 floats and axis-0 / axis-1 sums of a 4096x4096 float matrix; W5: the
// transposed copy of a 4096x4096 float matrix. shade's reductions and blocked transpose against
// Eigen (Array/Matrix maps and Tensor with a thread pool), xtensor, LibTorch and hand loops.
#define EIGEN_USE_THREADS
#include <unsupported/Eigen/CXX11/Tensor>
#include <xtensor/xadapt.hpp>
#include <xtensor/xmanipulation.hpp>
#include <xtensor/xnoalias.hpp>
#include <xtensor/xreducer.hpp>

#include "bench/common.h"
#include "shade/backend/cpu/kernels.h"
#include "shade/backend/cpu/reduce.h"
#include "shade/tensor/tensor.h"

namespace shade_bench {
namespace {

namespace kernel = shade::kernel;
constexpr index_t kSumN = index_t(1) << 25;
constexpr index_t kRows = 4096, kCols = 4096;
using RowMatF = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

struct Pool {
  Eigen::ThreadPool pool;
  Eigen::ThreadPoolDevice dev;
  explicit Pool(int n) : pool(n), dev(&pool, n) {}
};

// ---- full sum ----
void BM_W4_sum_shade(benchmark::State& st) {
  SetThreads(static_cast<int>(st.range(0)));
  Buffer<float> a(kSumN, 0, 1);
  for (auto _ : st) benchmark::DoNotOptimize(kernel::Sum(kSumN, a.data()));
  SetBytes(st, 4.0 * kSumN);
}
void BM_W4_sum_hand(benchmark::State& st) {
  Buffer<float> a(kSumN, 0, 1);
  const float* p = a.data();
  for (auto _ : st) {
    float s = 0;
#pragma omp parallel for simd reduction(+ : s) num_threads(static_cast<int>(st.range(0)))
    for (index_t i = 0; i < kSumN; ++i) s += p[i];
    benchmark::DoNotOptimize(s);
  }
  SetBytes(st, 4.0 * kSumN);
}
void BM_W4_sum_eigen_array(benchmark::State& st) {
  Buffer<float> a(kSumN, 0, 1);
  Eigen::Map<Eigen::ArrayXf> A(a.data(), kSumN);
  for (auto _ : st) benchmark::DoNotOptimize(A.sum());
  SetBytes(st, 4.0 * kSumN);
}
void BM_W4_sum_eigen_tensor(benchmark::State& st) {
  Pool p(static_cast<int>(st.range(0)));
  Buffer<float> a(kSumN, 0, 1);
  Eigen::TensorMap<Eigen::Tensor<float, 1, Eigen::RowMajor>> A(a.data(), kSumN);
  Eigen::Tensor<float, 0, Eigen::RowMajor> r;
  for (auto _ : st) {
    r.device(p.dev) = A.sum();
    benchmark::DoNotOptimize(r());
  }
  SetBytes(st, 4.0 * kSumN);
}
void BM_W4_sum_xtensor(benchmark::State& st) {
  Buffer<float> a(kSumN, 0, 1);
  auto A = xt::adapt(a.data(), size_t(kSumN), xt::no_ownership(), std::vector<size_t>{size_t(kSumN)});
  for (auto _ : st) benchmark::DoNotOptimize(xt::sum(A)());
  SetBytes(st, 4.0 * kSumN);
}

// ---- axis 0 (column sums) and axis 1 (row sums) of 4096x4096 ----
template <int kAxis>
void BM_W4_axis_shade(benchmark::State& st) {
  SetThreads(static_cast<int>(st.range(0)));
  Buffer<float> a(kRows * kCols), out(kRows);
  for (auto _ : st) {
    if (kAxis == 0) {
      kernel::ReduceAxis<kernel::red::sum>(1, kRows, kCols, a.data(), out.data());
    } else {
      kernel::ReduceAxis<kernel::red::sum>(kRows, kCols, 1, a.data(), out.data());
    }
    benchmark::ClobberMemory();
  }
  SetBytes(st, 4.0 * kRows * kCols);
}
template <int kAxis>
void BM_W4_axis_hand(benchmark::State& st) {
  Buffer<float> a(kRows * kCols), out(kRows);
  const float* p = a.data();
  float* o = out.data();
  const int t = static_cast<int>(st.range(0));
  for (auto _ : st) {
    if (kAxis == 0) {
#pragma omp parallel for num_threads(t)
      for (index_t j0 = 0; j0 < kCols; j0 += 256) {
        for (index_t j = j0; j < j0 + 256; ++j) o[j] = 0;
        for (index_t i = 0; i < kRows; ++i) {
#pragma omp simd
          for (index_t j = j0; j < j0 + 256; ++j) o[j] += p[i * kCols + j];
        }
      }
    } else {
#pragma omp parallel for num_threads(t)
      for (index_t i = 0; i < kRows; ++i) {
        float s = 0;
#pragma omp simd reduction(+ : s)
        for (index_t j = 0; j < kCols; ++j) s += p[i * kCols + j];
        o[i] = s;
      }
    }
    benchmark::ClobberMemory();
  }
  SetBytes(st, 4.0 * kRows * kCols);
}
template <int kAxis>
void BM_W4_axis_eigen(benchmark::State& st) {
  Buffer<float> a(kRows * kCols), out(kRows);
  Eigen::Map<RowMatF> A(a.data(), kRows, kCols);
  Eigen::Map<Eigen::RowVectorXf> O(out.data(), kCols);
  Eigen::Map<Eigen::VectorXf> Oc(out.data(), kRows);
  for (auto _ : st) {
    if (kAxis == 0) {
      O = A.colwise().sum();
    } else {
      Oc = A.rowwise().sum();
    }
    benchmark::ClobberMemory();
  }
  SetBytes(st, 4.0 * kRows * kCols);
}
template <int kAxis>
void BM_W4_axis_xtensor(benchmark::State& st) {
  Buffer<float> a(kRows * kCols), out(kRows);
  auto A = xt::adapt(a.data(), size_t(kRows * kCols), xt::no_ownership(), std::vector<size_t>{size_t(kRows), size_t(kCols)});
  auto O = xt::adapt(out.data(), size_t(kRows), xt::no_ownership(), std::vector<size_t>{size_t(kRows)});
  for (auto _ : st) {
    xt::noalias(O) = xt::sum(A, {kAxis});
    benchmark::ClobberMemory();
  }
  SetBytes(st, 4.0 * kRows * kCols);
}

// ---- W5 transposed copy ----
void BM_W5_transpose_shade(benchmark::State& st) {  // the static expression b = a.T()
  SetThreads(static_cast<int>(st.range(0)));
  Buffer<float> a(kRows * kCols), b(kRows * kCols);
  shade::Tensor<shade::cpu, 2, float> a_t(a.data(), shade::Shape2(kRows, kCols));
  shade::Tensor<shade::cpu, 2, float> b_t(b.data(), shade::Shape2(kCols, kRows));
  for (auto _ : st) {
    b_t = a_t.T();  // ExpEngine -> TensorEvaluator -> kernel::Transpose
    benchmark::ClobberMemory();
  }
  SetBytes(st, 8.0 * kRows * kCols);
}
void BM_W5_transpose_hand32(benchmark::State& st) {  // the plain 32x32 blocked loop
  Buffer<float> a(kRows * kCols), b(kRows * kCols);
  const float* s = a.data();
  float* d = b.data();
  const int t = static_cast<int>(st.range(0));
  for (auto _ : st) {
#pragma omp parallel for num_threads(t)
    for (index_t i0 = 0; i0 < kRows; i0 += 32) {
      for (index_t j0 = 0; j0 < kCols; j0 += 32) {
        for (index_t i = i0; i < i0 + 32; ++i) {
          for (index_t j = j0; j < j0 + 32; ++j) d[j * kRows + i] = s[i * kCols + j];
        }
      }
    }
    benchmark::ClobberMemory();
  }
  SetBytes(st, 8.0 * kRows * kCols);
}
void BM_W5_transpose_eigen(benchmark::State& st) {
  Buffer<float> a(kRows * kCols), b(kRows * kCols);
  Eigen::Map<RowMatF> A(a.data(), kRows, kCols), B(b.data(), kCols, kRows);
  for (auto _ : st) {
    B.noalias() = A.transpose();
    benchmark::ClobberMemory();
  }
  SetBytes(st, 8.0 * kRows * kCols);
}
void BM_W5_transpose_xtensor(benchmark::State& st) {
  Buffer<float> a(kRows * kCols), b(kRows * kCols);
  std::vector<size_t> sh{size_t(kRows), size_t(kCols)};
  auto A = xt::adapt(a.data(), size_t(kRows * kCols), xt::no_ownership(), sh);
  auto B = xt::adapt(b.data(), size_t(kRows * kCols), xt::no_ownership(), sh);
  for (auto _ : st) {
    xt::noalias(B) = xt::transpose(A);
    benchmark::ClobberMemory();
  }
  SetBytes(st, 8.0 * kRows * kCols);
}

#ifdef SHADE_BENCH_HAVE_TORCH
void BM_W4_sum_torch(benchmark::State& st) {
  SetThreads(static_cast<int>(st.range(0)));
  auto a = torch::rand({kSumN});
  for (auto _ : st) benchmark::DoNotOptimize(a.sum().item<float>());
  SetBytes(st, 4.0 * kSumN);
}
template <int kAxis>
void BM_W4_axis_torch(benchmark::State& st) {
  SetThreads(static_cast<int>(st.range(0)));
  auto a = torch::rand({kRows, kCols}), o = torch::empty({kRows});
  for (auto _ : st) {
    torch::sum_out(o, a, {kAxis});
    benchmark::ClobberMemory();
  }
  SetBytes(st, 4.0 * kRows * kCols);
}
void BM_W5_transpose_torch(benchmark::State& st) {
  SetThreads(static_cast<int>(st.range(0)));
  auto a = torch::rand({kRows, kCols}), b = torch::empty({kCols, kRows});
  for (auto _ : st) {
    b.copy_(a.t());
    benchmark::ClobberMemory();
  }
  SetBytes(st, 8.0 * kRows * kCols);
}
#endif

void Threads(benchmark::internal::Benchmark* b) {
  b->ArgName("threads")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMicrosecond);
}
void OneThread(benchmark::internal::Benchmark* b) {
  b->ArgName("threads")->Arg(1)->UseRealTime()->Unit(benchmark::kMicrosecond);
}

BENCHMARK(BM_W4_sum_shade)->Apply(Threads);
BENCHMARK(BM_W4_sum_hand)->Apply(Threads);
BENCHMARK(BM_W4_sum_eigen_array)->Apply(OneThread);
BENCHMARK(BM_W4_sum_eigen_tensor)->Apply(Threads);
BENCHMARK(BM_W4_sum_xtensor)->Apply(OneThread);
BENCHMARK_TEMPLATE(BM_W4_axis_shade, 0)->Name("BM_W4_axis0_shade")->Apply(Threads);
BENCHMARK_TEMPLATE(BM_W4_axis_hand, 0)->Name("BM_W4_axis0_hand")->Apply(Threads);
BENCHMARK_TEMPLATE(BM_W4_axis_eigen, 0)->Name("BM_W4_axis0_eigen_array")->Apply(OneThread);
BENCHMARK_TEMPLATE(BM_W4_axis_xtensor, 0)->Name("BM_W4_axis0_xtensor")->Apply(OneThread);
BENCHMARK_TEMPLATE(BM_W4_axis_shade, 1)->Name("BM_W4_axis1_shade")->Apply(Threads);
BENCHMARK_TEMPLATE(BM_W4_axis_hand, 1)->Name("BM_W4_axis1_hand")->Apply(Threads);
BENCHMARK_TEMPLATE(BM_W4_axis_eigen, 1)->Name("BM_W4_axis1_eigen_array")->Apply(OneThread);
BENCHMARK_TEMPLATE(BM_W4_axis_xtensor, 1)->Name("BM_W4_axis1_xtensor")->Apply(OneThread);
BENCHMARK(BM_W5_transpose_shade)->Apply(Threads);
BENCHMARK(BM_W5_transpose_hand32)->Apply(Threads);
BENCHMARK(BM_W5_transpose_eigen)->Apply(OneThread);
BENCHMARK(BM_W5_transpose_xtensor)->Apply(OneThread);
#ifdef SHADE_BENCH_HAVE_TORCH
BENCHMARK(BM_W4_sum_torch)->Apply(Threads);
BENCHMARK_TEMPLATE(BM_W4_axis_torch, 0)->Name("BM_W4_axis0_torch")->Apply(Threads);
BENCHMARK_TEMPLATE(BM_W4_axis_torch, 1)->Name("BM_W4_axis1_torch")->Apply(Threads);
BENCHMARK(BM_W5_transpose_torch)->Apply(Threads);
#endif

}  // namespace
}  // namespace shade_bench

BENCHMARK_MAIN();
