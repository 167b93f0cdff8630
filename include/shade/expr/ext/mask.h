/*!
 * \file mask.h
 * \brief `mask(mask_vec, src)`: every item along the first dimension of `src` multiplied by
 *  the matching element of a 1-D expression (mshadow's MaskExp: for a matrix, row i times
 *  mask_vec[i]). Used to zero the rows of padded batch entries.
 */
#ifndef SHADE_EXPR_EXT_MASK_H_
#define SHADE_EXPR_EXT_MASK_H_

#include "shade/expr/ext/ext_base.h"
#include "shade/tensor/tensor.h"

namespace shade {
namespace expr {

/*! \brief src with item i of its first dimension scaled by mask[i]. */
template <typename MaskExpT, typename SrcExp, typename DType, int srcdim>
struct MaskExp
    : public MakeTensorExp<MaskExp<MaskExpT, SrcExp, DType, srcdim>, SrcExp, srcdim, DType> {
  /*! \brief The 1-D factors. */
  MaskExpT mask_;
  /*! \brief The source. */
  SrcExp src_;
  /*! \brief FlatTo2D rows per item of the first dimension. */
  index_t rows_per_item_;
  /*! \brief Builds the node; throws unless the mask has one element per item. */
  MaskExp(const MaskExpT& mask, const SrcExp& src) : mask_(mask), src_(src) {
    const Shape<1> ms = detail::SourceShape<1>(mask_, "mask");
    const Shape<srcdim> s = detail::SourceShape<srcdim>(src_, "mask");
    SHADE_CHECK_SHAPE_EQ(ms[0], s[0])
        << "mask: the mask of shape " << ms
        << " must have one element per item of the first dimension of " << s;
    rows_per_item_ = s.ProdShape(1, srcdim - 1);
    this->shape_ = s;
  }
};

/*! \brief `out = mask(m, x)`: x[i] * m[i] for every item i of x's first dimension. */
template <typename MaskExpT, typename SrcExp, typename DType, int e1, int e2>
inline MaskExp<MaskExpT, SrcExp, DType, ExpInfo<SrcExp>::kDim> mask(
    const Exp<MaskExpT, DType, e1>& mask_vec, const Exp<SrcExp, DType, e2>& src) {
  static_assert(ExpInfo<MaskExpT>::kDim == 1, "mask: the mask must be 1-D");
  static_assert(ExpInfo<SrcExp>::kDim >= 2, "mask: the source must have at least 2 dimensions");
  return MaskExp<MaskExpT, SrcExp, DType, ExpInfo<SrcExp>::kDim>(mask_vec.self(), src.self());
}

/*! \brief mask[y / rows_per_item] * src(y, x). */
template <typename MaskExpT, typename SrcExp, typename DType, int srcdim>
class Plan<MaskExp<MaskExpT, SrcExp, DType, srcdim>, DType> {
 public:
  /*! \brief Builds the mask and source plans. */
  explicit Plan(const MaskExp<MaskExpT, SrcExp, DType, srcdim>& e)
      : mask_(MakePlan(e.mask_)), src_(MakePlan(e.src_)), rows_per_item_(e.rows_per_item_) {}
  /*! \brief Element (y, x). */
  SHADE_XINLINE DType Eval(index_t y, index_t x) const {
    return DType(mask_.Eval(0, y / rows_per_item_) * src_.Eval(y, x));
  }

 private:
  Plan<MaskExpT, DType> mask_;
  Plan<SrcExp, DType> src_;
  index_t rows_per_item_;
};

}  // namespace expr
}  // namespace shade

#endif  // SHADE_EXPR_EXT_MASK_H_
