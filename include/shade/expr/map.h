/*!
 * \file map.h
 * \brief THE element loop of the static front end on the CPU: evaluates an expression plan
 *  into a destination plan, row by row over the FlatTo2D index space.
 *
 * `MapPlan` is the single place where elements are visited. `MapExp` performs the checks
 * (compile-time rank/device, run-time shape) and then calls MapPlan, which picks at compile
 * time, per expression:
 *  - the packet loop (MapPacketPlan), when the destination is a tensor and every node of the
 *    expression has a packet plan (expr/plan.h's kPacketPlan: tensors, scalars, maps whose
 *    functors have MapPacket, equal-size typecasts) and the saver has a packet form. Tensor rows
 *    are unit-stride by construction, so any alignment and any row pitch is taken; the last
 *    n % N columns of a run go through the same vector function as a partial packet (masked
 *    loads/stores, zeros in the unused lanes), so a value never depends on its position. It
 *    is threaded with ParallelFor over the flattened rows x cols index space (chunks may split
 *    rows), with a grain from the expression's cost; since every element is computed by the
 *    same instructions wherever it falls, threaded results are bit-identical to
 *    single-threaded ones.
 *  - otherwise the scalar loop over Plan::Eval, on the calling thread (extension plans are not
 *    required to be safe to run concurrently).
 * As with the scalar loop, the destination may be one of the operands (same elements), but
 * partially overlapping views give unspecified results.
 */
#ifndef SHADE_EXPR_MAP_H_
#define SHADE_EXPR_MAP_H_

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "shade/backend/cpu/kernels.h"
#include "shade/backend/cpu/parallel.h"
#include "shade/base/device.h"
#include "shade/base/error.h"
#include "shade/base/index.h"
#include "shade/expr/check.h"
#include "shade/expr/expression.h"
#include "shade/expr/plan.h"
#include "shade/expr/tensor_fwd.h"
#include "shade/shape/shape.h"

namespace shade {
namespace expr {

namespace detail {
/*! \brief True when the destination plan is a plain tensor's (rows unit-stride, RowPtr). */
template <typename DstPlan, typename DType>
struct IsTensorPlan : std::false_type {};
template <typename Device, int dim, typename DType>
struct IsTensorPlan<Plan<Tensor<Device, dim, DType>, DType>, DType> : std::true_type {};

/*! \brief Saves columns [x0, x1) of row y with packets; the last r < N columns through
 *  kernel::detail::StepDownTail (narrower full vectors, then a partial packet: nothing outside
 *  the row is read or written). kStream: the full vectors from the first vector-aligned column
 *  on are non-temporal stores (kernel::detail::StreamRun; the same values). */
template <typename Saver, bool kStream, typename DType, typename SrcPlan>
HWY_INLINE void PacketRowSegment(DType* row, index_t y, index_t x0, index_t x1,
                                 const SrcPlan& src) {
  const packet::Tag<DType> d;
  const auto eval = [&](auto dn, index_t at, size_t n, auto partial) SHADE_LAMBDA_INLINE {
    return src.template PacketEval<decltype(partial)::value>(dn, y, at, static_cast<index_t>(n));
  };
  if constexpr (kStream) {
    kernel::detail::StreamRun<Saver>(d, row, x0, x1, eval);
    return;
  }
  const index_t N = static_cast<index_t>(hn::Lanes(d));
  index_t x = x0;
  for (; x + N <= x1; x += N) {
    auto v = src.template PacketEval<false>(d, y, x, N);
    if constexpr (kernel::detail::SaverReadsDst<Saver>::value) {
      v = kernel::detail::SavePacketOf<Saver>(d, hn::LoadU(d, row + x), v);
    }
    hn::StoreU(v, d, row + x);
  }
  if (x < x1) {
    kernel::detail::StepDownTail<Saver>(d, row, x, static_cast<size_t>(x1 - x), eval);
  }
}
}  // namespace detail

namespace detail {
/*! \brief Flattened elements [b, e) of the rows x cols space: a run of row segments. The plans
 *  are taken by value: Highway's unaligned stores may alias anything, so plans reached through
 *  references would be reloaded after every store; copies stay in registers. */
template <typename Saver, bool kStream, typename DType, typename DstPlan, typename SrcPlan>
HWY_INLINE void PacketRows(const DstPlan dst, index_t cols, const SrcPlan src, index_t b,
                           index_t e) {
  index_t y = b / cols;
  index_t x = b - y * cols;
  while (b < e) {
    const index_t x1 = std::min(cols, x + (e - b));
    PacketRowSegment<Saver, kStream>(dst.RowPtr(y), y, x, x1, src);
    b += x1 - x;
    ++y;
    x = 0;
  }
}
}  // namespace detail

/*!
 * \brief MapPacketPlan (below) with the full vectors written by non-temporal stores (see
 *  kernel::UseStreamingStores for when; a saver that does not read the destination). Out of
 *  line: it runs on tens of MiB, and inlined it pushed small assignments past GCC's inlining
 *  limit.
 */
template <typename Saver, typename DType, typename DstPlan, typename SrcPlan>
SHADE_NOINLINE void MapPacketPlanStreaming(const DstPlan& dst, index_t rows, index_t cols,
                                           const SrcPlan& src, index_t grain) {
  ParallelFor(0, rows * cols, grain, [&](index_t b, index_t e) {
    detail::PacketRows<Saver, true, DType>(dst, cols, src, b, e);
    hwy::FlushStream();  // the stores are visible before the join
  });
}

/*!
 * \brief Packet loop: rows x cols elements, flattened and split by ParallelFor into chunks of
 *  at least the grain of cost `kCost` (adds per element); each chunk is a run of row segments
 *  (see the file comment). A single chunk (fewer than two grains, whatever the thread count)
 *  runs inline from element 0, which folds away the chunk's index arithmetic; larger tensors
 *  always run the lambda's code, on one thread or many, so the thread count never changes
 *  which instructions (and which floating-point contractions) compute an element. `kBytes`,
 *  the bytes read and written per element, decides with kCost whether the stores stream past
 *  the caches (kernel::UseStreamingStores; never for a saver that reads the destination).
 */
template <typename Saver, typename DType, index_t kBytes, index_t kCost, typename DstPlan,
          typename SrcPlan>
inline void MapPacketPlan(const DstPlan& dst, index_t rows, index_t cols, const SrcPlan& src) {
  if (rows == 0 || cols == 0) return;
  const index_t n = rows * cols;
  constexpr index_t grain = GrainForCost(kCost);
  if (IsSingleChunk(n, grain)) {
    detail::PacketRows<Saver, false, DType>(dst, cols, src, 0, n);
    return;
  }
  // Checked only past the single-chunk return: a small assignment with a size known at
  // compile time then compiles to its loop alone (W7's 4-float add: 0.3 ns, 3.2 ns otherwise).
  if constexpr (!kernel::detail::SaverReadsDst<Saver>::value) {
    if (kernel::UseStreamingStores(n * kBytes, kCost) &&
        reinterpret_cast<std::uintptr_t>(dst.RowPtr(0)) % sizeof(DType) == 0) {
      MapPacketPlanStreaming<Saver, DType>(dst, rows, cols, src, grain);
      return;
    }
  }
  // n >= 2 grains here: straight to the threaded part (ParallelFor's inline front would add a
  // second copy of the row loop to this function's size, which decides its inlining).
  auto rows_of_chunk = [&](index_t b, index_t e) {
    detail::PacketRows<Saver, false, DType>(dst, cols, src, b, e);
  };
  shade::detail::ParallelForThreads(index_t(0), n, grain, rows_of_chunk);
}

/*!
 * \brief For y < shape[0], x < shape[1]: `Saver::Save(dst.REval(y, x), src.Eval(y, x))`.
 *  `dst` is the destination's plan (a tensor plan walks rows with its pitch), `src` the
 *  expression's plan, `E` the expression type. Takes the threaded packet loop when
 *  `kPacketPlan<E, DType>`, the destination is a tensor and the saver has a packet form;
 *  else the plain scalar loop.
 */
template <typename Saver, typename DType, typename E, typename DstPlan, typename SrcPlan>
inline void MapPlan(DstPlan dst, const Shape<2>& shape, const SrcPlan& src) {
  const index_t rows = shape[0];
  const index_t cols = shape[1];
  if constexpr (kPacketPlan<E, DType> && detail::IsTensorPlan<DstPlan, DType>::value &&
                kernel::detail::SaverHasPacket<Saver, DType>::value) {
    constexpr index_t kCost = detail::ExpCost<E>::value;
    MapPacketPlan<Saver, DType, detail::ExpReadBytes<E>::value + index_t(sizeof(DType)), kCost>(
        dst, rows, cols, src);
  } else {
    for (index_t y = 0; y < rows; ++y) {
      for (index_t x = 0; x < cols; ++x) {
        Saver::Save(dst.REval(y, x), static_cast<DType>(src.Eval(y, x)));
      }
    }
  }
}

/*!
 * \brief Evaluates `exp` into `*dst` with `Saver` (sv::saveto, plusto, ...). `Dst` is a
 *  Tensor<cpu, dim, DType> or an assignable extension. Ranks and devices are checked at
 *  compile time; shapes at run time (shade::Error names both shapes).
 */
/*!
 * \brief The element loop of one device, the static front end's device seam: MapExp checks
 *  ranks, devices and shapes, then hands the destination, its FlatTo2D shape and the expression
 *  to `MapBackend<Device>::Map<Saver, DType>`. The cpu loop is MapPlan above; a backend adds a
 *  device by specialising this template. Without one, compilation stops with the message below
 *  instead of running host code on device memory.
 */
template <typename Device>
struct MapBackend {
  /*! \brief No backend for Device in this build. */
  template <typename Saver, typename DType, typename Dst, typename E>
  static void Map(Dst*, Shape<2>, const E&) {
    static_assert(detail::kAlwaysFalse<Device, Dst>,
                  "shade: no backend evaluates expressions on this device in this build "
                  "(the gpu backend needs a SHADE_WITH_CUDA build, nvcc and "
                  "shade/tensor/tensor_gpu.cuh)");
  }
};

namespace detail {
// Whether every element of an expression sits at `row * cols + col` of its tensors: its leaves
// are unpadded tensors (stride == last extent) or scalars, joined by maps and typecasts. Every
// other node (transpose, broadcast and other extensions) answers false.
template <typename E>
inline bool AllContiguous(const E&) {
  return false;
}
template <typename Device, int dim, typename DType>
inline bool AllContiguous(const Tensor<Device, dim, DType>& t) {
  return t.CheckContiguous();
}
template <typename DType>
inline bool AllContiguous(const ScalarExp<DType>&) {
  return true;
}
template <typename Dst, typename Src, typename E, int etype>
inline bool AllContiguous(const TypecastExp<Dst, Src, E, etype>& e) {
  return AllContiguous(e.exp);
}
template <typename OP, typename TA, typename DType, int etype>
inline bool AllContiguous(const UnaryMapExp<OP, TA, DType, etype>& e) {
  return AllContiguous(e.src_);
}
template <typename OP, typename TA, typename TB, typename DType, int etype>
inline bool AllContiguous(const BinaryMapExp<OP, TA, TB, DType, etype>& e) {
  return AllContiguous(e.lhs_) && AllContiguous(e.rhs_);
}
template <typename OP, typename TA, typename TB, typename TC, typename DType, int etype>
inline bool AllContiguous(const TernaryMapExp<OP, TA, TB, TC, DType, etype>& e) {
  return AllContiguous(e.item1_) && AllContiguous(e.item2_) && AllContiguous(e.item3_);
}
}  // namespace detail

/*! \brief The cpu element loop. */
template <>
struct MapBackend<cpu> {
  /*! \brief `*dst Saver= exp` over the rows x cols of `shape`. When the destination and every
   *  operand are unpadded, the rows are joined into one: a (128, 64, 4, 4) tensor would
   *  otherwise run 32768 rows of 4 elements, one narrow vector (or a short scalar loop) each:
   *  5-7x slower on the packet path, 2x for an op without a packet form (BM_Narrow4D_*). */
  template <typename Saver, typename DType, typename Dst, typename E>
  static void Map(Dst* dst, Shape<2> shape, const E& exp) {
    if constexpr (ExpInfo<Dst>::kDim > 1) {  // a 1-D map is one row already
      if (shape[0] > 1 && detail::AllContiguous(*dst) && detail::AllContiguous(exp)) {
        shape = Shape2(1, shape[0] * shape[1]);
      }
    }
    MapPlan<Saver, DType, E>(MakePlan(*dst), shape, MakePlan(exp));
  }
};

/*!
 * \brief `*dst Saver= exp` element by element: checks rank and device at compile time and the
 *  shapes at run time (shade::ShapeError naming both), then runs the device's MapBackend.
 */
template <typename Saver, typename Dst, typename E, typename DType, int etype>
inline void MapExp(Dst* dst, const Exp<E, DType, etype>& exp) {
  constexpr int dim = ExpInfo<Dst>::kDim;
  static_assert(dim >= 1, "shade: the destination of an assignment must be a tensor");
  using Device = typename DeviceOf<ExpInfo<Dst>::kDevMask>::type;
  static_assert(CheckMapTypes<Device, dim, E>(), "");
  const Shape<dim> dshape = CheckAssignShape<dim>(*dst, exp.self());
  MapBackend<Device>::template Map<Saver, DType>(dst, dshape.FlatTo2D(), exp.self());
}

}  // namespace expr
}  // namespace shade

#endif  // SHADE_EXPR_MAP_H_
