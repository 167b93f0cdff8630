// Kernels of comparisons, logical and bitwise ops.
#include "ops_kernels.h"

namespace shade {
namespace dyn {
namespace HWY_NAMESPACE {

template OpKernel GetGroupKernel<KernelGroup::kLogic>(OpCode op, int flag);

}  // namespace HWY_NAMESPACE
}  // namespace dyn
}  // namespace shade
