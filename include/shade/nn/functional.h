/*!
 * \file functional.h
 * \brief `shade::nn::functional`: PyTorch's `torch.nn.functional` names over NDArray,
 *  differentiable through autograd (`autograd/autograd.h`).
 *
 * Each function runs its forward kernel (`nn/kernels.h`) with grad mode off, then records one
 * graph node whose backward is the matching backward kernel (autograd::RecordFunction) - when
 * grad mode is on and an input requires grad; otherwise nothing is recorded and the call costs
 * the kernel alone. float32 and float64 arrays; shapes, defaults and reductions are PyTorch's.
 * Second derivatives through these nodes are not supported (their backward is not recorded).
 */
#ifndef SHADE_NN_FUNCTIONAL_H_
#define SHADE_NN_FUNCTIONAL_H_

#include <cstdint>
#include <string>

#include "shade/ndarray/creation.h"
#include "shade/ndarray/ndarray.h"
#include "shade/nn/kernels.h"

namespace shade {
namespace nn {

/*! \brief The generator of dropout and of the modules' initial weights when none is given. */
Generator& DefaultGenerator();
/*! \brief Reseeds DefaultGenerator() (torch.manual_seed for shade::nn). */
void manual_seed(std::uint64_t seed);

namespace functional {

/*! \brief input W^T + b: input (..., in), weight (out, in), bias (out) or undefined. */
NDArray linear(const NDArray& input, const NDArray& weight, const NDArray& bias = NDArray());
/*!
 * \brief 2-D cross-correlation: input (N, C, H, W), weight (O, C, kh, kw), bias (O) or
 *  undefined; groups = 1.
 */
NDArray conv2d(const NDArray& input, const NDArray& weight, const NDArray& bias = NDArray(),
               Size2 stride = {1, 1}, Size2 padding = {0, 0}, Size2 dilation = {1, 1});
/*! \brief Max pooling of (N, C, H, W) or (C, H, W); stride {0, 0} means kernel_size. */
NDArray max_pool2d(const NDArray& input, Size2 kernel_size, Size2 stride = {0, 0},
                   Size2 padding = {0, 0});
/*! \brief Average pooling (count_include_pad=True); stride {0, 0} means kernel_size. */
NDArray avg_pool2d(const NDArray& input, Size2 kernel_size, Size2 stride = {0, 0},
                   Size2 padding = {0, 0});
/*! \brief max(x, 0); its gradient at 0 is 0. */
NDArray relu(const NDArray& input);
/*! \brief GELU, exact ("none") or tanh-approximated ("tanh"). */
NDArray gelu(const NDArray& input, const std::string& approximate = "none");
/*! \brief Logistic sigmoid. */
NDArray sigmoid(const NDArray& input);
/*! \brief Hyperbolic tangent. */
NDArray tanh(const NDArray& input);
/*! \brief Softmax along dim. */
NDArray softmax(const NDArray& input, index_t dim);
/*! \brief Log-softmax along dim. */
NDArray log_softmax(const NDArray& input, index_t dim);
/*!
 * \brief Negative log likelihood of log-probabilities (N, C) or (C) at integer targets (N) or
 *  (); targets equal to ignore_index are left out.
 */
NDArray nll_loss(const NDArray& input, const NDArray& target,
                 Reduction reduction = Reduction::kMean, std::int64_t ignore_index = -100);
/*! \brief nll_loss(log_softmax(input, class dim), target): logits (N, C) or (C). */
NDArray cross_entropy(const NDArray& input, const NDArray& target,
                      Reduction reduction = Reduction::kMean, std::int64_t ignore_index = -100);
/*! \brief Mean (or summed, or per-element) squared error; input and target of one shape. */
NDArray mse_loss(const NDArray& input, const NDArray& target,
                 Reduction reduction = Reduction::kMean);
/*!
 * \brief Zeroes elements with probability p and scales the rest by 1 / (1 - p) when
 *  `training`; returns the input itself otherwise. `generator` null: DefaultGenerator().
 */
NDArray dropout(const NDArray& input, double p = 0.5, bool training = true,
                Generator* generator = nullptr);
/*!
 * \brief Batch normalization of (N, C, ...) over all dimensions but 1: batch statistics when
 *  `training` (and the running ones updated in place when defined), else the running ones.
 */
NDArray batch_norm(const NDArray& input, const NDArray& running_mean, const NDArray& running_var,
                   const NDArray& weight = NDArray(), const NDArray& bias = NDArray(),
                   bool training = false, double momentum = 0.1, double eps = 1e-5);
/*!
 * \brief Rows of weight (V, D) at the integer indices `input`; rows at padding_idx (>= 0) get
 *  no gradient.
 */
NDArray embedding(const NDArray& input, const NDArray& weight, index_t padding_idx = -1);

}  // namespace functional
}  // namespace nn
}  // namespace shade

#endif  // SHADE_NN_FUNCTIONAL_H_
