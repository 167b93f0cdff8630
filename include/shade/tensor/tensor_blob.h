/*!
 * \file tensor_blob.h
 * \brief `TBlob`: a type-erased, device-tagged, non-owning view of a tensor of any rank, the
 *  currency between interfaces; convert it back to a typed `Tensor` with get / FlatTo2D /
 *  FlatTo3D / get_with_shape.
 *
 * Differences from the seed note: every conversion checks device, dtype, rank, contiguity
 * and size and throws shade::Error with the values (the note aborted); a rank-0 blob (a
 * scalar) is valid: its stride is 1 and the note's read of shape[-1] is avoided.
 */
#ifndef SHADE_TENSOR_TENSOR_BLOB_H_
#define SHADE_TENSOR_TENSOR_BLOB_H_

#include <string>

#include "shade/base/device.h"
#include "shade/base/dtype.h"
#include "shade/base/error.h"
#include "shade/base/index.h"
#include "shade/shape/shape.h"
#include "shade/shape/tshape.h"
#include "shade/tensor/stream.h"
#include "shade/tensor/tensor.h"

namespace shade {

/*! \brief Type-erased tensor view: data pointer, shape, row pitch, device mask, dtype flag. */
class TBlob {
 public:
  /*! \brief First element (of type given by type_flag_). */
  void* dptr_ = nullptr;
  /*! \brief Shape (any rank, 0 included). */
  TShape shape_;
  /*! \brief Distance in elements between consecutive innermost rows. */
  index_t stride_ = 1;
  /*! \brief Device of the memory (cpu::kDevMask or gpu::kDevMask). */
  int dev_mask_ = cpu::kDevMask;
  /*! \brief Element type (TypeFlag). */
  int type_flag_ = DataType<default_real_t>::kFlag;

  /*! \brief Null float blob of rank 0 on the CPU. */
  TBlob() = default;
  /*! \brief View of contiguous typed data. */
  template <typename DType>
  TBlob(DType* dptr, const TShape& shape, int dev_mask)
      : dptr_(dptr),
        shape_(shape),
        stride_(LastExtent(shape)),
        dev_mask_(dev_mask),
        type_flag_(DataType<DType>::kFlag) {
    CheckDevMask(dev_mask);
  }
  /*! \brief View of contiguous untyped data with an explicit dtype flag (checked). */
  TBlob(void* dptr, const TShape& shape, int dev_mask, int type_flag)
      : dptr_(dptr),
        shape_(shape),
        stride_(LastExtent(shape)),
        dev_mask_(dev_mask),
        type_flag_(type_flag) {
    CheckDevMask(dev_mask);
    SHADE_CHECK_TYPE(IsValidTypeFlag(type_flag))
        << "TBlob: unknown dtype flag " << type_flag << " (valid flags are 0.." << kNumTypeFlags - 1
        << ")";
  }
  /*! \brief View of a tensor (keeps its row pitch). */
  template <typename Device, int dim, typename DType>
  TBlob(const Tensor<Device, dim, DType>& src) {  // NOLINT(runtime/explicit)
    *this = src;
  }
  /*! \brief Becomes a view of `src`. */
  template <typename Device, int dim, typename DType>
  TBlob& operator=(const Tensor<Device, dim, DType>& src) {
    dptr_ = src.dptr_;
    shape_ = src.shape_;
    stride_ = src.stride_;
    dev_mask_ = Device::kDevMask;
    type_flag_ = DataType<DType>::kFlag;
    return *this;
  }

  /*! \brief True when rows are not padded (always for rank 0). */
  bool CheckContiguous() const { return shape_.ndim() == 0 || LastExtent(shape_) == stride_; }
  /*! \brief Rank. */
  int ndim() const { return static_cast<int>(shape_.ndim()); }
  /*! \brief Extent of dimension `idx`; throws when idx is outside [0, ndim). */
  index_t size(index_t idx) const { return shape_[idx]; }
  /*! \brief Number of elements (1 for rank 0); throws on overflow. */
  index_t Size() const { return static_cast<index_t>(shape_.Size()); }

  /*! \brief 2-D view: leading dimensions folded into rows (rank 0 gives 1 x 1). */
  template <typename Device, typename DType>
  Tensor<Device, 2, DType> FlatTo2D(Stream<Device>* stream = nullptr) const {
    CheckType<Device, DType>("TBlob::FlatTo2D");
    const Shape<2> s = shape_.ndim() == 0 ? Shape2(1, 1) : shape_.FlatTo2D();
    return Tensor<Device, 2, DType>(static_cast<DType*>(dptr_), s, stride_, stream);
  }
  /*! \brief 3-D view folding the axes before and after `axis`; needs contiguous data. */
  template <typename Device, typename DType>
  Tensor<Device, 3, DType> FlatTo3D(int axis, Stream<Device>* stream = nullptr) const {
    CheckAxes(axis, axis, "TBlob::FlatTo3D");
    return this->get_with_shape<Device, 3, DType>(shape_.FlatTo3D(axis), stream);
  }
  /*! \brief 3-D view: [0, axis_begin), [axis_begin, axis_end], (axis_end, ndim). */
  template <typename Device, typename DType>
  Tensor<Device, 3, DType> FlatTo3D(int axis_begin, int axis_end,
                                    Stream<Device>* stream = nullptr) const {
    CheckAxes(axis_begin, axis_end, "TBlob::FlatTo3D");
    return this->get_with_shape<Device, 3, DType>(shape_.FlatTo3D(axis_begin, axis_end), stream);
  }
  /*! \brief Typed view of rank `dim`; throws on a device, dtype or rank mismatch. */
  template <typename Device, int dim, typename DType>
  Tensor<Device, dim, DType> get(Stream<Device>* stream = nullptr) const {
    CheckType<Device, DType>("TBlob::get");
    SHADE_CHECK_SHAPE_EQ(shape_.ndim(), dim) << "TBlob::get: the blob of shape " << shape_
                                             << " has rank " << shape_.ndim() << ", not " << dim;
    return Tensor<Device, dim, DType>(static_cast<DType*>(dptr_), shape_.get<dim>(), stride_,
                                      stream);
  }
  /*!
   * \brief Typed view with another shape of the same size; throws unless the blob is
   *  contiguous and the sizes match.
   */
  template <typename Device, int dim, typename DType>
  Tensor<Device, dim, DType> get_with_shape(const Shape<dim>& shape,
                                            Stream<Device>* stream = nullptr) const {
    CheckType<Device, DType>("TBlob::get_with_shape");
    SHADE_CHECK_SHAPE(CheckContiguous())
        << "TBlob::get_with_shape: the blob of shape " << shape_ << " has padded rows (stride "
        << stride_ << "); it cannot be reshaped to " << shape;
    const index_t want = CheckedProduct(shape.shape_, dim, "TBlob::get_with_shape: shape size");
    SHADE_CHECK_SHAPE_EQ(Size(), want)
        << "TBlob::get_with_shape: new shape " << shape << " and blob shape " << shape_
        << " do not have the same number of elements";
    return Tensor<Device, dim, DType>(static_cast<DType*>(dptr_), shape, shape[dim - 1], stream);
  }

 private:
  static index_t LastExtent(const TShape& s) { return s.ndim() == 0 ? 1 : s[s.ndim() - 1]; }
  static void CheckDevMask(int dev_mask) {
    SHADE_CHECK(dev_mask == cpu::kDevMask || dev_mask == gpu::kDevMask)
        << "TBlob: unknown device mask " << dev_mask << " (cpu is " << cpu::kDevMask << ", gpu is "
        << gpu::kDevMask << ")";
  }
  void CheckAxes(int axis_begin, int axis_end, const char* where) const {
    SHADE_CHECK_SHAPE(0 <= axis_begin && axis_begin <= axis_end && axis_end < ndim())
        << where << ": axes [" << axis_begin << ", " << axis_end << "] invalid for a blob of shape "
        << shape_ << " (rank " << ndim() << ")";
  }
  template <typename Device, typename DType>
  void CheckType(const char* where) const {
    SHADE_CHECK_SHAPE_EQ(Device::kDevMask, dev_mask_)
        << where << ": device mismatch: the blob is on " << DevMaskName(dev_mask_)
        << ", the requested tensor on " << DevMaskName(Device::kDevMask);
    SHADE_CHECK_TYPE_EQ(DataType<DType>::kFlag, type_flag_)
        << where << ": dtype mismatch: the blob holds " << TypeFlagNameOrFlag(type_flag_)
        << ", the requested tensor is " << DataType<DType>::kName;
  }
  static std::string TypeFlagNameOrFlag(int flag) {
    return IsValidTypeFlag(flag) ? std::string(TypeFlagName(flag))
                                 : "unknown flag " + std::to_string(flag);
  }
};

}  // namespace shade

#endif  // SHADE_TENSOR_TENSOR_BLOB_H_
