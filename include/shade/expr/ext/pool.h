/*!
 * \file pool.h
 * \brief Spatial pooling over the last two dimensions and its gradient (mshadow's names):
 *  `pool<Reducer>(src, ky, kx, sy, sx)` and `unpool<Reducer>(data_src, data_pooled,
 *  grad_pooled, ky, kx, sy, sx)` with Reducer red::maximum, red::sum or red::avg.
 *
 * Output size (mshadow's rule): P = min(H - k + s - 1, H - 1) / s + 1, i.e. windows start at
 * 0, s, 2s, ... while they start inside the image, and a last window that runs past the border
 * is clipped to it. red::avg divides by the clipped window's area. unpool gives each source
 * element the sum over the windows containing it of Reducer::PartialGrad(value, pooled) *
 * grad (for max pooling: every element equal to its window's maximum receives the gradient).
 */
#include "shade/tensor/tensor.h"  // NOLINT(build/include_order)

#ifndef SHADE_EXPR_EXT_POOL_H_
#define SHADE_EXPR_EXT_POOL_H_

#include <algorithm>
#include <type_traits>

#include "shade/expr/ext/ext_base.h"

namespace shade {
namespace red {
/*!
 * \brief Average (for pool / unpool / chpool): sums like red::sum; the pooling plans divide by
 *  the number of elements in the (clipped) window.
 */
struct avg {
  /*! \brief Folds src into dst. */
  template <typename DType>
  static SHADE_XINLINE void Reduce(DType& dst, DType src) { dst = DType(dst + src); }  // NOLINT
  /*! \brief d(sum)/d(src) = 1; the plans apply 1 / window size. */
  template <typename DType>
  static SHADE_XINLINE DType PartialGrad(DType /*redres*/, DType /*redsrc*/) { return DType(1); }
  /*! \brief Identity element: 0. */
  template <typename DType>
  static SHADE_XINLINE void SetInitValue(DType& initv) { initv = DType(0); }  // NOLINT
};
}  // namespace red

namespace expr {

/*! \brief Validated pooling geometry over the last two dimensions. */
struct PoolGeometry {
  /*! \brief Source height and width, pooled height and width. */
  index_t height, width, pheight, pwidth;
  /*! \brief Kernel size and stride per axis. */
  index_t ksize_y, ksize_x, kstride_y, kstride_x;
  /*! \brief Checks and sets the geometry; pshape (-1, -1) selects mshadow's output size. */
  void Init(index_t h, index_t w, index_t ky, index_t kx, index_t sy, index_t sx, index_t ph,
            index_t pw, const char* who) {
    SHADE_CHECK(ky >= 1 && kx >= 1) << who << ": kernel size " << ky << "x" << kx
                                    << " must be at least 1x1";
    SHADE_CHECK(sy >= 1 && sx >= 1) << who << ": stride " << sy << "x" << sx
                                    << " must be at least 1x1";
    SHADE_CHECK(h >= ky && w >= kx) << who << ": kernel " << ky << "x" << kx
                                    << " is larger than the image " << h << "x" << w;
    height = h;
    width = w;
    ksize_y = ky;
    ksize_x = kx;
    kstride_y = sy;
    kstride_x = sx;
    if (ph < 0) {
      pheight = std::min(h - ky + sy - 1, h - 1) / sy + 1;
      pwidth = std::min(w - kx + sx - 1, w - 1) / sx + 1;
    } else {
      SHADE_CHECK(pw >= 0) << who << ": negative pooled width " << pw;
      // every window must start inside the image
      SHADE_CHECK((ph == 0 || (ph - 1) <= (h - 1) / sy) && (pw == 0 || (pw - 1) <= (w - 1) / sx))
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
};

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
  SHADE_CHECK_GE(pshape[0], 0) << "pool: negative pooled height";
  return PoolingExp<Reducer, SrcExp, DType, ExpInfo<SrcExp>::kDim>(
      src.self(), pshape[0], pshape[1], ksize_y, ksize_x, kstride_y, kstride_x);
}

/*! \brief Gradient of pooling with respect to its source (mshadow's UnPoolingExp). */
template <typename Reducer, typename SrcExp, typename PoolExp, typename GradExp, typename DType,
          int srcdim>
struct UnPoolingExp
    : public MakeTensorExp<UnPoolingExp<Reducer, SrcExp, PoolExp, GradExp, DType, srcdim>, SrcExp,
                           srcdim, DType> {
  /*! \brief The pooling's source. */
  SrcExp data_src_;
  /*! \brief The pooling's result. */
  PoolExp data_pooled_;
  /*! \brief Gradient with respect to the pooling's result. */
  GradExp grad_pooled_;
  /*! \brief The geometry. */
  PoolGeometry g_;
  /*! \brief Builds the node; throws when the shapes do not belong together. */
  UnPoolingExp(const SrcExp& data_src, const PoolExp& data_pooled, const GradExp& grad_pooled,
               index_t ky, index_t kx, index_t sy, index_t sx)
      : data_src_(data_src), data_pooled_(data_pooled), grad_pooled_(grad_pooled) {
    const Shape<srcdim> s = detail::SourceShape<srcdim>(data_src_, "unpool");
    const Shape<srcdim> p = detail::SourceShape<srcdim>(data_pooled_, "unpool");
    const Shape<srcdim> gp = detail::SourceShape<srcdim>(grad_pooled_, "unpool");
    SHADE_CHECK(p == gp) << "unpool: pooled data " << p << " and its gradient " << gp
                         << " differ in shape";
    for (int d = 0; d < srcdim - 2; ++d) {
      SHADE_CHECK_EQ(p[d], s[d]) << "unpool: pooled shape " << p << " does not match source "
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
    const Exp<GradExp, DType, e3>& grad_pooled, index_t ksize_y, index_t ksize_x,
    index_t kstride_y, index_t kstride_x) {
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
  explicit Plan(const PoolingExp<Reducer, SrcExp, DType, srcdim>& e)
      : src_(MakePlan(e.src_)), g_(e.g_) {}
  /*! \brief Element (i, px), i = c * pheight + py. */
  SHADE_XINLINE DType Eval(index_t i, index_t px) const {
    const index_t py = i % g_.pheight;
    const index_t c = i / g_.pheight;
    const index_t ys = py * g_.kstride_y, ye = std::min(ys + g_.ksize_y, g_.height);
    const index_t xs = px * g_.kstride_x, xe = std::min(xs + g_.ksize_x, g_.width);
    DType res;
    Reducer::SetInitValue(res);
    for (index_t y = ys; y < ye; ++y) {
      for (index_t x = xs; x < xe; ++x) Reducer::Reduce(res, src_.Eval(c * g_.height + y, x));
    }
    if constexpr (std::is_same<Reducer, red::avg>::value) {
      res = DType(res / DType((ye - ys) * (xe - xs)));
    }
    return res;
  }

 private:
  Plan<SrcExp, DType> src_;
  PoolGeometry g_;
};

/*! \brief Sums the gradient of every window that contains the element. */
template <typename Reducer, typename SrcExp, typename PoolExp, typename GradExp, typename DType,
          int srcdim>
class Plan<UnPoolingExp<Reducer, SrcExp, PoolExp, GradExp, DType, srcdim>, DType> {
 public:
  explicit Plan(const UnPoolingExp<Reducer, SrcExp, PoolExp, GradExp, DType, srcdim>& e)
      : src_(MakePlan(e.data_src_)),
        pooled_(MakePlan(e.data_pooled_)),
        grad_(MakePlan(e.grad_pooled_)),
        g_(e.g_) {}
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
        DType gv = DType(Reducer::PartialGrad(vsrc, pooled_.Eval(row, px)) * grad_.Eval(row, px));
        if constexpr (std::is_same<Reducer, red::avg>::value) gv = DType(gv / DType(g_.Area(py, px)));
        val = DType(val + gv);
      }
    }
    return val;
  }

 private:
  Plan<SrcExp, DType> src_;
  Plan<PoolExp, DType> pooled_;
  Plan<GradExp, DType> grad_;
  PoolGeometry g_;
};

}  // namespace expr
}  // namespace shade

#endif  // SHADE_EXPR_EXT_POOL_H_
