// Internal to the fused evaluator of Expr (ndarray/lazy.h), which is three files by job:
// lazy_resolve.cc (dtypes by NEP 50 per node and the broadcast shape), lazy_program.cc (the
// evaluation program: tiles over the kernel table, the register program, the apply-engine pass)
// and lazy.cc (building expressions, the small direct path, eval). This header is what they share.
#ifndef SHADE_SRC_NDARRAY_LAZY_INTERNAL_H_
#define SHADE_SRC_NDARRAY_LAZY_INTERNAL_H_

#include "ops_kernel_table.h"
#include "shade/ndarray/lazy.h"
#include "shade/ndarray/promotion.h"

namespace shade {
namespace lazy {

// How an op picks its dtypes (see ResolveOp): the registry's category.
using Cat = OpCategory;

/*! The registry entry of op (functor/op_registry.h), after checking the code. */
inline const OpTraits& Info(OpCode op) {
  const int i = static_cast<int>(op);
  SHADE_CHECK(i >= 0 && i < static_cast<int>(OpCode::kNumOps)) << "unknown op code " << i;
  return OpTraitsOf(op);
}

constexpr int kMaxDims = 32;
constexpr int kN = Expr::kMaxNodes;

// Per-node resolution: dtypes (what the node yields, what each input must be converted to)
// and the broadcast shape.
struct Resolved {
  int num_nodes = 0;
  int dtype[kN];
  int opnd[kN][3];
  int ndim[kN];
  index_t shape[kN][kMaxDims];
};

/*! An op node's dtypes from its inputs: opnd[k] what input k is converted to, *result what the
 *  node yields (throws when the op is not defined for them). */
void ResolveOp(OpCode op, const PromotionOperand* in, int arity, int* opnd, int* result);
/*! Every node's dtypes and broadcast shape (checks devices, ranks and shapes). */
void Resolve(const Expr& e, Resolved* r);
/*! The kernel of op computing in flag (throws when there is none). */
dyn::OpKernel KernelFor(OpCode op, int flag);
/*! True when `a` and `out` share memory other than element for element. */
bool HarmfulOverlap(const NDArray& a, const NDArray& out);
/*! Evaluates e into out (allocated, shape == the broadcast shape, checked by the caller), reading
 *  `arrays` for e's array leaves; out must not overlap them harmfully (see Evaluate). */
void Run(const Expr& e, const Resolved& r, const NDArray& out, const NDArray* arrays);
/*! Run, reading a private copy of every input that overlaps out harmfully (as NumPy). */
void Evaluate(const Expr& e, const Resolved& r, const NDArray& out);

}  // namespace lazy
}  // namespace shade

#endif  // SHADE_SRC_NDARRAY_LAZY_INTERNAL_H_
