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
#include "shade/backend/cpu/blas.h"
#include "shade/backend/cpu/parallel.h"
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
        col_grad_(shade::Shape2(cin * k * k, max_batch * oh_ * ow_), false),
        tmp_(shade::Shape2(cout, max_batch * oh_ * ow_), false) {}

  /*! \brief Output rows. */
  shade::index_t oh() const { return oh_; }
  /*! \brief Output columns. */
  shade::index_t ow() const { return ow_; }

  /*! \brief Fresh weights, momentum cleared. */
  void Init(Rng* rnd) { params_.Init(rnd, 1.0f / std::sqrt(static_cast<float>(cin_ * k_ * k_))); }
  /*!
   * \brief *out = conv(in) + bias; keeps the unpacked patches for Backward. One product per
   *  image (W times that image's columns of the patch matrix) writes the image's output
   *  planes in place, so no (channel, batch) -> (batch, channel) copy follows, and its bias
   *  is added (and, with `relu`, max(0, .) taken) while the planes are still in cache; the
   *  images are split over the threads.
   */
  void Forward(const Tensor4& in, Tensor4* out, bool relu) {
    using namespace shade::expr;  // NOLINT(build/namespaces)
    const shade::index_t b = in.size(0);
    const shade::index_t plane = oh_ * ow_;
    const shade::index_t rows = cin_ * k_ * k_;
    const shade::index_t cols = b * plane;
    SHADE_CHECK(out->CheckContiguous() && out->shape_ == shade::Shape4(b, cout_, oh_, ow_))
        << "Conv::Forward: the output must be a contiguous " << shade::Shape4(b, cout_, oh_, ow_)
        << ", got " << out->shape_;
    Matrix col(col_.dptr_, shade::Shape2(rows, cols));
    col = unpack_patch2col(in, k_, k_, 1);
    const float* w = params_.w().dptr_;
    const shade::index_t ldw = params_.w().stride_;  // rows may be padded
    const float* bias = params_.b().dptr_;
    const float* colp = col.dptr_;
    float* outp = out->dptr_;
    ForEachImage(b, [&](shade::index_t n) {
      float* y = outp + n * cout_ * plane;
      shade::blas::Gemm<float>(false, false, cout_, plane, rows, 1.0f, w, ldw, colp + n * plane,
                               cols, 0.0f, y, plane);
      for (shade::index_t c = 0; c < cout_; ++c) {
        float* yc = y + c * plane;
        const float bc = bias[c];
        if (relu) {
          for (shade::index_t i = 0; i < plane; ++i) yc[i] = shade::op::relu::Map(yc[i] + bc);
        } else {
          for (shade::index_t i = 0; i < plane; ++i) yc[i] += bc;
        }
      }
    });
  }
  /*!
   * \brief Folds the batch's gradient into the momentum and, when `din` is not null, writes
   *  the gradient with respect to the input. `dout` is d loss / d out. The input gradient is
   *  computed image by image (W^T times the image's output gradient, then folded back into
   *  the image), so each image's patch gradient is folded while it is still in cache.
   */
  void Backward(const Tensor4& dout, Tensor4* din, float momentum) {
    using namespace shade::expr;  // NOLINT(build/namespaces)
    const shade::index_t b = dout.size(0);
    const shade::index_t plane = oh_ * ow_;
    const shade::index_t rows = cin_ * k_ * k_;
    const shade::index_t cols = b * plane;
    Matrix col(col_.dptr_, shade::Shape2(rows, cols));
    Matrix tmp(tmp_.dptr_, shade::Shape2(cout_, cols));
    tmp = reshape(swapaxis<1, 0>(dout), tmp.shape_);
    params_.BeginGradient(momentum);
    params_.grad_w() += dot(tmp, col.T());
    params_.grad_b() += sumall_except_dim<1>(dout);
    params_.EndGradient();
    if (din == nullptr) return;
    SHADE_CHECK(din->CheckContiguous() && dout.CheckContiguous() && din->size(0) == b)
        << "Conv::Backward: the gradients must be contiguous and of the same batch";
    const float* w = params_.w().dptr_;
    const shade::index_t ldw = params_.w().stride_;
    const float* doutp = dout.dptr_;
    float* scratch = col_grad_.dptr_;
    const shade::Shape<4> image = shade::Shape4(1, din->size(1), din->size(2), din->size(3));
    ForEachImage(b, [&](shade::index_t n) {
      Matrix dcol(scratch + n * rows * plane, shade::Shape2(rows, plane));
      shade::blas::Gemm<float>(true, false, rows, plane, cout_, 1.0f, w, ldw,
                               doutp + n * cout_ * plane, plane, 0.0f, dcol.dptr_, plane);
      Tensor4 dimage(din->dptr_ + n * image.Size(), image);
      dimage = pack_col2patch(dcol, image, k_, k_, 1);
    });
  }
  /*! \brief The layer's weights, bias and momentum. */
  WeightsAndBias& params() { return params_; }

 private:
  shade::index_t cin_, cout_, k_, oh_, ow_;
  WeightsAndBias params_;
  // Runs fn(n) for every image n < b, the images split over the threads in contiguous
  // ranges; inside, the GEMMs run on one thread each.
  template <typename F>
  static void ForEachImage(shade::index_t b, F fn) {
    shade::ParallelFor(0, b, 1, [&](shade::index_t begin, shade::index_t end) {
      for (shade::index_t n = begin; n < end; ++n) fn(n);
    });
  }

  MatrixContainer col_;       // unpacked patches of the last Forward (reused by Backward)
  MatrixContainer col_grad_;  // per image (image-major): d loss / d patches
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
    conv1_.Forward(in, &c1, true);
    p1 = pool<shade::red::maximum>(c1, 2, 2, 2, 2);
    conv2_.Forward(p1, &c2, true);
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
