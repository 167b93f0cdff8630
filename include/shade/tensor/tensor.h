/*!
 * \file tensor.h
 * \brief `Tensor<Device, dim, DType>`: a non-owning view of a dense (optionally row-pitched)
 *  array, the destination and leaf of the expression templates.
 *
 * Layout: element (i0, ..., i_{dim-1}) lives at
 * `dptr_[(i0 * shape_[1] * ... * shape_[dim-2] + ... + i_{dim-2}) * stride_ + i_{dim-1}]`:
 * every innermost row starts `stride_` elements after the previous one (stride_ >= the row
 * length; larger when rows are padded for alignment).
 *
 * As in mshadow, assigning a Tensor to a Tensor rebinds the view (`a = b` copies the pointer,
 * not the data); use `Copy(a, b)` or `a = F<op::identity>(b)` to copy elements.
 */
#ifndef SHADE_TENSOR_TENSOR_H_
#define SHADE_TENSOR_TENSOR_H_

#include <cstddef>

#include "shade/base/device.h"
#include "shade/base/error.h"
#include "shade/base/index.h"
#include "shade/expr/engine.h"
#include "shade/expr/expression.h"
#include "shade/shape/shape.h"
#include "shade/tensor/stream.h"

/*! \brief 1: Tensor::operator[] checks its index (default without NDEBUG); define it to 0 or 1
 *  before including shade to choose. Tensor::at always checks. */
#ifndef SHADE_BOUNDS_CHECK
#ifdef NDEBUG
#define SHADE_BOUNDS_CHECK 0
#else
#define SHADE_BOUNDS_CHECK 1
#endif
#endif

namespace shade {

/*! \brief Tensor rvalue: base of every tensor-like container (an assignable expression). */
template <typename Container, typename Device, int dimension, typename DType>
struct TRValue : public expr::RValueExp<Container, DType> {};

/*! \brief A rank-`dimension` view of `DType` elements on `Device`; see the file comment. */
template <typename Device, int dimension, typename DType = default_real_t>
struct Tensor : public TRValue<Tensor<Device, dimension, DType>, Device, dimension, DType> {
 public:
  static_assert(dimension >= 1, "shade: Tensor needs rank >= 1 (use TBlob for rank 0)");
  /*! \brief Whether the data is host memory. */
  static constexpr bool kDevCPU = Device::kDevCPU;
  /*! \brief Rank of a sub-tensor (`operator[]`). */
  static constexpr int kSubdim = dimension - 1;

  /*! \brief First element. */
  DType* dptr_ = nullptr;
  /*! \brief Extents. */
  Shape<dimension> shape_;
  /*! \brief Distance in elements between consecutive innermost rows (the row pitch). */
  index_t stride_ = 0;
  /*! \brief Stream the work is issued on (null: the default stream). */
  Stream<Device>* stream_ = nullptr;

  /*! \brief Empty view: null data, all extents 0. */
  SHADE_XINLINE Tensor() {
    for (int i = 0; i < dimension; ++i) shape_[i] = 0;
  }
  /*! \brief A shape without data yet (AllocSpace fills dptr_ and stride_). */
  SHADE_XINLINE explicit Tensor(const Shape<dimension>& shape)
      : shape_(shape), stride_(shape[kSubdim]) {}
  /*! \brief View of contiguous data. */
  SHADE_XINLINE Tensor(DType* dptr, const Shape<dimension>& shape)
      : dptr_(dptr), shape_(shape), stride_(shape[kSubdim]) {}
  /*! \brief View of contiguous data on a stream. */
  SHADE_XINLINE Tensor(DType* dptr, const Shape<dimension>& shape, Stream<Device>* stream)
      : dptr_(dptr), shape_(shape), stride_(shape[kSubdim]), stream_(stream) {}
  /*! \brief View of row-pitched data: consecutive innermost rows are `stride` elements apart. */
  SHADE_XINLINE Tensor(DType* dptr, const Shape<dimension>& shape, index_t stride,
                       Stream<Device>* stream)
      : dptr_(dptr), shape_(shape), stride_(stride), stream_(stream) {}
  /*! \brief Copies the view (not the data). */
  Tensor(const Tensor&) = default;

  /*! \brief Sets the stream. */
  inline void set_stream(Stream<Device>* stream) { stream_ = stream; }
  /*! \brief Elements spanned in memory, padding included: stride_ * product of leading extents. */
  SHADE_XINLINE std::size_t MSize() const { return this->template MemSize<0>(); }
  /*! \brief Elements spanned by one index of dimension `startdim - 1` (padding included). */
  template <int startdim>
  SHADE_XINLINE std::size_t MemSize() const {
    std::size_t memsz = static_cast<std::size_t>(stride_);
    for (int i = startdim; i < kSubdim; ++i) memsz *= static_cast<std::size_t>(shape_[i]);
    return memsz;
  }
  /*! \brief True when rows are not padded (stride_ equals the row length). */
  SHADE_XINLINE bool CheckContiguous() const { return shape_[dimension - 1] == stride_; }
  /*! \brief Extent of dimension `idx`. */
  SHADE_XINLINE index_t size(index_t idx) const { return shape_[idx]; }
  /*! \brief All elements as one row; throws when padding would be read as data. */
  inline Tensor<Device, 1, DType> FlatTo1D() const {
    SHADE_CHECK_SHAPE(CheckContiguous() || shape_.ProdShape(0, kSubdim) <= 1)
        << "Tensor::FlatTo1D: tensor of shape " << shape_ << " has padded rows (stride " << stride_
        << "); a 1-D view would include the padding";
    return Tensor<Device, 1, DType>(dptr_, shape_.FlatTo1D(), stride_, stream_);
  }
  /*! \brief Leading dimensions folded into rows; keeps the row pitch. */
  SHADE_XINLINE Tensor<Device, 2, DType> FlatTo2D() const {
    return Tensor<Device, 2, DType>(dptr_, shape_.FlatTo2D(), stride_, stream_);
  }
  /*! \brief Sub-tensor `idx` of the first dimension; bounds-checked (shade::IndexError) when
   *  SHADE_BOUNDS_CHECK is 1 (the default of builds without NDEBUG), unchecked otherwise. */
  SHADE_XINLINE Tensor<Device, kSubdim, DType> operator[](index_t idx) const {
#if SHADE_BOUNDS_CHECK
    SHADE_CHECK_INDEX(0 <= idx && idx < shape_[0])
        << "Tensor::operator[]: index " << idx << " out of range for extent " << shape_[0]
        << " of shape " << shape_;
#endif
    return Tensor<Device, kSubdim, DType>(dptr_ + this->template MemSize<1>() * idx,
                                          shape_.SubShape(), stride_, stream_);
  }
  /*! \brief Sub-tensor `idx` of the first dimension, always bounds-checked (shade::IndexError). */
  inline Tensor<Device, kSubdim, DType> at(index_t idx) const {
    SHADE_CHECK_INDEX(0 <= idx && idx < shape_[0])
        << "Tensor::at: index " << idx << " out of range for extent " << shape_[0] << " of shape "
        << shape_;
    return Tensor<Device, kSubdim, DType>(dptr_ + this->template MemSize<1>() * idx,
                                          shape_.SubShape(), stride_, stream_);
  }
  /*! \brief Indices [begin, end) of the first dimension; throws when out of range. */
  inline Tensor<Device, dimension, DType> Slice(index_t begin, index_t end) const {
    SHADE_CHECK_SHAPE(0 <= begin && begin <= end && end <= shape_[0])
        << "Tensor::Slice: range [" << begin << ", " << end << ") outside [0, " << shape_[0]
        << "] of shape " << shape_;
    Shape<dimension> s = shape_;
    s[0] = end - begin;
    return Tensor<Device, dimension, DType>(dptr_ + this->template MemSize<1>() * begin, s, stride_,
                                            stream_);
  }
  /*! \brief Rebinds this view to `other`'s data (mshadow semantics; copies no element). */
  Tensor& operator=(const Tensor& other) = default;
  /*! \brief Evaluates an expression into the viewed elements. */
  template <typename E, typename EDType, int etype>
  inline Tensor& operator=(const expr::Exp<E, EDType, etype>& exp) {
    return this->Assign(exp);
  }
  /*! \brief Sets every viewed element to `s`. */
  inline Tensor& operator=(const DType& s) {
    return this->Assign(s);
  }
};

/*! \brief The rank-1 view: `operator[]` gives elements, the stride is irrelevant. */
template <typename Device, typename DType>
struct Tensor<Device, 1, DType> : public TRValue<Tensor<Device, 1, DType>, Device, 1, DType> {
 public:
  /*! \brief Whether the data is host memory. */
  static constexpr bool kDevCPU = Device::kDevCPU;
  /*! \brief Rank of an element. */
  static constexpr int kSubdim = 0;

  /*! \brief First element. */
  DType* dptr_ = nullptr;
  /*! \brief Extent. */
  Shape<1> shape_;
  /*! \brief Kept for uniformity with higher ranks (a single row has no pitch to skip). */
  index_t stride_ = 0;
  /*! \brief Stream the work is issued on. */
  Stream<Device>* stream_ = nullptr;

  /*! \brief Empty view. */
  SHADE_XINLINE Tensor() { shape_[0] = 0; }
  /*! \brief A shape without data yet. */
  SHADE_XINLINE explicit Tensor(const Shape<1>& shape) : shape_(shape), stride_(shape[0]) {}
  /*! \brief View of `shape[0]` elements. */
  SHADE_XINLINE Tensor(DType* dptr, Shape<1> shape)
      : dptr_(dptr), shape_(shape), stride_(shape[0]) {}
  /*! \brief View on a stream. */
  SHADE_XINLINE Tensor(DType* dptr, Shape<1> shape, Stream<Device>* stream)
      : dptr_(dptr), shape_(shape), stride_(shape[0]), stream_(stream) {}
  /*! \brief View with an explicit stride (as produced by FlatTo1D of a single padded row). */
  SHADE_XINLINE Tensor(DType* dptr, Shape<1> shape, index_t stride, Stream<Device>* stream)
      : dptr_(dptr), shape_(shape), stride_(stride), stream_(stream) {}
  /*! \brief Copies the view (not the data). */
  Tensor(const Tensor&) = default;

  /*! \brief Sets the stream. */
  inline void set_stream(Stream<Device>* stream) { stream_ = stream; }
  /*! \brief Itself. */
  SHADE_XINLINE Tensor<Device, 1, DType> FlatTo1D() const { return *this; }
  /*! \brief One row. */
  SHADE_XINLINE Tensor<Device, 2, DType> FlatTo2D() const {
    return Tensor<Device, 2, DType>(dptr_, shape_.FlatTo2D(), stride_, stream_);
  }
  /*! \brief Elements [begin, end); throws when out of range. */
  inline Tensor<Device, 1, DType> Slice(index_t begin, index_t end) const {
    SHADE_CHECK_SHAPE(0 <= begin && begin <= end && end <= shape_[0])
        << "Tensor::Slice: range [" << begin << ", " << end << ") outside [0, " << shape_[0]
        << "] of shape " << shape_;
    Shape<1> s;
    s[0] = end - begin;
    return Tensor<Device, 1, DType>(dptr_ + begin, s, s[0], stream_);
  }
  /*! \brief Always true: one row has no padding between rows. */
  SHADE_XINLINE bool CheckContiguous() const { return true; }
  /*! \brief Number of elements. */
  SHADE_XINLINE std::size_t MSize() const { return static_cast<std::size_t>(shape_[0]); }
  /*! \brief Number of elements (for uniformity with higher ranks). */
  template <int startdim>
  SHADE_XINLINE std::size_t MemSize() const {
    return static_cast<std::size_t>(shape_[0]);
  }
  /*! \brief Extent (the only dimension). */
  SHADE_XINLINE index_t size(index_t /*idx*/) const { return shape_[0]; }
  /*! \brief Element `idx`; bounds-checked (shade::IndexError) when SHADE_BOUNDS_CHECK is 1 (the
   *  default of builds without NDEBUG). A view: constness is the data's. */
  SHADE_XINLINE DType& operator[](index_t idx) const {
#if SHADE_BOUNDS_CHECK
    SHADE_CHECK_INDEX(0 <= idx && idx < shape_[0])
        << "Tensor::operator[]: index " << idx << " out of range for length " << shape_[0];
#endif
    return dptr_[idx];
  }
  /*! \brief Element `idx`, always bounds-checked (shade::IndexError). */
  inline DType& at(index_t idx) const {
    SHADE_CHECK_INDEX(0 <= idx && idx < shape_[0])
        << "Tensor::at: index " << idx << " out of range for length " << shape_[0];
    return dptr_[idx];
  }
  /*! \brief Rebinds this view to `other`'s data (copies no element). */
  Tensor& operator=(const Tensor& other) = default;
  /*! \brief Evaluates an expression into the viewed elements. */
  template <typename E, typename EDType, int etype>
  inline Tensor& operator=(const expr::Exp<E, EDType, etype>& exp) {
    return this->Assign(exp);
  }
  /*! \brief Sets every element to `s`. */
  inline Tensor& operator=(const DType& s) {
    return this->Assign(s);
  }
};

}  // namespace shade

#endif  // SHADE_TENSOR_TENSOR_H_
