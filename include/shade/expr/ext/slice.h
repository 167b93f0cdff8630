/*!
 * \file slice.h
 * \brief `slice<dim>(src, begin, end)`: the range [begin, end) of one dimension, and the box
 *  `slice(src, begin_shape, end_shape)`: a sub-box of every dimension (mshadow's SliceExp and
 *  SliceExExp). Both read through the source's plan and, when the source is writable (a
 *  tensor or another writable extension), can be assigned to: `slice<1>(dst, 2, 5) = exp;`
 *  writes only the selected elements. Ranges are checked when the node is built.
 */
#ifndef SHADE_EXPR_EXT_SLICE_H_
#define SHADE_EXPR_EXT_SLICE_H_

#include "shade/expr/ext/axis.h"
#include "shade/expr/ext/ext_base.h"
#include "shade/tensor/tensor.h"

namespace shade {
namespace expr {

/*! \brief Range [begin, end) of dimension `sdim` of a rank-`srcdim` source. */
template <typename SrcExp, typename DType, int srcdim, int sdim>
struct SliceExp
    : public MakeTensorExp<SliceExp<SrcExp, DType, srcdim, sdim>, SrcExp, srcdim, DType> {
  /*! \brief The source. */
  SrcExp src_;
  /*! \brief First selected index along sdim. */
  index_t begin_;
  /*! \brief Extent of the source along sdim. */
  index_t src_extent_;
  /*! \brief Builds the node; throws unless 0 <= begin <= end <= extent. */
  SliceExp(const SrcExp& src, index_t begin, index_t end) : src_(src), begin_(begin) {
    Shape<srcdim> s = detail::SourceShape<srcdim>(src_, "slice");
    SHADE_CHECK_INDEX(0 <= begin && begin <= end && end <= s[sdim])
        << "slice<" << sdim << ">: range [" << begin << ", " << end << ") outside [0, " << s[sdim]
        << "] of dimension " << sdim << " of source shape " << s;
    src_extent_ = s[sdim];
    s[sdim] = end - begin;
    this->shape_ = s;
  }
  using MakeTensorExp<SliceExp<SrcExp, DType, srcdim, sdim>, SrcExp, srcdim, DType>::operator=;
  /*! \brief Copies the node (a view: no elements are copied). */
  SliceExp(const SliceExp&) = default;
  /*!
   * \brief Assigning one SliceExp to another writes the elements (it does not rebind the view,
   *  which is what the implicit copy assignment would do).
   */
  SliceExp& operator=(const SliceExp& other) {
    return MakeTensorExp<SliceExp<SrcExp, DType, srcdim, sdim>, SrcExp, srcdim, DType>::operator=(
        static_cast<const Exp<SliceExp<SrcExp, DType, srcdim, sdim>, DType, type::kChainer>&>(
            other));
  }
};

/*!
 * \brief Elements [begin, end) of dimension `sdim` of `src` (all of the others):
 *  `slice<1>(x, 2, 5)` of shape (n, c, h) has shape (n, 3, h). Assignable when `src` is.
 */
template <int sdim, typename SrcExp, typename DType, int etype>
inline SliceExp<SrcExp, DType, ExpInfo<SrcExp>::kDim, sdim> slice(
    const Exp<SrcExp, DType, etype>& src, index_t begin, index_t end) {
  static_assert(ExpInfo<SrcExp>::kDim >= 1, "slice: the source must be a tensor expression");
  static_assert(0 <= sdim && sdim < ExpInfo<SrcExp>::kDim, "slice<dim>: dim outside the rank");
  return SliceExp<SrcExp, DType, ExpInfo<SrcExp>::kDim, sdim>(src.self(), begin, end);
}

/*! \brief Maps result (y, x) to source (y', x'), moving the sliced dimension by begin. */
template <typename SrcExp, typename DType, int srcdim, int sdim>
class Plan<SliceExp<SrcExp, DType, srcdim, sdim>, DType> {
 public:
  /*! \brief Builds the source plan and copies the slice geometry. */
  explicit Plan(const SliceExp<SrcExp, DType, srcdim, sdim>& e)
      : src_(MakePlan(e.src_)),
        split_(detail::AxisSplit::Of(e.shape_, sdim)),
        begin_(e.begin_),
        extent_(e.shape_[sdim]),
        src_extent_(e.src_extent_) {}
  /*! \brief Element (y, x). */
  SHADE_XINLINE DType Eval(index_t y, index_t x) const {
    if (sdim == srcdim - 1) return src_.Eval(y, x + begin_);
    return src_.Eval(SrcRow(y), x);
  }
  /*! \brief Writable element (y, x) (needs a writable source). */
  SHADE_XINLINE DType& REval(index_t y, index_t x) {
    if (sdim == srcdim - 1) return src_.REval(y, x + begin_);
    return src_.REval(SrcRow(y), x);
  }

 private:
  SHADE_XINLINE index_t SrcRow(index_t y) const {
    index_t outer, i, rest;
    split_.Split(y, extent_, &outer, &i, &rest);
    return split_.Join(outer, src_extent_, i + begin_, rest);
  }
  Plan<SrcExp, DType> src_;
  detail::AxisSplit split_;
  index_t begin_, extent_, src_extent_;
};

/*! \brief The box [begin[d], end[d]) of every dimension d of a rank-`srcdim` source. */
template <typename SrcExp, typename DType, int srcdim>
struct SliceExExp : public MakeTensorExp<SliceExExp<SrcExp, DType, srcdim>, SrcExp, srcdim, DType> {
  /*! \brief The source. */
  SrcExp src_;
  /*! \brief First selected index of every dimension. */
  Shape<srcdim> begin_;
  /*! \brief Shape of the source. */
  Shape<srcdim> src_shape_;
  /*! \brief Builds the node; throws unless 0 <= begin[d] <= end[d] <= extent d for every d. */
  SliceExExp(const SrcExp& src, const Shape<srcdim>& begin, const Shape<srcdim>& end)
      : src_(src), begin_(begin) {
    src_shape_ = detail::SourceShape<srcdim>(src_, "slice");
    for (int d = 0; d < srcdim; ++d) {
      SHADE_CHECK_SHAPE(0 <= begin[d] && begin[d] <= end[d] && end[d] <= src_shape_[d])
          << "slice: box [" << begin << ", " << end << ") outside the source shape " << src_shape_
          << " in dimension " << d;
      this->shape_[d] = end[d] - begin[d];
    }
  }
  using MakeTensorExp<SliceExExp<SrcExp, DType, srcdim>, SrcExp, srcdim, DType>::operator=;
  /*! \brief Copies the node (a view: no elements are copied). */
  SliceExExp(const SliceExExp&) = default;
  /*!
   * \brief Assigning one SliceExExp to another writes the elements (it does not rebind the view,
   *  which is what the implicit copy assignment would do).
   */
  SliceExExp& operator=(const SliceExExp& other) {
    return MakeTensorExp<SliceExExp<SrcExp, DType, srcdim>, SrcExp, srcdim, DType>::operator=(
        static_cast<const Exp<SliceExExp<SrcExp, DType, srcdim>, DType, type::kChainer>&>(other));
  }
};

/*!
 * \brief The box [begin, end) of `src`: `slice(x, Shape2(1, 2), Shape2(4, 7))` is rows 1..3,
 *  columns 2..6. Assignable when `src` is.
 */
template <typename SrcExp, typename DType, int etype, int srcdim>
inline SliceExExp<SrcExp, DType, srcdim> slice(const Exp<SrcExp, DType, etype>& src,
                                               Shape<srcdim> begin, Shape<srcdim> end) {
  static_assert(ExpInfo<SrcExp>::kDim == srcdim,
                "slice: begin and end must have the rank of the source");
  return SliceExExp<SrcExp, DType, srcdim>(src.self(), begin, end);
}

/*! \brief Maps result (y, x) to the source by adding the box origin in every dimension. */
template <typename SrcExp, typename DType, int srcdim>
class Plan<SliceExExp<SrcExp, DType, srcdim>, DType> {
 public:
  /*! \brief Builds the source plan and copies the box origin and shapes. */
  explicit Plan(const SliceExExp<SrcExp, DType, srcdim>& e)
      : src_(MakePlan(e.src_)), shape_(e.shape_), src_shape_(e.src_shape_), begin_(e.begin_) {}
  /*! \brief Element (y, x). */
  SHADE_XINLINE DType Eval(index_t y, index_t x) const {
    return src_.Eval(SrcRow(y), x + begin_[srcdim - 1]);
  }
  /*! \brief Writable element (y, x) (needs a writable source). */
  SHADE_XINLINE DType& REval(index_t y, index_t x) {
    return src_.REval(SrcRow(y), x + begin_[srcdim - 1]);
  }

 private:
  // Peels the leading indices from the innermost row dimension outwards, then rebuilds the
  // source row from the outermost one inwards.
  SHADE_XINLINE index_t SrcRow(index_t y) const {
    index_t idx[srcdim > 1 ? srcdim - 1 : 1];
    for (int d = srcdim - 2; d >= 0; --d) {
      idx[d] = y % shape_[d];
      y /= shape_[d];
    }
    index_t row = 0;
    for (int d = 0; d + 1 < srcdim; ++d) row = row * src_shape_[d] + idx[d] + begin_[d];
    return row;
  }
  Plan<SrcExp, DType> src_;
  Shape<srcdim> shape_, src_shape_, begin_;
};

}  // namespace expr
}  // namespace shade

#endif  // SHADE_EXPR_EXT_SLICE_H_
