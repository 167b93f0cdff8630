/*!
 * \file crop.h
 * \brief `crop(src, oshape[, start_y, start_x])`: a window of shape `oshape` of the last two
 *  dimensions (mshadow's CroppingExp). Without a start the window is centred:
 *  start = (extent - window) / 2, rounded down as in mshadow.
 */
#ifndef SHADE_EXPR_EXT_CROP_H_
#define SHADE_EXPR_EXT_CROP_H_

#include "shade/expr/ext/ext_base.h"
#include "shade/tensor/tensor.h"

namespace shade {
namespace expr {

/*! \brief A window of the last two dimensions of the source. */
template <typename SrcExp, typename DType, int srcdim>
struct CroppingExp
    : public MakeTensorExp<CroppingExp<SrcExp, DType, srcdim>, SrcExp, srcdim, DType> {
  /*! \brief The source. */
  SrcExp src_;
  index_t start_y_;  ///< Row of the window's top-left corner in the source.
  index_t start_x_;  ///< Column of the window's top-left corner in the source.
  /*! \brief Height of the source. */
  index_t src_height_;
  /*! \brief Builds the node; throws when the window does not fit in the source. */
  CroppingExp(const SrcExp& src, Shape<2> oshape, index_t start_y, index_t start_x)
      : src_(src), start_y_(start_y), start_x_(start_x) {
    Shape<srcdim> s = detail::SourceShape<srcdim>(src_, "crop");
    SHADE_CHECK(oshape[0] >= 0 && oshape[1] >= 0 && start_y >= 0 && start_x >= 0 &&
                start_y <= s[srcdim - 2] - oshape[0] && start_x <= s[srcdim - 1] - oshape[1])
        << "crop: window " << oshape << " at (" << start_y << ", " << start_x
        << ") does not fit in the last two dimensions of the source shape " << s;
    src_height_ = s[srcdim - 2];
    s[srcdim - 2] = oshape[0];
    s[srcdim - 1] = oshape[1];
    this->shape_ = s;
  }
};

/*! \brief The centred window of shape `oshape` (height, width) of the last two dimensions. */
template <typename SrcExp, typename DType, int etype>
inline CroppingExp<SrcExp, DType, ExpInfo<SrcExp>::kDim> crop(const Exp<SrcExp, DType, etype>& src,
                                                              Shape<2> oshape) {
  constexpr int dim = ExpInfo<SrcExp>::kDim;
  static_assert(dim >= 2, "crop: the source must have at least 2 dimensions");
  const Shape<dim> s = detail::SourceShape<dim>(src.self(), "crop");
  // A window larger than the source gives a negative start, which the node rejects by name.
  return CroppingExp<SrcExp, DType, dim>(src.self(), oshape, (s[dim - 2] - oshape[0]) / 2,
                                         (s[dim - 1] - oshape[1]) / 2);
}
/*! \brief The window of shape `oshape` whose top-left corner is (start_y, start_x). */
template <typename SrcExp, typename DType, int etype>
inline CroppingExp<SrcExp, DType, ExpInfo<SrcExp>::kDim> crop(const Exp<SrcExp, DType, etype>& src,
                                                              Shape<2> oshape, index_t start_y,
                                                              index_t start_x) {
  static_assert(ExpInfo<SrcExp>::kDim >= 2, "crop: the source must have at least 2 dimensions");
  return CroppingExp<SrcExp, DType, ExpInfo<SrcExp>::kDim>(src.self(), oshape, start_y, start_x);
}

/*! \brief Shifts (h, w) by the window's corner. */
template <typename SrcExp, typename DType, int srcdim>
class Plan<CroppingExp<SrcExp, DType, srcdim>, DType> {
 public:
  /*! \brief Builds the source plan and copies the window corner. */
  explicit Plan(const CroppingExp<SrcExp, DType, srcdim>& e)
      : src_(MakePlan(e.src_)),
        start_y_(e.start_y_),
        start_x_(e.start_x_),
        height_(e.shape_[srcdim - 2]),
        src_height_(e.src_height_) {}
  /*! \brief Element (y, x). */
  SHADE_XINLINE DType Eval(index_t y, index_t x) const {
    const index_t c = y / height_;
    const index_t h = y - c * height_;
    return src_.Eval(c * src_height_ + h + start_y_, x + start_x_);
  }

 private:
  Plan<SrcExp, DType> src_;
  index_t start_y_, start_x_, height_, src_height_;
};

}  // namespace expr
}  // namespace shade

#endif  // SHADE_EXPR_EXT_CROP_H_
