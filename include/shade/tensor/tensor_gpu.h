/*!
 * \file tensor_gpu.h
 * \brief The gpu device of the static front end (a SHADE_WITH_CUDA build; docs/gpu.md):
 *  `Stream<gpu>`, InitTensorEngine/ShutdownTensorEngine/SetDevice/NewStream for gpu, pitched
 *  AllocSpace/FreeSpace, Copy between cpu and gpu in every direction, pinned host tensors, the
 *  cuBLAS dot backend and the matrix sums. Host-compilable (a .cc file may call all of it);
 *  assigning an expression to a gpu tensor also needs nvcc: include tensor/tensor_gpu.cuh in a
 *  .cu file.
 *
 * Streams and ordering: work on a gpu tensor is issued on its `stream_` (null: the legacy
 * default stream, which orders against every other blocking stream). Kernels, products and
 * copies with a stream return at once; `stream->Wait()` waits. Copy with a null stream is
 * synchronous. Copies from pageable host memory are safe to reuse the source as soon as Copy
 * returns (CUDA stages them), but only copies from or to pinned memory (AllocHostPinned) overlap
 * with the host.
 */
#ifndef SHADE_TENSOR_TENSOR_GPU_H_
#define SHADE_TENSOR_TENSOR_GPU_H_

#if !defined(SHADE_WITH_CUDA) || !SHADE_WITH_CUDA
#error "shade/tensor/tensor_gpu.h needs a SHADE_WITH_CUDA build of shade (docs/gpu.md)"
#endif

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <type_traits>

#include "shade/backend/cuda/blas.h"
#include "shade/backend/cuda/reduce.h"
#include "shade/backend/cuda/runtime.h"
#include "shade/base/checked.h"
#include "shade/base/device.h"
#include "shade/base/error.h"
#include "shade/expr/dot.h"
#include "shade/tensor/stream.h"
#include "shade/tensor/tensor.h"
#include "shade/tensor/tensor_cpu.h"

namespace shade {

/*! \brief A CUDA stream with its own cuBLAS handle (release it with DeleteStream). */
template <>
struct Stream<gpu> {
  /*! \brief The CUDA stream (null: the legacy default stream). */
  cudaStream_t stream_ = nullptr;
  /*! \brief cuBLAS handle bound to stream_ (null until CreateBlasHandle). */
  cublasHandle_t blas_handle_ = nullptr;
  /*! \brief Device the stream was created on. */
  int dev_id_ = 0;

  /*! \brief No stream yet (NewStream<gpu> creates one). */
  Stream() = default;
  /*! \brief Not copyable: the stream and handle have one owner. */
  Stream(const Stream&) = delete;
  /*! \brief Not copyable. */
  Stream& operator=(const Stream&) = delete;
  /*! \brief Destroys the cuBLAS handle and the stream (errors are ignored: a destructor). */
  ~Stream() {
    if (blas_handle_ != nullptr) (void)cublasDestroy(blas_handle_);
    if (stream_ != nullptr) (void)cudaStreamDestroy(stream_);
  }
  /*! \brief Waits for all work issued on the stream; throws shade::Error on a CUDA error. */
  void Wait() { SHADE_CUDA_CALL(cudaStreamSynchronize(stream_)); }
  /*! \brief True when all work on the stream is done. */
  bool CheckIdle() {
    const cudaError_t st = cudaStreamQuery(stream_);
    if (st == cudaErrorNotReady) return false;
    SHADE_CUDA_CALL(st);
    return true;
  }
  /*! \brief Creates the stream's cuBLAS handle (once) and binds it to the stream. */
  void CreateBlasHandle() {
    if (blas_handle_ != nullptr) return;
    SHADE_CUBLAS_CALL(cublasCreate(&blas_handle_));
    SHADE_CUBLAS_CALL(cublasSetStream(blas_handle_, stream_));
  }
  /*! \brief The CUDA stream of `s` (null: the legacy default stream). */
  static cudaStream_t GetStream(Stream<gpu>* s) { return s != nullptr ? s->stream_ : nullptr; }
  /*! \brief The cuBLAS handle for work on `s`: its own, or the thread's default-stream handle. */
  static cublasHandle_t GetBlasHandle(Stream<gpu>* s) {
    if (s != nullptr && s->blas_handle_ != nullptr) return s->blas_handle_;
    return cuda::DefaultBlasHandle();
  }
};

/*! \brief Selects device `dev_id` and creates its CUDA context; throws shade::Error naming the
 *  device count when there is no such device. */
template <>
inline void InitTensorEngine<gpu>(int dev_id) {
  cuda::SetDevice(dev_id);
  SHADE_CUDA_CALL(cudaFree(nullptr));  // creates the context now, not in the first kernel
}
/*! \brief Waits for the current device's work; the context stays for other users. */
template <>
inline void ShutdownTensorEngine<gpu>() {
  SHADE_CUDA_CALL(cudaDeviceSynchronize());
}
/*! \brief Makes `devid` the calling thread's device. */
template <>
inline void SetDevice<gpu>(int devid) {
  cuda::SetDevice(devid);
}
/*!
 * \brief A new CUDA stream on device `dev_id` (-1: the current one), with a cuBLAS handle when
 *  `create_blas_handle`. cuDNN handles are not part of shade: `create_dnn_handle` throws
 *  shade::NotImplementedError.
 */
template <>
inline Stream<gpu>* NewStream<gpu>(bool create_blas_handle, bool create_dnn_handle, int dev_id) {
  SHADE_CHECK_NOT_IMPLEMENTED(!create_dnn_handle)
      << "NewStream<gpu>: cuDNN handles are not part of shade (create_dnn_handle must be false)";
  if (dev_id >= 0) cuda::SetDevice(dev_id);
  auto* s = new Stream<gpu>();
  try {
    SHADE_CUDA_CALL(cudaGetDevice(&s->dev_id_));
    SHADE_CUDA_CALL(cudaStreamCreate(&s->stream_));
    if (create_blas_handle) s->CreateBlasHandle();
  } catch (...) {
    delete s;
    throw;
  }
  return s;
}

/*!
 * \brief Allocates device memory for `obj->shape_` and sets dptr_ and stride_. With `pad` (and
 *  rank > 1) rows are pitched by cudaMallocPitch (stride_ is the pitch in elements); else one
 *  dense block. Goes through the allocation cap; throws shade::Error on a negative extent, an
 *  overflowing size or an exhausted device, naming the size.
 */
template <int dim, typename DType>
inline void AllocSpace(Tensor<gpu, dim, DType>* obj, bool pad = true) {
  const index_t total = CheckedProduct(obj->shape_.shape_, dim, "AllocSpace<gpu>: tensor size");
  const index_t row = obj->shape_[dim - 1];
  const index_t rows = row == 0 ? 0 : total / row;
  const index_t row_bytes =
      CheckedMul(row, static_cast<index_t>(sizeof(DType)), "AllocSpace<gpu>: row bytes");
  if (pad && dim > 1 && total > 0) {
    std::size_t pitch = 0;
    void* p = cuda::DeviceAllocPitch(&pitch, static_cast<std::size_t>(row_bytes),
                                     static_cast<std::size_t>(rows));
    // cudaMallocPitch's pitch is a multiple of the texture alignment (512 bytes), so of sizeof.
    obj->dptr_ = static_cast<DType*>(p);
    obj->stride_ = static_cast<index_t>(pitch / sizeof(DType));
  } else {
    const index_t bytes =
        CheckedMul(total, static_cast<index_t>(sizeof(DType)), "AllocSpace<gpu>: bytes");
    obj->dptr_ = static_cast<DType*>(cuda::DeviceAlloc(static_cast<std::size_t>(bytes)));
    obj->stride_ = row;
  }
}

/*! \brief Frees memory from AllocSpace<gpu> and nulls dptr_. */
template <int dim, typename DType>
inline void FreeSpace(Tensor<gpu, dim, DType>* obj) {
  cuda::DeviceFree(obj->dptr_);
  obj->dptr_ = nullptr;
}

/*!
 * \brief Allocates page-locked host memory for a cpu tensor (dense rows): the host side of
 *  copies that overlap with the host. Release it with FreeHostPinned, not FreeSpace.
 */
template <int dim, typename DType>
inline void AllocHostPinned(Tensor<cpu, dim, DType>* obj) {
  const index_t total = CheckedProduct(obj->shape_.shape_, dim, "AllocHostPinned: tensor size");
  const index_t bytes =
      CheckedMul(total, static_cast<index_t>(sizeof(DType)), "AllocHostPinned: bytes");
  obj->dptr_ = static_cast<DType*>(cuda::PinnedAlloc(static_cast<std::size_t>(bytes)));
  obj->stride_ = obj->shape_[dim - 1];
}
/*! \brief Frees memory from AllocHostPinned and nulls dptr_. */
template <int dim, typename DType>
inline void FreeHostPinned(Tensor<cpu, dim, DType>* obj) {
  cuda::PinnedFree(obj->dptr_);
  obj->dptr_ = nullptr;
}

namespace detail {
/*! \brief cudaMemcpy2D(Async) of two row-pitched tensors of one shape (throws on a mismatch). */
template <typename DevD, typename DevS, int dim, typename DType>
inline void CopyPitched(const Tensor<DevD, dim, DType>& dst, const Tensor<DevS, dim, DType>& src,
                        cudaMemcpyKind kind, cudaStream_t stream, bool async) {
  SHADE_CHECK_SHAPE(dst.shape_ == src.shape_)
      << "Copy: shape mismatch: destination " << dst.shape_ << " vs source " << src.shape_;
  const Tensor<DevD, 2, DType> d = dst.FlatTo2D();
  const Tensor<DevS, 2, DType> s = src.FlatTo2D();
  const index_t rows = d.size(0), cols = d.size(1);
  if (rows == 0 || cols == 0) return;
  const std::size_t width = static_cast<std::size_t>(cols) * sizeof(DType);
  const std::size_t dpitch = static_cast<std::size_t>(d.stride_) * sizeof(DType);
  const std::size_t spitch = static_cast<std::size_t>(s.stride_) * sizeof(DType);
  if (async) {
    SHADE_CUDA_CALL(cudaMemcpy2DAsync(d.dptr_, dpitch, s.dptr_, spitch, width,
                                      static_cast<std::size_t>(rows), kind, stream));
  } else {
    SHADE_CUDA_CALL(cudaMemcpy2D(d.dptr_, dpitch, s.dptr_, spitch, width,
                                 static_cast<std::size_t>(rows), kind));
  }
}
/*! \brief The stream a copy runs on: the argument, else the destination's, else the source's. */
template <typename TD, typename TS>
inline Stream<gpu>* CopyStream(Stream<gpu>* given, const TD& dst, const TS& src) {
  if (given != nullptr) return given;
  if constexpr (std::is_same<decltype(dst.stream_), Stream<gpu>*>::value) {
    if (dst.stream_ != nullptr) return dst.stream_;
  }
  if constexpr (std::is_same<decltype(src.stream_), Stream<gpu>*>::value) {
    if (src.stream_ != nullptr) return src.stream_;
  }
  return nullptr;
}
}  // namespace detail

/*!
 * \brief Host to device: copies `src` into `dst` (same shape, any row pitches). On a stream
 *  (the argument, else dst's) the copy is asynchronous; without one it is synchronous. Throws
 *  shade::ShapeError naming both shapes when they differ.
 */
template <int dim, typename DType>
inline void Copy(Tensor<gpu, dim, DType> dst, const Tensor<cpu, dim, DType>& src,
                 Stream<gpu>* stream = nullptr) {
  Stream<gpu>* s = detail::CopyStream(stream, dst, src);
  detail::CopyPitched(dst, src, cudaMemcpyHostToDevice, Stream<gpu>::GetStream(s), s != nullptr);
}
/*! \brief Device to host; as the host-to-device Copy (the stream: the argument, else src's). */
template <int dim, typename DType>
inline void Copy(Tensor<cpu, dim, DType> dst, const Tensor<gpu, dim, DType>& src,
                 Stream<gpu>* stream = nullptr) {
  Stream<gpu>* s = detail::CopyStream(stream, dst, src);
  detail::CopyPitched(dst, src, cudaMemcpyDeviceToHost, Stream<gpu>::GetStream(s), s != nullptr);
}
/*! \brief Device to device (one device, or peers with access); always asynchronous, on the
 *  stream given, else dst's, else src's, else the default stream. */
template <int dim, typename DType>
inline void Copy(Tensor<gpu, dim, DType> dst, const Tensor<gpu, dim, DType>& src,
                 Stream<gpu>* stream = nullptr) {
  Stream<gpu>* s = detail::CopyStream(stream, dst, src);
  detail::CopyPitched(dst, src, cudaMemcpyDeviceToDevice, Stream<gpu>::GetStream(s), true);
}

namespace expr {
/*! \brief The gpu products: cuBLAS (backend/cuda/blas.h) on the destination's stream. */
template <>
struct DotBackend<gpu> {
  /*! \brief Products exist. */
  static constexpr bool kAvailable = true;
  /*! \brief cuda::blas::Gemm. */
  template <typename T>
  static void Gemm(Stream<gpu>* s, bool ta, bool tb, index_t m, index_t n, index_t k, T alpha,
                   const T* a, index_t lda, const T* b, index_t ldb, T beta, T* c, index_t ldc) {
    cuda::blas::Gemm<T>(Stream<gpu>::GetBlasHandle(s), Stream<gpu>::GetStream(s), ta, tb, m, n, k,
                        alpha, a, lda, b, ldb, beta, c, ldc);
  }
  /*! \brief cuda::blas::Gemv. */
  template <typename T>
  static void Gemv(Stream<gpu>* s, bool ta, index_t rows, index_t cols, T alpha, const T* a,
                   index_t lda, const T* x, index_t incx, T beta, T* y, index_t incy) {
    cuda::blas::Gemv<T>(Stream<gpu>::GetBlasHandle(s), Stream<gpu>::GetStream(s), ta, rows, cols,
                        alpha, a, lda, x, incx, beta, y, incy);
  }
  /*! \brief cuda::blas::Ger. */
  template <typename T>
  static void Ger(Stream<gpu>* s, index_t rows, index_t cols, T alpha, const T* x, index_t incx,
                  const T* y, index_t incy, T* a, index_t lda) {
    cuda::blas::Ger<T>(Stream<gpu>::GetBlasHandle(s), Stream<gpu>::GetStream(s), rows, cols, alpha,
                       x, incx, y, incy, a, lda);
  }
  /*! \brief cuda::blas::BatchGemm. */
  template <typename T>
  static void BatchGemm(Stream<gpu>* s, bool ta, bool tb, index_t batch, index_t m, index_t n,
                        index_t k, T alpha, const T* a, index_t lda, index_t sa, const T* b,
                        index_t ldb, index_t sb, T beta, T* c, index_t ldc, index_t sc) {
    cuda::blas::BatchGemm<T>(Stream<gpu>::GetBlasHandle(s), Stream<gpu>::GetStream(s), ta, tb,
                             batch, m, n, k, alpha, a, lda, sa, b, ldb, sb, beta, c, ldc, sc);
  }
  /*! \brief Sets a 2-D tensor to zero (cudaMemset2DAsync; all-zero bits are 0.0). */
  template <typename DType>
  static void Zero(const Tensor<gpu, 2, DType>& t) {
    if (t.size(0) == 0 || t.size(1) == 0) return;
    SHADE_CUDA_CALL(cudaMemset2DAsync(t.dptr_, static_cast<std::size_t>(t.stride_) * sizeof(DType),
                                      0, static_cast<std::size_t>(t.size(1)) * sizeof(DType),
                                      static_cast<std::size_t>(t.size(0)),
                                      Stream<gpu>::GetStream(t.stream_)));
  }
};
}  // namespace expr

/*!
 * \brief `dst = scale * (sum over the rows of src) [+ beta * dst]`: the column sums of a matrix
 *  (what `sum_rows(src)` gives on the cpu), on dst's stream. float and double; throws
 *  shade::ShapeError when dst's length is not src's column count.
 */
template <typename DType>
inline void ReduceSumRows(Tensor<gpu, 1, DType> dst, const Tensor<gpu, 2, DType>& src,
                          DType scale = DType(1), DType beta = DType(0)) {
  static_assert(cuda::kSumSupported<DType>, "shade: gpu sums support float and double");
  SHADE_CHECK_SHAPE(dst.size(0) == src.size(1))
      << "ReduceSumRows<gpu>: destination shape " << dst.shape_ << " differs from the "
      << src.size(1) << " columns of the source of shape " << src.shape_;
  cuda::SumOverRows<DType>(src.dptr_, src.size(0), src.size(1), src.stride_, dst.dptr_, scale, beta,
                           Stream<gpu>::GetStream(dst.stream_));
}
/*!
 * \brief `dst = scale * (sum over the columns of src) [+ beta * dst]`: the row sums of a matrix,
 *  on dst's stream. float and double; throws shade::ShapeError when dst's length is not src's
 *  row count.
 */
template <typename DType>
inline void ReduceSumCols(Tensor<gpu, 1, DType> dst, const Tensor<gpu, 2, DType>& src,
                          DType scale = DType(1), DType beta = DType(0)) {
  static_assert(cuda::kSumSupported<DType>, "shade: gpu sums support float and double");
  SHADE_CHECK_SHAPE(dst.size(0) == src.size(0))
      << "ReduceSumCols<gpu>: destination shape " << dst.shape_ << " differs from the "
      << src.size(0) << " rows of the source of shape " << src.shape_;
  cuda::SumOverCols<DType>(src.dptr_, src.size(0), src.size(1), src.stride_, dst.dptr_, scale, beta,
                           Stream<gpu>::GetStream(dst.stream_));
}

}  // namespace shade

#endif  // SHADE_TENSOR_TENSOR_GPU_H_
