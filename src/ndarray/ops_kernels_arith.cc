// Kernels of the binary and ternary arithmetic ops (one instantiation per op and compute dtype).
#include "ops_kernels.h"

namespace shade {
namespace dyn {
namespace HWY_NAMESPACE {

template OpKernel GetGroupKernel<KernelGroup::kArith>(OpCode op, int flag);

}  // namespace HWY_NAMESPACE
}  // namespace dyn
}  // namespace shade
