/*!
 * \file packet.h
 * \brief SIMD packets on Google Highway for the compile target of the including file.
 *
 * A packet is one native Highway vector (`Vec<T>`, `Lanes<T>()` elements) described by a tag
 * `Tag<T>` (hn::ScalableTag). Everything here is header-only and inlines into the templates that
 * use it (expression plans, NDArray's engine, the contiguous kernels in backend/cpu/kernels.h).
 *
 * Two ways to a target. The header-only static path (expression plans, user functors) is
 * compiled for whatever target its translation unit is built for: the functors are user
 * templates inside expression templates, so their packet code must inline into the caller's loop
 * and cannot sit behind a function pointer. The kernels compiled into the library for the dynamic
 * front end (src/ndarray: op tiles, casts, the register program, reductions, transposes) are
 * built once per x86 target in a portable build (SHADE_NATIVE=OFF: SSE4, AVX2, AVX-512 and the
 * baseline) and chosen at run time from the CPU (src/ndarray/simd_dispatch.cc); a native build
 * compiles them once for -march=native. docs/design/kernel-layer.md records the measurements.
 *
 * ## Packet protocol of an elementwise functor
 * An `op::` functor is a struct with a scalar form
 *   `template <class T> static T Map(T a)`, `... Map(T a, T b)` or `... Map(T a, T b, T c)`.
 * It MAY also have the packet form of the same arity
 *   `template <class D, class V> static V MapPacket(D d, V a[, V b[, V c]])`
 * (d is a `Tag<T>`, V is `Vec<T>`), which must compute the same function lane by lane. If the
 * packet form does not exist for some T it must be removed from overload resolution (constrain
 * it with `SHADE_PACKET_IF(cond)`, e.g. `SHADE_PACKET_IF(packet::kIsFloat<hn::TFromD<D>>)`), so
 * that `HasPacket<OP, T>` is false and the kernels use the scalar `Map` automatically.
 */
#ifndef SHADE_PACKET_PACKET_H_
#define SHADE_PACKET_PACKET_H_

// Highway 1.0.3 misdetects AVX3_DL as unattainable when it is the compile baseline (it tests an
// undefined macro) and then stops with an #error; asking for it explicitly avoids that.
#ifndef HWY_WANT_AVX3_DL
/// Asks Highway for its AVX3_DL target (see above); define it before including to override.
#define HWY_WANT_AVX3_DL 1
#endif
#include <hwy/cache_control.h>  // hwy::Prefetch
#include <hwy/contrib/math/math-inl.h>
#include <hwy/highway.h>

// The static path runs at the compile target's width. Without SIMD flags (a portable build of
// shade, or a program that does not link shade::shade from a native build) that target is
// Highway's scalar one, one lane at a time: say so once per translation unit rather than let a
// 40x slowdown pass unnoticed. SHADE_QUIET_SCALAR_TARGET silences it for deliberate scalar builds.
#if (HWY_STATIC_TARGET == HWY_SCALAR || HWY_STATIC_TARGET == HWY_EMU128) && \
    !defined(SHADE_QUIET_SCALAR_TARGET)
#pragma message(                                                                            \
    "shade: the static expression path is compiled for Highway's scalar target (no SIMD); " \
    "link shade::shade from a SHADE_NATIVE build or pass -march=... to vectorise it")
#endif

/*!
 * \brief Opens (and SHADE_TARGET_NAMESPACE_END closes) the namespace of the compile target.
 *
 * Code whose machine code depends on the SIMD target (packets, functors, savers, reducers, the
 * map, cast, transpose and reduction loops of backend/cpu) lives in an inline namespace named after
 * Highway's static target (N_AVX2, N_AVX3_DL, N_EMU128, ...). Source spells `shade::kernel::MapRun`
 * as before, but two translation units compiled for different targets (the library's per-target
 * kernel objects, or a user's files built with different -m flags) instantiate different
 * symbols, so the linker can never keep one target's copy of a template for the other's callers
 * (an ODR violation that would run AVX-512 code on a CPU without it). tools/check-target-symbols.py
 * checks the per-target objects for symbols outside their target's namespace.
 */
#define SHADE_TARGET_NAMESPACE_BEGIN inline namespace HWY_NAMESPACE {
/*! \brief Closes SHADE_TARGET_NAMESPACE_BEGIN. */
#define SHADE_TARGET_NAMESPACE_END }

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

namespace shade {
namespace packet {

namespace hn = hwy::HWY_NAMESPACE;

SHADE_TARGET_NAMESPACE_BEGIN

/*! \brief True for the element types Highway vectorises (all fixed-width ints, float, double). */
template <typename T>
constexpr bool kIsLane =
    std::is_same<T, float>::value || std::is_same<T, double>::value ||
    std::is_same<T, std::int8_t>::value || std::is_same<T, std::uint8_t>::value ||
    std::is_same<T, std::int16_t>::value || std::is_same<T, std::uint16_t>::value ||
    std::is_same<T, std::int32_t>::value || std::is_same<T, std::uint32_t>::value ||
    std::is_same<T, std::int64_t>::value || std::is_same<T, std::uint64_t>::value;

/*! \brief True for float and double lanes (division, sqrt and the contrib math). */
template <typename T>
constexpr bool kIsFloat = std::is_same<T, float>::value || std::is_same<T, double>::value;

/*! \brief True where lane multiplication exists on every x86 target (floats, 16/32-bit ints). */
template <typename T>
constexpr bool kHasMul = kIsFloat<T> || (kIsLane<T> && (sizeof(T) == 2 || sizeof(T) == 4));

/*! \brief True for signed lanes (abs, neg, sign). 64-bit ints excluded: no AVX2 abs. */
template <typename T>
constexpr bool kIsSignedLane =
    kIsFloat<T> || std::is_same<T, std::int8_t>::value || std::is_same<T, std::int16_t>::value ||
    std::is_same<T, std::int32_t>::value;

/*! \brief The full native vector tag for T. */
template <typename T>
using Tag = hn::ScalableTag<T>;
/*! \brief The native vector of T. */
template <typename T>
using Vec = hn::Vec<Tag<T>>;

/*! \brief Number of lanes of the native vector of T (a compile-time bound on x86). */
template <typename T>
inline std::size_t Lanes() {
  return hn::Lanes(Tag<T>());
}
/*! \brief An upper bound on Lanes<T>() usable as an array size. */
template <typename T>
constexpr std::size_t kMaxLanes = HWY_MAX_BYTES / sizeof(T);

/*! \brief Removes a packet overload from resolution when `cond` is false. */
#define SHADE_PACKET_IF(cond) std::enable_if_t<(cond), int> = 0

// ---------------------------------------------------------------------------------------------
// Memory and lane ops
/*! \brief Aligned load (p aligned to the vector size). */
template <class D>
HWY_INLINE hn::Vec<D> Load(D d, const hn::TFromD<D>* p) { return hn::Load(d, p); }
/*! \brief Unaligned load. */
template <class D>
HWY_INLINE hn::Vec<D> LoadUnaligned(D d, const hn::TFromD<D>* p) { return hn::LoadU(d, p); }
/*! \brief Aligned store. */
template <class D>
HWY_INLINE void Store(D d, hn::Vec<D> v, hn::TFromD<D>* p) { hn::Store(v, d, p); }
/*! \brief Unaligned store. */
template <class D>
HWY_INLINE void StoreUnaligned(D d, hn::Vec<D> v, hn::TFromD<D>* p) { hn::StoreU(v, d, p); }
/*! \brief All lanes set to v. */
template <class D>
HWY_INLINE hn::Vec<D> Fill(D d, hn::TFromD<D> v) { return hn::Set(d, v); }
/*! \brief Sum of the lanes (for integers, wrap-around). */
template <class D>
HWY_INLINE hn::TFromD<D> Sum(D d, hn::Vec<D> v) { return hn::GetLane(hn::SumOfLanes(d, v)); }
/*! \brief Largest lane (NaN handling as the hardware's max). */
template <class D>
HWY_INLINE hn::TFromD<D> MaxLane(D d, hn::Vec<D> v) { return hn::GetLane(hn::MaxOfLanes(d, v)); }
/*! \brief Smallest lane. */
template <class D>
HWY_INLINE hn::TFromD<D> MinLane(D d, hn::Vec<D> v) { return hn::GetLane(hn::MinOfLanes(d, v)); }

// ---------------------------------------------------------------------------------------------
// Partial packets: the first r lanes of a row's end (r < Lanes), for tails and short rows.
/*!
 * \brief True when the target's masked load/store of T never touches memory outside the mask:
 *  AVX-512 (vmovu* / vmovdqu* with a k-mask, every lane size) and AVX2 for 32/64-bit lanes
 *  (vmaskmov / vpmaskmov). Both suppress faults of masked-off lanes (Intel SDM). Checked in
 *  Highway 1.0.3's x86_128/256/512-inl.h: there MaskedLoad for SSE4 and below, and for 8/16-bit
 *  lanes on AVX2, is a full LoadU plus a blend, which may read past the end of an array, so
 *  LoadFirst / StoreFirst copy through a lane buffer on those targets instead.
 */
template <class T>
constexpr bool kMaskedMemorySafe = HWY_ARCH_X86 && (HWY_TARGET <= HWY_AVX3 ||
                                                    (HWY_TARGET == HWY_AVX2 && sizeof(T) >= 4));

/*! \brief Lanes [0, r) from p[0, r), the other lanes zero; r <= Lanes(d). Reads only p[0, r). */
template <class D>
HWY_INLINE hn::Vec<D> LoadFirst(D d, const hn::TFromD<D>* p, std::size_t r) {
  using T = hn::TFromD<D>;
  if constexpr (kMaskedMemorySafe<T>) {
    return hn::MaskedLoad(hn::FirstN(d, r), d, p);
  } else {
    HWY_ALIGN T buf[kMaxLanes<T>] = {};
    std::memcpy(buf, p, r * sizeof(T));
    return hn::Load(d, buf);
  }
}
/*! \brief Stores lanes [0, r) of v to p[0, r); r <= Lanes(d). Writes only p[0, r). */
template <class D>
HWY_INLINE void StoreFirst(D d, hn::Vec<D> v, hn::TFromD<D>* p, std::size_t r) {
  using T = hn::TFromD<D>;
  if constexpr (kMaskedMemorySafe<T>) {
    hn::BlendedStore(v, hn::FirstN(d, r), d, p);
  } else {
    HWY_ALIGN T buf[kMaxLanes<T>];
    hn::Store(v, d, buf);
    std::memcpy(p, buf, r * sizeof(T));
  }
}

/*! \brief Asks for p's cache line in a writable state (hwy::Prefetch asks for reading only):
 *  for outputs about to be written with ordinary stores, so that the line's read for ownership
 *  overlaps the work before the stores. A hint: p may be any address, it is never dereferenced. */
template <typename T>
HWY_INLINE void PrefetchForWrite(const T* p) {
#if defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(static_cast<const void*>(p), 1, 3);
#else
  hwy::Prefetch(p);
#endif
}

// ---------------------------------------------------------------------------------------------
// Even and odd lanes of a vector pair, for lane-wise folds over adjacent pairs (pooling's 2-wide
// windows). On AVX2 Highway's ConcatEven / ConcatOdd are each an in-block shuffle followed by the
// same permute of 64-bit quarters across the two 128-bit blocks; a fold that combines several
// such results lane by lane can stay in the in-block ("pair") order and permute once at the end.
// Elsewhere the pair order is ConcatEven's own order and FromPairOrder is the identity. Not on
// the one-lane scalar target, which has no pairs inside a vector (nor ConcatEven).
#if HWY_TARGET != HWY_SCALAR && HWY_TARGET != HWY_EMU128
namespace detail {
/*! \brief The even (kOdd false) or odd lanes of (lo, hi) in pair order. On AVX2 one in-block
 *  shuffle of the lanes' bits, so any 4- or 8-byte lane type (a shuffle moves bits, not values). */
template <bool kOdd, class D, class V>
HWY_INLINE V LanesOfParityPairOrder(D d, V hi, V lo) {
#if HWY_TARGET == HWY_AVX2
  using T = hn::TFromD<D>;
  if constexpr (std::is_same<V, hn::Vec256<T>>::value && sizeof(T) == 4) {
    const hn::Full256<float> df;
    const __m256 l = hn::BitCast(df, lo).raw, h = hn::BitCast(df, hi).raw;
    return hn::BitCast(d,
                       hn::Vec256<float>{kOdd ? _mm256_shuffle_ps(l, h, _MM_SHUFFLE(3, 1, 3, 1))
                                              : _mm256_shuffle_ps(l, h, _MM_SHUFFLE(2, 0, 2, 0))});
  } else if constexpr (std::is_same<V, hn::Vec256<T>>::value && sizeof(T) == 8) {
    const hn::Full256<double> df;
    const __m256d l = hn::BitCast(df, lo).raw, h = hn::BitCast(df, hi).raw;
    return hn::BitCast(
        d, hn::Vec256<double>{kOdd ? _mm256_unpackhi_pd(l, h) : _mm256_unpacklo_pd(l, h)});
  }
#endif
  if constexpr (kOdd) return hn::ConcatOdd(d, hi, lo);
  return hn::ConcatEven(d, hi, lo);
}
}  // namespace detail
/*! \brief The even lanes of (lo, hi) (lo's first) in pair order: FromPairOrder of the result is
 *  hn::ConcatEven(d, hi, lo). */
template <class D, class V>
HWY_INLINE V EvenLanesPairOrder(D d, V hi, V lo) {
  return detail::LanesOfParityPairOrder<false>(d, hi, lo);
}
/*! \brief The odd lanes of (lo, hi) in pair order: FromPairOrder of the result is
 *  hn::ConcatOdd(d, hi, lo). */
template <class D, class V>
HWY_INLINE V OddLanesPairOrder(D d, V hi, V lo) {
  return detail::LanesOfParityPairOrder<true>(d, hi, lo);
}
/*! \brief Lanes in pair order (EvenLanesPairOrder, OddLanesPairOrder, or any lane-wise function
 *  of them) put into ConcatEven's order. */
template <class V>
HWY_INLINE V FromPairOrder(V v) {
#if HWY_TARGET == HWY_AVX2
  using T = hn::TFromV<V>;
  if constexpr (std::is_same<V, hn::Vec256<T>>::value && (sizeof(T) == 4 || sizeof(T) == 8)) {
    const __m256d quarters = hn::BitCast(hn::Full256<double>(), v).raw;
    return hn::BitCast(hn::Full256<T>(), hn::Vec256<double>{_mm256_permute4x64_pd(
                                             quarters, _MM_SHUFFLE(3, 1, 2, 0))});
  }
#endif
  return v;
}
#endif  // HWY_TARGET != HWY_SCALAR && HWY_TARGET != HWY_EMU128

// ---------------------------------------------------------------------------------------------
// Arithmetic
/*! \brief a + b (integers wrap). */
template <class D, class V>
HWY_INLINE V Add(D, V a, V b) { return hn::Add(a, b); }
/*! \brief a - b (integers wrap). */
template <class D, class V>
HWY_INLINE V Sub(D, V a, V b) { return hn::Sub(a, b); }
/*! \brief a * b; floats and 16/32-bit integers only. */
template <class D, class V, SHADE_PACKET_IF(kHasMul<hn::TFromD<D>>)>
HWY_INLINE V Mul(D, V a, V b) { return hn::Mul(a, b); }
/*! \brief a / b; floats only (no integer vector division on x86). */
template <class D, class V, SHADE_PACKET_IF(kIsFloat<hn::TFromD<D>>)>
HWY_INLINE V Div(D, V a, V b) { return hn::Div(a, b); }
/*! \brief `b < a ? b : a`, exactly the scalar `std::min(a, b)` (NaN in a propagates, in b not). */
template <class D, class V>
HWY_INLINE V Min(D, V a, V b) { return hn::IfThenElse(hn::Lt(b, a), b, a); }
/*! \brief `a < b ? b : a`, exactly the scalar `std::max(a, b)` (NaN in a propagates, in b not). */
template <class D, class V>
HWY_INLINE V Max(D, V a, V b) { return hn::IfThenElse(hn::Lt(a, b), b, a); }
/*! \brief -a. */
template <class D, class V, SHADE_PACKET_IF(kIsSignedLane<hn::TFromD<D>>)>
HWY_INLINE V Neg(D, V a) { return hn::Neg(a); }
/*! \brief |a| (integers: the most negative value maps to itself, as two's complement does). */
template <class D, class V, SHADE_PACKET_IF(kIsSignedLane<hn::TFromD<D>>)>
HWY_INLINE V Abs(D, V a) { return hn::Abs(a); }
/*! \brief a * a. */
template <class D, class V, SHADE_PACKET_IF(kHasMul<hn::TFromD<D>>)>
HWY_INLINE V Square(D, V a) { return hn::Mul(a, a); }
/*! \brief a > 0 ? a : 0 (NaN gives 0, as the scalar form). */
template <class D, class V>
HWY_INLINE V Relu(D d, V a) { return hn::IfThenElseZero(hn::Gt(a, hn::Zero(d)), a); }
/*! \brief (a > 0) - (a < 0): 1, -1 or 0 (NaN gives 0). */
template <class D, class V, SHADE_PACKET_IF(kIsSignedLane<hn::TFromD<D>>)>
HWY_INLINE V Sign(D d, V a) {
  using T = hn::TFromD<D>;
  const V zero = hn::Zero(d);
  return hn::IfThenElse(hn::Gt(a, zero), hn::Set(d, T(1)),
                        hn::IfThenElseZero(hn::Lt(a, zero), hn::Set(d, T(-1))));
}

// ---------------------------------------------------------------------------------------------
// Floating-point math. Highway's contrib math is accurate (<= 4 ulp) inside its valid ranges;
// the wrappers add the IEEE special cases (inf, nan, domain edges) the C library gives, so the
// packet and scalar paths agree everywhere.
/*! \brief sqrt(a), correctly rounded. */
template <class D, class V, SHADE_PACKET_IF(kIsFloat<hn::TFromD<D>>)>
HWY_INLINE V Sqrt(D, V a) { return hn::Sqrt(a); }
/*! \brief 1 / sqrt(a) via a correctly rounded sqrt and a division (<= 1 ulp), not the 12-bit
 *  hardware estimate. */
template <class D, class V, SHADE_PACKET_IF(kIsFloat<hn::TFromD<D>>)>
HWY_INLINE V Rsqrt(D d, V a) {
  using T = hn::TFromD<D>;
  return hn::Div(hn::Set(d, T(1)), hn::Sqrt(a));
}
namespace detail {
// Float exp and tanh, derived here (docs/design/kernel-layer.md "Math accuracy": the measured ulp).
// Both reduce x = n ln2 + r with |r| <= ln2/2 and evaluate e^r as 1 + r + r^2 Q(r), Q a degree-4
// minimax fit of (e^r - 1 - r) / r^2 for relative error (3.1e-9 before coefficient rounding,
// fitted with Lawson's iteration in double; the script's output is quoted in RESULTS.md).
// ln2 is split so that n * kLn2Hi is exact for |n| < 2^12 (kLn2Hi has 12 significant bits) and
// x - n * kLn2Hi is then exact (Sterbenz), leaving only the rounding of the kLn2Lo step.
constexpr float kLog2e = 1.44269504088896341f;
constexpr float kLn2Hi = 0.693145751953125f;         // 0x3F317200
constexpr float kLn2Lo = 1.428606765330187045e-06f;  // ln2 - kLn2Hi
constexpr float kExpC2 = 0.4999999403953552f;
constexpr float kExpC3 = 0.1666652113199234f;
constexpr float kExpC4 = 0.04166838899254799f;
constexpr float kExpC5 = 0.00836874544620514f;
constexpr float kExpC6 = 0.0013814540579915047f;

/*! \brief 1 + r + r^2 Q(r), e^r for |r| <= ln2/2 (Horner: the FMA chain is short enough that
 *  Estrin's extra multiply costs more throughput than it saves latency in a streaming loop). */
template <class D, class V>
HWY_INLINE V ExpReduced(D d, V r) {
  V q = hn::MulAdd(hn::Set(d, kExpC6), r, hn::Set(d, kExpC5));
  q = hn::MulAdd(q, r, hn::Set(d, kExpC4));
  q = hn::MulAdd(q, r, hn::Set(d, kExpC3));
  q = hn::MulAdd(q, r, hn::Set(d, kExpC2));
  const V one = hn::Set(d, 1.0f);
  q = hn::MulAdd(q, r, one);
  return hn::MulAdd(q, r, one);
}

#if HWY_TARGET <= HWY_AVX3
// AVX-512 (with VL, which every Highway AVX3 target has): vscalefps computes p * 2^floor(n) in
// one instruction, overflowing to inf and rounding once into the denormals, so no exponent-bit
// arithmetic or range split is needed.
template <size_t N>
HWY_INLINE hn::Vec128<float, N> ScaleByPow2(hn::Vec128<float, N> p, hn::Vec128<float, N> n) {
  return hn::Vec128<float, N>{_mm_scalef_ps(p.raw, n.raw)};
}
HWY_INLINE hn::Vec256<float> ScaleByPow2(hn::Vec256<float> p, hn::Vec256<float> n) {
  return hn::Vec256<float>{_mm256_scalef_ps(p.raw, n.raw)};
}
HWY_INLINE hn::Vec512<float> ScaleByPow2(hn::Vec512<float> p, hn::Vec512<float> n) {
  return hn::Vec512<float>{_mm512_scalef_ps(p.raw, n.raw)};
}
// tanh on AVX-512, with no division (16 instructions against ~27 and a vdivps): |x|, clamped to
// 9.3, falls in one of 32 cells, those of u = |x| + 0.65625 at 8 per binade of u (cell widths grow
// from 1/32 at 0 to 1 near 9). There tanh = c0 + t (c1 + t (c2 + t (c3 + t c4))), t = |x| - m,
// with m and c0..c4 from 32-entry tables by `vpermt2ps` (a table in two registers, an entry in one
// instruction; the index is u >> 20, of which it reads the low 5 bits). The first cell has
// m = c0 = 0 and c1 = 1: small results keep their relative accuracy, tiny x give x. Since the fit
// is pinned to c0 at t = 0, every other m is a float near the cell's middle whose tanh is within
// 1e-4 ulp of a float (0.06 and 0.24 in the two cells above 7.3). Fitted per cell (Lawson's IRLS in
// double on the error in ulps, coefficients rounded to float one at a time, the rest refitted);
// the last cell's points above 9 weigh 30x so that tanh(9.3) (and +-inf) rounds to exactly 1. All
// floats: <= 1 ulp from tanh in double, <= 2 from glibc's tanhf (which is itself up to 2.2 ulp off
// in [0.125, 1)). Rows: c0, c1, c2, c3, c4, m.
constexpr float kTanhCellK = 0.65625f;
constexpr float kTanhCellMax = 9.3f;
alignas(64) constexpr float kTanhCells[6][32] = {
    {0.8994353f,  0.93755007f, 0.96177965f, 0.97662526f, 0.9857726f,  0.9913406f,   0.9947369f,
     0.99681014f, 0.9984882f,  0.99944377f, 0.9997949f,  0.99992436f, 0.9999723f,   0.9999898f,
     0.99999624f, 0.9999986f,  0.9999997f,  0.99999994f, 0.0f,        0.062352717f, 0.124333724f,
     0.18530576f, 0.24487247f, 0.30246904f, 0.3852309f,  0.48640487f, 0.57603335f,  0.653345f,
     0.7193972f,  0.7744255f,  0.81982034f, 0.8567912f},
    {0.19101647f,    0.120999634f,   0.074979536f,  0.046202783f,  0.028252138f,   0.017243708f,
     0.010498383f,   0.006369488f,   0.0030208663f, 0.0011119754f, 0.00041009134f, 0.0001512464f,
     5.5422657e-05f, 2.0381432e-05f, 7.50896e-06f,  2.741379e-06f, 6.0363885e-07f, 1.7996636e-07f,
     1.0f,           0.9961121f,     0.9845411f,    0.96566176f,   0.9400375f,     0.9085125f,
     0.85159713f,    0.76341045f,    0.66818583f,   0.5731406f,    0.48246795f,    0.40026534f,
     0.32789475f,    0.26590893f},
    {-0.17180802f,    -0.113443986f,   -0.07211405f,     -0.045122992f,   -0.027850209f,
     -0.017094435f,   -0.010443159f,   -0.006349158f,    -0.003016468f,   -0.0011114127f,
     -0.00041003907f, -0.00015125127f, -5.5424207e-05f,  -2.0382327e-05f, -7.509446e-06f,
     -2.7412882e-06f, -7.1362507e-07f, -1.13920876e-07f, 7.252053e-07f,   -0.062109668f,
     -0.12241092f,    -0.17894267f,    -0.23018861f,     -0.2747969f,     -0.32806095f,
     -0.37132704f,    -0.38489717f,    -0.37445828f,     -0.34708616f,    -0.30997574f,
     -0.26881468f,    -0.22782837f},
    {0.09077839f,    0.06608793f,    0.04445776f,    0.028747642f,   0.018094834f,  0.011237666f,
     0.0069138883f,  0.004221511f,   0.002035812f,   0.00075166713f, 0.0002775295f, 0.00010240108f,
     3.7528178e-05f, 1.3801286e-05f, 5.0850012e-06f, 1.8562562e-06f, 4.136587e-07f, -5.0910614e-07f,
     -0.3334759f,    -0.32801646f,   -0.31285316f,   -0.2886316f,    -0.25693476f,  -0.21967655f,
     -0.15745822f,   -0.074021295f,  -0.0012947586f, 0.053295042f,   0.08859766f,   0.10642341f,
     0.11093795f,    0.10648184f},
    {-0.024237847f,   -0.024007868f,   -0.018639483f,   -0.0129748415f, -0.008523208f,
     -0.0054193274f,  -0.003381907f,   -0.0020856992f,  -0.0010091515f, -0.00037421513f,
     -0.00013809645f, -5.0870625e-05f, -1.8715167e-05f, -6.884882e-06f, -2.533704e-06f,
     -9.314843e-07f,  1.9523333e-07f,  7.0760456e-07f,  0.007948144f,   0.040340163f,
     0.07877702f,     0.11307535f,     0.13875856f,     0.1580169f,     0.16962107f,
     0.15972595f,     0.1288376f,      0.089777574f,    0.051903408f,   0.020879742f,
     -0.0014090807f,  -0.015319066f},
    {1.4692552f,  1.7174072f,  1.9691197f,  2.2187452f,  2.4692972f, 2.7189577f,   2.9687746f,
     3.2196643f,  3.5934186f,  4.0935984f,  4.59253f,    5.0913286f, 5.593314f,    6.0935054f,
     6.5927715f,  7.0965924f,  7.8532863f,  8.802801f,   0.0f,       0.062433712f, 0.12498042f,
     0.18747158f, 0.24995086f, 0.31223506f, 0.40618768f, 0.5313402f, 0.6565058f,   0.78111285f,
     0.9063944f,  1.0312908f,  1.1562693f,  1.2811507f},
};
HWY_INLINE hn::Vec512<float> TanhCells(hn::Vec512<float> x) {
  const hn::Full512<float> d;
  const hn::RebindToSigned<decltype(d)> di;
  // min passes a NaN through as its second operand (see ExpF32); +-inf become 9.3.
  const auto a = hn::Min(hn::Set(d, kTanhCellMax), hn::Abs(x));
  const __m512i cell = hn::ShiftRight<20>(hn::BitCast(di, hn::Add(a, hn::Set(d, kTanhCellK)))).raw;
  const auto entry = [cell](const float* row) {
    return hn::Vec512<float>{
        _mm512_permutex2var_ps(_mm512_load_ps(row), cell, _mm512_load_ps(row + 16))};
  };
  const auto t = hn::Sub(a, entry(kTanhCells[5]));
  auto p = hn::MulAdd(entry(kTanhCells[4]), t, entry(kTanhCells[3]));
  p = hn::MulAdd(p, t, entry(kTanhCells[2]));
  p = hn::MulAdd(p, t, entry(kTanhCells[1]));
  p = hn::MulAdd(p, t, entry(kTanhCells[0]));
  return hn::CopySignToAbs(p, x);
}
// Narrower vectors (row tails) run the same instructions on a zero-extended 512-bit register, so
// they give the same bits as the body.
HWY_INLINE hn::Vec256<float> TanhCells(hn::Vec256<float> x) {
  const hn::Vec512<float> y = TanhCells(hn::Vec512<float>{_mm512_zextps256_ps512(x.raw)});
  return hn::Vec256<float>{_mm512_castps512_ps256(y.raw)};
}
template <size_t N>
HWY_INLINE hn::Vec128<float, N> TanhCells(hn::Vec128<float, N> x) {
  const hn::Vec512<float> y = TanhCells(hn::Vec512<float>{_mm512_zextps128_ps512(x.raw)});
  return hn::Vec128<float, N>{_mm512_castps512_ps128(y.raw)};
}
#endif

// Float lanes holding integers within int32 range (every caller clamps first) to int32. On x86
// the truncating conversion alone: Highway's ConvertTo adds a fix-up for lanes outside the range
// (4 more instructions per vector on AVX2, a tenth of ExpF32) that these values never need.
#if HWY_ARCH_X86 && HWY_TARGET != HWY_SCALAR && HWY_TARGET != HWY_EMU128
template <size_t N>
HWY_INLINE hn::Vec128<int32_t, N> TruncInRange(hn::Vec128<float, N> v) {
  return hn::Vec128<int32_t, N>{_mm_cvttps_epi32(v.raw)};
}
#if HWY_TARGET <= HWY_AVX2
HWY_INLINE hn::Vec256<int32_t> TruncInRange(hn::Vec256<float> v) {
  return hn::Vec256<int32_t>{_mm256_cvttps_epi32(v.raw)};
}
#endif
#if HWY_TARGET <= HWY_AVX3
HWY_INLINE hn::Vec512<int32_t> TruncInRange(hn::Vec512<float> v) {
  return hn::Vec512<int32_t>{_mm512_cvttps_epi32(v.raw)};
}
#endif
#else
template <class V>
HWY_INLINE auto TruncInRange(V v) {
  return hn::ConvertTo(hn::RebindToSigned<hn::DFromV<V>>(), v);
}
#endif

/*! \brief e^x for float lanes, <= 1 ulp from expf (measured over all floats). */
template <class D, class V>
HWY_INLINE V ExpF32(D d, V x) {
  // Below -104 the result rounds to 0 (e^-104 < 2^-150), above 89 to inf; the clamp keeps n
  // finite so that r stays in range. x86's min/max return their second operand when either is
  // NaN, so with x second a NaN passes through the clamp and propagates; elsewhere Highway leaves
  // that unspecified and a final select restores it.
  const V xc = hn::Max(hn::Set(d, -104.0f), hn::Min(hn::Set(d, 89.0f), x));
  const V n = hn::Round(hn::Mul(xc, hn::Set(d, kLog2e)));
  V r = hn::NegMulAdd(n, hn::Set(d, kLn2Hi), xc);
  r = hn::NegMulAdd(n, hn::Set(d, kLn2Lo), r);
  const V p = ExpReduced(d, r);
#if HWY_TARGET <= HWY_AVX3
  return ScaleByPow2(p, n);
#else
  // n is in [-150, 129]: 2^n is built as two normal powers 2^(n/2) 2^(n - n/2), each exponent
  // field in range; p * 2^a is exact and the second product rounds once, so results in the
  // denormal range are correctly rounded from p and overflow gives inf.
  const hn::RebindToSigned<D> di;
  const auto ni = TruncInRange(n);
  const auto n1 = hn::ShiftRight<1>(ni);
  const auto n2 = hn::Sub(ni, n1);
  const auto bias = hn::Set(di, 127);
  const V s1 = hn::BitCast(d, hn::ShiftLeft<23>(hn::Add(n1, bias)));
  const V s2 = hn::BitCast(d, hn::ShiftLeft<23>(hn::Add(n2, bias)));
  const V y = hn::Mul(hn::Mul(p, s1), s2);
#if HWY_ARCH_X86 && HWY_TARGET != HWY_SCALAR && HWY_TARGET != HWY_EMU128
  return y;
#else
  return hn::IfThenElse(hn::IsNaN(x), x, y);
#endif
#endif
}

// tanh without AVX-512 (where a 32-entry lookup is not one instruction: AVX2's gathers and
// four-vpermps selects measured 4.4x and 1.8x slower than this): for |x| < 0.625 the odd polynomial
// x + x^3 P(x^2), P a degree-4 minimax fit for relative error (4.4e-9); above,
// 1 - 2 / (e^{2|x|} + 1), which only loses accuracy to cancellation when the result is small (it
// is >= 0.55 here). The sign is restored last, so tanh(-0) = -0.
constexpr float kTanhSmall = 0.625f;
constexpr float kTanhP0 = -0.3333328068256378f;
constexpr float kTanhP1 = 0.1333143562078476f;
constexpr float kTanhP2 = -0.053739115595817566f;
constexpr float kTanhP3 = 0.020637044683098793f;
constexpr float kTanhP4 = -0.005702610593289137f;

/*! \brief tanh(x) for float lanes, <= 2 ulp from tanhf (measured over all floats). */
template <class D, class V>
HWY_INLINE V TanhF32(D d, V x) {
#if HWY_TARGET <= HWY_AVX3
  (void)d;
  return TanhCells(x);
#else
  const V ax = hn::Abs(x);
  // Small branch on |x|.
  const V x2 = hn::Mul(ax, ax);
  V p = hn::MulAdd(hn::Set(d, kTanhP4), x2, hn::Set(d, kTanhP3));
  p = hn::MulAdd(p, x2, hn::Set(d, kTanhP2));
  p = hn::MulAdd(p, x2, hn::Set(d, kTanhP1));
  p = hn::MulAdd(p, x2, hn::Set(d, kTanhP0));
  const V small = hn::MulAdd(hn::Mul(ax, x2), p, ax);
  // Large branch. Beyond |x| = 9.02 tanhf is 1; clamping at 10 keeps e^{2|x|} <= e^20, so no
  // overflow handling. z = min(10, |x|) passes a NaN through on x86 (see ExpF32).
  const V z = hn::Min(hn::Set(d, 10.0f), ax);
  const V one = hn::Set(d, 1.0f);
  // e^{2z} with the reduction done on z against ln2/2 (halving kLn2Hi/Lo is exact) and the
  // polynomial's coefficients scaled by 2^k for r^k, so that 2z is never formed.
  const V n = hn::Round(hn::Mul(z, hn::Set(d, 2.0f * kLog2e)));
  V r = hn::NegMulAdd(n, hn::Set(d, 0.5f * kLn2Hi), z);
  r = hn::NegMulAdd(n, hn::Set(d, 0.5f * kLn2Lo), r);
  V q = hn::MulAdd(hn::Set(d, 64.0f * kExpC6), r, hn::Set(d, 32.0f * kExpC5));
  q = hn::MulAdd(q, r, hn::Set(d, 16.0f * kExpC4));
  q = hn::MulAdd(q, r, hn::Set(d, 8.0f * kExpC3));
  q = hn::MulAdd(q, r, hn::Set(d, 4.0f * kExpC2));
  q = hn::MulAdd(q, r, hn::Set(d, 2.0f));
  const V er = hn::MulAdd(q, r, one);
  // n in [0, 29]: one exponent field suffices. Division here: portable targets' reciprocal
  // estimates differ in precision (12 bits on AVX2, exact on scalar).
  const hn::RebindToSigned<D> di;
  const V e = hn::Mul(
      er, hn::BitCast(d, hn::ShiftLeft<23>(hn::Add(TruncInRange(n), hn::Set(di, 127)))));
  const V large = hn::Sub(one, hn::Div(hn::Set(d, 2.0f), hn::Add(e, one)));
  const V y =
      hn::CopySignToAbs(hn::IfThenElse(hn::Lt(ax, hn::Set(d, kTanhSmall)), small, large), x);
#if HWY_ARCH_X86 && HWY_TARGET != HWY_SCALAR && HWY_TARGET != HWY_EMU128
  return y;
#else
  return hn::IfThenElse(hn::IsNaN(x), x, y);
#endif
#endif
}
}  // namespace detail
/*! \brief e^a (<= 1 ulp); overflow gives +inf, -inf gives 0, NaN propagates. Float lanes use
 *  detail::ExpF32, double lanes Highway's Exp with the special cases added. */
template <class D, class V, SHADE_PACKET_IF(kIsFloat<hn::TFromD<D>>)>
HWY_INLINE V Exp(D d, V a) {
  using T = hn::TFromD<D>;
  if constexpr (sizeof(T) == 4) {
    return detail::ExpF32(d, a);
  } else {
    // Highway's double range ends at 706; results saturate to inf before it.
    const V hi = hn::Set(d, T(709.8));
    const V y = hn::Exp(d, hn::Min(a, hi));
    const V inf = hn::Set(d, std::numeric_limits<T>::infinity());
    return hn::IfThenElse(hn::IsNaN(a), a, hn::IfThenElse(hn::Gt(a, hi), inf, y));
  }
}
/*! \brief e^a - 1 (<= 4 ulp); overflow gives +inf, NaN propagates. */
template <class D, class V, SHADE_PACKET_IF(kIsFloat<hn::TFromD<D>>)>
HWY_INLINE V Expm1(D d, V a) {
  using T = hn::TFromD<D>;
  const V hi = hn::Set(d, sizeof(T) == 4 ? T(88.75) : T(709.8));
  const V lo = hn::Set(d, sizeof(T) == 4 ? T(-104) : T(-1000));
  const V y = hn::Expm1(d, hn::Max(hn::Min(a, hi), lo));
  const V inf = hn::Set(d, std::numeric_limits<T>::infinity());
  return hn::IfThenElse(hn::IsNaN(a), a, hn::IfThenElse(hn::Gt(a, hi), inf, y));
}
namespace detail {
/*! \brief y, a logarithm of a computed for positive finite a, with the C library's results
 *  elsewhere: 0 gives -inf, negative gives NaN, +inf gives +inf, NaN propagates. */
template <class D, class V>
HWY_INLINE V LogSpecialCases(D d, V a, V y) {
  using T = hn::TFromD<D>;
  const V zero = hn::Zero(d);
  const V inf = hn::Set(d, std::numeric_limits<T>::infinity());
  const V nan = hn::Set(d, std::numeric_limits<T>::quiet_NaN());
  const V special = hn::IfThenElse(hn::Eq(a, zero), hn::Neg(inf), hn::IfThenElse(hn::Eq(a, inf), inf, nan));
  const auto regular = hn::And(hn::Gt(a, zero), hn::Lt(a, inf));  // false for NaN too
  return hn::IfThenElse(regular, y, hn::IfThenElse(hn::IsNaN(a), a, special));
}
}  // namespace detail
/*! \brief Natural log (<= 1 ulp); 0 gives -inf, negative gives NaN, +inf gives +inf. */
template <class D, class V, SHADE_PACKET_IF(kIsFloat<hn::TFromD<D>>)>
HWY_INLINE V Log(D d, V a) {
  return detail::LogSpecialCases(d, a, hn::Log(d, a));
}
/*! \brief Base-2 log (Highway's: the natural log times log2(e), <= 2 ulp; exact powers of two
 *  may be an ulp off), special cases as Log. */
template <class D, class V, SHADE_PACKET_IF(kIsFloat<hn::TFromD<D>>)>
HWY_INLINE V Log2(D d, V a) {
  return detail::LogSpecialCases(d, a, hn::Log2(d, a));
}
/*! \brief Base-10 log (Highway's: the natural log times log10(e), <= 2 ulp); as Log elsewhere. */
template <class D, class V, SHADE_PACKET_IF(kIsFloat<hn::TFromD<D>>)>
HWY_INLINE V Log10(D d, V a) {
  return detail::LogSpecialCases(d, a, hn::Log10(d, a));
}
/*! \brief log(1 + a) (<= 2 ulp); -1 gives -inf, below -1 NaN, +inf gives +inf. */
template <class D, class V, SHADE_PACKET_IF(kIsFloat<hn::TFromD<D>>)>
HWY_INLINE V Log1p(D d, V a) {
  using T = hn::TFromD<D>;
  const V m1 = hn::Set(d, T(-1));
  const V inf = hn::Set(d, std::numeric_limits<T>::infinity());
  const V nan = hn::Set(d, std::numeric_limits<T>::quiet_NaN());
  const V y = hn::Log1p(d, a);
  const V special = hn::IfThenElse(hn::Eq(a, m1), hn::Neg(inf), hn::IfThenElse(hn::Eq(a, inf), inf, nan));
  const auto regular = hn::And(hn::Gt(a, m1), hn::Lt(a, inf));
  return hn::IfThenElse(regular, y, hn::IfThenElse(hn::IsNaN(a), a, special));
}
/*! \brief tanh(a) (<= 4 ulp); +-inf give +-1, NaN propagates. Float lanes use detail::TanhF32,
 *  double lanes Highway's Tanh on a clamped argument. */
template <class D, class V, SHADE_PACKET_IF(kIsFloat<hn::TFromD<D>>)>
HWY_INLINE V Tanh(D d, V a) {
  using T = hn::TFromD<D>;
  if constexpr (sizeof(T) == 4) {
    return detail::TanhF32(d, a);
  } else {
    // Beyond |a| = 40 double tanh rounds to +-1; clamping keeps Highway in range.
    const V lim = hn::Set(d, T(40));
    const V y = hn::Tanh(d, hn::Max(hn::Min(a, lim), hn::Neg(lim)));
    return hn::IfThenElse(hn::IsNaN(a), a, y);
  }
}
/*! \brief 1 / (1 + e^-a), the logistic function; NaN propagates. */
template <class D, class V, SHADE_PACKET_IF(kIsFloat<hn::TFromD<D>>)>
HWY_INLINE V Sigmoid(D d, V a) {
  using T = hn::TFromD<D>;
  const V one = hn::Set(d, T(1));
  return hn::Div(one, hn::Add(one, packet::Exp(d, hn::Neg(a))));
}

// ---------------------------------------------------------------------------------------------
// Functor detection
namespace detail {
template <class T>
struct Identity {
  using type = T;
};
template <class OP, class T, class = void>
struct HasPacket1 : std::false_type {};
template <class OP, class T>
struct HasPacket1<OP, T,
                  std::void_t<decltype(OP::MapPacket(std::declval<Tag<T>>(), std::declval<Vec<T>>()))>>
    : std::is_same<decltype(OP::MapPacket(std::declval<Tag<T>>(), std::declval<Vec<T>>())), Vec<T>> {};
template <class OP, class T, class = void>
struct HasPacket2 : std::false_type {};
template <class OP, class T>
struct HasPacket2<OP, T,
                  std::void_t<decltype(OP::MapPacket(std::declval<Tag<T>>(), std::declval<Vec<T>>(),
                                                     std::declval<Vec<T>>()))>> : std::true_type {};
template <class OP, class T, class = void>
struct HasPacket3 : std::false_type {};
template <class OP, class T>
struct HasPacket3<OP, T,
                  std::void_t<decltype(OP::MapPacket(std::declval<Tag<T>>(), std::declval<Vec<T>>(),
                                                     std::declval<Vec<T>>(), std::declval<Vec<T>>()))>>
    : std::true_type {};

template <class OP, class T, int kArity, bool kLane = kIsLane<T>>
struct HasPacketN : std::false_type {};
template <class OP, class T>
struct HasPacketN<OP, T, 1, true> : HasPacket1<OP, T> {};
template <class OP, class T>
struct HasPacketN<OP, T, 2, true> : HasPacket2<OP, T> {};
template <class OP, class T>
struct HasPacketN<OP, T, 3, true> : HasPacket3<OP, T> {};
}  // namespace detail

/*! \brief True when OP has a packet form of arity kArity usable for element type T. */
template <class OP, class T, int kArity>
constexpr bool kHasPacketArity = detail::HasPacketN<OP, T, kArity>::value;

/*!
 * \brief True when OP has a packet form (of any arity 1..3) for element type T; without one,
 *  the kernels run OP::Map lane by lane.
 */
template <class OP, class T>
struct HasPacket
    : std::integral_constant<bool, kHasPacketArity<OP, T, 1> || kHasPacketArity<OP, T, 2> ||
                                       kHasPacketArity<OP, T, 3>> {};

SHADE_TARGET_NAMESPACE_END
}  // namespace packet
}  // namespace shade

#endif  // SHADE_PACKET_PACKET_H_
