// W6: sgemm/dgemm at 256, 1024, 2048: shade's blas::Gemm, the CBLAS called directly, Eigen's own
// GEMM and LibTorch's mm. Which OpenBLAS kernels run is decided by OPENBLAS_CORETYPE at load
// time; bench/run.sh runs this binary with it set to Haswell and unset and labels both.
#include <Eigen/Dense>

#include "bench/common.h"
#include "shade/backend/cpu/blas.h"

namespace shade_bench {
namespace {

template <class T>
using RowMat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

template <class T>
void Flops(benchmark::State& st, index_t n) {
  st.counters["GFLOPS"] = benchmark::Counter(2.0 * n * n * n * static_cast<double>(st.iterations()) / 1e9,
                                             benchmark::Counter::kIsRate);
}

template <class T>
void BM_Gemm_shade(benchmark::State& st) {
  const index_t n = st.range(0);
  SetThreads(static_cast<int>(st.range(1)));
  Buffer<T> a(n * n), b(n * n), c(n * n);
  for (auto _ : st) {
    shade::blas::Gemm<T>(false, false, n, n, n, T(1), a.data(), n, b.data(), n, T(0), c.data(), n);
    benchmark::ClobberMemory();
  }
  Flops<T>(st, n);
}

template <class T>
void BM_Gemm_cblas(benchmark::State& st) {
  const index_t n = st.range(0);
  SetThreads(static_cast<int>(st.range(1)));
  Buffer<T> a(n * n), b(n * n), c(n * n);
  const int ni = static_cast<int>(n);
  for (auto _ : st) {
    if constexpr (std::is_same<T, float>::value) {
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, ni, ni, ni, 1.f, a.data(), ni, b.data(), ni, 0.f, c.data(), ni);
    } else {
      cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, ni, ni, ni, 1.0, a.data(), ni, b.data(), ni, 0.0, c.data(), ni);
    }
    benchmark::ClobberMemory();
  }
  Flops<T>(st, n);
}

template <class T>
void BM_Gemm_eigen(benchmark::State& st) {
  const index_t n = st.range(0);
  SetThreads(static_cast<int>(st.range(1)));
  Buffer<T> a(n * n), b(n * n), c(n * n);
  Eigen::Map<RowMat<T>> A(a.data(), n, n), B(b.data(), n, n), C(c.data(), n, n);
  for (auto _ : st) {
    C.noalias() = A * B;
    benchmark::ClobberMemory();
  }
  Flops<T>(st, n);
}

#ifdef SHADE_BENCH_HAVE_TORCH
template <class T>
void BM_Gemm_torch(benchmark::State& st) {
  const index_t n = st.range(0);
  SetThreads(static_cast<int>(st.range(1)));
  auto opt = torch::TensorOptions().dtype(std::is_same<T, float>::value ? torch::kFloat32 : torch::kFloat64);
  auto a = torch::rand({n, n}, opt), b = torch::rand({n, n}, opt), c = torch::empty({n, n}, opt);
  for (auto _ : st) {
    torch::mm_out(c, a, b);
    benchmark::ClobberMemory();
  }
  Flops<T>(st, n);
}
#endif

void Sizes(benchmark::internal::Benchmark* b) {
  for (int t : {1, 2}) {
    for (int n : {256, 1024, 2048}) b->Args({n, t});
  }
  b->ArgNames({"n", "threads"})->Unit(benchmark::kMillisecond)->UseRealTime();
}

BENCHMARK_TEMPLATE(BM_Gemm_shade, float)->Apply(Sizes);
BENCHMARK_TEMPLATE(BM_Gemm_cblas, float)->Apply(Sizes);
BENCHMARK_TEMPLATE(BM_Gemm_eigen, float)->Apply(Sizes);
BENCHMARK_TEMPLATE(BM_Gemm_shade, double)->Apply(Sizes);
BENCHMARK_TEMPLATE(BM_Gemm_cblas, double)->Apply(Sizes);
BENCHMARK_TEMPLATE(BM_Gemm_eigen, double)->Apply(Sizes);
#ifdef SHADE_BENCH_HAVE_TORCH
BENCHMARK_TEMPLATE(BM_Gemm_torch, float)->Apply(Sizes);
BENCHMARK_TEMPLATE(BM_Gemm_torch, double)->Apply(Sizes);
#endif

}  // namespace
}  // namespace shade_bench

BENCHMARK_MAIN();
