// W6: sgemm/dgemm at 256, 1024, 2048: shade's blas::Gemm, the CBLAS called directly, Eigen's own
// GEMM and LibTorch's mm. Which OpenBLAS kernels run is decided by OPENBLAS_CORETYPE at load
// time; bench/run.sh runs this binary with it set to Haswell and unset and labels both.
// BM_ConvGemm_*: the same engines at the shapes of the Fashion-MNIST CNN's convolutions.
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

// The products of one training step of examples/fashion_mnist's CNN (batch 128), row-major
// C (m x n) = op(A) op(B): forward W x col, weight gradient dout x col^T, input gradient
// W^T x dout (conv2 only; conv1's input needs no gradient); then the per-image and per-group
// products.
struct ConvGemmShape {
  const char* name;
  bool trans_a, trans_b;
  index_t m, n, k;
};
constexpr ConvGemmShape kConvGemms[] = {
    {"conv1_fwd", false, false, 32, 128 * 24 * 24, 25},
    {"conv1_dw", false, true, 32, 25, 128 * 24 * 24},
    {"conv2_fwd", false, false, 64, 128 * 8 * 8, 800},
    {"conv2_dw", false, true, 64, 800, 128 * 8 * 8},
    {"conv2_din", true, false, 800, 128 * 8 * 8, 64},
    // one image's share, as examples/fashion_mnist/cnn.h runs the forward and input gradient
    {"conv1_fwd_image", false, false, 32, 24 * 24, 25},
    {"conv2_fwd_image", false, false, 64, 8 * 8, 800},
    {"conv2_din_image", true, false, 800, 8 * 8, 64},
    // a group of 4 images' share (cnn.h's Conv::GroupSize: >= 256 columns per product)
    {"conv2_fwd_group4", false, false, 64, 4 * 8 * 8, 800},
    {"conv2_din_group4", true, false, 800, 4 * 8 * 8, 64},
    {"conv2_dw_group4", false, true, 64, 800, 4 * 8 * 8},
};

// Runs `gemm(shape, a, b, c)` on the conv shape st.range(0) at st.range(1) threads.
template <class Gemm>
void ConvGemm(benchmark::State& st, Gemm gemm) {
  const ConvGemmShape& g = kConvGemms[st.range(0)];
  SetThreads(static_cast<int>(st.range(1)));
  Buffer<float> a(g.m * g.k), b(g.k * g.n), c(g.m * g.n);
  for (auto _ : st) {
    gemm(g, a.data(), b.data(), c.data());
    benchmark::ClobberMemory();
  }
  st.SetLabel(g.name);
  st.counters["GFLOPS"] =
      benchmark::Counter(2.0 * g.m * g.n * g.k * static_cast<double>(st.iterations()) / 1e9,
                         benchmark::Counter::kIsRate);
}

void BM_ConvGemm_shade(benchmark::State& st) {
  ConvGemm(st, [](const ConvGemmShape& g, const float* a, const float* b, float* c) {
    shade::blas::Gemm<float>(g.trans_a, g.trans_b, g.m, g.n, g.k, 1.f, a, g.trans_a ? g.m : g.k, b,
                             g.trans_b ? g.k : g.n, 0.f, c, g.n);
  });
}

void BM_ConvGemm_cblas(benchmark::State& st) {
  ConvGemm(st, [](const ConvGemmShape& g, const float* a, const float* b, float* c) {
    cblas_sgemm(CblasRowMajor, g.trans_a ? CblasTrans : CblasNoTrans,
                g.trans_b ? CblasTrans : CblasNoTrans, static_cast<int>(g.m), static_cast<int>(g.n),
                static_cast<int>(g.k), 1.f, a, static_cast<int>(g.trans_a ? g.m : g.k), b,
                static_cast<int>(g.trans_b ? g.k : g.n), 0.f, c, static_cast<int>(g.n));
  });
}

void BM_ConvGemm_eigen(benchmark::State& st) {
  ConvGemm(st, [](const ConvGemmShape& g, const float* a, const float* b, float* c) {
    using Map = Eigen::Map<const RowMat<float>>;
    const Map A(a, g.trans_a ? g.k : g.m, g.trans_a ? g.m : g.k);
    const Map B(b, g.trans_b ? g.n : g.k, g.trans_b ? g.k : g.n);
    Eigen::Map<RowMat<float>> C(c, g.m, g.n);
    if (g.trans_a) {
      C.noalias() = A.transpose() * B;
    } else if (g.trans_b) {
      C.noalias() = A * B.transpose();
    } else {
      C.noalias() = A * B;
    }
  });
}

void ConvShapes(benchmark::internal::Benchmark* b) {
  for (int t : {1, 2}) {
    for (int s = 0; s < static_cast<int>(sizeof(kConvGemms) / sizeof(kConvGemms[0])); ++s) {
      b->Args({s, t});
    }
  }
  b->ArgNames({"shape", "threads"})->Unit(benchmark::kMillisecond)->UseRealTime();
}

BENCHMARK(BM_ConvGemm_shade)->Apply(ConvShapes);
BENCHMARK(BM_ConvGemm_cblas)->Apply(ConvShapes);
BENCHMARK(BM_ConvGemm_eigen)->Apply(ConvShapes);

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
