// Kernel table of the unary ops, and the dtype conversions.
#include "ops_kernels.h"

namespace shade {
namespace dyn {

OpKernel GetUnaryKernel(OpCode op, int flag) {
  namespace np = op::numpy;
  return DispatchDType(flag, [op](auto tag) -> OpKernel {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_same<T, bool>::value) {
      switch (op) {
        case OpCode::kNegative: return &UnaryKernel<np::negative, T>;
        case OpCode::kSign: return &UnaryKernel<np::sign, T>;
        default: break;
      }
    }
    switch (op) {
      case OpCode::kAbs: return &UnaryKernel<np::abs, T>;
      case OpCode::kRelu: return &UnaryKernel<np::relu, T>;
      case OpCode::kRound: return &UnaryKernel<np::round, T>;
      default: break;
    }
    if constexpr (kIsFloating<T>) {
      switch (op) {
        case OpCode::kExp: return &UnaryKernel<np::exp, T>;
        case OpCode::kLog: return &UnaryKernel<np::log, T>;
        case OpCode::kLog1p: return &UnaryKernel<np::log1p, T>;
        case OpCode::kExpm1: return &UnaryKernel<np::expm1, T>;
        case OpCode::kSqrt: return &UnaryKernel<np::sqrt, T>;
        case OpCode::kRsqrt: return &UnaryKernel<np::rsqrt, T>;
        case OpCode::kSin: return &UnaryKernel<np::sin, T>;
        case OpCode::kCos: return &UnaryKernel<np::cos, T>;
        case OpCode::kTanh: return &UnaryKernel<np::tanh, T>;
        case OpCode::kSigmoid: return &UnaryKernel<np::sigmoid, T>;
        case OpCode::kFloor: return &UnaryKernel<np::floor, T>;
        case OpCode::kCeil: return &UnaryKernel<np::ceil, T>;
        default: break;
      }
    }
    return nullptr;
  });
}

CastKernel GetCastKernel(int to, int from) {
  if (to == from) return nullptr;
  return DispatchDType(to, [from](auto dtag) {
    using D = typename decltype(dtag)::type;
    return DispatchDType(from, [](auto stag) -> CastKernel {
      using S = typename decltype(stag)::type;
      return [](index_t n, void* out, const void* in) {
        kernel::CastRun<D, S>(n, static_cast<D*>(out), static_cast<const S*>(in));
      };
    });
  });
}

void FillElements(int size, index_t n, void* dst, const void* value) {
  switch (size) {  // element widths, not dtypes: any 4-byte element moves as a uint32
    case 1: { std::uint8_t v; std::memcpy(&v, value, 1); kernel::FillRun(n, static_cast<std::uint8_t*>(dst), v); return; }
    case 2: { std::uint16_t v; std::memcpy(&v, value, 2); kernel::FillRun(n, static_cast<std::uint16_t*>(dst), v); return; }
    case 4: { std::uint32_t v; std::memcpy(&v, value, 4); kernel::FillRun(n, static_cast<std::uint32_t*>(dst), v); return; }
    default: { std::uint64_t v; std::memcpy(&v, value, 8); kernel::FillRun(n, static_cast<std::uint64_t*>(dst), v); return; }
  }
}

index_t MapGrain(bool heavy) { return heavy ? kernel::kMathGrain : kernel::kMapGrain; }

}  // namespace dyn
}  // namespace shade
