/*!
 * \file reduce.h
 * \brief Vectorised, threaded CPU reductions: full reduction (sum/max/min or any reducer),
 *  argmax/argmin, and the axis reduction of a [outer, len, inner] block (axis 0 of a row-major
 *  matrix when outer = 1, axis 1 when inner = 1) that the static reductions (sumall_except_dim,
 *  reduce_except_dim, sum_rows, reduce_with_axis) and NDArray reductions call.
 *
 * ## Reducer protocol (mshadow's red::)
 * A struct with `template <class T> static void SetInitValue(T&)` and
 * `template <class T> static void Reduce(T& dst, T src)`, and optionally the packet form
 * `template <class D, class V> static V ReducePacket(D d, V dst, V src)`, lanewise identical to
 * Reduce. Without it the reductions run Reduce element by element (same blocking, same result
 * structure). functor/op.h's red::{sum, maximum, minimum} (maximum: `if (dst < src) dst = src`)
 * carry the packet form.
 *
 * ## Summation order and error bound
 * The data is cut into fixed blocks of kReduceBlock elements. Inside a block, 4 vector
 * accumulators of N lanes take every 4N-th element in turn (a partial last vector, padded with
 * the identity, goes into the second), then they are combined ((a0+a1)+(a2+a3)) into one
 * vector per block. Block vectors are combined by a balanced binary tree (split at the middle
 * block), lanewise; only the root's N lanes are summed, in order. The order depends only on
 * n and the compile target, never on the thread count (threads compute whole subtrees of the
 * same tree), so threaded results are bit-identical to serial ones. Every element goes
 * through at most
 *   k(n) = ceil(kReduceBlock / (4N)) + 3 + ceil(log2(ceil(n / kReduceBlock))) + (N - 1)
 * roundings, so for a float/double sum (unit roundoff u = eps/2)
 *   |computed - exact| <= k(n) u / (1 - k(n) u) * sum |x_i|        (SumErrorBound below).
 * For 2^25 floats with AVX-512 (N = 16) k = 32 + 3 + 14 + 15 = 64: relative error <= 3.8e-6 of
 * sum |x_i|, against ~2^25 u = 2 for a naive running sum.
 */
#ifndef SHADE_BACKEND_CPU_REDUCE_H_
#define SHADE_BACKEND_CPU_REDUCE_H_

#include <hwy/cache_control.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "shade/backend/cpu/kernels.h"
#include "shade/backend/cpu/parallel.h"
#include "shade/base/checked.h"
#include "shade/base/error.h"
#include "shade/base/index.h"
#include "shade/functor/op.h"
#include "shade/packet/packet.h"

namespace shade {
namespace kernel {

SHADE_TARGET_NAMESPACE_BEGIN

/*! \brief Elements per leaf block of a full reduction (fixed: it defines the summation order). */
constexpr index_t kReduceBlock = 2048;
/*! \brief How far ahead (bytes) the full reduction's block loop prefetches. */
constexpr index_t kReducePrefetchBytes = 1536;
/*! \brief Rows per leaf of the axis reduction's pairwise tree over rows. */
constexpr index_t kReduceRowLeaf = 32;
/*!
 * \brief Widest column tile of the axis reduction (vectorised across). Wide on purpose: with a
 *  tile as wide as the row, a leaf's rows are one contiguous stream (4096 columns: 7.8 ms
 *  against 11 ms with 512-column tiles that walk 2 KiB pieces of 16 KiB-apart rows); the
 *  accumulator row (16 KiB of floats) stays in L1.
 */
constexpr index_t kReduceColTile = 4096;

/*!
 * \brief The reducers are functor/op.h's `shade::red::sum`, maximum, minimum (with their packet
 *  folds): one set for the whole library. The alias keeps the `kernel::red::sum` spelling valid.
 */
namespace red = ::shade::red;

namespace detail {
template <class Red, class T, class = void>
struct ReducerHasPacket : std::false_type {};
template <class Red, class T>
struct ReducerHasPacket<Red, T,
                        std::void_t<decltype(Red::ReducePacket(
                            std::declval<packet::Tag<T>>(), std::declval<packet::Vec<T>>(),
                            std::declval<packet::Vec<T>>()))>> : std::true_type {};
template <class Red, class T>
constexpr bool kReducePacket = packet::kIsLane<T>&& ReducerHasPacket<Red, T>::value;

template <class Red, class T>
SHADE_XINLINE T InitValue() {
  T v;
  Red::SetInitValue(v);
  return v;
}

// The accumulator of the full reduction is one vector of N lanes on the packet path (a block's
// accumulators fold into it and the block tree combines whole vectors; the N lanes are folded
// only once, at the root) and one T otherwise. Folding lanes per block instead cost a store and
// N - 1 dependent scalar operations every kReduceBlock elements.

// One leaf block (any length), serial, as an accumulator. The order is in the file comment.
// `avail` (>= n) elements are readable from x on: the loop prefetches kReducePrefetchBytes ahead
// within them, into the next block. One thread alone does not keep enough line fills in flight
// for the memory bandwidth; 1-1.5 KiB ahead measured 15.0-15.2 ms against 16.8 ms without for
// 2^25 floats at 1 thread (256 B and 3 KiB ahead: no better than none).
template <class Red, class T>
HWY_INLINE auto ReduceBlockAcc(index_t n, const T* x, index_t avail) {
  const T init = InitValue<Red, T>();
  if constexpr (kReducePacket<Red, T>) {
    const packet::Tag<T> d;
    const index_t N = static_cast<index_t>(hn::Lanes(d));
    auto a0 = hn::Set(d, init), a1 = a0, a2 = a0, a3 = a0;
    const index_t ahead = kReducePrefetchBytes / static_cast<index_t>(sizeof(T));
    index_t i = 0;
    for (; i + 4 * N <= n; i += 4 * N) {
      if (i + ahead + 4 * N <= avail) {
        const char* p = reinterpret_cast<const char*>(x + i + ahead);
        for (size_t b = 0; b < 4 * N * sizeof(T); b += 64) hwy::Prefetch(p + b);
      }
      a0 = Red::ReducePacket(d, a0, hn::LoadU(d, x + i));
      a1 = Red::ReducePacket(d, a1, hn::LoadU(d, x + i + N));
      a2 = Red::ReducePacket(d, a2, hn::LoadU(d, x + i + 2 * N));
      a3 = Red::ReducePacket(d, a3, hn::LoadU(d, x + i + 3 * N));
    }
    for (; i + N <= n; i += N) a0 = Red::ReducePacket(d, a0, hn::LoadU(d, x + i));
    if (i < n) {  // tail padded with the identity
      TailBuf<T> buf;
      for (index_t k = 0; k < N; ++k) buf.v[k] = i + k < n ? x[i + k] : init;
      a1 = Red::ReducePacket(d, a1, hn::Load(d, buf.v));
    }
    return Red::ReducePacket(d, Red::ReducePacket(d, a0, a1), Red::ReducePacket(d, a2, a3));
  } else {
    T r = init;
    for (index_t i = 0; i < n; ++i) Red::Reduce(r, x[i]);
    return r;
  }
}

template <class Red, class T, class A>
HWY_INLINE A CombineAcc(A a, A b) {
  if constexpr (kReducePacket<Red, T>) {
    return Red::ReducePacket(packet::Tag<T>(), a, b);
  } else {
    Red::Reduce(a, b);
    return a;
  }
}

// Folds an accumulator's lanes in order (lane 0 first) into the result.
template <class Red, class T, class A>
HWY_INLINE T FinishAcc(A a) {
  if constexpr (kReducePacket<Red, T>) {
    const packet::Tag<T> d;
    TailBuf<T> buf;
    hn::Store(a, d, buf.v);
    T r = buf.v[0];
    for (size_t k = 1; k < hn::Lanes(d); ++k) Red::Reduce(r, buf.v[k]);
    return r;
  } else {
    return a;
  }
}

// Balanced tree over blocks [lo, hi) of x (n elements), computing each leaf on demand.
template <class Red, class T>
auto ReduceTreeAcc(index_t lo, index_t hi, index_t n, const T* x) {
  if (hi - lo == 1) {
    const index_t b = lo * kReduceBlock;
    return ReduceBlockAcc<Red>(std::min(kReduceBlock, n - b), x + b, n - b);
  }
  const index_t mid = lo + (hi - lo) / 2;
  const auto l = ReduceTreeAcc<Red>(lo, mid, n, x);
  return CombineAcc<Red, T>(l, ReduceTreeAcc<Red>(mid, hi, n, x));
}

// The nodes at depth `cut` (or leaves above it: ranges of at most `leaf`) of a balanced tree
// over [lo, hi) split at lo + (hi - lo) / 2, left to right, as the end of each node's range:
// the pieces a threaded reduction computes independently. Serves the block tree of full
// reductions (leaf 1) and the row tree of axis-0 tiles (leaf kReduceRowLeaf).
// At most 2^kMaxFrontierDepth pieces (more than any thread count needs; the combined result
// does not depend on the depth). A fixed array: nothing from std::vector is instantiated here.
constexpr int kMaxFrontierDepth = 10;
struct Frontier {
  index_t end[(1 << kMaxFrontierDepth) + 1] = {0};  // end[0] = 0, then each piece's end
  index_t count = 1;
  index_t size() const { return count; }
  index_t operator[](index_t i) const { return end[i]; }
};
inline void TreeFrontier(index_t lo, index_t hi, int depth, int cut, index_t leaf,
                         Frontier& bounds) {
  if (depth == cut || hi - lo <= leaf) {
    bounds.end[bounds.count++] = hi;
    return;
  }
  const index_t mid = lo + (hi - lo) / 2;
  TreeFrontier(lo, mid, depth + 1, cut, leaf, bounds);
  TreeFrontier(mid, hi, depth + 1, cut, leaf, bounds);
}
// The top of the tree above the frontier: combines the frontier's accumulators (stored N lanes
// each in acc, consumed left to right through *next) in the same order as ReduceTreeAcc.
template <class Red, class T>
auto CombineFrontier(index_t lo, index_t hi, int depth, int cut, const T* acc, index_t& next) {
  if (depth == cut || hi - lo == 1) {
    const index_t k = next++;
    if constexpr (kReducePacket<Red, T>) {
      const packet::Tag<T> d;
      return hn::LoadU(d, acc + k * static_cast<index_t>(hn::Lanes(d)));
    } else {
      return acc[k];
    }
  }
  const index_t mid = lo + (hi - lo) / 2;
  const auto l = CombineFrontier<Red>(lo, mid, depth + 1, cut, acc, next);
  return CombineAcc<Red, T>(l, CombineFrontier<Red>(mid, hi, depth + 1, cut, acc, next));
}
}  // namespace detail

/*! \brief Lanes per accumulator of the full reduction for T (1 on the scalar path). */
template <class Red, class T>
inline index_t ReduceLanes() {
  if constexpr (detail::kReducePacket<Red, T>) {
    return static_cast<index_t>(packet::Lanes<T>());
  } else {
    return 1;
  }
}

/*!
 * \brief k(n) of the file comment: the most roundings any element goes through in a sum of n
 *  elements of T; the error bound is k u / (1 - k u) * sum |x|.
 */
template <class T>
inline index_t SumRoundingDepth(index_t n) {
  const index_t N = ReduceLanes<red::sum, T>();
  index_t blocks = (n + kReduceBlock - 1) / kReduceBlock, levels = 0;
  while ((index_t(1) << levels) < blocks) ++levels;
  return (kReduceBlock + 4 * N - 1) / (4 * N) + 3 + (N - 1) + levels;
}
/*! \brief The stated bound on |computed - exact| for a sum of n values whose |x| sum to abs_sum. */
template <class T>
inline double SumErrorBound(index_t n, double abs_sum) {
  const double ku =
      static_cast<double>(SumRoundingDepth<T>(n)) * std::numeric_limits<T>::epsilon() / 2;
  return ku / (1 - ku) * abs_sum;
}

/*! \brief Serial full reduction of x[0..n) with reducer Red (the init value when n == 0). */
template <class Red, class T>
T ReduceAllRun(index_t n, const T* x) {
  if (n <= 0) return detail::InitValue<Red, T>();
  return detail::FinishAcc<Red, T>(
      detail::ReduceTreeAcc<Red>(0, (n + kReduceBlock - 1) / kReduceBlock, n, x));
}

/*!
 * \brief Threaded full reduction; bit-identical to ReduceAllRun for every thread count: the
 *  threads compute whole subtrees of the same block tree (its nodes at depth ceil(log2 threads))
 *  and the calling thread combines them as the serial recursion would.
 */
template <class Red, class T>
T ReduceAll(index_t n, const T* x) {
  SHADE_CHECK_GE(n, 0) << "ReduceAll: negative element count";
  const index_t blocks = (n + kReduceBlock - 1) / kReduceBlock;
  const index_t grain = std::max<index_t>(1, kMapGrain / kReduceBlock);
  const int threads = GetNumThreads();
  if (blocks < 2 * grain || threads == 1 || InParallelRegion()) return ReduceAllRun<Red>(n, x);
  int cut = 0;
  while (cut < detail::kMaxFrontierDepth && (1 << cut) < threads) ++cut;
  detail::Frontier bounds;
  detail::TreeFrontier(0, blocks, 0, cut, 1, bounds);
  const index_t pieces = static_cast<index_t>(bounds.size()) - 1;
  const index_t lanes = ReduceLanes<Red, T>();
  std::vector<T> acc(static_cast<size_t>(pieces * lanes));
  ParallelFor(0, pieces, 1, [&](index_t b, index_t e) {
    for (index_t p = b; p < e; ++p) {
      const auto a = detail::ReduceTreeAcc<Red>(bounds[p], bounds[p + 1], n, x);
      if constexpr (detail::kReducePacket<Red, T>) {
        hn::StoreU(a, packet::Tag<T>(), acc.data() + p * lanes);
      } else {
        acc[static_cast<size_t>(p)] = a;
      }
    }
  });
  index_t next = 0;
  return detail::FinishAcc<Red, T>(
      detail::CombineFrontier<Red>(0, blocks, 0, cut, acc.data(), next));
}

/*! \brief Sum of x[0..n), within SumErrorBound (threaded). */
template <class T>
T Sum(index_t n, const T* x) {
  return ReduceAll<red::sum>(n, x);
}
/*! \brief Largest of x[0..n) (NaNs skipped; -inf when n == 0, as NumPy's fmax.reduce). */
template <class T>
T MaxAll(index_t n, const T* x) {
  return ReduceAll<red::maximum_from_inf>(n, x);
}
/*! \brief Smallest of x[0..n) (NaNs skipped; +inf when n == 0). */
template <class T>
T MinAll(index_t n, const T* x) {
  return ReduceAll<red::minimum_from_inf>(n, x);
}

namespace detail {
// Axis-0 reduction of rows [r0, r1) of a tile w columns wide into acc[0..w); scratch holds
// w elements per further tree level. Leaves of kReduceRowLeaf rows fold rows in order; leaves
// combine by a balanced tree, so a column's result depends only on the row count.
template <class Red, class T>
void Axis0Tile(index_t r0, index_t r1, index_t w, const T* x, index_t ld, T* acc, T* scratch) {
  if (r1 - r0 <= kReduceRowLeaf) {
    const T init = InitValue<Red, T>();
    for (index_t j = 0; j < w; ++j) acc[j] = init;
    for (index_t r = r0; r < r1; ++r) {
      const T* row = x + r * ld;
      index_t j = 0;
      if constexpr (kReducePacket<Red, T>) {
        const packet::Tag<T> d;
        const index_t N = static_cast<index_t>(hn::Lanes(d));
        const index_t ahead = kReducePrefetchBytes / static_cast<index_t>(sizeof(T));
        for (; j + N <= w; j += N) {
          if (j + ahead < w) hwy::Prefetch(row + j + ahead);
          hn::StoreU(Red::ReducePacket(d, hn::LoadU(d, acc + j), hn::LoadU(d, row + j)), d,
                     acc + j);
        }
      }
      for (; j < w; ++j) Red::Reduce(acc[j], row[j]);
    }
    return;
  }
  const index_t mid = r0 + (r1 - r0) / 2;
  Axis0Tile<Red>(r0, mid, w, x, ld, acc, scratch + w);
  Axis0Tile<Red>(mid, r1, w, x, ld, scratch, scratch + w);
  index_t j = 0;
  if constexpr (kReducePacket<Red, T>) {
    const packet::Tag<T> d;
    const index_t N = static_cast<index_t>(hn::Lanes(d));
    for (; j + N <= w; j += N) {
      hn::StoreU(Red::ReducePacket(d, hn::LoadU(d, acc + j), hn::LoadU(d, scratch + j)), d,
                 acc + j);
    }
  }
  for (; j < w; ++j) Red::Reduce(acc[j], scratch[j]);
}

inline index_t TreeDepth(index_t rows) {
  index_t depth = 1;
  while (rows > kReduceRowLeaf) {
    rows = rows - rows / 2;
    ++depth;
  }
  return depth;
}

// Combines the w-wide rows of the frontier pieces (parts, `stride` apart, taken left to right
// through *next) as Axis0Tile's tree does: the left node accumulates the right one. Returns the
// row holding the result (the leftmost piece's).
template <class Red, class T>
T* CombineRowFrontier(index_t r0, index_t r1, int depth, int cut, index_t w, index_t stride,
                      T* parts, index_t& next) {
  if (depth == cut || r1 - r0 <= kReduceRowLeaf) return parts + (next++) * stride;
  const index_t mid = r0 + (r1 - r0) / 2;
  T* acc = CombineRowFrontier<Red>(r0, mid, depth + 1, cut, w, stride, parts, next);
  const T* rhs = CombineRowFrontier<Red>(mid, r1, depth + 1, cut, w, stride, parts, next);
  for (index_t j = 0; j < w; ++j) Red::Reduce(acc[j], rhs[j]);
  return acc;
}

// Axis reduction with inner > 1: out[o * inner + j] = SV(.., Red over l of x[o * ostride +
// l * ld + j]). Work items are (outer index, column tile, row piece). Column tiles are as wide
// as kReduceColTile allows (equal widths, rounded to 16 columns). When there are fewer
// (outer, tile) pairs than threads, the row tree is cut at depth ceil(log2(threads / pairs)):
// each thread reduces whole subtrees (contiguous row ranges, streamed) into a partial row and
// the partial rows are combined as the tree would. Every column's order depends only on len,
// so the result is bit-identical for every thread count.
template <class Red, class SV, class T>
void ReduceColumns(index_t outer, index_t len, index_t inner, const T* x, index_t ld,
                   index_t ostride, T* out) {
  if (outer == 0 || inner == 0) return;
  const index_t ntiles = (inner + kReduceColTile - 1) / kReduceColTile;
  const index_t tw = std::min(inner, ((inner + ntiles - 1) / ntiles + 15) / 16 * 16);
  const index_t tiles = (inner + tw - 1) / tw;
  const index_t units = outer * tiles;
  int cut = 0;
  const int threads = GetNumThreads();
  if (threads > 1 && !InParallelRegion() && len > 2 * kReduceRowLeaf && len * tw >= 4 * kMapGrain) {
    while (cut < 8 && (units << cut) < threads) ++cut;
  }
  Frontier bounds;
  if (len > 0) TreeFrontier(0, len, 0, cut, kReduceRowLeaf, bounds);
  const index_t pieces = std::max<index_t>(1, static_cast<index_t>(bounds.size()) - 1);
  const index_t depth = TreeDepth(std::max<index_t>(len, 1));
  const index_t piece_work = std::max<index_t>(1, (len / pieces) * tw);
  const index_t grain = std::max<index_t>(1, kMapGrain / piece_work);
  std::vector<T> parts(pieces > 1 ? static_cast<size_t>(units * pieces * tw) : 0);
  auto save = [&](index_t u, const T* acc) {
    const index_t o = u / tiles, c0 = (u % tiles) * tw, w = std::min(tw, inner - c0);
    T* dst = out + o * inner + c0;
    for (index_t j = 0; j < w; ++j) SV::Save(dst[j], acc[j]);
  };
  ParallelFor(0, units * pieces, grain, [&](index_t b, index_t e) {
    std::vector<T> buf(static_cast<size_t>(tw * (depth + 1)));
    for (index_t t = b; t < e; ++t) {
      const index_t u = t / pieces, p = t % pieces;
      const index_t o = u / tiles, c0 = (u % tiles) * tw, w = std::min(tw, inner - c0);
      T* acc = pieces > 1 ? parts.data() + t * tw : buf.data();
      if (len == 0) {
        for (index_t j = 0; j < w; ++j) acc[j] = InitValue<Red, T>();
      } else {
        Axis0Tile<Red>(bounds[p], bounds[p + 1], w, x + o * ostride + c0, ld, acc, buf.data() + tw);
      }
      if (pieces == 1) save(u, acc);
    }
  });
  if (pieces > 1) {
    for (index_t u = 0; u < units; ++u) {
      const index_t w = std::min(tw, inner - (u % tiles) * tw);
      index_t next = 0;
      save(u, CombineRowFrontier<Red>(0, len, 0, cut, w, tw, parts.data() + u * pieces * tw, next));
    }
  }
}

inline void CheckReduceArgs(index_t outer, index_t len, index_t inner, const char* who) {
  SHADE_CHECK_SHAPE(outer >= 0 && len >= 0 && inner >= 0)
      << who << ": negative extent outer=" << outer << " len=" << len << " inner=" << inner;
  // outer * len * inner must fit int64. Checked here, in the target's namespace, rather than by
  // base/checked.h's CheckedProduct: a compiler may emit that inline function out of line in a
  // per-target object, where it would be shared across SIMD targets (check-target-symbols.py).
  index_t block;
  SHADE_CHECK_SHAPE(!__builtin_mul_overflow(outer, len, &block) &&
                    !__builtin_mul_overflow(block, inner, &block))
      << who << ": reduced block size overflows int64: " << outer << " * " << len << " * " << inner;
}
}  // namespace detail

/*!
 * \brief Reduces axis 1 of the row-major block x[outer][len][inner] (dense), saving
 *  SV(out[o * inner + j], Red over l of x[o][l][j]). A row-major matrix's axis-0 reduction is
 *  outer = 1, len = rows, inner = cols; its axis-1 reduction is outer = rows, len = cols,
 *  inner = 1. len == 0 saves the reducer's init value. Threaded; bit-identical for any thread
 *  count. For inner > 1 the columns are vectorised and rows combined by a pairwise tree of
 *  kReduceRowLeaf-row leaves (sum error <= (32 + ceil(log2(len/32))) u sum |x| per column);
 *  for inner == 1 each row is a full reduction (ReduceAllRun, bound as SumErrorBound).
 */
template <class Red, class SV = sv::saveto, class T>
void ReduceAxis(index_t outer, index_t len, index_t inner, const T* x, T* out) {
  detail::CheckReduceArgs(outer, len, inner, "ReduceAxis");
  if (outer == 0 || inner == 0) return;
  if (inner == 1) {
    const index_t grain = std::max<index_t>(1, kMapGrain / std::max<index_t>(len, 1));
    ParallelFor(0, outer, grain, [&](index_t b, index_t e) {
      for (index_t o = b; o < e; ++o) SV::Save(out[o], ReduceAllRun<Red>(len, x + o * len));
    });
    return;
  }
  detail::ReduceColumns<Red, SV>(outer, len, inner, x, inner, len * inner, out);
}

/*! \brief out[j] = SV(out[j], Red over rows of x[i][j]) for a rows x cols matrix with row pitch
 *  ld >= cols (padded rows are read in place). */
template <class Red, class SV = sv::saveto, class T>
void ReduceRows(index_t rows, index_t cols, const T* x, index_t ld, T* out) {
  SHADE_CHECK(rows >= 0 && cols >= 0) << "ReduceRows: negative size " << rows << "x" << cols;
  SHADE_CHECK_GE(ld, cols) << "ReduceRows: row pitch smaller than the row length";
  if (ld == cols) return ReduceAxis<Red, SV>(1, rows, cols, x, out);
  detail::ReduceColumns<Red, SV>(1, rows, cols, x, ld, 0, out);
}

/*! \brief out[i] = SV(out[i], Red over x[i][0..cols)) for a rows x cols matrix with pitch ld. */
template <class Red, class SV = sv::saveto, class T>
void ReduceCols(index_t rows, index_t cols, const T* x, index_t ld, T* out) {
  SHADE_CHECK(rows >= 0 && cols >= 0) << "ReduceCols: negative size " << rows << "x" << cols;
  SHADE_CHECK_GE(ld, cols) << "ReduceCols: row pitch smaller than the row length";
  const index_t grain = std::max<index_t>(1, kMapGrain / std::max<index_t>(cols, 1));
  ParallelFor(0, rows, grain, [&](index_t b, index_t e) {
    for (index_t i = b; i < e; ++i) SV::Save(out[i], ReduceAllRun<Red>(cols, x + i * ld));
  });
}

namespace detail {
template <bool kMax, class T>
SHADE_XINLINE bool IsNan(T v) {
  if constexpr (std::is_floating_point<T>::value) {
    return std::isnan(v);
  } else {
    return false;
  }
}
// True when v replaces best as the arg-extremum: strictly better, or the first NaN (NaN wins,
// as in NumPy's argmax/argmin).
template <bool kMax, class T>
SHADE_XINLINE bool Better(T v, T best) {
  if (IsNan<kMax>(best)) return false;
  if (IsNan<kMax>(v)) return true;
  return kMax ? best < v : v < best;
}

template <bool kMax, class T>
index_t ArgExtremum(index_t n, const T* x) {
  SHADE_CHECK_GT(n, 0) << (kMax ? "ArgMax" : "ArgMin") << ": empty sequence";
  // Pass 1 (vectorised, threaded): the extremum ignoring NaN.
  const T m = kMax ? MaxAll(n, x) : MinAll(n, x);
  // Pass 2 (vectorised): the first element that is NaN or equal to m; if it is not a NaN, the
  // rest is still scanned for a NaN, which would win.
  index_t found = -1, i = 0;
  if constexpr (packet::kIsLane<T>) {
    const packet::Tag<T> d;
    const index_t N = static_cast<index_t>(hn::Lanes(d));
    const auto target = hn::Set(d, m);
    for (; i + N <= n; i += N) {
      const auto v = hn::LoadU(d, x + i);
      // IsNaN, not Ne(v, v): AVX-512's ordered not-equal is false for NaN.
      auto nan = hn::Ne(v, v);
      if constexpr (std::is_floating_point<T>::value) nan = hn::IsNaN(v);
      const intptr_t k = hn::FindFirstTrue(d, found < 0 ? hn::Or(nan, hn::Eq(v, target)) : nan);
      if (k >= 0) {
        const index_t at = i + static_cast<index_t>(k);
        if (IsNan<kMax>(x[at])) return at;
        found = at;
        if (!std::is_floating_point<T>::value) return found;
        if (hn::FindFirstTrue(d, nan) >= 0) {  // a NaN after `at` in this same vector
          for (index_t q = at + 1; q < i + N; ++q) {
            if (IsNan<kMax>(x[q])) return q;
          }
        }
      }
    }
  }
  for (; i < n; ++i) {
    if (IsNan<kMax>(x[i])) return i;
    if (found < 0 && x[i] == m) {
      found = i;
      if (!std::is_floating_point<T>::value) return found;
    }
  }
  SHADE_CHECK_GE(found, 0) << (kMax ? "ArgMax" : "ArgMin") << ": input modified concurrently";
  return found;
}
}  // namespace detail

/*! \brief Index of the first maximum of x[0..n); a NaN counts as the maximum (first NaN wins),
 *  as in NumPy. Throws on n == 0. Vectorised and threaded. */
template <class T>
index_t ArgMax(index_t n, const T* x) {
  return detail::ArgExtremum<true>(n, x);
}
/*! \brief Index of the first minimum of x[0..n); a NaN counts as the minimum. Throws on n == 0. */
template <class T>
index_t ArgMin(index_t n, const T* x) {
  return detail::ArgExtremum<false>(n, x);
}

/*!
 * \brief Arg-extremum along axis 1 of x[outer][len][inner]: out[o * inner + j] = the l of the
 *  first maximum (kMax) or minimum of x[o][l][j], NaN winning as in ArgMax. len must be > 0.
 *  Columns are processed together (the inner loop runs over contiguous j); threaded over outer.
 */
template <bool kMax, class T, class I>
void ArgReduceAxis(index_t outer, index_t len, index_t inner, const T* x, I* out) {
  detail::CheckReduceArgs(outer, len, inner, "ArgReduceAxis");
  if (outer == 0 || inner == 0) return;
  SHADE_CHECK_GT(len, 0) << "ArgReduceAxis: empty reduced axis";
  if (inner == 1) {
    const index_t grain = std::max<index_t>(1, kMapGrain / len);
    ParallelFor(0, outer, grain, [&](index_t b, index_t e) {
      for (index_t o = b; o < e; ++o)
        out[o] = static_cast<I>(detail::ArgExtremum<kMax>(len, x + o * len));
    });
    return;
  }
  const index_t grain = std::max<index_t>(1, kMapGrain / (len * inner));
  ParallelFor(0, outer, grain, [&](index_t b, index_t e) {
    std::vector<T> best(static_cast<size_t>(inner));
    for (index_t o = b; o < e; ++o) {
      const T* src = x + o * len * inner;
      I* dst = out + o * inner;
      for (index_t j = 0; j < inner; ++j) {
        best[j] = src[j];
        dst[j] = I(0);
      }
      for (index_t l = 1; l < len; ++l) {
        const T* row = src + l * inner;
        for (index_t j = 0; j < inner; ++j) {
          if (detail::Better<kMax>(row[j], best[j])) {
            best[j] = row[j];
            dst[j] = static_cast<I>(l);
          }
        }
      }
    }
  });
}

SHADE_TARGET_NAMESPACE_END
}  // namespace kernel
}  // namespace shade

#endif  // SHADE_BACKEND_CPU_REDUCE_H_
