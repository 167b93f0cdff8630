/*!
 * \file implicit_dot.h
 * \brief `implicit_dot(lhs, rhs)`: the matrix product evaluated lazily, one element at a time
 *  (mshadow's ImplicitGEMMExp). Unlike dot(...) it is an ordinary chained expression, so it
 *  nests in larger expressions and takes any 2-D expressions as operands; it costs O(k) per
 *  element with no blocking, so use dot for large products.
 */
#ifndef SHADE_EXPR_EXT_IMPLICIT_DOT_H_
#define SHADE_EXPR_EXT_IMPLICIT_DOT_H_

#include "shade/expr/ext/ext_base.h"
#include "shade/tensor/tensor.h"

namespace shade {
namespace expr {

/*! \brief lhs (m x k) times rhs (k x n), element by element. */
template <typename LhsExp, typename RhsExp, typename DType>
struct ImplicitGEMMExp
    : public MakeTensorExp<ImplicitGEMMExp<LhsExp, RhsExp, DType>, LhsExp, 2, DType> {
  /*! \brief Left operand. */
  LhsExp lhs_;
  /*! \brief Right operand. */
  RhsExp rhs_;
  /*! \brief Inner extent k. */
  index_t inner_;
  /*! \brief Builds the node; throws when the inner extents differ. */
  ImplicitGEMMExp(const LhsExp& lhs, const RhsExp& rhs) : lhs_(lhs), rhs_(rhs) {
    const Shape<2> a = detail::SourceShape<2>(lhs_, "implicit_dot");
    const Shape<2> b = detail::SourceShape<2>(rhs_, "implicit_dot");
    SHADE_CHECK_SHAPE_EQ(a[1], b[0])
        << "implicit_dot: inner dimensions of lhs " << a << " and rhs " << b << " differ";
    inner_ = a[1];
    this->shape_ = Shape2(a[0], b[1]);
  }
};

/*! \brief `out = implicit_dot(a, b.T()) + bias_mat;`: a lazy matrix product of expressions. */
template <typename LhsExp, typename RhsExp, typename DType, int e1, int e2>
inline ImplicitGEMMExp<LhsExp, RhsExp, DType> implicit_dot(const Exp<LhsExp, DType, e1>& lhs,
                                                           const Exp<RhsExp, DType, e2>& rhs) {
  static_assert(ExpInfo<LhsExp>::kDim == 2 && ExpInfo<RhsExp>::kDim == 2,
                "implicit_dot: both operands must be 2-D");
  static_assert((ExpInfo<LhsExp>::kDevMask & ExpInfo<RhsExp>::kDevMask) != 0,
                "implicit_dot: the operands live on different devices");
  return ImplicitGEMMExp<LhsExp, RhsExp, DType>(lhs.self(), rhs.self());
}

/*! \brief sum_k lhs(y, k) * rhs(k, x), accumulated in DType. */
template <typename LhsExp, typename RhsExp, typename DType>
class Plan<ImplicitGEMMExp<LhsExp, RhsExp, DType>, DType> {
 public:
  /*! \brief Builds both operands' plans and copies the inner extent. */
  explicit Plan(const ImplicitGEMMExp<LhsExp, RhsExp, DType>& e)
      : lhs_(MakePlan(e.lhs_)), rhs_(MakePlan(e.rhs_)), inner_(e.inner_) {}
  /*! \brief Element (y, x). */
  SHADE_XINLINE DType Eval(index_t y, index_t x) const {
    DType sum = DType(0);
    for (index_t k = 0; k < inner_; ++k) sum += lhs_.Eval(y, k) * rhs_.Eval(k, x);
    return sum;
  }

 private:
  Plan<LhsExp, DType> lhs_;
  Plan<RhsExp, DType> rhs_;
  index_t inner_;
};

}  // namespace expr
}  // namespace shade

#endif  // SHADE_EXPR_EXT_IMPLICIT_DOT_H_
