/*!
 * \file apply.h
 * \brief The one strided-iteration engine: runs a kernel over N operands of one shape with any
 *  strides, handing it innermost runs (pointers, byte strides, length).
 *
 * It generalises Torch's TH_TENSOR_APPLY (seed note 001): TH finds the largest contiguous
 * section at the inner end of one tensor, loops over it with a flat for, and advances a
 * counter array over the remaining dimensions, fixing the data pointer as each counter moves
 * instead of recomputing the offset. Here, for N operands:
 *  1. size-1 dimensions are dropped (TH skips them too);
 *  2. unless `ordered`, dimensions are reordered so the first operand's strides decrease
 *     outward (its writes then run sequentially), later operands breaking ties;
 *  3. adjacent dimensions o (outer), i (inner) merge when stride[o] == stride[i] * size[i] for
 *     every operand - TH's contiguity rule, applied to all dimensions, which also merges
 *     broadcast dimensions (0 == 0 * size);
 *  4. the innermost dimension is the run; outer positions advance TH's counters. The flat
 *     element range is split over threads with ParallelFor (each chunk recomputes its start);
 *  5. when one operand is contiguous along the second-innermost dimension but strided along
 *     the innermost (a transpose), runs are handed out tile by tile (cache blocking).
 * A run is `contiguous` when every operand's stride equals its element size, so the kernel can
 * use its SIMD form.
 */
#ifndef SHADE_NDARRAY_APPLY_H_
#define SHADE_NDARRAY_APPLY_H_

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "shade/backend/cpu/parallel.h"
#include "shade/base/error.h"
#include "shade/base/index.h"
#include "shade/ndarray/device.h"
#include "shade/ndarray/ndarray.h"

namespace shade {

/*! \brief How the engine may iterate. */
struct ApplyOptions {
  /*! \brief Elements per thread below which the work stays on the calling thread. */
  index_t grain = kMapGrain;
  /*!
   * \brief Visit elements in row-major logical order on one thread (no reordering, tiling
   *  or threads), for kernels whose result depends on the order (TH's `i++` fill).
   */
  bool ordered = false;
};

/*! \brief One innermost run handed to a kernel. */
template <int N>
struct StridedRun {
  /*! \brief Pointer to the run's first element, per operand. */
  std::array<char*, N> data;
  /*! \brief Byte stride between consecutive elements, per operand (0: broadcast). */
  std::array<index_t, N> stride;
  /*! \brief Number of elements. */
  index_t n;
  /*! \brief True when every stride equals its operand's element size. */
  bool contiguous;
};

/*!
 * \brief A block of runs handed to kernels that provide `Tile(const StridedTile<N>&)` (used
 *  for tiled plans, e.g. a register-blocked transpose); other kernels get the rows as runs.
 */
template <int N>
struct StridedTile {
  /*! \brief Pointer to element (0, 0), per operand. */
  std::array<char*, N> data;
  /*! \brief Byte stride between rows (the second-innermost dimension), per operand. */
  std::array<index_t, N> row_stride;
  /*! \brief Byte stride between columns (the run direction), per operand. */
  std::array<index_t, N> col_stride;
  index_t rows;  ///< Rows of the block.
  index_t cols;  ///< Columns of the block.
};

namespace detail {
template <typename K, int N, typename = void>
struct HasTileKernel : std::false_type {};
template <typename K, int N>
struct HasTileKernel<K, N,
                     decltype(void(std::declval<K&>().Tile(std::declval<const StridedTile<N>&>())))>
    : std::true_type {};
}  // namespace detail

/*! \brief The engine's iteration plan: collapsed dimensions and byte strides (see file comment). */
struct ApplyPlan {
  /*! \brief Number of operands. */
  int nops = 0;
  /*! \brief Dimensions after dropping, reordering and merging (>= 1 unless numel == 0). */
  int ndim = 0;
  /*! \brief Sizes, outermost first. */
  std::vector<index_t> sizes;
  /*! \brief Byte strides: stride of dimension d for operand k is strides[d * nops + k]. */
  std::vector<index_t> strides;
  /*! \brief Element size per operand. */
  std::vector<index_t> itemsize;
  /*! \brief Total elements. */
  index_t numel = 0;
  /*! \brief True when runs are handed out in tile x tile blocks of the two inner dims. */
  bool tiled = false;
  /*! \brief Tile edge (elements) when tiled. */
  index_t tile = 0;
  /*! \brief True when the innermost run is contiguous for every operand. */
  bool inner_contiguous = false;
};

/*!
 * \brief Builds the plan for operands of shape `sizes` with element strides `strides[k]`
 *  (each of sizes.size() entries, >= 0) and element sizes `itemsize[k]`.
 */
ApplyPlan MakeApplyPlan(IndexSpan sizes, const IndexSpan* strides, const index_t* itemsize,
                        int nops, const ApplyOptions& opt);

/*!
 * \brief TH_TENSOR_APPLY's setup for one tensor, verbatim from note 001: the innermost
 *  non-size-1 dimension gives `*stride`; `*size` is the largest contiguous section at the
 *  inner end (strides equal to the running size); `*dim` is the last dimension the counters
 *  still walk (-1 when the section covers everything).
 */
void THContiguousSection(IndexSpan sizes, IndexSpan strides, index_t* dim, index_t* size,
                         index_t* stride);

namespace detail {

/*! \brief Largest rank after dropping size-1 dims (2^63 elements allow at most 63 dims of size >=
 * 2). */
constexpr int kMaxApplyDims = 64;

/*! \brief Runs `k` over the flat element range [b, e) of the plan. */
template <int N, typename Kernel>
void ApplyRange(const ApplyPlan& p, const std::array<char*, N>& base, index_t b, index_t e,
                Kernel& k) {
  const int nd = p.ndim;
  const index_t* sz = p.sizes.data();
  const index_t* st = p.strides.data();
  index_t counter[kMaxApplyDims];
  StridedRun<N> run;
  run.data = base;
  index_t rem = b;
  for (int d = nd - 1; d >= 0; --d) {
    counter[d] = rem % sz[d];
    rem /= sz[d];
    for (int o = 0; o < N; ++o) run.data[o] += counter[d] * st[d * N + o];
  }
  const int in = nd - 1;
  for (int o = 0; o < N; ++o) run.stride[o] = st[in * N + o];
  run.contiguous = p.inner_contiguous;
  const index_t inner = sz[in];
  index_t pos = b;
  while (true) {
    const index_t len = std::min(inner - counter[in], e - pos);
    run.n = len;
    k(static_cast<const StridedRun<N>&>(run));
    pos += len;
    if (pos >= e) break;
    // The run ended at the end of the inner dimension: rewind it, then carry outward as TH
    // does, fixing the pointers instead of recomputing offsets.
    for (int o = 0; o < N; ++o) run.data[o] -= counter[in] * st[in * N + o];
    counter[in] = 0;
    for (int d = in - 1; d >= 0; --d) {
      ++counter[d];
      for (int o = 0; o < N; ++o) run.data[o] += st[d * N + o];
      if (counter[d] < sz[d]) break;
      for (int o = 0; o < N; ++o) run.data[o] -= counter[d] * st[d * N + o];
      counter[d] = 0;
    }
  }
}

/*! \brief Runs `k` over tile units [b, e) of a tiled plan. */
template <int N, typename Kernel>
void ApplyTiles(const ApplyPlan& p, const std::array<char*, N>& base, index_t b, index_t e,
                Kernel& k) {
  const int nd = p.ndim;
  const index_t* sz = p.sizes.data();
  const index_t* st = p.strides.data();
  const index_t rows = sz[nd - 2], cols = sz[nd - 1], t = p.tile;
  const index_t nrb = (rows + t - 1) / t, ncb = (cols + t - 1) / t;
  StridedRun<N> run;
  for (int o = 0; o < N; ++o) run.stride[o] = st[(nd - 1) * N + o];
  run.contiguous = p.inner_contiguous;
  for (index_t u = b; u < e; ++u) {
    const index_t cb = u % ncb;
    const index_t rb = (u / ncb) % nrb;
    index_t outer = u / (ncb * nrb);
    std::array<char*, N> ptr = base;
    for (int d = nd - 3; d >= 0; --d) {
      const index_t c = outer % sz[d];
      outer /= sz[d];
      for (int o = 0; o < N; ++o) ptr[o] += c * st[d * N + o];
    }
    const index_t r0 = rb * t, r1 = std::min(rows, r0 + t);
    const index_t c0 = cb * t;
    run.n = std::min(t, cols - c0);
    if constexpr (HasTileKernel<Kernel, N>::value) {
      StridedTile<N> tile;
      for (int o = 0; o < N; ++o) {
        tile.row_stride[o] = st[(nd - 2) * N + o];
        tile.col_stride[o] = st[(nd - 1) * N + o];
        tile.data[o] = ptr[o] + r0 * tile.row_stride[o] + c0 * tile.col_stride[o];
      }
      tile.rows = r1 - r0;
      tile.cols = run.n;
      k.Tile(static_cast<const StridedTile<N>&>(tile));
      continue;
    }
    for (index_t r = r0; r < r1; ++r) {
      for (int o = 0; o < N; ++o) {
        run.data[o] = ptr[o] + r * st[(nd - 2) * N + o] + c0 * st[(nd - 1) * N + o];
      }
      k(static_cast<const StridedRun<N>&>(run));
    }
  }
}

}  // namespace detail

/*!
 * \brief Executes a plan: `k(const StridedRun<N>&)` is called once per run, possibly from
 *  several threads at once (never with overlapping output elements).
 */
template <int N, typename Kernel>
void ExecuteApplyPlan(const ApplyPlan& p, const std::array<char*, N>& base, Kernel&& k,
                      const ApplyOptions& opt = ApplyOptions()) {
  SHADE_CHECK_EQ(p.nops, N) << "ExecuteApplyPlan: plan built for a different operand count";
  if (p.numel == 0) return;
  if (p.tiled) {
    const index_t nd = p.ndim, t = p.tile;
    index_t units = (p.sizes[nd - 2] + t - 1) / t * ((p.sizes[nd - 1] + t - 1) / t);
    for (index_t d = 0; d + 2 < nd; ++d) units *= p.sizes[d];
    ParallelFor(0, units, std::max<index_t>(1, opt.grain / (t * t)),
                [&](index_t b, index_t e) { detail::ApplyTiles<N>(p, base, b, e, k); });
    return;
  }
  if (opt.ordered) {
    detail::ApplyRange<N>(p, base, 0, p.numel, k);
  } else {
    ParallelFor(0, p.numel, opt.grain,
                [&](index_t b, index_t e) { detail::ApplyRange<N>(p, base, b, e, k); });
  }
}

/*!
 * \brief Applies `k(const StridedRun<N>&)` over N NDArrays of one shape (any strides, any
 *  element types). Throws shade::Error naming the operand for an undefined or unallocated
 *  operand or a shape mismatch.
 */
template <int N, typename Kernel>
void ApplyNDArrays(const std::array<NDArray, N>& ops, Kernel&& k,
                   const ApplyOptions& opt = ApplyOptions()) {
  static_assert(N >= 1, "ApplyNDArrays: at least one operand");
  std::array<IndexSpan, N> strides;
  std::array<index_t, N> itemsize;
  std::array<char*, N> base;
  for (int o = 0; o < N; ++o) {
    SHADE_CHECK(ops[o].defined()) << "apply: operand " << o << " is an undefined NDArray";
    SHADE_CHECK_SHAPE(ops[o].sizes() == ops[0].sizes())
        << "apply: operand " << o << " has sizes " << ops[o].sizes() << ", operand 0 has "
        << ops[0].sizes();
    SHADE_CHECK_TYPE(ops[o].dtype().initialized())
        << "apply: operand " << o << " has no element type yet";
    SHADE_CHECK(ops[o].data_ptr() != nullptr || ops[o].numel() == 0)
        << "apply: operand " << o << " (" << ops[o] << ") has no memory allocated";
    strides[o] = ops[o].strides();
    itemsize[o] = static_cast<index_t>(ops[o].itemsize());
    base[o] = static_cast<char*>(ops[o].data_ptr());
  }
  std::array<const NDArray*, N> devices;
  for (int o = 0; o < N; ++o) devices[o] = &ops[o];
  CheckDevices("apply", devices.data(), N);
  const ApplyPlan plan = MakeApplyPlan(ops[0].sizes(), strides.data(), itemsize.data(), N, opt);
  ExecuteApplyPlan<N>(plan, base, k, opt);
}

namespace detail {
template <typename... Ts, typename F, std::size_t... I>
void ApplyTypedImpl(F& f, const std::array<NDArray, sizeof...(Ts)>& ops, const ApplyOptions& opt,
                    std::index_sequence<I...>) {
  constexpr int N = static_cast<int>(sizeof...(Ts));
  const bool types_ok[] = {ops[I].template IsType<Ts>()...};
  for (int o = 0; o < N; ++o) {
    SHADE_CHECK_TYPE(types_ok[o]) << "apply: operand " << o << " holds " << ops[o].dtype().name()
                                  << ", the kernel expects another type";
  }
  ApplyNDArrays<N>(
      ops,
      [&f](const StridedRun<N>& r) {
        if (r.contiguous) {
          // Unit strides: plain indexing lets the compiler vectorise.
          for (index_t i = 0; i < r.n; ++i) f(reinterpret_cast<Ts*>(r.data[I])[i]...);
        } else {
          for (index_t i = 0; i < r.n; ++i) {
            f(*reinterpret_cast<Ts*>(r.data[I] + i * r.stride[I])...);
          }
        }
      },
      opt);
}
}  // namespace detail

/*!
 * \brief Typed element-wise apply: `f(T0& x0, T1& x1, ...)` for every element position of the
 *  same-shaped arrays (the NDArray form of TH_TENSOR_APPLY / APPLY2 / APPLY3). With
 *  `opt.ordered` elements are visited in row-major order on one thread.
 */
template <typename... Ts, typename F, typename... A>
void ApplyElementwise(F&& f, const ApplyOptions& opt, const A&... arrays) {
  static_assert(sizeof...(Ts) == sizeof...(A), "ApplyElementwise: one type per array");
  static_assert(sizeof...(Ts) >= 1, "ApplyElementwise: at least one array");
  const std::array<NDArray, sizeof...(Ts)> ops{arrays...};
  detail::ApplyTypedImpl<Ts...>(f, ops, opt, std::index_sequence_for<Ts...>{});
}

}  // namespace shade

#endif  // SHADE_NDARRAY_APPLY_H_
