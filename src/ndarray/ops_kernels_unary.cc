// Kernels of the unary ops, and the dtype conversions.
#include "ops_kernels.h"

namespace shade {
namespace dyn {

template OpKernel GetGroupKernel<KernelGroup::kUnary>(OpCode op, int flag);

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
