/*!
 * \file pad.h
 * \brief `pad(src, pad_y, pad_x)`: zero padding of the last two dimensions (mshadow's
 *  PaddingExp), plus `pad(src, top, bottom, left, right)` with an amount per side. Element
 *  (.., h, w) of the result is the source element (.., h - top, w - left), or 0 outside it.
 */
#ifndef SHADE_EXPR_EXT_PAD_H_
#define SHADE_EXPR_EXT_PAD_H_

#include "shade/expr/ext/ext_base.h"
#include "shade/tensor/tensor.h"

namespace shade {
namespace expr {

/*! \brief The source's last two dimensions surrounded by zeros. */
template <typename SrcExp, typename DType, int srcdim>
struct PaddingExp : public MakeTensorExp<PaddingExp<SrcExp, DType, srcdim>, SrcExp, srcdim, DType> {
  /*! \brief The source. */
  SrcExp src_;
  index_t pad_top_;     ///< Rows of zeros added above.
  index_t pad_left_;    ///< Columns of zeros added to the left.
  index_t src_height_;  ///< Height of the source.
  index_t src_width_;   ///< Width of the source.
  /*! \brief Builds the node; throws on a negative amount or an overflowing size. */
  PaddingExp(const SrcExp& src, index_t top, index_t bottom, index_t left, index_t right)
      : src_(src), pad_top_(top), pad_left_(left) {
    SHADE_CHECK(top >= 0 && bottom >= 0 && left >= 0 && right >= 0)
        << "pad: negative padding (top " << top << ", bottom " << bottom << ", left " << left
        << ", right " << right << ")";
    Shape<srcdim> s = detail::SourceShape<srcdim>(src_, "pad");
    src_height_ = s[srcdim - 2];
    src_width_ = s[srcdim - 1];
    s[srcdim - 2] = CheckedAdd(CheckedAdd(src_height_, top, "pad"), bottom, "pad");
    s[srcdim - 1] = CheckedAdd(CheckedAdd(src_width_, left, "pad"), right, "pad");
    detail::CheckShapeArg(s, "pad");
    this->shape_ = s;
  }
};

/*! \brief Pads the last two dimensions by `pad` zeros on every side. */
template <typename SrcExp, typename DType, int etype>
inline PaddingExp<SrcExp, DType, ExpInfo<SrcExp>::kDim> pad(const Exp<SrcExp, DType, etype>& src,
                                                            index_t pad) {
  static_assert(ExpInfo<SrcExp>::kDim >= 2, "pad: the source must have at least 2 dimensions");
  return PaddingExp<SrcExp, DType, ExpInfo<SrcExp>::kDim>(src.self(), pad, pad, pad, pad);
}
/*! \brief Pads the height by `pad_y` rows above and below, the width by `pad_x` each side. */
template <typename SrcExp, typename DType, int etype>
inline PaddingExp<SrcExp, DType, ExpInfo<SrcExp>::kDim> pad(const Exp<SrcExp, DType, etype>& src,
                                                            index_t pad_y, index_t pad_x) {
  static_assert(ExpInfo<SrcExp>::kDim >= 2, "pad: the source must have at least 2 dimensions");
  return PaddingExp<SrcExp, DType, ExpInfo<SrcExp>::kDim>(src.self(), pad_y, pad_y, pad_x, pad_x);
}
/*! \brief Pads each side by its own amount (asymmetric padding, e.g. "same" convolutions). */
template <typename SrcExp, typename DType, int etype>
inline PaddingExp<SrcExp, DType, ExpInfo<SrcExp>::kDim> pad(const Exp<SrcExp, DType, etype>& src,
                                                            index_t top, index_t bottom,
                                                            index_t left, index_t right) {
  static_assert(ExpInfo<SrcExp>::kDim >= 2, "pad: the source must have at least 2 dimensions");
  return PaddingExp<SrcExp, DType, ExpInfo<SrcExp>::kDim>(src.self(), top, bottom, left, right);
}

/*! \brief Zero outside the source window, the shifted source element inside. */
template <typename SrcExp, typename DType, int srcdim>
class Plan<PaddingExp<SrcExp, DType, srcdim>, DType> {
 public:
  /*! \brief Builds the source plan and copies the padding geometry. */
  explicit Plan(const PaddingExp<SrcExp, DType, srcdim>& e)
      : src_(MakePlan(e.src_)),
        top_(e.pad_top_),
        left_(e.pad_left_),
        height_(e.shape_[srcdim - 2]),
        src_height_(e.src_height_),
        src_width_(e.src_width_) {}
  /*! \brief Element (y, x). */
  SHADE_XINLINE DType Eval(index_t y, index_t x) const {
    const index_t c = y / height_;
    const index_t h = y - c * height_ - top_;
    const index_t w = x - left_;
    if (h < 0 || h >= src_height_ || w < 0 || w >= src_width_) return DType(0);
    return src_.Eval(c * src_height_ + h, w);
  }

 private:
  Plan<SrcExp, DType> src_;
  index_t top_, left_, height_, src_height_, src_width_;
};

}  // namespace expr
}  // namespace shade

#endif  // SHADE_EXPR_EXT_PAD_H_
