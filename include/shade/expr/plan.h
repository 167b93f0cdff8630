/*!
 * \file plan.h
 * \brief `Plan<ExpType, DType>`: the evaluator of an expression. `Eval(y, x)` returns element
 *  (y, x) of the expression seen through FlatTo2D (y over the product of the leading extents,
 *  x over the last one); destination plans add `DType& REval(y, x)`. `MakePlan(exp)` builds
 *  the plan tree of an expression tree.
 */
// Tensor first (it includes this header back at its end, once Tensor is complete), so the
// definitions below always see the complete Tensor type whichever header is included first.
#include "shade/tensor/tensor.h"  // NOLINT(build/include_order)

#ifndef SHADE_EXPR_PLAN_H_
#define SHADE_EXPR_PLAN_H_

#include "shade/base/index.h"
#include "shade/expr/expression.h"

namespace shade {
namespace expr {

/*! \brief Evaluator of ExpType; specialised for every expression node and extension. */
template <typename ExpType, typename DType>
class Plan;

/*! \brief Reads (and writes) a tensor through its row pitch. */
template <typename Device, int dim, typename DType>
class Plan<Tensor<Device, dim, DType>, DType> {
 public:
  explicit Plan(const Tensor<Device, dim, DType>& t) : dptr_(t.dptr_), stride_(t.stride_) {}
  /*! \brief Writable element (y, x). */
  SHADE_XINLINE DType& REval(index_t y, index_t x) { return dptr_[y * stride_ + x]; }
  /*! \brief Element (y, x). */
  SHADE_XINLINE const DType& Eval(index_t y, index_t x) const { return dptr_[y * stride_ + x]; }

 private:
  DType* dptr_;
  index_t stride_;
};

/*! \brief The same value everywhere. */
template <typename DType>
class Plan<ScalarExp<DType>, DType> {
 public:
  explicit Plan(DType scalar) : scalar_(scalar) {}
  /*! \brief The scalar. */
  SHADE_XINLINE DType Eval(index_t /*y*/, index_t /*x*/) const { return scalar_; }

 private:
  DType scalar_;
};

/*! \brief Converts the source plan's values. */
template <typename DstDType, typename SrcDType, typename EType, int etype>
class Plan<TypecastExp<DstDType, SrcDType, EType, etype>, DstDType> {
 public:
  explicit Plan(const Plan<EType, SrcDType>& src) : src_(src) {}
  /*! \brief DstDType(source element). */
  SHADE_XINLINE DstDType Eval(index_t y, index_t x) const { return DstDType(src_.Eval(y, x)); }

 private:
  Plan<EType, SrcDType> src_;
};

/*! \brief Swaps the two indices of a 2-D source. */
template <typename EType, typename DType>
class Plan<TransposeExp<EType, DType>, DType> {
 public:
  explicit Plan(const Plan<EType, DType>& src) : src_(src) {}
  /*! \brief Source element (x, y). */
  SHADE_XINLINE DType Eval(index_t y, index_t x) const { return src_.Eval(x, y); }

 private:
  Plan<EType, DType> src_;
};

/*! \brief OP::Map of one operand. */
template <typename OP, typename TA, typename DType, int etype>
class Plan<UnaryMapExp<OP, TA, DType, etype>, DType> {
 public:
  explicit Plan(const Plan<TA, DType>& src) : src_(src) {}
  /*! \brief OP::Map(src(y, x)). */
  SHADE_XINLINE DType Eval(index_t y, index_t x) const { return DType(OP::Map(src_.Eval(y, x))); }

 private:
  Plan<TA, DType> src_;
};

/*! \brief OP::Map of two operands. */
template <typename OP, typename TA, typename TB, typename DType, int etype>
class Plan<BinaryMapExp<OP, TA, TB, DType, etype>, DType> {
 public:
  Plan(const Plan<TA, DType>& lhs, const Plan<TB, DType>& rhs) : lhs_(lhs), rhs_(rhs) {}
  /*! \brief OP::Map(lhs(y, x), rhs(y, x)). */
  SHADE_XINLINE DType Eval(index_t y, index_t x) const {
    return DType(OP::Map(lhs_.Eval(y, x), rhs_.Eval(y, x)));
  }

 private:
  Plan<TA, DType> lhs_;
  Plan<TB, DType> rhs_;
};

/*! \brief OP::Map of three operands. */
template <typename OP, typename TA, typename TB, typename TC, typename DType, int etype>
class Plan<TernaryMapExp<OP, TA, TB, TC, DType, etype>, DType> {
 public:
  Plan(const Plan<TA, DType>& item1, const Plan<TB, DType>& item2, const Plan<TC, DType>& item3)
      : item1_(item1), item2_(item2), item3_(item3) {}
  /*! \brief OP::Map(item1(y, x), item2(y, x), item3(y, x)). */
  SHADE_XINLINE DType Eval(index_t y, index_t x) const {
    return DType(OP::Map(item1_.Eval(y, x), item2_.Eval(y, x), item3_.Eval(y, x)));
  }

 private:
  Plan<TA, DType> item1_;
  Plan<TB, DType> item2_;
  Plan<TC, DType> item3_;
};

/*! \brief Plan of a tensor (any RValueExp whose concrete type has a Plan). */
template <typename T, typename DType>
inline Plan<T, DType> MakePlan(const RValueExp<T, DType>& e) {
  return Plan<T, DType>(e.self());
}
/*! \brief Plan of a scalar. */
template <typename DType>
inline Plan<ScalarExp<DType>, DType> MakePlan(const ScalarExp<DType>& e) {
  return Plan<ScalarExp<DType>, DType>(e.scalar_);
}
/*! \brief Plan of a conversion. */
template <typename DstDType, typename SrcDType, typename EType, int etype>
inline Plan<TypecastExp<DstDType, SrcDType, EType, etype>, DstDType> MakePlan(
    const TypecastExp<DstDType, SrcDType, EType, etype>& e) {
  return Plan<TypecastExp<DstDType, SrcDType, EType, etype>, DstDType>(MakePlan(e.exp));
}
/*! \brief Plan of a transpose. */
template <typename T, typename DType>
inline Plan<TransposeExp<T, DType>, DType> MakePlan(const TransposeExp<T, DType>& e) {
  return Plan<TransposeExp<T, DType>, DType>(MakePlan(e.exp));
}
/*! \brief Plan of a unary map. */
template <typename OP, typename TA, typename DType, int etype>
inline Plan<UnaryMapExp<OP, TA, DType, etype>, DType> MakePlan(
    const UnaryMapExp<OP, TA, DType, etype>& e) {
  return Plan<UnaryMapExp<OP, TA, DType, etype>, DType>(MakePlan(e.src_));
}
/*! \brief Plan of a binary map. */
template <typename OP, typename TA, typename TB, typename DType, int etype>
inline Plan<BinaryMapExp<OP, TA, TB, DType, etype>, DType> MakePlan(
    const BinaryMapExp<OP, TA, TB, DType, etype>& e) {
  return Plan<BinaryMapExp<OP, TA, TB, DType, etype>, DType>(MakePlan(e.lhs_), MakePlan(e.rhs_));
}
/*! \brief Plan of a ternary map. */
template <typename OP, typename TA, typename TB, typename TC, typename DType, int etype>
inline Plan<TernaryMapExp<OP, TA, TB, TC, DType, etype>, DType> MakePlan(
    const TernaryMapExp<OP, TA, TB, TC, DType, etype>& e) {
  return Plan<TernaryMapExp<OP, TA, TB, TC, DType, etype>, DType>(
      MakePlan(e.item1_), MakePlan(e.item2_), MakePlan(e.item3_));
}
/*! \brief Plan of an extension: its own Plan<SubType, DType>, built from the extension. */
template <typename SubType, typename SrcExp, int dim, typename DType>
inline Plan<SubType, DType> MakePlan(const MakeTensorExp<SubType, SrcExp, dim, DType>& e) {
  return Plan<SubType, DType>(e.real_self());
}

}  // namespace expr
}  // namespace shade

#endif  // SHADE_EXPR_PLAN_H_
