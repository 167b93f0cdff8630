/*!
 * \file reshape.h
 * \brief `reshape(exp, shape)`: the same elements in row-major order seen with another shape
 *  of equal size. The source may be any expression (a padded tensor included): elements are
 *  addressed through the source's plan, never by reinterpreting memory.
 */
#ifndef SHADE_EXPR_EXT_RESHAPE_H_
#define SHADE_EXPR_EXT_RESHAPE_H_

#include "shade/expr/ext/ext_base.h"
#include "shade/tensor/tensor.h"

namespace shade {
namespace expr {

/*! \brief The source of rank dimsrc seen with shape_ of rank dimdst (mshadow's ReshapeExp). */
template <typename SrcExp, typename DType, int dimdst, int dimsrc>
struct ReshapeExp
    : public MakeTensorExp<ReshapeExp<SrcExp, DType, dimdst, dimsrc>, SrcExp, dimdst, DType> {
  /*! \brief The source. */
  SrcExp src_;
  /*! \brief Last extent of the source. */
  index_t ishapex_;
  /*! \brief Builds the node; throws when the element counts differ. */
  ReshapeExp(const SrcExp& src, const Shape<dimdst>& shape) : src_(src) {
    const Shape<dimsrc> ishape = detail::SourceShape<dimsrc>(src_, "reshape");
    detail::CheckShapeArg(shape, "reshape");
    SHADE_CHECK_SHAPE_EQ(ishape.Size(), shape.Size())
        << "reshape: cannot reshape " << ishape << " to " << shape
        << " (different numbers of elements)";
    ishapex_ = ishape[dimsrc - 1];
    this->shape_ = shape;
  }
};

/*! \brief `reshape(src, Shape2(n, m))`: src's elements in row-major order with a new shape. */
template <typename SrcExp, typename DType, int etype, int dimdst>
inline ReshapeExp<SrcExp, DType, dimdst, ExpInfo<SrcExp>::kDim> reshape(
    const Exp<SrcExp, DType, etype>& src, Shape<dimdst> oshape) {
  static_assert(ExpInfo<SrcExp>::kDim >= 1, "reshape: the source must be a tensor expression");
  return ReshapeExp<SrcExp, DType, dimdst, ExpInfo<SrcExp>::kDim>(src.self(), oshape);
}

/*! \brief Row (y, x) of the result is flat index y * oshapex + x of the source. */
template <typename SrcExp, typename DType, int dimdst, int dimsrc>
class Plan<ReshapeExp<SrcExp, DType, dimdst, dimsrc>, DType> {
 public:
  /*! \brief Builds the source plan and copies the last extents of result and source. */
  explicit Plan(const ReshapeExp<SrcExp, DType, dimdst, dimsrc>& e)
      : src_(MakePlan(e.src_)), oshapex_(e.shape_[dimdst - 1]), ishapex_(e.ishapex_) {}
  /*! \brief Element (y, x). */
  SHADE_XINLINE DType Eval(index_t y, index_t x) const {
    if (oshapex_ == ishapex_) return src_.Eval(y, x);  // same rows: no division
    const index_t idx = y * oshapex_ + x;
    return src_.Eval(idx / ishapex_, idx % ishapex_);
  }

 private:
  Plan<SrcExp, DType> src_;
  index_t oshapex_, ishapex_;
};

namespace detail {
/*! \brief A reshape of memory-resident rows is memory-resident when its rows can be addressed. */
template <typename SrcExp, typename DType, int dimdst, int dimsrc>
struct DirectRows<ReshapeExp<SrcExp, DType, dimdst, dimsrc>> {
  /*! \brief Same rows (same last extent, any pitch), or any rows of a dense source. */
  static bool Get(const ReshapeExp<SrcExp, DType, dimdst, dimsrc>& e, RowsView<DType>* view) {
    RowsView<DType> s;
    if (!DirectRows<SrcExp>::Get(e.src_, &s)) return false;
    const index_t rows = e.shape_.ProdShape(0, dimdst - 1), cols = e.shape_[dimdst - 1];
    if (cols == s.cols) {
      *view = {s.ptr, rows, cols, s.ld};
      return true;
    }
    if (!s.Dense()) return false;
    *view = {s.ptr, rows, cols, cols};
    return true;
  }
};
}  // namespace detail

/*!
 * \brief Reshape into a tensor whose memory can take the source's shape (dense, or the same
 *  last extent): the source is evaluated straight into that view of the destination, through
 *  its own engine (so an extension source keeps its whole-tensor form).
 */
template <typename SrcExp, typename DType, int dimdst, int dimsrc>
struct TensorEvaluator<ReshapeExp<SrcExp, DType, dimdst, dimsrc>> {
  /*! \brief Has a whole-tensor form. */
  static constexpr bool kAvailable = true;
  /*! \brief *dst Saver= e, or false when the destination's rows do not fit the source's. */
  template <typename Saver, int dim>
  static bool Run(Tensor<cpu, dim, DType>* dst,
                  const ReshapeExp<SrcExp, DType, dimdst, dimsrc>& e) {
    const Shape<dimsrc> ishape = ShapeCheck<dimsrc, SrcExp>::Check(e.src_);
    index_t stride;
    if (e.shape_[dimdst - 1] == e.ishapex_) {
      stride = dst->stride_;
    } else if (dst->CheckContiguous() || e.shape_.ProdShape(0, dimdst - 1) <= 1) {
      stride = e.ishapex_;
    } else {
      return false;
    }
    Tensor<cpu, dimsrc, DType> view(dst->dptr_, ishape, stride, dst->stream_);
    ExpEngine<Saver, Tensor<cpu, dimsrc, DType>, DType>::Eval(&view, e.src_);
    return true;
  }
};

}  // namespace expr
}  // namespace shade

#endif  // SHADE_EXPR_EXT_RESHAPE_H_
