// Kernel table of the arithmetic ops (one instantiation per op and compute dtype).
#include "ops_kernels.h"

namespace shade {
namespace dyn {

OpKernel GetArithKernel(OpCode op, int flag) {
  namespace np = op::numpy;
  return DispatchDType(flag, [op](auto tag) -> OpKernel {
    using T = typename decltype(tag)::type;
    switch (op) {
      case OpCode::kAdd: return &BinaryKernel<np::plus, T>;
      case OpCode::kMultiply: return &BinaryKernel<np::mul, T>;
      case OpCode::kMaximum: return &BinaryKernel<np::maximum, T>;
      case OpCode::kMinimum: return &BinaryKernel<np::minimum, T>;
      case OpCode::kWhere: return &WhereKernel<T>;
      case OpCode::kClamp: return &TernaryKernel<np::clamp, T>;
      default: break;
    }
    if constexpr (!std::is_same<T, bool>::value) {
      switch (op) {
        case OpCode::kSubtract: return &BinaryKernel<np::minus, T>;
        case OpCode::kFloorDivide: return &BinaryKernel<np::floor_divide, T>;
        case OpCode::kRemainder: return &BinaryKernel<np::remainder, T>;
        case OpCode::kPower: return &BinaryKernel<np::power, T>;
        default: break;
      }
    }
    if constexpr (kIsFloating<T>) {
      if (op == OpCode::kTrueDivide) return &BinaryKernel<np::true_divide, T>;
    }
    return nullptr;
  });
}

}  // namespace dyn
}  // namespace shade
