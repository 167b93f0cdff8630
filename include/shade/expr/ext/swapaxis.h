/*!
 * \file swapaxis.h
 * \brief `swapaxis<a1, a2>(exp)`: dimensions a1 and a2 exchanged (mshadow's name and
 *  template-argument form). Built on transpose.h's permutation node.
 */
#ifndef SHADE_EXPR_EXT_SWAPAXIS_H_
#define SHADE_EXPR_EXT_SWAPAXIS_H_

#include "shade/expr/ext/ext_base.h"
#include "shade/expr/ext/transpose.h"
#include "shade/tensor/tensor.h"

namespace shade {
namespace expr {

/*! \brief Exchanges dimensions a1 and a2: `swapaxis<1, 2>(a)` of (n, c, h) has shape (n, h, c). */
template <int a1, int a2, typename SrcExp, typename DType, int etype>
inline TransposeExExp<SrcExp, DType, ExpInfo<SrcExp>::kDim> swapaxis(
    const Exp<SrcExp, DType, etype>& src) {
  constexpr int dim = ExpInfo<SrcExp>::kDim;
  static_assert(dim >= 1, "swapaxis: the source must be a tensor expression");
  static_assert(0 <= a1 && a1 < dim && 0 <= a2 && a2 < dim, "swapaxis: axis outside the rank");
  Shape<dim> axes;
  for (int k = 0; k < dim; ++k) axes[k] = k;
  axes[a1] = a2;
  axes[a2] = a1;
  return TransposeExExp<SrcExp, DType, dim>(src.self(), axes, "swapaxis");
}

}  // namespace expr
}  // namespace shade

#endif  // SHADE_EXPR_EXT_SWAPAXIS_H_
