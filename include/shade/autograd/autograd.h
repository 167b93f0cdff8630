/*!
 * \file autograd.h
 * \brief Reverse-mode automatic differentiation over NDArray (docs/autograd.md).
 *
 * An array marked `set_requires_grad(true)` is a leaf; every differentiable op applied to it
 * while grad mode is on records a graph node (the dispatch points are listed in
 * ndarray/grad_hook.h, the derivative rules are src/autograd/derivatives.cc). `backward()`
 * walks the graph once in reverse topological order and accumulates gradients into the leaves'
 * `grad()`; the graph is freed afterwards unless `retain_graph`. A lazy elementwise expression
 * is one node whose backward is again one fused expression per input.
 *
 * In-place writes (copy_, Fill, out=, index_put_, ...) move the storage's version counter; a
 * backward that needs an array written since it was saved throws shade::Error (PyTorch's rule).
 * While grad mode is on, out= / in-place operators with an operand or out that requires grad
 * throw (no in-place autograd): write under NoGradGuard, as an optimizer step does.
 */
#ifndef SHADE_AUTOGRAD_AUTOGRAD_H_
#define SHADE_AUTOGRAD_AUTOGRAD_H_

#include <functional>
#include <string>
#include <vector>

#include "shade/ndarray/grad_hook.h"
#include "shade/ndarray/ndarray.h"

namespace shade {

/*! \brief The calling thread's grad mode: true unless a NoGradGuard is alive (the default). */
bool IsGradEnabled();

/*! \brief Turns grad mode off for its lifetime (PyTorch's torch::NoGradGuard): ops record
 *  nothing and their results do not require grad. */
class NoGradGuard {
 public:
  NoGradGuard() : scope_(false) {}

 private:
  detail::GradModeScope scope_;
};

/*! \brief Turns grad mode on for its lifetime (inside a NoGradGuard, for example). */
class EnableGradGuard {
 public:
  EnableGradGuard() : scope_(true) {}

 private:
  detail::GradModeScope scope_;
};

namespace autograd {

/*!
 * \brief Backward of a custom node: gradients w.r.t. its outputs (an undefined NDArray where an
 *  output got none) -> gradients w.r.t. its inputs (an undefined NDArray where an input gets
 *  none), each of the input's shape and dtype.
 */
using BackwardFn = std::function<std::vector<NDArray>(const std::vector<NDArray>& grad_outputs)>;

/*!
 * \brief Records `outputs` as computed from `inputs` by a node named `name`, when grad mode is
 *  on and some input requires grad; returns the outputs (then non-leaf, requires_grad).
 *  Otherwise returns them unchanged. For ops whose backward is written by hand (conv2d,
 *  pooling, batch_norm, losses). The node keeps `backward` (and what it captures) until the
 *  graph is freed; the inputs' versions are checked at backward. Capturing an output in
 *  `backward` makes a reference cycle: recompute from the inputs instead.
 */
std::vector<NDArray> RecordFunction(const std::string& name, const std::vector<NDArray>& inputs,
                                    std::vector<NDArray> outputs, BackwardFn backward);

/*!
 * \brief Backpropagates from `outputs` (gradients `grad_outputs`, which may be empty when every
 *  output has one element: then ones) and accumulates into the leaves' grad(). The graph is
 *  freed unless `retain_graph`; with `create_graph` the backward is recorded too (its
 *  gradients require grad, so they can be differentiated again).
 */
void Backward(const std::vector<NDArray>& outputs, const std::vector<NDArray>& grad_outputs = {},
              bool retain_graph = false, bool create_graph = false);

/*!
 * \brief The gradients of `outputs` w.r.t. `inputs` (PyTorch's torch.autograd.grad), returned
 *  rather than accumulated into grad(). An input the outputs do not depend on throws unless
 *  `allow_unused` (then its entry is undefined).
 */
std::vector<NDArray> Grad(const std::vector<NDArray>& outputs, const std::vector<NDArray>& inputs,
                          const std::vector<NDArray>& grad_outputs = {}, bool retain_graph = false,
                          bool create_graph = false, bool allow_unused = false);

/*! \brief The name of the node that computed `a` ("" for a leaf): "exp", "matmul", ... */
std::string GradFnName(const NDArray& a);

}  // namespace autograd
}  // namespace shade

#endif  // SHADE_AUTOGRAD_AUTOGRAD_H_
