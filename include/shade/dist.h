/*!
 * \file dist.h
 * \brief `shade::dist`: collectives over MPI on NDArray, static Tensor and TBlob, for
 *  data-parallel training across processes and machines (docs/distributed.md).
 *
 * Optional component: built when CMake finds MPI (option SHADE_WITH_MPI), linked as
 * `shade::dist`. MPI itself stays behind this header (no mpi.h for users).
 *
 *   int main(int argc, char** argv) {
 *     shade::dist::Environment env = shade::dist::Init(&argc, &argv);  // finalises at scope end
 *     shade::dist::Communicator world = shade::dist::Communicator::World();
 *     world.Allreduce(grad, shade::dist::ReduceOp::kSum);               // in place, any dtype
 *   }
 *
 * Every rank of a communicator must call the same collectives in the same order with arrays of
 * the same dtype and shape. A mismatch is undefined in MPI (a hang or corrupt data); in checked
 * mode (`set_checked(true)`, or the environment variable SHADE_DIST_CHECK=1 for the
 * communicators World() returns) every collective first exchanges a small header (collective,
 * dtype, shape, root, operation) and every rank throws shade::Error naming what differs.
 * MPI errors are returned, not fatal (MPI_ERRORS_RETURN), and become shade::Error with MPI's
 * own error string.
 *
 * Arrays of any layout are accepted: a non-contiguous array is packed into a contiguous copy by
 * the library's copy (NDArray::contiguous / copy_), communicated, and copied back.
 * float16 and bfloat16 travel as 2-byte elements and are reduced by user-defined MPI
 * operations that compute in float and round each partial result back to 16 bits (MPI has no
 * 16-bit float type; keeping 2 bytes on the wire halves the traffic of converting to float).
 * bool reductions are logical: kSum and kMax are "or", kProd and kMin "and" (NumPy's).
 */
#ifndef SHADE_DIST_H_
#define SHADE_DIST_H_

#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "shade/ndarray/bridge.h"
#include "shade/ndarray/ndarray.h"
#include "shade/tensor/tensor.h"
#include "shade/tensor/tensor_blob.h"

namespace shade {
namespace dist {

/*! \brief Element-wise reduction of a collective. */
enum class ReduceOp { kSum = 0, kMax = 1, kMin = 2, kProd = 3 };

/*! \brief "sum", "max", "min" or "prod". */
const char* ReduceOpName(ReduceOp op);

/*!
 * \brief MPI's lifetime: Init starts MPI (unless it already runs) and the destructor finalises
 *  it when Init started it. Movable, not copyable; keep it alive while communicating.
 */
class Environment {
 public:
  /*! \brief Starts MPI with the program's arguments (either pointer may be null). */
  Environment(int* argc, char*** argv);
  /*! \brief Finalises MPI if this object started it. */
  ~Environment();
  /*! \brief Takes over the finalisation duty. */
  Environment(Environment&& other) noexcept;
  Environment(const Environment&) = delete;
  Environment& operator=(const Environment&) = delete;
  Environment& operator=(Environment&&) = delete;

 private:
  bool owns_ = false;
};

/*! \brief Starts MPI; the returned Environment finalises it at the end of its scope. */
inline Environment Init(int* argc, char*** argv) {
  return Environment(argc, argv);
}

/*! \brief True between MPI's initialisation and its finalisation. */
bool IsInitialized();

/*!
 * \brief Ends every process of the job with `code` (MPI_Abort): for an error on one rank
 *  while the others may be waiting in a collective.
 */
[[noreturn]] void Abort(int code);

/*!
 * \brief A non-blocking collective in flight. Wait() or a successful Test() completes it
 *  (copying results back into non-contiguous arrays). The destructor waits for an unfinished
 *  request, since MPI may still be writing into the arrays.
 */
class Request {
 public:
  /*! \brief A request that is already complete. */
  Request();
  ~Request();
  /*! \brief Takes over `other` (which becomes complete). */
  Request(Request&& other) noexcept;
  /*! \brief Waits for this request, then takes over `other`. */
  Request& operator=(Request&& other);
  Request(const Request&) = delete;
  Request& operator=(const Request&) = delete;
  /*! \brief Blocks until the collective has completed; throws shade::Error on an MPI error. */
  void Wait();
  /*! \brief True (and finished) when the collective has completed; never blocks. */
  bool Test();
  /*! \brief True after Wait() or a successful Test(). */
  bool done() const;

  /*! \brief Implementation detail (src/dist). */
  struct Impl;
  /*! \brief Implementation detail: wraps a started request. */
  explicit Request(std::unique_ptr<Impl> impl);

 private:
  std::unique_ptr<Impl> impl_;
};

/*!
 * \brief A group of MPI processes (an MPI communicator). Copies share the communicator, which
 *  is freed with the last copy. Every collective is called by every rank of the group.
 */
class Communicator {
 public:
  /*! \brief Every process of the job (MPI_COMM_WORLD); throws unless MPI is initialised. */
  static Communicator World();

  /*! \brief This process's index in [0, size()). */
  int rank() const;
  /*! \brief Number of processes. */
  int size() const;
  /*!
   * \brief New communicators, one per distinct `color` (>= 0), ranked by (key, old rank):
   *  MPI_Comm_split. Collective. The result inherits the checked flag.
   */
  Communicator Split(int color, int key) const;
  /*! \brief Returns once every rank has entered it. */
  void Barrier() const;
  /*! \brief Checked mode (see the file comment); costs one small allgather per collective. */
  void set_checked(bool checked);
  /*! \brief The checked flag. */
  bool checked() const;

  // ------------------------------------------------------------------ NDArray collectives
  /*! \brief x = op over every rank's x, in place, on every rank. */
  void Allreduce(const NDArray& x, ReduceOp op = ReduceOp::kSum) const;
  /*! \brief Every rank's x becomes root's x. */
  void Broadcast(const NDArray& x, int root) const;
  /*! \brief A new array of shape (size(), x.shape...) whose row r is rank r's x. */
  NDArray Allgather(const NDArray& x) const;
  /*!
   * \brief Reduces x (leading dimension size() * k) over the ranks and returns this rank's
   *  block of k rows of the result (MPI_Reduce_scatter_block).
   */
  NDArray ReduceScatter(const NDArray& x, ReduceOp op = ReduceOp::kSum) const;
  /*!
   * \brief On root: a new array of shape (size(), x.shape...) whose row r is rank r's x;
   *  on the other ranks an undefined NDArray.
   */
  NDArray Gather(const NDArray& x, int root) const;
  /*!
   * \brief Every rank's `dst` becomes row rank() of root's `src`, whose shape is
   *  (size(), dst.shape...) and dtype dst's. `src` is read on root only (may be undefined
   *  elsewhere).
   */
  void Scatter(const NDArray& src, const NDArray& dst, int root) const;
  /*! \brief Non-blocking Allreduce: x must stay alive and untouched until the request ends. */
  Request IAllreduce(const NDArray& x, ReduceOp op = ReduceOp::kSum) const;
  /*! \brief Non-blocking Broadcast (same rules as IAllreduce). */
  Request IBroadcast(const NDArray& x, int root) const;

  // ------------------------------------------------------------------ TBlob and Tensor
  /*! \brief Allreduce of a blob's memory (CPU, any row pitch). */
  void Allreduce(const TBlob& x, ReduceOp op = ReduceOp::kSum) const {
    Allreduce(FromTBlob(x), op);
  }
  /*! \brief Broadcast of a blob's memory. */
  void Broadcast(const TBlob& x, int root) const { Broadcast(FromTBlob(x), root); }
  /*! \brief Allgather of a blob; the result is a new NDArray. */
  NDArray Allgather(const TBlob& x) const { return Allgather(FromTBlob(x)); }
  /*! \brief ReduceScatter of a blob; the result is a new NDArray. */
  NDArray ReduceScatter(const TBlob& x, ReduceOp op = ReduceOp::kSum) const {
    return ReduceScatter(FromTBlob(x), op);
  }
  /*! \brief Gather of a blob; the result (root only) is a new NDArray. */
  NDArray Gather(const TBlob& x, int root) const { return Gather(FromTBlob(x), root); }
  /*! \brief Scatter into a blob (`src` is read on root only). */
  void Scatter(const TBlob& src, const TBlob& dst, int root) const {
    Scatter(rank() == root ? FromTBlob(src) : NDArray(), FromTBlob(dst), root);
  }
  /*! \brief Non-blocking Allreduce of a blob. */
  Request IAllreduce(const TBlob& x, ReduceOp op = ReduceOp::kSum) const {
    return IAllreduce(FromTBlob(x), op);
  }
  /*! \brief Allreduce of a static CPU tensor. */
  template <int N, typename DType>
  void Allreduce(const Tensor<cpu, N, DType>& x, ReduceOp op = ReduceOp::kSum) const {
    Allreduce(TBlob(x), op);
  }
  /*! \brief Broadcast of a static CPU tensor. */
  template <int N, typename DType>
  void Broadcast(const Tensor<cpu, N, DType>& x, int root) const {
    Broadcast(TBlob(x), root);
  }
  /*! \brief Allgather of a static CPU tensor (result: NDArray of shape (size(), x.shape...)). */
  template <int N, typename DType>
  NDArray Allgather(const Tensor<cpu, N, DType>& x) const {
    return Allgather(TBlob(x));
  }
  /*! \brief ReduceScatter of a static CPU tensor. */
  template <int N, typename DType>
  NDArray ReduceScatter(const Tensor<cpu, N, DType>& x, ReduceOp op = ReduceOp::kSum) const {
    return ReduceScatter(TBlob(x), op);
  }
  /*! \brief Gather of a static CPU tensor. */
  template <int N, typename DType>
  NDArray Gather(const Tensor<cpu, N, DType>& x, int root) const {
    return Gather(TBlob(x), root);
  }
  /*! \brief Scatter of root's static tensor (first dimension size()) into every rank's dst. */
  template <int N, int M, typename DType>
  void Scatter(const Tensor<cpu, N, DType>& src, const Tensor<cpu, M, DType>& dst, int root) const {
    Scatter(TBlob(src), TBlob(dst), root);
  }
  /*! \brief Non-blocking Allreduce of a static CPU tensor. */
  template <int N, typename DType>
  Request IAllreduce(const Tensor<cpu, N, DType>& x, ReduceOp op = ReduceOp::kSum) const {
    return IAllreduce(TBlob(x), op);
  }

  /*! \brief Implementation detail (src/dist). */
  struct Impl;
  /*! \brief Implementation detail. */
  explicit Communicator(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
  /*! \brief Implementation detail: the shared state. */
  Impl& impl() const;

 private:
  std::shared_ptr<Impl> impl_;
  bool checked_ = false;
};

/*!
 * \brief Allreduce of many arrays with few collectives (data-parallel gradients): the arrays
 *  are grouped, in the order given, into buckets of at most `bucket_bytes` (one dtype per
 *  bucket; a larger array gets a bucket of its own). When every array of a bucket has been
 *  marked ready, the bucket is packed into one buffer and its non-blocking Allreduce starts,
 *  so the reduction of late layers overlaps the backward pass of earlier ones. Wait() finishes
 *  every bucket and copies the results back into the arrays.
 */
class BucketedAllreduce {
 public:
  /*! \brief Plans the buckets; the arrays (CPU, numeric, any layout) must outlive this object. */
  BucketedAllreduce(Communicator comm, std::vector<NDArray> arrays, ReduceOp op,
                    std::size_t bucket_bytes = kDefaultBucketBytes);
  /*! \brief Waits for what is still in flight. */
  ~BucketedAllreduce();
  BucketedAllreduce(const BucketedAllreduce&) = delete;
  BucketedAllreduce& operator=(const BucketedAllreduce&) = delete;
  /*! \brief Array i holds its final local value for this round; may start its bucket. */
  void MarkReady(std::size_t i);
  /*! \brief Marks the arrays not yet ready, finishes every bucket, writes the results into
   *  the arrays and starts a new round. */
  void Wait();
  /*! \brief Number of buckets. */
  std::size_t num_buckets() const { return buckets_.size(); }
  /*! \brief Bucket of array i. */
  std::size_t bucket_of(std::size_t i) const;
  /*! \brief 1 MiB: the bucket the alpha-beta model of docs/design/distributed.md recommends. */
  static constexpr std::size_t kDefaultBucketBytes = std::size_t{1} << 20;

 private:
  struct Bucket {
    std::vector<std::size_t> members;  // indices into arrays_
    std::vector<index_t> offsets;      // element offset of each member in buffer
    NDArray buffer;                    // contiguous, one dtype
    std::size_t pending = 0;           // members not yet ready this round
    Request request;
  };
  void StartBucket(Bucket* b);
  Communicator comm_;
  std::vector<NDArray> arrays_;
  ReduceOp op_;
  std::vector<Bucket> buckets_;
  std::vector<std::size_t> bucket_of_;
  std::vector<bool> ready_;
};

}  // namespace dist
}  // namespace shade

#endif  // SHADE_DIST_H_
