/*!
 * \file binary.h
 * \brief `SaveBinary` / `LoadBinary` for `Tensor<cpu, dim, DType>` and `TensorContainer` in
 *  mshadow's format, byte for byte: the shape as `dim` 32-bit signed extents (mshadow's default
 *  `index_t` is int32_t; shade's index_t is wider, so an extent above INT32_MAX cannot be saved),
 *  host byte order, then the rows of the tensor flattened to 2-D, each `shape[dim-1]` elements,
 *  without the row padding.
 *
 * Templated on the stream type: any class with `size_t Read(void*, size_t)` and
 * `void Write(const void*, size_t)` works (shade::io::Stream and its subclasses included).
 * When the stream can tell its remaining size (a `BytesLeft(std::uint64_t*)` member, as
 * shade::io streams have), the loader refuses a shape whose data the stream does not hold
 * before it allocates anything.
 */
#ifndef SHADE_IO_BINARY_H_
#define SHADE_IO_BINARY_H_

#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

#include "shade/base/checked.h"
#include "shade/base/error.h"
#include "shade/tensor/tensor.h"
#include "shade/tensor/tensor_cpu.h"

namespace shade {

namespace detail {

/*! \brief Detects a `bool BytesLeft(std::uint64_t*) const` member. */
template <typename TStream, typename = void>
struct HasBytesLeft : std::false_type {};
template <typename TStream>
struct HasBytesLeft<TStream, decltype(void(std::declval<const TStream&>().BytesLeft(
                                 static_cast<std::uint64_t*>(nullptr))))> : std::true_type {};

/*! \brief Reads exactly `size` bytes or throws naming `what`. */
template <typename TStream>
void BinaryReadExact(TStream& fi, void* ptr, std::size_t size, const char* what) {
  const std::size_t got = size == 0 ? 0 : fi.Read(ptr, size);
  SHADE_CHECK_IO_EQ(got, size) << "LoadBinary: stream truncated while reading " << what;
}

/*! \brief One stored extent: mshadow's default index_t. */
using BinaryExtent = std::int32_t;

/*! \brief Writes the shape as mshadow does (`dim` int32 extents); throws if one does not fit. */
template <int dim, typename TStream>
void SaveBinaryShape(TStream& fo, const Shape<dim>& shape) {
  BinaryExtent stored[dim > 0 ? dim : 1] = {};
  for (int i = 0; i < dim; ++i) {
    SHADE_CHECK_LE(shape[i], static_cast<index_t>(std::numeric_limits<BinaryExtent>::max()))
        << "SaveBinary: extent " << i << " of shape " << shape
        << " does not fit mshadow's 32-bit index_t";
    stored[i] = static_cast<BinaryExtent>(shape[i]);
  }
  fo.Write(stored, sizeof(BinaryExtent) * dim);
}

/*! \brief Reads and validates a Shape<dim>; checks the stream holds its data when it can tell. */
template <int dim, typename DType, typename TStream>
Shape<dim> LoadBinaryShape(TStream& fi) {
  BinaryExtent stored[dim > 0 ? dim : 1] = {};
  BinaryReadExact(fi, stored, sizeof(BinaryExtent) * dim, "the shape");
  Shape<dim> shape;
  for (int i = 0; i < dim; ++i) shape[i] = static_cast<index_t>(stored[i]);
  const index_t total = CheckedProduct(shape.shape_, dim, "LoadBinary: stored shape");
  const index_t bytes =
      CheckedMul(total, static_cast<index_t>(sizeof(DType)), "LoadBinary: data size");
  if constexpr (HasBytesLeft<TStream>::value) {
    std::uint64_t left = 0;
    if (fi.BytesLeft(&left)) {
      SHADE_CHECK_SHAPE_LE(static_cast<std::uint64_t>(bytes), left)
          << "LoadBinary: the stored shape " << shape << " needs " << bytes
          << " data bytes but the stream holds " << left;
    }
  }
  return shape;
}

/*! \brief Reads the rows of `dst` (already shaped and allocated). */
template <int dim, typename DType, typename TStream>
void LoadBinaryRows(TStream& fi, const Tensor<cpu, dim, DType>& dst) {
  const Tensor<cpu, 2, DType> d2 = dst.FlatTo2D();
  const std::size_t row = sizeof(DType) * static_cast<std::size_t>(d2.size(1));
  // Empty rows hold no data: a stored shape like (2^40, 0) must not loop over 2^40 rows.
  if (row == 0) return;
  for (index_t i = 0; i < d2.size(0); ++i) BinaryReadExact(fi, d2[i].dptr_, row, "the tensor rows");
}

}  // namespace detail

/*! \brief Writes the shape then the rows (padding skipped) of a host tensor. */
template <int dim, typename DType, typename TStream>
inline void SaveBinary(TStream& fo, const Tensor<cpu, dim, DType>& src) {
  detail::SaveBinaryShape(fo, src.shape_);
  const Tensor<cpu, 2, DType> s2 = src.FlatTo2D();
  const std::size_t row = sizeof(DType) * static_cast<std::size_t>(s2.size(1));
  if (row == 0) return;
  for (index_t i = 0; i < s2.size(0); ++i) fo.Write(s2[i].dptr_, row);
}

/*!
 * \brief Reads what SaveBinary wrote into `*dst`. With `pre_alloc` the stored shape must equal
 *  dst's (its memory is reused); otherwise dst gets fresh memory from AllocSpace (free it with
 *  FreeSpace). Throws shade::Error on a mismatched, negative or overflowing shape, or a
 *  truncated stream (then nothing is leaked and a fresh allocation is released).
 */
template <int dim, typename DType, typename TStream>
inline void LoadBinary(TStream& fi, Tensor<cpu, dim, DType>* dst, bool pre_alloc) {
  const Shape<dim> shape = detail::LoadBinaryShape<dim, DType>(fi);
  if (pre_alloc) {
    SHADE_CHECK_SHAPE(shape == dst->shape_) << "LoadBinary: stored shape " << shape
                                            << " does not match the pre-allocated " << dst->shape_;
    detail::LoadBinaryRows(fi, *dst);
    return;
  }
  Tensor<cpu, dim, DType> fresh(shape);
  AllocSpace(&fresh);
  try {
    detail::LoadBinaryRows(fi, fresh);
  } catch (...) {
    FreeSpace(&fresh);
    throw;
  }
  *dst = fresh;
}

/*! \brief Reads what SaveBinary wrote into a container, resizing it to the stored shape. */
template <int dim, typename DType, typename TStream>
inline void LoadBinary(TStream& fi, TensorContainer<cpu, dim, DType>* dst) {
  const Shape<dim> shape = detail::LoadBinaryShape<dim, DType>(fi);
  dst->Resize(shape);
  detail::LoadBinaryRows(fi, *dst);
}

}  // namespace shade

#endif  // SHADE_IO_BINARY_H_
