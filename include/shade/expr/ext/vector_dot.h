/*!
 * \file vector_dot.h
 * \brief `VectorDot(dst, lhs, rhs)`: the inner product of two 1-D tensors written into the
 *  one-element tensor dst (mshadow's function). float and double go through the BLAS engine
 *  (backend/cpu/blas.h, as a 1 x n by n product); other element types use a plain loop.
 */
#ifndef SHADE_EXPR_EXT_VECTOR_DOT_H_
#define SHADE_EXPR_EXT_VECTOR_DOT_H_

#include <type_traits>

#include "shade/backend/cpu/blas.h"
#include "shade/base/device.h"
#include "shade/base/error.h"
#include "shade/base/index.h"
#include "shade/tensor/tensor.h"

namespace shade {

/*! \brief dst[0] = sum_i lhs[i] * rhs[i]; throws unless dst has one element and the lengths agree.
 */
template <typename Device, typename DType>
inline void VectorDot(Tensor<Device, 1, DType> dst, const Tensor<Device, 1, DType>& lhs,
                      const Tensor<Device, 1, DType>& rhs) {
  static_assert(std::is_same<Device, cpu>::value,
                "shade: this build evaluates VectorDot on the cpu only (no gpu backend)");
  SHADE_CHECK_SHAPE_EQ(dst.size(0), 1)
      << "VectorDot: the destination of shape " << dst.shape_ << " must have exactly one element";
  SHADE_CHECK_SHAPE_EQ(lhs.size(0), rhs.size(0))
      << "VectorDot: lengths of lhs " << lhs.shape_ << " and rhs " << rhs.shape_ << " differ";
  const index_t n = lhs.size(0);
  if constexpr (blas::kSupported<DType>) {
    if (n > 0) {
      // A 1 x n row times a vector; beta 0 overwrites dst without reading it.
      blas::Gemv<DType>(false, 1, n, DType(1), lhs.dptr_, n, rhs.dptr_, 1, DType(0), dst.dptr_, 1);
      return;
    }
    dst.dptr_[0] = DType(0);
  } else {
    DType sum = DType(0);
    for (index_t i = 0; i < n; ++i) sum += lhs.dptr_[i] * rhs.dptr_[i];
    dst.dptr_[0] = sum;
  }
}

}  // namespace shade

#endif  // SHADE_EXPR_EXT_VECTOR_DOT_H_
