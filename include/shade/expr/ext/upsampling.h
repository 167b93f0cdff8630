/*!
 * \file upsampling.h
 * \brief `upsampling_nearest(src, scale)`: the last two dimensions enlarged `scale` times by
 *  repeating each element in a scale x scale block (mshadow's UpSamplingNearestExp).
 */
#ifndef SHADE_EXPR_EXT_UPSAMPLING_H_
#define SHADE_EXPR_EXT_UPSAMPLING_H_

#include "shade/expr/ext/ext_base.h"
#include "shade/tensor/tensor.h"

namespace shade {
namespace expr {

/*! \brief Nearest-neighbour upsampling of the last two dimensions. */
template <typename SrcExp, typename DType, int srcdim>
struct UpSamplingNearestExp
    : public MakeTensorExp<UpSamplingNearestExp<SrcExp, DType, srcdim>, SrcExp, srcdim, DType> {
  /*! \brief The source. */
  SrcExp src_;
  /*! \brief Enlargement factor of height and width. */
  index_t scale_;
  /*! \brief Height of the source. */
  index_t src_height_;
  /*! \brief Builds the node; throws unless scale >= 1 and the result size fits index_t. */
  UpSamplingNearestExp(const SrcExp& src, index_t scale) : src_(src), scale_(scale) {
    SHADE_CHECK_GE(scale, 1) << "upsampling_nearest: scale must be at least 1";
    Shape<srcdim> s = detail::SourceShape<srcdim>(src_, "upsampling_nearest");
    src_height_ = s[srcdim - 2];
    s[srcdim - 2] = CheckedMul(s[srcdim - 2], scale, "upsampling_nearest");
    s[srcdim - 1] = CheckedMul(s[srcdim - 1], scale, "upsampling_nearest");
    detail::CheckShapeArg(s, "upsampling_nearest");
    this->shape_ = s;
  }
};

/*! \brief `upsampling_nearest(x, 2)` of shape (n, c, h, w) has shape (n, c, 2h, 2w). */
template <typename SrcExp, typename DType, int etype>
inline UpSamplingNearestExp<SrcExp, DType, ExpInfo<SrcExp>::kDim> upsampling_nearest(
    const Exp<SrcExp, DType, etype>& src, index_t scale) {
  static_assert(ExpInfo<SrcExp>::kDim >= 2,
                "upsampling_nearest: the source must have at least 2 dimensions");
  return UpSamplingNearestExp<SrcExp, DType, ExpInfo<SrcExp>::kDim>(src.self(), scale);
}

/*! \brief Element (.., h, w) reads the source at (.., h / scale, w / scale). */
template <typename SrcExp, typename DType, int srcdim>
class Plan<UpSamplingNearestExp<SrcExp, DType, srcdim>, DType> {
 public:
  /*! \brief Builds the source plan and copies the scale. */
  explicit Plan(const UpSamplingNearestExp<SrcExp, DType, srcdim>& e)
      : src_(MakePlan(e.src_)),
        scale_(e.scale_),
        height_(e.shape_[srcdim - 2]),
        src_height_(e.src_height_) {}
  /*! \brief Element (y, x). */
  SHADE_XINLINE DType Eval(index_t y, index_t x) const {
    const index_t c = y / height_;
    const index_t h = (y - c * height_) / scale_;
    return src_.Eval(c * src_height_ + h, x / scale_);
  }

 private:
  Plan<SrcExp, DType> src_;
  index_t scale_, height_, src_height_;
};

}  // namespace expr
}  // namespace shade

#endif  // SHADE_EXPR_EXT_UPSAMPLING_H_
