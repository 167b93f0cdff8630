/*!
 * \file shape.h
 * \brief Fixed-rank shape `Shape<N>` (mshadow's), its helpers and layout conversion.
 */
#ifndef SHADE_SHAPE_SHAPE_H_
#define SHADE_SHAPE_SHAPE_H_

#include <cassert>
#include <cstddef>
#include <ostream>

#include "shade/base/error.h"
#include "shade/base/index.h"

namespace shade {

/*! \brief Shape of a rank-`dimension` tensor; the last dimension is the innermost. */
template <int dimension>
struct Shape {
  static_assert(dimension > 0, "Shape<N> needs N >= 1; use TShape for rank 0");
  /*! \brief Rank. */
  static constexpr int kDimension = dimension;
  /*! \brief Rank of a sub-tensor (one index applied). */
  static constexpr int kSubdim = dimension - 1;
  /*! \brief Extents, outermost first. */
  index_t shape_[kDimension];

  /*! \brief Leaves the extents uninitialised (as mshadow's Shape; set them before use). */
  SHADE_XINLINE Shape() {}
  /*! \brief Copies the extents of s. */
  SHADE_XINLINE Shape(const Shape<kDimension>& s) {
    for (int i = 0; i < kDimension; ++i) shape_[i] = s.shape_[i];
  }
  /*! \brief Copies the extents of s; returns *this. */
  SHADE_XINLINE Shape& operator=(const Shape<kDimension>& s) {
    for (int i = 0; i < kDimension; ++i) shape_[i] = s.shape_[i];
    return *this;
  }
  /*! \brief Extent `idx` (unchecked in release builds: this runs in kernels). */
  SHADE_XINLINE index_t& operator[](index_t idx) {
    assert(idx >= 0 && idx < kDimension);
    return shape_[idx];
  }
  /*! \brief Extent `idx` (unchecked in release builds: this runs in kernels). */
  SHADE_XINLINE const index_t& operator[](index_t idx) const {
    assert(idx >= 0 && idx < kDimension);
    return shape_[idx];
  }
  /*! \brief Same rank and extents. */
  SHADE_XINLINE bool operator==(const Shape<kDimension>& s) const {
    for (int i = 0; i < kDimension; ++i) {
      if (s.shape_[i] != shape_[i]) return false;
    }
    return true;
  }
  /*! \brief Not equal. */
  SHADE_XINLINE bool operator!=(const Shape<kDimension>& s) const { return !(*this == s); }
  /*! \brief Number of elements. */
  SHADE_XINLINE std::size_t Size() const {
    std::size_t size = 1;
    for (int i = 0; i < kDimension; ++i) size *= static_cast<std::size_t>(shape_[i]);
    return size;
  }
  /*! \brief All elements in one dimension. */
  SHADE_XINLINE Shape<1> FlatTo1D() const;
  /*! \brief Leading dimensions folded into the first: (prod(0..N-2), last). */
  SHADE_XINLINE Shape<2> FlatTo2D() const;
  /*! \brief Product of extents in [dimstart, dimend). */
  SHADE_XINLINE index_t ProdShape(int dimstart, int dimend) const {
    index_t num = 1;
    for (int i = dimstart; i < dimend; ++i) num *= shape_[i];
    return num;
  }
  /*! \brief Shape without the first dimension. */
  SHADE_XINLINE Shape<kSubdim> SubShape() const {
    static_assert(kDimension > 1, "SubShape of a rank-1 shape");
    Shape<kSubdim> s;
    for (int i = 0; i < kSubdim; ++i) s.shape_[i] = shape_[i + 1];
    return s;
  }
  /*! \brief Dimensions [dimstart, dimend): `Shape5(3,4,5,6,7).Slice<2,5>()` is (5,6,7). */
  template <int dimstart, int dimend>
  SHADE_XINLINE Shape<dimend - dimstart> Slice() const {
    static_assert(0 <= dimstart && dimstart < dimend && dimend <= kDimension,
                  "Slice<b,e> needs 0 <= b < e <= rank");
    Shape<dimend - dimstart> s;
    for (int i = dimstart; i < dimend; ++i) s[i - dimstart] = shape_[i];
    return s;
  }
};

template <int dimension>
SHADE_XINLINE Shape<1> Shape<dimension>::FlatTo1D() const {
  Shape<1> s;
  s[0] = static_cast<index_t>(this->Size());
  return s;
}

template <int dimension>
SHADE_XINLINE Shape<2> Shape<dimension>::FlatTo2D() const {
  Shape<2> s;
  s.shape_[1] = shape_[kDimension - 1];
  index_t ymax = 1;
  for (int i = 0; i < kDimension - 1; ++i) ymax *= shape_[i];
  s.shape_[0] = ymax;
  return s;
}

/*! \brief Rank-1 shape. */
SHADE_XINLINE Shape<1> Shape1(index_t s0) {
  Shape<1> s;
  s[0] = s0;
  return s;
}
/*! \brief Rank-2 shape. */
SHADE_XINLINE Shape<2> Shape2(index_t s0, index_t s1) {
  Shape<2> s;
  s[0] = s0;
  s[1] = s1;
  return s;
}
/*! \brief Rank-3 shape. */
SHADE_XINLINE Shape<3> Shape3(index_t s0, index_t s1, index_t s2) {
  Shape<3> s;
  s[0] = s0;
  s[1] = s1;
  s[2] = s2;
  return s;
}
/*! \brief Rank-4 shape. */
SHADE_XINLINE Shape<4> Shape4(index_t s0, index_t s1, index_t s2, index_t s3) {
  Shape<4> s;
  s[0] = s0;
  s[1] = s1;
  s[2] = s2;
  s[3] = s3;
  return s;
}
/*! \brief Rank-5 shape. */
SHADE_XINLINE Shape<5> Shape5(index_t s0, index_t s1, index_t s2, index_t s3, index_t s4) {
  Shape<5> s;
  s[0] = s0;
  s[1] = s1;
  s[2] = s2;
  s[3] = s3;
  s[4] = s4;
  return s;
}

/*! \brief Prints a python tuple: `(3,4)`, and `(4,)` for rank 1. */
template <int ndim>
inline std::ostream& operator<<(std::ostream& os, const Shape<ndim>& shape) {
  os << '(';
  for (int i = 0; i < ndim; ++i) {
    if (i != 0) os << ',';
    os << shape[i];
  }
  if (ndim == 1) os << ',';
  os << ')';
  return os;
}

/*! \brief Memory layouts understood by ConvertLayout (mshadow's numbering). */
enum LayoutFlag {
  kNCHW = 0,
  kNHWC,
  kCHWN,
  kNCW = 1 << 3,
  kNWC,
  kCWN,
  kNCDHW = 1 << 5,
  kNDHWC,
  kCDHWN
};

/*! \brief Name of a layout flag, for messages. */
inline const char* LayoutName(int layout) {
  switch (layout) {
    case kNCHW:
      return "NCHW";
    case kNHWC:
      return "NHWC";
    case kCHWN:
      return "CHWN";
    case kNCW:
      return "NCW";
    case kNWC:
      return "NWC";
    case kCWN:
      return "CWN";
    case kNCDHW:
      return "NCDHW";
    case kNDHWC:
      return "NDHWC";
    case kCDHWN:
      return "CDHWN";
    default:
      return "unknown";
  }
}

/*! \brief Reorders a 4-D shape from `src_layout` to `dst_layout` (NCHW, NHWC, CHWN). */
inline Shape<4> ConvertLayout(const Shape<4>& src, int src_layout, int dst_layout) {
  Shape<4> nchw;  // canonical N, C, H, W
  switch (src_layout) {
    case kNCHW:
      nchw = src;
      break;
    case kNHWC:
      nchw = Shape4(src[0], src[3], src[1], src[2]);
      break;
    case kCHWN:
      nchw = Shape4(src[3], src[0], src[1], src[2]);
      break;
    default:
      SHADE_THROW_SHAPE << "ConvertLayout: invalid layout for 4d shape " << LayoutName(src_layout)
                        << " (" << src_layout << ")";
  }
  switch (dst_layout) {
    case kNCHW:
      return nchw;
    case kNHWC:
      return Shape4(nchw[0], nchw[2], nchw[3], nchw[1]);
    case kCHWN:
      return Shape4(nchw[1], nchw[2], nchw[3], nchw[0]);
    default:
      SHADE_THROW_SHAPE << "ConvertLayout: invalid layout for 4d shape " << LayoutName(dst_layout)
                        << " (" << dst_layout << ")";
  }
}

/*! \brief Reorders a 5-D shape from `src_layout` to `dst_layout` (NCDHW, NDHWC, CDHWN). */
inline Shape<5> ConvertLayout(const Shape<5>& src, int src_layout, int dst_layout) {
  Shape<5> ncdhw;
  switch (src_layout) {
    case kNCDHW:
      ncdhw = src;
      break;
    case kNDHWC:
      ncdhw = Shape5(src[0], src[4], src[1], src[2], src[3]);
      break;
    case kCDHWN:
      ncdhw = Shape5(src[4], src[0], src[1], src[2], src[3]);
      break;
    default:
      SHADE_THROW_SHAPE << "ConvertLayout: invalid layout for 5d shape " << LayoutName(src_layout)
                        << " (" << src_layout << ")";
  }
  switch (dst_layout) {
    case kNCDHW:
      return ncdhw;
    case kNDHWC:
      return Shape5(ncdhw[0], ncdhw[2], ncdhw[3], ncdhw[4], ncdhw[1]);
    case kCDHWN:
      return Shape5(ncdhw[1], ncdhw[2], ncdhw[3], ncdhw[4], ncdhw[0]);
    default:
      SHADE_THROW_SHAPE << "ConvertLayout: invalid layout for 5d shape " << LayoutName(dst_layout)
                        << " (" << dst_layout << ")";
  }
}

}  // namespace shade

#endif  // SHADE_SHAPE_SHAPE_H_
