/*!
 * \file engine.h
 * \brief `ExpEngine`: dispatches `dst SV= exp` by expression kind: element-wise kinds
 *  (kRValue, kMapper, kChainer) go to the element loop MapExp (expr/map.h), except
 *  extensions with a whole-tensor evaluator (`TensorEvaluator`, expression.h) assigned to a
 *  tensor; kComplex (dot) goes to `ExpComplexEngine` and the dot engine.
 */
#ifndef SHADE_EXPR_ENGINE_H_
#define SHADE_EXPR_ENGINE_H_

#include <functional>
#include <type_traits>

#include "shade/expr/check.h"
#include "shade/expr/dot.h"
#include "shade/expr/expression.h"
#include "shade/expr/map.h"
#include "shade/expr/plan.h"
#include "shade/expr/tensor_fwd.h"

namespace shade {
namespace expr {

/*! \brief Evaluates a kComplex expression; only products (DotExp of tensors) exist. */
template <typename SV, typename RV, typename E, typename DType>
struct ExpComplexEngine {
  static_assert(detail::kAlwaysFalse<SV, RV, E>,
                "shade: this expression cannot be evaluated: dot(...) takes tensors (or their "
                ".T()) and must be the whole right-hand side of a tensor assignment");
  /*! \brief Never instantiated: the static_assert above rejects the expression. */
  static void Eval(RV*, const E&) {}
};

/*! \brief dst SV= scale * dot(lhs, rhs) for tensors of one device. */
template <typename SV, typename Device, int dim, int ldim, int rdim, bool ltrans, bool rtrans,
          typename DType>
struct ExpComplexEngine<
    SV, Tensor<Device, dim, DType>,
    DotExp<Tensor<Device, ldim, DType>, Tensor<Device, rdim, DType>, ltrans, rtrans, DType>,
    DType> {
  /*!
   * \brief *dst SV= exp.scale_ * dot(exp.lhs_, exp.rhs_) through DotEngine (which checks the
   *  shapes).
   */
  static void Eval(Tensor<Device, dim, DType>* dst,
                   const DotExp<Tensor<Device, ldim, DType>, Tensor<Device, rdim, DType>, ltrans,
                                rtrans, DType>& exp) {
    DotEngine<SV, Device, dim, ldim, rdim, ltrans, rtrans, DType>::Eval(dst, exp.lhs_, exp.rhs_,
                                                                        exp.scale_);
  }
};

/*!
 * \brief `dst = src.T()` of a 2-D cpu tensor: the kernel layer's blocked transpose
 *  (kernel::Transpose: register transposes of cache-line squares, threaded), which reads and
 *  writes whole cache lines where the element loop's strided gather re-fetches them. Other
 *  savers and overlapping operands keep the element loop (it defines their results).
 */
template <typename DType>
struct TensorEvaluator<TransposeExp<Tensor<cpu, 2, DType>, DType>> {
  /*! \brief Has a whole-tensor form. */
  static constexpr bool kAvailable = true;
  /*! \brief *dst = src^T when Saver is a plain store and the memory does not overlap. */
  template <typename Saver, int dim>
  static bool Run(Tensor<cpu, dim, DType>* dst,
                  const TransposeExp<Tensor<cpu, 2, DType>, DType>& e) {
    if constexpr (dim != 2 || !std::is_same<Saver, sv::saveto>::value) {
      return false;
    } else {
      const Tensor<cpu, 2, DType>& src = e.exp;
      const index_t rows = src.shape_[0], cols = src.shape_[1];
      if (rows == 0 || cols == 0) return true;
      const char* s0 = reinterpret_cast<const char*>(src.dptr_);
      const char* s1 = reinterpret_cast<const char*>(src.dptr_ + (rows - 1) * src.stride_ + cols);
      const char* d0 = reinterpret_cast<const char*>(dst->dptr_);
      const char* d1 = reinterpret_cast<const char*>(dst->dptr_ + (cols - 1) * dst->stride_ + rows);
      if (std::less<const char*>()(d0, s1) && std::less<const char*>()(s0, d1)) return false;
      kernel::Transpose(rows, cols, src.dptr_, src.stride_, dst->dptr_, dst->stride_);
      return true;
    }
  }
};

/*! \brief Runs `*dst Saver= exp`, choosing the engine from the kind of `exp`. */
template <typename Saver, typename RValue, typename DType>
struct ExpEngine {
  /*! \brief Element-wise expression. */
  template <typename E>
  static void Eval(RValue* dst, const Exp<E, DType, type::kMapper>& exp) {
    MapExp<Saver>(dst, exp);
  }
  /*!
   * \brief Chained expression (transpose, extension): the extension's whole-tensor evaluator
   *  when it has one and the destination is a cpu tensor, else the element loop.
   */
  template <typename E>
  static void Eval(RValue* dst, const Exp<E, DType, type::kChainer>& exp) {
    constexpr int dim = ExpInfo<RValue>::kDim;
    using DstTensor = Tensor<cpu, (dim >= 1 ? dim : 1), DType>;
    if constexpr (TensorEvaluator<E>::kAvailable && std::is_base_of<DstTensor, RValue>::value) {
      static_assert(CheckMapTypes<cpu, dim, E>(), "");
      CheckAssignShape<dim>(*dst, exp.self());
      if (TensorEvaluator<E>::template Run<Saver>(static_cast<DstTensor*>(dst), exp.self())) {
        return;
      }
    }
    MapExp<Saver>(dst, exp);
  }
  /*! \brief Another tensor. */
  template <typename E>
  static void Eval(RValue* dst, const Exp<E, DType, type::kRValue>& exp) {
    MapExp<Saver>(dst, exp);
  }
  /*! \brief A product. */
  template <typename E>
  static void Eval(RValue* dst, const Exp<E, DType, type::kComplex>& exp) {
    ExpComplexEngine<Saver, RValue, E, DType>::Eval(dst, exp.self());
  }
};

}  // namespace expr
}  // namespace shade

#endif  // SHADE_EXPR_ENGINE_H_
