// Internal to the dynamic ops: the kernel templates behind the table of ops_kernel_table.h,
// over backend/cpu/kernels.h (contiguous SIMD map and cast) and the op::numpy functors.
// Only the ops_kernels_*.cc files include it, to keep the SIMD instantiations in few objects.
#ifndef SHADE_SRC_NDARRAY_OPS_KERNELS_H_
#define SHADE_SRC_NDARRAY_OPS_KERNELS_H_

#include <cstring>
#include <type_traits>

#include "ops_kernel_table.h"
#include "shade/backend/cpu/kernels.h"
#include "shade/base/dtype.h"
#include "shade/base/half.h"
#include "shade/base/index.h"
#include "shade/functor/numpy.h"

// The OpCode -> op::numpy functor pairs, by the dtypes an op is defined for: one list that the
// kernel tables (ops_kernels_*.cc) and the register program (lazy_vm.cc) both expand.
#define SHADE_DYN_ARITH_ANY_OPS(X) \
  X(kAdd, plus) X(kMultiply, mul) X(kMaximum, maximum) X(kMinimum, minimum)
#define SHADE_DYN_ARITH_NOBOOL_OPS(X)                                                 \
  X(kSubtract, minus) X(kFloorDivide, floor_divide) X(kRemainder, remainder) \
  X(kPower, power)
#define SHADE_DYN_ARITH_FLOAT_OPS(X) X(kTrueDivide, true_divide)
#define SHADE_DYN_UNARY_NOBOOL_OPS(X) X(kNegative, negative) X(kSign, sign)
#define SHADE_DYN_UNARY_ANY_OPS(X) X(kAbs, abs) X(kRelu, relu) X(kRound, round)
#define SHADE_DYN_UNARY_FLOAT_OPS(X)                                                      \
  X(kExp, exp) X(kLog, log) X(kLog1p, log1p) X(kExpm1, expm1) X(kSqrt, sqrt)             \
  X(kRsqrt, rsqrt) X(kSin, sin) X(kCos, cos) X(kTanh, tanh) X(kSigmoid, sigmoid)         \
  X(kFloor, floor) X(kCeil, ceil)

namespace shade {
namespace dyn {

template <class OP, class T>
void UnaryKernel(index_t n, void* out, const View* in) {
  kernel::MapRun<kernel::sv::saveto, OP>(n, static_cast<T*>(out), static_cast<const T*>(in[0].p));
}

template <class OP, class T>
void BinaryKernel(index_t n, void* out, const View* in) {
  T* o = static_cast<T*>(out);
  const T* a = static_cast<const T*>(in[0].p);
  const T* b = static_cast<const T*>(in[1].p);
  if (in[0].scalar) {
    kernel::MapRun<kernel::sv::saveto, OP>(n, o, kernel::Scalar<T>{*a}, b);
  } else if (in[1].scalar) {
    kernel::MapRun<kernel::sv::saveto, OP>(n, o, a, kernel::Scalar<T>{*b});
  } else {
    kernel::MapRun<kernel::sv::saveto, OP>(n, o, a, b);
  }
}

// Comparisons compute 1/0 in T (so the SIMD compare runs in T's lanes), then narrow to bool.
template <class OP, class T>
void CompareKernel(index_t n, void* out, const View* in) {
  alignas(64) T tmp[kMaxTile];
  BinaryKernel<OP, T>(n, tmp, in);
  kernel::CastRun<bool, T>(n, static_cast<bool*>(out), tmp);
}

template <class OP, class T>
void TernaryKernel(index_t n, void* out, const View* in) {
  kernel::MapRun<kernel::sv::saveto, OP>(n, static_cast<T*>(out), static_cast<const T*>(in[0].p),
                                   static_cast<const T*>(in[1].p), static_cast<const T*>(in[2].p));
}

// where(cond, x, y): cond arrives as bool, x and y in T; a select the compiler vectorises.
template <class T>
void WhereKernel(index_t n, void* out, const View* in) {
  T* __restrict o = static_cast<T*>(out);
  const bool* __restrict c = static_cast<const bool*>(in[0].p);
  const T* __restrict x = static_cast<const T*>(in[1].p);
  const T* __restrict y = static_cast<const T*>(in[2].p);
  for (index_t i = 0; i < n; ++i) o[i] = c[i] ? x[i] : y[i];
}

}  // namespace dyn
}  // namespace shade

#endif  // SHADE_SRC_NDARRAY_OPS_KERNELS_H_
