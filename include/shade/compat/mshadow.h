/*!
 * \file mshadow.h
 * \brief mshadow source compatibility: programs written for mshadow's public CPU API compile
 *  unchanged but for including this header instead of <mshadow/tensor.h>.
 *
 * `mshadow::` and `mshadow::expr::` name shade's entities (Tensor, Shape, TensorContainer,
 * NewTensor, FreeSpace, Copy, dot, F, tcast, scalar, op::, red::, sv::, TBlob, TShape, ...).
 * Differences a port may notice: index_t is signed 64-bit, and failed checks throw
 * shade::Error instead of aborting.
 */
#ifndef SHADE_COMPAT_MSHADOW_H_
#define SHADE_COMPAT_MSHADOW_H_

#include <cmath>
#include <cstddef>
// mshadow's tensor.h brings in <iostream>; programs written for it use std::cout unqualified
// of any include of their own.
#include <iostream>

#include "shade/base/device.h"
#include "shade/base/dtype.h"
#include "shade/base/half.h"
#include "shade/base/index.h"
#include "shade/expr/expression.h"
#include "shade/shape/shape.h"
#include "shade/shape/tshape.h"
#include "shade/tensor/stream.h"
#include "shade/tensor/tensor.h"
#include "shade/tensor/tensor_blob.h"
#include "shade/tensor/tensor_cpu.h"
// Extensions and Random (mshadow::expr::broadcast, pool, ..., mshadow::Softmax, mshadow::Random):
// the using-directives below bring their names in.
#include "shade/expr/extension.h"
#include "shade/random/random.h"

namespace mshadow {
using namespace shade;  // NOLINT(build/namespaces): the whole point is to alias the namespace
/*! \brief mshadow's expression namespace. */
namespace expr {
using namespace shade::expr;  // NOLINT(build/namespaces)
}  // namespace expr
/*!
 * \brief Bytes per element of a runtime dtype flag (mshadow's base.h); an unknown flag throws
 *  shade::Error where mshadow aborts.
 */
inline std::size_t mshadow_sizeof(int type) {
  return shade::TypeFlagSize(type);
}
namespace expr {
/*!
 * \brief Number of elements of range(start, stop, step, repeat), computed as mshadow's
 *  extension/range.h does: integers `repeat * ((stop - start - 1) / step + 1)`, floating
 *  point `repeat * ceil((stop - start) / step)` in double.
 */
template <typename DType>
inline int RangeOutSize(DType start, DType stop, DType step, int repeat) {
  if constexpr (std::is_floating_point<DType>::value) {
    return repeat *
           static_cast<int>(std::ceil((static_cast<double>(stop) - static_cast<double>(start)) /
                                      static_cast<double>(step)));
  } else {
    return repeat * static_cast<int>((stop - start - 1) / step + 1);
  }
}
}  // namespace expr
/*! \brief mshadow's 16-bit float namespace. */
namespace half {
using shade::half_t;
}  // namespace half
}  // namespace mshadow

/*! \brief Inline on host and device (mshadow's name). */
#define MSHADOW_XINLINE SHADE_XINLINE
/*! \brief Inline on the CPU (mshadow's name). */
#define MSHADOW_CINLINE SHADE_CINLINE
/*! \brief Default element type of Tensor (mshadow's name). */
#define MSHADOW_DEFAULT_DTYPE ::shade::default_real_t
/*! \brief Runs the body with DType bound to the C++ type of a runtime dtype flag. */
#define MSHADOW_TYPE_SWITCH(type, DType, ...) SHADE_TYPE_SWITCH(type, DType, __VA_ARGS__)

#endif  // SHADE_COMPAT_MSHADOW_H_
