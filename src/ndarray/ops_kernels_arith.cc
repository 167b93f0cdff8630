// Kernel table of the arithmetic ops (one instantiation per op and compute dtype).
#include "ops_kernels.h"

namespace shade {
namespace dyn {

OpKernel GetArithKernel(OpCode op, int flag) {
  namespace np = op::numpy;
  return DispatchDType(flag, [op](auto tag) -> OpKernel {
    using T = typename decltype(tag)::type;
#define SHADE_BINARY_CASE_(CODE, FUNCTOR) \
  case OpCode::CODE: return &BinaryKernel<np::FUNCTOR, T>;
    switch (op) {
      SHADE_DYN_ARITH_ANY_OPS(SHADE_BINARY_CASE_)
      case OpCode::kWhere: return &WhereKernel<T>;
      case OpCode::kClamp: return &TernaryKernel<np::clamp, T>;
      default: break;
    }
    if constexpr (!std::is_same<T, bool>::value) {
      switch (op) {
        SHADE_DYN_ARITH_NOBOOL_OPS(SHADE_BINARY_CASE_)
        default: break;
      }
    }
    if constexpr (kIsFloating<T>) {
      switch (op) {
        SHADE_DYN_ARITH_FLOAT_OPS(SHADE_BINARY_CASE_)
        default: break;
      }
    }
#undef SHADE_BINARY_CASE_
    return nullptr;
  });
}

}  // namespace dyn
}  // namespace shade
