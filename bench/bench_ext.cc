// The extension expressions of the Fashion-MNIST CNN (examples/fashion_mnist/cnn.h) at its shapes
// (batch 128): im2col / col2im of both conv layers, 2x2 stride-2 max pool and its gradient, the
// swapaxis<1,0> + reshape between the GEMM layout and NCHW, the per-channel bias broadcast and
// the bias gradient sumall_except_dim<1>; and a 5-channel chpool (not in the CNN). Each shade
// row (argument: thread count) has a naive hand loop beside it (one thread, no index division in
// the inner loop) as the reference, and a memcpy of the same number of bytes (BM_memcpy/<op>):
// the memory floor.
#include <algorithm>
#include <cstring>

#include "bench/common.h"
#include "shade/expr/ext/broadcast.h"
#include "shade/expr/ext/chpool.h"
#include "shade/expr/ext/patch2col.h"
#include "shade/expr/ext/pool.h"
#include "shade/expr/ext/reduce.h"
#include "shade/expr/ext/reshape.h"
#include "shade/expr/ext/swapaxis.h"

namespace shade_bench {
namespace {

using shade::cpu;
using shade::Shape1;
using shade::Shape2;
using shade::Shape4;
using shade::Tensor;
namespace ex = shade::expr;

constexpr index_t kBatch = 128;

/*! A conv layer's geometry: input (kBatch, c, h, w), k x k kernel, stride 1. */
struct ConvShape {
  index_t c, h, w, k;
  index_t oh() const { return h - k + 1; }
  index_t ow() const { return w - k + 1; }
  index_t rows() const { return c * k * k; }
  index_t cols() const { return kBatch * oh() * ow(); }
};
constexpr ConvShape kConv1{1, 28, 28, 5};
constexpr ConvShape kConv2{32, 12, 12, 5};

const ConvShape& ConvOf(int which) { return which == 1 ? kConv1 : kConv2; }

// ---- im2col -------------------------------------------------------------------------------
void BM_patch2col_shade(benchmark::State& st, int which) {
  SetThreads(static_cast<int>(st.range(0)));
  const ConvShape& g = ConvOf(which);
  Buffer<float> img(kBatch * g.c * g.h * g.w), col(g.rows() * g.cols());
  Tensor<cpu, 4, float> in(img.data(), Shape4(kBatch, g.c, g.h, g.w));
  Tensor<cpu, 2, float> out(col.data(), Shape2(g.rows(), g.cols()));
  for (auto _ : st) {
    out = ex::unpack_patch2col(in, g.k, g.k, 1);
    benchmark::ClobberMemory();
  }
  SetBytes(st, 8.0 * g.rows() * g.cols());
}
void BM_patch2col_naive(benchmark::State& st, int which) {
  const ConvShape& g = ConvOf(which);
  Buffer<float> img(kBatch * g.c * g.h * g.w), col(g.rows() * g.cols());
  const float* in = img.data();
  float* out = col.data();
  const index_t oh = g.oh(), ow = g.ow();
  for (auto _ : st) {
    for (index_t c = 0; c < g.c; ++c)
      for (index_t ky = 0; ky < g.k; ++ky)
        for (index_t kx = 0; kx < g.k; ++kx) {
          float* row = out + ((c * g.k + ky) * g.k + kx) * g.cols();
          for (index_t n = 0; n < kBatch; ++n)
            for (index_t oy = 0; oy < oh; ++oy) {
              const float* src = in + ((n * g.c + c) * g.h + oy + ky) * g.w + kx;
              float* dst = row + (n * oh + oy) * ow;
              for (index_t ox = 0; ox < ow; ++ox) dst[ox] = src[ox];
            }
        }
    benchmark::ClobberMemory();
  }
  SetBytes(st, 8.0 * g.rows() * g.cols());
}

// ---- col2im (conv2's input gradient) -------------------------------------------------------
void BM_col2patch_shade(benchmark::State& st) {
  SetThreads(static_cast<int>(st.range(0)));
  const ConvShape& g = kConv2;
  Buffer<float> img(kBatch * g.c * g.h * g.w), col(g.rows() * g.cols());
  Tensor<cpu, 4, float> out(img.data(), Shape4(kBatch, g.c, g.h, g.w));
  Tensor<cpu, 2, float> in(col.data(), Shape2(g.rows(), g.cols()));
  for (auto _ : st) {
    out = ex::pack_col2patch(in, out.shape_, g.k, g.k, 1);
    benchmark::ClobberMemory();
  }
  SetBytes(st, 4.0 * g.rows() * g.cols() + 4.0 * kBatch * g.c * g.h * g.w);
}
void BM_col2patch_naive(benchmark::State& st) {
  const ConvShape& g = kConv2;
  Buffer<float> img(kBatch * g.c * g.h * g.w), col(g.rows() * g.cols());
  float* out = img.data();
  const float* in = col.data();
  const index_t oh = g.oh(), ow = g.ow();
  for (auto _ : st) {
    std::fill(out, out + kBatch * g.c * g.h * g.w, 0.0f);
    for (index_t c = 0; c < g.c; ++c)
      for (index_t ky = 0; ky < g.k; ++ky)
        for (index_t kx = 0; kx < g.k; ++kx) {
          const float* row = in + ((c * g.k + ky) * g.k + kx) * g.cols();
          for (index_t n = 0; n < kBatch; ++n)
            for (index_t oy = 0; oy < oh; ++oy) {
              float* dst = out + ((n * g.c + c) * g.h + oy + ky) * g.w + kx;
              const float* src = row + (n * oh + oy) * ow;
              for (index_t ox = 0; ox < ow; ++ox) dst[ox] += src[ox];
            }
        }
    benchmark::ClobberMemory();
  }
  SetBytes(st, 4.0 * g.rows() * g.cols() + 4.0 * kBatch * g.c * g.h * g.w);
}

// ---- max pool 2x2 stride 2 and its gradient -------------------------------------------------
/*! Pool layers of the CNN: (kBatch, c, s, s) -> (kBatch, c, s/2, s/2). */
struct PoolShape {
  index_t c, s;
};
constexpr PoolShape kPool1{32, 24};
constexpr PoolShape kPool2{64, 8};
const PoolShape& PoolOf(int which) { return which == 1 ? kPool1 : kPool2; }

void BM_pool_shade(benchmark::State& st, int which) {
  SetThreads(static_cast<int>(st.range(0)));
  const PoolShape& p = PoolOf(which);
  const index_t h = p.s / 2;
  Buffer<float> a(kBatch * p.c * p.s * p.s), b(kBatch * p.c * h * h);
  Tensor<cpu, 4, float> in(a.data(), Shape4(kBatch, p.c, p.s, p.s));
  Tensor<cpu, 4, float> out(b.data(), Shape4(kBatch, p.c, h, h));
  for (auto _ : st) {
    out = ex::pool<shade::red::maximum>(in, 2, 2, 2, 2);
    benchmark::ClobberMemory();
  }
  SetBytes(st, 4.0 * (a.n + b.n));
}
void BM_pool_naive(benchmark::State& st, int which) {
  const PoolShape& p = PoolOf(which);
  const index_t h = p.s / 2;
  Buffer<float> a(kBatch * p.c * p.s * p.s), b(kBatch * p.c * h * h);
  for (auto _ : st) {
    for (index_t plane = 0; plane < kBatch * p.c; ++plane) {
      const float* in = a.data() + plane * p.s * p.s;
      float* out = b.data() + plane * h * h;
      for (index_t py = 0; py < h; ++py)
        for (index_t px = 0; px < h; ++px) {
          const float* w = in + 2 * py * p.s + 2 * px;
          out[py * h + px] = std::max(std::max(w[0], w[1]), std::max(w[p.s], w[p.s + 1]));
        }
    }
    benchmark::ClobberMemory();
  }
  SetBytes(st, 4.0 * (a.n + b.n));
}

/*! unpool over `batch` images (BM_unpool_shade_batch: 4x the CNN's batch, past the 64 MiB from
 *  which the dense 2x2 path stores with non-temporal stores). */
void BM_unpool_shade_batch(benchmark::State& st, int which, index_t batch) {
  SetThreads(static_cast<int>(st.range(0)));
  const PoolShape& p = PoolOf(which);
  const index_t h = p.s / 2;
  Buffer<float> a(batch * p.c * p.s * p.s), b(batch * p.c * h * h), g(batch * p.c * h * h),
      d(batch * p.c * p.s * p.s);
  Tensor<cpu, 4, float> src(a.data(), Shape4(batch, p.c, p.s, p.s));
  Tensor<cpu, 4, float> pooled(b.data(), Shape4(batch, p.c, h, h));
  Tensor<cpu, 4, float> grad(g.data(), Shape4(batch, p.c, h, h));
  Tensor<cpu, 4, float> dsrc(d.data(), Shape4(batch, p.c, p.s, p.s));
  pooled = ex::pool<shade::red::maximum>(src, 2, 2, 2, 2);
  for (auto _ : st) {
    dsrc = ex::unpool<shade::red::maximum>(src, pooled, grad, 2, 2, 2, 2);
    benchmark::ClobberMemory();
  }
  SetBytes(st, 4.0 * (a.n + b.n + g.n + d.n));
}
void BM_unpool_shade(benchmark::State& st, int which) {
  BM_unpool_shade_batch(st, which, kBatch);
}
void BM_unpool_naive(benchmark::State& st, int which) {
  const PoolShape& p = PoolOf(which);
  const index_t h = p.s / 2;
  Buffer<float> a(kBatch * p.c * p.s * p.s), b(kBatch * p.c * h * h), g(kBatch * p.c * h * h),
      d(kBatch * p.c * p.s * p.s);
  for (index_t plane = 0; plane < kBatch * p.c; ++plane)
    for (index_t py = 0; py < h; ++py)
      for (index_t px = 0; px < h; ++px) {
        const float* w = a.data() + plane * p.s * p.s + 2 * py * p.s + 2 * px;
        b.data()[plane * h * h + py * h + px] =
            std::max(std::max(w[0], w[1]), std::max(w[p.s], w[p.s + 1]));
      }
  for (auto _ : st) {
    for (index_t plane = 0; plane < kBatch * p.c; ++plane) {
      const float* in = a.data() + plane * p.s * p.s;
      float* out = d.data() + plane * p.s * p.s;
      for (index_t py = 0; py < h; ++py)
        for (index_t px = 0; px < h; ++px) {
          const float m = b.data()[plane * h * h + py * h + px];
          const float gv = g.data()[plane * h * h + py * h + px];
          for (index_t y = 2 * py; y < 2 * py + 2; ++y)
            for (index_t x = 2 * px; x < 2 * px + 2; ++x)
              out[y * p.s + x] = in[y * p.s + x] == m ? gv : 0.0f;
        }
    }
    benchmark::ClobberMemory();
  }
  SetBytes(st, 4.0 * (a.n + b.n + g.n + d.n));
}

// ---- swapaxis<1,0> between the GEMM layout (cout, batch*oh*ow) and NCHW ----------------------
constexpr index_t kCout = 32, kPlane = 24 * 24;
void BM_swapaxis_to_nchw_shade(benchmark::State& st) {
  SetThreads(static_cast<int>(st.range(0)));
  Buffer<float> a(kCout * kBatch * kPlane), b(kCout * kBatch * kPlane);
  Tensor<cpu, 2, float> tmp(a.data(), Shape2(kCout, kBatch * kPlane));
  Tensor<cpu, 4, float> out(b.data(), Shape4(kBatch, kCout, 24, 24));
  for (auto _ : st) {
    out = ex::swapaxis<1, 0>(ex::reshape(tmp, Shape4(kCout, kBatch, 24, 24)));
    benchmark::ClobberMemory();
  }
  SetBytes(st, 8.0 * a.n);
}
void BM_swapaxis_from_nchw_shade(benchmark::State& st) {
  SetThreads(static_cast<int>(st.range(0)));
  Buffer<float> a(kCout * kBatch * kPlane), b(kCout * kBatch * kPlane);
  Tensor<cpu, 4, float> dout(a.data(), Shape4(kBatch, kCout, 24, 24));
  Tensor<cpu, 2, float> tmp(b.data(), Shape2(kCout, kBatch * kPlane));
  for (auto _ : st) {
    tmp = ex::reshape(ex::swapaxis<1, 0>(dout), tmp.shape_);
    benchmark::ClobberMemory();
  }
  SetBytes(st, 8.0 * a.n);
}
/*! Both directions are the same block copy: (A, B, plane) -> (B, A, plane). */
void BM_swapaxis_naive(benchmark::State& st) {
  Buffer<float> a(kCout * kBatch * kPlane), b(kCout * kBatch * kPlane);
  for (auto _ : st) {
    for (index_t n = 0; n < kBatch; ++n)
      for (index_t c = 0; c < kCout; ++c)
        std::memcpy(b.data() + (n * kCout + c) * kPlane, a.data() + (c * kBatch + n) * kPlane,
                    kPlane * sizeof(float));
    benchmark::ClobberMemory();
  }
  SetBytes(st, 8.0 * a.n);
}

// ---- bias: broadcast<1> add and the gradient sumall_except_dim<1> ---------------------------
void BM_bias_add_shade(benchmark::State& st) {
  SetThreads(static_cast<int>(st.range(0)));
  Buffer<float> a(kBatch * kCout * kPlane), bias(kCout);
  Tensor<cpu, 4, float> out(a.data(), Shape4(kBatch, kCout, 24, 24));
  Tensor<cpu, 1, float> b(bias.data(), Shape1(kCout));
  for (auto _ : st) {
    out += ex::broadcast<1>(b, out.shape_);
    benchmark::ClobberMemory();
  }
  SetBytes(st, 8.0 * a.n);
}
void BM_bias_add_naive(benchmark::State& st) {
  Buffer<float> a(kBatch * kCout * kPlane), bias(kCout);
  for (auto _ : st) {
    for (index_t n = 0; n < kBatch; ++n)
      for (index_t c = 0; c < kCout; ++c) {
        float* p = a.data() + (n * kCout + c) * kPlane;
        const float v = bias.data()[c];
        for (index_t i = 0; i < kPlane; ++i) p[i] += v;
      }
    benchmark::ClobberMemory();
  }
  SetBytes(st, 8.0 * a.n);
}

void BM_bias_grad_shade(benchmark::State& st) {
  SetThreads(static_cast<int>(st.range(0)));
  Buffer<float> a(kBatch * kCout * kPlane), v(kCout);
  Tensor<cpu, 4, float> dout(a.data(), Shape4(kBatch, kCout, 24, 24));
  Tensor<cpu, 1, float> vb(v.data(), Shape1(kCout));
  for (auto _ : st) {
    vb += ex::sumall_except_dim<1>(dout);
    benchmark::ClobberMemory();
  }
  SetBytes(st, 4.0 * a.n);
}
void BM_bias_grad_naive(benchmark::State& st) {
  Buffer<float> a(kBatch * kCout * kPlane), v(kCout);
  for (auto _ : st) {
    for (index_t c = 0; c < kCout; ++c) {
      double acc = 0;  // double: the reference has no accuracy shortcut
      for (index_t n = 0; n < kBatch; ++n) {
        const float* p = a.data() + (n * kCout + c) * kPlane;
        for (index_t i = 0; i < kPlane; ++i) acc += p[i];
      }
      v.data()[c] += static_cast<float>(acc);
    }
    benchmark::ClobberMemory();
  }
  SetBytes(st, 4.0 * a.n);
}

// ---- the memory floor -------------------------------------------------------------------
// ---- channel pooling (local response normalisation's sum over 5 channels) --------------------
/*! The CNN's first activation (kBatch, 32, 24, 24), windows of 5 channels, stride 1, pad 2. */
constexpr index_t kChC = 32, kChS = 24, kChN = 5;
/*! chpool over `batch` images (BM_chpool_shade_batch: 4x the CNN's batch, past the 64 MiB from
 *  which it stores with non-temporal stores). */
void BM_chpool_shade_batch(benchmark::State& st, index_t batch) {
  SetThreads(static_cast<int>(st.range(0)));
  Buffer<float> a(batch * kChC * kChS * kChS), b(batch * kChC * kChS * kChS);
  Tensor<cpu, 4, float> in(a.data(), Shape4(batch, kChC, kChS, kChS));
  Tensor<cpu, 4, float> out(b.data(), Shape4(batch, kChC, kChS, kChS));
  for (auto _ : st) {
    out = ex::chpool<shade::red::sum>(in, kChN);
    benchmark::ClobberMemory();
  }
  SetBytes(st, 4.0 * (a.n + b.n));
}
void BM_chpool_shade(benchmark::State& st) {
  BM_chpool_shade_batch(st, kBatch);
}
void BM_chpool_naive(benchmark::State& st) {
  Buffer<float> a(kBatch * kChC * kChS * kChS), b(kBatch * kChC * kChS * kChS);
  const index_t plane = kChS * kChS;
  for (auto _ : st) {
    for (index_t n = 0; n < kBatch; ++n) {
      for (index_t o = 0; o < kChC; ++o) {
        const index_t cs = std::max<index_t>(o - kChN / 2, 0);
        const index_t ce = std::min<index_t>(o + kChN / 2 + 1, kChC);
        float* out = b.data() + (n * kChC + o) * plane;
        for (index_t i = 0; i < plane; ++i) {
          float v = 0;
          for (index_t c = cs; c < ce; ++c) v += a.data()[(n * kChC + c) * plane + i];
          out[i] = v;
        }
      }
    }
    benchmark::ClobberMemory();
  }
  SetBytes(st, 4.0 * (a.n + b.n));
}

// A memcpy moving the same bytes as the row above it (half read, half written; bytes/s is
// directly comparable), the reference of "at memory speed" for each layout op.
void BM_memcpy(benchmark::State& st, double bytes) {
  const index_t n = static_cast<index_t>(bytes / 8.0);
  Buffer<float> a(n), b(n);
  for (auto _ : st) {
    std::memcpy(b.data(), a.data(), sizeof(float) * static_cast<size_t>(n));
    benchmark::ClobberMemory();
  }
  SetBytes(st, 8.0 * static_cast<double>(n));
}
// Bytes each op's SetBytes counts (reads + writes of one call).
double Patch2colBytes(const ConvShape& g) {
  return 8.0 * g.rows() * g.cols();
}
double Col2patchBytes(const ConvShape& g) {
  return 4.0 * g.rows() * g.cols() + 4.0 * kBatch * g.c * g.h * g.w;
}
double PoolBytes(const PoolShape& p) {
  return 4.0 * kBatch * p.c * p.s * p.s * 1.25;
}
double UnpoolBytes(const PoolShape& p) {
  return 4.0 * kBatch * p.c * p.s * p.s * 2.5;
}
double ChpoolBytes() {
  return 8.0 * kBatch * kChC * kChS * kChS;
}

#define SHADE_EXT_BENCH_THREADS ->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond)->UseRealTime()
#define SHADE_EXT_BENCH_ONE ->Unit(benchmark::kMicrosecond)->UseRealTime()
BENCHMARK_CAPTURE(BM_patch2col_shade, conv1, 1) SHADE_EXT_BENCH_THREADS;
BENCHMARK_CAPTURE(BM_patch2col_naive, conv1, 1) SHADE_EXT_BENCH_ONE;
BENCHMARK_CAPTURE(BM_memcpy, patch2col_conv1, Patch2colBytes(kConv1)) SHADE_EXT_BENCH_ONE;
BENCHMARK_CAPTURE(BM_patch2col_shade, conv2, 2) SHADE_EXT_BENCH_THREADS;
BENCHMARK_CAPTURE(BM_patch2col_naive, conv2, 2) SHADE_EXT_BENCH_ONE;
BENCHMARK_CAPTURE(BM_memcpy, patch2col_conv2, Patch2colBytes(kConv2)) SHADE_EXT_BENCH_ONE;
BENCHMARK(BM_col2patch_shade) SHADE_EXT_BENCH_THREADS;
BENCHMARK(BM_col2patch_naive) SHADE_EXT_BENCH_ONE;
BENCHMARK_CAPTURE(BM_memcpy, col2patch_conv2, Col2patchBytes(kConv2)) SHADE_EXT_BENCH_ONE;
BENCHMARK_CAPTURE(BM_pool_shade, c32x24, 1) SHADE_EXT_BENCH_THREADS;
BENCHMARK_CAPTURE(BM_pool_naive, c32x24, 1) SHADE_EXT_BENCH_ONE;
BENCHMARK_CAPTURE(BM_memcpy, pool_c32x24, PoolBytes(kPool1)) SHADE_EXT_BENCH_ONE;
BENCHMARK_CAPTURE(BM_pool_shade, c64x8, 2) SHADE_EXT_BENCH_THREADS;
BENCHMARK_CAPTURE(BM_pool_naive, c64x8, 2) SHADE_EXT_BENCH_ONE;
BENCHMARK_CAPTURE(BM_memcpy, pool_c64x8, PoolBytes(kPool2)) SHADE_EXT_BENCH_ONE;
BENCHMARK_CAPTURE(BM_unpool_shade, c32x24, 1) SHADE_EXT_BENCH_THREADS;
BENCHMARK_CAPTURE(BM_unpool_naive, c32x24, 1) SHADE_EXT_BENCH_ONE;
BENCHMARK_CAPTURE(BM_memcpy, unpool_c32x24, UnpoolBytes(kPool1)) SHADE_EXT_BENCH_ONE;
BENCHMARK_CAPTURE(BM_unpool_shade, c64x8, 2) SHADE_EXT_BENCH_THREADS;
BENCHMARK_CAPTURE(BM_unpool_naive, c64x8, 2) SHADE_EXT_BENCH_ONE;
BENCHMARK_CAPTURE(BM_memcpy, unpool_c64x8, UnpoolBytes(kPool2)) SHADE_EXT_BENCH_ONE;
BENCHMARK(BM_chpool_shade) SHADE_EXT_BENCH_THREADS;
BENCHMARK(BM_chpool_naive) SHADE_EXT_BENCH_ONE;
BENCHMARK_CAPTURE(BM_memcpy, chpool_c32x24, ChpoolBytes()) SHADE_EXT_BENCH_ONE;
BENCHMARK_CAPTURE(BM_unpool_shade_batch, c32x24_b512, 1, 4 * kBatch) SHADE_EXT_BENCH_THREADS;
BENCHMARK_CAPTURE(BM_memcpy, unpool_c32x24_b512, 4 * UnpoolBytes(kPool1)) SHADE_EXT_BENCH_ONE;
BENCHMARK_CAPTURE(BM_chpool_shade_batch, b512, 4 * kBatch) SHADE_EXT_BENCH_THREADS;
BENCHMARK_CAPTURE(BM_memcpy, chpool_c32x24_b512, 4 * ChpoolBytes()) SHADE_EXT_BENCH_ONE;
BENCHMARK(BM_swapaxis_to_nchw_shade) SHADE_EXT_BENCH_THREADS;
BENCHMARK(BM_swapaxis_from_nchw_shade) SHADE_EXT_BENCH_THREADS;
BENCHMARK(BM_swapaxis_naive) SHADE_EXT_BENCH_ONE;
BENCHMARK(BM_bias_add_shade) SHADE_EXT_BENCH_THREADS;
BENCHMARK(BM_bias_add_naive) SHADE_EXT_BENCH_ONE;
BENCHMARK(BM_bias_grad_shade) SHADE_EXT_BENCH_THREADS;
BENCHMARK(BM_bias_grad_naive) SHADE_EXT_BENCH_ONE;

}  // namespace
}  // namespace shade_bench

BENCHMARK_MAIN();
