/*!
 * \file dist_exchange.h
 * \brief The MPI GradientExchange of the data-parallel trainer (data_parallel.h), over shade::dist.
 *  Only compiled when shade was built with MPI (SHADE_HAVE_DIST).
 */
#ifndef SHADE_EXAMPLES_FASHION_MNIST_DIST_EXCHANGE_H_
#define SHADE_EXAMPLES_FASHION_MNIST_DIST_EXCHANGE_H_

#include <cstring>
#include <memory>
#include <vector>

#include "data_parallel.h"
#include "shade/dist.h"

namespace fashion_mnist {

/*! \brief Gradient sums by bucketed non-blocking Allreduce, gathers by Allgather. */
class MpiExchange : public GradientExchange {
 public:
  /*! \brief Over `comm`, gradient buckets of `bucket_bytes`. */
  MpiExchange(shade::dist::Communicator comm, std::size_t bucket_bytes)
      : comm_(std::move(comm)), bucket_bytes_(bucket_bytes) {}
  int rank() const override { return comm_.rank(); }
  int size() const override { return comm_.size(); }
  void Setup(float* buffer, const std::vector<shade::index_t>& segment_sizes) override {
    // The layers' segments in reverse order: the backward pass finishes the last layers first,
    // so their bucket travels while the first layers' gradients are still being computed. The
    // loss (the last segment, known only after the backward pass) stays last.
    const std::size_t n = segment_sizes.size();
    order_.resize(n);
    for (std::size_t i = 0; i < n; ++i) order_[i] = i + 1 == n ? i : n - 2 - i;
    std::vector<shade::NDArray> segments(n);
    for (std::size_t i = 0; i < n; ++i) {
      segments[order_[i]] = Wrap(buffer, segment_sizes[i]);
      buffer += segment_sizes[i];
    }
    buckets_ = std::make_unique<shade::dist::BucketedAllreduce>(
        comm_, std::move(segments), shade::dist::ReduceOp::kSum, bucket_bytes_);
  }
  void SegmentReady(std::size_t i) override { buckets_->MarkReady(order_[i]); }
  void SumSegments() override { buckets_->Wait(); }
  void Allgather(const float* mine, shade::index_t n, float* all) override {
    const shade::NDArray gathered = comm_.Allgather(Wrap(const_cast<float*>(mine), n));
    if (n > 0) std::memcpy(all, gathered.data<float>(), sizeof(float) * n * comm_.size());
  }
  void Broadcast(float* data, shade::index_t n) override { comm_.Broadcast(Wrap(data, n), 0); }

 private:
  static shade::NDArray Wrap(float* data, shade::index_t n) {
    return shade::NDArray::FromBlob(data, {n}, shade::TypeMeta::Make<float>());
  }
  shade::dist::Communicator comm_;
  std::size_t bucket_bytes_;
  std::vector<std::size_t> order_;  // segment -> its place in the bucket plan
  std::unique_ptr<shade::dist::BucketedAllreduce> buckets_;
};

}  // namespace fashion_mnist

#endif  // SHADE_EXAMPLES_FASHION_MNIST_DIST_EXCHANGE_H_
