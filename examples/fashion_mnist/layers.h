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
#include <string>

#include "idx.h"
#include "shade/base/error.h"
#include "shade/expr/ext/broadcast.h"
#include "shade/expr/ext/reduce.h"
#include "shade/expr/ext/softmax.h"
#include "shade/io/binary.h"
#include "shade/io/stream.h"
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

/*! \brief d relu(z) / dz written in terms of the output a = relu(z): 1 where a > 0. */
struct relu_grad {
  /*! \brief 1 or 0. */
  template <typename DType>
  static SHADE_XINLINE DType Map(DType a) {
    return DType(0) < a ? DType(1) : DType(0);
  }
};

/*! \brief A network the trainer can drive. */
class Model {
 public:
  virtual ~Model() = default;
  /*! \brief "mlp" or "cnn" (also written into weight files). */
  virtual const char* name() const = 0;
  /*! \brief Largest batch the buffers hold. */
  virtual shade::index_t max_batch() const = 0;
  /*! \brief Draws fresh weights (biases too) and clears the momentum. */
  virtual void Init(Rng* rnd) = 0;
  /*! \brief logits (b x 10) of the images x (b x 784), b <= max_batch(). */
  virtual void Forward(const Matrix& x, Matrix* logits) = 0;
  /*! \brief One SGD step on a batch; returns the batch's mean cross-entropy. */
  virtual float TrainStep(const Matrix& x, const Vector& labels, float lr, float momentum) = 0;
  /*! \brief Writes the weights (not the momentum). */
  virtual void Save(shade::io::Stream* fo) const = 0;
  /*! \brief Reads what Save wrote; throws shade::Error on a shape mismatch or truncation. */
  virtual void Load(shade::io::Stream* fi) = 0;
};

/*!
 * \brief y = x W + b with W fan_in x fan_out, initialised like PyTorch's Linear: W and b
 *  uniform in [-1/sqrt(fan_in), 1/sqrt(fan_in)].
 */
class Dense {
 public:
  /*! \brief Allocates the weights and their momentum. */
  Dense(shade::index_t fan_in, shade::index_t fan_out)
      : w_(shade::Shape2(fan_in, fan_out), 0.0f), b_(shade::Shape1(fan_out), 0.0f),
        vw_(shade::Shape2(fan_in, fan_out), 0.0f), vb_(shade::Shape1(fan_out), 0.0f) {}

  /*! \brief Fresh weights; momentum cleared. */
  void Init(Rng* rnd) {
    const float bound = 1.0f / std::sqrt(static_cast<float>(w_.size(0)));
    rnd->SampleUniform(&w_, -bound, bound);
    rnd->SampleUniform(&b_, -bound, bound);
    vw_ = 0.0f;
    vb_ = 0.0f;
  }
  /*! \brief *y = x W + b. */
  void Forward(const Matrix& x, Matrix* y) const {
    using namespace shade::expr;  // NOLINT(build/namespaces)
    *y = dot(x, w_);
    *y += repmat(b_, x.size(0));
  }
  /*!
   * \brief Folds the gradient of the batch into the momentum (v = momentum * v + grad) and,
   *  when `dx` is not null, writes the gradient with respect to x (before W moves).
   */
  void Backward(const Matrix& x, const Matrix& dy, Matrix* dx, float momentum) {
    using namespace shade::expr;  // NOLINT(build/namespaces)
    vw_ *= momentum;
    vw_ += dot(x.T(), dy);
    vb_ *= momentum;
    vb_ += sum_rows(dy);
    if (dx != nullptr) *dx = dot(dy, w_.T());
  }
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
  /*! \brief Reads W then b; their stored shapes must match this layer's. */
  void Load(shade::io::Stream* fi, const char* layer) {
    try {
      Matrix w = w_;
      Vector b = b_;
      shade::LoadBinary(*fi, &w, true);
      shade::LoadBinary(*fi, &b, true);
    } catch (const shade::Error& e) {
      SHADE_THROW << fi->name() << ": layer " << layer << " (weights " << w_.shape_
                  << ", bias " << b_.shape_ << ") cannot be read: " << e.what();
    }
    vw_ = 0.0f;
    vb_ = 0.0f;
  }

 private:
  MatrixContainer w_;
  VectorContainer b_;
  MatrixContainer vw_;
  VectorContainer vb_;
};

/*!
 * \brief Mean softmax cross-entropy of `logits` against `labels` (class numbers stored as
 *  floats); writes d loss / d logits into `*grad` (same shape as logits).
 */
inline float SoftmaxCrossEntropy(const Matrix& logits, const Vector& labels, Matrix* grad) {
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
  *grad *= 1.0f / static_cast<float>(b);
  return static_cast<float>(loss / static_cast<double>(b));
}

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
