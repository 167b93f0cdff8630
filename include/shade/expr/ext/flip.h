/*!
 * \file flip.h
 * \brief `flip(src, dim)`: the source with dimension `dim` in reverse order (mshadow's
 *  FlipExp). Assignable when the source is writable: `flip(dst, 1) = exp;` writes exp
 *  reversed along dimension 1.
 */
#ifndef SHADE_EXPR_EXT_FLIP_H_
#define SHADE_EXPR_EXT_FLIP_H_

#include "shade/expr/ext/axis.h"
#include "shade/expr/ext/ext_base.h"
#include "shade/tensor/tensor.h"

namespace shade {
namespace expr {

/*! \brief The source reversed along dimension `dim_` (chosen at run time). */
template <typename SrcExp, typename DType, int srcdim>
struct FlipExp : public MakeTensorExp<FlipExp<SrcExp, DType, srcdim>, SrcExp, srcdim, DType> {
  /*! \brief Base (for the assignment operators). */
  using Base = MakeTensorExp<FlipExp<SrcExp, DType, srcdim>, SrcExp, srcdim, DType>;
  /*! \brief The source. */
  SrcExp src_;
  /*! \brief The reversed dimension. */
  int dim_;
  /*! \brief Builds the node; throws unless 0 <= dim < srcdim. */
  FlipExp(const SrcExp& src, int dim) : src_(src), dim_(dim) {
    SHADE_CHECK_INDEX(0 <= dim && dim < srcdim)
        << "flip: dimension " << dim << " outside [0, " << srcdim << ") of the source's rank";
    this->shape_ = detail::SourceShape<srcdim>(src_, "flip");
  }
  /*! \brief The last dimension reversed (mshadow's MirroringExp constructor). */
  explicit FlipExp(const SrcExp& src) : FlipExp(src, srcdim - 1) {}
  using Base::operator=;
  /*! \brief Copies the node (a view: no elements are copied). */
  FlipExp(const FlipExp&) = default;
  /*! \brief Assigning one FlipExp to another writes the elements (never rebinds). */
  FlipExp& operator=(const FlipExp& other) {
    return Base::operator=(static_cast<const Exp<FlipExp, DType, type::kChainer>&>(other));
  }
};

/*! \brief `flip(x, 0)` reverses the rows of x; any rank, any dimension. Assignable. */
template <typename SrcExp, typename DType, int etype>
inline FlipExp<SrcExp, DType, ExpInfo<SrcExp>::kDim> flip(const Exp<SrcExp, DType, etype>& src,
                                                          int dim) {
  static_assert(ExpInfo<SrcExp>::kDim >= 1, "flip: the source must be a tensor expression");
  return FlipExp<SrcExp, DType, ExpInfo<SrcExp>::kDim>(src.self(), dim);
}

/*!
 * \brief `mirror(src)`: the last dimension reversed (mshadow's mirror, used to flip images
 *  horizontally). The same node as flip(src, rank - 1), so it is assignable as well.
 */
template <typename SrcExp, typename DType, int etype>
inline FlipExp<SrcExp, DType, ExpInfo<SrcExp>::kDim> mirror(const Exp<SrcExp, DType, etype>& src) {
  static_assert(ExpInfo<SrcExp>::kDim >= 1, "mirror: the source must be a tensor expression");
  return FlipExp<SrcExp, DType, ExpInfo<SrcExp>::kDim>(src.self(), ExpInfo<SrcExp>::kDim - 1);
}

/*! \brief Maps index i of the flipped dimension to extent - 1 - i. */
template <typename SrcExp, typename DType, int srcdim>
class Plan<FlipExp<SrcExp, DType, srcdim>, DType> {
 public:
  /*! \brief Builds the source plan and copies the flipped extent. */
  explicit Plan(const FlipExp<SrcExp, DType, srcdim>& e)
      : src_(MakePlan(e.src_)),
        axis_(detail::AxisSplit::Of(e.shape_, e.dim_)),
        last_(e.dim_ == srcdim - 1),
        extent_(e.shape_[e.dim_]) {}
  /*! \brief Element (y, x). */
  SHADE_XINLINE DType Eval(index_t y, index_t x) const {
    return last_ ? src_.Eval(y, extent_ - 1 - x) : src_.Eval(SrcRow(y), x);
  }
  /*! \brief Writable element (y, x) (needs a writable source). */
  SHADE_XINLINE DType& REval(index_t y, index_t x) {
    return last_ ? src_.REval(y, extent_ - 1 - x) : src_.REval(SrcRow(y), x);
  }

 private:
  SHADE_XINLINE index_t SrcRow(index_t y) const {
    index_t outer, i, rest;
    axis_.Split(y, extent_, &outer, &i, &rest);
    return axis_.Join(outer, extent_, extent_ - 1 - i, rest);
  }
  Plan<SrcExp, DType> src_;
  detail::AxisSplit axis_;
  bool last_;
  index_t extent_;
};

}  // namespace expr
}  // namespace shade

#endif  // SHADE_EXPR_EXT_FLIP_H_
