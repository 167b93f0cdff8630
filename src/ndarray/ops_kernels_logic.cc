// Kernel table of comparisons, logical and bitwise ops.
#include "ops_kernels.h"

namespace shade {
namespace dyn {

OpKernel GetLogicKernel(OpCode op, int flag) {
  namespace np = op::numpy;
  return DispatchDType(flag, [op](auto tag) -> OpKernel {
    using T = typename decltype(tag)::type;
    switch (op) {
      case OpCode::kEqual: return &CompareKernel<np::equal, T>;
      case OpCode::kNotEqual: return &CompareKernel<np::not_equal, T>;
      case OpCode::kLess: return &CompareKernel<np::less, T>;
      case OpCode::kLessEqual: return &CompareKernel<np::less_equal, T>;
      case OpCode::kGreater: return &CompareKernel<np::greater, T>;
      case OpCode::kGreaterEqual: return &CompareKernel<np::greater_equal, T>;
      default: break;
    }
    if constexpr (std::is_same<T, bool>::value) {
      switch (op) {
        case OpCode::kLogicalAnd: return &BinaryKernel<np::logical_and, T>;
        case OpCode::kLogicalOr: return &BinaryKernel<np::logical_or, T>;
        case OpCode::kLogicalXor: return &BinaryKernel<np::logical_xor, T>;
        case OpCode::kLogicalNot: return &UnaryKernel<np::logical_not, T>;
        default: break;
      }
    }
    if constexpr (std::is_integral<T>::value) {
      switch (op) {
        case OpCode::kBitwiseAnd: return &BinaryKernel<np::bitwise_and, T>;
        case OpCode::kBitwiseOr: return &BinaryKernel<np::bitwise_or, T>;
        case OpCode::kBitwiseXor: return &BinaryKernel<np::bitwise_xor, T>;
        case OpCode::kBitwiseNot: return &UnaryKernel<np::bitwise_not, T>;
        default: break;
      }
    }
    return nullptr;
  });
}

}  // namespace dyn
}  // namespace shade
