/*!
 * \file layers.h
 * \brief Building blocks of the example's networks: the Model interface, a dense layer with
 *  its SGD-with-momentum state, the ReLU gradient functor and the softmax cross-entropy loss,
 *  all written with shade's expression templates.
 */
#ifndef SHADE_EXAMPLES_FASHION_MNIST_LAYERS_H_
#define SHADE_EXAMPLES_FASHION_MNIST_LAYERS_H_

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "idx.h"
#include "shade/autograd/autograd.h"
#include "shade/base/error.h"
#include "shade/expr/ext/broadcast.h"
#include "shade/expr/ext/reduce.h"
#include "shade/expr/ext/softmax.h"
#include "shade/io/binary.h"
#include "shade/io/stream.h"
#include "shade/ndarray/ops.h"
#include "shade/nn/functional.h"
#include "shade/random/random.h"
#include "shade/tensor/tensor.h"
#include "shade/tensor/tensor_cpu.h"

namespace fashion_mnist {

/*! \brief A batch of rows (images, activations, gradients). */
using Matrix = shade::Tensor<shade::cpu, 2, float>;
/*! \brief A row vector (biases, labels). */
using Vector = shade::Tensor<shade::cpu, 1, float>;
/*! \brief Owning matrix. */
using MatrixContainer = shade::TensorContainer<shade::cpu, 2, float>;
/*! \brief Owning vector. */
using VectorContainer = shade::TensorContainer<shade::cpu, 1, float>;
/*! \brief The random source of the initial weights. */
using Rng = shade::Random<shade::cpu, float>;

/*! \brief An NDArray over a static matrix's memory (borrowed; rows `stride_` apart). */
inline shade::NDArray ArrayView(const Matrix& m) {
  return shade::NDArray::FromBlob(m.dptr_, {m.size(0), m.size(1)}, {m.stride_, 1},
                                  shade::TypeMeta::Make<float>());
}
/*! \brief An NDArray over a static vector's memory (borrowed). */
inline shade::NDArray ArrayView(const Vector& v) {
  return shade::NDArray::FromBlob(v.dptr_, {v.size(0)}, shade::TypeMeta::Make<float>());
}

/*! \brief d relu(z) / dz written in terms of the output a = relu(z): 1 where a > 0. */
struct relu_grad {
  /*! \brief 1 or 0. */
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a) {
    return DType(0) < a ? DType(1) : DType(0);
  }
};

/*!
 * \brief Mean softmax cross-entropy of `logits` against `labels` (class numbers stored as
 *  floats); writes d loss / d logits into `*grad` (same shape as logits).
 */
inline float SoftmaxCrossEntropy(const Matrix& logits, const Vector& labels, Matrix* grad,
                                 shade::index_t normalizer = 0) {
  using namespace shade::expr;  // NOLINT(build/namespaces)
  const shade::index_t b = logits.size(0);
  Softmax(*grad, logits);
  // The loss needs only each row's probability of its label.
  double loss = 0;
  for (shade::index_t i = 0; i < b; ++i) {
    const float label = labels[i];
    SHADE_CHECK(label >= 0.0f && label < static_cast<float>(logits.size(1)) &&
                label == std::floor(label))
        << "SoftmaxCrossEntropy: label " << label << " of row " << i << " is not a class 0.."
        << logits.size(1) - 1;
    const float p = (*grad)[i][static_cast<shade::index_t>(label)];
    loss -= std::log(std::max(p, 1e-30f));
  }
  SoftmaxGrad(*grad, *grad, labels);  // p - one_hot(label), in place
  // Data-parallel slices divide by the global batch, so that their gradients add up to it.
  *grad *= 1.0f / static_cast<float>(normalizer > 0 ? normalizer : b);
  return static_cast<float>(loss / static_cast<double>(b));
}

/*!
 * \brief The trainable state of one layer: weights W (any 2-D shape), bias b, and their
 *  SGD-with-momentum velocities, following PyTorch's SGD (v = momentum * v + grad,
 *  w -= lr * v). Dense and Conv both keep theirs here, so the update and the weight-file
 *  format exist once.
 */
class WeightsAndBias {
 public:
  /*! \brief W of `w_shape` and b of `bias_size` elements, all zero. */
  WeightsAndBias(shade::Shape<2> w_shape, shade::index_t bias_size)
      : w_(w_shape, 0.0f),
        b_(shade::Shape1(bias_size), 0.0f),
        vw_(w_shape, 0.0f),
        vb_(shade::Shape1(bias_size), 0.0f) {}

  /*! \brief W and b uniform in [-bound, bound] (PyTorch's Linear / Conv2d scheme with
   *  bound = 1/sqrt(fan_in)); momentum cleared. */
  void Init(Rng* rnd, float bound) {
    rnd->SampleUniform(&w_, -bound, bound);
    rnd->SampleUniform(&b_, -bound, bound);
    ClearMomentum();
  }
  /*! \brief The weights. */
  const MatrixContainer& w() const { return w_; }
  /*! \brief v_w *= momentum and v_b *= momentum: the start of folding in a batch's gradient,
   *  which the layer then adds with `vw() += ...` and `vb() += ...`. */
  void DecayMomentum(float momentum) {
    vw_ *= momentum;
    vb_ *= momentum;
  }
  /*!
   * \brief From now on Backward writes the gradient into `gw` and `gb` (views of W's and b's
   *  shapes) instead of folding it into the momentum: data-parallel training reduces it over
   *  the ranks first. `on_ready` (may be empty) runs when the layer's gradient is complete.
   */
  void KeepGradientApart(Matrix gw, Vector gb, std::function<void()> on_ready) {
    gw_ = gw;
    gb_ = gb;
    on_ready_ = std::move(on_ready);
    apart_ = true;
  }
  /*! \brief Start of a batch's gradient: v *= momentum, or g = 0 when kept apart. */
  void BeginGradient(float momentum) {
    if (apart_) {
      gw_ = 0.0f;
      gb_ = 0.0f;
    } else {
      DecayMomentum(momentum);
    }
  }
  /*! \brief Where Backward adds W's gradient: the velocity, or the separate buffer. */
  Matrix grad_w() { return apart_ ? gw_ : Matrix(vw_); }
  /*! \brief Where Backward adds b's gradient. */
  Vector grad_b() { return apart_ ? gb_ : Vector(vb_); }
  /*! \brief End of the layer's gradient (tells a data-parallel trainer it may send it). */
  void EndGradient() {
    if (on_ready_) on_ready_();
  }
  /*! \brief v = momentum * v + g from the separate gradient (after its reduction). */
  void FoldGradient(float momentum) {
    DecayMomentum(momentum);
    vw_ += gw_;
    vb_ += gb_;
  }
  /*! \brief Velocity of W (the gradient is added into it). */
  MatrixContainer& vw() { return vw_; }
  /*! \brief Velocity of b. */
  VectorContainer& vb() { return vb_; }
  /*! \brief The bias. */
  const VectorContainer& b() const { return b_; }
  /*! \brief w -= lr * v. */
  void Update(float lr) {
    w_ -= lr * vw_;
    b_ -= lr * vb_;
  }
  /*! \brief Writes W then b. */
  void Save(shade::io::Stream* fo) const {
    shade::SaveBinary(*fo, static_cast<const Matrix&>(w_));
    shade::SaveBinary(*fo, static_cast<const Vector&>(b_));
  }
  /*! \brief Reads W then b; their stored shapes must match this layer's; momentum cleared. */
  void Load(shade::io::Stream* fi, const char* layer) {
    try {
      Matrix w = w_;
      Vector b = b_;
      shade::LoadBinary(*fi, &w, true);
      shade::LoadBinary(*fi, &b, true);
    } catch (const shade::Error& e) {
      SHADE_THROW << fi->name() << ": layer " << layer << " (weights " << w_.shape_ << ", bias "
                  << b_.shape_ << ") cannot be read: " << e.what();
    }
    ClearMomentum();
  }

 private:
  void ClearMomentum() {
    vw_ = 0.0f;
    vb_ = 0.0f;
  }
  MatrixContainer w_;
  VectorContainer b_;
  MatrixContainer vw_;
  VectorContainer vb_;
  // Separate gradient buffers (data-parallel training only).
  bool apart_ = false;
  Matrix gw_;
  Vector gb_;
  std::function<void()> on_ready_;
};

/*!
 * \brief y = x W + b with W fan_in x fan_out, initialised like PyTorch's Linear: W and b
 *  uniform in [-1/sqrt(fan_in), 1/sqrt(fan_in)].
 */
class Dense {
 public:
  /*! \brief Allocates the weights and their momentum. */
  Dense(shade::index_t fan_in, shade::index_t fan_out)
      : params_(shade::Shape2(fan_in, fan_out), fan_out) {}

  /*! \brief Fresh weights; momentum cleared. */
  void Init(Rng* rnd) {
    params_.Init(rnd, 1.0f / std::sqrt(static_cast<float>(params_.w().size(0))));
  }
  /*! \brief *y = x W + b. */
  void Forward(const Matrix& x, Matrix* y) const {
    using namespace shade::expr;  // NOLINT(build/namespaces)
    *y = dot(x, params_.w());
    *y += repmat(params_.b(), x.size(0));
  }
  /*!
   * \brief Folds the gradient of the batch into the momentum (v = momentum * v + grad) and,
   *  when `dx` is not null, writes the gradient with respect to x (before W moves).
   */
  void Backward(const Matrix& x, const Matrix& dy, Matrix* dx, float momentum) {
    using namespace shade::expr;  // NOLINT(build/namespaces)
    params_.BeginGradient(momentum);
    params_.grad_w() += dot(x.T(), dy);
    params_.grad_b() += sum_rows(dy);
    params_.EndGradient();
    if (dx != nullptr) *dx = dot(dy, params_.w().T());
  }
  /*! \brief The layer's weights, bias and momentum. */
  WeightsAndBias& params() { return params_; }
  /*! \brief Read-only access for saving. */
  const WeightsAndBias& params() const { return params_; }

 private:
  WeightsAndBias params_;
};

/*!
 * \brief A network the trainer can drive. A subclass writes its forward pass, its backward
 *  pass and lists its layers' parameters; the SGD step around them is written here once.
 */
class Model {
 public:
  /*! \brief `max_batch` bounds the batches of Forward and TrainStep. */
  explicit Model(shade::index_t max_batch)
      : max_batch_(max_batch),
        logits_(shade::Shape2(max_batch, kClasses)),
        dlogits_(shade::Shape2(max_batch, kClasses)) {}
  virtual ~Model() = default;
  /*! \brief "mlp" or "cnn" (also written into weight files). */
  virtual const char* name() const = 0;
  /*! \brief Largest batch the buffers hold. */
  shade::index_t max_batch() const { return max_batch_; }
  /*! \brief Draws fresh weights (biases too) and clears the momentum. */
  virtual void Init(Rng* rnd) = 0;
  /*! \brief logits (b x 10) of the images x (b x 784), b <= max_batch(). */
  virtual void Forward(const Matrix& x, Matrix* logits) = 0;

  /*!
   * \brief Whether TrainStep differentiates through autograd and shade::nn (the default) or
   *  runs the model's hand-written Backward (which the data-parallel trainer always uses).
   */
  void set_autograd(bool on) { autograd_ = on; }
  /*! \brief See set_autograd. */
  bool autograd() const { return autograd_; }

  /*!
   * \brief The batch's mean cross-entropy and its gradient with respect to every layer's W
   *  and b (in Parameters() order, the arrays' shapes), through autograd: the forward pass is
   *  GraphForward over views of the weights that require grad.
   */
  std::vector<shade::NDArray> AutogradGradients(const Matrix& x, const Vector& labels,
                                                float* loss) {
    std::vector<shade::NDArray> leaves;
    for (const LayerParameters& layer : Parameters()) {
      leaves.push_back(ArrayView(layer.params->w()));
      leaves.push_back(ArrayView(layer.params->b()));
    }
    for (shade::NDArray& p : leaves) p.set_requires_grad(true);
    shade::NDArray target = shade::NDArray::Empty({labels.size(0)}, shade::kInt64);
    for (shade::index_t i = 0; i < labels.size(0); ++i) {
      target.data<std::int64_t>()[i] = static_cast<std::int64_t>(labels[i]);
    }
    const shade::NDArray l =
        shade::nn::functional::cross_entropy(GraphForward(ArrayView(x), leaves), target);
    l.backward();
    *loss = static_cast<float>(l.get({}));
    std::vector<shade::NDArray> grads;
    for (const shade::NDArray& p : leaves) grads.push_back(p.grad());
    return grads;
  }

  /*! \brief One SGD step on a batch; returns the batch's mean cross-entropy. */
  float TrainStep(const Matrix& x, const Vector& labels, float lr, float momentum) {
    if (autograd_) {
      float loss = 0;
      const std::vector<shade::NDArray> grads = AutogradGradients(x, labels, &loss);
      const std::vector<LayerParameters> layers = Parameters();
      shade::NoGradGuard no_grad;
      for (std::size_t i = 0; i < layers.size(); ++i) {
        // The same update as the hand-written path: v = momentum v + g; w -= lr v.
        WeightsAndBias* p = layers[i].params;
        p->DecayMomentum(momentum);
        ArrayView(p->vw()) += grads[2 * i];
        ArrayView(p->vb()) += grads[2 * i + 1];
        p->Update(lr);
      }
      return loss;
    }
    const shade::index_t b = x.size(0);
    Matrix logits = logits_.Slice(0, b), dlogits = dlogits_.Slice(0, b);
    Forward(x, &logits);
    const float loss = SoftmaxCrossEntropy(logits, labels, &dlogits);
    Backward(x, dlogits, momentum);
    for (const LayerParameters& layer : Parameters()) layer.params->Update(lr);
    return loss;
  }
  // ----------------------------------------------------- data-parallel training (train.h)
  /*! \brief Number of trainable scalars (every layer's W and b). */
  shade::index_t NumParameters() {
    shade::index_t n = 0;
    for (const LayerParameters& layer : Parameters()) {
      n += layer.params->w().shape_.Size() + layer.params->b().shape_.Size();
    }
    return n;
  }
  /*! \brief Number of layers (the `layer` of the hook below). */
  std::size_t NumLayers() { return Parameters().size(); }
  /*!
   * \brief Backward writes gradients into `grad` (NumParameters() floats: each layer's W then
   *  b, in Parameters() order) instead of the momentum; `on_ready(layer)` runs as each layer's
   *  gradient completes (last layer first).
   */
  void KeepGradientsIn(float* grad, const std::function<void(std::size_t)>& on_ready) {
    std::vector<LayerParameters> layers = Parameters();
    for (std::size_t i = 0; i < layers.size(); ++i) {
      WeightsAndBias* p = layers[i].params;
      Matrix gw(grad, p->w().shape_);
      grad += p->w().shape_.Size();
      Vector gb(grad, p->b().shape_);
      grad += p->b().shape_.Size();
      p->KeepGradientApart(gw, gb,
                           on_ready ? std::function<void()>([on_ready, i] { on_ready(i); })
                                    : std::function<void()>());
    }
  }
  /*!
   * \brief Forward and backward of one slice of a batch into the gradient buffers (after
   *  KeepGradientsIn), the loss gradient divided by `normalizer` (the whole batch's size);
   *  returns the slice's mean cross-entropy.
   */
  float ComputeGradient(const Matrix& x, const Vector& labels, shade::index_t normalizer) {
    const shade::index_t b = x.size(0);
    Matrix logits = logits_.Slice(0, b), dlogits = dlogits_.Slice(0, b);
    Forward(x, &logits);
    const float loss = SoftmaxCrossEntropy(logits, labels, &dlogits, normalizer);
    Backward(x, dlogits, 0.0f);
    return loss;
  }
  /*! \brief The SGD step from the (reduced) gradient buffers: v = momentum v + g; w -= lr v. */
  void ApplyGradient(float lr, float momentum) {
    for (const LayerParameters& layer : Parameters()) {
      layer.params->FoldGradient(momentum);
      layer.params->Update(lr);
    }
  }
  /*! \brief Every layer's W and b, in the order of the gradient buffer. */
  std::vector<Matrix> Weights() {
    std::vector<Matrix> out;
    for (const LayerParameters& layer : Parameters()) {
      out.push_back(layer.params->w());
      const Vector& b = layer.params->b();
      out.push_back(Matrix(b.dptr_, shade::Shape2(1, b.size(0))));
    }
    return out;
  }

  /*! \brief Writes the weights (not the momentum), layer by layer. */
  void Save(shade::io::Stream* fo) const {
    // Parameters() only lists the layers; nothing is modified through it here.
    for (const LayerParameters& layer : const_cast<Model*>(this)->Parameters()) {
      layer.params->Save(fo);
    }
  }
  /*! \brief Reads what Save wrote; throws shade::Error on a shape mismatch or truncation. */
  void Load(shade::io::Stream* fi) {
    for (const LayerParameters& layer : Parameters()) layer.params->Load(fi, layer.name);
  }

 protected:
  /*!
   * \brief After the Forward of the same batch: folds the gradient of every layer into its
   *  momentum, given d loss / d logits.
   */
  virtual void Backward(const Matrix& x, const Matrix& dlogits, float momentum) = 0;
  /*! \brief A layer's name (in error messages) and its parameters. */
  struct LayerParameters {
    const char* name;
    WeightsAndBias* params;
  };
  /*! \brief Every layer's parameters, input to output (the order of the weight file). */
  virtual std::vector<LayerParameters> Parameters() = 0;
  /*!
   * \brief The logits of the images x (b x 784) through shade::nn::functional, given views of
   *  each layer's W and b (Parameters() order) that autograd differentiates.
   */
  virtual shade::NDArray GraphForward(const shade::NDArray& x,
                                      const std::vector<shade::NDArray>& params) = 0;

 private:
  bool autograd_ = true;
  shade::index_t max_batch_;
  MatrixContainer logits_, dlogits_;
};

/*! \brief Index of the largest logit of row `i`. */
inline int ArgMax(const Matrix& logits, shade::index_t i) {
  int best = 0;
  for (shade::index_t c = 1; c < logits.size(1); ++c) {
    if (logits[i][best] < logits[i][c]) best = static_cast<int>(c);
  }
  return best;
}

}  // namespace fashion_mnist

#endif  // SHADE_EXAMPLES_FASHION_MNIST_LAYERS_H_
