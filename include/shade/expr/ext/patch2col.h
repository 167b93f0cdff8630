/*!
 * \file patch2col.h
 * \brief im2col and its adjoint for convolution through dot (mshadow's names):
 *  `unpack_patch2col(img, ky, kx, sy, sx, dy, dx)` lays every (dilated, strided) ky x kx patch
 *  of an image expression of shape (..., C, H, W) out as a column of a
 *  (C * ky * kx, N * OH * OW) matrix, N the product of the leading extents;
 *  `pack_col2patch(mat, imshape, ky, kx, sy, sx, dy, dx)` sums such columns back into an image
 *  (the gradient of unpack). OH = (H - (dy * (ky - 1) + 1)) / sy + 1, and OW likewise: windows
 *  that do not fit are dropped (pad the image with `pad` first for "same" convolutions).
 */
#ifndef SHADE_EXPR_EXT_PATCH2COL_H_
#define SHADE_EXPR_EXT_PATCH2COL_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "shade/expr/ext/ext_base.h"
#include "shade/tensor/tensor.h"

namespace shade {
namespace expr {

/*! \brief Geometry of a patch layout, validated once (shared by unpack and pack). */
struct PatchGeometry {
  index_t num;        ///< Image batch: the product of the extents before the last three.
  index_t channel;    ///< Channels per image.
  index_t height;     ///< Image height.
  index_t width;      ///< Image width.
  index_t psize_y;    ///< Patch (kernel) height.
  index_t psize_x;    ///< Patch (kernel) width.
  index_t pstride_y;  ///< Vertical stride between patches.
  index_t pstride_x;  ///< Horizontal stride between patches.
  index_t pdilate_y;  ///< Vertical dilation inside a patch.
  index_t pdilate_x;  ///< Horizontal dilation inside a patch.
  index_t o_height;   ///< Rows of the output (patch) grid.
  index_t o_width;    ///< Columns of the output (patch) grid.

  /*! \brief Checks the parameters against an image shape; `who` names the caller. */
  template <int dim>
  void Init(const Shape<dim>& ishape, index_t ky, index_t kx, index_t sy, index_t sx, index_t dy,
            index_t dx, const char* who) {
    SHADE_CHECK(ky >= 1 && kx >= 1)
        << who << ": kernel size " << ky << "x" << kx << " must be at least 1x1";
    SHADE_CHECK_SHAPE(sy >= 1 && sx >= 1)
        << who << ": stride " << sy << "x" << sx << " must be at least 1x1";
    SHADE_CHECK(dy >= 1 && dx >= 1)
        << who << ": dilation " << dy << "x" << dx << " must be at least 1x1";
    num = ishape.ProdShape(0, dim - 3);
    channel = ishape[dim - 3];
    height = ishape[dim - 2];
    width = ishape[dim - 1];
    psize_y = ky;
    psize_x = kx;
    pstride_y = sy;
    pstride_x = sx;
    pdilate_y = dy;
    pdilate_x = dx;
    const index_t ey = CheckedAdd(CheckedMul(dy, ky - 1, who), 1, who);
    const index_t ex = CheckedAdd(CheckedMul(dx, kx - 1, who), 1, who);
    SHADE_CHECK_SHAPE(height >= ey && width >= ex)
        << who << ": the dilated kernel (" << ey << "x" << ex << " from " << ky << "x" << kx
        << " with dilation " << dy << "x" << dx << ") is larger than the image " << ishape;
    o_height = (height - ey) / sy + 1;
    o_width = (width - ex) / sx + 1;
  }
  /*! \brief Shape of the column matrix: (C * ky * kx, N * OH * OW), overflow-checked. */
  Shape<2> ColShape(const char* who) const {
    index_t rows = CheckedMul(CheckedMul(channel, psize_y, who), psize_x, who);
    index_t cols = CheckedMul(CheckedMul(num, o_height, who), o_width, who);
    return Shape2(rows, cols);
  }
};

/*! \brief The column matrix of an image expression (mshadow's UnpackPatchToColXExp). */
template <typename SrcExp, typename DType, int srcdim>
struct UnpackPatchToColXExp
    : public MakeTensorExp<UnpackPatchToColXExp<SrcExp, DType, srcdim>, SrcExp, 2, DType> {
  /*! \brief The image. */
  SrcExp img_;
  /*! \brief The layout. */
  PatchGeometry g_;
  /*! \brief Builds the node; throws on bad parameters. */
  UnpackPatchToColXExp(const SrcExp& img, index_t ky, index_t kx, index_t sy, index_t sx,
                       index_t dy, index_t dx)
      : img_(img) {
    const Shape<srcdim> s = detail::SourceShape<srcdim>(img_, "unpack_patch2col");
    g_.Init(s, ky, kx, sy, sx, dy, dx, "unpack_patch2col");
    this->shape_ = g_.ColShape("unpack_patch2col");
  }
};

/*! \brief The image that sums a column matrix's patches (mshadow's PackColToPatchXExp). */
template <typename SrcExp, typename DType, int dstdim>
struct PackColToPatchXExp
    : public MakeTensorExp<PackColToPatchXExp<SrcExp, DType, dstdim>, SrcExp, dstdim, DType> {
  /*! \brief The column matrix. */
  SrcExp mat_;
  /*! \brief The layout. */
  PatchGeometry g_;
  /*! \brief Builds the node; throws on bad parameters or a matrix of the wrong shape. */
  PackColToPatchXExp(const SrcExp& mat, const Shape<dstdim>& imshape, index_t ky, index_t kx,
                     index_t sy, index_t sx, index_t dy, index_t dx)
      : mat_(mat) {
    detail::CheckShapeArg(imshape, "pack_col2patch");
    g_.Init(imshape, ky, kx, sy, sx, dy, dx, "pack_col2patch");
    const Shape<2> want = g_.ColShape("pack_col2patch");
    const Shape<2> got = detail::SourceShape<2>(mat_, "pack_col2patch");
    SHADE_CHECK_SHAPE(got == want)
        << "pack_col2patch: the column matrix has shape " << got << " but image " << imshape
        << " with these patches needs " << want;
    this->shape_ = imshape;
  }
};

/*! \brief im2col with separate strides and dilations per axis. */
template <typename SrcExp, typename DType, int etype>
inline UnpackPatchToColXExp<SrcExp, DType, ExpInfo<SrcExp>::kDim> unpack_patch2col(
    const Exp<SrcExp, DType, etype>& img, index_t psize_y, index_t psize_x, index_t pstride_y,
    index_t pstride_x, index_t pdilate_y, index_t pdilate_x) {
  static_assert(ExpInfo<SrcExp>::kDim >= 3,
                "unpack_patch2col: the image needs rank >= 3 (C, H, W)");
  return UnpackPatchToColXExp<SrcExp, DType, ExpInfo<SrcExp>::kDim>(
      img.self(), psize_y, psize_x, pstride_y, pstride_x, pdilate_y, pdilate_x);
}
/*! \brief im2col with one stride and one dilation for both axes. */
template <typename SrcExp, typename DType, int etype>
inline UnpackPatchToColXExp<SrcExp, DType, ExpInfo<SrcExp>::kDim> unpack_patch2col(
    const Exp<SrcExp, DType, etype>& img, index_t psize_y, index_t psize_x, index_t pstride,
    index_t pdilate) {
  return unpack_patch2col(img, psize_y, psize_x, pstride, pstride, pdilate, pdilate);
}
/*! \brief im2col with one stride for both axes and no dilation. */
template <typename SrcExp, typename DType, int etype>
inline UnpackPatchToColXExp<SrcExp, DType, ExpInfo<SrcExp>::kDim> unpack_patch2col(
    const Exp<SrcExp, DType, etype>& img, index_t psize_y, index_t psize_x, index_t pstride) {
  return unpack_patch2col(img, psize_y, psize_x, pstride, pstride, 1, 1);
}

/*! \brief col2im (sums overlapping patches) with separate strides and dilations per axis. */
template <typename SrcExp, typename DType, int dstdim, int etype>
inline PackColToPatchXExp<SrcExp, DType, dstdim> pack_col2patch(
    const Exp<SrcExp, DType, etype>& mat, Shape<dstdim> imshape, index_t psize_y, index_t psize_x,
    index_t pstride_y, index_t pstride_x, index_t pdilate_y, index_t pdilate_x) {
  static_assert(dstdim >= 3, "pack_col2patch: the image needs rank >= 3 (C, H, W)");
  static_assert(ExpInfo<SrcExp>::kDim == 2, "pack_col2patch: the column matrix must be 2-D");
  return PackColToPatchXExp<SrcExp, DType, dstdim>(mat.self(), imshape, psize_y, psize_x, pstride_y,
                                                   pstride_x, pdilate_y, pdilate_x);
}
/*! \brief col2im with one stride and one dilation for both axes. */
template <typename SrcExp, typename DType, int dstdim, int etype>
inline PackColToPatchXExp<SrcExp, DType, dstdim> pack_col2patch(
    const Exp<SrcExp, DType, etype>& mat, Shape<dstdim> imshape, index_t psize_y, index_t psize_x,
    index_t pstride, index_t pdilate) {
  return pack_col2patch(mat, imshape, psize_y, psize_x, pstride, pstride, pdilate, pdilate);
}
/*! \brief col2im with one stride for both axes and no dilation. */
template <typename SrcExp, typename DType, int dstdim, int etype>
inline PackColToPatchXExp<SrcExp, DType, dstdim> pack_col2patch(
    const Exp<SrcExp, DType, etype>& mat, Shape<dstdim> imshape, index_t psize_y, index_t psize_x,
    index_t pstride) {
  return pack_col2patch(mat, imshape, psize_y, psize_x, pstride, pstride, 1, 1);
}

/*! \brief Row i = (c, ky, kx) of the patch, column j = (n, oy, ox) of the window. */
template <typename SrcExp, typename DType, int srcdim>
class Plan<UnpackPatchToColXExp<SrcExp, DType, srcdim>, DType> {
 public:
  /*! \brief Builds the image plan and copies the validated patch geometry. */
  explicit Plan(const UnpackPatchToColXExp<SrcExp, DType, srcdim>& e)
      : src_(MakePlan(e.img_)), g_(e.g_) {}
  /*! \brief Element (i, j). */
  SHADE_XINLINE DType Eval(index_t i, index_t j) const {
    const index_t x_off = (i % g_.psize_x) * g_.pdilate_x;
    const index_t idivp = i / g_.psize_x;
    const index_t y_off = (idivp % g_.psize_y) * g_.pdilate_y;
    const index_t c = idivp / g_.psize_y;
    const index_t x = (j % g_.o_width) * g_.pstride_x + x_off;
    const index_t jdivw = j / g_.o_width;
    const index_t y = (jdivw % g_.o_height) * g_.pstride_y + y_off;
    const index_t n = jdivw / g_.o_height;
    return src_.Eval((n * g_.channel + c) * g_.height + y, x);
  }

 private:
  Plan<SrcExp, DType> src_;
  PatchGeometry g_;
};

/*! \brief Image element (n, c, y, x) sums every column entry that unpack read from it. */
template <typename SrcExp, typename DType, int dstdim>
class Plan<PackColToPatchXExp<SrcExp, DType, dstdim>, DType> {
 public:
  /*! \brief Builds the column-matrix plan and copies the validated patch geometry. */
  explicit Plan(const PackColToPatchXExp<SrcExp, DType, dstdim>& e)
      : mat_(MakePlan(e.mat_)), g_(e.g_) {}
  /*! \brief Element (i, x), i = (n * C + c) * H + y. */
  SHADE_XINLINE DType Eval(index_t i, index_t x) const {
    const index_t y = i % g_.height;
    const index_t nc = i / g_.height;
    const index_t c = nc % g_.channel;
    const index_t n = nc / g_.channel;
    DType res = DType(0);
    for (index_t ky = 0; ky < g_.psize_y; ++ky) {
      const index_t yy = y - ky * g_.pdilate_y;
      if (yy < 0) break;
      if (yy % g_.pstride_y != 0) continue;
      const index_t oy = yy / g_.pstride_y;
      if (oy >= g_.o_height) continue;
      for (index_t kx = 0; kx < g_.psize_x; ++kx) {
        const index_t xx = x - kx * g_.pdilate_x;
        if (xx < 0) break;
        if (xx % g_.pstride_x != 0) continue;
        const index_t ox = xx / g_.pstride_x;
        if (ox >= g_.o_width) continue;
        res = DType(res + mat_.Eval((c * g_.psize_y + ky) * g_.psize_x + kx,
                                    (n * g_.o_height + oy) * g_.o_width + ox));
      }
    }
    return res;
  }

 private:
  Plan<SrcExp, DType> mat_;
  PatchGeometry g_;
};

/*!
 * \brief im2col of an image stored in memory: one work unit per (column-matrix row, image),
 *  each a run of contiguous row copies (strided reads when the x stride exceeds 1); the
 *  divisions of the index arithmetic are done once per column-matrix row. Threaded over
 *  units; values as the element loop.
 */
template <typename SrcExp, typename DType, int srcdim>
struct TensorEvaluator<UnpackPatchToColXExp<SrcExp, DType, srcdim>> {
  /*! \brief Has a whole-tensor form. */
  static constexpr bool kAvailable = true;
  /*!
   * \brief How far past a unit's output UnitCopies prefetches. Why 4 KiB: conv2's im2col at
   *  one thread, 1.26 ms without, 1.25 / 1.15 / 0.93 / 0.91 ms at 1 / 2 / 4 / 8 KiB (bench_ext).
   */
  static constexpr std::uintptr_t kPatchPrefetchBytes = 4096;
  /*!
   * \brief One unit's output rows as plain copies of short rows, when it is `=` of trivially
   *  copyable values with x stride 1, rows of at most kShortRunsBytes and an output that does
   *  not overlap the rows it reads (checked once, by address, as SaveRun checks each run);
   *  false otherwise, and nothing is written. The size class is chosen once for the unit's
   *  rows. The lines kPatchPrefetchBytes past the unit's output are prefetched (addresses
   *  formed as integers, never dereferenced): the next units' outputs follow this one, and
   *  with conv2's 256-byte units the hardware prefetcher left the store stream waiting on each
   *  line's read for ownership.
   */
  template <typename Saver>
  static bool UnitCopies(const PatchGeometry& g, const detail::RowsView<DType>& img,
                         const DType* src, index_t row0, DType* out, index_t plane) {
    if constexpr (std::is_same<Saver, sv::saveto>::value &&
                  std::is_trivially_copyable<DType>::value) {
      const std::size_t bytes = static_cast<std::size_t>(g.o_width) * sizeof(DType);
      if (g.pstride_x != 1 || g.o_height <= 0 || bytes > detail::kShortRunsBytes) return false;
      const DType* first = src + row0 * img.ld;
      const DType* last = src + (row0 + (g.o_height - 1) * g.pstride_y) * img.ld + g.o_width;
      if (!detail::RangesApart(out, out + plane, first, last)) return false;
      const auto o0 = reinterpret_cast<std::uintptr_t>(out);
      const auto o1 = reinterpret_cast<std::uintptr_t>(out + plane);
      for (std::uintptr_t a = o0 + kPatchPrefetchBytes; a < o1 + kPatchPrefetchBytes; a += 64) {
        hwy::Prefetch(reinterpret_cast<const DType*>(a));
      }
      detail::CopyShortRuns(g.o_height, reinterpret_cast<unsigned char*>(out),
                            static_cast<index_t>(bytes),
                            reinterpret_cast<const unsigned char*>(first),
                            g.pstride_y * img.ld * static_cast<index_t>(sizeof(DType)), bytes);
      return true;
    } else {
      (void)g, (void)img, (void)src, (void)row0, (void)out, (void)plane;
      return false;
    }
  }
  /*! \brief *dst Saver= e, or false when the image is not read in place. */
  template <typename Saver, int dim>
  static bool Run(Tensor<cpu, dim, DType>* dst,
                  const UnpackPatchToColXExp<SrcExp, DType, srcdim>& e) {
    detail::RowsView<DType> img;
    if (!detail::DirectRows<SrcExp>::Get(e.img_, &img)) return false;
    const index_t plane = e.g_.o_height * e.g_.o_width;
    const index_t units = e.shape_[0] * e.g_.num;
    ParallelFor(0, units, detail::UnitGrain(plane), [&](index_t b, index_t end) {
      const PatchGeometry g = e.g_;  // a local copy: the stores below cannot alias it
      // Units u = i * num + n in order: (c, ky, kx) is derived once per column-matrix row i,
      // not per unit (conv2's 8-float units: 1.25x faster without three divisions each).
      index_t i = b / g.num, n = b - i * g.num;
      for (index_t u = b; u < end; ++i, n = 0) {
        const index_t kx = i % g.psize_x, iy = i / g.psize_x;
        const index_t ky = iy % g.psize_y, c = iy / g.psize_y;
        const DType* src = img.ptr + kx * g.pdilate_x;
        DType* const row_out = dst->dptr_ + i * dst->stride_;
        for (; n < g.num && u < end; ++n, ++u) {
          const index_t row0 = (n * g.channel + c) * g.height + ky * g.pdilate_y;
          DType* out = row_out + n * plane;
          if (UnitCopies<Saver>(g, img, src, row0, out, plane)) continue;
          for (index_t oy = 0; oy < g.o_height; ++oy, out += g.o_width) {
            const DType* in = src + (row0 + oy * g.pstride_y) * img.ld;
            if (g.pstride_x == 1) {
              detail::SaveRun<Saver>(g.o_width, out, in);
            } else {
              for (index_t ox = 0; ox < g.o_width; ++ox) Saver::Save(out[ox], in[ox * g.pstride_x]);
            }
          }
        }
      }
    });
    return true;
  }
};

namespace detail {
SHADE_TARGET_NAMESPACE_BEGIN
namespace hn = packet::hn;
/*! \brief Bytes of planes one col2patch unit sums at once (ScatterPlaneBlocks): conv2's 128
 *  images of a channel (72 KiB) in one block, which stays in L2 while the unit reads each of its
 *  kernel rows once. Blocks of 16 KiB (28 images, so pieces of 7 KiB per kernel row) were
 *  1.3-1.5x slower at 1 thread (AVX2, Zen 3). */
constexpr std::size_t kCol2PatchBlockBytes = 1 << 17;

/*! \brief How far ahead of its reads Col2PatchBlock prefetches the column matrix. */
constexpr std::uintptr_t kCol2PatchPrefetchBytes = 4096;

/*! \brief Prefetches the piece_bytes of the column matrix kCol2PatchPrefetchBytes past col (a
 *  piece that a col2patch unit reads next; addresses formed as integers, never dereferenced). */
template <typename T>
HWY_INLINE void PrefetchColumnPieceAhead(const T* col, std::uintptr_t piece_bytes) {
  const std::uintptr_t ahead = reinterpret_cast<std::uintptr_t>(col) + kCol2PatchPrefetchBytes;
  for (std::uintptr_t a = 0; a < piece_bytes; a += 64) {
    hwy::Prefetch(reinterpret_cast<const T*>(ahead + a));
  }
}

/*!
 * \brief to[x * step] += from[x] for x < count. kPackets >= 0 (then step is 1 and T a float):
 *  the row is exactly kPackets full packets, a half packet if kHalf, and single elements if
 *  kSingles. kPackets < 0: any row, through SaveRun's packet loop where step is 1. Why fixed
 *  sizes: with the counts and tail checks at run time, conv2's rows of one 8-float packet made
 *  col2patch 1.5-2x slower (AVX2, Zen 3; bench/RESULTS.md "col2patch in blocks").
 */
template <int kPackets, bool kHalf, bool kSingles, typename T>
HWY_INLINE void Col2PatchAddRun(T* HWY_RESTRICT to, const T* HWY_RESTRICT from, index_t count,
                                index_t step) {
#if HWY_TARGET != HWY_SCALAR && HWY_TARGET != HWY_EMU128
  if constexpr (kPackets >= 0 && packet::kIsFloat<T>) {
    const packet::Tag<T> d;
    const hn::Half<decltype(d)> dh;
    const index_t lanes = static_cast<index_t>(hn::Lanes(d));
    index_t x = 0;
    for (int p = 0; p < kPackets; ++p, x += lanes) {
      hn::StoreU(hn::Add(hn::LoadU(d, to + x), hn::LoadU(d, from + x)), d, to + x);
    }
    if constexpr (kHalf) {
      hn::StoreU(hn::Add(hn::LoadU(dh, to + x), hn::LoadU(dh, from + x)), dh, to + x);
      x += static_cast<index_t>(hn::Lanes(dh));
    }
    if constexpr (kSingles) {
      for (; x < count; ++x) to[x] = T(to[x] + from[x]);
    }
    return;
  }
#endif
  if (step == 1) return SaveRun<sv::plusto>(count, to, from);
  for (index_t x = 0; x < count; ++x) to[x * step] = T(to[x * step] + from[x]);
}

/*!
 * \brief col2im of planes (n, c), n in [n_begin, n_end), summed into the planes (dense rows,
 *  +0 on entry) at planes + (n - n_begin) * plane_step: for each (ky, kx) the unit reads its
 *  piece of kernel row (c, ky, kx) front to back, one long run, and adds each patch row into its
 *  place in every plane of the block. An element thus receives its contributions in the element
 *  loop's (ky, kx) order, from +0 (the same bits). The lines kCol2PatchPrefetchBytes ahead of
 *  each plane's piece are prefetched (addresses formed as integers, never dereferenced). Why:
 *  one plane at a time read 25 pieces of 256 bytes from rows 32 KiB apart per conv2 plane, which
 *  share L1 sets and defeat the prefetchers; and with the hardware prefetcher alone the adds
 *  waited on the rows' reads (bench/RESULTS.md "col2patch in blocks").
 */
template <int kPackets, bool kHalf, bool kSingles, typename T>
void Col2PatchBlock(const RowsView<T>& mat, const PatchGeometry& g, index_t c, index_t n_begin,
                    index_t n_end, T* planes, index_t plane_step) {
  // Locals: stores through the planes would otherwise make the compiler reload g per row.
  const index_t width = g.width, oh = g.o_height, ow = g.o_width;
  const index_t kh = g.psize_y, kw = g.psize_x, sx = g.pstride_x, row_step = g.pstride_y * width;
  const index_t ld = mat.ld, piece = oh * ow;
  const std::uintptr_t piece_bytes = static_cast<std::uintptr_t>(piece) * sizeof(T);
  const T* first_row = mat.Row(c * kh * kw) + n_begin * piece;
  for (index_t ky = 0; ky < kh; ++ky) {
    for (index_t kx = 0; kx < kw; ++kx) {
      const T* col = first_row + (ky * kw + kx) * ld;
      T* plane = planes + ky * g.pdilate_y * width + kx * g.pdilate_x;
      for (index_t n = n_begin; n < n_end; ++n, plane += plane_step) {
        PrefetchColumnPieceAhead(col, piece_bytes);
        T* to = plane;
        for (index_t oy = 0; oy < oh; ++oy, col += ow, to += row_step) {
          Col2PatchAddRun<kPackets, kHalf, kSingles>(to, col, ow, sx);
        }
      }
    }
  }
}

#if HWY_TARGET != HWY_SCALAR && HWY_TARGET != HWY_EMU128
/*! \brief Float packets of 8 lanes (AVX2), for Col2PatchBlockRowsOf8x5: patch rows of one packet,
 *  5 kernel columns 1 apart (then image rows are 12 wide). */
template <typename T>
constexpr bool kCol2PatchRowsOf8 = std::is_same<T, float>::value &&
                                   (hn::MaxLanes(packet::Tag<T>()) == 8);
/*! \brief Whether Col2PatchBlockRowsOf8x5 applies to g. */
template <typename T>
bool Col2PatchRowsOf8x5(const PatchGeometry& g) {
  return kCol2PatchRowsOf8<T> && g.o_width == 8 && g.psize_x == 5 && g.pstride_x == 1 &&
         g.pdilate_x == 1;
}

/*!
 * \brief Col2PatchBlock for Col2PatchRowsOf8x5 (conv2 of the CNN on AVX2): the five kx adds of a
 *  kernel row ky go into one image row held in registers, a packet (x 0..7) and a half packet
 *  (x 8..11), loaded and stored once instead of five times. For kx, packet lane i receives the
 *  patch row's element i - kx: a load from kx elements before the row with lanes [0, kx)
 *  zeroed; half lane i < kx receives element 8 - kx + i: the row's upper half shifted down by
 *  4 - kx lanes, zeros shifted in. An element thus still receives its contributions in (ky, kx)
 *  order from +0, with +0 added where no patch reaches, which leaves such a sum unchanged (it is
 *  never -0), so the bits are Col2PatchBlock's. The kx elements read before a patch row lie in
 *  the column matrix (for kx >= 1, in this kernel row or the one before it) and are discarded.
 *  Why: at conv2's shape Col2PatchBlock spent a load and a store of an image row in L2 per (ky,
 *  kx); in cache it took 3.6x a memcpy of the bytes (bench/RESULTS.md "col2patch in blocks").
 */
template <typename T>
void Col2PatchBlockRowsOf8x5(const RowsView<T>& mat, const PatchGeometry& g, index_t c,
                             index_t n_begin, index_t n_end, T* planes, index_t plane_step) {
  const packet::Tag<T> d;
  const hn::Half<decltype(d)> dh;
  constexpr index_t kW = 8;  // patch row, then image row 8 + 4
  const index_t width = g.width, oh = g.o_height, kh = g.psize_y;
  const index_t row_step = g.pstride_y * width, ld = mat.ld, piece = oh * kW;
  const std::uintptr_t piece_bytes = static_cast<std::uintptr_t>(piece) * sizeof(T);
  const auto skip1 = hn::FirstN(d, 1), skip2 = hn::FirstN(d, 2), skip3 = hn::FirstN(d, 3),
             skip4 = hn::FirstN(d, 4);
  for (index_t ky = 0; ky < kh; ++ky) {
    const T* col = mat.Row((c * kh + ky) * 5) + n_begin * piece;  // kx = 0; kx at + kx * ld
    T* plane = planes + ky * g.pdilate_y * width;
    for (index_t n = n_begin; n < n_end; ++n, plane += plane_step) {
      for (index_t kx = 0; kx < 5; ++kx) PrefetchColumnPieceAhead(col + kx * ld, piece_bytes);
      T* to = plane;
      for (index_t oy = 0; oy < oh; ++oy, col += kW, to += row_step) {
        auto body = hn::LoadU(d, to);
        auto tail = hn::LoadU(dh, to + kW);
        body = hn::Add(body, hn::LoadU(d, col));
        body = hn::Add(body, hn::IfThenZeroElse(skip1, hn::LoadU(d, col + ld - 1)));
        tail = hn::Add(tail, hn::ShiftRightLanes<3>(dh, hn::LoadU(dh, col + ld + 4)));
        body = hn::Add(body, hn::IfThenZeroElse(skip2, hn::LoadU(d, col + 2 * ld - 2)));
        tail = hn::Add(tail, hn::ShiftRightLanes<2>(dh, hn::LoadU(dh, col + 2 * ld + 4)));
        body = hn::Add(body, hn::IfThenZeroElse(skip3, hn::LoadU(d, col + 3 * ld - 3)));
        tail = hn::Add(tail, hn::ShiftRightLanes<1>(dh, hn::LoadU(dh, col + 3 * ld + 4)));
        body = hn::Add(body, hn::IfThenZeroElse(skip4, hn::LoadU(d, col + 4 * ld - 4)));
        tail = hn::Add(tail, hn::LoadU(dh, col + 4 * ld + 4));
        hn::StoreU(body, d, to);
        hn::StoreU(tail, dh, to + kW);
      }
    }
  }
}
#endif

/*! \brief Col2PatchBlock with the row's make-up fixed where it has up to four full packets. */
template <typename T>
void Col2PatchBlockAnyWidth(const RowsView<T>& mat, const PatchGeometry& g, index_t c,
                            index_t n_begin, index_t n_end, T* planes, index_t plane_step) {
  int kind = -1;  // 4 * packets + 2 * half + singles, or -1
#if HWY_TARGET != HWY_SCALAR && HWY_TARGET != HWY_EMU128
  if (packet::kIsFloat<T> && g.pstride_x == 1) {
    const index_t lanes = static_cast<index_t>(hn::Lanes(packet::Tag<T>()));
    const index_t packets = g.o_width / lanes, rest = g.o_width - packets * lanes;
    const index_t half = rest >= lanes / 2 ? 1 : 0;
    if (packets <= 4) {
      kind = static_cast<int>(4 * packets + 2 * half + (rest - half * (lanes / 2) > 0 ? 1 : 0));
    }
  }
#endif
#if HWY_TARGET != HWY_SCALAR && HWY_TARGET != HWY_EMU128
  if constexpr (kCol2PatchRowsOf8<T>) {
    if (kind == 4 && Col2PatchRowsOf8x5<T>(g)) {
      return Col2PatchBlockRowsOf8x5(mat, g, c, n_begin, n_end, planes, plane_step);
    }
  }
#endif
  switch (kind) {
    case 0:
      return Col2PatchBlock<0, false, false>(mat, g, c, n_begin, n_end, planes, plane_step);
    case 1:
      return Col2PatchBlock<0, false, true>(mat, g, c, n_begin, n_end, planes, plane_step);
    case 2:
      return Col2PatchBlock<0, true, false>(mat, g, c, n_begin, n_end, planes, plane_step);
    case 3:
      return Col2PatchBlock<0, true, true>(mat, g, c, n_begin, n_end, planes, plane_step);
    case 4:
      return Col2PatchBlock<1, false, false>(mat, g, c, n_begin, n_end, planes, plane_step);
    case 5:
      return Col2PatchBlock<1, false, true>(mat, g, c, n_begin, n_end, planes, plane_step);
    case 6:
      return Col2PatchBlock<1, true, false>(mat, g, c, n_begin, n_end, planes, plane_step);
    case 7:
      return Col2PatchBlock<1, true, true>(mat, g, c, n_begin, n_end, planes, plane_step);
    case 8:
      return Col2PatchBlock<2, false, false>(mat, g, c, n_begin, n_end, planes, plane_step);
    case 9:
      return Col2PatchBlock<2, false, true>(mat, g, c, n_begin, n_end, planes, plane_step);
    case 10:
      return Col2PatchBlock<2, true, false>(mat, g, c, n_begin, n_end, planes, plane_step);
    case 11:
      return Col2PatchBlock<2, true, true>(mat, g, c, n_begin, n_end, planes, plane_step);
    case 12:
      return Col2PatchBlock<3, false, false>(mat, g, c, n_begin, n_end, planes, plane_step);
    case 13:
      return Col2PatchBlock<3, false, true>(mat, g, c, n_begin, n_end, planes, plane_step);
    case 14:
      return Col2PatchBlock<3, true, false>(mat, g, c, n_begin, n_end, planes, plane_step);
    case 15:
      return Col2PatchBlock<3, true, true>(mat, g, c, n_begin, n_end, planes, plane_step);
    case 16:
      return Col2PatchBlock<4, false, false>(mat, g, c, n_begin, n_end, planes, plane_step);
    case 17:
      return Col2PatchBlock<4, false, true>(mat, g, c, n_begin, n_end, planes, plane_step);
    case 18:
      return Col2PatchBlock<4, true, false>(mat, g, c, n_begin, n_end, planes, plane_step);
    case 19:
      return Col2PatchBlock<4, true, true>(mat, g, c, n_begin, n_end, planes, plane_step);
    default:
      return Col2PatchBlock<-1, false, false>(mat, g, c, n_begin, n_end, planes, plane_step);
  }
}
SHADE_TARGET_NAMESPACE_END
}  // namespace detail

/*!
 * \brief col2im of a column matrix stored in memory: one work unit per block of image planes
 *  (n, c) of one channel, summed by Col2PatchBlock in the (ky, kx) order the element loop sums
 *  them (so the values are identical), then stored. Threaded over blocks, visited channel by
 *  channel: a block reads a long piece of each of its channel's kernel rows, and consecutive
 *  blocks read consecutive pieces. In image order (n first) one image's planes read every
 *  kernel row of the matrix, rows that are a power-of-two apart at the CNN's shapes and evict
 *  each other from the caches: 2.8x slower at conv2's shape (bench/RESULTS.md, "col2patch
 *  channel by channel"); one plane at a time, each plane read 25 short pieces (bench/RESULTS.md
 *  "col2patch in blocks").
 */
template <typename SrcExp, typename DType, int dstdim>
struct TensorEvaluator<PackColToPatchXExp<SrcExp, DType, dstdim>> {
  /*! \brief Has a whole-tensor form. */
  static constexpr bool kAvailable = true;
  /*! \brief *dst Saver= e, or false when the column matrix is not read in place. */
  template <typename Saver, int dim>
  static bool Run(Tensor<cpu, dim, DType>* dst,
                  const PackColToPatchXExp<SrcExp, DType, dstdim>& e) {
    detail::RowsView<DType> mat;
    if (!detail::DirectRows<SrcExp>::Get(e.mat_, &mat)) return false;
    const PatchGeometry g = e.g_;
    const index_t area = g.height * g.width;
    const index_t block =
        std::max<index_t>(1, static_cast<index_t>(detail::kCol2PatchBlockBytes / sizeof(DType)) /
                                 std::max<index_t>(area, 1));
    // The sums may go straight into dst (ScatterPlaneBlocks' in_place) when the column matrix
    // lies wholly outside it: 6% less time at conv2's shape, 1 thread (no buffer to store).
    const bool apart =
        dst->shape_.Size() == 0 || mat.rows == 0 || mat.cols == 0 ||
        detail::RangesApart(dst->dptr_,
                            dst->dptr_ + (dst->shape_.ProdShape(0, dim - 1) - 1) * dst->stride_ +
                                dst->shape_[dim - 1],
                            mat.ptr, mat.ptr + (mat.rows - 1) * mat.ld + mat.cols);
    detail::ScatterPlaneBlocks<Saver>(
        dst, g.num, g.channel, g.height, g.width, block, area * g.psize_y * g.psize_x,
        [&mat, g](index_t c, index_t n_begin, index_t n_end, DType* planes, index_t plane_step) {
          detail::Col2PatchBlockAnyWidth(mat, g, c, n_begin, n_end, planes, plane_step);
        },
        apart);
    return true;
  }
};

}  // namespace expr
}  // namespace shade

#endif  // SHADE_EXPR_EXT_PATCH2COL_H_
