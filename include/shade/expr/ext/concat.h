/*!
 * \file concat.h
 * \brief `concat<dim>(a, b)`: two expressions of any equal rank joined along dimension `dim`
 *  (mshadow's ConcatExp, which only worked in 4-D). When both operands are writable, the
 *  result can be assigned to, and the assignment splits into the operands:
 *  `concat<1>(a, b) = c;` writes the first columns of c into a and the rest into b.
 */
#ifndef SHADE_EXPR_EXT_CONCAT_H_
#define SHADE_EXPR_EXT_CONCAT_H_

#include "shade/expr/ext/axis.h"
#include "shade/expr/ext/ext_base.h"
#include "shade/tensor/tensor.h"

namespace shade {
namespace expr {

/*! \brief lhs and rhs (rank srcdim) joined along dimension cdim. */
template <typename LhsExp, typename RhsExp, typename DType, int srcdim, int cdim>
struct ConcatExp
    : public MakeTensorExp<ConcatExp<LhsExp, RhsExp, DType, srcdim, cdim>, LhsExp, srcdim, DType> {
  /*! \brief Base (for the assignment operators). */
  using Base = MakeTensorExp<ConcatExp<LhsExp, RhsExp, DType, srcdim, cdim>, LhsExp, srcdim, DType>;
  /*! \brief First operand. */
  LhsExp lhs_;
  /*! \brief Second operand. */
  RhsExp rhs_;
  /*! \brief Extent of lhs along cdim (where rhs starts). */
  index_t split_;
  /*! \brief Builds the node; throws when the shapes differ outside dimension cdim. */
  ConcatExp(const LhsExp& lhs, const RhsExp& rhs) : lhs_(lhs), rhs_(rhs) {
    const Shape<srcdim> a = detail::SourceShape<srcdim>(lhs_, "concat");
    const Shape<srcdim> b = detail::SourceShape<srcdim>(rhs_, "concat");
    for (int d = 0; d < srcdim; ++d) {
      SHADE_CHECK_SHAPE(d == cdim || a[d] == b[d])
          << "concat<" << cdim << ">: operand shapes " << a << " and " << b
          << " differ in dimension " << d << " (only dimension " << cdim << " may differ)";
    }
    Shape<srcdim> s = a;
    s[cdim] = CheckedAdd(a[cdim], b[cdim], "concat");
    this->shape_ = s;
    detail::CheckShapeArg(s, "concat");
    split_ = a[cdim];
  }
  using Base::operator=;
  /*! \brief Copies the node (views: no elements are copied). */
  ConcatExp(const ConcatExp&) = default;
  /*! \brief Assigning one ConcatExp to another writes the elements (never rebinds). */
  ConcatExp& operator=(const ConcatExp& other) {
    return Base::operator=(static_cast<const Exp<ConcatExp, DType, type::kChainer>&>(other));
  }
};

/*!
 * \brief `concat<1>(a, b)` of shapes (n, c1, h) and (n, c2, h) has shape (n, c1 + c2, h); any
 *  rank and any dimension. Throws when the shapes differ in another dimension.
 */
template <int cdim, typename LhsExp, typename RhsExp, typename DType, int e1, int e2>
inline ConcatExp<LhsExp, RhsExp, DType, ExpInfo<LhsExp>::kDim, cdim> concat(
    const Exp<LhsExp, DType, e1>& lhs, const Exp<RhsExp, DType, e2>& rhs) {
  constexpr int dim = ExpInfo<LhsExp>::kDim;
  static_assert(dim >= 1, "concat: the operands must be tensor expressions");
  static_assert(ExpInfo<RhsExp>::kDim == dim, "concat: the operands have different ranks");
  static_assert((ExpInfo<LhsExp>::kDevMask & ExpInfo<RhsExp>::kDevMask) != 0,
                "concat: the operands live on different devices");
  static_assert(0 <= cdim && cdim < dim, "concat<dim>: dim outside the rank");
  return ConcatExp<LhsExp, RhsExp, DType, dim, cdim>(lhs.self(), rhs.self());
}

/*! \brief Reads (or writes) lhs before the split point along cdim and rhs after it. */
template <typename LhsExp, typename RhsExp, typename DType, int srcdim, int cdim>
class Plan<ConcatExp<LhsExp, RhsExp, DType, srcdim, cdim>, DType> {
 public:
  /*! \brief Builds both operands' plans and copies the split point. */
  explicit Plan(const ConcatExp<LhsExp, RhsExp, DType, srcdim, cdim>& e)
      : lhs_(MakePlan(e.lhs_)),
        rhs_(MakePlan(e.rhs_)),
        axis_(detail::AxisSplit::Of(e.shape_, cdim)),
        extent_(e.shape_[cdim]),
        split_(e.split_) {}
  /*! \brief Element (y, x). */
  SHADE_XINLINE DType Eval(index_t y, index_t x) const {
    if (cdim == srcdim - 1) return x < split_ ? lhs_.Eval(y, x) : rhs_.Eval(y, x - split_);
    index_t outer, i, rest;
    axis_.Split(y, extent_, &outer, &i, &rest);
    if (i < split_) return lhs_.Eval(axis_.Join(outer, split_, i, rest), x);
    return rhs_.Eval(axis_.Join(outer, extent_ - split_, i - split_, rest), x);
  }
  /*! \brief Writable element (y, x): the element of the operand it comes from. */
  SHADE_XINLINE DType& REval(index_t y, index_t x) {
    if (cdim == srcdim - 1) return x < split_ ? lhs_.REval(y, x) : rhs_.REval(y, x - split_);
    index_t outer, i, rest;
    axis_.Split(y, extent_, &outer, &i, &rest);
    if (i < split_) return lhs_.REval(axis_.Join(outer, split_, i, rest), x);
    return rhs_.REval(axis_.Join(outer, extent_ - split_, i - split_, rest), x);
  }

 private:
  Plan<LhsExp, DType> lhs_;
  Plan<RhsExp, DType> rhs_;
  detail::AxisSplit axis_;
  index_t extent_, split_;
};

}  // namespace expr
}  // namespace shade

#endif  // SHADE_EXPR_EXT_CONCAT_H_
