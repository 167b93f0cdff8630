/*!
 * \file reshape.h
 * \brief `reshape(exp, shape)`: the same elements in row-major order seen with another shape
 *  of equal size. The source may be any expression (a padded tensor included): elements are
 *  addressed through the source's plan, never by reinterpreting memory.
 */
#include "shade/tensor/tensor.h"  // NOLINT(build/include_order)

#ifndef SHADE_EXPR_EXT_RESHAPE_H_
#define SHADE_EXPR_EXT_RESHAPE_H_

#include "shade/expr/ext/ext_base.h"

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
    SHADE_CHECK_EQ(ishape.Size(), shape.Size())
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

}  // namespace expr
}  // namespace shade

#endif  // SHADE_EXPR_EXT_RESHAPE_H_
