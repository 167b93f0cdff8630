/*!
 * \file chpool.h
 * \brief Pooling across nearby channels (dimension rank-3, as in local response
 *  normalisation) and its gradient: `chpool<Reducer>(src, nsize[, stride, pad])`,
 *  `ch_unpool<Reducer>(data_src, data_pooled, grad_pooled, nsize[, stride, pad])`.
 *
 * Output channel o reduces input channels [o * stride - pad, o * stride - pad + nsize) clipped
 * to [0, C); there are (C + 2 pad - nsize) / stride + 1 of them. The two-argument forms use
 * stride 1 and pad nsize / 2 (nsize must then be odd), which keeps the channel count.
 * (mshadow's versions clipped the window at its padded start and one ch_unpool overload did not
 * compile; these follow the definition above, checked against a naive loop.)
 */
#ifndef SHADE_EXPR_EXT_CHPOOL_H_
#define SHADE_EXPR_EXT_CHPOOL_H_

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "shade/expr/ext/ext_base.h"
#include "shade/expr/ext/pool.h"
#include "shade/tensor/tensor.h"

namespace shade {
namespace expr {

/*! \brief Validated channel-window geometry. */
struct ChannelPoolGeometry {
  index_t channel;   ///< Input channels.
  index_t pchannel;  ///< Output (pooled) channels.
  index_t height;    ///< Height of a channel plane.
  index_t nsize;     ///< Channel window size.
  index_t stride;    ///< Stride between channel windows.
  index_t pad;       ///< Channels of padding on each side.
  /*! \brief Checks and sets the geometry. */
  void Init(index_t c, index_t h, index_t n, index_t s, index_t p, const char* who) {
    SHADE_CHECK_GE(n, 1) << who << ": window size must be at least 1";
    SHADE_CHECK_SHAPE_GE(s, 1) << who << ": stride must be at least 1";
    SHADE_CHECK_GE(p, 0) << who << ": negative padding";
    SHADE_CHECK(CheckedAdd(c, CheckedMul(p, 2, who), who) >= n)
        << who << ": window " << n << " is larger than the " << c << " channels plus padding " << p
        << " on each side";
    channel = c;
    height = h;
    nsize = n;
    stride = s;
    pad = p;
    pchannel = (c + 2 * p - n) / s + 1;
  }
};

/*! \brief Channel-pooled source (mshadow's ChannelPoolingExp). */
template <typename Reducer, typename SrcExp, typename DType, int srcdim>
struct ChannelPoolingExp : public MakeTensorExp<ChannelPoolingExp<Reducer, SrcExp, DType, srcdim>,
                                                SrcExp, srcdim, DType> {
  /*! \brief The source. */
  SrcExp src_;
  /*! \brief The geometry. */
  ChannelPoolGeometry g_;
  /*! \brief Builds the node; throws on bad parameters. */
  ChannelPoolingExp(const SrcExp& src, index_t nsize, index_t stride, index_t pad) : src_(src) {
    const Shape<srcdim> s = detail::SourceShape<srcdim>(src_, "chpool");
    g_.Init(s[srcdim - 3], s[srcdim - 2], nsize, stride, pad, "chpool");
    this->shape_ = s;
    this->shape_[srcdim - 3] = g_.pchannel;
  }
};

/*! \brief Channel pooling with a window of `nsize` (odd), stride 1, centred. */
template <typename Reducer, typename SrcExp, typename DType, int etype>
inline ChannelPoolingExp<Reducer, SrcExp, DType, ExpInfo<SrcExp>::kDim> chpool(
    const Exp<SrcExp, DType, etype>& src, index_t nsize) {
  static_assert(ExpInfo<SrcExp>::kDim >= 3, "chpool: the source needs rank >= 3 (C, H, W)");
  SHADE_CHECK_EQ(nsize % 2, 1) << "chpool: without an explicit pad the window size must be odd";
  return ChannelPoolingExp<Reducer, SrcExp, DType, ExpInfo<SrcExp>::kDim>(src.self(), nsize, 1,
                                                                          nsize / 2);
}
/*! \brief Channel pooling with explicit stride and padding. */
template <typename Reducer, typename SrcExp, typename DType, int etype>
inline ChannelPoolingExp<Reducer, SrcExp, DType, ExpInfo<SrcExp>::kDim> chpool(
    const Exp<SrcExp, DType, etype>& src, index_t nsize, index_t stride, index_t pad) {
  static_assert(ExpInfo<SrcExp>::kDim >= 3, "chpool: the source needs rank >= 3 (C, H, W)");
  return ChannelPoolingExp<Reducer, SrcExp, DType, ExpInfo<SrcExp>::kDim>(src.self(), nsize, stride,
                                                                          pad);
}

/*! \brief Gradient of chpool with respect to its source (mshadow's ChannelUnpoolingExp). */
template <typename Reducer, typename SrcExp, typename PoolExp, typename GradExp, typename DType,
          int srcdim>
struct ChannelUnpoolingExp
    : public MakeTensorExp<ChannelUnpoolingExp<Reducer, SrcExp, PoolExp, GradExp, DType, srcdim>,
                           SrcExp, srcdim, DType>,
      public detail::PoolGradOperands<SrcExp, PoolExp, GradExp, srcdim> {
  /*! \brief The geometry. */
  ChannelPoolGeometry g_;
  /*! \brief Builds the node; throws when the shapes do not belong together. */
  ChannelUnpoolingExp(const SrcExp& data_src, const PoolExp& data_pooled,
                      const GradExp& grad_pooled, index_t nsize, index_t stride, index_t pad)
      : detail::PoolGradOperands<SrcExp, PoolExp, GradExp, srcdim>(data_src, data_pooled,
                                                                   grad_pooled, "ch_unpool") {
    const Shape<srcdim>& s = this->src_shape_;
    const Shape<srcdim>& p = this->pooled_shape_;
    g_.Init(s[srcdim - 3], s[srcdim - 2], nsize, stride, pad, "ch_unpool");
    Shape<srcdim> want = s;
    want[srcdim - 3] = g_.pchannel;
    SHADE_CHECK_SHAPE(p == want) << "ch_unpool: pooled shape " << p << " but chpool of the source "
                                 << s << " with these parameters gives " << want;
    this->shape_ = s;
  }
};

/*! \brief Gradient of chpool with explicit stride and padding. */
template <typename Reducer, typename SrcExp, typename PoolExp, typename GradExp, typename DType,
          int e1, int e2, int e3>
inline ChannelUnpoolingExp<Reducer, SrcExp, PoolExp, GradExp, DType, ExpInfo<SrcExp>::kDim>
ch_unpool(const Exp<SrcExp, DType, e1>& data_src, const Exp<PoolExp, DType, e2>& data_pooled,
          const Exp<GradExp, DType, e3>& grad_pooled, index_t nsize, index_t stride, index_t pad) {
  static_assert(ExpInfo<SrcExp>::kDim >= 3, "ch_unpool: the source needs rank >= 3 (C, H, W)");
  static_assert(ExpInfo<PoolExp>::kDim == ExpInfo<SrcExp>::kDim &&
                    ExpInfo<GradExp>::kDim == ExpInfo<SrcExp>::kDim,
                "ch_unpool: source, pooled data and gradient must have the same rank");
  return ChannelUnpoolingExp<Reducer, SrcExp, PoolExp, GradExp, DType, ExpInfo<SrcExp>::kDim>(
      data_src.self(), data_pooled.self(), grad_pooled.self(), nsize, stride, pad);
}
/*! \brief Gradient of chpool(src, nsize) (stride 1, centred window; nsize odd). */
template <typename Reducer, typename SrcExp, typename PoolExp, typename GradExp, typename DType,
          int e1, int e2, int e3>
inline ChannelUnpoolingExp<Reducer, SrcExp, PoolExp, GradExp, DType, ExpInfo<SrcExp>::kDim>
ch_unpool(const Exp<SrcExp, DType, e1>& data_src, const Exp<PoolExp, DType, e2>& data_pooled,
          const Exp<GradExp, DType, e3>& grad_pooled, index_t nsize) {
  SHADE_CHECK_EQ(nsize % 2, 1) << "ch_unpool: without an explicit pad the window size must be odd";
  return ch_unpool<Reducer>(data_src, data_pooled, grad_pooled, nsize, 1, nsize / 2);
}

/*! \brief Reduces the clipped channel window. */
template <typename Reducer, typename SrcExp, typename DType, int srcdim>
class Plan<ChannelPoolingExp<Reducer, SrcExp, DType, srcdim>, DType> {
 public:
  /*! \brief Builds the source plan and copies the validated geometry. */
  explicit Plan(const ChannelPoolingExp<Reducer, SrcExp, DType, srcdim>& e)
      : src_(MakePlan(e.src_)), g_(e.g_) {}
  /*! \brief Element (i, x), i = (n * pchannel + o) * height + y. */
  SHADE_XINLINE DType Eval(index_t i, index_t x) const {
    const index_t y = i % g_.height;
    const index_t no = i / g_.height;
    const index_t o = no % g_.pchannel;
    const index_t n = no / g_.pchannel;
    const index_t start = o * g_.stride - g_.pad;
    const index_t cs = std::max<index_t>(start, 0), ce = std::min(start + g_.nsize, g_.channel);
    DType res;
    Reducer::SetInitValue(res);
    for (index_t c = cs; c < ce; ++c) {
      Reducer::Reduce(res, src_.Eval((n * g_.channel + c) * g_.height + y, x));
    }
    if constexpr (std::is_same<Reducer, red::avg>::value) res = DType(res / DType(ce - cs));
    return res;
  }

 private:
  Plan<SrcExp, DType> src_;
  ChannelPoolGeometry g_;
};

/*! \brief Sums the gradient of every output channel whose window contains the channel. */
template <typename Reducer, typename SrcExp, typename PoolExp, typename GradExp, typename DType,
          int srcdim>
class Plan<ChannelUnpoolingExp<Reducer, SrcExp, PoolExp, GradExp, DType, srcdim>, DType>
    : detail::PoolGradPlanBase<SrcExp, PoolExp, GradExp, DType, ChannelPoolGeometry> {
  using Base = detail::PoolGradPlanBase<SrcExp, PoolExp, GradExp, DType, ChannelPoolGeometry>;
  using Base::g_;
  using Base::grad_;
  using Base::pooled_;
  using Base::src_;

 public:
  /*! \brief Builds the plans of the source, pooled output and gradient. */
  explicit Plan(const ChannelUnpoolingExp<Reducer, SrcExp, PoolExp, GradExp, DType, srcdim>& e)
      : Base(e) {}
  /*! \brief Element (i, x), i = (n * channel + c) * height + y. */
  SHADE_XINLINE DType Eval(index_t i, index_t x) const {
    const index_t y = i % g_.height;
    const index_t nc = i / g_.height;
    const index_t c = nc % g_.channel;
    const index_t n = nc / g_.channel;
    const DType vsrc = src_.Eval(i, x);
    const index_t t = c + g_.pad - g_.nsize + 1;  // first o with o * stride - pad + nsize > c
    const index_t o_min = t <= 0 ? 0 : (t + g_.stride - 1) / g_.stride;
    const index_t o_max = std::min((c + g_.pad) / g_.stride + 1, g_.pchannel);
    DType val = DType(0);
    for (index_t o = o_min; o < o_max; ++o) {
      const index_t row = (n * g_.pchannel + o) * g_.height + y;
      const index_t start = o * g_.stride - g_.pad;
      const index_t count = std::min(start + g_.nsize, g_.channel) - std::max<index_t>(start, 0);
      val = DType(
          val + detail::WindowGrad<Reducer>(vsrc, pooled_.Eval(row, x), grad_.Eval(row, x), count));
    }
    return val;
  }
};

namespace detail {
SHADE_TARGET_NAMESPACE_BEGIN
#if HWY_TARGET != HWY_SCALAR && HWY_TARGET != HWY_EMU128
/*!
 * \brief out[0, len) Saver= the Reducer fold of the rows first + c * step, c in [0, count), in c
 *  order (the element loop's, so the same bits), four packets of columns at a time, then one,
 *  then the tail.
 *  The row `count` + 1 steps on, which the unit after the next will read first from memory,
 *  is prefetched a cache line per 64 bytes as this unit goes. Why: the window's other rows
 *  are in L1 from the previous unit, but the hardware prefetcher, seeing `count` interleaved
 *  streams a plane apart, did not fetch the new one in time; with one thread the loop waited
 *  on it (0.21x of a memcpy of the bytes; 2 threads were 3-4x faster, not 2x). One unit
 *  ahead was too close once the folds ran four packets at a time (1.07x slower).
 *  Only its address is formed (as an integer), never dereferenced, so one past the source is
 *  harmless. kStream writes the packets with non-temporal stores (out + x must then be vector
 *  aligned; the caller decides, see kernel::UseStreamingStores, and flushes). Otherwise, with
 *  out_ahead != 0 (elements from out to the output the thread writes next), that output's
 *  lines are prefetched for writing as this unit goes, the same way (an integer address): at
 *  the bench's batch 128 (18.9 MB, written with ordinary stores) this took one thread from
 *  0.69x to 0.90x of a memcpy of the bytes on Zen 3 (bench/RESULTS.md "chpool").
 */
template <typename Reducer, typename Saver, bool kStream, typename T>
void ChannelPoolRow(const T* first, index_t step, index_t count, index_t len, T* out,
                    index_t out_ahead) {
  namespace hn = packet::hn;
  const packet::Tag<T> d;
  const index_t lanes = static_cast<index_t>(hn::Lanes(d));
  constexpr index_t kLine = 64 / static_cast<index_t>(sizeof(T));
  const std::uintptr_t next =
      reinterpret_cast<std::uintptr_t>(first) + sizeof(T) * (count + 1) * step;
  const std::uintptr_t out_next =
      reinterpret_cast<std::uintptr_t>(out) + sizeof(T) * static_cast<std::uintptr_t>(out_ahead);
  T init;
  Reducer::SetInitValue(init);
  index_t x = 0;
  // Four packets at a time: each accumulator's folds wait on the previous one (latency), so
  // four independent chains keep the adder busy (one chain: 0.55x of a memcpy of the bytes).
  for (; x + 4 * lanes <= len; x += 4 * lanes) {
    for (std::uintptr_t b = 0; b < sizeof(T) * 4 * lanes; b += 64) {
      hwy::Prefetch(reinterpret_cast<const T*>(next + sizeof(T) * x + b));
      if (!kStream && out_ahead != 0) {
        packet::PrefetchForWrite(reinterpret_cast<const T*>(out_next + sizeof(T) * x + b));
      }
    }
    auto acc0 = hn::Set(d, init), acc1 = acc0, acc2 = acc0, acc3 = acc0;
    for (index_t c = 0; c < count; ++c) {
      const T* row = first + c * step + x;
      acc0 = Reducer::ReducePacket(d, acc0, hn::LoadU(d, row));
      acc1 = Reducer::ReducePacket(d, acc1, hn::LoadU(d, row + lanes));
      acc2 = Reducer::ReducePacket(d, acc2, hn::LoadU(d, row + 2 * lanes));
      acc3 = Reducer::ReducePacket(d, acc3, hn::LoadU(d, row + 3 * lanes));
    }
    if constexpr (Saver::kReadsDst) {
      acc0 = Saver::SavePacket(d, hn::LoadU(d, out + x), acc0);
      acc1 = Saver::SavePacket(d, hn::LoadU(d, out + x + lanes), acc1);
      acc2 = Saver::SavePacket(d, hn::LoadU(d, out + x + 2 * lanes), acc2);
      acc3 = Saver::SavePacket(d, hn::LoadU(d, out + x + 3 * lanes), acc3);
    }
    kernel::detail::StoreOrStream<kStream>(acc0, d, out + x);
    kernel::detail::StoreOrStream<kStream>(acc1, d, out + x + lanes);
    kernel::detail::StoreOrStream<kStream>(acc2, d, out + x + 2 * lanes);
    kernel::detail::StoreOrStream<kStream>(acc3, d, out + x + 3 * lanes);
  }
  for (; x + lanes <= len; x += lanes) {
    if (x % kLine == 0) hwy::Prefetch(reinterpret_cast<const T*>(next + sizeof(T) * x));
    auto acc = hn::Set(d, init);
    for (index_t c = 0; c < count; ++c) {
      acc = Reducer::ReducePacket(d, acc, hn::LoadU(d, first + c * step + x));
    }
    if constexpr (Saver::kReadsDst) acc = Saver::SavePacket(d, hn::LoadU(d, out + x), acc);
    kernel::detail::StoreOrStream<kStream>(acc, d, out + x);
  }
  for (; x < len; ++x) {
    T v = init;
    for (index_t c = 0; c < count; ++c) Reducer::Reduce(v, first[c * step + x]);
    Saver::Save(out[x], v);
  }
}
#else  // scalar targets: the element loop runs (declaration for name lookup only)
template <typename Reducer, typename Saver, bool kStream, typename T>
void ChannelPoolRow(const T* first, index_t step, index_t count, index_t len, T* out,
                    index_t out_ahead);
#endif
SHADE_TARGET_NAMESPACE_END
}  // namespace detail

/*!
 * \brief Channel pooling of a source stored in memory: one work unit per output row (or per
 *  output plane, when source and destination planes are dense), which folds its window's
 *  source rows a packet of columns at a time. Threaded over the units; values as the element
 *  loop, which divides its flat index into (image, channel, row) for every element.
 */
template <typename Reducer, typename SrcExp, typename DType, int srcdim>
struct TensorEvaluator<ChannelPoolingExp<Reducer, SrcExp, DType, srcdim>> {
  /*! \brief Has a whole-tensor form. */
  static constexpr bool kAvailable = true;
  /*! \brief *dst Saver= e, or false when the source is not read in place or the reducer (avg)
   *  or saver has no packet form. */
  template <typename Saver, int dim>
  static bool Run(Tensor<cpu, dim, DType>* dst,
                  const ChannelPoolingExp<Reducer, SrcExp, DType, srcdim>& e) {
    if constexpr (!detail::kPoolPairPackets<Reducer, Saver, DType>) {
      return false;
    } else {
      detail::RowsView<DType> src;
      if (!detail::DirectRows<SrcExp>::Get(e.src_, &src)) return false;
      const ChannelPoolGeometry g = e.g_;
      const index_t w = src.cols;
      const bool planes = src.ld == w && dst->stride_ == w;  // a plane is one row
      const index_t len = planes ? g.height * w : w;         // elements per unit
      const index_t per_plane = planes ? 1 : g.height;       // units per output plane
      const index_t step = g.height * src.ld;                // from one channel to the next
      const index_t units = e.shape_.ProdShape(0, srcdim - 3) * g.pchannel * per_plane;
      DType* out = dst->dptr_;
      const index_t pitch = planes ? len : dst->stride_;
      // Each source element is read about once (the window's other rows are in L1), so the
      // loop moves src and dst bytes: the streaming rule of elementwise loops applies.
      const index_t bytes =
          static_cast<index_t>(sizeof(DType)) *
          (e.shape_.ProdShape(0, srcdim - 3) * g.channel * g.height * w + units * len);
      const bool stream = !Saver::kReadsDst && kernel::UseStreamingStores(bytes, 0) &&
                          kernel::detail::VectorAligned(out) &&
                          pitch % static_cast<index_t>(packet::Lanes<DType>()) == 0;
      ParallelFor(0, units, detail::UnitGrain(len * g.nsize), [&](index_t b, index_t end) {
        for (index_t u = b; u < end; ++u) {
          const index_t y = u % per_plane, no = u / per_plane;
          const index_t o = no % g.pchannel, n = no / g.pchannel;
          const index_t start = o * g.stride - g.pad;
          const index_t cs = std::max<index_t>(start, 0);
          const index_t ce = std::min(start + g.nsize, g.channel);
          const DType* first = src.ptr + ((n * g.channel + cs) * g.height + y) * src.ld;
          if (stream) {
            detail::ChannelPoolRow<Reducer, Saver, true, DType>(first, step, ce - cs, len,
                                                                out + u * pitch, 0);
          } else {
            detail::ChannelPoolRow<Reducer, Saver, false, DType>(
                first, step, ce - cs, len, out + u * pitch, u + 1 < end ? pitch : 0);
          }
        }
        if (stream) hwy::FlushStream();
      });
      return true;
    }
  }
};

}  // namespace expr
}  // namespace shade

#endif  // SHADE_EXPR_EXT_CHPOOL_H_
