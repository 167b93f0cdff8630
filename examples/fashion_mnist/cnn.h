/*!
 * \file cnn.h
 * \brief A small convolutional network written with shade's expression templates, in the way
 *  mshadow's users wrote theirs: convolution as unpack_patch2col + dot, max pooling with
 *  pool / unpool, then one dense layer.
 *
 *  input 1x28x28 -> conv 5x5, 32 ch -> ReLU -> max pool 2x2 -> 32x12x12
 *                -> conv 5x5, 64 ch -> ReLU -> max pool 2x2 -> 64x4x4 -> dense 1024 -> 10
 */
#ifndef SHADE_EXAMPLES_FASHION_MNIST_CNN_H_
#define SHADE_EXAMPLES_FASHION_MNIST_CNN_H_

#include <cmath>
#include <vector>

#include "layers.h"
#include "shade/expr/ext/patch2col.h"
#include "shade/expr/ext/pool.h"
#include "shade/expr/ext/reshape.h"
#include "shade/expr/ext/swapaxis.h"

namespace fashion_mnist {

/*! \brief 4-D activations (batch, channel, row, column). */
using Tensor4 = shade::Tensor<shade::cpu, 4, float>;
/*! \brief Owning 4-D tensor. */
using Tensor4Container = shade::TensorContainer<shade::cpu, 4, float>;

/*!
 * \brief A k x k convolution (stride 1, no padding): weights cout x (cin k k), one bias per
 *  output channel, initialised like PyTorch's Conv2d (uniform in +-1/sqrt(cin k k)).
 */
class Conv {
 public:
  /*! \brief Layer for inputs of `cin` channels of size h x w, batches up to `max_batch`. */
  Conv(shade::index_t cin, shade::index_t cout, shade::index_t k, shade::index_t h,
       shade::index_t w, shade::index_t max_batch)
      : cin_(cin),
        cout_(cout),
        k_(k),
        oh_(h - k + 1),
        ow_(w - k + 1),
        params_(shade::Shape2(cout, cin * k * k), cout),
        col_(shade::Shape2(cin * k * k, max_batch * oh_ * ow_), false),
        tmp_(shade::Shape2(cout, max_batch * oh_ * ow_), false) {}

  /*! \brief Output rows. */
  shade::index_t oh() const { return oh_; }
  /*! \brief Output columns. */
  shade::index_t ow() const { return ow_; }

  /*! \brief Fresh weights, momentum cleared. */
  void Init(Rng* rnd) { params_.Init(rnd, 1.0f / std::sqrt(static_cast<float>(cin_ * k_ * k_))); }
  /*! \brief *out = conv(in) + bias; keeps the unpacked patches for Backward. */
  void Forward(const Tensor4& in, Tensor4* out) {
    using namespace shade::expr;  // NOLINT(build/namespaces)
    const shade::index_t b = in.size(0);
    const shade::index_t cols = b * oh_ * ow_;
    Matrix col(col_.dptr_, shade::Shape2(cin_ * k_ * k_, cols));
    Matrix tmp(tmp_.dptr_, shade::Shape2(cout_, cols));
    col = unpack_patch2col(in, k_, k_, 1);
    tmp = dot(params_.w(), col);
    *out = swapaxis<1, 0>(reshape(tmp, shade::Shape4(cout_, b, oh_, ow_)));
    *out += broadcast<1>(params_.b(), out->shape_);
  }
  /*!
   * \brief Folds the batch's gradient into the momentum and, when `din` is not null, writes
   *  the gradient with respect to the input. `dout` is d loss / d out.
   */
  void Backward(const Tensor4& dout, Tensor4* din, float momentum) {
    using namespace shade::expr;  // NOLINT(build/namespaces)
    const shade::index_t b = dout.size(0);
    const shade::index_t cols = b * oh_ * ow_;
    Matrix col(col_.dptr_, shade::Shape2(cin_ * k_ * k_, cols));
    Matrix tmp(tmp_.dptr_, shade::Shape2(cout_, cols));
    tmp = reshape(swapaxis<1, 0>(dout), tmp.shape_);
    params_.BeginGradient(momentum);
    params_.grad_w() += dot(tmp, col.T());
    params_.grad_b() += sumall_except_dim<1>(dout);
    params_.EndGradient();
    if (din != nullptr) {
      col = dot(params_.w().T(), tmp);
      *din = pack_col2patch(col, din->shape_, k_, k_, 1);
    }
  }
  /*! \brief The layer's weights, bias and momentum. */
  WeightsAndBias& params() { return params_; }

 private:
  shade::index_t cin_, cout_, k_, oh_, ow_;
  WeightsAndBias params_;
  MatrixContainer col_;  // unpacked patches of the last Forward (reused by Backward)
  MatrixContainer tmp_;  // cout x (batch * oh * ow) scratch
};

/*! \brief The CNN of the file comment. */
class Cnn : public Model {
 public:
  /*! \brief Buffers for batches of up to `max_batch` images. */
  explicit Cnn(shade::index_t max_batch)
      : Model(max_batch),
        conv1_(1, kC1, 5, 28, 28, max_batch),
        conv2_(kC1, kC2, 5, 12, 12, max_batch),
        fc_(kFlat, kClasses),
        c1_(shade::Shape4(max_batch, kC1, 24, 24), false),
        p1_(shade::Shape4(max_batch, kC1, 12, 12), false),
        c2_(shade::Shape4(max_batch, kC2, 8, 8), false),
        p2_(shade::Shape4(max_batch, kC2, 4, 4), false),
        dc1_(shade::Shape4(max_batch, kC1, 24, 24), false),
        dp1_(shade::Shape4(max_batch, kC1, 12, 12), false),
        dc2_(shade::Shape4(max_batch, kC2, 8, 8), false),
        dp2_(shade::Shape4(max_batch, kC2, 4, 4), false) {}

  const char* name() const override { return "cnn"; }

  void Init(Rng* rnd) override {
    conv1_.Init(rnd);
    conv2_.Init(rnd);
    fc_.Init(rnd);
  }

  void Forward(const Matrix& x, Matrix* logits) override {
    using namespace shade::expr;  // NOLINT(build/namespaces)
    SHADE_CHECK(x.CheckContiguous()) << "Cnn::Forward: the image rows must be contiguous";
    const shade::index_t b = x.size(0);
    const Tensor4 in(x.dptr_, shade::Shape4(b, 1, kImageSide, kImageSide));
    Tensor4 c1 = c1_.Slice(0, b), p1 = p1_.Slice(0, b), c2 = c2_.Slice(0, b), p2 = p2_.Slice(0, b);
    conv1_.Forward(in, &c1);
    c1 = F<shade::op::relu>(c1);
    p1 = pool<shade::red::maximum>(c1, 2, 2, 2, 2);
    conv2_.Forward(p1, &c2);
    c2 = F<shade::op::relu>(c2);
    p2 = pool<shade::red::maximum>(c2, 2, 2, 2, 2);
    fc_.Forward(Matrix(p2.dptr_, shade::Shape2(b, kFlat)), logits);
  }

 protected:
  void Backward(const Matrix& x, const Matrix& dlogits, float momentum) override {
    using namespace shade::expr;  // NOLINT(build/namespaces)
    const shade::index_t b = x.size(0);
    Tensor4 c1 = c1_.Slice(0, b), p1 = p1_.Slice(0, b), c2 = c2_.Slice(0, b), p2 = p2_.Slice(0, b);
    Tensor4 dc1 = dc1_.Slice(0, b), dp1 = dp1_.Slice(0, b), dc2 = dc2_.Slice(0, b),
            dp2 = dp2_.Slice(0, b);
    Matrix dflat(dp2.dptr_, shade::Shape2(b, kFlat));
    fc_.Backward(Matrix(p2.dptr_, shade::Shape2(b, kFlat)), dlogits, &dflat, momentum);
    dc2 = unpool<shade::red::maximum>(c2, p2, dp2, 2, 2, 2, 2);
    dc2 *= F<relu_grad>(c2);
    conv2_.Backward(dc2, &dp1, momentum);
    dc1 = unpool<shade::red::maximum>(c1, p1, dp1, 2, 2, 2, 2);
    dc1 *= F<relu_grad>(c1);
    conv1_.Backward(dc1, nullptr, momentum);
  }
  std::vector<LayerParameters> Parameters() override {
    return {{"conv1", &conv1_.params()}, {"conv2", &conv2_.params()}, {"fc", &fc_.params()}};
  }

 private:
  static constexpr shade::index_t kC1 = 32;             // channels of the first conv layer
  static constexpr shade::index_t kC2 = 64;             // channels of the second
  static constexpr shade::index_t kFlat = kC2 * 4 * 4;  // inputs of the dense layer
  Conv conv1_, conv2_;
  Dense fc_;
  Tensor4Container c1_, p1_, c2_, p2_, dc1_, dp1_, dc2_, dp2_;
};

}  // namespace fashion_mnist

#endif  // SHADE_EXAMPLES_FASHION_MNIST_CNN_H_
