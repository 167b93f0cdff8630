// Out-of-line members of DataParallel (data_parallel.h; its file comment says why they live in
// their own translation unit).
#include "data_parallel.h"

namespace fashion_mnist {

DataParallel::DataParallel(Model* model, std::unique_ptr<GradientExchange> exchange, int shards)
    : model_(model),
      exchange_(std::move(exchange)),
      shards_(shards),
      n_(model->NumParameters()),
      grad_(static_cast<std::size_t>(n_ + 1)) {
  const int p = exchange_->size();
  SHADE_CHECK(shards_ >= 0 && shards_ % p == 0)
      << "--shards=" << shards_ << " must be a multiple of the number of processes " << p;
  for (Matrix& w : model_->Weights()) exchange_->Broadcast(w.dptr_, w.shape_.Size());
  std::vector<shade::index_t> segments;
  for (const Matrix& w : model_->Weights()) segments.push_back(w.shape_.Size());
  segments.push_back(1);  // the loss
  exchange_->Setup(grad_.data(), segments);
  if (shards_ == 0) {
    GradientExchange* ex = exchange_.get();
    model_->KeepGradientsIn(grad_.data(), [ex](std::size_t layer) {
      ex->SegmentReady(2 * layer);
      ex->SegmentReady(2 * layer + 1);
    });
  } else {
    model_->KeepGradientsIn(grad_.data(), nullptr);
    const std::size_t local = static_cast<std::size_t>(shards_ / p);
    local_.resize(local * grad_.size());
    all_.resize(static_cast<std::size_t>(shards_) * grad_.size());
  }
}

float DataParallel::Step(const Matrix& x, const Vector& labels, float lr, float momentum) {
  const int p = exchange_->size(), r = exchange_->rank();
  float* loss = &grad_[static_cast<std::size_t>(n_)];
  if (shards_ == 0) {
    *loss = Slice(x, labels, r, p);
    exchange_->SegmentReady(2 * model_->NumLayers());
    exchange_->SumSegments();
  } else {
    const std::size_t len = grad_.size();
    for (int s = r, l = 0; s < shards_; s += p, ++l) {
      *loss = Slice(x, labels, s, shards_);
      std::copy(grad_.begin(), grad_.end(), local_.begin() + static_cast<std::ptrdiff_t>(l * len));
    }
    exchange_->Allgather(local_.data(), static_cast<shade::index_t>(local_.size()), all_.data());
    // all_ holds [process][local slice][len]; slice s is process s % p's (s / p)-th.
    for (int s = 0; s < shards_; ++s) {
      const float* g =
          all_.data() +
          (static_cast<std::size_t>(s % p) * (shards_ / p) + static_cast<std::size_t>(s / p)) * len;
      if (s == 0) {
        std::copy(g, g + len, grad_.begin());
      } else {
        for (std::size_t i = 0; i < len; ++i) grad_[i] += g[i];
      }
    }
  }
  model_->ApplyGradient(lr, momentum);
  return *loss;
}

float DataParallel::Slice(const Matrix& x, const Vector& labels, int k, int parts) {
  const shade::index_t batch = x.size(0);
  const shade::index_t begin = batch * k / parts, end = batch * (k + 1) / parts;
  if (begin == end) {
    std::fill(grad_.begin(), grad_.end(), 0.0f);
    return 0.0f;
  }
  const float mean = model_->ComputeGradient(x.Slice(begin, end), labels.Slice(begin, end), batch);
  return mean * static_cast<float>(end - begin) / static_cast<float>(batch);
}

}  // namespace fashion_mnist
