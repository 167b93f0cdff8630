/*!
 * \file ext_base.h
 * \brief Shared helpers of the extensions (expr/ext/): the checked run-time shape of a source
 *  expression, validation of caller-given shapes, and the pieces of the whole-tensor evaluators
 *  (`TensorEvaluator`, see expression.h): sources read in place as rows (`DirectRows`), the
 *  row store through a saver, and the threading grain of row loops.
 */
#ifndef SHADE_EXPR_EXT_EXT_BASE_H_
#define SHADE_EXPR_EXT_EXT_BASE_H_

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>

#include "shade/backend/cpu/kernels.h"
#include "shade/backend/cpu/parallel.h"
#include "shade/base/checked.h"
#include "shade/base/error.h"
#include "shade/base/index.h"
#include "shade/expr/check.h"
#include "shade/expr/engine.h"
#include "shade/expr/expression.h"
#include "shade/expr/map.h"
#include "shade/expr/plan.h"
#include "shade/memory/scratch.h"
#include "shade/shape/shape.h"
#include "shade/tensor/tensor.h"

namespace shade {
namespace expr {
namespace detail {

/*!
 * \brief Shape of `src` seen as rank `dim`. Throws when `src` is a bare scalar, which has no
 *  shape an extension could be built from; `who` names the extension in the message.
 */
template <int dim, typename SrcExp>
inline Shape<dim> SourceShape(const SrcExp& src, const char* who) {
  static_assert(ExpInfo<SrcExp>::kDim == dim,
                "shade: the source expression of this extension has the wrong rank");
  const Shape<dim> s = ShapeCheck<dim, SrcExp>::Check(src);
  SHADE_CHECK_SHAPE(!IsWildcardShape(s))
      << who << ": the source is a scalar expression, which has no shape";
  return s;
}

/*! \brief Throws unless every extent of `s` is >= 0 and their product fits index_t. */
template <int dim>
inline void CheckShapeArg(const Shape<dim>& s, const char* who) {
  for (int i = 0; i < dim; ++i) {
    SHADE_CHECK_SHAPE_GE(s[i], 0) << who << ": extent " << i << " of shape " << s << " is negative";
  }
  CheckedProduct(s.shape_, dim, who);
}

/*!
 * \brief Evaluates a 1-D index expression of `n` elements and converts it to index_t, checking
 *  that every value is an integer in [0, bound) (floating indices must be exact integers).
 *  `who` names the extension and `what` the bound in the message. Done once when a plan is
 *  built, so a bad index throws before anything is written.
 */
template <typename IDType, typename IndexExp>
inline std::shared_ptr<index_t[]> EvalIndices(const IndexExp& index, index_t n, index_t bound,
                                              const char* who, const char* what) {
  std::shared_ptr<index_t[]> out = MakeSharedScratch<index_t>(n, who);
  ScratchBuffer<IDType> raw(n, who);
  Tensor<cpu, 1, IDType> tmp(raw.get(), Shape1(n));
  MapExp<sv::saveto>(&tmp, index);
  for (index_t i = 0; i < n; ++i) {
    const IDType v = raw[static_cast<size_t>(i)];
    index_t k;
    if constexpr (std::is_integral<IDType>::value) {
      SHADE_CHECK_INDEX(static_cast<long double>(v) >= 0 && static_cast<long double>(v) < bound)
          << who << ": index " << +v << " at position " << i << " outside [0, " << bound << ") ("
          << what << ")";
      k = static_cast<index_t>(v);
    } else {
      const double d = static_cast<double>(v);
      SHADE_CHECK(d >= 0 && d < static_cast<double>(bound) && std::floor(d) == d)
          << who << ": index " << d << " at position " << i << " is not an integer in [0, " << bound
          << ") (" << what << ")";
      k = static_cast<index_t>(d);
    }
    out[static_cast<size_t>(i)] = k;
  }
  return out;
}

/*! \brief A source seen as `rows` rows of `cols` elements, consecutive rows `ld` apart. */
template <typename DType>
struct RowsView {
  const DType* ptr;
  index_t rows, cols, ld;
  /*! \brief Start of row r. */
  SHADE_XINLINE const DType* Row(index_t r) const { return ptr + r * ld; }
  /*! \brief True when the rows follow each other without a gap (flat indexing is valid). */
  SHADE_XINLINE bool Dense() const { return ld == cols || rows <= 1; }
};

/*!
 * \brief Source expressions whose elements lie in memory and can be read in place by the
 *  whole-tensor evaluators: `Get(e, &view)` fills the FlatTo2D rows of `e` and returns true,
 *  or returns false (the evaluator then leaves the work to the element loop). Tensors here;
 *  reshape.h adds reshapes of tensors.
 */
template <typename E>
struct DirectRows {
  /*! \brief Not stored in memory. */
  template <typename DType>
  static bool Get(const E& /*e*/, RowsView<DType>* /*view*/) {
    return false;
  }
};
template <int dim, typename DType>
struct DirectRows<Tensor<cpu, dim, DType>> {
  /*! \brief The tensor's rows with its pitch. */
  static bool Get(const Tensor<cpu, dim, DType>& t, RowsView<DType>* view) {
    *view = {t.dptr_, t.shape_.ProdShape(0, dim - 1), t.shape_[dim - 1], t.stride_};
    return true;
  }
};

/*! \brief Longest run, in bytes, that CopyShortRun copies inline. */
constexpr std::size_t kShortRunBytes = 64;
/*!
 * \brief Copies `bytes` <= kShortRunBytes from `src` to the non-overlapping `dst` with two
 *  fixed-size, possibly overlapping moves (inlined: no memmove call, which for the 8- to
 *  24-float rows of im2col cost more than the copy itself).
 */
SHADE_XINLINE void CopyShortRun(unsigned char* dst, const unsigned char* src, std::size_t bytes) {
  const auto two = [&](auto size_tag) {
    constexpr std::size_t k = decltype(size_tag)::value;
    std::memcpy(dst, src, k);
    if (bytes != k) std::memcpy(dst + bytes - k, src + bytes - k, k);
  };
  if (bytes >= 32) {
    two(std::integral_constant<std::size_t, 32>());
  } else if (bytes >= 16) {
    two(std::integral_constant<std::size_t, 16>());
  } else if (bytes >= 8) {
    two(std::integral_constant<std::size_t, 8>());
  } else if (bytes >= 4) {
    two(std::integral_constant<std::size_t, 4>());
  } else if (bytes >= 2) {
    two(std::integral_constant<std::size_t, 2>());
  } else if (bytes == 1) {
    dst[0] = src[0];
  }
}

/*! \brief Longest run, in bytes, that CopyShortRuns copies with fixed-size moves. */
constexpr std::size_t kShortRunsBytes = 128;
/*!
 * \brief `runs` copies of `bytes` <= kShortRunsBytes bytes, run r from src + r * src_step to
 *  dst + r * dst_step (steps in bytes), none overlapping another's source. The size class is
 *  picked once for all runs, so each run is two fixed-size moves and no branch (im2col's 8-float
 *  rows: a quarter of the time of a CopyShortRun call per row). CopyShortRun keeps its own
 *  ladder: as CopyShortRuns(1, ...) it made unpool 1.19x and col2patch 1.17x slower
 *  (bench_ext, 2026-11-26).
 */
SHADE_XINLINE void CopyShortRuns(index_t runs, unsigned char* dst, index_t dst_step,
                                 const unsigned char* src, index_t src_step, std::size_t bytes) {
  const auto loop = [&](auto size_tag) {
    constexpr std::size_t k = decltype(size_tag)::value;
    if (bytes == k) {  // one move: a second, identical store made 8-float rows 1.4x slower
      for (index_t r = 0; r < runs; ++r, dst += dst_step, src += src_step) {
        std::memcpy(dst, src, k);
      }
      return;
    }
    for (index_t r = 0; r < runs; ++r, dst += dst_step, src += src_step) {
      std::memcpy(dst, src, k);
      std::memcpy(dst + bytes - k, src + bytes - k, k);
    }
  };
  if (bytes >= 64) {
    loop(std::integral_constant<std::size_t, 64>());
  } else if (bytes >= 32) {
    loop(std::integral_constant<std::size_t, 32>());
  } else if (bytes >= 16) {
    loop(std::integral_constant<std::size_t, 16>());
  } else if (bytes >= 8) {
    loop(std::integral_constant<std::size_t, 8>());
  } else if (bytes >= 4) {
    loop(std::integral_constant<std::size_t, 4>());
  } else if (bytes >= 2) {
    loop(std::integral_constant<std::size_t, 2>());
  } else if (bytes == 1) {
    for (index_t r = 0; r < runs; ++r, dst += dst_step, src += src_step) dst[0] = src[0];
  }
}

/*!
 * \brief Whether the byte ranges [a, a_end) and [b, b_end) share no byte, compared as integers
 *  (the ranges may belong to different objects). THE overlap test of the layout evaluators'
 *  direct paths (SaveRun's copies, im2col's row copies, col2patch's in-place sums).
 */
inline bool RangesApart(const void* a, const void* a_end, const void* b, const void* b_end) {
  const auto a0 = reinterpret_cast<std::uintptr_t>(a), a1 = reinterpret_cast<std::uintptr_t>(a_end);
  const auto b0 = reinterpret_cast<std::uintptr_t>(b), b1 = reinterpret_cast<std::uintptr_t>(b_end);
  return a1 <= b0 || b1 <= a0;
}

/*!
 * \brief dst[i] Saver= src[i] for i < n (`src` a pointer or kernel::Scalar): a plain copy or
 *  fill for `=` (short runs cost no packet tail), else the kernels' packet loop.
 */
template <typename Saver, typename DType, typename Src>
SHADE_XINLINE void SaveRun(index_t n, DType* dst, Src src) {
  if constexpr (!std::is_same<Saver, sv::saveto>::value) {
    kernel::MapRun<Saver, op::identity>(n, dst, src);
  } else if constexpr (std::is_pointer<Src>::value) {
    const std::size_t bytes = static_cast<std::size_t>(n > 0 ? n : 0) * sizeof(DType);
    const auto* d = reinterpret_cast<const unsigned char*>(dst);
    const auto* s = reinterpret_cast<const unsigned char*>(src);
    if (std::is_trivially_copyable<DType>::value && bytes <= kShortRunBytes &&
        RangesApart(d, d + bytes, s, s + bytes)) {
      CopyShortRun(reinterpret_cast<unsigned char*>(dst),
                   reinterpret_cast<const unsigned char*>(src), bytes);
      return;
    }
    std::copy(src, src + n, dst);
  } else {
    std::fill(dst, dst + n, src.value);
  }
}

/*! \brief Stores a dense rows x cols plane into rows `pitch` apart (one run when they touch). */
template <typename Saver, typename DType>
inline void SavePlane(index_t rows, index_t cols, const DType* plane, DType* out, index_t pitch) {
  if (pitch == cols) {
    SaveRun<Saver>(rows * cols, out, plane);
    return;
  }
  for (index_t y = 0; y < rows; ++y) SaveRun<Saver>(cols, out + y * pitch, plane + y * cols);
}

/*!
 * \brief Work units of `elems` elements each that make one ParallelFor chunk: small work runs
 *  inline, as in the element loops.
 */
inline index_t UnitGrain(index_t elems) {
  return std::max<index_t>(1, kernel::kMapGrain / std::max<index_t>(elems, 1));
}

/*!
 * \brief THE plane loop of the scatter evaluators (col2patch, unpool). The planes, numbered
 *  u = o * inner + i (o < outer, i < inner), go in units of up to `block` planes of one i and
 *  consecutive o, visited i-major (all o for i = 0 first). Each unit's planes start at +0 and
 *  receive `scatter(i, o_begin, o_end, planes, plane_step)`'s sums: plane o, dense rows x cols,
 *  at planes + (o - o_begin) * plane_step. They are then stored into destination rows
 *  [u * rows, (u + 1) * rows) through Saver. Threaded over units; `work` is the element work per
 *  plane, for the grain. With `in_place` (the caller's sources do not overlap dst), a `=` into
 *  dense rows sums in dst itself; otherwise in a buffer per chunk, then stored. col2patch visits
 *  (n, c) planes channel by channel so that its reads walk each kernel row of the column matrix
 *  front to back, and in blocks so that each piece it reads is long.
 */
template <typename Saver, int dim, typename DType, typename Scatter>
inline void ScatterPlaneBlocks(Tensor<cpu, dim, DType>* dst, index_t outer, index_t inner,
                               index_t rows, index_t cols, index_t block, index_t work,
                               Scatter scatter, bool in_place = false) {
  const index_t area = rows * cols;
  block = std::max<index_t>(1, std::min(block, outer));
  const index_t blocks = outer > 0 ? (outer - 1) / block + 1 : 0;
  in_place = in_place && std::is_same<Saver, sv::saveto>::value && dst->stride_ == cols;
  ParallelFor(0, inner * blocks, UnitGrain(work * block), [&](index_t b, index_t end) {
    ScratchBuffer<DType> buf;
    if (!in_place) buf.reset(CheckedMul(area, block, "scatter block"), "scatter block");
    for (index_t v = b; v < end; ++v) {
      const index_t i = v / blocks, o_begin = (v - i * blocks) * block;
      const index_t o_end = std::min(outer, o_begin + block);
      if (in_place) {
        DType* planes = dst->dptr_ + (o_begin * inner + i) * area;
        for (index_t o = o_begin; o < o_end; ++o) {
          std::fill_n(planes + (o - o_begin) * inner * area, area, DType(0));
        }
        scatter(i, o_begin, o_end, planes, inner * area);
        continue;
      }
      std::fill(buf.get(), buf.get() + (o_end - o_begin) * area, DType(0));
      scatter(i, o_begin, o_end, buf.get(), area);
      for (index_t o = o_begin; o < o_end; ++o) {
        SavePlane<Saver>(rows, cols, buf.get() + (o - o_begin) * area,
                         dst->dptr_ + (o * inner + i) * rows * dst->stride_, dst->stride_);
      }
    }
  });
}

/*!
 * \brief ScatterPlaneBlocks one plane at a time, always through a buffer: plane u in
 *  [0, planes) receives `scatter(u, buf)`; with `outer` > 1 (`planes` a multiple of it) planes
 *  u = o * (planes / outer) + i are visited i-major.
 */
template <typename Saver, int dim, typename DType, typename Scatter>
inline void ScatterPlanes(Tensor<cpu, dim, DType>* dst, index_t planes, index_t rows, index_t cols,
                          index_t work, Scatter scatter, index_t outer = 1) {
  outer = std::max<index_t>(outer, 1);
  const index_t inner = planes / outer;
  ScatterPlaneBlocks<Saver>(
      dst, outer, inner, rows, cols, 1, work,
      [&](index_t i, index_t o, index_t, DType* buf, index_t) { scatter(o * inner + i, buf); });
}

/*!
 * \brief Element (y, x) of a result of shape `shape` is the source element at dense flat index
 *  sum_d i_d * sstride[d] (the source's last extent `src_last` splits it into row and column).
 *  THE index map of transpose (permuted steps) and broadcast_with_axis (zero steps).
 */
template <typename SrcExp, typename DType, int dim>
class StepGatherPlan {
 public:
  /*! \brief Plan over `src` with the result's shape and steps. */
  StepGatherPlan(const SrcExp& src, const Shape<dim>& shape, const Shape<dim>& sstride,
                 index_t src_last)
      : src_(MakePlan(src)), shape_(shape), sstride_(sstride), src_last_(src_last) {}
  /*! \brief Element (y, x). */
  SHADE_XINLINE DType Eval(index_t y, index_t x) const {
    index_t flat = x * sstride_[dim - 1];
    for (int d = dim - 2; d >= 0; --d) {
      flat += (y % shape_[d]) * sstride_[d];
      y /= shape_[d];
    }
    return src_.Eval(flat / src_last_, flat % src_last_);
  }

 private:
  Plan<SrcExp, DType> src_;
  Shape<dim> shape_, sstride_;
  index_t src_last_;
};

/*!
 * \brief Whole-tensor form of StepGatherPlan: `*dst Saver=` the result, one work unit per run
 *  of result elements, whose source start is kept by an odometer over the leading indices (no
 *  division per element). When the last result axis has step 1 and every other step is whole
 *  source rows, a result row is a contiguous piece of a source row (a block copy; pitched
 *  sources too), and with a dense source and destination the trailing axes that continue it
 *  join the run (swapaxis<1, 0> of (C, N, H, W) copies runs of H * W); otherwise each row is
 *  gathered with the last step (dense sources only). Returns false, writing nothing, when the
 *  source is not read in place. Threaded over runs.
 */
template <typename Saver, typename SrcExp, typename DType, int dim>
inline bool StepGatherInto(Tensor<cpu, dim, DType>* dst, const SrcExp& source,
                           const Shape<dim>& shape, const Shape<dim>& sstride, index_t src_last) {
  RowsView<DType> src;
  if (!DirectRows<SrcExp>::Get(source, &src)) return false;
  if (shape.Size() == 0) return true;
  bool row_copy = sstride[dim - 1] == 1;
  for (int d = 0; d < dim - 1; ++d) row_copy = row_copy && sstride[d] % src_last == 0;
  if (!row_copy && !src.Dense()) return false;
  Shape<dim> step;  // pointer step per unit of each leading result index
  for (int d = 0; d < dim - 1; ++d)
    step[d] = row_copy ? sstride[d] / src_last * src.ld : sstride[d];
  int outer = dim - 1;  // axes [0, outer) are walked, the rest is one run
  index_t run = shape[dim - 1];
  if (row_copy && src.Dense() && dst->CheckContiguous()) {
    while (outer > 0 && sstride[outer - 1] == run) run *= shape[--outer];
  }
  const index_t pitch = outer < dim - 1 ? run : dst->stride_;
  const index_t xstep = sstride[dim - 1];
  const index_t units = shape.ProdShape(0, outer);
  ParallelFor(0, units, UnitGrain(run), [&](index_t b, index_t end) {
    const Shape<dim> ext = shape, st = step;
    const int k = outer;
    index_t idx[dim] = {};
    index_t off = 0;
    index_t rem = b;
    for (int d = k - 1; d >= 0; --d) {
      idx[d] = rem % ext[d];
      rem /= ext[d];
      off += idx[d] * st[d];
    }
    DType* out = dst->dptr_ + b * pitch;
    for (index_t u = b; u < end; ++u, out += pitch) {
      const DType* in = src.ptr + off;
      if (row_copy) {
        SaveRun<Saver>(run, out, in);
      } else {
        for (index_t x = 0; x < run; ++x) Saver::Save(out[x], in[x * xstep]);
      }
      for (int d = k - 1; d >= 0; --d) {  // next unit: carry through the odometer
        off += st[d];
        if (++idx[d] < ext[d]) break;
        off -= st[d] * ext[d];
        idx[d] = 0;
      }
    }
  });
  return true;
}

}  // namespace detail
}  // namespace expr
}  // namespace shade

#endif  // SHADE_EXPR_EXT_EXT_BASE_H_
