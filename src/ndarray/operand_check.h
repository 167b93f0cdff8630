/*!
 * \file operand_check.h
 * \brief The checks of an NDArray operand shared by the dynamic ops' sources (shape ops,
 *  construction, indexing, put/take, ufunc methods): defined, numeric, with memory unless
 *  empty; and an axis within the rank.
 */
#ifndef SHADE_SRC_NDARRAY_OPERAND_CHECK_H_
#define SHADE_SRC_NDARRAY_OPERAND_CHECK_H_

#include "shade/base/error.h"
#include "shade/ndarray/ndarray.h"

namespace shade {
namespace detail {

/*!
 * \brief Throws shade::Error (TypeError for a non-numeric dtype) unless `a` is a defined numeric
 *  array with memory (or empty); messages start with `op` and call the operand `what`.
 */
inline void CheckOperand(const NDArray& a, const char* op, const char* what = "the array") {
  SHADE_CHECK(a.defined()) << op << ": " << what << " is an undefined NDArray";
  SHADE_CHECK_TYPE_GE(a.type_flag(), 0)
      << op << ": " << what << " has non-numeric element type " << a.dtype().name();
  SHADE_CHECK(a.data_ptr() != nullptr || a.numel() == 0)
      << op << ": " << what << " " << a << " has no memory allocated";
}

/*!
 * \brief `axis` (in [-nd, nd)) as a non-negative axis; else IndexError with NumPy's AxisError
 *  text, prefixed by `op` and naming the argument `what`.
 */
inline index_t NormalizeAxis(index_t axis, index_t nd, const char* op, const char* what = "axis") {
  SHADE_CHECK_INDEX(axis >= -nd && axis < nd)
      << op << ": " << what << " " << axis << " is out of bounds for array of dimension " << nd;
  return axis < 0 ? axis + nd : axis;
}

}  // namespace detail
}  // namespace shade

#endif  // SHADE_SRC_NDARRAY_OPERAND_CHECK_H_
