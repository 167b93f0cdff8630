// The autograd engine: per-array state, recording nodes, the reverse walk (Backward, Grad), grad
// mode and the NDArray methods of autograd. The derivative rules are in derivatives.cc.
#include <algorithm>
#include <sstream>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "autograd_internal.h"
#include "shade/ndarray/creation.h"
#include "shade/ndarray/ops.h"
#include "shade/ndarray/shape_ops.h"

namespace shade {

bool IsGradEnabled() {
  return detail::GradModeFlag();
}

namespace autograd {
namespace internal {

Meta* EnsureMeta(const NDArray& a) {
  NDArrayImpl* impl = a.unsafeGetImpl();
  SHADE_CHECK(impl != nullptr) << "autograd: an undefined NDArray";
  if (impl->autograd_meta() == nullptr) {
    // Before any array carries state, so GradTracked is never true without a recorder.
    detail::g_grad_recorder = &RecordBuiltin;
    impl->set_autograd_meta(new Meta());
  }
  return static_cast<Meta*>(impl->autograd_meta());
}

namespace {

// The edge a gradient of `a` flows along, or an empty one when `a` does not require grad.
Edge EdgeOf(const NDArray& a) {
  Meta* m = GetMeta(a);
  if (m == nullptr || !m->requires_grad_) return Edge{};
  if (m->grad_fn) return Edge{m->grad_fn, m->output_nr};
  std::shared_ptr<Node> acc = m->accumulator.lock();
  if (!acc) {
    // The accumulator holds the leaf; the leaf only a weak reference to it (no cycle).
    acc = std::make_shared<Node>();
    acc->name = "AccumulateGrad";
    acc->is_accumulator = true;
    acc->leaf = a;
    acc->num_outputs = 1;
    acc->retained.resize(1);
    m->accumulator = acc;
  }
  return Edge{acc, 0};
}

// The edge of `a` without creating an accumulator (Grad's inputs: a leaf no graph uses is unused).
Edge ExistingEdgeOf(const NDArray& a) {
  Meta* m = GetMeta(a);
  if (m == nullptr || !m->requires_grad_) return Edge{};
  if (m->grad_fn) return Edge{m->grad_fn, m->output_nr};
  return Edge{m->accumulator.lock(), 0};
}

// A new handle on the same elements, outside autograd.
NDArray Alias(const NDArray& a) {
  detail::GradModeScope off(false);
  return a.as_strided(a.sizes(), a.strides(), a.storage_offset());
}

}  // namespace

std::vector<NDArray> Record(std::string name, const std::vector<NDArray>& inputs,
                            std::vector<NDArray> outputs, BackwardFn backward) {
  if (!IsGradEnabled()) return outputs;
  bool any = false;
  for (const NDArray& x : inputs) {
    const Meta* m = GetMeta(x);
    if (m != nullptr && m->requires_grad_) any = true;
  }
  if (!any) return outputs;
  SHADE_CHECK(static_cast<bool>(backward)) << "autograd: node " << name << " has no backward";
  auto node = std::make_shared<Node>();
  node->name = std::move(name);
  node->backward = std::move(backward);
  node->num_outputs = static_cast<int>(outputs.size());
  node->retained.resize(outputs.size());
  for (const NDArray& x : inputs) {
    node->next.push_back(x.defined() ? EdgeOf(x) : Edge{});
    node->in_sizes.push_back(x.defined() ? x.sizes().vec() : std::vector<index_t>{});
    node->in_dtypes.push_back(x.defined() ? x.type_flag() : -1);
    if (x.defined())
      node->saved_versions.emplace_back(x.storage(), x.storage().unsafeGetStorageImpl()->version());
  }
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    NDArray& y = outputs[i];
    if (!y.defined() || !IsFloatFlag(y.type_flag())) continue;
    // An output that already takes part in autograd (an op that returned its input, a custom
    // function returning a leaf) gets a fresh handle, so no array's history is rewritten.
    if (GetMeta(y) != nullptr) y = Alias(y);
    Meta* m = EnsureMeta(y);
    m->requires_grad_ = true;
    m->grad_fn = node;
    m->output_nr = static_cast<int>(i);
  }
  return outputs;
}

namespace {

// The sum of two gradients (recorded when the backward is).
NDArray AddGrad(const NDArray& a, const NDArray& b) {
  if (!a.defined()) return b;
  if (!b.defined()) return a;
  return add(a, b).eval();
}

void CheckVersions(const Node& n) {
  for (std::size_t i = 0; i < n.saved_versions.size(); ++i) {
    const auto& sv = n.saved_versions[i];
    const std::uint32_t now = sv.first.unsafeGetStorageImpl()->version();
    SHADE_CHECK(now == sv.second)
        << "autograd: one of the arrays needed for the gradient of " << n.name
        << " was modified by an in-place operation after it was used: its storage is at version "
        << now << ", expected version " << sv.second
        << " (write into a copy, or run the in-place op before the forward)";
  }
}

// Makes `g` fit input `i` of `n`: its dtype, and its shape (which must match).
NDArray FitInput(const Node& n, std::size_t i, NDArray g) {
  const std::vector<index_t>& want = n.in_sizes[i];
  SHADE_CHECK_SHAPE(g.sizes() == IndexSpan(want))
      << "autograd: the backward of " << n.name << " returned a gradient of shape " << g.sizes()
      << " for input " << i << " of shape " << IndexSpan(want);
  if (g.type_flag() != n.in_dtypes[i]) g = astype(g, n.in_dtypes[i]);
  return g;
}

struct RunResult {
  std::vector<NDArray> captured;
};

// The reverse walk. With `inputs` (Grad) the gradients reaching them are returned and no
// leaf's grad() changes; otherwise (Backward) they accumulate into the leaves.
std::vector<NDArray> Run(const std::vector<NDArray>& outputs,
                         const std::vector<NDArray>& grad_outputs, bool retain_graph,
                         bool create_graph, const std::vector<NDArray>* inputs, bool allow_unused) {
  SHADE_CHECK(!outputs.empty()) << "autograd: backward of no outputs";
  SHADE_CHECK(grad_outputs.empty() || grad_outputs.size() == outputs.size())
      << "autograd: " << grad_outputs.size() << " grad_outputs for " << outputs.size()
      << " outputs";
  retain_graph = retain_graph || create_graph;  // PyTorch's default: a recorded backward keeps it
  const detail::GradModeScope mode(create_graph);

  // The roots and their gradients.
  std::vector<Edge> roots;
  std::vector<NDArray> root_grads;
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const NDArray& y = outputs[i];
    SHADE_CHECK(y.defined()) << "autograd: output " << i << " is an undefined NDArray";
    const Meta* m = GetMeta(y);
    SHADE_CHECK(m != nullptr && m->requires_grad_)
        << "autograd: output " << i << " " << y.Describe()
        << " does not require grad and has no grad_fn";
    NDArray g = grad_outputs.empty() ? NDArray() : grad_outputs[i];
    if (!g.defined()) {
      SHADE_CHECK(y.numel() == 1) << "autograd: grad can be implicitly created only for outputs "
                                     "of one element, but output "
                                  << i << " has shape " << y.sizes();
      g = ones(y.sizes(), y.type_flag());
    } else {
      SHADE_CHECK_SHAPE(g.sizes() == y.sizes())
          << "autograd: grad_output " << i << " has shape " << g.sizes() << " but output " << i
          << " has shape " << y.sizes();
      if (g.type_flag() != y.type_flag()) g = astype(g, y.type_flag());
    }
    roots.push_back(EdgeOf(y));
    root_grads.push_back(g);
  }

  // What Grad captures: (node, slot) -> position in inputs.
  std::unordered_map<const Node*, std::vector<std::pair<int, std::size_t>>> capture;
  std::vector<NDArray> captured;
  if (inputs != nullptr) {
    captured.resize(inputs->size());
    for (std::size_t i = 0; i < inputs->size(); ++i) {
      const NDArray& x = (*inputs)[i];
      SHADE_CHECK(x.defined()) << "autograd: input " << i << " is an undefined NDArray";
      const Meta* m = GetMeta(x);
      SHADE_CHECK(m != nullptr && m->requires_grad_)
          << "autograd: input " << i << " " << x.Describe() << " does not require grad";
      const Edge e = ExistingEdgeOf(x);
      if (e.fn) capture[e.fn.get()].emplace_back(e.input_nr, i);
    }
  }

  // Dependencies: how many edges of reachable nodes point at each node.
  std::unordered_map<Node*, int> deps;
  {
    std::vector<Node*> stack;
    std::unordered_set<Node*> seen;
    for (const Edge& e : roots) {
      if (e.fn && seen.insert(e.fn.get()).second) stack.push_back(e.fn.get());
    }
    while (!stack.empty()) {
      Node* n = stack.back();
      stack.pop_back();
      for (const Edge& e : n->next) {
        if (!e.fn) continue;
        ++deps[e.fn.get()];
        if (seen.insert(e.fn.get()).second) stack.push_back(e.fn.get());
      }
    }
  }

  std::unordered_map<Node*, std::vector<NDArray>> buffers;
  auto deliver = [&](const Edge& e, const NDArray& g) {
    std::vector<NDArray>& buf = buffers[e.fn.get()];
    if (buf.empty()) buf.resize(static_cast<std::size_t>(e.fn->num_outputs));
    buf[static_cast<std::size_t>(e.input_nr)] =
        AddGrad(buf[static_cast<std::size_t>(e.input_nr)], g);
  };
  std::vector<Node*> ready;
  for (std::size_t i = 0; i < roots.size(); ++i) {
    deliver(roots[i], root_grads[i]);
    Node* n = roots[i].fn.get();
    if (deps[n] == 0 && std::find(ready.begin(), ready.end(), n) == ready.end()) ready.push_back(n);
  }

  while (!ready.empty()) {
    Node* n = ready.back();
    ready.pop_back();
    std::vector<NDArray> grads = std::move(buffers[n]);
    buffers.erase(n);
    grads.resize(static_cast<std::size_t>(n->num_outputs));
    auto cap = capture.find(n);
    if (cap != capture.end()) {
      for (const auto& c : cap->second) {
        captured[c.second] = AddGrad(captured[c.second], grads[static_cast<std::size_t>(c.first)]);
      }
    }
    if (inputs == nullptr) {
      // retain_grad(): the gradient of a non-leaf output, kept where its array can read it.
      for (std::size_t k = 0; k < grads.size() && k < n->retained.size(); ++k) {
        if (n->retained[k] && grads[k].defined()) {
          *n->retained[k] = AddGrad(*n->retained[k], grads[k]);
        }
      }
    }
    if (n->is_accumulator) {
      if (inputs == nullptr && grads[0].defined()) {
        Meta* m = EnsureMeta(n->leaf);
        NDArray g = grads[0];
        if (!create_graph) g = g.detach();
        // Stored contiguous: an expanded (zero-stride) gradient could not be written in place.
        if (!g.is_contiguous()) g = g.contiguous();
        m->grad = m->grad.defined() ? AddGrad(m->grad, g) : g;
      }
      continue;
    }
    bool any = false;
    for (const NDArray& g : grads) any = any || g.defined();
    if (any && !n->next.empty()) {
      SHADE_CHECK(static_cast<bool>(n->backward))
          << "autograd: trying to backward through the graph of " << n->name
          << " a second time (its saved arrays were freed after the first backward); pass "
             "retain_graph=true to the first backward";
      CheckVersions(*n);
      std::vector<NDArray> in_grads = n->backward(grads);
      SHADE_CHECK_EQ(in_grads.size(), n->next.size())
          << "autograd: the backward of " << n->name << " returned " << in_grads.size()
          << " gradients for " << n->next.size() << " inputs";
      for (std::size_t i = 0; i < in_grads.size(); ++i) {
        if (!n->next[i].fn || !in_grads[i].defined()) continue;
        deliver(n->next[i], FitInput(*n, i, in_grads[i]));
      }
    }
    if (!retain_graph) {
      n->backward = nullptr;
      n->saved_versions.clear();
    }
    for (const Edge& e : n->next) {
      if (!e.fn) continue;
      if (--deps[e.fn.get()] == 0) ready.push_back(e.fn.get());
    }
  }

  if (inputs != nullptr) {
    for (std::size_t i = 0; i < captured.size(); ++i) {
      SHADE_CHECK(allow_unused || captured[i].defined())
          << "autograd: input " << i << " " << (*inputs)[i].Describe()
          << " was not used in the graph of the outputs (pass allow_unused=true to get an "
             "undefined gradient for it)";
      if (captured[i].defined() && !create_graph) captured[i] = captured[i].detach();
    }
  }
  return captured;
}

}  // namespace
}  // namespace internal

std::vector<NDArray> RecordFunction(const std::string& name, const std::vector<NDArray>& inputs,
                                    std::vector<NDArray> outputs, BackwardFn backward) {
  return internal::Record(name, inputs, std::move(outputs), std::move(backward));
}

void Backward(const std::vector<NDArray>& outputs, const std::vector<NDArray>& grad_outputs,
              bool retain_graph, bool create_graph) {
  internal::Run(outputs, grad_outputs, retain_graph, create_graph, nullptr, false);
}

std::vector<NDArray> Grad(const std::vector<NDArray>& outputs, const std::vector<NDArray>& inputs,
                          const std::vector<NDArray>& grad_outputs, bool retain_graph,
                          bool create_graph, bool allow_unused) {
  SHADE_CHECK(!inputs.empty()) << "autograd::Grad: no inputs to differentiate with respect to";
  return internal::Run(outputs, grad_outputs, retain_graph, create_graph, &inputs, allow_unused);
}

std::string GradFnName(const NDArray& a) {
  const internal::Meta* m = internal::GetMeta(a);
  return m != nullptr && m->grad_fn ? m->grad_fn->name : std::string();
}

}  // namespace autograd

// ------------------------------------------------------------------ NDArray's autograd methods

using autograd::internal::EnsureMeta;
using autograd::internal::GetMeta;
using autograd::internal::IsFloatFlag;
using autograd::internal::Meta;

bool NDArray::requires_grad() const {
  const Meta* m = GetMeta(*this);
  return m != nullptr && m->requires_grad_;
}

NDArray& NDArray::set_requires_grad(bool requires_grad) {
  SHADE_CHECK(defined()) << "set_requires_grad: undefined NDArray";
  Meta* m = GetMeta(*this);
  if (m != nullptr && m->grad_fn) {
    SHADE_CHECK(requires_grad) << "set_requires_grad(false): " << Describe()
                               << " is not a leaf (it was computed by " << m->grad_fn->name
                               << "); use detach() for an array outside the graph";
    return *this;
  }
  if (requires_grad) {
    SHADE_CHECK_TYPE(IsFloatFlag(type_flag()))
        << "set_requires_grad: only floating-point arrays can require gradients, not "
        << (type_flag() >= 0 ? TypeFlagName(type_flag()) : "a non-numeric array") << " ("
        << Describe() << ")";
    EnsureMeta(*this)->requires_grad_ = true;
  } else if (m != nullptr) {
    m->requires_grad_ = false;
  }
  return *this;
}

NDArray NDArray::grad() const {
  const Meta* m = GetMeta(*this);
  if (m == nullptr) return NDArray();
  if (m->grad_fn) return m->retained ? *m->retained : NDArray();
  return m->grad;
}

void NDArray::set_grad(const NDArray& grad) {
  SHADE_CHECK(defined()) << "set_grad: undefined NDArray";
  if (grad.defined()) {
    SHADE_CHECK_SHAPE(grad.sizes() == sizes())
        << "set_grad: the gradient has shape " << grad.sizes() << " but the array " << sizes();
  }
  Meta* m = GetMeta(*this);
  if (m == nullptr && !grad.defined()) return;
  m = EnsureMeta(*this);
  if (m->grad_fn) {
    if (!m->retained) m->retained = std::make_shared<NDArray>();
    *m->retained = grad;
    return;
  }
  m->grad = grad;
}

void NDArray::backward(const NDArray& grad_output, bool retain_graph, bool create_graph) const {
  autograd::Backward(
      {*this}, grad_output.defined() ? std::vector<NDArray>{grad_output} : std::vector<NDArray>{},
      retain_graph, create_graph);
}

NDArray NDArray::detach() const {
  SHADE_CHECK(defined()) << "detach: undefined NDArray";
  detail::GradModeScope off(false);
  return as_strided(sizes(), strides(), storage_offset());
}

bool NDArray::is_leaf() const {
  const Meta* m = GetMeta(*this);
  return m == nullptr || !m->grad_fn;
}

void NDArray::retain_grad() const {
  Meta* m = GetMeta(*this);
  SHADE_CHECK(m != nullptr && m->requires_grad_)
      << "retain_grad: " << Describe() << " does not require grad";
  if (!m->grad_fn) return;  // a leaf keeps its gradient anyway
  if (!m->retained) m->retained = std::make_shared<NDArray>();
  m->grad_fn->retained[static_cast<std::size_t>(m->output_nr)] = m->retained;
}

}  // namespace shade
