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
      const auto o0 = reinterpret_cast<std::uintptr_t>(out);
      const auto o1 = reinterpret_cast<std::uintptr_t>(out + plane);
      if (!(o1 <= reinterpret_cast<std::uintptr_t>(first) ||
            reinterpret_cast<std::uintptr_t>(last) <= o0)) {
        return false;
      }
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
#if HWY_TARGET != HWY_SCALAR && HWY_TARGET != HWY_EMU128
/*! \brief col2im of T has the packet form of Col2PatchPlaneInPackets. */
template <typename T>
constexpr bool kCol2PatchPackets = packet::kIsFloat<T>;
/*! \brief Whether the geometry fits it: stride 1, no dilation, an image row within one packet. */
template <typename T>
inline bool Col2PatchRowsFit(const PatchGeometry& g) {
  return g.pstride_y == 1 && g.pstride_x == 1 && g.pdilate_y == 1 && g.pdilate_x == 1 &&
         g.width <= static_cast<index_t>(hn::Lanes(packet::Tag<T>()));
}

/*!
 * \brief The lookup indices of the col2im plane loops, per kx (kw <= width <= Lanes), as lane
 *  values (vectors cannot be array elements on every Highway target). Built once per
 *  evaluation: rebuilt per plane, the vector loads of entries just written lane by lane waited
 *  on store forwarding (a third of the plane's time).
 *  - `index` (Col2PatchPlaneInPackets): lane j takes patch-row lane j - kx, or lane Lanes - 1
 *    outside [kx, kx + ow), which is zero unless kx = 0 and ow = Lanes.
 *  - `pair_lo`, `pair_hi`, `pair_in` (Col2PatchPlanePairs, a packet holding patch rows oy and
 *    oy + 1): lane j takes lane j - kx (row oy) or j - kx + ow (row oy + 1) where `pair_in` is
 *    all ones, that is inside [kx, kx + ow); the other lanes are zeroed.
 */
template <typename T>
struct Col2PatchTable {
  using TI = hn::TFromD<hn::RebindToSigned<packet::Tag<T>>>;  ///< Lane index type.
  /*! \brief Entries per table: room for kw <= Lanes rows of Lanes lanes. */
  static constexpr std::size_t kEntries = packet::kMaxLanes<T> * packet::kMaxLanes<T>;
  HWY_ALIGN TI index[kEntries];    ///< kw x Lanes lanes of Col2PatchPlaneInPackets.
  HWY_ALIGN TI pair_lo[kEntries];  ///< kw x Lanes lanes from the pair's first row.
  HWY_ALIGN TI pair_hi[kEntries];  ///< kw x Lanes lanes from the pair's second row.
  HWY_ALIGN TI pair_in[kEntries];  ///< kw x Lanes: all ones inside [kx, kx + ow), else 0.
  /*! \brief The entries of geometry g. */
  explicit Col2PatchTable(const PatchGeometry& g) {
    const index_t lanes = static_cast<index_t>(hn::Lanes(packet::Tag<T>()));
    for (index_t kx = 0; kx < g.psize_x; ++kx) {
      for (index_t j = 0; j < lanes; ++j) {
        const bool in = j >= kx && j < kx + g.o_width;
        index[kx * lanes + j] = static_cast<TI>(in ? j - kx : lanes - 1);
        pair_lo[kx * lanes + j] = static_cast<TI>(in ? j - kx : 0);
        pair_hi[kx * lanes + j] = static_cast<TI>(in ? j - kx + g.o_width : 0);
        pair_in[kx * lanes + j] = static_cast<TI>(in ? -1 : 0);
      }
    }
  }
};

/*!
 * \brief col2im of plane (n, c) when an image row fits one packet (Col2PatchRowsFit): each row
 *  y is summed in a register from the patch rows that cover it, in the (ky, kx) order of the
 *  element loop (so the same bits), each patch row loaded with its ow elements and moved to
 *  lanes [kx, kx + ow) by a table lookup (`table`); the sum is stored once into `buf`
 *  (height x width). Why: the scatter into a plane buffer spent about 12 cycles per 8-element
 *  patch row on loop overhead and on loads that overlap the previous row's store; here a patch
 *  row costs a load, a lookup and an add. Four rows are summed together, each in its own
 *  register: one row at a time, each addition waited on the previous one (up to kh x kw in a
 *  chain).
 */
template <typename T>
void Col2PatchPlaneInPackets(const RowsView<T>& mat, const PatchGeometry& g,
                             const Col2PatchTable<T>& table, index_t n, index_t c, T* buf) {
  constexpr index_t kCol2PatchRows = 4;
  const packet::Tag<T> d;
  const index_t lanes = static_cast<index_t>(hn::Lanes(d));
  const index_t oh = g.o_height, ow = g.o_width, kh = g.psize_y, kw = g.psize_x;
  const index_t windows = oh * ow;
  const T* first_row = mat.Row(c * kh * kw) + n * windows;
  const std::size_t row_elems = static_cast<std::size_t>(ow);
  for (index_t y0 = 0; y0 < g.height; y0 += kCol2PatchRows) {
    const index_t rows = std::min(kCol2PatchRows, g.height - y0);
    // Rows y0 + r, r < kCol2PatchRows, each summed in its own register. The patch rows
    // oy = y - ky in [0, oh) cover image row y; ky runs over the union of the rows' ranges, and
    // a row outside its range (or past the plane) adds a zero vector instead: a sum that starts
    // at +0 is never -0, so adding +0 leaves its bits unchanged (as for the lanes outside a
    // patch row).
    const index_t ky_begin = std::max<index_t>(0, y0 - oh + 1);
    const index_t ky_end = std::min(kh, y0 + rows);
    auto acc0 = hn::Zero(d), acc1 = acc0, acc2 = acc0, acc3 = acc0;
    for (index_t ky = ky_begin; ky < ky_end; ++ky) {
      std::size_t count[kCol2PatchRows];
      index_t offset[kCol2PatchRows];
      for (index_t r = 0; r < kCol2PatchRows; ++r) {
        const index_t oy = y0 + r - ky;
        const bool covers = r < rows && oy >= 0 && oy < oh;
        count[r] = covers ? row_elems : 0;
        offset[r] = covers ? oy * ow : 0;
      }
      const T* col = first_row + ky * kw * mat.ld;
      for (index_t kx = 0; kx < kw; ++kx, col += mat.ld) {
        const auto idx = hn::SetTableIndices(d, table.index + kx * lanes);
        acc0 = hn::Add(acc0,
                       hn::TableLookupLanes(packet::LoadFirst(d, col + offset[0], count[0]), idx));
        acc1 = hn::Add(acc1,
                       hn::TableLookupLanes(packet::LoadFirst(d, col + offset[1], count[1]), idx));
        acc2 = hn::Add(acc2,
                       hn::TableLookupLanes(packet::LoadFirst(d, col + offset[2], count[2]), idx));
        acc3 = hn::Add(acc3,
                       hn::TableLookupLanes(packet::LoadFirst(d, col + offset[3], count[3]), idx));
      }
    }
    const auto width = static_cast<std::size_t>(g.width);
    T* out = buf + y0 * g.width;
    packet::StoreFirst(d, acc0, out, width);
    if (rows > 1) packet::StoreFirst(d, acc1, out + g.width, width);
    if (rows > 2) packet::StoreFirst(d, acc2, out + 2 * g.width, width);
    if (rows > 3) packet::StoreFirst(d, acc3, out + 3 * g.width, width);
  }
}

/*! \brief Most image rows Col2PatchPlanePairs keeps (its running sums live on the stack). */
constexpr index_t kCol2PatchPairRows = 64;
/*! \brief Whether Col2PatchPlanePairs fits g (besides Col2PatchRowsFit): two patch rows fit a
 *  packet and the plane has at most kCol2PatchPairRows rows. */
template <typename T>
inline bool Col2PatchPairsFit(const PatchGeometry& g) {
  return 2 * g.o_width <= static_cast<index_t>(hn::Lanes(packet::Tag<T>())) &&
         g.height <= kCol2PatchPairRows;
}

/*!
 * \brief col2im of plane (n, c) when two patch rows fit a packet (Col2PatchPairsFit): patch rows
 *  oy and oy + 1 of a kernel row are contiguous, so one load brings both, and two table
 *  lookups (`table.pair_*`) move them to lanes [kx, kx + ow) of image rows oy + ky and
 *  oy + 1 + ky. Each image row's running sum is a packet in `rows`, read and written once
 *  per (ky, pair) and kept in registers over kx, so every element still receives its
 *  contributions in the element loop's (ky, kx) order, from +0 (the same bits). Why: against
 *  Col2PatchPlaneInPackets, one load and no zero vectors per two patch rows; conv2's planes
 *  (8-float patch rows, AVX-512) 1.2-1.35x faster in cache.
 */
template <typename T>
void Col2PatchPlanePairs(const RowsView<T>& mat, const PatchGeometry& g,
                         const Col2PatchTable<T>& table, index_t n, index_t c, T* buf) {
  const packet::Tag<T> d;
  const hn::RebindToSigned<decltype(d)> di;
  const index_t lanes = static_cast<index_t>(hn::Lanes(d));
  const index_t oh = g.o_height, ow = g.o_width, kh = g.psize_y, kw = g.psize_x;
  HWY_ALIGN T rows[kCol2PatchPairRows * packet::kMaxLanes<T>];
  for (index_t y = 0; y < g.height; ++y) hn::Store(hn::Zero(d), d, rows + y * lanes);
  const T* first_row = mat.Row(c * kh * kw) + n * oh * ow;
  // Lanes [kx, kx + ow) of the lookup of patch rows in `v` by `index`, the others zero.
  const auto place = [&](index_t kx, const typename Col2PatchTable<T>::TI* index, auto v) {
    const auto in = hn::MaskFromVec(hn::BitCast(d, hn::Load(di, table.pair_in + kx * lanes)));
    return hn::IfThenElseZero(in, hn::TableLookupLanes(v, hn::SetTableIndices(d, index)));
  };
  for (index_t ky = 0; ky < kh; ++ky) {
    const T* kernel_row = first_row + ky * kw * mat.ld;
    index_t oy = 0;
    for (; oy + 2 <= oh; oy += 2) {
      T* sums = rows + (oy + ky) * lanes;
      auto s0 = hn::Load(d, sums), s1 = hn::Load(d, sums + lanes);
      const T* col = kernel_row + oy * ow;
      for (index_t kx = 0; kx < kw; ++kx, col += mat.ld) {
        const auto v = packet::LoadFirst(d, col, static_cast<std::size_t>(2 * ow));
        s0 = hn::Add(s0, place(kx, table.pair_lo + kx * lanes, v));
        s1 = hn::Add(s1, place(kx, table.pair_hi + kx * lanes, v));
      }
      hn::Store(s0, d, sums);
      hn::Store(s1, d, sums + lanes);
    }
    if (oy < oh) {  // an odd last patch row
      T* sums = rows + (oy + ky) * lanes;
      auto s0 = hn::Load(d, sums);
      const T* col = kernel_row + oy * ow;
      for (index_t kx = 0; kx < kw; ++kx, col += mat.ld) {
        const auto v = packet::LoadFirst(d, col, static_cast<std::size_t>(ow));
        s0 = hn::Add(s0, place(kx, table.pair_lo + kx * lanes, v));
      }
      hn::Store(s0, d, sums);
    }
  }
  for (index_t y = 0; y < g.height; ++y) {
    packet::StoreFirst(d, hn::Load(d, rows + y * lanes), buf + y * g.width,
                       static_cast<std::size_t>(g.width));
  }
}
#else  // scalar targets: the scatter below runs (declarations for name lookup only)
template <typename T>
constexpr bool kCol2PatchPackets = false;
template <typename T>
bool Col2PatchRowsFit(const PatchGeometry& g);
template <typename T>
struct Col2PatchTable {
  explicit Col2PatchTable(const PatchGeometry& g);
};
template <typename T>
void Col2PatchPlaneInPackets(const RowsView<T>& mat, const PatchGeometry& g,
                             const Col2PatchTable<T>& table, index_t n, index_t c, T* buf);
template <typename T>
bool Col2PatchPairsFit(const PatchGeometry& g);
template <typename T>
void Col2PatchPlanePairs(const RowsView<T>& mat, const PatchGeometry& g,
                         const Col2PatchTable<T>& table, index_t n, index_t c, T* buf);
#endif
/*! \brief Bytes of planes one col2patch unit sums at once (ScatterPlaneBlocks): the block
 *  stays in L1 while the unit reads each of its kernel rows once. */
constexpr std::size_t kCol2PatchBlockBytes = 1 << 17;

/*!
 * \brief to[x * step] += from[x] for x < count. With step 1 and float T: `kPackets` full
 *  packets (-1: as many as fit, counted at run time), then a half packet where one fits, then
 *  single elements. Why the fixed count: a loop over conv2's single 8-float packet, with its
 *  trip count known only at run time, ran col2patch 2-3x slower than the same adds unrolled
 *  (AVX2, Zen 3; bench/RESULTS.md "col2patch in blocks").
 */
template <int kPackets, typename T>
HWY_INLINE void Col2PatchAddRun(T* HWY_RESTRICT to, const T* HWY_RESTRICT from, index_t count,
                                index_t step) {
  index_t x = 0;
#if HWY_TARGET != HWY_SCALAR && HWY_TARGET != HWY_EMU128
  if constexpr (packet::kIsFloat<T>) {
    if (step == 1) {
      const packet::Tag<T> d;
      const index_t lanes = static_cast<index_t>(hn::Lanes(d));
      if constexpr (kPackets >= 0) {
        for (int p = 0; p < kPackets; ++p, x += lanes) {
          hn::StoreU(hn::Add(hn::LoadU(d, to + x), hn::LoadU(d, from + x)), d, to + x);
        }
      } else {
        for (; x + lanes <= count; x += lanes) {
          hn::StoreU(hn::Add(hn::LoadU(d, to + x), hn::LoadU(d, from + x)), d, to + x);
        }
      }
      const hn::Half<decltype(d)> dh;
      const index_t half = static_cast<index_t>(hn::Lanes(dh));
      if (x + half <= count) {
        hn::StoreU(hn::Add(hn::LoadU(dh, to + x), hn::LoadU(dh, from + x)), dh, to + x);
        x += half;
      }
    }
  }
#endif
  for (; x < count; ++x) to[x * step] = T(to[x * step] + from[x]);
}

/*!
 * \brief col2im of planes (n, c), n in [n_begin, n_end), summed into `buf` (those planes, dense):
 *  for each (ky, kx) the unit reads its piece of kernel row (c, ky, kx) front to back, one long
 *  run, and adds each patch row into its place in every plane of the block. An element thus
 *  receives its contributions in the element loop's (ky, kx) order, from +0 (the same bits).
 *  Why: one plane at a time read 25 pieces of 256 bytes from rows 32 KiB apart per conv2 plane,
 *  which share L1 sets and defeat the prefetchers (bench/RESULTS.md "col2patch in blocks").
 */
template <int kPackets, typename T>
void Col2PatchBlock(const RowsView<T>& mat, const PatchGeometry& g, index_t c, index_t n_begin,
                    index_t n_end, T* buf) {
  // Locals: stores through `to` would otherwise make the compiler reload g per patch row.
  const index_t width = g.width, area = g.height * width, oh = g.o_height, ow = g.o_width;
  const index_t kh = g.psize_y, kw = g.psize_x, sx = g.pstride_x, row_step = g.pstride_y * width;
  const index_t ld = mat.ld;
  const T* first_row = mat.Row(c * kh * kw) + n_begin * oh * ow;
  for (index_t ky = 0; ky < kh; ++ky) {
    for (index_t kx = 0; kx < kw; ++kx) {
      const T* col = first_row + (ky * kw + kx) * ld;
      T* plane = buf + ky * g.pdilate_y * width + kx * g.pdilate_x;
      for (index_t n = n_begin; n < n_end; ++n, plane += area) {
        T* to = plane;
        for (index_t oy = 0; oy < oh; ++oy, col += ow, to += row_step) {
          Col2PatchAddRun<kPackets>(to, col, ow, sx);
        }
      }
    }
  }
}

/*! \brief Col2PatchBlock with its full-packet count fixed where a patch row has up to four. */
template <typename T>
void Col2PatchBlockAnyWidth(const RowsView<T>& mat, const PatchGeometry& g, index_t c,
                            index_t n_begin, index_t n_end, T* buf) {
  index_t packets = -1;
#if HWY_TARGET != HWY_SCALAR && HWY_TARGET != HWY_EMU128
  if (packet::kIsFloat<T> && g.pstride_x == 1) {
    packets = g.o_width / static_cast<index_t>(hn::Lanes(packet::Tag<T>()));
  }
#endif
  switch (packets) {
    case 0:
      return Col2PatchBlock<0>(mat, g, c, n_begin, n_end, buf);
    case 1:
      return Col2PatchBlock<1>(mat, g, c, n_begin, n_end, buf);
    case 2:
      return Col2PatchBlock<2>(mat, g, c, n_begin, n_end, buf);
    case 3:
      return Col2PatchBlock<3>(mat, g, c, n_begin, n_end, buf);
    case 4:
      return Col2PatchBlock<4>(mat, g, c, n_begin, n_end, buf);
    default:
      return Col2PatchBlock<-1>(mat, g, c, n_begin, n_end, buf);
  }
}
SHADE_TARGET_NAMESPACE_END
}  // namespace detail

/*!
 * \brief col2im of a column matrix stored in memory: one work unit per image plane (n, c),
 *  which scatter-adds its patches into a plane buffer, in the (ky, kx) order the element loop
 *  sums them (so the values are identical), then stores the plane. Threaded over planes,
 *  visited channel by channel (all n for c = 0 first): a plane reads a piece of each of its
 *  channel's kernel rows, so consecutive planes then read consecutive pieces of the same rows.
 *  In image order (n first) one image's planes read every kernel row of the matrix, rows that
 *  are a power-of-two apart at the CNN's shapes and evict each other from the caches: 2.8x
 *  slower at conv2's shape (bench/RESULTS.md, "col2patch channel by channel").
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
    if constexpr (detail::kCol2PatchPackets<DType>) {
      if (detail::Col2PatchRowsFit<DType>(g)) {
        const detail::Col2PatchTable<DType> table(g);
        const bool pairs = detail::Col2PatchPairsFit<DType>(g);
        detail::ScatterPlanes<Saver>(
            dst, g.num * g.channel, g.height, g.width, g.height * g.width * g.psize_y * g.psize_x,
            [&mat, g, &table, pairs](index_t u, DType* buf) {
              const index_t n = u / g.channel, c = u - n * g.channel;
              if (pairs) {
                detail::Col2PatchPlanePairs(mat, g, table, n, c, buf);
              } else {
                detail::Col2PatchPlaneInPackets(mat, g, table, n, c, buf);
              }
            },
            g.num);
        return true;
      }
    }
    const index_t area = g.height * g.width;
    const index_t block =
        std::max<index_t>(1, static_cast<index_t>(detail::kCol2PatchBlockBytes / sizeof(DType)) /
                                 std::max<index_t>(area, 1));
    detail::ScatterPlaneBlocks<Saver>(
        dst, g.num, g.channel, g.height, g.width, block, area * g.psize_y * g.psize_x,
        [&mat, g](index_t c, index_t n_begin, index_t n_end, DType* buf) {
          detail::Col2PatchBlockAnyWidth(mat, g, c, n_begin, n_end, buf);
        });
    return true;
  }
};

}  // namespace expr
}  // namespace shade

#endif  // SHADE_EXPR_EXT_PATCH2COL_H_
