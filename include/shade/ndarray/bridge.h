/*!
 * \file bridge.h
 * \brief NDArray <-> TBlob <-> Tensor<Device, N, DType>: the dynamic and static front ends
 *  share memory without copies.
 *
 * The static views describe "row-pitched" layouts only: the innermost dimension contiguous,
 * rows `stride_` elements apart, outer dimensions packed over rows. An NDArray in such a layout
 * (contiguous, or a column block narrowed from one) converts directly; any other layout throws
 * shade::Error naming sizes and strides (call contiguous() first). The views borrow: the NDArray
 * must outlive them, and an NDArray made from a TBlob borrows the blob's memory.
 */
#ifndef SHADE_NDARRAY_BRIDGE_H_
#define SHADE_NDARRAY_BRIDGE_H_

#include <vector>

#include "shade/base/error.h"
#include "shade/ndarray/ndarray.h"
#include "shade/tensor/tensor.h"
#include "shade/tensor/tensor_blob.h"

namespace shade {

/*!
 * \brief Row pitch (elements) of `a` when its layout is row-pitched, else -1. Size-1
 *  dimensions may have any stride.
 */
inline index_t RowPitch(const NDArray& a) {
  const int nd = a.ndim();
  if (nd == 0) return 1;
  if (a.numel() == 0) return a.size(nd - 1);
  if (a.size(nd - 1) > 1 && a.stride(nd - 1) != 1) return -1;
  if (nd == 1) return a.size(0);
  const index_t pitch = a.size(nd - 2) > 1 ? a.stride(nd - 2) : a.size(nd - 1);
  if (pitch < a.size(nd - 1)) return -1;
  index_t expected = pitch;
  for (int d = nd - 3; d >= 0; --d) {
    expected *= a.size(d + 1);
    if (a.size(d) > 1 && a.stride(d) != expected) return -1;
  }
  return pitch;
}

namespace detail {
inline index_t CheckedRowPitch(const NDArray& a, const char* what) {
  SHADE_CHECK(a.defined()) << what << ": the NDArray is undefined";
  const index_t pitch = RowPitch(a);
  SHADE_CHECK_SHAPE_GE(pitch, 0) << what << ": the layout (sizes " << a.sizes() << ", strides "
                                 << a.strides() << ") is not row-pitched; call contiguous() first";
  SHADE_CHECK(a.data_ptr() != nullptr || a.numel() == 0)
      << what << ": " << a << " has no memory allocated";
  return pitch;
}
}  // namespace detail

/*! \brief Type-erased view of a row-pitched NDArray (numeric dtypes only). */
inline TBlob ToTBlob(const NDArray& a) {
  const index_t pitch = detail::CheckedRowPitch(a, "ToTBlob");
  SHADE_CHECK_TYPE_GE(a.type_flag(), 0)
      << "ToTBlob: element type " << a.dtype().name() << " has no dtype flag";
  TBlob blob(a.data_ptr(), a.shape(), a.dev_mask(), a.type_flag());
  blob.stride_ = pitch;
  return blob;
}

/*! \brief Typed static view of a row-pitched NDArray of rank dim, element type DType. */
template <typename Device, int dim, typename DType>
Tensor<Device, dim, DType> ToTensor(const NDArray& a) {
  const index_t pitch = detail::CheckedRowPitch(a, "ToTensor");
  SHADE_CHECK_SHAPE_EQ(a.ndim(), dim)
      << "ToTensor: " << a << " has rank " << a.ndim() << ", not " << dim;
  SHADE_CHECK_EQ(a.dev_mask(), Device::kDevMask)
      << "ToTensor: " << a << " lives on " << DevMaskName(a.dev_mask()) << ", the tensor on "
      << DevMaskName(Device::kDevMask);
  DType* ptr = a.data<DType>();  // checks the element type (Caffe2's message)
  return Tensor<Device, dim, DType>(ptr, a.shape().get<dim>(), pitch, nullptr);
}

/*! \brief NDArray view of a TBlob's memory (borrowed: the blob's owner keeps it alive). */
inline NDArray FromTBlob(const TBlob& blob) {
  const int nd = blob.ndim();
  std::vector<index_t> sizes(blob.shape_.begin(), blob.shape_.end());
  std::vector<index_t> strides(nd);
  if (nd > 0) {
    SHADE_CHECK_SHAPE_GE(blob.stride_, sizes[nd - 1])
        << "FromTBlob: row pitch " << blob.stride_ << " is smaller than the row length "
        << sizes[nd - 1];
    strides[nd - 1] = 1;
    if (nd >= 2) strides[nd - 2] = blob.stride_;
    for (int d = nd - 3; d >= 0; --d)
      strides[d] = CheckedMul(strides[d + 1], sizes[d + 1], "FromTBlob stride");
  }
  return NDArray::FromBlob(blob.dptr_, IndexSpan(sizes), IndexSpan(strides),
                           TypeMeta::FromFlag(blob.type_flag_), DataDeleter(), blob.dev_mask_);
}

}  // namespace shade

#endif  // SHADE_NDARRAY_BRIDGE_H_
