/*!
 * \file axis.h
 * \brief Index helper shared by the axis-wise extensions (slice, concat, flip): splits a row
 *  index of the FlatTo2D view into (outer, index along one axis, inner rest), so an axis that
 *  is not the last one can be remapped with two divisions per row.
 */
#ifndef SHADE_EXPR_EXT_AXIS_H_
#define SHADE_EXPR_EXT_AXIS_H_

#include "shade/base/index.h"
#include "shade/shape/shape.h"

namespace shade {
namespace expr {
namespace detail {

/*!
 * \brief For a shape of rank `dim` and an axis `axis < dim - 1`, the FlatTo2D row index is
 *  `(outer * extent + i) * inner + rest` with `inner` the product of the extents strictly
 *  between the axis and the last one. Split() recovers (outer, i, rest); Join() rebuilds a row
 *  index with another extent along the axis.
 */
struct AxisSplit {
  /*! \brief Product of the extents strictly between the axis and the last dimension. */
  index_t inner = 1;
  /*! \brief Builds the split of `s` at `axis` (for axis == dim - 1 nothing is split). */
  template <int dim>
  static AxisSplit Of(const Shape<dim>& s, int axis) {
    AxisSplit a;
    for (int k = axis + 1; k < dim - 1; ++k) a.inner *= s[k];
    return a;
  }
  /*! \brief Row y seen with `extent` along the axis: sets outer, i and rest. */
  SHADE_XINLINE void Split(index_t y, index_t extent, index_t* outer, index_t* i,
                           index_t* rest) const {
    const index_t z = y / inner;
    *rest = y - z * inner;
    *outer = z / extent;
    *i = z - *outer * extent;
  }
  /*! \brief Row index of (outer, i, rest) with `extent` along the axis. */
  SHADE_XINLINE index_t Join(index_t outer, index_t extent, index_t i, index_t rest) const {
    return (outer * extent + i) * inner + rest;
  }
};

}  // namespace detail
}  // namespace expr
}  // namespace shade

#endif  // SHADE_EXPR_EXT_AXIS_H_
