/*!
 * \file batch_gemm.h
 * \brief `BatchGEMM<transpose_left, transpose_right>(dst, lhs, rhs, alpha, beta, workspace)`:
 *  dst[i] = alpha * op(lhs[i]) * op(rhs[i]) + beta * dst[i] for every i of a batch of
 *  matrices (mxnet/mshadow's function), as ONE blas::BatchGemm call. The expression form of
 *  the same product is batch_dot in expr/expression.h.
 *
 * `workspace` is mshadow's array of 3 * batch pointers, which its GPU path needed; it is
 * checked (as mshadow did) but not used, because blas::BatchGemm addresses the matrices by
 * their batch stride. Unlike mshadow, padded (pitched) operands are accepted.
 */
#ifndef SHADE_EXPR_EXT_BATCH_GEMM_H_
#define SHADE_EXPR_EXT_BATCH_GEMM_H_

#include <type_traits>

#include "shade/backend/cpu/blas.h"
#include "shade/base/device.h"
#include "shade/base/error.h"
#include "shade/base/index.h"
#include "shade/expr/dot.h"
#include "shade/tensor/tensor.h"

namespace shade {

/*!
 * \brief dst[i] = alpha * op(lhs[i]) op(rhs[i]) + beta * dst[i], op transposing when its flag
 *  is set. Throws shade::Error naming the shapes when the batch sizes or matrix shapes differ,
 *  when the workspace holds fewer than 3 * batch pointers, or when dst overlaps an operand.
 *  beta == 0 overwrites dst without reading it.
 */
template <bool transpose_left, bool transpose_right, typename Device, typename DType>
inline void BatchGEMM(Tensor<Device, 3, DType> dst, const Tensor<Device, 3, DType>& lhs,
                      const Tensor<Device, 3, DType>& rhs, DType alpha, DType beta,
                      Tensor<Device, 1, DType*> workspace) {
  static_assert(expr::detail::CheckDotTypes<Device, DType>(), "");
  const index_t batch = dst.size(0);
  const Shape<3> sl = transpose_left ? Shape3(lhs.size(0), lhs.size(2), lhs.size(1)) : lhs.shape_;
  const Shape<3> sr = transpose_right ? Shape3(rhs.size(0), rhs.size(2), rhs.size(1)) : rhs.shape_;
  SHADE_CHECK_SHAPE(sl[0] == batch && sr[0] == batch)
      << "BatchGEMM: batch sizes differ: dst " << dst.shape_ << ", lhs " << lhs.shape_ << ", rhs "
      << rhs.shape_;
  SHADE_CHECK_SHAPE(dst.size(1) == sl[1] && dst.size(2) == sr[2] && sl[2] == sr[1])
      << "BatchGEMM: matrix shapes do not match: dst " << dst.shape_ << ", lhs"
      << (transpose_left ? "^T " : " ") << sl << ", rhs" << (transpose_right ? "^T " : " ") << sr;
  SHADE_CHECK_GE(workspace.size(0), CheckedMul(batch, 3, "BatchGEMM"))
      << "BatchGEMM: the workspace must hold at least 3 * batch = " << 3 * batch << " pointers";
  expr::detail::CheckNoOverlap(dst, lhs, "lhs");
  expr::detail::CheckNoOverlap(dst, rhs, "rhs");
  blas::BatchGemm<DType>(transpose_left, transpose_right, batch, sl[1], sr[2], sl[2], alpha,
                         lhs.dptr_, lhs.stride_, static_cast<index_t>(lhs.template MemSize<1>()),
                         rhs.dptr_, rhs.stride_, static_cast<index_t>(rhs.template MemSize<1>()),
                         beta, dst.dptr_, dst.stride_,
                         static_cast<index_t>(dst.template MemSize<1>()));
}

}  // namespace shade

#endif  // SHADE_EXPR_EXT_BATCH_GEMM_H_
