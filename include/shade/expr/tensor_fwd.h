/*!
 * \file tensor_fwd.h
 * \brief Declares `Tensor` for the expression layer. The expression templates name `Tensor` only
 *  inside templates (plans of tensor leaves, the destination of the element loop), so a
 *  declaration is enough here; tensor/tensor.h defines it and includes the expression layer.
 *  This keeps the include graph one-way: expr below tensor, with no re-entrant includes.
 */
#ifndef SHADE_EXPR_TENSOR_FWD_H_
#define SHADE_EXPR_TENSOR_FWD_H_

namespace shade {
/*! \brief A rank-`dimension` view of `DType` elements on `Device` (defined in tensor/tensor.h). */
template <typename Device, int dimension, typename DType>
struct Tensor;
/*! \brief The work queue of a device (defined in tensor/stream.h; the dot engine passes it on). */
template <typename Device>
struct Stream;
}  // namespace shade

#endif  // SHADE_EXPR_TENSOR_FWD_H_
