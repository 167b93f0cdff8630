// Internal to the dynamic ops: the interface of the per-tile kernel table the fused evaluator
// (lazy.cc) calls through function pointers. The kernels themselves are instantiated once per
// (op, dtype) in the ops_kernels_*.cc files (see ops_kernels.h), so neither lazy.cc nor a user
// translation unit that builds expressions compiles any of them.
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
/*! The kernel of an op of group kGroup computing in `flag`, or null (ops_kernels.h). */
template <KernelGroup kGroup>
OpKernel GetGroupKernel(OpCode op, int flag);
extern template OpKernel GetGroupKernel<KernelGroup::kArith>(OpCode op, int flag);
extern template OpKernel GetGroupKernel<KernelGroup::kLogic>(OpCode op, int flag);
extern template OpKernel GetGroupKernel<KernelGroup::kUnary>(OpCode op, int flag);
/*! The kernel of op computing in `flag`, or null where `flag` is outside the op's domain. */
inline OpKernel GetKernel(OpCode op, int flag) {
  const OpTraits& t = OpTraitsOf(op);
  switch (KernelGroupOf(t.category, t.arity)) {
    case KernelGroup::kLogic:
      return GetGroupKernel<KernelGroup::kLogic>(op, flag);
    case KernelGroup::kUnary:
      return GetGroupKernel<KernelGroup::kUnary>(op, flag);
    default:
      return GetGroupKernel<KernelGroup::kArith>(op, flag);
  }
}
/*! Conversion `from` -> `to` (null when they are equal). */
CastKernel GetCastKernel(int to, int from);
/*! dst[0..n) = n copies of the element of `size` bytes (1, 2, 4 or 8) at value. */
void FillElements(int size, index_t n, void* dst, const void* value);
/*! The kernel layer's parallel grain for cheap (false) or transcendental (true) maps. */
index_t MapGrain(bool heavy);

}  // namespace dyn
}  // namespace shade

#endif  // SHADE_SRC_NDARRAY_OPS_KERNEL_TABLE_H_
