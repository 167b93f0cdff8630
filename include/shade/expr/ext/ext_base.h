/*!
 * \file ext_base.h
 * \brief Shared helpers of the extensions (expr/ext/): the checked run-time shape of a source
 *  expression and validation of caller-given shapes.
 */
// Tensor first (it includes the evaluation machinery back at its end).
#include "shade/tensor/tensor.h"  // NOLINT(build/include_order)

#ifndef SHADE_EXPR_EXT_EXT_BASE_H_
#define SHADE_EXPR_EXT_EXT_BASE_H_

#include <cmath>
#include <memory>
#include <type_traits>

#include "shade/backend/cpu/map.h"
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

/*!
 * \brief Evaluates a 1-D index expression of `n` elements and converts it to index_t, checking
 *  that every value is an integer in [0, bound) (floating indices must be exact integers).
 *  `who` names the extension and `what` the bound in the message. Done once when a plan is
 *  built, so a bad index throws before anything is written.
 */
template <typename IDType, typename IndexExp>
inline std::shared_ptr<index_t[]> EvalIndices(const IndexExp& index, index_t n, index_t bound,
                                              const char* who, const char* what) {
  std::shared_ptr<index_t[]> out(new index_t[static_cast<size_t>(n > 0 ? n : 1)]);
  std::unique_ptr<IDType[]> raw(new IDType[static_cast<size_t>(n > 0 ? n : 1)]);
  Tensor<cpu, 1, IDType> tmp(raw.get(), Shape1(n));
  MapExp<sv::saveto>(&tmp, index);
  for (index_t i = 0; i < n; ++i) {
    const IDType v = raw[static_cast<size_t>(i)];
    index_t k;
    if constexpr (std::is_integral<IDType>::value) {
      SHADE_CHECK(static_cast<long double>(v) >= 0 && static_cast<long double>(v) < bound)
          << who << ": index " << +v << " at position " << i << " outside [0, " << bound << ") ("
          << what << ")";
      k = static_cast<index_t>(v);
    } else {
      const double d = static_cast<double>(v);
      SHADE_CHECK(d >= 0 && d < static_cast<double>(bound) && std::floor(d) == d)
          << who << ": index " << d << " at position " << i << " is not an integer in [0, "
          << bound << ") (" << what << ")";
      k = static_cast<index_t>(d);
    }
    out[static_cast<size_t>(i)] = k;
  }
  return out;
}

}  // namespace detail
}  // namespace expr
}  // namespace shade

#endif  // SHADE_EXPR_EXT_EXT_BASE_H_
