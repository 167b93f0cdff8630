// Internal to the dynamic ops: the interface of the per-tile kernel table the fused evaluator
// (lazy.cc) calls through function pointers. The kernels themselves are instantiated once per
// (op, dtype) and SIMD target in the ops_kernels_*.cc files (see ops_kernels.h and simd_table.h),
// so neither lazy.cc nor a user translation unit that builds expressions compiles any of them.
#ifndef SHADE_SRC_NDARRAY_OPS_KERNEL_TABLE_H_
#define SHADE_SRC_NDARRAY_OPS_KERNEL_TABLE_H_

#include "shade/base/index.h"
#include "shade/ndarray/op_code.h"

namespace shade {
namespace dyn {

/*! Largest tile (elements) the evaluator hands a kernel. */
constexpr index_t kMaxTile = 512;

/*! A kernel operand: n contiguous elements at p, or one element at p seen by every lane. */
struct View {
  const void* p;
  bool scalar;
};

/*! out[0..n) = op(in...) in the kernel's dtypes. Unary kernels take no scalar operand; binary
 *  ones at most one; ternary ones none (the evaluator materialises the others). */
using OpKernel = void (*)(index_t n, void* out, const View* in);
/*! out[0..n) = cast(in[0..n)). */
using CastKernel = void (*)(index_t n, void* out, const void* in);

/*! The three objects the op kernels are compiled in (ops_kernels_arith/logic/unary.cc). */
enum class KernelGroup { kArith, kLogic, kUnary };
/*! The group of an op by its registry category and arity. */
constexpr KernelGroup KernelGroupOf(OpCategory category, int arity) {
  switch (category) {
    case OpCategory::kCompare:
    case OpCategory::kLogical:
    case OpCategory::kLogicalNot:
    case OpCategory::kBitwise:
    case OpCategory::kBitwiseNot:
      return KernelGroup::kLogic;
    default:
      return arity == 1 ? KernelGroup::kUnary : KernelGroup::kArith;
  }
}
/*! The kernel of op computing in `flag`, or null where `flag` is outside the op's domain
 *  (the chosen SIMD target's, simd_dispatch.cc). */
OpKernel GetKernel(OpCode op, int flag);
/*! Conversion `from` -> `to` (null when they are equal). */
CastKernel GetCastKernel(int to, int from);
/*! dst[0..n) = n copies of the element of `size` bytes (1, 2, 4 or 8) at value. */
void FillElements(int size, index_t n, void* dst, const void* value);
/*! The complex dtypes' kernel of op computing in `flag` (kComplex64 / kComplex128), or null
 *  where the op has no complex kernel (ops_kernels_complex.cc; GetKernel forwards to it). */
OpKernel ComplexKernel(OpCode op, int flag);
/*! Conversion `from` -> `to` where either is complex (null when they are equal). */
CastKernel ComplexCastKernel(int to, int from);
/*! dst[o, i] = product over l of src[o, l, i] for a contiguous complex [outer, len, inner]
 *  (len >= 1), left to right (NumPy's multiply.reduce order). */
void ComplexProdAxis(int flag, index_t outer, index_t len, index_t inner, const void* src,
                     void* dst);
/*! The kernel layer's parallel grain for cheap (false) or transcendental (true) maps. */
index_t MapGrain(bool heavy);

}  // namespace dyn
}  // namespace shade

#endif  // SHADE_SRC_NDARRAY_OPS_KERNEL_TABLE_H_
