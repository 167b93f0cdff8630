/*!
 * \file broadcast.h
 * \brief Broadcasting extensions: `broadcast<dimcast>(vec, shape)`, `broadcast_scalar`,
 *  `repmat`, `broadcast_with_axis`, `broadcast_keepdim`, `broadcast_multi_axes`,
 *  `broadcast_to`. Each reads its source through the source's plan, so the source may be any
 *  expression (and a padded tensor); nothing is copied.
 */
#ifndef SHADE_EXPR_EXT_BROADCAST_H_
#define SHADE_EXPR_EXT_BROADCAST_H_

#include "shade/expr/ext/ext_base.h"
#include "shade/shape/tshape.h"
#include "shade/tensor/tensor.h"

namespace shade {
namespace expr {

/*!
 * \brief A 1-D source repeated along every dimension of `shape_` except `dimcast`, whose
 *  extent equals the source's length (mshadow's Broadcast1DExp).
 */
template <typename SrcExp, typename DType, int dimdst, int dimcast>
struct Broadcast1DExp
    : public MakeTensorExp<Broadcast1DExp<SrcExp, DType, dimdst, dimcast>, SrcExp, dimdst, DType> {
  /*! \brief The 1-D source. */
  SrcExp src_;
  /*! \brief Builds the node; the caller has checked `shape`. */
  Broadcast1DExp(const SrcExp& src, const Shape<dimdst>& shape) : src_(src) {
    this->shape_ = shape;
  }
};

/*! \brief A one-element source repeated over `shape_` (mshadow's BroadcastScalarExp). */
template <typename SrcExp, typename DType, int dimdst>
struct BroadcastScalarExp
    : public MakeTensorExp<BroadcastScalarExp<SrcExp, DType, dimdst>, SrcExp, dimdst, DType> {
  /*! \brief The one-element 1-D source. */
  SrcExp src_;
  /*! \brief Builds the node; the caller has checked `shape`. */
  BroadcastScalarExp(const SrcExp& src, const Shape<dimdst>& shape) : src_(src) {
    this->shape_ = shape;
  }
};

/*!
 * \brief Broadcasts a 1-D expression to `shape`: element (i_0, ..., i_{n-1}) is
 *  `src[i_dimcast]`. `broadcast<1>(bias, Shape2(batch, n))` adds a bias to every row;
 *  `broadcast<1>(bias, Shape4(n, c, h, w))` adds a per-channel bias. Throws when the source's
 *  length differs from shape[dimcast].
 */
template <int dimcast, typename SrcExp, typename DType, int etype, int dimdst>
inline Broadcast1DExp<SrcExp, DType, dimdst, dimcast> broadcast(
    const Exp<SrcExp, DType, etype>& src, Shape<dimdst> shape) {
  static_assert(0 <= dimcast && dimcast < dimdst, "broadcast<dimcast>: dimcast outside the rank");
  static_assert(ExpInfo<SrcExp>::kDim == 1, "broadcast<dimcast>: the source must be 1-D");
  detail::CheckShapeArg(shape, "broadcast");
  const Shape<1> s = detail::SourceShape<1>(src.self(), "broadcast");
  SHADE_CHECK_SHAPE_EQ(s[0], shape[dimcast])
      << "broadcast<" << dimcast << ">: source length differs from extent " << dimcast
      << " of the target shape " << shape;
  return Broadcast1DExp<SrcExp, DType, dimdst, dimcast>(src.self(), shape);
}

/*! \brief Broadcasts a 1-D expression of one element to `shape`. Throws unless its length is 1. */
template <typename SrcExp, typename DType, int etype, int dimdst>
inline BroadcastScalarExp<SrcExp, DType, dimdst> broadcast_scalar(
    const Exp<SrcExp, DType, etype>& src, Shape<dimdst> shape) {
  static_assert(ExpInfo<SrcExp>::kDim == 1, "broadcast_scalar: the source must be 1-D");
  detail::CheckShapeArg(shape, "broadcast_scalar");
  const Shape<1> s = detail::SourceShape<1>(src.self(), "broadcast_scalar");
  SHADE_CHECK_SHAPE_EQ(s[0], 1) << "broadcast_scalar: the source must have exactly one element";
  return BroadcastScalarExp<SrcExp, DType, dimdst>(src.self(), shape);
}

/*! \brief `nrow` copies of a 1-D expression as the rows of a matrix: broadcast<1>(src, (nrow, n)).
 */
template <typename SrcExp, typename DType, int etype>
inline Broadcast1DExp<SrcExp, DType, 2, 1> repmat(const Exp<SrcExp, DType, etype>& src,
                                                  index_t nrow) {
  static_assert(ExpInfo<SrcExp>::kDim == 1, "repmat: the source must be 1-D");
  SHADE_CHECK_GE(nrow, 0) << "repmat: negative row count";
  const Shape<1> s = detail::SourceShape<1>(src.self(), "repmat");
  return broadcast<1>(src, Shape2(nrow, s[0]));
}

/*!
 * \brief General broadcast: every destination dimension d reads the source with step
 *  `sstride_[d]` (0 where the dimension is broadcast or inserted). Used by broadcast_with_axis,
 *  broadcast_keepdim, broadcast_multi_axes and broadcast_to.
 */
template <typename SrcExp, typename DType, int dimsrc, int dimdst>
struct BroadcastWithAxisExp
    : public MakeTensorExp<BroadcastWithAxisExp<SrcExp, DType, dimsrc, dimdst>, SrcExp, dimdst,
                           DType> {
  /*! \brief The source. */
  SrcExp src_;
  /*! \brief Step in the source's flat (dense) index per unit of each destination index. */
  Shape<dimdst> sstride_;
  /*! \brief Last extent of the source (to split its flat index into row and column). */
  index_t src_last_;
  /*! \brief Builds the node from checked shapes and steps. */
  BroadcastWithAxisExp(const SrcExp& src, const Shape<dimdst>& shape, const Shape<dimdst>& sstride,
                       index_t src_last)
      : src_(src), sstride_(sstride), src_last_(src_last) {
    this->shape_ = shape;
  }
};

namespace detail {
/*! \brief Dense steps of a shape: step[d] = product of extents after d. */
template <int dim>
inline Shape<dim> DenseSteps(const Shape<dim>& s) {
  Shape<dim> step;
  index_t acc = 1;
  for (int d = dim - 1; d >= 0; --d) {
    step[d] = acc;
    acc *= s[d];
  }
  return step;
}
}  // namespace detail

/*!
 * \brief Inserts a new dimension of extent `size` after `axis` (axis -1 inserts it first) and
 *  repeats the source along it: a (2, 3) source with axis 0 gives (2, size, 3).
 */
template <typename SrcExp, typename DType, int etype>
inline BroadcastWithAxisExp<SrcExp, DType, ExpInfo<SrcExp>::kDim, ExpInfo<SrcExp>::kDim + 1>
broadcast_with_axis(const Exp<SrcExp, DType, etype>& src, int axis, index_t size) {
  constexpr int dimsrc = ExpInfo<SrcExp>::kDim;
  constexpr int dimdst = dimsrc + 1;
  static_assert(dimsrc >= 1, "broadcast_with_axis: the source must be a tensor expression");
  const Shape<dimsrc> s = detail::SourceShape<dimsrc>(src.self(), "broadcast_with_axis");
  SHADE_CHECK_INDEX(-1 <= axis && axis < dimsrc)
      << "broadcast_with_axis: axis " << axis << " outside [-1, " << dimsrc - 1
      << "] for a source of shape " << s;
  SHADE_CHECK_SHAPE_GE(size, 0) << "broadcast_with_axis: negative size";
  const Shape<dimsrc> step = detail::DenseSteps(s);
  Shape<dimdst> shape, sstride;
  for (int d = 0, k = 0; d < dimdst; ++d) {
    if (d == axis + 1) {
      shape[d] = size;
      sstride[d] = 0;
    } else {
      shape[d] = s[k];
      sstride[d] = step[k];
      ++k;
    }
  }
  detail::CheckShapeArg(shape, "broadcast_with_axis");
  return BroadcastWithAxisExp<SrcExp, DType, dimsrc, dimdst>(src.self(), shape, sstride,
                                                             s[dimsrc - 1]);
}

/*!
 * \brief Repeats the source along `axis`, whose source extent must be 1, to extent `size`:
 *  a (2, 1, 3) source with axis 1 and size 4 gives (2, 4, 3).
 */
template <typename SrcExp, typename DType, int etype>
inline BroadcastWithAxisExp<SrcExp, DType, ExpInfo<SrcExp>::kDim, ExpInfo<SrcExp>::kDim>
broadcast_keepdim(const Exp<SrcExp, DType, etype>& src, int axis, index_t size) {
  constexpr int dim = ExpInfo<SrcExp>::kDim;
  static_assert(dim >= 1, "broadcast_keepdim: the source must be a tensor expression");
  const Shape<dim> s = detail::SourceShape<dim>(src.self(), "broadcast_keepdim");
  SHADE_CHECK_INDEX(0 <= axis && axis < dim)
      << "broadcast_keepdim: axis " << axis << " outside [0, " << dim - 1
      << "] for a source of shape " << s;
  SHADE_CHECK_SHAPE_EQ(s[axis], 1)
      << "broadcast_keepdim: extent " << axis << " of the source shape " << s << " must be 1";
  SHADE_CHECK_SHAPE_GE(size, 0) << "broadcast_keepdim: negative size";
  Shape<dim> shape = s, sstride = detail::DenseSteps(s);
  shape[axis] = size;
  sstride[axis] = 0;
  detail::CheckShapeArg(shape, "broadcast_keepdim");
  return BroadcastWithAxisExp<SrcExp, DType, dim, dim>(src.self(), shape, sstride, s[dim - 1]);
}

/*!
 * \brief Repeats the source along several axes (increasing, each of source extent 1) to the
 *  given sizes: `broadcast_multi_axes(src, {0, 2}, {4, 5})`.
 */
template <typename SrcExp, typename DType, int etype>
inline BroadcastWithAxisExp<SrcExp, DType, ExpInfo<SrcExp>::kDim, ExpInfo<SrcExp>::kDim>
broadcast_multi_axes(const Exp<SrcExp, DType, etype>& src, const TShape& axes,
                     const TShape& sizes) {
  constexpr int dim = ExpInfo<SrcExp>::kDim;
  static_assert(dim >= 1, "broadcast_multi_axes: the source must be a tensor expression");
  const Shape<dim> s = detail::SourceShape<dim>(src.self(), "broadcast_multi_axes");
  SHADE_CHECK_SHAPE_EQ(axes.ndim(), sizes.ndim())
      << "broadcast_multi_axes: axes " << axes << " and sizes " << sizes << " differ in length";
  SHADE_CHECK_SHAPE_LE(axes.ndim(), dim)
      << "broadcast_multi_axes: more axes than source dimensions";
  Shape<dim> shape = s, sstride = detail::DenseSteps(s);
  for (index_t i = 0; i < axes.ndim(); ++i) {
    const index_t a = axes[i];
    SHADE_CHECK_INDEX(0 <= a && a < dim) << "broadcast_multi_axes: axis " << a << " outside [0, "
                                         << dim - 1 << "] for a source of shape " << s;
    SHADE_CHECK_SHAPE(i == 0 || axes[i - 1] < a)
        << "broadcast_multi_axes: axes " << axes << " are not strictly increasing";
    SHADE_CHECK_SHAPE_EQ(s[a], 1) << "broadcast_multi_axes: extent " << a << " of the source shape "
                                  << s << " must be 1";
    SHADE_CHECK_SHAPE_GE(sizes[i], 0) << "broadcast_multi_axes: negative size for axis " << a;
    shape[a] = sizes[i];
    sstride[a] = 0;
  }
  detail::CheckShapeArg(shape, "broadcast_multi_axes");
  return BroadcastWithAxisExp<SrcExp, DType, dim, dim>(src.self(), shape, sstride, s[dim - 1]);
}

/*!
 * \brief Broadcasts the source to `target_shape` (same rank); every extent that differs must be
 *  1 in the source (NumPy's rule without rank extension).
 */
template <typename SrcExp, typename DType, int etype>
inline BroadcastWithAxisExp<SrcExp, DType, ExpInfo<SrcExp>::kDim, ExpInfo<SrcExp>::kDim>
broadcast_to(const Exp<SrcExp, DType, etype>& src, const TShape& target_shape) {
  constexpr int dim = ExpInfo<SrcExp>::kDim;
  static_assert(dim >= 1, "broadcast_to: the source must be a tensor expression");
  const Shape<dim> s = detail::SourceShape<dim>(src.self(), "broadcast_to");
  SHADE_CHECK_SHAPE_EQ(target_shape.ndim(), dim) << "broadcast_to: target shape " << target_shape
                                                 << " has a different rank from the source " << s;
  Shape<dim> shape = s, sstride = detail::DenseSteps(s);
  for (int d = 0; d < dim; ++d) {
    if (s[d] == target_shape[d]) continue;
    SHADE_CHECK_SHAPE_EQ(s[d], 1) << "broadcast_to: cannot broadcast source shape " << s << " to "
                                  << target_shape << " (extent " << d << " differs and is not 1)";
    SHADE_CHECK_SHAPE_GE(target_shape[d], 0) << "broadcast_to: negative target extent " << d;
    shape[d] = target_shape[d];
    sstride[d] = 0;
  }
  detail::CheckShapeArg(shape, "broadcast_to");
  return BroadcastWithAxisExp<SrcExp, DType, dim, dim>(src.self(), shape, sstride, s[dim - 1]);
}

/*! \brief Reads src[i_dimcast]: a division only when dimcast is not the last dimension. */
template <typename SrcExp, typename DType, int dimdst, int dimcast>
class Plan<Broadcast1DExp<SrcExp, DType, dimdst, dimcast>, DType> {
 public:
  /*! \brief Builds the source plan and copies the broadcast geometry. */
  explicit Plan(const Broadcast1DExp<SrcExp, DType, dimdst, dimcast>& e)
      : src_(MakePlan(e.src_)),
        ystride_(e.shape_.ProdShape(dimcast + 1, dimdst - 1)),
        length_(e.shape_[dimcast]) {}
  /*! \brief Element (y, x). */
  SHADE_XINLINE DType Eval(index_t y, index_t x) const {
    if constexpr (dimcast == dimdst - 1) {
      (void)y;
      return src_.Eval(0, x);
    } else {
      (void)x;
      return src_.Eval(0, (y / ystride_) % length_);
    }
  }

 private:
  Plan<SrcExp, DType> src_;
  index_t ystride_, length_;
};

/*!
 * \brief Broadcast of a 1-D source stored in memory, stored with packets: in a dense
 *  destination each source value fills one contiguous block (the bias of a channel); else each
 *  result row is the source (dimcast last) or one source value repeated. Threaded.
 */
template <typename SrcExp, typename DType, int dimdst, int dimcast>
struct TensorEvaluator<Broadcast1DExp<SrcExp, DType, dimdst, dimcast>> {
  /*! \brief Has a whole-tensor form. */
  static constexpr bool kAvailable = true;
  /*! \brief *dst Saver= e, or false when the source is not read in place. */
  template <typename Saver, int dim>
  static bool Run(Tensor<cpu, dim, DType>* dst,
                  const Broadcast1DExp<SrcExp, DType, dimdst, dimcast>& e) {
    detail::RowsView<DType> src;
    if (!detail::DirectRows<SrcExp>::Get(e.src_, &src)) return false;
    const DType* vec = src.ptr;
    const index_t length = e.shape_[dimcast];
    if constexpr (dimcast < dimdst - 1) {
      if (dst->CheckContiguous()) {
        const index_t block = e.shape_.ProdShape(dimcast + 1, dimdst);
        ParallelFor(0, e.shape_.ProdShape(0, dimcast + 1), detail::UnitGrain(block),
                    [&](index_t b, index_t end) {
                      for (index_t u = b; u < end; ++u) {
                        detail::SaveRun<Saver>(block, dst->dptr_ + u * block,
                                               kernel::MakeScalar(vec[u % length]));
                      }
                    });
        return true;
      }
    }
    const index_t rows = e.shape_.ProdShape(0, dimdst - 1), cols = e.shape_[dimdst - 1];
    const index_t ystride = e.shape_.ProdShape(dimcast + 1, dimdst - 1);
    ParallelFor(0, rows, detail::UnitGrain(cols), [&](index_t b, index_t end) {
      for (index_t r = b; r < end; ++r) {
        DType* out = dst->dptr_ + r * dst->stride_;
        if constexpr (dimcast == dimdst - 1) {
          detail::SaveRun<Saver>(cols, out, vec);
        } else {
          detail::SaveRun<Saver>(cols, out, kernel::MakeScalar(vec[(r / ystride) % length]));
        }
      }
    });
    return true;
  }
};

/*! \brief Reads the source's only element. */
template <typename SrcExp, typename DType, int dimdst>
class Plan<BroadcastScalarExp<SrcExp, DType, dimdst>, DType> {
 public:
  /*! \brief Builds the source plan. */
  explicit Plan(const BroadcastScalarExp<SrcExp, DType, dimdst>& e) : src_(MakePlan(e.src_)) {}
  /*! \brief The element. */
  SHADE_XINLINE DType Eval(index_t /*y*/, index_t /*x*/) const { return src_.Eval(0, 0); }

 private:
  Plan<SrcExp, DType> src_;
};

/*! \brief Maps destination indices to the source's flat index through per-dimension steps. */
template <typename SrcExp, typename DType, int dimsrc, int dimdst>
class Plan<BroadcastWithAxisExp<SrcExp, DType, dimsrc, dimdst>, DType>
    : public detail::StepGatherPlan<SrcExp, DType, dimdst> {
 public:
  /*! \brief Builds the source plan with the precomputed destination-to-source strides. */
  explicit Plan(const BroadcastWithAxisExp<SrcExp, DType, dimsrc, dimdst>& e)
      : detail::StepGatherPlan<SrcExp, DType, dimdst>(e.src_, e.shape_, e.sstride_, e.src_last_) {}
};

/*! \brief General broadcast of a source stored in memory (StepGatherInto). */
template <typename SrcExp, typename DType, int dimsrc, int dimdst>
struct TensorEvaluator<BroadcastWithAxisExp<SrcExp, DType, dimsrc, dimdst>> {
  /*! \brief Has a whole-tensor form. */
  static constexpr bool kAvailable = true;
  /*! \brief *dst Saver= e, or false when the source is not read in place. */
  template <typename Saver, int dim>
  static bool Run(Tensor<cpu, dim, DType>* dst,
                  const BroadcastWithAxisExp<SrcExp, DType, dimsrc, dimdst>& e) {
    return detail::StepGatherInto<Saver>(dst, e.src_, e.shape_, e.sstride_, e.src_last_);
  }
};

}  // namespace expr
}  // namespace shade

#endif  // SHADE_EXPR_EXT_BROADCAST_H_
