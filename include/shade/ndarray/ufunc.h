/*!
 * \file ufunc.h
 * \brief NumPy's ufunc methods for every op of the registry (functor/op_registry.h): the op's
 *  description (`UfuncInfoOf`: name, nin, nout, identity) and `Reduce`, `Accumulate`,
 *  `ReduceAt`, `Outer`, `At` for any binary op, with NumPy 1.24's semantics.
 *
 * Result dtypes: the loop dtype of op(T, T) for the input dtype T, except that add and multiply
 * of bool and integers narrower than 64 bits run in int64 / uint64 (NumPy's reduce, accumulate
 * and reduceat do so); `dtype` (>= 0) replaces T. A reduction needs a loop whose first input has
 * the output's dtype: comparisons of non-bool dtypes are refused (TypeError, as NumPy).
 *
 * add, multiply, maximum, minimum, logical_and and logical_or reduce with the fast reductions of
 * reduce.h; every other op folds the reduced axis with its own elementwise kernel (one kernel
 * run per step, over all the kept elements at once).
 */
#ifndef SHADE_NDARRAY_UFUNC_H_
#define SHADE_NDARRAY_UFUNC_H_

#include <vector>

#include "shade/base/index.h"
#include "shade/ndarray/ndarray.h"
#include "shade/ndarray/op_code.h"
#include "shade/ndarray/reduce.h"

namespace shade {

/*! \brief A binary op's identity (NumPy's ufunc.identity). */
enum class UfuncIdentity : std::uint8_t {
  kNone,      ///< none (reduce of an empty array throws unless `initial` is given)
  kZero,      ///< 0
  kOne,       ///< 1
  kMinusOne,  ///< -1 (all bits set: bitwise_and)
  kTrue,      ///< True (logical_and)
  kFalse,     ///< False (logical_or, logical_xor)
  kMinusInf,  ///< -inf (logaddexp)
};

/*! \brief One registry op described as a NumPy ufunc. */
struct UfuncInfo {
  OpCode op;               ///< the registry op
  const char* name;        ///< NumPy's name (ufunc.__name__)
  int nin;                 ///< inputs
  int nout;                ///< outputs (1 for every registry op)
  UfuncIdentity identity;  ///< identity of a binary op (kNone for the others)
  bool reorderable;        ///< may reduce over several axes at once (NumPy: identity or max/min)
};

/*! \brief The description of `op`, generated from the registry; throws for a code that is no op. */
const UfuncInfo& UfuncInfoOf(OpCode op);
/*! \brief Every registry op's description, in registry order. */
const std::vector<UfuncInfo>& AllUfuncs();
/*! \brief The identity as a double (NaN for kNone; -1 for kMinusOne, which casts to all bits). */
double UfuncIdentityValue(UfuncIdentity id);

/*! \brief Options of Reduce (NumPy's ufunc.reduce keywords). */
struct UfuncReduceOptions {
  AxisSet axes = AxisSet(index_t{0});  ///< NumPy's default axis=0; AxisSet() is axis=None
  int dtype = -1;                      ///< the loop dtype; -1: from the input (file comment)
  bool keepdims = false;               ///< keep reduced axes as size 1
  NDArray initial;                     ///< the start value (undefined: the identity / none)
  NDArray where;                       ///< bool mask broadcast to the input (undefined: all)
};

/*!
 * \brief `op.reduce(a, axis, dtype, keepdims, initial, where)`. Throws ValueError for an empty
 *  reduction of an op without identity and no `initial`, for several axes with an op that is not
 *  reorderable, and for `where` with neither identity nor `initial`; TypeError for a non-binary
 *  op or a dtype without a reduce loop.
 */
NDArray Reduce(OpCode op, const NDArray& a, const UfuncReduceOptions& opt = UfuncReduceOptions());

/*!
 * \brief `op.accumulate(a, axis, dtype)`: r[..., i, ...] = op(r[..., i-1, ...], a[..., i, ...]),
 *  r[0] = a[0]; the shape of `a`. Throws for a 0-d `a` or an axis out of range.
 */
NDArray Accumulate(OpCode op, const NDArray& a, index_t axis = 0, int dtype = -1);

/*!
 * \brief `op.reduceat(a, indices, axis, dtype)`: slot i reduces a[indices[i]:indices[i+1]] along
 *  `axis` (to the end for the last), or is a[indices[i]] where indices[i] >= indices[i+1].
 *  Throws IndexError for an index outside [0, a.shape[axis]) (negative ones too, as NumPy).
 */
NDArray ReduceAt(OpCode op, const NDArray& a, const std::vector<index_t>& indices, index_t axis = 0,
                 int dtype = -1);

/*! \brief `op.outer(a, b)`: r[i..., j...] = op(a[i...], b[j...]); shape a.shape + b.shape. */
NDArray Outer(OpCode op, const NDArray& a, const NDArray& b, int dtype = -1);

/*!
 * \brief `op.at(a, indices, b)`: unbuffered in-place a[idx] = op(a[idx], b) for every index
 *  tuple, so repeated indices apply the op once each. `indices` holds one integer array per
 *  leading axis of `a` (broadcast together; negative values count from the end); `b` is
 *  broadcast to the indexed shape (undefined for a unary op). The result is cast to a's dtype
 *  under same_kind. Throws IndexError for an index out of range.
 */
void At(OpCode op, const NDArray& a, const std::vector<NDArray>& indices,
        const NDArray& b = NDArray());

}  // namespace shade

#endif  // SHADE_NDARRAY_UFUNC_H_
