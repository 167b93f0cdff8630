/*!
 * \file ext_base.h
 * \brief Shared helpers of the extensions (expr/ext/): the checked run-time shape of a source
 *  expression and validation of caller-given shapes.
 */
// Tensor first (it includes the evaluation machinery back at its end).
#include "shade/tensor/tensor.h"  // NOLINT(build/include_order)

#ifndef SHADE_EXPR_EXT_EXT_BASE_H_
#define SHADE_EXPR_EXT_EXT_BASE_H_

#include "shade/base/checked.h"
#include "shade/base/error.h"
#include "shade/base/index.h"
#include "shade/expr/check.h"
#include "shade/expr/expression.h"
#include "shade/expr/plan.h"
#include "shade/shape/shape.h"

namespace shade {
namespace expr {
namespace detail {

/*!
 * \brief Shape of `src` seen as rank `dim`. Throws when `src` is a bare scalar, which has no
 *  shape an extension could be built from; `who` names the extension in the message.
 */
template <int dim, typename SrcExp>
inline Shape<dim> SourceShape(const SrcExp& src, const char* who) {
  static_assert(ExpInfo<SrcExp>::kDim == dim,
                "shade: the source expression of this extension has the wrong rank");
  const Shape<dim> s = ShapeCheck<dim, SrcExp>::Check(src);
  SHADE_CHECK(!IsWildcardShape(s)) << who
                                   << ": the source is a scalar expression, which has no shape";
  return s;
}

/*! \brief Throws unless every extent of `s` is >= 0 and their product fits index_t. */
template <int dim>
inline void CheckShapeArg(const Shape<dim>& s, const char* who) {
  for (int i = 0; i < dim; ++i) {
    SHADE_CHECK_GE(s[i], 0) << who << ": extent " << i << " of shape " << s << " is negative";
  }
  CheckedProduct(s.shape_, dim, who);
}

}  // namespace detail
}  // namespace expr
}  // namespace shade

#endif  // SHADE_EXPR_EXT_EXT_BASE_H_
