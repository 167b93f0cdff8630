/*!
 * \file map.h
 * \brief THE element loop of the static front end on the CPU: evaluates an expression plan
 *  into a destination plan, row by row over the FlatTo2D index space.
 *
 * `MapPlan` is the single place where elements are visited; SIMD packets and threading over
 * rows (ParallelFor from parallel.h) plug in here and nowhere else. `MapExp` performs the
 * checks (compile-time rank/device, run-time shape) and then calls MapPlan.
 */
// Tensor first (it includes this header back at its end, once Tensor is complete), so the
// definitions below always see the complete Tensor type whichever header is included first.
#include "shade/tensor/tensor.h"  // NOLINT(build/include_order)

#ifndef SHADE_BACKEND_CPU_MAP_H_
#define SHADE_BACKEND_CPU_MAP_H_

#include <type_traits>

#include "shade/base/device.h"
#include "shade/base/error.h"
#include "shade/base/index.h"
#include "shade/expr/check.h"
#include "shade/expr/expression.h"
#include "shade/expr/plan.h"
#include "shade/shape/shape.h"

namespace shade {
namespace expr {

/*!
 * \brief For y < shape[0], x < shape[1]: `Saver::Save(dst.REval(y, x), src.Eval(y, x))`.
 *  `dst` is the destination's plan (a tensor plan walks rows with its pitch), `src` the
 *  expression's plan. The plain scalar loop; rows are independent, so a ParallelFor over y
 *  and a packet loop over x can replace the body without changing any caller.
 */
template <typename Saver, typename DType, typename DstPlan, typename SrcPlan>
inline void MapPlan(DstPlan dst, const Shape<2>& shape, const SrcPlan& src) {
  const index_t rows = shape[0];
  const index_t cols = shape[1];
  for (index_t y = 0; y < rows; ++y) {
    for (index_t x = 0; x < cols; ++x) {
      Saver::Save(dst.REval(y, x), static_cast<DType>(src.Eval(y, x)));
    }
  }
}

/*!
 * \brief Evaluates `exp` into `*dst` with `Saver` (sv::saveto, plusto, ...). `Dst` is a
 *  Tensor<cpu, dim, DType> or an assignable extension. Ranks and devices are checked at
 *  compile time; shapes at run time (shade::Error names both shapes).
 */
template <typename Saver, typename Dst, typename E, typename DType, int etype>
inline void MapExp(Dst* dst, const Exp<E, DType, etype>& exp) {
  constexpr int dim = ExpInfo<Dst>::kDim;
  static_assert(dim >= 1, "shade: the destination of an assignment must be a tensor");
  static_assert(ExpInfo<Dst>::kDevMask == cpu::kDevMask,
                "shade: this build evaluates expressions on the cpu only (no gpu backend)");
  static_assert(CheckMapTypes<cpu, dim, E>(), "");
  const Shape<dim> dshape = ShapeCheck<dim, Dst>::Check(*dst);
  const Shape<dim> eshape = ShapeCheck<dim, E>::Check(exp.self());
  SHADE_CHECK(IsWildcardShape(eshape) || eshape == dshape)
      << "assignment: expression shape " << eshape << " differs from destination shape "
      << dshape;
  MapPlan<Saver, DType>(MakePlan(*dst), dshape.FlatTo2D(), MakePlan(exp.self()));
}

}  // namespace expr
}  // namespace shade

#endif  // SHADE_BACKEND_CPU_MAP_H_
