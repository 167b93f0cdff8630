// Internal to the dynamic ops: the table of the SIMD kernels that the library compiles once per
// x86 target, and how the rest of src/ reaches the one chosen for this CPU.
//
// Every kernel of the dynamic front end whose machine code depends on the SIMD target (the op
// tiles, the dtype conversions and fills, the register program, the axis reductions and the
// register transposes) is compiled in the "per-target" sources listed in the root CMakeLists.txt
// (SHADE_SIMD_SOURCES). Inside them everything is in namespace `HWY_NAMESPACE` (N_SSE4, N_AVX2,
// N_AVX3, N_EMU128, ...), so each target's copy is a distinct set of symbols, and each target
// exports one `TargetKernels()` table. A portable build (SHADE_NATIVE=OFF) compiles these sources
// for SSE4, AVX2 and AVX-512 besides the baseline, and simd_dispatch.cc picks the best table the
// CPU runs (hwy::SupportedTargets) the first time a kernel is needed; a native build compiles them
// once, for -march=native, and the table is that one. The other sources never include
// packet-level code for the dynamic front end: they call Simd().
#ifndef SHADE_SRC_NDARRAY_SIMD_TABLE_H_
#define SHADE_SRC_NDARRAY_SIMD_TABLE_H_

#include <hwy/highway.h>

#include <cstdint>

#include "lazy_vm.h"
#include "ops_kernel_table.h"
#include "shade/base/index.h"
#include "shade/ndarray/op_code.h"

namespace shade {
namespace dyn {

/*! The axis reductions of reduce.cc: sum and product wrap in unsigned integers, max and min
 *  propagate NaN (NumPy). */
enum class RedOp { kSum, kProd, kMax, kMin };

/*! One target's kernels (see the file comment). */
struct SimdKernels {
  const char* target;    // Highway's name of the target: "AVX3", "AVX2", "SSE4", "EMU128", ...
  long long target_bit;  // Highway's bit of the target (HWY_AVX2, ...)
  OpKernel (*arith_kernel)(OpCode op, int flag);
  OpKernel (*logic_kernel)(OpCode op, int flag);
  OpKernel (*unary_kernel)(OpCode op, int flag);
  CastKernel (*cast_kernel)(int to, int from);
  void (*fill)(int size, index_t n, void* dst, const void* value);
  VmStepFn (*vm_step)(int flag, int group, OpCode op, VmForm form, int depth, bool store);
  VmStepFn (*vm_splat_step)(int flag, int group, int depth);
  index_t (*vm_run)(const VmProgram& p, char* const* data, const index_t* stride, index_t n);
  // One [outer, len, inner] axis reduction of contiguous src into dst in element type `flag`.
  void (*reduce_axis)(RedOp op, int flag, index_t outer, index_t len, index_t inner,
                      const void* src, void* dst);
  // Index of the first maximum (max) or minimum of n > 0 contiguous elements, NaN winning.
  index_t (*arg_reduce)(bool max, int flag, index_t n, const void* src);
  // The same along the middle axis of a contiguous [outer, len, inner] block (len > 0).
  void (*arg_reduce_axis)(bool max, int flag, index_t outer, index_t len, index_t inner,
                          const void* src, std::int64_t* dst);
  // One thread: dst[j][i] = src[i][j] for source rows [r0, r1) of elements of `size` bytes (1, 2,
  // 4 or 8), as kernel::TransposeRun.
  void (*transpose)(int size, index_t r0, index_t r1, index_t cols, const void* src, index_t lds,
                    void* dst, index_t ldd);
};

/*! The table of the best target this CPU runs among those compiled (chosen once; the
 *  environment variable SHADE_SIMD_TARGET=sse4|avx2|avx3|baseline caps it, for tests). */
const SimdKernels& Simd();

// The per-target sources' entry points, in the namespace of the target they are compiled for.
namespace HWY_NAMESPACE {
template <KernelGroup kGroup>
OpKernel GetGroupKernel(OpCode op, int flag);
CastKernel CastKernelOf(int to, int from);
void FillElementsOf(int size, index_t n, void* dst, const void* value);
VmStepFn VmStepOf(int flag, int group, OpCode op, VmForm form, int depth, bool store);
VmStepFn VmSplatStepOf(int flag, int group, int depth);
index_t VmRunOf(const VmProgram& p, char* const* data, const index_t* stride, index_t n);
void ReduceAxisOf(RedOp op, int flag, index_t outer, index_t len, index_t inner, const void* src,
                  void* dst);
index_t ArgReduceOf(bool max, int flag, index_t n, const void* src);
void ArgReduceAxisOf(bool max, int flag, index_t outer, index_t len, index_t inner, const void* src,
                     std::int64_t* dst);
void TransposeOf(int size, index_t r0, index_t r1, index_t cols, const void* src, index_t lds,
                 void* dst, index_t ldd);
/*! This target's table (simd_table.cc). */
const SimdKernels& TargetKernels();
}  // namespace HWY_NAMESPACE

}  // namespace dyn
}  // namespace shade

#endif  // SHADE_SRC_NDARRAY_SIMD_TABLE_H_
