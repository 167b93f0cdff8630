/*!
 * \file tensor_cpu.h
 * \brief Host memory for tensors: AllocSpace/FreeSpace/NewTensor/Copy, the owning
 *  TensorContainer, and the CPU stream/engine entry points (InitTensorEngine, NewStream, ...).
 *
 * Buffers are 64-byte aligned (memory/alloc.h). With `pad`, every innermost row starts on a
 * 64-byte boundary and `stride_` is the padded row length in elements.
 */
#ifndef SHADE_TENSOR_TENSOR_CPU_H_
#define SHADE_TENSOR_TENSOR_CPU_H_

#include <cstddef>
#include <cstring>
#include <type_traits>
#include <utility>

#include "shade/base/checked.h"
#include "shade/base/device.h"
#include "shade/base/error.h"
#include "shade/memory/alloc.h"
#include "shade/tensor/stream.h"
#include "shade/tensor/tensor.h"

namespace shade {

/*! \brief Initialises the tensor engine of a device; nothing to do on the CPU. */
template <typename Device>
inline void InitTensorEngine(int dev_id = 0) {
  static_assert(std::is_same<Device, cpu>::value,
                "shade: only the cpu engine is declared here (the gpu one: a SHADE_WITH_CUDA build "
                "and shade/tensor/tensor_gpu.h)");
  (void)dev_id;
}
/*! \brief Shuts the tensor engine of a device down; nothing to do on the CPU. */
template <typename Device>
inline void ShutdownTensorEngine() {
  static_assert(std::is_same<Device, cpu>::value,
                "shade: only the cpu engine is declared here (the gpu one: a SHADE_WITH_CUDA build "
                "and shade/tensor/tensor_gpu.h)");
}
/*! \brief Sets the current device; the CPU has one. */
template <typename Device>
inline void SetDevice(int devid) {
  static_assert(std::is_same<Device, cpu>::value,
                "shade: only the cpu engine is declared here (the gpu one: a SHADE_WITH_CUDA build "
                "and shade/tensor/tensor_gpu.h)");
  (void)devid;
}
/*! \brief Creates a stream (release it with DeleteStream). */
template <typename Device>
inline Stream<Device>* NewStream(bool create_blas_handle = true, bool create_dnn_handle = false,
                                 int dev_id = -1) {
  static_assert(std::is_same<Device, cpu>::value,
                "shade: only the cpu engine is declared here (the gpu one: a SHADE_WITH_CUDA build "
                "and shade/tensor/tensor_gpu.h)");
  (void)create_blas_handle;
  (void)create_dnn_handle;
  (void)dev_id;
  return new Stream<cpu>();
}
/*! \brief Releases a stream made by NewStream (null is allowed). */
template <typename Device>
inline void DeleteStream(Stream<Device>* stream) {
  delete stream;
}

/*!
 * \brief Allocates memory for `obj->shape_` (64-byte aligned) and sets dptr_ and stride_.
 *  With `pad`, each innermost row is padded to a multiple of 64 bytes. Throws shade::Error on
 *  a negative extent, an overflowing size or exhausted memory.
 */
template <int dim, typename DType>
inline void AllocSpace(Tensor<cpu, dim, DType>* obj, bool pad = true) {
  const index_t total = CheckedProduct(obj->shape_.shape_, dim, "AllocSpace: tensor size");
  const index_t row = obj->shape_[dim - 1];
  const index_t rows = row == 0 ? 0 : total / row;
  const index_t row_bytes =
      CheckedMul(row, static_cast<index_t>(sizeof(DType)), "AllocSpace: row bytes");
  if (pad && dim > 1) {
    std::size_t pitch = 0;
    void* p = AlignedMallocPitch(&pitch, static_cast<std::size_t>(row_bytes),
                                 static_cast<std::size_t>(rows));
    obj->dptr_ = static_cast<DType*>(p);
    obj->stride_ = static_cast<index_t>(pitch / sizeof(DType));
  } else {
    const index_t bytes =
        CheckedMul(total, static_cast<index_t>(sizeof(DType)), "AllocSpace: bytes");
    obj->dptr_ = static_cast<DType*>(AlignedAlloc(static_cast<std::size_t>(bytes)));
    obj->stride_ = row;
  }
}

/*! \brief Frees memory from AllocSpace and nulls dptr_. */
template <int dim, typename DType>
inline void FreeSpace(Tensor<cpu, dim, DType>* obj) {
  AlignedFree(obj->dptr_);
  obj->dptr_ = nullptr;
}

/*! \brief A new tensor of `shape` filled with `initv` (free it with FreeSpace). Any device
 *  with an AllocSpace overload (gpu: tensor/tensor_gpu.h; the fill then needs nvcc). */
template <typename Device, typename DType, int dim>
inline Tensor<Device, dim, DType> NewTensor(const Shape<dim>& shape, DType initv, bool pad = true,
                                            Stream<Device>* stream = nullptr) {
  Tensor<Device, dim, DType> obj(shape);
  obj.stream_ = stream;
  AllocSpace(&obj, pad);
  obj = initv;
  return obj;
}

/*!
 * \brief Copies the elements of `src` into `dst` (same shape, any row pitches); throws
 *  shade::Error naming both shapes when they differ.
 */
template <int dim, typename DType>
inline void Copy(Tensor<cpu, dim, DType> dst, const Tensor<cpu, dim, DType>& src,
                 Stream<cpu>* stream = nullptr) {
  (void)stream;
  SHADE_CHECK_SHAPE(dst.shape_ == src.shape_)
      << "Copy: shape mismatch: destination " << dst.shape_ << " vs source " << src.shape_;
  const Tensor<cpu, 2, DType> d = dst.FlatTo2D();
  const Tensor<cpu, 2, DType> s = src.FlatTo2D();
  const index_t rows = d.size(0), cols = d.size(1);
  if (rows == 0 || cols == 0) return;
  if (d.CheckContiguous() && s.CheckContiguous()) {
    std::memmove(d.dptr_, s.dptr_, static_cast<std::size_t>(rows * cols) * sizeof(DType));
    return;
  }
  for (index_t y = 0; y < rows; ++y) {
    std::memmove(d.dptr_ + y * d.stride_, s.dptr_ + y * s.stride_,
                 static_cast<std::size_t>(cols) * sizeof(DType));
  }
}

/*!
 * \brief An owning tensor: allocates in its constructor or Resize, frees in its destructor.
 *  Copying copies the elements; it is assignable from expressions like a Tensor.
 */
template <typename Device, int dimension, typename DType = default_real_t>
class TensorContainer;
// Defined in shade/io/binary.h (include it to call TensorContainer::SaveBinary / LoadBinary).
template <int dim, typename DType, typename TStream>
inline void SaveBinary(TStream& fo, const Tensor<cpu, dim, DType>& src);
template <int dim, typename DType, typename TStream>
inline void LoadBinary(TStream& fi, TensorContainer<cpu, dim, DType>* dst);

template <typename Device, int dimension, typename DType>
class TensorContainer : public Tensor<Device, dimension, DType> {
 public:
  static_assert(std::is_same<Device, cpu>::value,
                "shade: TensorContainer is cpu-only "
                "(on the gpu: NewTensor<gpu> / AllocSpace and FreeSpace)");
  /*! \brief Empty container; `pad` selects padded rows for later allocations. */
  explicit TensorContainer(bool pad = true) : pad_(pad) { this->dptr_ = nullptr; }
  /*! \brief Container of `shape` (elements uninitialised). */
  explicit TensorContainer(const Shape<dimension>& shape, bool pad = true) : pad_(pad) {
    this->dptr_ = nullptr;
    Resize(shape);
  }
  /*! \brief Container of `shape` filled with `initv`. */
  TensorContainer(const Shape<dimension>& shape, DType initv, bool pad = true) : pad_(pad) {
    this->dptr_ = nullptr;
    Resize(shape, initv);
  }
  /*! \brief Deep copy. */
  TensorContainer(const TensorContainer& src) : Tensor<Device, dimension, DType>(), pad_(src.pad_) {
    this->dptr_ = nullptr;
    Resize(src.shape_);
    Copy(Tensor<Device, dimension, DType>(*this), src);
  }
  /*! \brief Takes the other container's memory. */
  TensorContainer(TensorContainer&& src) noexcept
      : Tensor<Device, dimension, DType>(src), pad_(src.pad_), capacity_(src.capacity_) {
    src.dptr_ = nullptr;
    src.capacity_ = 0;
    for (int i = 0; i < dimension; ++i) src.shape_[i] = 0;
    src.stride_ = 0;
  }
  ~TensorContainer() { Release(); }

  /*! \brief Deep copy (reuses the memory when it is large enough). */
  TensorContainer& operator=(const TensorContainer& src) {
    if (this != &src) {
      Resize(src.shape_);
      Copy(Tensor<Device, dimension, DType>(*this), src);
    }
    return *this;
  }
  /*! \brief Move. */
  TensorContainer& operator=(TensorContainer&& src) noexcept {
    if (this != &src) {
      Release();
      static_cast<Tensor<Device, dimension, DType>&>(*this) = src;
      pad_ = src.pad_;
      capacity_ = src.capacity_;
      src.dptr_ = nullptr;
      src.capacity_ = 0;
      for (int i = 0; i < dimension; ++i) src.shape_[i] = 0;
      src.stride_ = 0;
    }
    return *this;
  }
  /*! \brief Evaluates an expression into the elements (shapes must match). */
  template <typename E, typename EDType, int etype>
  TensorContainer& operator=(const expr::Exp<E, EDType, etype>& exp) {
    this->Assign(exp);
    return *this;
  }
  /*! \brief Sets every element to `s`. */
  TensorContainer& operator=(const DType& s) {
    this->Assign(s);
    return *this;
  }

  /*!
   * \brief Changes the shape. Keeps the memory when it is large enough (the elements are then
   *  unspecified), else reallocates.
   */
  void Resize(const Shape<dimension>& shape) {
    Tensor<Device, dimension, DType> fresh(shape);
    const index_t row = shape[dimension - 1];
    const index_t rows = shape.ProdShape(0, dimension - 1);
    const index_t total = CheckedProduct(shape.shape_, dimension, "TensorContainer::Resize");
    index_t pitch = row;
    if (pad_ && dimension > 1) {  // the pitch AllocSpace would choose
      const index_t bytes = CheckedMul(row, static_cast<index_t>(sizeof(DType)));
      pitch = (bytes + static_cast<index_t>(kAlignBytes) - 1) / static_cast<index_t>(kAlignBytes) *
              static_cast<index_t>(kAlignBytes) / static_cast<index_t>(sizeof(DType));
    }
    const index_t need = dimension > 1 ? CheckedMul(pitch, rows) : total;
    if (this->dptr_ != nullptr && need <= capacity_) {
      this->shape_ = shape;
      this->stride_ = pitch;
      return;
    }
    AllocSpace(&fresh, pad_);
    Release();
    this->dptr_ = fresh.dptr_;
    this->shape_ = shape;
    this->stride_ = fresh.stride_;
    capacity_ = dimension > 1 ? CheckedMul(fresh.stride_, rows) : total;
  }
  /*! \brief Changes the shape and fills with `initv`. */
  void Resize(const Shape<dimension>& shape, DType initv) {
    Resize(shape);
    *this = initv;
  }
  /*! \brief Chooses padded rows for later allocations. */
  void set_pad(bool pad) { pad_ = pad; }
  /*! \brief Writes the contents in mshadow's binary format (needs shade/io/binary.h). */
  template <typename TStream>
  void SaveBinary(TStream& fo) const {
    ::shade::SaveBinary(fo, static_cast<const Tensor<Device, dimension, DType>&>(*this));
  }
  /*! \brief Reads mshadow's binary format, resizing to the stored shape (needs shade/io/binary.h).
   */
  template <typename TStream>
  void LoadBinary(TStream& fi) {
    ::shade::LoadBinary(fi, this);
  }
  /*! \brief Frees the memory; the container becomes empty. */
  void Release() {
    AlignedFree(this->dptr_);
    this->dptr_ = nullptr;
    for (int i = 0; i < dimension; ++i) this->shape_[i] = 0;
    this->stride_ = 0;
    capacity_ = 0;
  }

 private:
  bool pad_ = true;
  index_t capacity_ = 0;  // elements owned, padding included
};

}  // namespace shade

#endif  // SHADE_TENSOR_TENSOR_CPU_H_
