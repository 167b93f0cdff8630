// Internal to the fused evaluator (lazy.cc): the register program, a second way to run an
// expression's contiguous runs whose nodes all compute in one floating dtype with no conversion.
//
// Why it exists: the tile evaluator runs node after node over a few hundred elements, so a
// transcendental node and a division node never execute at the same time, and every node's
// result goes through an L1 buffer. Measured on Zen 3 (AVX2) for a*b + exp(x) - a/x in cache:
// 9.4 ns per 8 floats against 4.3 for the static expression template, the sum of the per-node
// kernel times instead of their overlap. The register program keeps the expression's
// intermediate values in vector registers for a group of 2 or 4 vectors at a time: each node is a
// small function taking the register stack as arguments and tail-calling the next node's, so the
// CPU overlaps the nodes as it does in the static path.
#ifndef SHADE_SRC_NDARRAY_LAZY_VM_H_
#define SHADE_SRC_NDARRAY_LAZY_VM_H_

#include <cstdint>

#include "shade/base/index.h"
#include "shade/ndarray/op_code.h"

namespace shade {
namespace dyn {

/*! How a register-program instruction reads its operands: R from the register stack, M from a
 *  memory slot (an array operand read at the element index). Scalars and one-element arrays are
 *  pushed on the stack by a splat step where the expression reads them. */
enum class VmForm : std::uint8_t { kRR, kRM, kMR, kMM, kR, kM };

/*! Stack values a form consumes: two for kRR, none for kMM and kM (they push), else one. */
constexpr int VmPops(VmForm form) {
  return form == VmForm::kRR ? 2 : (form == VmForm::kMM || form == VmForm::kM) ? 0 : 1;
}
/*! Whether a form belongs to a binary op. */
constexpr bool VmIsBinary(VmForm form) {
  return form == VmForm::kRR || form == VmForm::kRM || form == VmForm::kMR || form == VmForm::kMM;
}

/*! Deepest register stack (values live at once) when each value is `group` vectors (2 or 4):
 *  eight vector registers in all. Deeper expressions use the tile evaluator. */
constexpr int VmMaxDepth(int group) {
  return 8 / group;
}
/*! Most instructions (ops and splats). */
constexpr int kVmMaxIns = 32;
/*! Most slots (leaf uses: memory operands and splats). */
constexpr int kVmMaxSlots = 24;

/*! A step function, type-erased (each is called through its real type, see lazy_vm.cc). */
using VmStepFn = void (*)();

/*! One instruction: its step function (dtype-specific) and memory slots. */
struct VmIns {
  VmStepFn step;
  std::int8_t a;  // slot of the first memory operand (kM, kMR, kMM) or of a splat
  std::int8_t b;  // slot of the second memory operand (kMM, kRM)
};

/*! A compiled register program (built by lazy.cc, run by VmRun). */
struct VmProgram {
  int flag = -1;  // kFloat32 or kFloat64; -1: not compiled
  int group = 2;  // vectors per value: 4 when the stack never holds more than two values
  int num_ins = 0;
  VmIns ins[kVmMaxIns];
  int num_slots = 0;
  std::int8_t slot_operand[kVmMaxSlots];  // apply operand index (>= 1), or 0: a scalar
  bool slot_splat[kVmMaxSlots];           // a splat: the scalar's value or the operand's first
  alignas(8) unsigned char slot_value[kVmMaxSlots][8];  // a scalar slot's value (dtype flag)
};

/*! The step of `op` in dtype `flag` with operand form `form` at stack depth `depth` (values on
 *  the stack before it runs), or null when the register program has none (the caller then
 *  keeps the tile evaluator). With `store`, the step is the root's: it stores its value. */
VmStepFn VmStep(int flag, int group, OpCode op, VmForm form, int depth, bool store);
/*! The step pushing splat slot `a` at stack depth `depth`, or null. */
VmStepFn VmSplatStep(int flag, int group, int depth);
/*!
 * Runs `p` over the first elements of a run (data[0] / stride[0] the output, data[k] / stride[k]
 * array operand k; byte strides) and returns how many it did: a multiple of the group, or 0
 * when the output or a memory operand is not contiguous in this run (the tile evaluator then
 * does it: gathers, broadcasts along the run).
 */
index_t VmRun(const VmProgram& p, char* const* data, const index_t* stride, index_t n);

}  // namespace dyn
}  // namespace shade

#endif  // SHADE_SRC_NDARRAY_LAZY_VM_H_
