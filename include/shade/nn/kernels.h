/*!
 * \file kernels.h
 * \brief The graph-free forward and backward kernels of `shade::nn::functional`: each function
 *  of the functional API has a forward here and the backward that autograd records with it
 *  (`nn/functional.h`). They take and return plain NDArrays (float32 or float64, any layout),
 *  record nothing, and follow PyTorch 1.13's definitions (shapes, reductions, tie and kink rules).
 *
 * The products run on the BLAS engine (`backend/cpu/blas.h`), convolution on the
 * unpack_patch2col / pack_col2patch extensions, average pooling on pool / unpool, element-wise
 * work on the lazy expressions and the apply engine, reductions on `ndarray/reduce.h`.
 */
#ifndef SHADE_NN_KERNELS_H_
#define SHADE_NN_KERNELS_H_

#include <array>
#include <cstdint>
#include <string>

#include "shade/ndarray/creation.h"
#include "shade/ndarray/ndarray.h"

namespace shade {
namespace nn {

/*! \brief A (height, width) pair: kernel sizes, strides, paddings, dilations. */
using Size2 = std::array<index_t, 2>;

/*! \brief How a loss reduces its per-element values (PyTorch's `reduction=`). */
enum class Reduction { kNone, kMean, kSum };

/*! \brief "none", "mean" or "sum" (PyTorch's strings); throws shade::ValueError otherwise. */
Reduction ParseReduction(const std::string& name);

namespace kernels {

// ------------------------------------------------------------------ linear
/*! \brief y = x W^T + b: x (..., in), W (out, in), b (out) or undefined; y (..., out). */
NDArray LinearForward(const NDArray& x, const NDArray& w, const NDArray& b);
/*! \brief Gradients of LinearForward (bias undefined when `has_bias` is false). */
struct LinearGrads {
  NDArray input;   //!< d/dx, x's shape
  NDArray weight;  //!< d/dW, (out, in), in w's layout (a transposed view for a transposed w)
  NDArray bias;    //!< d/db, (out), or undefined
};
/*! \brief Backward of LinearForward given d loss / d y; `input_grad` false skips d/dx. */
LinearGrads LinearBackward(const NDArray& grad, const NDArray& x, const NDArray& w, bool has_bias,
                           bool input_grad = true);

// ------------------------------------------------------------------ conv2d
/*! \brief Geometry of a 2-D convolution (PyTorch's Conv2d arguments, groups = 1). */
struct Conv2dOptions {
  Size2 stride{1, 1};    //!< >= 1
  Size2 padding{0, 0};   //!< zeros added on both sides, >= 0
  Size2 dilation{1, 1};  //!< >= 1
};
/*!
 * \brief Cross-correlation of x (N, C, H, W) with W (O, C, kh, kw) plus b (O) or undefined:
 *  (N, O, OH, OW) with OH = (H + 2 ph - dh (kh - 1) - 1) / sh + 1 (likewise OW).
 */
NDArray Conv2dForward(const NDArray& x, const NDArray& w, const NDArray& b,
                      const Conv2dOptions& opt);
/*! \brief Gradients of Conv2dForward. */
struct Conv2dGrads {
  NDArray input;   //!< d/dx, (N, C, H, W)
  NDArray weight;  //!< d/dW, (O, C, kh, kw)
  NDArray bias;    //!< d/db, (O), or undefined
};
/*! \brief Backward of Conv2dForward given d loss / d y; `input_grad` false skips d/dx. */
Conv2dGrads Conv2dBackward(const NDArray& grad, const NDArray& x, const NDArray& w, bool has_bias,
                           const Conv2dOptions& opt, bool input_grad = true);

// ------------------------------------------------------------------ pooling
/*! \brief Pooling windows (PyTorch's arguments; ceil_mode is not supported). */
struct Pool2dOptions {
  Size2 kernel{1, 1};   //!< >= 1
  Size2 stride{0, 0};   //!< >= 1; {0, 0} means the kernel size (PyTorch's default)
  Size2 padding{0, 0};  //!< <= kernel / 2 (PyTorch's rule)
};
/*! \brief Output and argmax positions of a max pooling. */
struct MaxPool2dResult {
  NDArray output;   //!< (..., OH, OW)
  NDArray indices;  //!< int64 flat index h * W + w of each window's maximum (PyTorch's)
};
/*!
 * \brief Max pooling over the last two dimensions of x (rank 3 or 4); padding counts as -inf.
 *  The index of a window is its first maximum in row-major order, or its last NaN (PyTorch's
 *  loop).
 */
MaxPool2dResult MaxPool2dForward(const NDArray& x, const Pool2dOptions& opt);
/*! \brief d/dx: each window's gradient goes to its recorded index (summed over windows). */
NDArray MaxPool2dBackward(const NDArray& grad, const NDArray& indices, const NDArray& x);
/*!
 * \brief Average pooling over the last two dimensions of x (rank 3 or 4); padding counts as
 *  zeros in the divisor (PyTorch's count_include_pad=True).
 */
NDArray AvgPool2dForward(const NDArray& x, const Pool2dOptions& opt);
/*! \brief d/dx of AvgPool2dForward. */
NDArray AvgPool2dBackward(const NDArray& grad, const NDArray& x, const Pool2dOptions& opt);

// ------------------------------------------------------------------ activations
/*! \brief max(x, 0). */
NDArray ReluForward(const NDArray& x);
/*! \brief 1 / (1 + exp(-x)). */
NDArray SigmoidForward(const NDArray& x);
/*! \brief tanh(x). */
NDArray TanhForward(const NDArray& x);
/*!
 * \brief GELU: x Phi(x) ("none"), or PyTorch's tanh approximation ("tanh");
 *  throws shade::ValueError for another `approximate`.
 */
NDArray GeluForward(const NDArray& x, const std::string& approximate = "none");
/*! \brief grad * d gelu / dx at x. */
NDArray GeluBackward(const NDArray& grad, const NDArray& x,
                     const std::string& approximate = "none");
/*! \brief softmax along `dim` (negative counts from the end); rank 0 is a 1-element softmax. */
NDArray SoftmaxForward(const NDArray& x, index_t dim);
/*! \brief y * (grad - sum(grad * y, dim)) with y the output. */
NDArray SoftmaxBackward(const NDArray& grad, const NDArray& output, index_t dim);
/*! \brief log softmax along `dim`, computed as x - max - log(sum(exp(x - max))). */
NDArray LogSoftmaxForward(const NDArray& x, index_t dim);
/*! \brief grad - exp(y) * sum(grad, dim) with y the output. */
NDArray LogSoftmaxBackward(const NDArray& grad, const NDArray& output, index_t dim);

// ------------------------------------------------------------------ losses
/*!
 * \brief Negative log likelihood of log-probabilities x (N, C) or (C) at integer targets (N) or
 *  (): -x[i, t_i], reduced. Targets equal to `ignore_index` count 0 and are left out of the
 *  mean's divisor (all ignored: the mean is NaN, as PyTorch). A target outside [0, C) otherwise
 *  throws shade::IndexError.
 */
NDArray NllLossForward(const NDArray& x, const NDArray& target, Reduction reduction,
                       std::int64_t ignore_index = -100);
/*! \brief d/dx of NllLossForward (grad is () for mean/sum, (N) for none). */
NDArray NllLossBackward(const NDArray& grad, const NDArray& x, const NDArray& target,
                        Reduction reduction, std::int64_t ignore_index = -100);
/*! \brief (x - y)^2 reduced; x and y of one shape and dtype. */
NDArray MseLossForward(const NDArray& x, const NDArray& y, Reduction reduction);
/*! \brief d/dx of MseLossForward (d/dy is its negation). */
NDArray MseLossBackward(const NDArray& grad, const NDArray& x, const NDArray& y,
                        Reduction reduction);

// ------------------------------------------------------------------ dropout
/*! \brief Output and the scaled keep mask (0 or 1 / (1 - p)) of a dropout. */
struct DropoutResult {
  NDArray output;  //!< x * mask
  NDArray mask;    //!< x's shape and dtype
};
/*!
 * \brief Zeroes each element with probability p (0 <= p <= 1) and scales the others by
 *  1 / (1 - p): an element is kept when `gen`'s uniform draw is >= p (p = 1 zeroes all).
 */
DropoutResult DropoutForward(const NDArray& x, double p, Generator* gen);
/*! \brief grad * mask. */
NDArray DropoutBackward(const NDArray& grad, const NDArray& mask);

// ------------------------------------------------------------------ batch norm
/*! \brief Output and the statistics its backward needs. */
struct BatchNormResult {
  NDArray output;       //!< x's shape
  NDArray save_mean;    //!< (C): the batch mean (training) or the running mean (eval)
  NDArray save_invstd;  //!< (C): 1 / sqrt(var + eps) of the same
};
/*!
 * \brief Batch normalization of x (N, C, ...) over every dimension but 1. Training uses the
 *  batch's biased variance and updates the running statistics in place (when defined):
 *  r = (1 - momentum) r + momentum s, with the unbiased variance for running_var (PyTorch);
 *  eval uses the running statistics. weight / bias (C) may be undefined (1 and 0).
 */
BatchNormResult BatchNormForward(const NDArray& x, const NDArray& running_mean,
                                 const NDArray& running_var, const NDArray& weight,
                                 const NDArray& bias, bool training, double momentum, double eps);
/*! \brief Gradients of BatchNormForward. */
struct BatchNormGrads {
  NDArray input;   //!< d/dx
  NDArray weight;  //!< d/dweight (C)
  NDArray bias;    //!< d/dbias (C)
};
/*! \brief Backward of BatchNormForward (training: through the batch statistics too). */
BatchNormGrads BatchNormBackward(const NDArray& grad, const NDArray& x, const NDArray& weight,
                                 const NDArray& save_mean, const NDArray& save_invstd,
                                 bool training);

// ------------------------------------------------------------------ embedding
/*! \brief Rows of weight (V, D) at integer indices of any shape: (indices..., D). */
NDArray EmbeddingForward(const NDArray& weight, const NDArray& indices);
/*!
 * \brief d/dweight (V, D): each row of grad added to the row of its index (repeated indices
 *  add up); rows at `padding_idx` (when >= 0) get no gradient.
 */
NDArray EmbeddingBackward(const NDArray& grad, const NDArray& indices, index_t num_weights,
                          index_t padding_idx = -1);

}  // namespace kernels
}  // namespace nn
}  // namespace shade

#endif  // SHADE_NN_KERNELS_H_
