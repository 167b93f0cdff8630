// Kernels of the unary ops, and the dtype conversions and fills.
#include "ops_kernels.h"

namespace shade {
namespace dyn {
namespace HWY_NAMESPACE {

template OpKernel GetGroupKernel<KernelGroup::kUnary>(OpCode op, int flag);

CastKernel CastKernelOf(int to, int from) {
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

namespace {
template <class U>
void FillWords(index_t n, void* dst, const void* value) {
  U v;
  std::memcpy(&v, value, sizeof(U));
  kernel::FillRun(n, static_cast<U*>(dst), v);
}
template <class U>
void TransposeWords(index_t r0, index_t r1, index_t cols, const void* src, index_t lds, void* dst,
                    index_t ldd) {
  kernel::TransposeRun(r0, r1, cols, static_cast<const U*>(src), lds, static_cast<U*>(dst), ldd);
}
}  // namespace

void FillElementsOf(int size, index_t n, void* dst, const void* value) {
  switch (size) {  // element widths, not dtypes: any 4-byte element moves as a uint32
    case 1:
      return FillWords<std::uint8_t>(n, dst, value);
    case 2:
      return FillWords<std::uint16_t>(n, dst, value);
    case 4:
      return FillWords<std::uint32_t>(n, dst, value);
    default:
      return FillWords<std::uint64_t>(n, dst, value);
  }
}

void TransposeOf(int size, index_t r0, index_t r1, index_t cols, const void* src, index_t lds,
                 void* dst, index_t ldd) {
  switch (size) {  // element widths: the register transposes move words
    case 1:
      return TransposeWords<std::uint8_t>(r0, r1, cols, src, lds, dst, ldd);
    case 2:
      return TransposeWords<std::uint16_t>(r0, r1, cols, src, lds, dst, ldd);
    case 4:
      return TransposeWords<std::uint32_t>(r0, r1, cols, src, lds, dst, ldd);
    default:
      return TransposeWords<std::uint64_t>(r0, r1, cols, src, lds, dst, ldd);
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace dyn
}  // namespace shade
