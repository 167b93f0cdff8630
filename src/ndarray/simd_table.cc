// This SIMD target's kernel table (compiled once per target, see simd_table.h).
#include "simd_table.h"

#include <hwy/targets.h>

namespace shade {
namespace dyn {
namespace HWY_NAMESPACE {

// A per-target object compiled with the wrong flags would register one target's code under
// another's name; CMake states the target it expects.
#ifdef SHADE_SIMD_EXPECT_TARGET
static_assert(HWY_STATIC_TARGET == SHADE_SIMD_EXPECT_TARGET,
              "this per-target object is not compiled for the SIMD target CMake asked for");
#endif

const SimdKernels& TargetKernels() {
  static const SimdKernels table = {
      hwy::TargetName(HWY_STATIC_TARGET),
      static_cast<long long>(HWY_STATIC_TARGET),
      &GetGroupKernel<KernelGroup::kArith>,
      &GetGroupKernel<KernelGroup::kLogic>,
      &GetGroupKernel<KernelGroup::kUnary>,
      &CastKernelOf,
      &FillElementsOf,
      &VmStepOf,
      &VmSplatStepOf,
      &VmRunOf,
      &ReduceAxisOf,
      &ArgReduceOf,
      &ArgReduceAxisOf,
      &TransposeOf,
  };
  return table;
}

}  // namespace HWY_NAMESPACE
}  // namespace dyn
}  // namespace shade
