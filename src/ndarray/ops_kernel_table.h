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

/*! The kernel of an arithmetic op (add .. minimum, clamp, where) computing in `flag`, or null. */
OpKernel GetArithKernel(OpCode op, int flag);
/*! The kernel of a comparison, logical or bitwise op computing in `flag`, or null. */
OpKernel GetLogicKernel(OpCode op, int flag);
/*! The kernel of a unary op computing in `flag`, or null. */
OpKernel GetUnaryKernel(OpCode op, int flag);
/*! Conversion `from` -> `to` (null when they are equal). */
CastKernel GetCastKernel(int to, int from);
/*! dst[0..n) = n copies of the element of `size` bytes (1, 2, 4 or 8) at value. */
void FillElements(int size, index_t n, void* dst, const void* value);
/*! The kernel layer's parallel grain for cheap (false) or transcendental (true) maps. */
index_t MapGrain(bool heavy);

}  // namespace dyn
}  // namespace shade

#endif  // SHADE_SRC_NDARRAY_OPS_KERNEL_TABLE_H_
