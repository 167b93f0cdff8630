/*!
 * \file tshape.h
 * \brief `TShape`: a shape of any rank, 4 extents inline and the heap beyond.
 *
 * Differences from the seed note, each answering a question it raised: `operator[]` is
 * bound-checked (a shape index is caller input); `Size()` throws on overflow or a negative
 * extent; `>>` fails without touching the shape on malformed text (the old code returned a
 * partial shape for `(3,4,a)`); `Load` rejects a negative or absurd rank before allocating.
 */
#ifndef SHADE_SHAPE_TSHAPE_H_
#define SHADE_SHAPE_TSHAPE_H_

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <initializer_list>
#include <iosfwd>
#include <string>
#include <vector>

#include "shade/base/checked.h"
#include "shade/base/error.h"
#include "shade/base/index.h"
#include "shade/shape/shape.h"

namespace shade {

/*! \brief Dynamic shape; value semantics; cheap for rank <= kStackCache. */
class TShape {
 public:
  /*! \brief Extents kept inline before the heap is used. */
  static constexpr index_t kStackCache = 4;
  /*! \brief Largest rank `Load` accepts from a stream. */
  static constexpr index_t kMaxLoadNDim = 64;

  /*! \brief Rank 0 (a scalar's shape). */
  TShape() = default;
  /*! \brief Rank `ndim`, every extent 1. */
  explicit TShape(index_t ndim) {
    SHADE_CHECK_SHAPE_GE(ndim, 0) << "TShape: negative rank";
    SetDim(ndim);
    std::fill_n(data(), ndim_, index_t(1));
  }
  /*! \brief Copy. */
  TShape(const TShape& s) { CopyFrom(s.begin(), s.end()); }
  /*! \brief Move: steals the heap buffer. */
  TShape(TShape&& s) noexcept
      : ndim_(s.ndim_), num_heap_allocated_(s.num_heap_allocated_), data_heap_(s.data_heap_) {
    std::copy(s.data_stack_, s.data_stack_ + kStackCache, data_stack_);
    s.ndim_ = 0;
    s.num_heap_allocated_ = 0;
    s.data_heap_ = nullptr;
  }
  /*! \brief From an iterator range of integers. */
  template <typename RandomAccessIterator,
            typename = decltype(*std::declval<RandomAccessIterator>() + 0)>
  TShape(RandomAccessIterator begin, RandomAccessIterator end) {
    CopyFrom(begin, end);
  }
  /*! \brief From a braced list: `TShape{2, 3}`. */
  TShape(std::initializer_list<index_t> dims) { CopyFrom(dims.begin(), dims.end()); }
  /*! \brief From a vector of extents. */
  TShape(const std::vector<index_t>& v) { CopyFrom(v.begin(), v.end()); }  // NOLINT
  /*! \brief From a fixed-rank shape. */
  template <int dim>
  TShape(const Shape<dim>& s) {  // NOLINT(runtime/explicit): shapes convert freely
    CopyFrom(s.shape_, s.shape_ + dim);
  }
  ~TShape() { delete[] data_heap_; }

  /*! \brief Copy assignment (reuses the heap buffer when it is large enough). */
  TShape& operator=(const TShape& s) {
    if (this != &s) CopyFrom(s.begin(), s.end());
    return *this;
  }
  /*! \brief Move assignment. */
  TShape& operator=(TShape&& s) noexcept {
    if (this != &s) {
      delete[] data_heap_;
      ndim_ = s.ndim_;
      num_heap_allocated_ = s.num_heap_allocated_;
      data_heap_ = s.data_heap_;
      std::copy(s.data_stack_, s.data_stack_ + kStackCache, data_stack_);
      s.ndim_ = 0;
      s.num_heap_allocated_ = 0;
      s.data_heap_ = nullptr;
    }
    return *this;
  }
  /*! \brief Assign from a vector of extents. */
  TShape& operator=(const std::vector<index_t>& v) {
    CopyFrom(v.begin(), v.end());
    return *this;
  }
  /*! \brief Assign from a fixed-rank shape. */
  template <int dim>
  TShape& operator=(const Shape<dim>& s) {
    CopyFrom(s.shape_, s.shape_ + dim);
    return *this;
  }

  /*! \brief Replaces the extents with [begin, end). */
  template <typename RandomAccessIterator>
  void CopyFrom(RandomAccessIterator begin, RandomAccessIterator end) {
    const index_t n = static_cast<index_t>(end - begin);
    SetDim(n);
    index_t* d = data();
    for (index_t i = 0; i < n; ++i, ++begin) d[i] = static_cast<index_t>(*begin);
  }

  /*! \brief Extents (valid for ndim() entries). */
  const index_t* data() const { return ndim_ <= kStackCache ? data_stack_ : data_heap_; }
  /*! \brief Extents (valid for ndim() entries). */
  index_t* data() { return ndim_ <= kStackCache ? data_stack_ : data_heap_; }
  /*! \brief First extent. */
  const index_t* begin() const { return data(); }
  /*! \brief One past the last extent. */
  const index_t* end() const { return data() + ndim_; }
  /*! \brief Rank. */
  index_t ndim() const { return ndim_; }

  /*! \brief Extent `i`; throws shade::Error when `i` is outside [0, ndim). */
  index_t& operator[](index_t i) {
    CheckIndex(i);
    return data()[i];
  }
  /*! \brief Extent `i`; throws shade::Error when `i` is outside [0, ndim). */
  const index_t& operator[](index_t i) const {
    CheckIndex(i);
    return data()[i];
  }

  /*! \brief Number of elements; throws on a negative extent or an overflowing product. */
  std::size_t Size() const {
    return static_cast<std::size_t>(CheckedProduct(data(), ndim_, "TShape::Size"));
  }
  /*! \brief Product of extents in [dimstart, dimend); throws on a bad range or overflow. */
  index_t ProdShape(int dimstart, int dimend) const {
    SHADE_CHECK_SHAPE(0 <= dimstart && dimstart <= dimend && dimend <= ndim_)
        << "TShape::ProdShape: range [" << dimstart << ", " << dimend << ") outside rank " << ndim_;
    return CheckedProduct(data() + dimstart, dimend - dimstart, "TShape::ProdShape");
  }
  /*! \brief (product of all but the last extent, last extent); (0,0) for rank 0. */
  Shape<2> FlatTo2D() const {
    if (ndim_ == 0) return Shape2(0, 0);
    return Shape2(ProdShape(0, static_cast<int>(ndim_ - 1)), data()[ndim_ - 1]);
  }
  /*! \brief Folds [0,axis_begin), [axis_begin,axis_end], (axis_end,ndim) into 3 extents. */
  Shape<3> FlatTo3D(index_t axis_begin, index_t axis_end) const {
    if (ndim_ == 0) return Shape3(0, 0, 0);
    SHADE_CHECK_SHAPE(0 <= axis_begin && axis_begin <= axis_end && axis_end < ndim_)
        << "TShape::FlatTo3D: axes [" << axis_begin << ", " << axis_end
        << "] invalid for shape of rank " << ndim_;
    const int b = static_cast<int>(axis_begin), e = static_cast<int>(axis_end);
    return Shape3(ProdShape(0, b), ProdShape(b, e + 1), ProdShape(e + 1, static_cast<int>(ndim_)));
  }
  /*! \brief Folds the axes before and after `axis`. */
  Shape<3> FlatTo3D(index_t axis) const { return FlatTo3D(axis, axis); }
  /*! \brief Converts to a fixed rank; throws when the rank differs. */
  template <int dim>
  Shape<dim> get() const {
    SHADE_CHECK_SHAPE_EQ(dim, ndim_)
        << "dimension do not match target dimension " << dim << " vs " << ndim_;
    Shape<dim> s;
    for (int i = 0; i < dim; ++i) s[i] = data()[i];
    return s;
  }

  /*! \brief Same rank and extents. */
  bool operator==(const TShape& s) const {
    return ndim_ == s.ndim_ && std::equal(begin(), end(), s.begin());
  }
  /*! \brief Not equal. */
  bool operator!=(const TShape& s) const { return !(*this == s); }
  /*! \brief Same rank and extents as a fixed-rank shape. */
  template <int dim>
  bool operator==(const Shape<dim>& s) const {
    return ndim_ == dim && std::equal(begin(), end(), s.shape_);
  }
  /*! \brief Not equal. */
  template <int dim>
  bool operator!=(const Shape<dim>& s) const {
    return !(*this == s);
  }

  /*! \brief Writes the rank then the extents (host byte order, index_t each). */
  template <typename TStream>
  void Save(TStream* strm) const {
    strm->Write(&ndim_, sizeof(ndim_));
    strm->Write(data(), sizeof(index_t) * static_cast<std::size_t>(ndim_));
  }
  /*!
   * \brief Reads what Save wrote. Returns false when the stream is already at its end;
   *  throws shade::Error on a truncated stream or a rank outside [0, kMaxLoadNDim], and then
   *  leaves this shape unchanged.
   */
  template <typename TStream>
  bool Load(TStream* strm) {
    index_t ndim = 0;
    const std::size_t got = strm->Read(&ndim, sizeof(ndim));
    if (got == 0) return false;
    SHADE_CHECK_IO_EQ(got, sizeof(ndim)) << "TShape::Load: stream truncated inside the rank";
    SHADE_CHECK_IO(ndim >= 0 && ndim <= kMaxLoadNDim)
        << "TShape::Load: stored rank " << ndim << " outside [0, " << kMaxLoadNDim << "]";
    index_t dims[kMaxLoadNDim];
    const std::size_t nread = sizeof(index_t) * static_cast<std::size_t>(ndim);
    const std::size_t got_dims = nread == 0 ? 0 : strm->Read(dims, nread);
    SHADE_CHECK_IO_EQ(got_dims, nread)
        << "TShape::Load: stream truncated inside the extents of a rank-" << ndim << " shape";
    CopyFrom(dims, dims + ndim);
    return true;
  }

 private:
  void SetDim(index_t dim) {
    if (dim > kStackCache && dim > num_heap_allocated_) {
      // policy-ok(raw-allocation): shape metadata, one extent per dimension, not element data
      index_t* fresh = new index_t[static_cast<std::size_t>(dim)];
      // Keep the current extents reachable while callers copy from themselves.
      delete[] data_heap_;
      data_heap_ = fresh;
      num_heap_allocated_ = dim;
    }
    ndim_ = dim;
  }
  void CheckIndex(index_t i) const {
    SHADE_CHECK_INDEX(i >= 0 && i < ndim_)
        << "TShape: index " << i << " out of range for rank " << ndim_;
  }

  index_t ndim_ = 0;
  index_t num_heap_allocated_ = 0;
  index_t data_stack_[kStackCache] = {0, 0, 0, 0};
  index_t* data_heap_ = nullptr;
};

/*! \brief Prints a python tuple: `(3,4)`, `(7,)`, `()`. */
std::ostream& operator<<(std::ostream& os, const TShape& shape);

/*!
 * \brief Parses `3`, `(3,5)`, `(3 , 5)`, `(3, 4L, 5)`, `(7,)`, `()`. On malformed text sets
 *  failbit and leaves `shape` unchanged.
 */
std::istream& operator>>(std::istream& is, TShape& shape);

/*! \brief Parses a whole string as a shape (trailing spaces allowed); throws on junk. */
TShape ParseTShape(const std::string& text);

}  // namespace shade

#endif  // SHADE_SHAPE_TSHAPE_H_
