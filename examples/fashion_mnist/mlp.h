/*!
 * \file mlp.h
 * \brief The multilayer perceptron 784-256-128-10 (ReLU, softmax cross-entropy), written with
 *  shade's expression templates, trained by SGD with momentum.
 *
 * Weights are stored input-major (W is fan_in x fan_out), so a layer is `dot(x, W)` plus
 * `repmat(b, batch)`; PyTorch's Linear stores the transpose, which does not change the
 * arithmetic. Momentum follows PyTorch's SGD: v = momentum * v + grad, w -= lr * v.
 */
#ifndef SHADE_EXAMPLES_FASHION_MNIST_MLP_H_
#define SHADE_EXAMPLES_FASHION_MNIST_MLP_H_

#include <cmath>
#include <string>
#include <vector>

#include "layers.h"

namespace fashion_mnist {

/*! \brief The MLP: three dense layers, ReLU between them. */
class Mlp : public Model {
 public:
  /*! \brief Buffers for batches of up to `max_batch` images. */
  explicit Mlp(shade::index_t max_batch)
      : Model(max_batch),
        fc1_(kImageSize, 256),
        fc2_(256, 128),
        fc3_(128, kClasses),
        a1_(shade::Shape2(max_batch, 256)),
        a2_(shade::Shape2(max_batch, 128)),
        d1_(shade::Shape2(max_batch, 256)),
        d2_(shade::Shape2(max_batch, 128)) {}

  const char* name() const override { return "mlp"; }

  void Init(Rng* rnd) override {
    fc1_.Init(rnd);
    fc2_.Init(rnd);
    fc3_.Init(rnd);
  }

  void Forward(const Matrix& x, Matrix* logits) override {
    using namespace shade::expr;  // NOLINT(build/namespaces)
    const shade::index_t b = x.size(0);
    Matrix a1 = a1_.Slice(0, b), a2 = a2_.Slice(0, b);
    fc1_.Forward(x, &a1);
    a1 = F<shade::op::relu>(a1);
    fc2_.Forward(a1, &a2);
    a2 = F<shade::op::relu>(a2);
    fc3_.Forward(a2, logits);
  }

 protected:
  void Backward(const Matrix& x, const Matrix& dlogits, float momentum) override {
    using namespace shade::expr;  // NOLINT(build/namespaces)
    const shade::index_t b = x.size(0);
    Matrix a1 = a1_.Slice(0, b), a2 = a2_.Slice(0, b);
    Matrix d1 = d1_.Slice(0, b), d2 = d2_.Slice(0, b);
    // Each layer's input gradient is taken before its weights move.
    fc3_.Backward(a2, dlogits, &d2, momentum);
    d2 *= F<relu_grad>(a2);
    fc2_.Backward(a1, d2, &d1, momentum);
    d1 *= F<relu_grad>(a1);
    fc1_.Backward(x, d1, nullptr, momentum);
  }
  std::vector<LayerParameters> Parameters() override {
    return {{"fc1", &fc1_.params()}, {"fc2", &fc2_.params()}, {"fc3", &fc3_.params()}};
  }
  shade::NDArray GraphForward(const shade::NDArray& x,
                              const std::vector<shade::NDArray>& p) override {
    namespace F = shade::nn::functional;
    // W is stored fan_in x fan_out: linear takes its transpose (a view, read without a copy).
    const shade::NDArray h1 = F::relu(F::linear(x, p[0].transpose(0, 1), p[1]));
    const shade::NDArray h2 = F::relu(F::linear(h1, p[2].transpose(0, 1), p[3]));
    return F::linear(h2, p[4].transpose(0, 1), p[5]);
  }

 private:
  Dense fc1_, fc2_, fc3_;
  MatrixContainer a1_, a2_, d1_, d2_;
};

}  // namespace fashion_mnist

#endif  // SHADE_EXAMPLES_FASHION_MNIST_MLP_H_
