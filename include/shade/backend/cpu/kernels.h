/*!
 * \file kernels.h
 * \brief Contiguous CPU kernels: the loops both front ends (expression plans, NDArray's strided
 *  engine) run over every innermost contiguous run. Elementwise map of a functor over 1..3
 *  operands with a saver, fill, copy and typecast.
 *
 * Every function has two forms:
 *  - `XxxRun(...)`: one thread, for a caller that already parallelises an outer loop;
 *  - `Xxx(...)`: threaded through ParallelFor with a grain (kMapGrain) under which it runs inline.
 *
 * Alignment is never a precondition. The vector body uses unaligned loads/stores; the tail (the
 * last n % Lanes elements) is one partial packet (packet::LoadFirst / StoreFirst: masked, or
 * through a lane buffer where masked memory ops are not safe) computed by the SAME packet
 * function, so every element's result is independent of its position: threaded, strided and
 * single-threaded results are bit-identical, and unaligned heads need no special case.
 *
 * Operands are `const T*` (contiguous, n elements) or `Scalar<T>` (broadcast). dst may alias a
 * source exactly (in-place); partial overlap is undefined, as with memcpy.
 */
#ifndef SHADE_BACKEND_CPU_KERNELS_H_
#define SHADE_BACKEND_CPU_KERNELS_H_

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "hwy/cache_control.h"
#include "shade/backend/cpu/parallel.h"
#include "shade/base/error.h"
#include "shade/base/half.h"
#include "shade/base/index.h"
#include "shade/functor/op_registry.h"
#include "shade/functor/sv.h"
#include "shade/packet/packet.h"

namespace shade {
namespace kernel {

namespace hn = packet::hn;

SHADE_TARGET_NAMESPACE_BEGIN

// The grains live with ParallelFor (backend/cpu/parallel.h); the kernels' names for them.
using shade::kMapGrain;
using shade::kMathGrain;

/*!
 * \brief The savers are functor/sv.h's (`shade::sv::saveto`, plusto, minusto, multo, divto): one
 *  set for the whole library. Protocol: `template <class T> static void Save(T& dst, T v)`,
 *  optionally `static constexpr bool kReadsDst` (else `kBeta != 0`, else true) and a packet form:
 *  `template <class D, class V> static V SavePacket(D d, V dst, V v)` returning the new dst,
 *  or `using OPType = <binary functor with MapPacket>`. The packet form must be lanewise
 *  identical to Save. The alias keeps `kernel::sv::saveto` spelling valid for existing callers.
 */
namespace sv = ::shade::sv;

/*! \brief A broadcast scalar operand of a map kernel. */
template <class T>
struct Scalar {
  T value;  //!< the value every element sees
};
/*! \brief Makes a Scalar operand. */
template <class T>
Scalar<T> MakeScalar(T v) { return Scalar<T>{v}; }

namespace detail {
// A saver's packet form: its own SavePacket, or else the packet form of its element functor
// SV::OPType (the savers of functor/sv.h name one: op::plus for +=), once that functor has one.
template <class SV, class T, class = void>
struct SaverOwnPacket : std::false_type {};
template <class SV, class T>
struct SaverOwnPacket<SV, T,
                      std::void_t<decltype(SV::SavePacket(std::declval<packet::Tag<T>>(),
                                                          std::declval<packet::Vec<T>>(),
                                                          std::declval<packet::Vec<T>>()))>>
    : std::true_type {};
template <class SV, class T, class = void>
struct SaverOpPacket : std::false_type {};
template <class SV, class T>
struct SaverOpPacket<SV, T, std::void_t<typename SV::OPType>>
    : std::integral_constant<bool, packet::kHasPacketArity<typename SV::OPType, T, 2>> {};
template <class SV, class T>
struct SaverHasPacket
    : std::integral_constant<bool, SaverOwnPacket<SV, T>::value || SaverOpPacket<SV, T>::value> {};

template <class SV, class D, class V>
HWY_INLINE V SavePacketOf(D d, V dst, V v) {
  if constexpr (SaverOwnPacket<SV, hn::TFromD<D>>::value) {
    return SV::SavePacket(d, dst, v);
  } else {
    return SV::OPType::MapPacket(d, dst, v);
  }
}

// Whether the saver reads the old destination: SV::kReadsDst, else SV::kBeta != 0 (the BLAS
// weight of the old value that functor/sv.h declares), else assume it does.
template <class SV, class = void>
struct SaverBeta : std::true_type {};
template <class SV>
struct SaverBeta<SV, std::void_t<decltype(SV::kBeta)>> : std::integral_constant<bool, SV::kBeta != 0> {};
template <class SV, class = void>
struct SaverReadsDst : SaverBeta<SV> {};
template <class SV>
struct SaverReadsDst<SV, std::void_t<decltype(SV::kReadsDst)>>
    : std::integral_constant<bool, SV::kReadsDst> {};

template <class T>
struct OperandType;
template <class T>
struct OperandType<const T*> { using type = T; };
template <class T>
struct OperandType<T*> { using type = T; };
template <class T>
struct OperandType<Scalar<T>> { using type = T; };

template <class T>
SHADE_XINLINE T At(const T* p, index_t i) { return p[i]; }
template <class T>
SHADE_XINLINE T At(Scalar<T> s, index_t) { return s.value; }
template <class T>
SHADE_XINLINE const T* Advance(const T* p, index_t off) { return p + off; }
template <class T>
SHADE_XINLINE Scalar<T> Advance(Scalar<T> s, index_t) { return s; }
template <class D, class T>
HWY_INLINE hn::Vec<D> LoadAt(D d, const T* p, index_t i) { return hn::LoadU(d, p + i); }
template <class D, class T>
HWY_INLINE hn::Vec<D> LoadAt(D d, Scalar<T> s, index_t) { return hn::Set(d, s.value); }

/*! A lane-sized, vector-aligned scratch buffer (reduction tails). */
template <class T>
struct TailBuf {
  HWY_ALIGN T v[packet::kMaxLanes<T>];
};
// The first r lanes of an operand from element i on (packet::LoadFirst: nothing past i + r is
// read); a scalar fills every lane.
template <class D, class T>
HWY_INLINE hn::Vec<D> LoadFirstAt(D d, const T* p, index_t i, index_t r) {
  return packet::LoadFirst(d, p + i, static_cast<size_t>(r));
}
template <class D, class T>
HWY_INLINE hn::Vec<D> LoadFirstAt(D d, Scalar<T> s, index_t, index_t) {
  return hn::Set(d, s.value);
}

template <class SV, class OP, class T, class... S>
constexpr bool kMapPacket = packet::kHasPacketArity<OP, T, int(sizeof...(S))> &&
                            SaverHasPacket<SV, T>::value;

/*!
 * \brief THE row tail of every packet loop (the contiguous kernels here and the static element
 *  loop, expr/map.h): the last r < Lanes(d) elements from `i` on. It takes a full vector of
 *  each narrower width that fits (256, then 128 bits on AVX-512), then one partial packet of
 *  the narrowest width for what is left (packet::LoadFirst / StoreFirst: nothing outside
 *  [i, i + r) is read or written). Why: a short row (4 floats) as one masked 512-bit load, op
 *  and store took twice Eigen's time with plain 128-bit operations; full narrow vectors need
 *  no mask, and a masked narrow one is cheaper than a wide one. Every lane is computed by the
 *  same vector function, so a value never depends on its position.
 *  `eval(dn, i, n, partial)` returns the source packet of elements [i, i + n) for the tag dn;
 *  `partial` is std::true_type when only the first n < Lanes(dn) lanes may be read.
 */
template <class SV, class T, class D, class Eval>
HWY_INLINE void StepDownTail(D d, T* dst, index_t i, size_t r, const Eval& eval) {
  constexpr size_t kMinLanes = 16 / sizeof(T) > 0 ? 16 / sizeof(T) : 1;
  if constexpr (hn::MaxLanes(D()) > kMinLanes) {
    const hn::Half<D> dh;
    const size_t nh = hn::Lanes(dh);
    if (r >= nh) {
      auto v = eval(dh, i, nh, std::false_type());
      if constexpr (SaverReadsDst<SV>::value) v = SavePacketOf<SV>(dh, hn::LoadU(dh, dst + i), v);
      hn::StoreU(v, dh, dst + i);
      i += static_cast<index_t>(nh);
      r -= nh;
    }
    if (r != 0) StepDownTail<SV>(dh, dst, i, r, eval);
  } else {
    auto v = eval(d, i, r, std::true_type());
    if constexpr (SaverReadsDst<SV>::value) {
      v = SavePacketOf<SV>(d, packet::LoadFirst(d, dst + i, r), v);
    }
    packet::StoreFirst(d, v, dst + i, r);
  }
}

/*! \brief Stores v at p: with a non-temporal store when kStream (p must then be aligned to the
 *  vector, see VectorAligned), else an ordinary unaligned store. */
template <bool kStream, class D, class V, class T>
HWY_INLINE void StoreOrStream(V v, D d, T* p) {
  if constexpr (kStream) {
    hn::Stream(v, d, p);
  } else {
    hn::StoreU(v, d, p);
  }
}
/*! \brief Whether p is aligned to a full native vector of T (what a non-temporal store needs). */
template <typename T>
inline bool VectorAligned(const T* p) {
  return reinterpret_cast<std::uintptr_t>(p) % (packet::Lanes<T>() * sizeof(T)) == 0;
}

/*!
 * \brief Elements [i, end) of dst, `eval` as for StepDownTail, with the full vectors written by
 *  non-temporal stores (hn::Stream): the head up to the vector alignment and the tail go through
 *  StepDownTail with ordinary stores, so the same vector function computes every element as
 *  in the plain loop (bit-identical). For savers that do not read dst; dst must be aligned to
 *  sizeof(T). The caller ends its chunk with hwy::FlushStream() before another thread may
 *  read what was written (see UseStreamingStores for when this pays).
 */
template <class SV, class T, class D, class Eval>
HWY_INLINE void StreamRun(D d, T* dst, index_t i, index_t end, const Eval& eval) {
  static_assert(!SaverReadsDst<SV>::value, "StreamRun: the saver reads the destination");
  const index_t lanes = static_cast<index_t>(hn::Lanes(d));
  const std::uintptr_t vector_bytes = static_cast<std::uintptr_t>(lanes) * sizeof(T);
  const std::uintptr_t misalign = reinterpret_cast<std::uintptr_t>(dst + i) % vector_bytes;
  const index_t head = std::min<index_t>(
      end - i, misalign == 0 ? 0 : static_cast<index_t>((vector_bytes - misalign) / sizeof(T)));
  if (head > 0) {
    StepDownTail<SV>(d, dst, i, static_cast<size_t>(head), eval);
    i += head;
  }
  for (; i + lanes <= end; i += lanes) {
    hn::Stream(eval(d, i, static_cast<size_t>(lanes), std::false_type()), d, dst + i);
  }
  if (i < end) StepDownTail<SV>(d, dst, i, static_cast<size_t>(end - i), eval);
}

// The last r < Lanes elements from i on of MapRun, through StepDownTail.
template <class SV, class OP, class T, class... S>
HWY_INLINE void PacketTail(index_t i, index_t r, T* dst, S... src) {
  StepDownTail<SV>(packet::Tag<T>(), dst, i, static_cast<size_t>(r),
                   [&](auto dn, index_t at, size_t n, auto partial) SHADE_LAMBDA_INLINE {
                     if constexpr (decltype(partial)::value) {
                       return OP::MapPacket(dn, LoadFirstAt(dn, src, at, index_t(n))...);
                     } else {
                       return OP::MapPacket(dn, LoadAt(dn, src, at)...);
                     }
                   });
}
}  // namespace detail

/*!
 * \brief One thread: dst[i] = SV(dst[i], OP::Map(src_0[i], ...)) for i in [0, n); 1 to 3
 *  operands, each `const T*` or `Scalar<T>`. Uses OP::MapPacket when HasPacket, else Map.
 */
template <class SV, class OP, class T, class... S>
void MapRun(index_t n, T* dst, S... src) {
  static_assert(sizeof...(S) >= 1 && sizeof...(S) <= 3, "MapRun: 1 to 3 operands");
  static_assert((std::is_same<typename detail::OperandType<S>::type, T>::value && ...),
                "MapRun: operands must have the destination's element type (cast first)");
  if constexpr (detail::kMapPacket<SV, OP, T, S...>) {
    const packet::Tag<T> d;
    const index_t N = static_cast<index_t>(hn::Lanes(d));
    index_t i = 0;
    for (; i + N <= n; i += N) {
      auto v = OP::MapPacket(d, detail::LoadAt(d, src, i)...);
      if constexpr (detail::SaverReadsDst<SV>::value) {
        v = detail::SavePacketOf<SV>(d, hn::LoadU(d, dst + i), v);
      }
      hn::StoreU(v, d, dst + i);
    }
    if (i < n) {
      detail::PacketTail<SV, OP>(i, n - i, dst, src...);
    }
  } else {
    for (index_t i = 0; i < n; ++i) SV::Save(dst[i], OP::Map(detail::At(src, i)...));
  }
}

namespace detail {
template <class OP, class = void>
struct OpCost : std::integral_constant<index_t, 1> {};
template <class OP>
struct OpCost<OP, std::void_t<decltype(OP::kCost)>>
    : std::integral_constant<index_t, (OP::kCost > 1 ? index_t(OP::kCost) : 1)> {};
}  // namespace detail

/*!
 * \brief The grain for OP over T. A functor may declare `static constexpr int kCost` (packet
 *  work per element relative to an add, e.g. ~20 for exp/tanh) to parallelise smaller arrays;
 *  scalar fallbacks (often a libm call) use kMathGrain.
 */
template <class OP, class T>
constexpr index_t MapGrain() {
  if constexpr (packet::HasPacket<OP, T>::value) {
    return GrainForCost(detail::OpCost<OP>::value);
  } else {
    return kMathGrain;
  }
}

/*! \brief Bytes an elementwise loop reads and writes from which its stores bypass the caches. */
constexpr index_t kStreamingStoreBytes = index_t(64) << 20;

/*!
 * \brief Whether an elementwise loop that reads and writes `bytes` in all (destination included)
 *  and costs `cost` adds per element stores with non-temporal stores (StreamRun). Why: a
 *  memory-bound loop whose data cannot stay in the caches pays a read of every destination line
 *  before it writes it; streaming stores skip that read (W2's six arrays: 7 -> 6 lines moved
 *  per line written, 1.15-1.18x faster on Zen 5). Measured with the result read right after
 *  (bench/RESULTS.md, "Issue 16: W2 with streaming stores"): a loop over 24-32 MiB in all
 *  lost 5-35% (its result would have come from L3), from 48-64 MiB on it won 12-16%, hence
 *  64 MiB. Never for heavy functors (cost >= kHeavyOpCost): they are compute-bound, and an
 *  earlier measurement found streaming several times slower under a long loop body
 *  (bench/RESULTS.md, W3).
 */
constexpr bool UseStreamingStores(index_t bytes, index_t cost) {
  return bytes >= kStreamingStoreBytes && cost < kHeavyOpCost;
}

/*! \brief Threaded MapRun: n elements split into contiguous chunks of at least the grain. */
template <class SV, class OP, class T, class... S>
void Map(index_t n, T* dst, S... src) {
  SHADE_CHECK_GE(n, 0) << "Map: negative element count";
  ParallelFor(0, n, MapGrain<OP, T>(), [&](index_t b, index_t e) {
    MapRun<SV, OP>(e - b, dst + b, detail::Advance(src, b)...);
  });
}

/*! \brief dst = SV(dst, OP(a)), threaded. */
template <class SV, class OP, class T, class A>
void MapUnary(index_t n, T* dst, A a) { Map<SV, OP>(n, dst, a); }
/*! \brief dst = SV(dst, OP(a, b)), threaded; a or b may be Scalar<T>. */
template <class SV, class OP, class T, class A, class B>
void MapBinary(index_t n, T* dst, A a, B b) { Map<SV, OP>(n, dst, a, b); }
/*! \brief dst = SV(dst, OP(a, b, c)), threaded; any operand may be Scalar<T>. */
template <class SV, class OP, class T, class A, class B, class C>
void MapTernary(index_t n, T* dst, A a, B b, C c) { Map<SV, OP>(n, dst, a, b, c); }

/*! \brief One thread: dst[0..n) = value. */
template <class T>
void FillRun(index_t n, T* dst, T value) {
  std::fill(dst, dst + n, value);
}
/*! \brief Threaded fill. */
template <class T>
void Fill(index_t n, T* dst, T value) {
  SHADE_CHECK_GE(n, 0) << "Fill: negative element count";
  ParallelFor(0, n, kMapGrain * 2, [&](index_t b, index_t e) { FillRun(e - b, dst + b, value); });
}
/*! \brief One thread: dst[0..n) = src[0..n) (no overlap). */
template <class T>
void CopyRun(index_t n, T* dst, const T* src) {
  if (n > 0) std::memcpy(dst, src, static_cast<size_t>(n) * sizeof(T));
}
/*! \brief Threaded copy (no overlap). */
template <class T>
void Copy(index_t n, T* dst, const T* src) {
  SHADE_CHECK_GE(n, 0) << "Copy: negative element count";
  ParallelFor(0, n, kMapGrain * 2, [&](index_t b, index_t e) { CopyRun(e - b, dst + b, src + b); });
}

/*!
 * \brief Converts one value between element types with static_cast semantics; half_t and bf16_t
 *  go through float (their only arithmetic type).
 */
template <class D, class S>
SHADE_XINLINE D ConvertScalar(S v) {
  constexpr bool kSrcLow = std::is_same<S, half_t>::value || std::is_same<S, bf16_t>::value;
  constexpr bool kDstLow = std::is_same<D, half_t>::value || std::is_same<D, bf16_t>::value;
  if constexpr (std::is_same<D, S>::value) {
    return v;
  } else if constexpr (kSrcLow && kDstLow) {
    return D(static_cast<float>(v));
  } else if constexpr (kSrcLow) {
    return static_cast<D>(static_cast<float>(v));
  } else if constexpr (kDstLow) {
    return D(v);  // one rounding, also from double and wide integers (see half.h)
  } else {
    return static_cast<D>(v);
  }
}
/*!
 * \brief One thread: dst[i] = cast<D>(src[i]). Written as a restrict loop, which GCC vectorises
 *  for the int/float widening and narrowing conversions. Float-to-integer of an out-of-range
 *  value is, as in C++ and NumPy, unspecified.
 */
template <class D, class S>
void CastRun(index_t n, D* __restrict dst, const S* __restrict src) {
  for (index_t i = 0; i < n; ++i) dst[i] = ConvertScalar<D>(src[i]);
}
/*! \brief Threaded typecast. */
template <class D, class S>
void Cast(index_t n, D* dst, const S* src) {
  SHADE_CHECK_GE(n, 0) << "Cast: negative element count";
  ParallelFor(0, n, kMapGrain, [&](index_t b, index_t e) { CastRun(e - b, dst + b, src + b); });
}

/*! \brief Tile edge of the scalar blocked transpose (element types without the register
 *  path, and the ragged edges): a 32x32 float tile of source and destination (2 x 4 KiB). */
constexpr index_t kTransposeTile = 32;
/*! \brief Source rows per outer tile of the transpose (also the unit threads split). */
constexpr index_t kTransposeTileRows = 64;
/*! \brief Source row bytes per outer tile of the transpose: with kTransposeTileRows rows the
 *  tile touches 64 source and 256 (4-byte) destination rows, few enough pages for the TLB. */
constexpr index_t kTransposeTileBytes = 1024;

namespace detail {
// The scalar transpose of the source block [i0, i1) x [j0, j1).
template <class T>
void TransposeScalar(index_t i0, index_t i1, index_t j0, index_t j1, const T* src, index_t lds,
                     T* dst, index_t ldd) {
  constexpr index_t B = kTransposeTile;
  for (index_t ib = i0; ib < i1; ib += B) {
    const index_t ie = std::min(ib + B, i1);
    for (index_t jb = j0; jb < j1; jb += B) {
      const index_t je = std::min(jb + B, j1);
      for (index_t j = jb; j < je; ++j) {
        for (index_t i = ib; i < ie; ++i) dst[j * ldd + i] = src[i * lds + j];
      }
    }
  }
}

#if defined(__AVX512F__)
// A register transpose of one cache line square: 16 rows of 16 4-byte elements, or 8 rows of 8
// 8-byte elements. Each source row piece is one 64-byte load and each destination row piece
// one 64-byte store, so every line is touched once, whole: the power-of-two pitches that make
// all rows of a tile share one L1 set (16 KiB apart for 4096 floats) then cost nothing, while
// a 32x32 scalar tile re-fetches lines that the set conflicts evicted. kStream writes with
// non-temporal stores (no read-for-ownership of the destination; needs 64-byte aligned rows).
template <bool kStream>
SHADE_CINLINE void StoreLine(char* p, __m512i v) {
  if constexpr (kStream) {
    _mm512_stream_si512(reinterpret_cast<__m512i*>(p), v);
  } else {
    _mm512_storeu_si512(p, v);
  }
}
// The 4x4 transpose of 128-bit lanes: with a = (a0 a1 a2 a3) etc., out[k] = (ak bk ck dk).
SHADE_CINLINE void Exchange128(__m512i a, __m512i b, __m512i c, __m512i d, __m512i out[4]) {
  const __m512i ab_lo = _mm512_shuffle_i32x4(a, b, 0x44), ab_hi = _mm512_shuffle_i32x4(a, b, 0xEE);
  const __m512i cd_lo = _mm512_shuffle_i32x4(c, d, 0x44), cd_hi = _mm512_shuffle_i32x4(c, d, 0xEE);
  out[0] = _mm512_shuffle_i32x4(ab_lo, cd_lo, 0x88);
  out[1] = _mm512_shuffle_i32x4(ab_lo, cd_lo, 0xDD);
  out[2] = _mm512_shuffle_i32x4(ab_hi, cd_hi, 0x88);
  out[3] = _mm512_shuffle_i32x4(ab_hi, cd_hi, 0xDD);
}
template <bool kStream>
SHADE_CINLINE void Transpose16x16x4(const char* s, size_t lds, char* d, size_t ldd) {
  __m512i r[16], t[16];
  for (int k = 0; k < 16; ++k) r[k] = _mm512_loadu_si512(s + k * lds);
  for (int k = 0; k < 16; k += 2) {  // pairs of rows, 32-bit interleave within 128-bit lanes
    t[k] = _mm512_unpacklo_epi32(r[k], r[k + 1]);
    t[k + 1] = _mm512_unpackhi_epi32(r[k], r[k + 1]);
  }
  // Groups of 4 rows: lane k of r[4g + m] = rows 4g..4g+3 of column 4k + m.
  for (int g = 0; g < 16; g += 4) {
    r[g] = _mm512_unpacklo_epi64(t[g], t[g + 2]);
    r[g + 1] = _mm512_unpackhi_epi64(t[g], t[g + 2]);
    r[g + 2] = _mm512_unpacklo_epi64(t[g + 1], t[g + 3]);
    r[g + 3] = _mm512_unpackhi_epi64(t[g + 1], t[g + 3]);
  }
  for (int m = 0; m < 4; ++m) {  // column 4k + m = lane k of r[m], r[4 + m], r[8 + m], r[12 + m]
    __m512i o[4];
    Exchange128(r[m], r[4 + m], r[8 + m], r[12 + m], o);
    for (int k = 0; k < 4; ++k) StoreLine<kStream>(d + (4 * k + m) * ldd, o[k]);
  }
}
template <bool kStream>
SHADE_CINLINE void Transpose8x8x8(const char* s, size_t lds, char* d, size_t ldd) {
  __m512i r[8], t[8];
  for (int k = 0; k < 8; ++k) r[k] = _mm512_loadu_si512(s + k * lds);
  for (int k = 0; k < 8; k += 2) {  // lane k of t[2p + m] = rows 2p, 2p+1 of column 2k + m
    t[k] = _mm512_unpacklo_epi64(r[k], r[k + 1]);
    t[k + 1] = _mm512_unpackhi_epi64(r[k], r[k + 1]);
  }
  for (int m = 0; m < 2; ++m) {
    __m512i o[4];
    Exchange128(t[m], t[2 + m], t[4 + m], t[6 + m], o);
    for (int k = 0; k < 4; ++k) StoreLine<kStream>(d + (2 * k + m) * ldd, o[k]);
  }
}
template <class T>
constexpr bool kTransposeRegister = std::is_trivially_copyable<T>::value &&
                                    (sizeof(T) == 4 || sizeof(T) == 8);
#else
template <class T>
constexpr bool kTransposeRegister = false;
#endif

// Source rows [r0, r1): outer tiles of kTransposeTileRows x (kTransposeTileBytes / sizeof(T));
// inside them line squares through registers, the ragged right and bottom edges scalar.
template <bool kStream, class T>
void TransposeRange(index_t r0, index_t r1, index_t cols, const T* src, index_t lds, T* dst,
                    index_t ldd) {
#if defined(__AVX512F__)
  if constexpr (kTransposeRegister<T>) {
    constexpr index_t L = 64 / sizeof(T);  // elements per line and rows per square
    constexpr index_t TJ = kTransposeTileBytes / sizeof(T);
    const size_t lds_b = static_cast<size_t>(lds) * sizeof(T),
                 ldd_b = static_cast<size_t>(ldd) * sizeof(T);
    for (index_t I0 = r0; I0 < r1; I0 += kTransposeTileRows) {
      const index_t I1 = std::min(I0 + kTransposeTileRows, r1);
      const index_t Ifull = I0 + (I1 - I0) / L * L;
      for (index_t J0 = 0; J0 < cols; J0 += TJ) {
        const index_t J1 = std::min(J0 + TJ, cols);
        const index_t Jfull = J0 + (J1 - J0) / L * L;
        for (index_t i = I0; i < Ifull; i += L) {
          for (index_t j = J0; j < Jfull; j += L) {
            const char* s = reinterpret_cast<const char*>(src + i * lds + j);
            char* d = reinterpret_cast<char*>(dst + j * ldd + i);
            if constexpr (sizeof(T) == 4) {
              Transpose16x16x4<kStream>(s, lds_b, d, ldd_b);
            } else {
              Transpose8x8x8<kStream>(s, lds_b, d, ldd_b);
            }
          }
        }
        if (Jfull < J1) TransposeScalar(I0, Ifull, Jfull, J1, src, lds, dst, ldd);
        if (Ifull < I1) TransposeScalar(Ifull, I1, J0, J1, src, lds, dst, ldd);
      }
    }
    if constexpr (kStream) _mm_sfence();  // order the non-temporal stores before the join
    return;
  }
#endif
  TransposeScalar(r0, r1, 0, cols, src, lds, dst, ldd);
}
}  // namespace detail

/*!
 * \brief One thread: dst[j][i] = src[i][j] for a rows x cols source with row pitch lds and a
 *  cols x rows destination with row pitch ldd, over source rows [r0, r1). 4- and 8-byte
 *  element types go through AVX-512 register transposes of 64-byte line squares where the
 *  target has them; other types and targets (and ragged edges) use 32x32 scalar tiles.
 */
template <class T>
void TransposeRun(index_t r0, index_t r1, index_t cols, const T* src, index_t lds, T* dst,
                  index_t ldd) {
  detail::TransposeRange<false>(r0, r1, cols, src, lds, dst, ldd);
}

/*! \brief Destination bytes from which Transpose writes with non-temporal stores (the output
 *  would not stay in the two cores' 4 MiB of L2 anyway; the stores skip reading it first). */
constexpr index_t kTransposeStreamBytes = index_t(8) << 20;

/*!
 * \brief Threaded transpose (see TransposeRun); src and dst must not overlap. Threads take
 *  whole outer tiles (kTransposeTileRows source rows); every element is a plain copy, so the
 *  result does not depend on the split.
 */
template <class T>
void Transpose(index_t rows, index_t cols, const T* src, index_t lds, T* dst, index_t ldd) {
  SHADE_CHECK(rows >= 0 && cols >= 0) << "Transpose: negative size " << rows << "x" << cols;
  SHADE_CHECK_GE(lds, cols) << "Transpose: source pitch smaller than its row length";
  SHADE_CHECK_GE(ldd, rows) << "Transpose: destination pitch smaller than its row length";
  if (rows == 0 || cols == 0) return;
  const bool stream =
      detail::kTransposeRegister<T> && rows * cols * index_t(sizeof(T)) >= kTransposeStreamBytes &&
      reinterpret_cast<std::uintptr_t>(dst) % 64 == 0 && (ldd * index_t(sizeof(T))) % 64 == 0 &&
      (kTransposeTileRows * index_t(sizeof(T))) % 64 == 0;
  const index_t tiles = (rows + kTransposeTileRows - 1) / kTransposeTileRows;
  const index_t grain = std::max<index_t>(1, kMapGrain / (kTransposeTileRows * cols));
  ParallelFor(0, tiles, grain, [&](index_t b, index_t e) {
    const index_t r0 = b * kTransposeTileRows, r1 = std::min(rows, e * kTransposeTileRows);
    if (stream) {
      detail::TransposeRange<true>(r0, r1, cols, src, lds, dst, ldd);
    } else {
      detail::TransposeRange<false>(r0, r1, cols, src, lds, dst, ldd);
    }
  });
}

SHADE_TARGET_NAMESPACE_END
}  // namespace kernel
}  // namespace shade

#endif  // SHADE_BACKEND_CPU_KERNELS_H_
