/*!
 * \file tensor_gpu.cuh
 * \brief Expression evaluation on the gpu (nvcc only; include it in a .cu file): the
 *  `MapBackend<gpu>` of the static front end's device seam (expr/map.h). `dst = expr` on gpu
 *  tensors runs one kernel (backend/cuda/map_kernel.cuh) over the plan of the expression, with
 *  the same plans and functors as the cpu loop (their Eval/Map are `__host__ __device__` under
 *  nvcc), on the destination's stream (asynchronous).
 *
 * Which expressions: tensors, scalars, unary/binary/ternary maps (`F<op>`, the operators),
 * typecasts and 2-D transposes. Extensions (broadcast, reductions, ...) compute on the host
 * (their plans hold host buffers) and stop compilation here with a message; the gpu sums are
 * ReduceSumRows/ReduceSumCols (tensor/tensor_gpu.h).
 */
#ifndef SHADE_TENSOR_TENSOR_GPU_CUH_
#define SHADE_TENSOR_TENSOR_GPU_CUH_

#ifndef __CUDACC__
#error "shade/tensor/tensor_gpu.cuh needs nvcc (a .cu source); tensor_gpu.h is host-compilable"
#endif

#include <type_traits>

#include "shade/backend/cuda/map_kernel.cuh"
#include "shade/expr/expression.h"
#include "shade/expr/map.h"
#include "shade/expr/plan.h"
#include "shade/tensor/tensor.h"
#include "shade/tensor/tensor_gpu.h"

namespace shade {
namespace expr {
namespace detail {
/*! \brief True when every node of E has a plan that is a device-safe view (see the file
 *  comment); false for extensions. */
template <typename E>
struct GpuPlanCheck : std::false_type {};
template <int dim, typename DType>
struct GpuPlanCheck<Tensor<gpu, dim, DType>> : std::true_type {};
template <typename DType>
struct GpuPlanCheck<ScalarExp<DType>> : std::true_type {};
template <typename Dst, typename Src, typename E, int etype>
struct GpuPlanCheck<TypecastExp<Dst, Src, E, etype>> : GpuPlanCheck<E> {};
template <typename E, typename DType>
struct GpuPlanCheck<TransposeExp<E, DType>> : GpuPlanCheck<E> {};
template <typename OP, typename TA, typename DType, int etype>
struct GpuPlanCheck<UnaryMapExp<OP, TA, DType, etype>> : GpuPlanCheck<TA> {};
template <typename OP, typename TA, typename TB, typename DType, int etype>
struct GpuPlanCheck<BinaryMapExp<OP, TA, TB, DType, etype>>
    : std::integral_constant<bool, GpuPlanCheck<TA>::value && GpuPlanCheck<TB>::value> {};
template <typename OP, typename TA, typename TB, typename TC, typename DType, int etype>
struct GpuPlanCheck<TernaryMapExp<OP, TA, TB, TC, DType, etype>>
    : std::integral_constant<bool, GpuPlanCheck<TA>::value && GpuPlanCheck<TB>::value &&
                                       GpuPlanCheck<TC>::value> {};

/*! \brief The stream of a gpu tensor destination (null for other destinations). */
template <typename Dst>
inline Stream<gpu>* GpuStreamOf(const Dst& dst) {
  if constexpr (std::is_same<std::decay_t<decltype(dst.stream_)>, Stream<gpu>*>::value) {
    return dst.stream_;
  } else {
    return nullptr;
  }
}
}  // namespace detail

/*! \brief The gpu element loop: one kernel launch per assignment, on the destination's stream. */
template <>
struct MapBackend<gpu> {
  /*! \brief `*dst Saver= exp` over the rows x cols of `shape`; rows are joined into one when
   *  the destination and every operand are unpadded (as on the cpu). */
  template <typename Saver, typename DType, typename Dst, typename E>
  static void Map(Dst* dst, Shape<2> shape, const E& exp) {
    static_assert(detail::GpuPlanCheck<Dst>::value && detail::GpuPlanCheck<E>::value,
                  "shade: this expression has no gpu evaluation in this build: gpu assignments "
                  "take tensors, scalars, F<op> maps, operators, tcast and 2-D .T() (extensions "
                  "such as broadcast or sum_rows run on the host; gpu sums: ReduceSumRows / "
                  "ReduceSumCols)");
    if constexpr (ExpInfo<Dst>::kDim > 1) {
      if (shape[0] > 1 && detail::AllContiguous(*dst) && detail::AllContiguous(exp)) {
        shape = Shape2(1, shape[0] * shape[1]);
      }
    }
    cuda::LaunchMap<Saver, DType>(MakePlan(*dst), MakePlan(exp), shape[0], shape[1],
                                  Stream<gpu>::GetStream(detail::GpuStreamOf(*dst)));
  }
};

}  // namespace expr
}  // namespace shade

#endif  // SHADE_TENSOR_TENSOR_GPU_CUH_
