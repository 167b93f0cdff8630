// Kernels of comparisons, logical and bitwise ops.
#include "ops_kernels.h"

namespace shade {
namespace dyn {

template OpKernel GetGroupKernel<KernelGroup::kLogic>(OpCode op, int flag);

}  // namespace dyn
}  // namespace shade
