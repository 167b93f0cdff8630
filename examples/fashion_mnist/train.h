/*!
 * \file train.h
 * \brief The training loop: batches in a seeded random order, a progress bar (loss and
 *  images/s) while an epoch runs, and the test accuracy after it.
 */
#ifndef SHADE_EXAMPLES_FASHION_MNIST_TRAIN_H_
#define SHADE_EXAMPLES_FASHION_MNIST_TRAIN_H_

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "data.h"
#include "idx.h"
#include "layers.h"
#include "shade/backend/cpu/parallel.h"

namespace fashion_mnist {

/*! \brief A one-line progress bar redrawn in place (only meant for a terminal). */
class ProgressBar {
 public:
  /*! \brief `enabled` false makes every call a no-op. */
  ProgressBar(bool enabled, std::FILE* out) : enabled_(enabled), out_(out) {}
  /*! \brief Redraws at most every 100 ms (and always at the end). */
  void Update(int epoch, int epochs, std::int64_t done, std::int64_t total, double loss,
              double images_per_sec) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (done < total && now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    constexpr int kWidth = 30;
    const int filled = total > 0 ? static_cast<int>(kWidth * done / total) : kWidth;
    char bar[kWidth + 1];
    for (int i = 0; i < kWidth; ++i) bar[i] = i < filled ? '=' : (i == filled ? '>' : ' ');
    bar[kWidth] = '\0';
    std::fprintf(out_, "\repoch %d/%d [%s] %3d%%  loss %.4f  %.0f img/s\033[K", epoch, epochs, bar,
                 total > 0 ? static_cast<int>(100 * done / total) : 100, loss, images_per_sec);
    std::fflush(out_);
  }
  /*! \brief Clears the bar so the next line starts clean. */
  void Clear() {
    if (!enabled_) return;
    std::fprintf(out_, "\r\033[K");
    std::fflush(out_);
  }

 private:
  bool enabled_;
  std::FILE* out_;
  std::chrono::steady_clock::time_point last_{};
};

/*! \brief What one epoch measured. */
struct EpochStats {
  /*! \brief Mean training loss over the epoch. */
  double loss = 0;
  /*! \brief Wall time of the training loop (batch assembly included, evaluation excluded). */
  double seconds = 0;
  /*! \brief CPU time of the whole process over the training loop (all threads). */
  double cpu_seconds = 0;
  /*! \brief Images trained on. */
  std::int64_t images = 0;
};

/*! \brief Drives a Model over the data: epochs of SGD and test evaluation. */
class Trainer {
 public:
  /*! \brief `seed` fixes the image order of every epoch. */
  Trainer(Model* model, std::uint64_t seed)
      : model_(model), rng_(seed + 1),
        x_(shade::Shape2(model->max_batch(), kImageSize), false),
        y_(shade::Shape1(model->max_batch())),
        logits_(shade::Shape2(model->max_batch(), kClasses)) {}

  /*! \brief The SGD step of a batch from now on (data-parallel training; see
   *  data_parallel.h); empty: Model::TrainStep. */
  using StepFunction =
      std::function<float(const Matrix& x, const Vector& labels, float lr, float momentum)>;
  /*! \brief Replaces the step (empty restores Model::TrainStep). */
  void set_step(StepFunction step) { step_ = std::move(step); }

  /*! \brief One pass over the first `limit` training images (0: all) in a fresh random order. */
  EpochStats TrainEpoch(const Split& train, std::int64_t limit, float lr, float momentum,
                        int epoch, int epochs, ProgressBar* bar) {
    const std::int64_t n = limit > 0 && limit < train.count ? limit : train.count;
    EpochOrder(n, &rng_, &order_);
    const std::int64_t batch = model_->max_batch();
    EpochStats st;
    double loss_sum = 0;
    const double cpu0 = ProcessCpuSeconds();
    const auto t0 = std::chrono::steady_clock::now();
    for (std::int64_t start = 0; start < n; start += batch) {
      const std::int64_t b = std::min(batch, n - start);
      // The gather reads images scattered over the whole set (cache misses): split over the
      // threads, which would otherwise wait for it.
      shade::ParallelFor(0, b, 16, [&](shade::index_t i0, shade::index_t i1) {
        for (shade::index_t i = i0; i < i1; ++i) {
          const std::int64_t src = order_[static_cast<std::size_t>(start + i)];
          std::memcpy(x_[i].dptr_, train.images.data() + src * kImageSize,
                      sizeof(float) * kImageSize);
          y_[i] = static_cast<float>(train.labels[static_cast<std::size_t>(src)]);
        }
      });
      const float loss = step_ ? step_(x_.Slice(0, b), y_.Slice(0, b), lr, momentum)
                               : model_->TrainStep(x_.Slice(0, b), y_.Slice(0, b), lr, momentum);
      loss_sum += static_cast<double>(loss) * static_cast<double>(b);
      st.images += b;
      const double secs =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (bar != nullptr) {
        bar->Update(epoch, epochs, st.images, n, loss_sum / static_cast<double>(st.images),
                    secs > 0 ? static_cast<double>(st.images) / secs : 0.0);
      }
    }
    st.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    st.cpu_seconds = ProcessCpuSeconds() - cpu0;
    st.loss = st.images > 0 ? loss_sum / static_cast<double>(st.images) : 0.0;
    return st;
  }

  /*! \brief Fraction of the first `limit` test images (0: all) classified correctly. */
  double Evaluate(const Split& test, std::int64_t limit) {
    const std::int64_t n = limit > 0 && limit < test.count ? limit : test.count;
    const std::int64_t batch = model_->max_batch();
    std::int64_t correct = 0;
    for (std::int64_t start = 0; start < n; start += batch) {
      const std::int64_t b = std::min(batch, n - start);
      Matrix x(const_cast<float*>(test.images.data()) + start * kImageSize,
               shade::Shape2(b, kImageSize));
      Matrix logits = logits_.Slice(0, b);
      model_->Forward(x, &logits);
      for (std::int64_t i = 0; i < b; ++i) {
        correct += ArgMax(logits, i) == test.labels[static_cast<std::size_t>(start + i)];
      }
    }
    return n > 0 ? static_cast<double>(correct) / static_cast<double>(n) : 0.0;
  }

 private:
  Model* model_;
  StepFunction step_;
  std::mt19937_64 rng_;
  std::vector<std::int64_t> order_;
  MatrixContainer x_;
  VectorContainer y_;
  MatrixContainer logits_;
};

}  // namespace fashion_mnist

#endif  // SHADE_EXAMPLES_FASHION_MNIST_TRAIN_H_
