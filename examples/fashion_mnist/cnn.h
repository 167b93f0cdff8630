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

#include <algorithm>
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
        tmp_(shade::Shape2(cout, max_batch * oh_ * ow_), false) {}

  /*! \brief Output rows. */
  shade::index_t oh() const { return oh_; }
  /*! \brief Output columns. */
  shade::index_t ow() const { return ow_; }

  /*! \brief Fresh weights, momentum cleared. */
  void Init(Rng* rnd) { params_.Init(rnd, 1.0f / std::sqrt(static_cast<float>(cin_ * k_ * k_))); }
  /*!
   * \brief *out = conv(in) + bias. The images go in groups (see GroupSize): each group's
   *  patches are unpacked into a buffer of the thread's (it stays in the core's cache), one
   *  product (W times those columns) lands in the channel-major scratch, and each image's
   *  planes are then copied to the output with the bias added (and, with `relu`, max(0, .)
   *  taken) while they are still in cache; a one-image group is written to the output
   *  directly and finished in place. The groups are split over the threads, each product on
   *  one thread. Backward reads `in` again: it must stay unchanged until then.
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
    SHADE_CHECK(cols <= tmp_.size(1))
        << "Conv::Forward: a batch of " << b << " images is larger than the layer's buffers ("
        << tmp_.size(1) / plane << " images)";
    in_ = in;
    const float* w = params_.w().dptr_;
    const shade::index_t ldw = params_.w().stride_;  // rows may be padded
    const float* bias = params_.b().dptr_;
    const shade::index_t slot = rows * GroupSize(plane) * plane;
    float* patches = Scratch(&col_, Ranges(b, plane) * slot);
    float* scratch = tmp_.dptr_;  // cout x cols, channel-major
    float* outp = out->dptr_;
    ForEachGroup(b, plane, [&](shade::index_t n0, shade::index_t n1, shade::index_t range) {
      const shade::index_t g = n1 - n0;
      Matrix col(patches + range * slot, shade::Shape2(rows, g * plane));
      col = unpack_patch2col(in.Slice(n0, n1), k_, k_, 1);
      // A group of one image (planes of >= kGroupColumns) is written in place: its product is
      // already the image's planes in NCHW order, so no copy is needed.
      const bool in_place = g == 1;
      float* y = in_place ? outp + n0 * cout_ * plane : scratch + n0 * plane;
      const shade::index_t ldy = in_place ? plane : cols;
      shade::blas::Gemm<float>(false, false, cout_, g * plane, rows, 1.0f, w, ldw, col.dptr_,
                               g * plane, 0.0f, y, ldy);
      for (shade::index_t n = n0; n < n1; ++n) {
        for (shade::index_t c = 0; c < cout_; ++c) {
          const float* yc = y + c * ldy + (n - n0) * plane;
          float* oc = outp + (n * cout_ + c) * plane;
          const float bc = bias[c];
          if (relu) {
            for (shade::index_t i = 0; i < plane; ++i) oc[i] = shade::op::relu::Map(yc[i] + bc);
          } else {
            for (shade::index_t i = 0; i < plane; ++i) oc[i] = yc[i] + bc;
          }
        }
      }
    });
  }
  /*!
   * \brief Folds the batch's gradient into the momentum and, when `din` is not null, writes
   *  the gradient with respect to the input. `dout` is d loss / d out for the input of the
   *  last Forward. One pass over the groups: each group's patches are unpacked again (into the
   *  thread's cached buffer, cheaper than keeping the whole patch matrix in memory) for its
   *  share of the weight gradient, then W^T times the group's output gradient is folded back
   *  into the group's images. The weight gradient of the threads' ranges of groups is summed
   *  after (see AddPartials); the split depends only on the thread count, so results are
   *  reproducible for a given one.
   */
  void Backward(const Tensor4& dout, Tensor4* din, float momentum) {
    using namespace shade::expr;  // NOLINT(build/namespaces)
    const shade::index_t b = dout.size(0);
    const shade::index_t plane = oh_ * ow_;
    const shade::index_t rows = cin_ * k_ * k_;
    const shade::index_t cols = b * plane;
    SHADE_CHECK(in_.dptr_ != nullptr && in_.size(0) == b &&
                dout.shape_ == shade::Shape4(b, cout_, oh_, ow_))
        << "Conv::Backward: the output gradient must be " << shade::Shape4(b, cout_, oh_, ow_)
        << " for the input of the last Forward, got " << dout.shape_;
    if (din != nullptr) {
      SHADE_CHECK(din->CheckContiguous() && din->shape_ == in_.shape_)
          << "Conv::Backward: the input gradient must be a contiguous " << in_.shape_ << ", got "
          << din->shape_;
    }
    // The products need the output gradient as cout x (columns) blocks. One image's block is
    // its NCHW planes as they are; a group of several images needs the channel-major copy.
    const float* dout_base = dout.dptr_;
    shade::index_t image_step = cout_ * plane, ld = plane;
    if (GroupSize(plane) > 1 || !dout.CheckContiguous()) {
      Matrix tmp(tmp_.dptr_, shade::Shape2(cout_, cols));
      tmp = reshape(swapaxis<1, 0>(dout), tmp.shape_);
      dout_base = tmp.dptr_;
      image_step = plane;
      ld = cols;
    }
    const shade::index_t ranges = Ranges(b, plane);
    const shade::index_t slot = rows * GroupSize(plane) * plane;
    float* patches = Scratch(&col_, ranges * slot);
    float* patch_grads = din != nullptr ? Scratch(&col_grad_, ranges * slot) : nullptr;
    const shade::index_t part = cout_ * rows;  // one range's weight gradient
    float* partials = Scratch(&partial_w_, (ranges - 1) * part);
    std::fill(partials, partials + (ranges - 1) * part, 0.0f);
    params_.BeginGradient(momentum);
    Matrix grad = params_.grad_w();
    const float* w = params_.w().dptr_;
    const shade::index_t ldw = params_.w().stride_;
    ForEachGroup(b, plane, [&](shade::index_t n0, shade::index_t n1, shade::index_t range) {
      const shade::index_t g = n1 - n0;
      const float* dout_g = dout_base + n0 * image_step;
      Matrix col(patches + range * slot, shade::Shape2(rows, g * plane));
      col = unpack_patch2col(in_.Slice(n0, n1), k_, k_, 1);
      float* gw = range == 0 ? grad.dptr_ : partials + (range - 1) * part;
      shade::blas::Gemm<float>(false, true, cout_, rows, g * plane, 1.0f, dout_g, ld, col.dptr_,
                               g * plane, 1.0f, gw, range == 0 ? grad.stride_ : rows);
      if (din == nullptr) return;
      Matrix dcol(patch_grads + range * slot, shade::Shape2(rows, g * plane));
      shade::blas::Gemm<float>(true, false, rows, g * plane, cout_, 1.0f, w, ldw, dout_g, ld, 0.0f,
                               dcol.dptr_, g * plane);
      Tensor4 dimages = din->Slice(n0, n1);
      dimages = pack_col2patch(dcol, dimages.shape_, k_, k_, 1);
    });
    for (shade::index_t r = 1; r < ranges; ++r) {
      grad += Matrix(partials + (r - 1) * part, shade::Shape2(cout_, rows));
    }
    params_.grad_b() += sumall_except_dim<1>(dout);
    params_.EndGradient();
  }
  /*! \brief The layer's weights, bias and momentum. */
  WeightsAndBias& params() { return params_; }

 private:
  shade::index_t cin_, cout_, k_, oh_, ow_;
  WeightsAndBias params_;
  // Images per product: enough that the product has >= kGroupColumns columns, so packing W
  // (Eigen repacks it in every product) is amortised, while a group's patches (rows x
  // columns) stay in the L2 cache. Fixed per layer, so results do not depend on the threads.
  static constexpr shade::index_t kGroupColumns = 256;
  static shade::index_t GroupSize(shade::index_t plane) {
    return std::max<shade::index_t>(1, (kGroupColumns + plane - 1) / plane);
  }
  // Ranges of groups that ForEachGroup hands to the threads: one per thread, at most one per
  // group.
  static shade::index_t Ranges(shade::index_t b, shade::index_t plane) {
    const shade::index_t group = GroupSize(plane);
    const shade::index_t groups = (b + group - 1) / group;
    return std::max<shade::index_t>(
        1, std::min<shade::index_t>(groups, static_cast<shade::index_t>(shade::GetNumThreads())));
  }
  // Runs fn(n0, n1, r) for consecutive groups [n0, n1) of GroupSize images covering [0, b):
  // the groups are split into Ranges(b, plane) contiguous ranges, range r on one thread (r
  // names the range's buffers); inside, the GEMMs run on one thread each.
  template <typename F>
  static void ForEachGroup(shade::index_t b, shade::index_t plane, F fn) {
    const shade::index_t group = GroupSize(plane);
    const shade::index_t groups = (b + group - 1) / group;
    const shade::index_t ranges = Ranges(b, plane);
    shade::ParallelFor(0, ranges, 1, [&](shade::index_t begin, shade::index_t end) {
      for (shade::index_t r = begin; r < end; ++r) {
        for (shade::index_t g = r * groups / ranges; g < (r + 1) * groups / ranges; ++g) {
          fn(g * group, std::min(b, (g + 1) * group), r);
        }
      }
    });
  }
  // At least n floats of *buffer (grown on first use and when the thread count grows).
  static float* Scratch(std::vector<float>* buffer, shade::index_t n) {
    if (static_cast<shade::index_t>(buffer->size()) < n) buffer->resize(n);
    return buffer->data();
  }

  Tensor4 in_;                    // the input of the last Forward (read again by Backward)
  MatrixContainer tmp_;           // cout x (batch * oh * ow): products, output gradient
  std::vector<float> col_;        // per range of groups: the patches of its current group
  std::vector<float> col_grad_;   // per range of groups: d loss / d those patches
  std::vector<float> partial_w_;  // per range but the first: its part of the weight gradient
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
    // ReLU's gradient is taken on the pooled maxima, a quarter of the elements: an element
    // that unpool routes a gradient to equals its window's maximum, so relu_grad of the one is
    // relu_grad of the other, and the others receive 0 either way. Bit-identical to
    // unpool(...) * relu_grad(c) for these disjoint windows.
    Flat(dp2) *= F<relu_grad>(Flat(p2));
    dc2 = unpool<shade::red::maximum>(c2, p2, dp2, 2, 2, 2, 2);
    conv2_.Backward(dc2, &dp1, momentum);
    Flat(dp1) *= F<relu_grad>(Flat(p1));
    dc1 = unpool<shade::red::maximum>(c1, p1, dp1, 2, 2, 2, 2);
    conv1_.Backward(dc1, nullptr, momentum);
  }
  std::vector<LayerParameters> Parameters() override {
    return {{"conv1", &conv1_.params()}, {"conv2", &conv2_.params()}, {"fc", &fc_.params()}};
  }
  shade::NDArray GraphForward(const shade::NDArray& x,
                              const std::vector<shade::NDArray>& p) override {
    namespace F = shade::nn::functional;
    const shade::index_t b = x.size(0);
    const shade::NDArray img = x.reshape({b, 1, kImageSide, kImageSide});
    const shade::NDArray w1 = p[0].reshape({kC1, 1, 5, 5}), w2 = p[2].reshape({kC2, kC1, 5, 5});
    const shade::NDArray p1 = F::max_pool2d(F::relu(F::conv2d(img, w1, p[1])), {2, 2});
    const shade::NDArray p2 = F::max_pool2d(F::relu(F::conv2d(p1, w2, p[3])), {2, 2});
    return F::linear(p2.reshape({b, kFlat}), p[4].transpose(0, 1), p[5]);
  }

 private:
  // A contiguous activation as one vector: element-wise passes over 4x4 or 12x12 planes then
  // run as one long row instead of one short row per plane.
  static Vector Flat(const Tensor4& t) { return Vector(t.dptr_, shade::Shape1(t.shape_.Size())); }
  static constexpr shade::index_t kC1 = 32;             // channels of the first conv layer
  static constexpr shade::index_t kC2 = 64;             // channels of the second
  static constexpr shade::index_t kFlat = kC2 * 4 * 4;  // inputs of the dense layer
  Conv conv1_, conv2_;
  Dense fc_;
  Tensor4Container c1_, p1_, c2_, p2_, dc1_, dp1_, dc2_, dp2_;
};

}  // namespace fashion_mnist

#endif  // SHADE_EXAMPLES_FASHION_MNIST_CNN_H_
