// shade::nn::functional: each forward kernel run with grad mode off, then one recorded node whose
// backward is the matching kernel (nn/functional.h).
#include "shade/nn/functional.h"

#include <utility>
#include <vector>

#include "shade/autograd/autograd.h"
#include "shade/ndarray/ops.h"

namespace shade {
namespace nn {

Generator& DefaultGenerator() {
  static Generator generator(0);
  return generator;
}

void manual_seed(std::uint64_t seed) {
  DefaultGenerator().manual_seed(seed);
}

namespace functional {
namespace {

namespace k = kernels;
using Arrays = std::vector<NDArray>;

// True when a node would be recorded: grad mode on and some defined input requires grad.
bool Tracked(const Arrays& inputs) {
  if (!IsGradEnabled()) return false;
  for (const NDArray& a : inputs) {
    if (a.defined() && a.requires_grad()) return true;
  }
  return false;
}

// The defined arrays of `inputs` (a node's inputs; an undefined bias is no input).
Arrays Defined(const Arrays& inputs) {
  Arrays out;
  for (const NDArray& a : inputs) {
    if (a.defined()) out.push_back(a);
  }
  return out;
}

// What a backward keeps of an array: a view outside the graph sharing its storage (so the
// node's version check covers it, and keeping an output makes no reference cycle).
NDArray Saved(const NDArray& a) {
  return a.defined() ? a.detach() : NDArray();
}

NDArray Record(const char* name, const Arrays& inputs, const NDArray& output,
               autograd::BackwardFn backward) {
  return autograd::RecordFunction(name, inputs, {output}, std::move(backward))[0];
}

// For a one-input function whose backward is `grad_fn(grad)`.
template <typename G>
NDArray RecordUnary(const char* name, const NDArray& input, const NDArray& output, G grad_fn) {
  return Record(name, {input}, output, [grad_fn](const Arrays& g) -> Arrays {
    if (!g[0].defined()) return {NDArray()};
    return {grad_fn(g[0])};
  });
}

}  // namespace

NDArray linear(const NDArray& input, const NDArray& weight, const NDArray& bias) {
  NDArray y;
  {
    NoGradGuard no_grad;
    y = k::LinearForward(input, weight, bias);
  }
  if (!Tracked({input, weight, bias})) return y;
  const NDArray x = Saved(input), w = Saved(weight);
  const bool has_bias = bias.defined();
  // A first layer's input (the data) needs no gradient: its product is skipped.
  const bool input_grad = input.requires_grad();
  return Record("linear", Defined({input, weight, bias}), y,
                [x, w, has_bias, input_grad](const Arrays& g) {
                  if (!g[0].defined()) return Arrays(has_bias ? 3 : 2);
                  k::LinearGrads r = k::LinearBackward(g[0], x, w, has_bias, input_grad);
                  Arrays out = {r.input, r.weight};
                  if (has_bias) out.push_back(r.bias);
                  return out;
                });
}

NDArray conv2d(const NDArray& input, const NDArray& weight, const NDArray& bias, Size2 stride,
               Size2 padding, Size2 dilation) {
  const k::Conv2dOptions opt{stride, padding, dilation};
  const bool input_grad = input.requires_grad();
  NDArray y;
  {
    NoGradGuard no_grad;
    y = k::Conv2dForward(input, weight, bias, opt);
  }
  if (!Tracked({input, weight, bias})) return y;
  const NDArray x = Saved(input), w = Saved(weight);
  const bool has_bias = bias.defined();
  return Record("conv2d", Defined({input, weight, bias}), y,
                [x, w, has_bias, opt, input_grad](const Arrays& g) {
                  if (!g[0].defined()) return Arrays(has_bias ? 3 : 2);
                  k::Conv2dGrads r = k::Conv2dBackward(g[0], x, w, has_bias, opt, input_grad);
                  Arrays out = {r.input, r.weight};
                  if (has_bias) out.push_back(r.bias);
                  return out;
                });
}

NDArray max_pool2d(const NDArray& input, Size2 kernel_size, Size2 stride, Size2 padding) {
  const k::Pool2dOptions opt{kernel_size, stride, padding};
  k::MaxPool2dResult r;
  {
    NoGradGuard no_grad;
    r = k::MaxPool2dForward(input, opt);
  }
  if (!Tracked({input})) return r.output;
  const NDArray x = Saved(input), indices = r.indices;
  return RecordUnary("max_pool2d", input, r.output, [x, indices](const NDArray& g) {
    return k::MaxPool2dBackward(g, indices, x);
  });
}

NDArray avg_pool2d(const NDArray& input, Size2 kernel_size, Size2 stride, Size2 padding) {
  const k::Pool2dOptions opt{kernel_size, stride, padding};
  NDArray y;
  {
    NoGradGuard no_grad;
    y = k::AvgPool2dForward(input, opt);
  }
  if (!Tracked({input})) return y;
  const NDArray x = Saved(input);
  return RecordUnary("avg_pool2d", input, y,
                     [x, opt](const NDArray& g) { return k::AvgPool2dBackward(g, x, opt); });
}

NDArray relu(const NDArray& input) {
  // A registry op: autograd records it at Expr::eval with the rule in src/autograd/derivatives.cc
  // (second derivatives included), so no hand-written node here.
  return k::ReluForward(input);
}

NDArray gelu(const NDArray& input, const std::string& approximate) {
  NDArray y;
  {
    NoGradGuard no_grad;
    y = k::GeluForward(input, approximate);
  }
  if (!Tracked({input})) return y;
  const NDArray x = Saved(input);
  return RecordUnary("gelu", input, y, [x, approximate](const NDArray& g) {
    return k::GeluBackward(g, x, approximate);
  });
}

NDArray sigmoid(const NDArray& input) {
  // A registry op: autograd records it at Expr::eval with the rule in src/autograd/derivatives.cc
  // (second derivatives included), so no hand-written node here.
  return k::SigmoidForward(input);
}

NDArray tanh(const NDArray& input) {
  // A registry op: autograd records it at Expr::eval with the rule in src/autograd/derivatives.cc
  // (second derivatives included), so no hand-written node here.
  return k::TanhForward(input);
}

NDArray softmax(const NDArray& input, index_t dim) {
  NDArray y;
  {
    NoGradGuard no_grad;
    y = k::SoftmaxForward(input, dim);
  }
  if (!Tracked({input})) return y;
  const NDArray out = Saved(y);
  return RecordUnary("softmax", input, y,
                     [out, dim](const NDArray& g) { return k::SoftmaxBackward(g, out, dim); });
}

NDArray log_softmax(const NDArray& input, index_t dim) {
  NDArray y;
  {
    NoGradGuard no_grad;
    y = k::LogSoftmaxForward(input, dim);
  }
  if (!Tracked({input})) return y;
  const NDArray out = Saved(y);
  return RecordUnary("log_softmax", input, y,
                     [out, dim](const NDArray& g) { return k::LogSoftmaxBackward(g, out, dim); });
}

NDArray nll_loss(const NDArray& input, const NDArray& target, Reduction reduction,
                 std::int64_t ignore_index) {
  NDArray y;
  {
    NoGradGuard no_grad;
    y = k::NllLossForward(input, target, reduction, ignore_index);
  }
  if (!Tracked({input})) return y;
  const NDArray x = Saved(input), t = Saved(target);
  return RecordUnary("nll_loss", input, y, [x, t, reduction, ignore_index](const NDArray& g) {
    return k::NllLossBackward(g, x, t, reduction, ignore_index);
  });
}

NDArray cross_entropy(const NDArray& input, const NDArray& target, Reduction reduction,
                      std::int64_t ignore_index) {
  SHADE_CHECK_SHAPE(input.defined() && (input.ndim() == 1 || input.ndim() == 2))
      << "cross_entropy: input must be (N, C) or (C), got "
      << (input.defined() ? input.Describe() : std::string("an undefined array"));
  return nll_loss(log_softmax(input, input.ndim() - 1), target, reduction, ignore_index);
}

NDArray mse_loss(const NDArray& input, const NDArray& target, Reduction reduction) {
  NDArray y;
  {
    NoGradGuard no_grad;
    y = k::MseLossForward(input, target, reduction);
  }
  if (!Tracked({input, target})) return y;
  const NDArray x = Saved(input), t = Saved(target);
  const bool input_grad = input.requires_grad(), target_grad = target.requires_grad();
  Arrays inputs = {input, target};
  return Record("mse_loss", inputs, y,
                [x, t, reduction, input_grad, target_grad](const Arrays& g) -> Arrays {
                  if (!g[0].defined()) return Arrays(2);
                  NDArray dx = k::MseLossBackward(g[0], x, t, reduction);
                  NDArray dt;
                  if (target_grad) {
                    NoGradGuard no_grad;
                    dt = Expr(dx) * -1;
                  }
                  return {input_grad ? dx : NDArray(), dt};
                });
}

NDArray dropout(const NDArray& input, double p, bool training, Generator* generator) {
  SHADE_CHECK(p >= 0.0 && p <= 1.0)
      << "dropout: probability has to be between 0 and 1, but got " << p;
  if (!training) return input;
  k::DropoutResult r;
  {
    NoGradGuard no_grad;
    r = k::DropoutForward(input, p, generator ? generator : &DefaultGenerator());
  }
  if (!Tracked({input})) return r.output;
  const NDArray mask = r.mask;
  return RecordUnary("dropout", input, r.output,
                     [mask](const NDArray& g) { return k::DropoutBackward(g, mask); });
}

NDArray batch_norm(const NDArray& input, const NDArray& running_mean, const NDArray& running_var,
                   const NDArray& weight, const NDArray& bias, bool training, double momentum,
                   double eps) {
  k::BatchNormResult r;
  {
    NoGradGuard no_grad;
    r = k::BatchNormForward(input, running_mean, running_var, weight, bias, training, momentum,
                            eps);
  }
  if (!Tracked({input, weight, bias})) return r.output;
  const NDArray x = Saved(input), w = Saved(weight);
  const NDArray mean = r.save_mean, invstd = r.save_invstd;
  const bool has_weight = weight.defined(), has_bias = bias.defined();
  return Record("batch_norm", Defined({input, weight, bias}), r.output,
                [x, w, mean, invstd, training, has_weight, has_bias](const Arrays& g) {
                  Arrays out;
                  if (!g[0].defined()) return Arrays(1 + has_weight + has_bias);
                  k::BatchNormGrads d = k::BatchNormBackward(g[0], x, w, mean, invstd, training);
                  out.push_back(d.input);
                  if (has_weight) out.push_back(d.weight);
                  if (has_bias) out.push_back(d.bias);
                  return out;
                });
}

NDArray embedding(const NDArray& input, const NDArray& weight, index_t padding_idx) {
  NDArray y;
  {
    NoGradGuard no_grad;
    y = k::EmbeddingForward(weight, input);
  }
  if (!Tracked({weight})) return y;
  const NDArray indices = Saved(input);
  const index_t rows = weight.size(0);
  return RecordUnary("embedding", weight, y, [indices, rows, padding_idx](const NDArray& g) {
    return k::EmbeddingBackward(g, indices, rows, padding_idx);
  });
}

}  // namespace functional
}  // namespace nn
}  // namespace shade
