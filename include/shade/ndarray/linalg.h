/*!
 * \file linalg.h
 * \brief Matrix products of NDArrays with NumPy semantics: matmul (1-D, 2-D, batched with
 *  broadcast batch dimensions), dot, tensordot.
 *
 * The result dtype is the NEP 50 promotion of the operands (promotion.h). float32/float64
 * products run on the BLAS engine (backend/cpu/blas.h): an operand whose matrices are row-major
 * or transposed with a unit inner stride (any row pitch, any batch strides, broadcast batches
 * included) is passed to Gemm/Gemv as it is, never copied; other layouts are copied once with
 * contiguous(). float16/bfloat16 products compute in float32 on the BLAS and round once.
 * Integer products use an exact naive kernel in the result dtype (wrapping on overflow, as
 * NumPy); bool products are logical (or of ands, as NumPy).
 */
#ifndef SHADE_NDARRAY_LINALG_H_
#define SHADE_NDARRAY_LINALG_H_

#include <vector>

#include "shade/base/index.h"
#include "shade/ndarray/ndarray.h"

namespace shade {

/*!
 * \brief np.matmul: a 1-D operand is a row (first) or column (second) vector whose added
 *  dimension is removed from the result; for ranks >= 3 the leading (batch) dimensions
 *  broadcast. Throws shade::Error for rank-0 operands, a core dimension mismatch or batch
 *  dimensions that do not broadcast, naming both shapes.
 */
NDArray matmul(const NDArray& a, const NDArray& b);

/*!
 * \brief np.dot: rank 0 with anything multiplies; 1-D . 1-D is the inner product (rank 0);
 *  N-D . 1-D sums over the last axes; N-D . M-D (M >= 2) sums a's last axis with b's
 *  second-to-last: dot(a, b)[i, j, k, m] = sum(a[i, j, :] * b[k, :, m]).
 */
NDArray dot(const NDArray& a, const NDArray& b);

/*!
 * \brief np.tensordot with axis lists: sums over a's axes_a[i] paired with b's axes_b[i]
 *  (equal sizes); the result has a's free axes then b's, in order.
 */
NDArray tensordot(const NDArray& a, const NDArray& b, const std::vector<index_t>& axes_a,
                  const std::vector<index_t>& axes_b);
/*! \brief np.tensordot(a, b, axes=n): a's last n axes with b's first n. */
NDArray tensordot(const NDArray& a, const NDArray& b, index_t n = 2);

}  // namespace shade

#endif  // SHADE_NDARRAY_LINALG_H_
