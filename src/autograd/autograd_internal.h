// The graph's data structures, shared by the engine (engine.cc) and the derivative rules
// (derivatives.cc). Not installed.
#ifndef SHADE_SRC_AUTOGRAD_AUTOGRAD_INTERNAL_H_
#define SHADE_SRC_AUTOGRAD_AUTOGRAD_INTERNAL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "shade/autograd/autograd.h"

namespace shade {
namespace autograd {
namespace internal {

struct Node;

// Where a gradient goes: input slot `input_nr` of node `fn` (a leaf's accumulator has one).
struct Edge {
  std::shared_ptr<Node> fn;
  int input_nr = 0;
};

// One recorded op. Holds its inputs' edges (strong: the graph is owned by its results) and the
// backward closure; never its outputs (they own the node).
struct Node {
  std::string name;
  std::vector<Edge> next;                      // one per input; fn null when it needs no grad
  std::vector<std::vector<index_t>> in_sizes;  // each input's shape, to check the gradients
  std::vector<int> in_dtypes;                  // and its dtype (gradients are cast to it)
  BackwardFn backward;                         // empty once the graph was freed
  int num_outputs = 1;
  // (storage, version) of every input when the node was recorded.
  std::vector<std::pair<Storage, std::uint32_t>> saved_versions;
  // Per output, where retain_grad() keeps its gradient (null when not retained).
  std::vector<std::shared_ptr<NDArray>> retained;
  // A leaf's accumulator: the leaf itself, whose grad() receives what arrives here.
  NDArray leaf;
  bool is_accumulator = false;
};

// The autograd state of one array (NDArrayImpl::autograd_meta()).
class Meta final : public AutogradMetaBase {
 public:
  bool requires_grad() const noexcept override { return requires_grad_; }

  bool requires_grad_ = false;
  NDArray grad;                       // a leaf's accumulated gradient
  std::shared_ptr<Node> grad_fn;      // the node that computed a non-leaf
  int output_nr = 0;                  // which of its outputs
  std::weak_ptr<Node> accumulator;    // a leaf's accumulator, while a graph uses it
  std::shared_ptr<NDArray> retained;  // a non-leaf's gradient after retain_grad()
};

// The state of `a`, or null.
inline Meta* GetMeta(const NDArray& a) {
  NDArrayImpl* impl = a.unsafeGetImpl();
  return impl == nullptr ? nullptr : static_cast<Meta*>(impl->autograd_meta());
}
// The state of `a`, created when missing (installs the recorder of the built-in rules).
Meta* EnsureMeta(const NDArray& a);

// RecordFunction with the node's name; used by the built-in rules too.
std::vector<NDArray> Record(std::string name, const std::vector<NDArray>& inputs,
                            std::vector<NDArray> outputs, BackwardFn backward);

// The recorder of the built-in rules (derivatives.cc), installed as detail::g_grad_recorder.
void RecordBuiltin(detail::GradOp op, const std::vector<NDArray>& inputs,
                   const std::vector<NDArray>& outputs, detail::GradAttrs&& attrs);

// True for the dtypes that can require grad.
inline bool IsFloatFlag(int flag) {
  return flag == kFloat32 || flag == kFloat64 || flag == kFloat16 || flag == kBfloat16;
}

}  // namespace internal
}  // namespace autograd
}  // namespace shade

#endif  // SHADE_SRC_AUTOGRAD_AUTOGRAD_INTERNAL_H_
