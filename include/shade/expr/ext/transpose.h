/*!
 * \file transpose.h
 * \brief `transpose(exp, axes)`: the axes of an expression permuted (NumPy's
 *  `np.transpose(a, axes)`: result dimension k is source dimension axes[k]). `swapaxis` in
 *  swapaxis.h is the two-axis case of the same node.
 */
#ifndef SHADE_EXPR_EXT_TRANSPOSE_H_
#define SHADE_EXPR_EXT_TRANSPOSE_H_

#include "shade/expr/ext/ext_base.h"
#include "shade/tensor/tensor.h"

namespace shade {
namespace expr {

/*! \brief The source with its axes permuted (mshadow's TransposeExExp). */
template <typename SrcExp, typename DType, int dimsrc>
struct TransposeExExp
    : public MakeTensorExp<TransposeExExp<SrcExp, DType, dimsrc>, SrcExp, dimsrc, DType> {
  /*! \brief The source. */
  SrcExp src_;
  /*! \brief Result dimension k is source dimension axes_[k]. */
  Shape<dimsrc> axes_;
  /*! \brief Step in the source's flat index per unit of each result index. */
  Shape<dimsrc> sstride_;
  /*! \brief Last extent of the source. */
  index_t src_last_;
  /*! \brief Builds the node; throws unless `axes` is a permutation of 0..dimsrc-1. */
  TransposeExExp(const SrcExp& src, const Shape<dimsrc>& axes, const char* who = "transpose")
      : src_(src), axes_(axes) {
    const Shape<dimsrc> s = detail::SourceShape<dimsrc>(src_, who);
    bool seen[dimsrc] = {};
    for (int k = 0; k < dimsrc; ++k) {
      SHADE_CHECK(0 <= axes[k] && axes[k] < dimsrc && !seen[axes[k]])
          << who << ": axes " << axes << " are not a permutation of 0.." << dimsrc - 1;
      seen[axes[k]] = true;
    }
    Shape<dimsrc> step;
    index_t acc = 1;
    for (int d = dimsrc - 1; d >= 0; --d) {
      step[d] = acc;
      acc *= s[d];
    }
    for (int k = 0; k < dimsrc; ++k) {
      this->shape_[k] = s[axes[k]];
      sstride_[k] = step[axes[k]];
    }
    src_last_ = s[dimsrc - 1];
  }
};

/*! \brief Permutes the axes: `transpose(a, Shape3(2, 0, 1))` has shape (a2, a0, a1). */
template <typename SrcExp, typename DType, int etype>
inline TransposeExExp<SrcExp, DType, ExpInfo<SrcExp>::kDim> transpose(
    const Exp<SrcExp, DType, etype>& src, Shape<ExpInfo<SrcExp>::kDim> axes) {
  static_assert(ExpInfo<SrcExp>::kDim >= 1, "transpose: the source must be a tensor expression");
  return TransposeExExp<SrcExp, DType, ExpInfo<SrcExp>::kDim>(src.self(), axes);
}

/*! \brief Gathers through the permuted source steps. */
template <typename SrcExp, typename DType, int dimsrc>
class Plan<TransposeExExp<SrcExp, DType, dimsrc>, DType>
    : public detail::StepGatherPlan<SrcExp, DType, dimsrc> {
 public:
  /*! \brief Builds the source plan with the precomputed destination-to-source strides. */
  explicit Plan(const TransposeExExp<SrcExp, DType, dimsrc>& e)
      : detail::StepGatherPlan<SrcExp, DType, dimsrc>(e.src_, e.shape_, e.sstride_, e.src_last_) {}
};

/*!
 * \brief Permutation of a source stored in memory (StepGatherInto): block copies of contiguous
 *  rows when the last axis stays last, as swapaxis<1, 0> of (C, N, H, W) does.
 */
template <typename SrcExp, typename DType, int dimsrc>
struct TensorEvaluator<TransposeExExp<SrcExp, DType, dimsrc>> {
  /*! \brief Has a whole-tensor form. */
  static constexpr bool kAvailable = true;
  /*! \brief *dst Saver= e, or false when the source is not read in place. */
  template <typename Saver, int dim>
  static bool Run(Tensor<cpu, dim, DType>* dst, const TransposeExExp<SrcExp, DType, dimsrc>& e) {
    return detail::StepGatherInto<Saver>(dst, e.src_, e.shape_, e.sstride_, e.src_last_);
  }
};

}  // namespace expr
}  // namespace shade

#endif  // SHADE_EXPR_EXT_TRANSPOSE_H_
