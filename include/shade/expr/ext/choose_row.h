/*!
 * \file choose_row.h
 * \brief Row-wise element selection: `mat_choose_row_element(src, index)` (out[y] =
 *  src[y][index[y]], e.g. the probability of each sample's label) and
 *  `mat_fill_row_element(src, val, index)` (src with element (y, index[y]) replaced by val[y]).
 *  Indices are checked when the plan is built, before anything is written.
 */
#ifndef SHADE_EXPR_EXT_CHOOSE_ROW_H_
#define SHADE_EXPR_EXT_CHOOSE_ROW_H_

#include <memory>

#include "shade/expr/ext/ext_base.h"
#include "shade/tensor/tensor.h"

namespace shade {
namespace expr {

/*! \brief out[y] = src[y][index[y]] (mshadow's MatChooseRowElementExp). */
template <typename SrcExp, typename IndexExp, typename IDType, typename DType>
struct MatChooseRowElementExp
    : public MakeTensorExp<MatChooseRowElementExp<SrcExp, IndexExp, IDType, DType>, SrcExp, 1,
                           DType> {
  /*! \brief The matrix. */
  SrcExp src_;
  /*! \brief One column index per row. */
  IndexExp index_;
  /*! \brief Number of columns of src. */
  index_t ncol_;
  /*! \brief Builds the node; throws when the index length differs from the row count. */
  MatChooseRowElementExp(const SrcExp& src, const IndexExp& index) : src_(src), index_(index) {
    const Shape<2> s = detail::SourceShape<2>(src_, "mat_choose_row_element");
    const Shape<1> i = detail::SourceShape<1>(index_, "mat_choose_row_element");
    SHADE_CHECK_SHAPE_EQ(i[0], s[0])
        << "mat_choose_row_element: index length differs from the number "
        << "of rows of the matrix of shape " << s;
    ncol_ = s[1];
    this->shape_ = Shape1(s[0]);
  }
};

/*! \brief `mat_choose_row_element(prob, label)`: element label[y] of each row y. */
template <typename SrcExp, typename IndexExp, typename DType, typename IDType, int e1, int e2>
inline MatChooseRowElementExp<SrcExp, IndexExp, IDType, DType> mat_choose_row_element(
    const Exp<SrcExp, DType, e1>& src, const Exp<IndexExp, IDType, e2>& index) {
  static_assert(ExpInfo<SrcExp>::kDim == 2 && ExpInfo<IndexExp>::kDim == 1,
                "mat_choose_row_element: needs a 2-D source and a 1-D index");
  return MatChooseRowElementExp<SrcExp, IndexExp, IDType, DType>(src.self(), index.self());
}

/*! \brief out[y][x] = x == index[y] ? val[y] : src[y][x] (mshadow's MatFillRowElementExp). */
template <typename SrcExp, typename ValExp, typename IndexExp, typename IDType, typename DType>
struct MatFillRowElementExp
    : public MakeTensorExp<MatFillRowElementExp<SrcExp, ValExp, IndexExp, IDType, DType>, SrcExp, 2,
                           DType> {
  /*! \brief The matrix. */
  SrcExp src_;
  /*! \brief One value per row. */
  ValExp val_;
  /*! \brief One column index per row. */
  IndexExp index_;
  /*! \brief Builds the node; throws when the lengths differ from the row count. */
  MatFillRowElementExp(const SrcExp& src, const ValExp& val, const IndexExp& index)
      : src_(src), val_(val), index_(index) {
    const Shape<2> s = detail::SourceShape<2>(src_, "mat_fill_row_element");
    const Shape<1> v = detail::SourceShape<1>(val_, "mat_fill_row_element");
    const Shape<1> i = detail::SourceShape<1>(index_, "mat_fill_row_element");
    SHADE_CHECK_SHAPE_EQ(v[0], s[0])
        << "mat_fill_row_element: value length differs from the number "
        << "of rows of the matrix of shape " << s;
    SHADE_CHECK_SHAPE_EQ(i[0], s[0])
        << "mat_fill_row_element: index length differs from the number "
        << "of rows of the matrix of shape " << s;
    this->shape_ = s;
  }
};

/*! \brief `mat_fill_row_element(src, val, index)`: src with (y, index[y]) set to val[y]. */
template <typename SrcExp, typename ValExp, typename IndexExp, typename DType, typename IDType,
          int e1, int e2, int e3>
inline MatFillRowElementExp<SrcExp, ValExp, IndexExp, IDType, DType> mat_fill_row_element(
    const Exp<SrcExp, DType, e1>& src, const Exp<ValExp, DType, e2>& val,
    const Exp<IndexExp, IDType, e3>& index) {
  static_assert(
      ExpInfo<SrcExp>::kDim == 2 && ExpInfo<ValExp>::kDim == 1 && ExpInfo<IndexExp>::kDim == 1,
      "mat_fill_row_element: needs a 2-D source, a 1-D value and a 1-D index");
  return MatFillRowElementExp<SrcExp, ValExp, IndexExp, IDType, DType>(src.self(), val.self(),
                                                                       index.self());
}

/*! \brief Gathers through the checked indices. */
template <typename SrcExp, typename IndexExp, typename IDType, typename DType>
class Plan<MatChooseRowElementExp<SrcExp, IndexExp, IDType, DType>, DType> {
 public:
  /*!
   * \brief Evaluates and checks the indices once; throws shade::IndexError (or shade::Error for
   *  non-integral floats) for one outside [0, columns).
   */
  explicit Plan(const MatChooseRowElementExp<SrcExp, IndexExp, IDType, DType>& e)
      : src_(MakePlan(e.src_)),
        idx_(detail::EvalIndices<IDType>(e.index_, e.shape_[0], e.ncol_, "mat_choose_row_element",
                                         "number of columns")),
        ptr_(idx_.get()) {}
  /*! \brief Element x of the result: src[x][index[x]]. */
  SHADE_XINLINE DType Eval(index_t /*y*/, index_t x) const { return src_.Eval(x, ptr_[x]); }

 private:
  Plan<SrcExp, DType> src_;
  std::shared_ptr<index_t[]> idx_;
  const index_t* ptr_;
};

/*! \brief Replaces one element per row. */
template <typename SrcExp, typename ValExp, typename IndexExp, typename IDType, typename DType>
class Plan<MatFillRowElementExp<SrcExp, ValExp, IndexExp, IDType, DType>, DType> {
 public:
  /*!
   * \brief Evaluates and checks the indices once; throws shade::IndexError (or shade::Error for
   *  non-integral floats) for one outside [0, columns).
   */
  explicit Plan(const MatFillRowElementExp<SrcExp, ValExp, IndexExp, IDType, DType>& e)
      : src_(MakePlan(e.src_)),
        val_(MakePlan(e.val_)),
        idx_(detail::EvalIndices<IDType>(e.index_, e.shape_[0], e.shape_[1], "mat_fill_row_element",
                                         "number of columns")),
        ptr_(idx_.get()) {}
  /*! \brief Element (y, x). */
  SHADE_XINLINE DType Eval(index_t y, index_t x) const {
    return x == ptr_[y] ? val_.Eval(0, y) : src_.Eval(y, x);
  }

 private:
  Plan<SrcExp, DType> src_;
  Plan<ValExp, DType> val_;
  std::shared_ptr<index_t[]> idx_;
  const index_t* ptr_;
};

}  // namespace expr
}  // namespace shade

#endif  // SHADE_EXPR_EXT_CHOOSE_ROW_H_
