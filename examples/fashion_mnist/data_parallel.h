/*!
 * \file data_parallel.h
 * \brief Data-parallel SGD for the example (--dist, --shards): the slices of each global batch
 *  are computed by several processes and their gradients combined before one update. The
 *  member functions are defined in data_parallel.cc: in a translation unit of their own they
 *  leave the plain training loop compiled exactly as before (GCC's default -ffp-contract=fast
 *  for C++ makes the bits of inlined float code depend on what else gets inlined).
 */
#ifndef SHADE_EXAMPLES_FASHION_MNIST_DATA_PARALLEL_H_
#define SHADE_EXAMPLES_FASHION_MNIST_DATA_PARALLEL_H_

#include <algorithm>
#include <cstddef>
#include <memory>
#include <vector>

#include "layers.h"

namespace fashion_mnist {

/*!
 * \brief How the processes of a data-parallel run combine their slices of a batch. The
 *  gradient buffer is cut into segments (each layer's W and b, then the loss); the MPI
 *  implementation is dist_exchange.h, LocalExchange below is the one-process stand-in.
 */
class GradientExchange {
 public:
  virtual ~GradientExchange() = default;
  /*! \brief This process's index. */
  virtual int rank() const = 0;
  /*! \brief Number of processes. */
  virtual int size() const = 0;
  /*! \brief The buffer whose segments SegmentReady / SumSegments refer to. */
  virtual void Setup(float* buffer, const std::vector<shade::index_t>& segment_sizes) = 0;
  /*! \brief Segment i holds its final local value (its reduction may start). */
  virtual void SegmentReady(std::size_t i) = 0;
  /*! \brief Every segment becomes the sum over the processes. */
  virtual void SumSegments() = 0;
  /*! \brief `all` (size() * n floats) receives every process's `mine` (n floats), rank order. */
  virtual void Allgather(const float* mine, shade::index_t n, float* all) = 0;
  /*! \brief Every process's `data` becomes process 0's. */
  virtual void Broadcast(float* data, shade::index_t n) = 0;
};

/*! \brief One process: sums and gathers are copies (for --shards without --dist). */
class LocalExchange : public GradientExchange {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  void Setup(float*, const std::vector<shade::index_t>&) override {}
  void SegmentReady(std::size_t) override {}
  void SumSegments() override {}
  void Allgather(const float* mine, shade::index_t n, float* all) override {
    std::copy(mine, mine + n, all);
  }
  void Broadcast(float*, shade::index_t) override {}
};

/*!
 * \brief Data-parallel SGD steps. Each global batch of B images is cut into slices; every
 *  process computes the gradients of its slices (divided by B, so that the slices add up to
 *  the batch's mean gradient) and the processes combine them before the same update:
 *  - `shards` 0: one slice per process, summed by bucketed non-blocking Allreduce that starts
 *    while the backward pass of the earlier layers still runs; the floating-point order of the
 *    sum is MPI's, so the result matches a one-process run to rounding.
 *  - `shards` S > 0 (a multiple of the process count): S slices, slice s on process s mod P;
 *    every process gathers all slice gradients and adds them in slice order 0..S-1. The
 *    arithmetic then depends only on S, not on P: P = 1 and P = 2 give the same bits.
 */
class DataParallel {
 public:
  /*! \brief Starts from process 0's weights (broadcast). */
  DataParallel(Model* model, std::unique_ptr<GradientExchange> exchange, int shards);
  /*! \brief Number of processes. */
  int size() const { return exchange_->size(); }
  /*! \brief This process's index. */
  int rank() const { return exchange_->rank(); }

  /*! \brief One SGD step on the global batch (x, labels); returns its mean cross-entropy. */
  float Step(const Matrix& x, const Vector& labels, float lr, float momentum);

 private:
  // Gradient of slice k of `parts` (rows [k B / parts, (k+1) B / parts)) into grad_; returns
  // the slice's share of the batch loss (its mean times its fraction of the batch).
  float Slice(const Matrix& x, const Vector& labels, int k, int parts);

  Model* model_;
  std::unique_ptr<GradientExchange> exchange_;
  int shards_;
  shade::index_t n_;
  std::vector<float> grad_;   // this process's gradient (then the sum), loss last
  std::vector<float> local_;  // ordered mode: this process's slices
  std::vector<float> all_;    // ordered mode: every process's slices
};

}  // namespace fashion_mnist

#endif  // SHADE_EXAMPLES_FASHION_MNIST_DATA_PARALLEL_H_
