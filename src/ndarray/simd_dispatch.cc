// Chooses the SIMD target of the dynamic front end's compiled kernels (simd_table.h) and gives
// the rest of src/ the kernel entry points through it. Compiled once, for the baseline target.
#include <hwy/targets.h>

#include <cctype>
#include <cstdlib>
#include <string>

#include "shade/backend/cpu/parallel.h"
#include "shade/base/error.h"
#include "shade/ndarray/device.h"
#include "simd_table.h"

namespace shade {
namespace dyn {

// The per-target tables of a portable build besides the baseline's (CMake defines
// SHADE_SIMD_HAVE_<TARGET> for each target it compiled the per-target sources for).
#define SHADE_DECLARE_SIMD_TARGET_(NS) \
  namespace NS {                       \
  const SimdKernels& TargetKernels();  \
  }
#ifdef SHADE_SIMD_HAVE_AVX3
SHADE_DECLARE_SIMD_TARGET_(N_AVX3)
#endif
#ifdef SHADE_SIMD_HAVE_AVX2
SHADE_DECLARE_SIMD_TARGET_(N_AVX2)
#endif
#ifdef SHADE_SIMD_HAVE_SSE4
SHADE_DECLARE_SIMD_TARGET_(N_SSE4)
#endif
#undef SHADE_DECLARE_SIMD_TARGET_

namespace {

std::string Lower(const char* s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Best first; the last is this file's own target (the baseline of a portable build, the native
// target of a native one), which every CPU the build runs on supports.
const SimdKernels* ChooseTable() {
  const SimdKernels* const compiled[] = {
#ifdef SHADE_SIMD_HAVE_AVX3
      &N_AVX3::TargetKernels(),
#endif
#ifdef SHADE_SIMD_HAVE_AVX2
      &N_AVX2::TargetKernels(),
#endif
#ifdef SHADE_SIMD_HAVE_SSE4
      &N_SSE4::TargetKernels(),
#endif
      &HWY_NAMESPACE::TargetKernels(),
  };
  constexpr int kCount = static_cast<int>(sizeof(compiled) / sizeof(compiled[0]));
  int first = 0;
  const char* cap = std::getenv("SHADE_SIMD_TARGET");
  if (cap != nullptr && *cap != '\0' && Lower(cap) != "best") {
    const std::string want = Lower(cap);
    first = -1;
    std::string names;
    for (int i = 0; i < kCount && first < 0; ++i) {
      if (want == Lower(compiled[i]->target) || (want == "baseline" && i == kCount - 1)) first = i;
      names += std::string(i ? ", " : "") + Lower(compiled[i]->target);
    }
    SHADE_CHECK(first >= 0) << "SHADE_SIMD_TARGET=" << cap
                            << ": this build of shade has kernels for " << names
                            << " (or best, baseline)";
  }
  const long long cpu = static_cast<long long>(hwy::SupportedTargets());
  for (int i = first; i < kCount - 1; ++i) {
    if ((compiled[i]->target_bit & cpu) != 0) return compiled[i];
  }
  return compiled[kCount - 1];
}

}  // namespace

const SimdKernels& Simd() {
  static const SimdKernels* const table = ChooseTable();
  return *table;
}

OpKernel GetKernel(OpCode op, int flag) {
  if (IsComplexTypeFlag(flag)) return ComplexKernel(op, flag);  // scalar loops, one target
  const OpTraits& t = OpTraitsOf(op);
  switch (KernelGroupOf(t.category, t.arity)) {
    case KernelGroup::kLogic:
      return Simd().logic_kernel(op, flag);
    case KernelGroup::kUnary:
      return Simd().unary_kernel(op, flag);
    default:
      return Simd().arith_kernel(op, flag);
  }
}

CastKernel GetCastKernel(int to, int from) {
  if (IsComplexTypeFlag(to) || IsComplexTypeFlag(from)) return ComplexCastKernel(to, from);
  return Simd().cast_kernel(to, from);
}

void FillElements(int size, index_t n, void* dst, const void* value) {
  Simd().fill(size, n, dst, value);
}

index_t MapGrain(bool heavy) {
  return heavy ? kMathGrain : kMapGrain;
}

VmStepFn VmStep(int flag, int group, OpCode op, VmForm form, int depth, bool store) {
  return Simd().vm_step(flag, group, op, form, depth, store);
}

VmStepFn VmSplatStep(int flag, int group, int depth) {
  return Simd().vm_splat_step(flag, group, depth);
}

index_t VmRun(const VmProgram& p, char* const* data, const index_t* stride, index_t n) {
  return Simd().vm_run(p, data, stride, n);
}

}  // namespace dyn

const char* SimdTargetName() {
  return dyn::Simd().target;
}

}  // namespace shade
