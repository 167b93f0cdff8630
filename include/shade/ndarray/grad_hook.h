/*!
 * \file grad_hook.h
 * \brief The seam between the dynamic ops and autograd (shade/autograd/autograd.h): the
 *  thread's grad mode and the one call through which a differentiable op's dispatch point
 *  records a graph node.
 *
 * Autograd sits above the ndarray layer, so the ops cannot call it; instead each dispatch point
 * (Expr::eval for every elementwise op, the reductions, matmul, NDArray::MakeView for every
 * view, Clone, astype, concatenate, take, index) checks `GradTracked` on its operands - a
 * null test of the impl's autograd pointer, so arrays outside autograd pay one load and one
 * branch - and only then goes through `RecordGrad`, which runs the op itself with grad mode off
 * and hands the inputs, the result and the op's attributes to the recorder that the autograd
 * layer installs (the derivative rules are all in src/autograd/derivatives.cc). Ops built from
 * these (stack, split, dot, tensordot, norm's 2-norm and Frobenius forms, moveaxis, ...) are
 * differentiable through them.
 */
#ifndef SHADE_NDARRAY_GRAD_HOOK_H_
#define SHADE_NDARRAY_GRAD_HOOK_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "shade/ndarray/lazy.h"
#include "shade/ndarray/ndarray.h"

namespace shade {
namespace detail {

/*! \brief The calling thread's grad mode (true unless a NoGradGuard is alive). */
inline bool& GradModeFlag() noexcept {
  thread_local bool enabled = true;
  return enabled;
}

/*! \brief The differentiable ops that record a node (one rule each in src/autograd). */
enum class GradOp : std::uint8_t {
  kElementwise,  ///< a fused Expr (attrs.expr): every registry op
  kSum,          ///< axes, keepdims
  kMean,         ///< axes, keepdims
  kProd,         ///< axes, keepdims
  kMax,          ///< axes, keepdims (PyTorch's tie rule: the gradient is shared evenly)
  kMin,          ///< axes, keepdims
  kVar,          ///< axes, keepdims, ddof
  kStd,          ///< axes, keepdims, ddof
  kMatmul,       ///< np.matmul
  kView,         ///< any strided view of the input (NDArray::MakeView)
  kCopy,         ///< Clone / contiguous copy: the gradient passes through
  kAstype,       ///< a dtype conversion: the gradient converts back
  kConcatenate,  ///< axis (stack is unsqueeze views and concatenate)
  kTake,         ///< axis, attrs.arrays = {indices} (the flat form is a reshape and this)
  kIndex,        ///< attrs.arrays = the index arrays (NumPy's a[i0, i1, ...])
};

/*! \brief What a rule needs besides the inputs and the result. */
struct GradAttrs {
  const Expr* expr = nullptr;   //!< kElementwise: the expression (copied by the recorder)
  std::vector<index_t> axes;    //!< reductions: the axes as given (all when all_axes)
  bool all_axes = true;         //!< reductions: axis=None; kTake: the flat form
  bool keepdims = false;        //!< reductions
  index_t ddof = 0;             //!< var, std
  index_t axis = 0;             //!< concatenate, take
  std::vector<NDArray> arrays;  //!< kTake, kIndex: the index arrays
};

/*!
 * \brief The recorder: makes `outputs` non-leaf results of a node of `op` over `inputs` when
 *  some input requires grad. Installed by the autograd layer before any array can carry
 *  autograd state (so it is set whenever GradTracked is true).
 */
using GradRecorder = void (*)(GradOp op, const std::vector<NDArray>& inputs,
                              const std::vector<NDArray>& outputs, GradAttrs&& attrs);
/*! \brief The installed recorder (null until autograd first gives an array its state). */
extern GradRecorder g_grad_recorder;

/*! \brief True when `a` requires grad and grad mode is on (then the op records). */
inline bool GradTracked(const NDArray& a) noexcept {
  const NDArrayImpl* impl = a.unsafeGetImpl();
  // The first test is the whole cost for arrays outside autograd.
  return impl != nullptr && impl->autograd_meta() != nullptr &&
         impl->autograd_meta()->requires_grad() && GradModeFlag();
}

/*! \brief Sets the grad mode for its lifetime (NoGradGuard / EnableGradGuard build on it). */
class GradModeScope {
 public:
  /*! \brief Sets the mode to `enabled`. */
  explicit GradModeScope(bool enabled) noexcept : saved_(GradModeFlag()) {
    GradModeFlag() = enabled;
  }
  ~GradModeScope() { GradModeFlag() = saved_; }
  GradModeScope(const GradModeScope&) = delete;
  GradModeScope& operator=(const GradModeScope&) = delete;

 private:
  bool saved_;
};

/*!
 * \brief Runs `forward` (the op itself) with grad mode off, then records its result as the
 *  output of a node of `op` over `inputs`.
 */
template <typename F>
NDArray RecordGrad(GradOp op, std::vector<NDArray> inputs, GradAttrs attrs, F&& forward) {
  NDArray out;
  {
    GradModeScope off(false);
    out = forward();
  }
  g_grad_recorder(op, inputs, {out}, std::move(attrs));
  return out;
}

}  // namespace detail
}  // namespace shade

#endif  // SHADE_NDARRAY_GRAD_HOOK_H_
