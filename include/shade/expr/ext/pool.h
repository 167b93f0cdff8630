/*!
 * \file pool.h
 * \brief Spatial pooling over the last two dimensions and its gradient (mshadow's names):
 *  `pool<Reducer>(src, ky, kx, sy, sx)` and `unpool<Reducer>(data_src, data_pooled,
 *  grad_pooled, ky, kx, sy, sx)` with Reducer red::maximum, red::sum or red::avg.
 *
 * Output size (mshadow's rule, spatial_pool.h): P = (H - k) / s + 1, i.e. windows start at
 * 0, s, 2s, ... while they fit inside the image. With an explicit pooled shape a last window
 * may run past the border; it is clipped to it, and red::avg divides by the clipped area. unpool
 * gives each source element the sum over the windows containing it of Reducer::PartialGrad(value,
 * pooled) * grad (for max pooling: every element equal to its window's maximum receives the
 * gradient).
 */
#ifndef SHADE_EXPR_EXT_POOL_H_
#define SHADE_EXPR_EXT_POOL_H_

#include <algorithm>
#include <type_traits>

#include "shade/backend/cpu/reduce.h"
#include "shade/expr/ext/ext_base.h"
#include "shade/tensor/tensor.h"

namespace shade {
namespace red {
/*!
 * \brief Average (for pool / unpool / chpool): sums like red::sum; the pooling plans divide by
 *  the number of elements in the (clipped) window.
 */
struct avg {
  /*! \brief Folds src into dst. */
  template <typename DType>
  static SHADE_XINLINE void Reduce(DType& dst, DType src) {
    dst = DType(dst + src);
  }  // NOLINT
  /*! \brief d(sum)/d(src) = 1; the plans apply 1 / window size. */
  template <typename DType>
  static SHADE_XINLINE DType PartialGrad(DType /*redres*/, DType /*redsrc*/) {
    return DType(1);
  }
  /*! \brief Identity element: 0. */
  template <typename DType>
  static SHADE_XINLINE void SetInitValue(DType& initv) {
    initv = DType(0);
  }  // NOLINT
};
}  // namespace red

namespace expr {

/*! \brief Validated pooling geometry over the last two dimensions. */
struct PoolGeometry {
  index_t height;     ///< Source height.
  index_t width;      ///< Source width.
  index_t pheight;    ///< Pooled (output) height.
  index_t pwidth;     ///< Pooled (output) width.
  index_t ksize_y;    ///< Kernel height.
  index_t ksize_x;    ///< Kernel width.
  index_t kstride_y;  ///< Vertical stride between windows.
  index_t kstride_x;  ///< Horizontal stride between windows.
  /*! \brief Checks and sets the geometry; pshape (-1, -1) selects mshadow's output size. */
  void Init(index_t h, index_t w, index_t ky, index_t kx, index_t sy, index_t sx, index_t ph,
            index_t pw, const char* who) {
    SHADE_CHECK(ky >= 1 && kx >= 1)
        << who << ": kernel size " << ky << "x" << kx << " must be at least 1x1";
    SHADE_CHECK_SHAPE(sy >= 1 && sx >= 1)
        << who << ": stride " << sy << "x" << sx << " must be at least 1x1";
    SHADE_CHECK(h >= ky && w >= kx)
        << who << ": kernel " << ky << "x" << kx << " is larger than the image " << h << "x" << w;
    height = h;
    width = w;
    ksize_y = ky;
    ksize_x = kx;
    kstride_y = sy;
    kstride_x = sx;
    if (ph < 0) {
      pheight = (h - ky) / sy + 1;
      pwidth = (w - kx) / sx + 1;
    } else {
      SHADE_CHECK(pw >= 0) << who << ": negative pooled width " << pw;
      // every window must start inside the image
      SHADE_CHECK_SHAPE((ph == 0 || (ph - 1) <= (h - 1) / sy) &&
                        (pw == 0 || (pw - 1) <= (w - 1) / sx))
          << who << ": pooled shape " << ph << "x" << pw << " has windows starting outside the "
          << h << "x" << w << " image with stride " << sy << "x" << sx;
      pheight = ph;
      pwidth = pw;
    }
  }
  /*! \brief Number of source elements in window (py, px), clipped at the border. */
  SHADE_XINLINE index_t Area(index_t py, index_t px) const {
    const index_t ys = py * kstride_y, xs = px * kstride_x;
    return (std::min(ys + ksize_y, height) - ys) * (std::min(xs + ksize_x, width) - xs);
  }
  /*!
   * \brief Reducer over window (py, px), clipped at the border, of the plane whose element
   *  (y, x) is `read(y, x)`; red::avg divides by the clipped area. THE window reduction of
   *  pool's element loop and its whole-tensor evaluator.
   */
  template <typename Reducer, typename DType, typename Read>
  SHADE_XINLINE DType ReduceWindow(index_t py, index_t px, Read read) const {
    const index_t ys = py * kstride_y, ye = std::min(ys + ksize_y, height);
    const index_t xs = px * kstride_x, xe = std::min(xs + ksize_x, width);
    DType res;
    Reducer::SetInitValue(res);
    for (index_t y = ys; y < ye; ++y) {
      for (index_t x = xs; x < xe; ++x) Reducer::Reduce(res, read(y, x));
    }
    if constexpr (std::is_same<Reducer, red::avg>::value) {
      res = DType(res / DType((ye - ys) * (xe - xs)));
    }
    return res;
  }
};

namespace detail {
/*!
 * \brief Gradient that a pooled element (value `pooled`, gradient `grad`, reducing `count`
 *  source elements) passes to one source element of value `value`: Reducer::PartialGrad * grad,
 *  divided by count for red::avg. Shared by unpool and ch_unpool.
 */
template <typename Reducer, typename DType>
SHADE_XINLINE DType WindowGrad(DType value, DType pooled, DType grad, index_t count) {
  DType gv = DType(Reducer::PartialGrad(value, pooled) * grad);
  if constexpr (std::is_same<Reducer, red::avg>::value) gv = DType(gv / DType(count));
  return gv;
}

/*!
 * \brief Operands of a pooling gradient (unpool, ch_unpool): the pooling's source, its result
 *  and the result's gradient, with their checked shapes (result and gradient must agree).
 */
template <typename SrcExp, typename PoolExp, typename GradExp, int srcdim>
struct PoolGradOperands {
  /*! \brief The pooling's source. */
  SrcExp data_src_;
  /*! \brief The pooling's result. */
  PoolExp data_pooled_;
  /*! \brief Gradient with respect to the pooling's result. */
  GradExp grad_pooled_;
  /*! \brief Shapes of the source and of the pooled result (and of its gradient). */
  Shape<srcdim> src_shape_, pooled_shape_;
  /*! \brief Keeps the operands; throws when the result and its gradient differ in shape. */
  PoolGradOperands(const SrcExp& data_src, const PoolExp& data_pooled, const GradExp& grad_pooled,
                   const char* who)
      : data_src_(data_src), data_pooled_(data_pooled), grad_pooled_(grad_pooled) {
    src_shape_ = SourceShape<srcdim>(data_src_, who);
    pooled_shape_ = SourceShape<srcdim>(data_pooled_, who);
    const Shape<srcdim> gp = SourceShape<srcdim>(grad_pooled_, who);
    SHADE_CHECK_SHAPE(pooled_shape_ == gp) << who << ": pooled data " << pooled_shape_
                                           << " and its gradient " << gp << " differ in shape";
  }
};

/*! \brief The element loop's plans of a pooling gradient's operands, and its geometry. */
template <typename SrcExp, typename PoolExp, typename GradExp, typename DType, typename Geometry>
class PoolGradPlanBase {
 protected:
  /*! \brief Plans of the operands of `e` (an UnPoolingExp or ChannelUnpoolingExp). */
  template <typename E>
  explicit PoolGradPlanBase(const E& e)
      : src_(MakePlan(e.data_src_)),
        pooled_(MakePlan(e.data_pooled_)),
        grad_(MakePlan(e.grad_pooled_)),
        g_(e.g_) {}
  Plan<SrcExp, DType> src_;
  Plan<PoolExp, DType> pooled_;
  Plan<GradExp, DType> grad_;
  Geometry g_;
};
}  // namespace detail

namespace detail {
SHADE_TARGET_NAMESPACE_BEGIN
namespace hn = packet::hn;
#if HWY_TARGET != HWY_SCALAR && HWY_TARGET != HWY_EMU128
/*! \brief Whether Reducer's PartialGrad is 1 where the source equals the pooled value, else 0. */
template <typename Reducer>
constexpr bool kIsExtremum = std::is_base_of<red::detail::Extremum<true, false>, Reducer>::value ||
                             std::is_base_of<red::detail::Extremum<false, false>, Reducer>::value ||
                             std::is_base_of<red::detail::Extremum<true, true>, Reducer>::value ||
                             std::is_base_of<red::detail::Extremum<false, true>, Reducer>::value;
/*! \brief Pooling of T with Reducer and Saver has the packet form of 2-wide, stride-2 windows. */
template <typename Reducer, typename Saver, typename T>
constexpr bool kPoolPairPackets =
    (std::is_same<T, float>::value || std::is_same<T, double>::value) &&
    kernel::detail::kReducePacket<Reducer, T>&&  // red::avg has no packet fold
    packet::kHasPacketArity<typename Saver::OPType, T, 2>;
/*! \brief Its gradient (unpool, `=`) has the packet form: PartialGrad known as a packet. */
template <typename Reducer, typename T>
constexpr bool kUnpoolPairPackets = (std::is_same<T, float>::value ||
                                     std::is_same<T, double>::value) &&
                                    (std::is_same<Reducer, red::sum>::value ||
                                     kIsExtremum<Reducer>);

/*!
 * \brief acc folded with the even, then the odd lanes of the source row (lo, hi): one window row
 *  of 2-wide, stride-2 windows in ReduceWindow's x order. Its callers (PoolPairsBlock,
 *  PoolWindows2x2) fold from a broadcast initial value and put the result through
 *  packet::FromPairOrder before it is saved.
 */
template <typename Reducer, class D, class V>
HWY_INLINE V FoldPairs(D d, V acc, V hi, V lo) {
  // In the packet layer's pair order (AVX2: in-block shuffles, one cross-block permute per
  // result in FromPairOrder: 5 shuffles per 8 windows instead of 8; the permutes were the hottest
  // instructions of pool's profile on Zen 3). The folds are lane by lane, so the order holds.
  acc = Reducer::ReducePacket(d, acc, packet::EvenLanesPairOrder(d, hi, lo));
  return Reducer::ReducePacket(d, acc, packet::OddLanesPairOrder(d, hi, lo));
}

/*!
 * \brief 2x2 windows whose upper row is (top_lo, top_hi) and lower row (bot_lo, bot_hi): both
 *  folded by FoldPairs from Reducer's initial value, then packet::FromPairOrder. The window
 *  reduction of every 2x2 packet path of Pool2x2Rows.
 */
template <typename Reducer, class D, class V>
HWY_INLINE V PoolWindows2x2(D d, V top_hi, V top_lo, V bot_hi, V bot_lo) {
  hn::TFromD<D> init;
  Reducer::SetInitValue(init);
  const V top = FoldPairs<Reducer>(d, hn::Set(d, init), top_hi, top_lo);
  return packet::FromPairOrder(FoldPairs<Reducer>(d, top, bot_hi, bot_lo));
}

/*!
 * \brief Windows [px, px + Lanes(d)) of a pooled row whose windows are 2 wide with stride 2, over
 *  source rows [ys, ye) (row y at in + y * ld): each window reduced in ReduceWindow's (y, x) order
 *  (the even column, then the odd one, row by row), then out[px...] Saver= the results.
 */
template <typename Reducer, typename Saver, class D, typename T>
HWY_INLINE void PoolPairsBlock(D d, const T* in, index_t ld, index_t ys, index_t ye, index_t px,
                               T* out) {
  T init;
  Reducer::SetInitValue(init);
  auto acc = hn::Set(d, init);
  const index_t n = static_cast<index_t>(hn::Lanes(d));
  for (index_t y = ys; y < ye; ++y) {
    const T* p = in + y * ld + 2 * px;
    const auto lo = hn::LoadU(d, p);
    acc = FoldPairs<Reducer>(d, acc, hn::LoadU(d, p + n), lo);
  }
  acc = packet::FromPairOrder(acc);
  if constexpr (Saver::kReadsDst) acc = Saver::SavePacket(d, hn::LoadU(d, out + px), acc);
  hn::StoreU(acc, d, out + px);
}

/*!
 * \brief PoolPairsBlock over the windows [px, end) in blocks of kLanes, then of half as many down
 *  to one 128-bit vector (the rows of a CNN are short: 12 windows are 8 + 4); returns the first
 *  window not done, which the caller finishes one at a time.
 */
template <typename Reducer, typename Saver, typename T, size_t kLanes>
HWY_INLINE index_t PoolPairsRow(const T* in, index_t ld, index_t ys, index_t ye, index_t px,
                                index_t end, T* out) {
  const hn::CappedTag<T, kLanes> d;
  const index_t n = static_cast<index_t>(hn::Lanes(d));
  for (; px + n <= end; px += n) PoolPairsBlock<Reducer, Saver>(d, in, ld, ys, ye, px, out);
  if constexpr (kLanes * sizeof(T) > 16) {
    return PoolPairsRow<Reducer, Saver, T, kLanes / 2>(in, ld, ys, ye, px, end, out);
  }
  return px;
}

/*!
 * \brief Pooled rows [b, end) of 2x2, stride-2 pooling whose windows tile the planes (height =
 *  2 x pooled height, no clipped window): pooled row r reads source rows 2r and 2r + 1, so no
 *  plane or window arithmetic per row, only PoolPairsRow's blocks and single windows: the short
 *  rows of a CNN (4 or 12 windows) were dominated by the general loop's per-row setup.
 */
template <typename Reducer, typename Saver, typename T>
void Pool2x2Rows(const T* in, index_t ld, T* out, index_t pitch, index_t pw, index_t b,
                 index_t end) {
  T init;
  Reducer::SetInitValue(init);
  index_t r = b;
  const packet::Tag<T> d;
  const index_t lanes = static_cast<index_t>(hn::Lanes(d));
  if (2 * pw == lanes && pitch == pw) {
    // A source row is one vector (the CNN's 8-wide planes on AVX2): two pooled rows per vector.
    // Source rows 2r and 2r + 2 (the upper rows of the two windows' pairs) fill the low and the
    // high half of the even and odd lanes, then rows 2r + 1 and 2r + 3: PoolPairsBlock's order.
    // Row by row, each 4-window row took a 128-bit block of its own: 0.28x of memcpy on AVX2.
    for (; r + 2 <= end; r += 2) {
      const T* s = in + 2 * r * ld;
      auto acc = PoolWindows2x2<Reducer>(d, hn::LoadU(d, s + 2 * ld), hn::LoadU(d, s),
                                         hn::LoadU(d, s + 3 * ld), hn::LoadU(d, s + ld));
      T* o = out + r * pitch;
      if constexpr (Saver::kReadsDst) acc = Saver::SavePacket(d, hn::LoadU(d, o), acc);
      hn::StoreU(acc, d, o);
    }
  }
  if (4 * pw == lanes && pitch == pw) {
    // A source row is half a vector (the CNN's 8-wide planes on AVX-512): four pooled rows per
    // vector. Half-vector rows 0, 2, 4, 6 (the upper row of each pair) and 1, 3, 5, 7 make two
    // vectors each; their even and odd lanes are then the four operands of the four pooled rows'
    // windows, reduced in PoolPairsBlock's order (so the same bits). Row by row, each 4-window
    // row took a 128-bit block of its own: 0.19x of memcpy (bench/RESULTS.md).
    const hn::Half<decltype(d)> dh;
    for (; r + 4 <= end; r += 4) {
      const T* s = in + 2 * r * ld;
      const auto row = [&](index_t i) SHADE_LAMBDA_INLINE { return hn::LoadU(dh, s + i * ld); };
      const auto top_lo = hn::Combine(d, row(2), row(0)), top_hi = hn::Combine(d, row(6), row(4));
      const auto bot_lo = hn::Combine(d, row(3), row(1)), bot_hi = hn::Combine(d, row(7), row(5));
      auto acc = PoolWindows2x2<Reducer>(d, top_hi, top_lo, bot_hi, bot_lo);
      T* o = out + r * pitch;
      if constexpr (Saver::kReadsDst) acc = Saver::SavePacket(d, hn::LoadU(d, o), acc);
      hn::StoreU(acc, d, o);
    }
  }
  if (pw > lanes && pw % lanes == lanes / 2) {
    // Rows of whole vectors of windows and a half (the CNN's 12-window rows on AVX2): two pooled
    // rows at a time, whose last half vectors of windows share one vector, reduced in
    // PoolPairsBlock's order. Row by row the half vectors took 128-bit blocks of their own.
    const hn::Half<decltype(d)> dh;
    const index_t body = pw - lanes / 2;
    for (; r + 2 <= end; r += 2) {
      const T* s = in + 2 * r * ld;  // source rows 2r to 2r + 3
      T* o = out + r * pitch;
      for (index_t px = 0; px < body; px += lanes) {
        PoolPairsBlock<Reducer, Saver>(d, s, ld, 0, 2, px, o);
        PoolPairsBlock<Reducer, Saver>(d, s + 2 * ld, ld, 0, 2, px, o + pitch);
      }
      const T* t = s + 2 * body;
      auto acc = PoolWindows2x2<Reducer>(d, hn::LoadU(d, t + 2 * ld), hn::LoadU(d, t),
                                         hn::LoadU(d, t + 3 * ld), hn::LoadU(d, t + ld));
      if constexpr (Saver::kReadsDst) {
        acc = Saver::SavePacket(
            d, hn::Combine(d, hn::LoadU(dh, o + pitch + body), hn::LoadU(dh, o + body)), acc);
      }
      hn::StoreU(hn::LowerHalf(dh, acc), dh, o + body);
      hn::StoreU(hn::UpperHalf(dh, acc), dh, o + pitch + body);
    }
  }
  if constexpr (packet::kMaskedMemorySafe<T>) {
    if (2 * pw > lanes && pw < lanes) {
      // A row's windows fit one vector but not the blocks of PoolPairsRow (the CNN's 12-window
      // rows on AVX-512 took an 8- and a 4-window block): each source row is one vector and a
      // masked one, whose even and odd lanes are reduced in PoolPairsBlock's order, and the row
      // is stored masked. Half the loads, shuffles and reductions of the two blocks.
      const auto rest = static_cast<std::size_t>(2 * pw - lanes);
      const auto n = static_cast<std::size_t>(pw);
      for (; r < end; ++r) {
        const T* s0 = in + 2 * r * ld;
        const T* s1 = s0 + ld;
        const auto lo0 = hn::LoadU(d, s0), hi0 = packet::LoadFirst(d, s0 + lanes, rest);
        const auto lo1 = hn::LoadU(d, s1), hi1 = packet::LoadFirst(d, s1 + lanes, rest);
        auto acc = PoolWindows2x2<Reducer>(d, hi0, lo0, hi1, lo1);
        T* o = out + r * pitch;
        if constexpr (Saver::kReadsDst) {
          acc = Saver::SavePacket(d, packet::LoadFirst(d, o, n), acc);
        }
        packet::StoreFirst(d, acc, o, n);
      }
    }
  }
  for (; r < end; ++r) {
    const T* s0 = in + 2 * r * ld;
    const T* s1 = s0 + ld;
    T* o = out + r * pitch;
    index_t px = PoolPairsRow<Reducer, Saver, T, HWY_MAX_BYTES / sizeof(T)>(s0, ld, 0, 2, 0, pw, o);
    for (; px < pw; ++px) {
      T v = init;
      Reducer::Reduce(v, s0[2 * px]);
      Reducer::Reduce(v, s0[2 * px + 1]);
      Reducer::Reduce(v, s1[2 * px]);
      Reducer::Reduce(v, s1[2 * px + 1]);
      Saver::Save(o[px], v);
    }
  }
}

/*! \brief Indices that spread lane half * Lanes / 2 + i / 2 to lane i (each value to two lanes). */
template <class D>
HWY_INLINE auto SpreadIndices(D d, int half) {
  const hn::RebindToSigned<D> di;
  using TI = hn::TFromD<decltype(di)>;
  const auto first = hn::Set(di, static_cast<TI>(half * static_cast<int>(hn::Lanes(d) / 2)));
  return hn::IndicesFromVec(d, hn::Add(hn::ShiftRight<1>(hn::Iota(di, 0)), first));
}

/*!
 * \brief Unpool (`=`, disjoint 2-wide, stride-2 windows) of windows [px, px + Lanes(d)) over
 *  `rows` source rows (row dy at irow + dy * ild, written at orow + dy * opitch): each pooled
 *  value and gradient spread to its two columns once for all rows, then orow[x] = 0 +
 *  PartialGrad(irow[x], pooled) * grad, the element loop's operations in its order (same bits).
 */
template <typename Reducer, class D, typename T>
HWY_INLINE void UnpoolPairsBlock(D d, const T* irow, index_t ild, index_t rows, const T* prow,
                                 const T* grow, index_t px, T* orow, index_t opitch) {
  const index_t n = static_cast<index_t>(hn::Lanes(d));
  const auto pv = hn::LoadU(d, prow + px), gv = hn::LoadU(d, grow + px);
  const auto zero = hn::Zero(d), one = hn::Set(d, T(1));
  for (int half = 0; half < 2; ++half) {
    const auto idx = SpreadIndices(d, half);
    const auto p = hn::TableLookupLanes(pv, idx);
    const auto g = hn::TableLookupLanes(gv, idx);
    const index_t x = 2 * px + half * n;
    for (index_t dy = 0; dy < rows; ++dy) {
      const auto value = hn::LoadU(d, irow + dy * ild + x);
      hn::Vec<D> partial = one;  // red::sum: 1
      if constexpr (kIsExtremum<Reducer>) partial = hn::IfThenElseZero(hn::Eq(value, p), one);
      hn::StoreU(hn::Add(zero, hn::Mul(partial, g)), d, orow + dy * opitch + x);
    }
  }
}

/*!
 * \brief UnpoolPairsBlock over the windows [px, end) in blocks of kLanes, then of half as many
 *  down to one 128-bit vector (as PoolPairsRow); returns the first window not done.
 */
template <typename Reducer, typename T, size_t kLanes>
HWY_INLINE index_t UnpoolPairsRow(const T* irow, index_t ild, index_t rows, const T* prow,
                                  const T* grow, index_t px, index_t end, T* orow, index_t opitch) {
  const hn::CappedTag<T, kLanes> d;
  const index_t n = static_cast<index_t>(hn::Lanes(d));
  for (; px + n <= end; px += n) {
    UnpoolPairsBlock<Reducer>(d, irow, ild, rows, prow, grow, px, orow, opitch);
  }
  if constexpr (kLanes * sizeof(T) > 16) {
    return UnpoolPairsRow<Reducer, T, kLanes / 2>(irow, ild, rows, prow, grow, px, end, orow,
                                                  opitch);
  }
  return px;
}

/*!
 * \brief Gradient of Pool2x2Rows's pooling (`=`, source width 2 x pooled width, so every element
 *  lies in exactly one window): source rows 2r and 2r + 1 from pooled row r in UnpoolPairsRow's
 *  blocks, then single windows. The element loop's operations in its order, so the same bits.
 *  kStream writes the dense planes' vectors with non-temporal stores (out must then be vector
 *  aligned; the caller decides, see kernel::UseStreamingStores, and flushes).
 */
template <typename Reducer, bool kStream, typename T>
void Unpool2x2Rows(const T* in, index_t ld, const T* pooled, index_t pld, const T* grad,
                   index_t gld, T* out, index_t pitch, index_t pw, index_t b, index_t end) {
  index_t r = b;
  const packet::Tag<T> d;
  const index_t lanes = static_cast<index_t>(hn::Lanes(d));
  if (ld == 2 * pw && pitch == 2 * pw && pw <= lanes && (4 * pw) % lanes == 0) {
    // Dense planes whose pair of source rows (4 pw elements) is whole vectors (the CNN's 8- and
    // 24-wide planes on AVX-512: one and three). Lane i of the pair's vector j lies in window
    // ((j Lanes + i) mod 2pw) / 2, so one table lookup per vector spreads the pooled values and
    // gradients; where pooled rows are dense and pw divides Lanes, one load brings Lanes / pw
    // pooled rows. Block by block, a 4-window row took 128-bit blocks of its own (0.45x of
    // memcpy) and a 12-window row an 8- and a 4-window block.
    using TI = hn::TFromD<hn::RebindToSigned<decltype(d)>>;
    const index_t vectors = 4 * pw / lanes;  // per pooled row: 1, 2, 3 or 4
    const index_t rows = pld == pw && gld == pw && lanes % pw == 0 ? lanes / pw : 1;  // per load
    HWY_ALIGN TI windows[4 * packet::kMaxLanes<T>];  // rows * vectors * lanes <= 4 lanes
    for (index_t i = 0; i < rows * vectors * lanes; ++i) {
      windows[i] = static_cast<TI>(i / (vectors * lanes) * pw + i % (2 * pw) / 2);
    }
    const auto zero = hn::Zero(d), one = hn::Set(d, T(1));
    const auto n = static_cast<std::size_t>(rows * pw);
    for (; r + rows <= end; r += rows) {
      const auto pv = packet::LoadFirst(d, pooled + r * pld, n);
      const auto gv = packet::LoadFirst(d, grad + r * gld, n);
      const index_t at = 2 * r * ld;  // rows 2r, 2r + 1, ... are contiguous
      for (index_t j = 0; j < rows * vectors; ++j) {
        const auto idx = hn::SetTableIndices(d, windows + j * lanes);
        const auto value = hn::LoadU(d, in + at + j * lanes);
        hn::Vec<decltype(d)> partial = one;  // red::sum: 1
        if constexpr (kIsExtremum<Reducer>) {
          partial = hn::IfThenElseZero(hn::Eq(value, hn::TableLookupLanes(pv, idx)), one);
        }
        kernel::detail::StoreOrStream<kStream>(
            hn::Add(zero, hn::Mul(partial, hn::TableLookupLanes(gv, idx))), d,
            out + at + j * lanes);
      }
    }
  }
  for (; r < end; ++r) {
    const T* prow = pooled + r * pld;
    const T* grow = grad + r * gld;
    const T* irow = in + 2 * r * ld;
    T* orow = out + 2 * r * pitch;
    index_t px = UnpoolPairsRow<Reducer, T, HWY_MAX_BYTES / sizeof(T)>(irow, ld, 2, prow, grow, 0,
                                                                       pw, orow, pitch);
    for (; px < pw; ++px) {  // the last windows one at a time
      for (index_t dy = 0; dy < 2; ++dy) {
        for (index_t x = 2 * px; x < 2 * px + 2; ++x) {
          orow[dy * pitch + x] =
              T(T(0) + WindowGrad<Reducer>(irow[dy * ld + x], prow[px], grow[px], 4));
        }
      }
    }
  }
}
#else
// Scalar targets: no packet forms. The declarations let the (discarded) calls parse.
template <typename Reducer, typename Saver, typename T>
constexpr bool kPoolPairPackets = false;
template <typename Reducer, typename T>
constexpr bool kUnpoolPairPackets = false;
template <typename Reducer, typename Saver, typename T, size_t kLanes>
index_t PoolPairsRow(const T* in, index_t ld, index_t ys, index_t ye, index_t px, index_t end,
                     T* out);
template <typename Reducer, typename Saver, typename T>
void Pool2x2Rows(const T* in, index_t ld, T* out, index_t pitch, index_t pw, index_t b,
                 index_t end);
template <typename Reducer, typename T, size_t kLanes>
index_t UnpoolPairsRow(const T* irow, index_t ild, index_t rows, const T* prow, const T* grow,
                       index_t px, index_t end, T* orow, index_t opitch);
template <typename Reducer, bool kStream, typename T>
void Unpool2x2Rows(const T* in, index_t ld, const T* pooled, index_t pld, const T* grad,
                   index_t gld, T* out, index_t pitch, index_t pw, index_t b, index_t end);
#endif
SHADE_TARGET_NAMESPACE_END
}  // namespace detail

/*! \brief Pooled source (mshadow's PoolingExp). */
template <typename Reducer, typename SrcExp, typename DType, int srcdim>
struct PoolingExp
    : public MakeTensorExp<PoolingExp<Reducer, SrcExp, DType, srcdim>, SrcExp, srcdim, DType> {
  /*! \brief The source. */
  SrcExp src_;
  /*! \brief The geometry. */
  PoolGeometry g_;
  /*! \brief Builds the node; ph < 0 selects the default pooled shape. */
  PoolingExp(const SrcExp& src, index_t ph, index_t pw, index_t ky, index_t kx, index_t sy,
             index_t sx)
      : src_(src) {
    const Shape<srcdim> s = detail::SourceShape<srcdim>(src_, "pool");
    g_.Init(s[srcdim - 2], s[srcdim - 1], ky, kx, sy, sx, ph, pw, "pool");
    this->shape_ = s;
    this->shape_[srcdim - 2] = g_.pheight;
    this->shape_[srcdim - 1] = g_.pwidth;
  }
};

/*! \brief `pool<red::maximum>(img, 3, 3, 2, 2)`: pools the last two dimensions. */
template <typename Reducer, typename SrcExp, typename DType, int etype>
inline PoolingExp<Reducer, SrcExp, DType, ExpInfo<SrcExp>::kDim> pool(
    const Exp<SrcExp, DType, etype>& src, index_t ksize_y, index_t ksize_x, index_t kstride_y,
    index_t kstride_x) {
  static_assert(ExpInfo<SrcExp>::kDim >= 2, "pool: the source needs rank >= 2");
  return PoolingExp<Reducer, SrcExp, DType, ExpInfo<SrcExp>::kDim>(src.self(), -1, -1, ksize_y,
                                                                   ksize_x, kstride_y, kstride_x);
}
/*! \brief Pooling with an explicit pooled shape (its windows must start inside the image). */
template <typename Reducer, typename SrcExp, typename DType, int etype>
inline PoolingExp<Reducer, SrcExp, DType, ExpInfo<SrcExp>::kDim> pool(
    const Exp<SrcExp, DType, etype>& src, Shape<2> pshape, index_t ksize_y, index_t ksize_x,
    index_t kstride_y, index_t kstride_x) {
  static_assert(ExpInfo<SrcExp>::kDim >= 2, "pool: the source needs rank >= 2");
  SHADE_CHECK_SHAPE_GE(pshape[0], 0) << "pool: negative pooled height";
  return PoolingExp<Reducer, SrcExp, DType, ExpInfo<SrcExp>::kDim>(
      src.self(), pshape[0], pshape[1], ksize_y, ksize_x, kstride_y, kstride_x);
}

/*! \brief Gradient of pooling with respect to its source (mshadow's UnPoolingExp). */
template <typename Reducer, typename SrcExp, typename PoolExp, typename GradExp, typename DType,
          int srcdim>
struct UnPoolingExp
    : public MakeTensorExp<UnPoolingExp<Reducer, SrcExp, PoolExp, GradExp, DType, srcdim>, SrcExp,
                           srcdim, DType>,
      public detail::PoolGradOperands<SrcExp, PoolExp, GradExp, srcdim> {
  /*! \brief The geometry. */
  PoolGeometry g_;
  /*! \brief Builds the node; throws when the shapes do not belong together. */
  UnPoolingExp(const SrcExp& data_src, const PoolExp& data_pooled, const GradExp& grad_pooled,
               index_t ky, index_t kx, index_t sy, index_t sx)
      : detail::PoolGradOperands<SrcExp, PoolExp, GradExp, srcdim>(data_src, data_pooled,
                                                                   grad_pooled, "unpool") {
    const Shape<srcdim>& s = this->src_shape_;
    const Shape<srcdim>& p = this->pooled_shape_;
    for (int d = 0; d < srcdim - 2; ++d) {
      SHADE_CHECK_SHAPE_EQ(p[d], s[d]) << "unpool: pooled shape " << p << " does not match source "
                                       << s << " in dimension " << d;
    }
    g_.Init(s[srcdim - 2], s[srcdim - 1], ky, kx, sy, sx, p[srcdim - 2], p[srcdim - 1], "unpool");
    this->shape_ = s;
  }
};

/*! \brief `unpool<red::maximum>(in, out, grad_out, 3, 3, 2, 2)`: gradient of pool. */
template <typename Reducer, typename SrcExp, typename PoolExp, typename GradExp, typename DType,
          int e1, int e2, int e3>
inline UnPoolingExp<Reducer, SrcExp, PoolExp, GradExp, DType, ExpInfo<SrcExp>::kDim> unpool(
    const Exp<SrcExp, DType, e1>& data_src, const Exp<PoolExp, DType, e2>& data_pooled,
    const Exp<GradExp, DType, e3>& grad_pooled, index_t ksize_y, index_t ksize_x, index_t kstride_y,
    index_t kstride_x) {
  static_assert(ExpInfo<SrcExp>::kDim >= 2, "unpool: the source needs rank >= 2");
  static_assert(ExpInfo<PoolExp>::kDim == ExpInfo<SrcExp>::kDim &&
                    ExpInfo<GradExp>::kDim == ExpInfo<SrcExp>::kDim,
                "unpool: source, pooled data and gradient must have the same rank");
  return UnPoolingExp<Reducer, SrcExp, PoolExp, GradExp, DType, ExpInfo<SrcExp>::kDim>(
      data_src.self(), data_pooled.self(), grad_pooled.self(), ksize_y, ksize_x, kstride_y,
      kstride_x);
}

/*! \brief Reduces the (clipped) window of each pooled element. */
template <typename Reducer, typename SrcExp, typename DType, int srcdim>
class Plan<PoolingExp<Reducer, SrcExp, DType, srcdim>, DType> {
 public:
  /*! \brief Builds the source plan and copies the validated pooling geometry. */
  explicit Plan(const PoolingExp<Reducer, SrcExp, DType, srcdim>& e)
      : src_(MakePlan(e.src_)), g_(e.g_) {}
  /*! \brief Element (i, px), i = c * pheight + py. */
  SHADE_XINLINE DType Eval(index_t i, index_t px) const {
    const index_t py = i % g_.pheight;
    const index_t row0 = (i / g_.pheight) * g_.height;
    return g_.template ReduceWindow<Reducer, DType>(
        py, px, [&](index_t y, index_t x) { return src_.Eval(row0 + y, x); });
  }

 private:
  Plan<SrcExp, DType> src_;
  PoolGeometry g_;
};

/*! \brief Sums the gradient of every window that contains the element. */
template <typename Reducer, typename SrcExp, typename PoolExp, typename GradExp, typename DType,
          int srcdim>
class Plan<UnPoolingExp<Reducer, SrcExp, PoolExp, GradExp, DType, srcdim>, DType>
    : detail::PoolGradPlanBase<SrcExp, PoolExp, GradExp, DType, PoolGeometry> {
  using Base = detail::PoolGradPlanBase<SrcExp, PoolExp, GradExp, DType, PoolGeometry>;
  using Base::g_;
  using Base::grad_;
  using Base::pooled_;
  using Base::src_;

 public:
  /*! \brief Builds the plans of the source, pooled output and gradient. */
  explicit Plan(const UnPoolingExp<Reducer, SrcExp, PoolExp, GradExp, DType, srcdim>& e)
      : Base(e) {}
  /*! \brief Element (i, x), i = c * height + y. */
  SHADE_XINLINE DType Eval(index_t i, index_t x) const {
    const index_t y = i % g_.height;
    const index_t c = i / g_.height;
    const DType vsrc = src_.Eval(i, x);
    const index_t py_min = y < g_.ksize_y ? 0 : (y - g_.ksize_y) / g_.kstride_y + 1;
    const index_t px_min = x < g_.ksize_x ? 0 : (x - g_.ksize_x) / g_.kstride_x + 1;
    const index_t py_max = std::min(y / g_.kstride_y + 1, g_.pheight);
    const index_t px_max = std::min(x / g_.kstride_x + 1, g_.pwidth);
    DType val = DType(0);
    for (index_t py = py_min; py < py_max; ++py) {
      for (index_t px = px_min; px < px_max; ++px) {
        const index_t row = c * g_.pheight + py;
        val = DType(val + detail::WindowGrad<Reducer>(vsrc, pooled_.Eval(row, px),
                                                      grad_.Eval(row, px), g_.Area(py, px)));
      }
    }
    return val;
  }
};

/*!
 * \brief Pooling of a source stored in memory: one work unit per pooled row, the plane and
 *  window row found by counting rather than dividing, whole windows reduced across the row.
 *  Threaded over rows; values as the element loop.
 */
template <typename Reducer, typename SrcExp, typename DType, int srcdim>
struct TensorEvaluator<PoolingExp<Reducer, SrcExp, DType, srcdim>> {
  /*! \brief Has a whole-tensor form. */
  static constexpr bool kAvailable = true;
  /*! \brief *dst Saver= e, or false when the source is not read in place. */
  template <typename Saver, int dim>
  static bool Run(Tensor<cpu, dim, DType>* dst,
                  const PoolingExp<Reducer, SrcExp, DType, srcdim>& e) {
    detail::RowsView<DType> src;
    if (!detail::DirectRows<SrcExp>::Get(e.src_, &src)) return false;
    const index_t rows = e.shape_.ProdShape(0, srcdim - 1);
    if (e.g_.pheight == 0) return true;
    if constexpr (detail::kPoolPairPackets<Reducer, Saver, DType>) {
      const PoolGeometry& g = e.g_;
      if (g.ksize_x == 2 && g.kstride_x == 2 && g.ksize_y == 2 && g.kstride_y == 2 &&
          g.height == 2 * g.pheight && 2 * g.pwidth <= g.width) {  // windows tile the planes
        const index_t pitch = dst->stride_;
        ParallelFor(0, rows, detail::UnitGrain(4 * g.pwidth), [&](index_t b, index_t end) {
          detail::Pool2x2Rows<Reducer, Saver, DType>(src.ptr, src.ld, dst->dptr_, pitch, g.pwidth,
                                                     b, end);
        });
        return true;
      }
    }
    ParallelFor(
        0, rows, detail::UnitGrain(e.g_.pwidth * e.g_.ksize_y * e.g_.ksize_x),
        [&](index_t b, index_t end) {
          // local copies: the stores below cannot alias them, so they stay in registers
          const PoolGeometry g = e.g_;
          const index_t ld = src.ld, pitch = dst->stride_;
          // Windows [0, inside) lie within the row: they are reduced across the row one window
          // row and kernel column at a time, in the (y, x) order of ReduceWindow (same values).
          const index_t inside = std::min(g.pwidth, (g.width - g.ksize_x) / g.kstride_x + 1);
          ScratchBuffer<DType> acc(g.pwidth, "pooling row");
          index_t plane = b / g.pheight, py = b - plane * g.pheight;
          for (index_t r = b; r < end; ++r) {
            const DType* in = src.ptr + plane * g.height * ld;
            DType* out = dst->dptr_ + r * pitch;
            const index_t ys = py * g.kstride_y, ye = std::min(ys + g.ksize_y, g.height);
            // The common 2-wide, stride-2 window in packets, whole blocks of windows.
            index_t done = 0;
            if constexpr (detail::kPoolPairPackets<Reducer, Saver, DType>) {
              if (g.ksize_x == 2 && g.kstride_x == 2) {
                done = detail::PoolPairsRow<Reducer, Saver, DType, HWY_MAX_BYTES / sizeof(DType)>(
                    in, ld, ys, ye, 0, inside, out);
              }
            }
            for (index_t px = done; px < inside; ++px) Reducer::SetInitValue(acc[px]);
            for (index_t y = ys; y < ye; ++y) {
              const DType* p = in + y * ld;
              if (g.ksize_x == 2 && g.kstride_x == 2) {
                // both columns in one pass over the row, same (y, x) order as below
                for (index_t px = done; px < inside; ++px) {
                  DType v = acc[px];
                  Reducer::Reduce(v, p[2 * px]);
                  Reducer::Reduce(v, p[2 * px + 1]);
                  acc[px] = v;
                }
                continue;
              }
              for (index_t kx = 0; kx < g.ksize_x; ++kx) {
                for (index_t px = done; px < inside; ++px)
                  Reducer::Reduce(acc[px], p[px * g.kstride_x + kx]);
              }
            }
            for (index_t px = done; px < inside; ++px) {
              if constexpr (std::is_same<Reducer, red::avg>::value) {
                acc[px] = DType(acc[px] / DType((ye - ys) * g.ksize_x));
              }
              Saver::Save(out[px], acc[px]);
            }
            for (index_t px = inside; px < g.pwidth; ++px) {  // clipped at the right border
              Saver::Save(out[px],
                          g.template ReduceWindow<Reducer, DType>(
                              py, px, [&](index_t y, index_t x) { return in[y * ld + x]; }));
            }
            if (++py == g.pheight) {
              py = 0;
              ++plane;
            }
          }
        });
    return true;
  }
};

/*!
 * \brief Pooling gradient of operands stored in memory: one work unit per source plane, which
 *  scatters each window's gradient into a plane buffer in the (py, px) order the element loop
 *  gathers them (identical values), then stores the plane. Threaded over planes.
 */
template <typename Reducer, typename SrcExp, typename PoolExp, typename GradExp, typename DType,
          int srcdim>
struct TensorEvaluator<UnPoolingExp<Reducer, SrcExp, PoolExp, GradExp, DType, srcdim>> {
  /*! \brief Has a whole-tensor form. */
  static constexpr bool kAvailable = true;
  /*! \brief *dst Saver= e, or false when an operand is not read in place. */
  template <typename Saver, int dim>
  static bool Run(Tensor<cpu, dim, DType>* dst,
                  const UnPoolingExp<Reducer, SrcExp, PoolExp, GradExp, DType, srcdim>& e) {
    detail::RowsView<DType> src, pooled, grad;
    if (!detail::DirectRows<SrcExp>::Get(e.data_src_, &src) ||
        !detail::DirectRows<PoolExp>::Get(e.data_pooled_, &pooled) ||
        !detail::DirectRows<GradExp>::Get(e.grad_pooled_, &grad)) {
      return false;
    }
    const PoolGeometry g = e.g_;
    const index_t planes = e.shape_.ProdShape(0, srcdim - 2);
    if constexpr (std::is_same<Saver, sv::saveto>::value &&
                  detail::kUnpoolPairPackets<Reducer, DType>) {
      if (g.ksize_x == 2 && g.kstride_x == 2 && g.ksize_y == 2 && g.kstride_y == 2 &&
          g.height == 2 * g.pheight && g.width == 2 * g.pwidth) {  // windows tile the planes
        // Reads the source, pooled values and gradients once and writes dst: the streaming rule
        // of elementwise loops applies to those bytes.
        const index_t elems = planes * g.height * g.width;
        const bool stream =
            kernel::UseStreamingStores(static_cast<index_t>(sizeof(DType)) * 5 * (elems / 2), 0) &&
            kernel::detail::VectorAligned(dst->dptr_);
        ParallelFor(
            0, planes * g.pheight, detail::UnitGrain(4 * g.pwidth), [&](index_t b, index_t end) {
              if (stream) {
                detail::Unpool2x2Rows<Reducer, true, DType>(src.ptr, src.ld, pooled.ptr, pooled.ld,
                                                            grad.ptr, grad.ld, dst->dptr_,
                                                            dst->stride_, g.pwidth, b, end);
                hwy::FlushStream();
              } else {
                detail::Unpool2x2Rows<Reducer, false, DType>(src.ptr, src.ld, pooled.ptr, pooled.ld,
                                                             grad.ptr, grad.ld, dst->dptr_,
                                                             dst->stride_, g.pwidth, b, end);
              }
            });
        return true;
      }
    }
    if constexpr (std::is_same<Saver, sv::saveto>::value) {
      if (g.kstride_y >= g.ksize_y && g.kstride_x >= g.ksize_x) {
        UnpoolDisjoint(dst, planes, g, src, pooled, grad);
        return true;
      }
    }
    detail::ScatterPlanes<Saver>(
        dst, planes, g.height, g.width, g.height * g.width * 2,
        [&src, &pooled, &grad, g](index_t c, DType* buf) {
          const DType* in = src.Row(c * g.height);
          for (index_t py = 0; py < g.pheight; ++py) {
            const DType* prow = pooled.Row(c * g.pheight + py);
            const DType* grow = grad.Row(c * g.pheight + py);
            const index_t ys = py * g.kstride_y, ye = std::min(ys + g.ksize_y, g.height);
            for (index_t px = 0; px < g.pwidth; ++px) {
              const index_t xs = px * g.kstride_x, xe = std::min(xs + g.ksize_x, g.width);
              const index_t count = (ye - ys) * (xe - xs);
              for (index_t y = ys; y < ye; ++y) {
                DType* acc = buf + y * g.width;
                for (index_t x = xs; x < xe; ++x) {
                  acc[x] = DType(acc[x] + detail::WindowGrad<Reducer>(in[y * src.ld + x], prow[px],
                                                                      grow[px], count));
                }
              }
            }
          }
        });
    return true;
  }

 private:
  /*!
   * \brief dst = the gradient when no two windows share a source element (stride >= kernel on
   *  both axes, e.g. 2x2 pooling with stride 2): each element then receives at most one
   *  window's term, so it is computed and stored in one pass, row by row, with no plane
   *  buffer. Values are those of the buffer path (0 + term, then 0 outside every window).
   */
  template <int dim>
  static void UnpoolDisjoint(Tensor<cpu, dim, DType>* dst, index_t planes, const PoolGeometry& geom,
                             const detail::RowsView<DType>& src,
                             const detail::RowsView<DType>& pooled,
                             const detail::RowsView<DType>& grad) {
    ParallelFor(
        0, planes, detail::UnitGrain(geom.height * geom.width), [&](index_t b, index_t end) {
          const PoolGeometry g = geom;  // local copy: the stores cannot alias it
          const index_t pitch = dst->stride_;
          for (index_t c = b; c < end; ++c) {
            const DType* in = src.Row(c * g.height);
            DType* out = dst->dptr_ + c * g.height * pitch;
            index_t y = 0;
            for (index_t py = 0; py < g.pheight; ++py) {
              const index_t ys = py * g.kstride_y, ye = std::min(ys + g.ksize_y, g.height);
              for (; y < ys; ++y) std::fill(out + y * pitch, out + y * pitch + g.width, DType(0));
              const DType* prow = pooled.Row(c * g.pheight + py);
              const DType* grow = grad.Row(c * g.pheight + py);
              for (; y < ye; ++y) {
                const DType* irow = in + y * src.ld;
                DType* orow = out + y * pitch;
                index_t x = 0, px = 0;
                if constexpr (detail::kUnpoolPairPackets<Reducer, DType>) {
                  if (g.ksize_x == 2 && g.kstride_x == 2) {  // whole windows in packets
                    const index_t whole = std::min(g.pwidth, g.width / 2);
                    px = detail::UnpoolPairsRow<Reducer, DType, HWY_MAX_BYTES / sizeof(DType)>(
                        irow, 0, 1, prow, grow, 0, whole, orow, 0);
                    x = 2 * px;
                  }
                }
                for (; px < g.pwidth; ++px) {
                  const index_t xs = px * g.kstride_x, xe = std::min(xs + g.ksize_x, g.width);
                  const index_t count = (ye - ys) * (xe - xs);
                  const DType pv = prow[px], gv = grow[px];
                  for (; x < xs; ++x) orow[x] = DType(0);
                  for (; x < xe; ++x) {
                    orow[x] = DType(DType(0) + detail::WindowGrad<Reducer>(irow[x], pv, gv, count));
                  }
                }
                for (; x < g.width; ++x) orow[x] = DType(0);
              }
            }
            for (; y < g.height; ++y)
              std::fill(out + y * pitch, out + y * pitch + g.width, DType(0));
          }
        });
  }
};

}  // namespace expr
}  // namespace shade

#endif  // SHADE_EXPR_EXT_POOL_H_
