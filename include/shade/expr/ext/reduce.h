/*!
 * \file reduce.h
 * \brief Reductions of the static front end: `sumall_except_dim<k>`, `reduce_except_dim<k, Red>`,
 *  `sum_rows`, `reduce_with_axis<Red, mask>`, `reduce_keepdim<Red, mask>` (mask = true gives
 *  the arg-max/arg-min index) and the full reductions `reduce_all<Red>`, `sum_all`, `max_all`,
 *  `min_all`, `argmax_all`, `argmin_all`.
 *
 * The reduction expressions are extensions (MakeTensorExp) and can be nested in larger
 * expressions (`b -= lr * sum_rows(grad)`). Their plan computes the whole (small) result
 * eagerly when the plan is built, i.e. once per assignment, with the kernel layer's vectorised,
 * threaded, accurate reductions (backend/cpu/reduce.h): sums are blocked pairwise sums within
 * kernel::SumErrorBound, bit-identical for every thread count. A tensor source (padded rows
 * included) is read in place where the kernels accept its layout; any other source expression
 * is first evaluated into a dense temporary of its size. Unlike mshadow, the result therefore
 * never depends on the destination aliasing the source.
 *
 * Arg-reductions follow NumPy: ties give the first index, a NaN counts as the extremum.
 */
#ifndef SHADE_EXPR_EXT_REDUCE_H_
#define SHADE_EXPR_EXT_REDUCE_H_

#include <memory>
#include <type_traits>

#include "shade/backend/cpu/reduce.h"
#include "shade/expr/ext/ext_base.h"
#include "shade/expr/map.h"
#include "shade/memory/scratch.h"
#include "shade/tensor/tensor.h"

namespace shade {
namespace expr {
namespace detail {

/*! \brief The kernel layer's packet-capable twin of a red:: reducer (others run as given). */
template <typename Red>
struct KernelReducer {
  using type = Red;
};
template <>
struct KernelReducer<red::sum> {
  using type = kernel::red::sum;
};
template <>
struct KernelReducer<red::maximum> {
  using type = kernel::red::maximum;
};
template <>
struct KernelReducer<red::minimum> {
  using type = kernel::red::minimum;
};

/*!
 * \brief Rows of the source `src` of shape `s`: memory-resident sources (DirectRows: tensors,
 *  reshapes of them) are read in place (with their row pitch unless `need_dense`); anything
 *  else is evaluated into `*hold` first.
 */
template <int dim, typename SrcExp, typename DType>
inline RowsView<DType> SourceRows(const SrcExp& src, const Shape<dim>& s, bool need_dense,
                                  ScratchBuffer<DType>* hold) {
  const index_t cols = s[dim - 1];
  const index_t rows = s.ProdShape(0, dim - 1);
  RowsView<DType> view;
  if (DirectRows<SrcExp>::Get(src, &view) && (!need_dense || view.Dense())) {
    if (view.rows <= 1) view.ld = view.cols;
    return view;
  }
  const index_t total = CheckedMul(rows, cols, "reduction source size");
  hold->reset(total, "reduction source copy");
  Tensor<cpu, dim, DType> tmp(hold->get(), s);
  ExpEngine<sv::saveto, Tensor<cpu, dim, DType>, DType>::Eval(&tmp, src);
  return {hold->get(), rows, cols, cols};
}

/*!
 * \brief out[k] = Red over all elements of src whose index in dimension `keep` is k
 *  (out has s[keep] elements). THE inner work of sumall_except_dim / reduce_except_dim /
 *  sum_rows: one to three kernel passes, each a pairwise (tree) reduction.
 */
template <typename Red, int dim, typename SrcExp, typename DType>
inline void ReduceExceptDimInto(const SrcExp& src, const Shape<dim>& s, int keep, DType* out) {
  using KRed = typename KernelReducer<Red>::type;
  const index_t A = s.ProdShape(0, keep), K = s[keep];
  ScratchBuffer<DType> hold;
  if (keep == dim - 1) {  // reduce over rows: the axis-0 kernel, reading pitched rows in place
    const RowsView<DType> v = SourceRows<dim>(src, s, false, &hold);
    kernel::ReduceRows<KRed>(A, K, v.ptr, v.ld, out);
    return;
  }
  const RowsView<DType> v = SourceRows<dim>(src, s, false, &hold);
  const index_t R = s.ProdShape(keep + 1, dim - 1), C = s[dim - 1];
  ScratchBuffer<DType> t1, t2(CheckedMul(A, K, "reduction partial sums"), "reduction partial sums");
  if (v.ld == C || R == 1) {
    // each (a, k) block is R*C dense elements (or one pitched row): one full reduction each
    if (v.ld == C) {
      kernel::ReduceCols<KRed>(A * K, R * C, v.ptr, R * C, t2.get());
    } else {
      kernel::ReduceCols<KRed>(A * K, C, v.ptr, v.ld, t2.get());
    }
  } else {  // pitched rows: reduce every row, then the R row results of each block
    t1.reset(v.rows, "reduction row sums");
    kernel::ReduceCols<KRed>(v.rows, C, v.ptr, v.ld, t1.get());
    kernel::ReduceCols<KRed>(A * K, R, t1.get(), R, t2.get());
  }
  kernel::ReduceRows<KRed>(A, K, t2.get(), K, out);
}

/*!
 * \brief out[o * inner + j] = Red (or, with mask, the first arg-extremum index) over l of the
 *  source element (o, l, j), the source seen as [outer, len, inner] around `axis`.
 */
template <typename Red, bool mask, int dim, typename SrcExp, typename DType>
inline void ReduceAxisInto(const SrcExp& src, const Shape<dim>& s, int axis, DType* out) {
  using KRed = typename KernelReducer<Red>::type;
  const index_t outer = s.ProdShape(0, axis), len = s[axis], inner = s.ProdShape(axis + 1, dim);
  ScratchBuffer<DType> hold;
  // The last axis of a pitched tensor is a set of rows: reduce them in place.
  const bool last = axis == dim - 1;
  const RowsView<DType> v = SourceRows<dim>(src, s, !(last && !mask), &hold);
  if constexpr (mask) {
    constexpr bool kMax = std::is_same<Red, red::maximum>::value;
    kernel::ArgReduceAxis<kMax>(outer, len, inner, v.ptr, out);
  } else {
    if (last) {
      kernel::ReduceCols<KRed>(v.rows, v.cols, v.ptr, v.ld, out);
    } else {
      kernel::ReduceAxis<KRed>(outer, len, inner, v.ptr, out);
    }
  }
}

}  // namespace detail

/*!
 * \brief Reduction of every dimension but `dimkeep` to a 1-D result of length
 *  shape[dimkeep] (mshadow's ReduceTo1DExp; here an extension, so it nests in expressions).
 */
template <typename SrcExp, typename DType, typename Reducer, int dimkeep>
struct ReduceTo1DExp
    : public MakeTensorExp<ReduceTo1DExp<SrcExp, DType, Reducer, dimkeep>, SrcExp, 1, DType> {
  /*! \brief The source. */
  SrcExp src_;
  /*! \brief Shape of the source. */
  Shape<ExpInfo<SrcExp>::kDim> src_shape_;
  /*! \brief Builds the node. */
  explicit ReduceTo1DExp(const SrcExp& src) : src_(src) {
    src_shape_ = detail::SourceShape<ExpInfo<SrcExp>::kDim>(src_, "reduce_except_dim");
    this->shape_[0] = src_shape_[dimkeep];
  }
};

/*! \brief `reduce_except_dim<k, red::maximum>(x)`: Reducer over all dimensions but k. */
template <int dimkeep, typename Reducer, typename SrcExp, typename DType, int etype>
inline ReduceTo1DExp<SrcExp, DType, Reducer, dimkeep> reduce_except_dim(
    const Exp<SrcExp, DType, etype>& exp) {
  static_assert(ExpInfo<SrcExp>::kDim >= 1,
                "reduce_except_dim: the source must be a tensor expression");
  static_assert(0 <= dimkeep && dimkeep < ExpInfo<SrcExp>::kDim,
                "reduce_except_dim<k>: k outside the rank of the source");
  return ReduceTo1DExp<SrcExp, DType, Reducer, dimkeep>(exp.self());
}

/*! \brief `sumall_except_dim<1>(grad)`: per-channel sums of an (n, c, h, w) expression. */
template <int dimkeep, typename SrcExp, typename DType, int etype>
inline ReduceTo1DExp<SrcExp, DType, red::sum, dimkeep> sumall_except_dim(
    const Exp<SrcExp, DType, etype>& exp) {
  return reduce_except_dim<dimkeep, red::sum>(exp);
}

/*! \brief Sum over all rows (every dimension but the last): the bias gradient of a batch. */
template <typename SrcExp, typename DType, int etype>
inline ReduceTo1DExp<SrcExp, DType, red::sum, ExpInfo<SrcExp>::kDim - 1> sum_rows(
    const Exp<SrcExp, DType, etype>& exp) {
  return reduce_except_dim<ExpInfo<SrcExp>::kDim - 1, red::sum>(exp);
}

/*!
 * \brief Reduction along one axis (mshadow's ReduceWithAxisExp): rank dimsrc - 1, or dimsrc
 *  with extent 1 at the axis (keepdim). With mask, the value is the index of the first
 *  maximum/minimum along the axis, as DType.
 */
template <typename Reducer, typename SrcExp, typename DType, int dimsrc, bool mask, int dimdst>
struct ReduceWithAxisExp
    : public MakeTensorExp<ReduceWithAxisExp<Reducer, SrcExp, DType, dimsrc, mask, dimdst>, SrcExp,
                           dimdst, DType> {
  /*! \brief The source. */
  SrcExp src_;
  /*! \brief Shape of the source. */
  Shape<dimsrc> src_shape_;
  /*! \brief The reduced axis. */
  int axis_;
  /*! \brief Builds the node; throws on a bad axis or an empty arg-reduction. */
  ReduceWithAxisExp(const SrcExp& src, int axis) : src_(src), axis_(axis) {
    static_assert(
        !mask || std::is_same<Reducer, red::maximum>::value ||
            std::is_same<Reducer, red::minimum>::value,
        "reduce_with_axis<Reducer, true>: the index form needs red::maximum or red::minimum");
    src_shape_ = detail::SourceShape<dimsrc>(src_, "reduce_with_axis");
    SHADE_CHECK_INDEX(0 <= axis && axis < dimsrc)
        << "reduce_with_axis: axis " << axis << " outside [0, " << dimsrc - 1
        << "] for a source of shape " << src_shape_;
    for (int d = 0, k = 0; d < dimsrc; ++d) {
      if (dimdst == dimsrc) {
        this->shape_[k++] = d == axis ? 1 : src_shape_[d];
      } else if (d != axis) {
        this->shape_[k++] = src_shape_[d];
      }
    }
    SHADE_CHECK_SHAPE(!mask || src_shape_[axis] > 0 || this->shape_.Size() == 0)
        << "reduce_with_axis: arg-" << (std::is_same<Reducer, red::maximum>::value ? "max" : "min")
        << " over the empty axis " << axis << " of shape " << src_shape_;
  }
};

/*!
 * \brief `reduce_with_axis<red::sum, false>(x, 1)`: Reducer along `axis`, which is removed.
 *  `reduce_with_axis<red::maximum, true>(x, 1)` gives the arg-max along axis 1.
 */
template <typename Reducer, bool mask, typename SrcExp, typename DType, int etype>
inline ReduceWithAxisExp<Reducer, SrcExp, DType, ExpInfo<SrcExp>::kDim, mask,
                         ExpInfo<SrcExp>::kDim - 1>
reduce_with_axis(const Exp<SrcExp, DType, etype>& src, int axis) {
  static_assert(ExpInfo<SrcExp>::kDim >= 2,
                "reduce_with_axis: the source needs rank >= 2 (use reduce_all for a vector)");
  return ReduceWithAxisExp<Reducer, SrcExp, DType, ExpInfo<SrcExp>::kDim, mask,
                           ExpInfo<SrcExp>::kDim - 1>(src.self(), axis);
}

/*! \brief As reduce_with_axis, keeping the axis with extent 1 (ready for broadcast_keepdim). */
template <typename Reducer, bool mask, typename SrcExp, typename DType, int etype>
inline ReduceWithAxisExp<Reducer, SrcExp, DType, ExpInfo<SrcExp>::kDim, mask, ExpInfo<SrcExp>::kDim>
reduce_keepdim(const Exp<SrcExp, DType, etype>& src, int axis) {
  static_assert(ExpInfo<SrcExp>::kDim >= 1,
                "reduce_keepdim: the source must be a tensor expression");
  return ReduceWithAxisExp<Reducer, SrcExp, DType, ExpInfo<SrcExp>::kDim, mask,
                           ExpInfo<SrcExp>::kDim>(src.self(), axis);
}

/*! \brief Computes the reduction when built (once per assignment), then reads the result. */
template <typename SrcExp, typename DType, typename Reducer, int dimkeep>
class Plan<ReduceTo1DExp<SrcExp, DType, Reducer, dimkeep>, DType> {
 public:
  /*! \brief Evaluates the reduction into an owned buffer (the one pass over the source). */
  explicit Plan(const ReduceTo1DExp<SrcExp, DType, Reducer, dimkeep>& e)
      : buf_(MakeSharedScratch<DType>(e.shape_[0], "reduction result")) {
    detail::ReduceExceptDimInto<Reducer>(e.src_, e.src_shape_, dimkeep, buf_.get());
    ptr_ = buf_.get();
  }
  /*! \brief Element x of the result. */
  SHADE_XINLINE DType Eval(index_t /*y*/, index_t x) const { return ptr_[x]; }

 private:
  std::shared_ptr<DType[]> buf_;
  const DType* ptr_;
};

/*! \brief Computes the reduction when built (once per assignment), then reads the result. */
template <typename Reducer, typename SrcExp, typename DType, int dimsrc, bool mask, int dimdst>
class Plan<ReduceWithAxisExp<Reducer, SrcExp, DType, dimsrc, mask, dimdst>, DType> {
 public:
  /*!
   * \brief Evaluates the reduction into an owned buffer (the one pass over the source; none when
   *  the result is empty).
   */
  explicit Plan(const ReduceWithAxisExp<Reducer, SrcExp, DType, dimsrc, mask, dimdst>& e)
      : buf_(MakeSharedScratch<DType>(static_cast<index_t>(e.shape_.Size()), "reduction result")),
        last_(e.shape_[dimdst - 1]) {
    if (e.shape_.Size() > 0) {
      detail::ReduceAxisInto<Reducer, mask>(e.src_, e.src_shape_, e.axis_, buf_.get());
    }
    ptr_ = buf_.get();
  }
  /*! \brief Element (y, x) of the result. */
  SHADE_XINLINE DType Eval(index_t y, index_t x) const { return ptr_[y * last_ + x]; }

 private:
  std::shared_ptr<DType[]> buf_;
  const DType* ptr_;
  index_t last_;
};

/*!
 * \brief Reducer over every element of `exp` (its init value when empty), with the kernel
 *  layer's blocked pairwise order: float sums within kernel::SumErrorBound, same result for every
 *  thread count.
 */
template <typename Reducer, typename SrcExp, typename DType, int etype>
inline DType reduce_all(const Exp<SrcExp, DType, etype>& exp) {
  constexpr int dim = ExpInfo<SrcExp>::kDim;
  static_assert(dim >= 1, "reduce_all: the source must be a tensor expression");
  const Shape<dim> s = detail::SourceShape<dim>(exp.self(), "reduce_all");
  ScratchBuffer<DType> hold;
  const detail::RowsView<DType> v = detail::SourceRows<dim>(exp.self(), s, false, &hold);
  using KRed = typename detail::KernelReducer<Reducer>::type;
  if (v.ld == v.cols || v.rows <= 1) return kernel::ReduceAll<KRed>(v.rows * v.cols, v.ptr);
  ScratchBuffer<DType> part(v.rows, "reduction row sums");
  kernel::ReduceCols<KRed>(v.rows, v.cols, v.ptr, v.ld, part.get());
  return kernel::ReduceAll<KRed>(v.rows, part.get());
}
/*! \brief Sum of all elements (accurate: see reduce_all). */
template <typename SrcExp, typename DType, int etype>
inline DType sum_all(const Exp<SrcExp, DType, etype>& exp) {
  return reduce_all<red::sum>(exp);
}
/*! \brief Largest element (-inf / lowest when empty; NaNs are skipped). */
template <typename SrcExp, typename DType, int etype>
inline DType max_all(const Exp<SrcExp, DType, etype>& exp) {
  return reduce_all<red::maximum>(exp);
}
/*! \brief Smallest element (+inf / highest when empty; NaNs are skipped). */
template <typename SrcExp, typename DType, int etype>
inline DType min_all(const Exp<SrcExp, DType, etype>& exp) {
  return reduce_all<red::minimum>(exp);
}

namespace detail {
template <bool kMax, typename SrcExp, typename DType>
inline index_t ArgAll(const SrcExp& src, const char* who) {
  constexpr int dim = ExpInfo<SrcExp>::kDim;
  static_assert(dim >= 1, "argmax_all/argmin_all: the source must be a tensor expression");
  const Shape<dim> s = SourceShape<dim>(src, who);
  SHADE_CHECK_SHAPE_GT(s.Size(), 0u) << who << ": empty source of shape " << s;
  ScratchBuffer<DType> hold;
  const RowsView<DType> v = SourceRows<dim>(src, s, true, &hold);
  return kMax ? kernel::ArgMax(v.rows * v.cols, v.ptr) : kernel::ArgMin(v.rows * v.cols, v.ptr);
}
}  // namespace detail

/*! \brief Row-major flat index of the first maximum (a NaN counts as the maximum); throws when
 * empty. */
template <typename SrcExp, typename DType, int etype>
inline index_t argmax_all(const Exp<SrcExp, DType, etype>& exp) {
  return detail::ArgAll<true, SrcExp, DType>(exp.self(), "argmax_all");
}
/*! \brief Row-major flat index of the first minimum (a NaN counts as the minimum); throws when
 * empty. */
template <typename SrcExp, typename DType, int etype>
inline index_t argmin_all(const Exp<SrcExp, DType, etype>& exp) {
  return detail::ArgAll<false, SrcExp, DType>(exp.self(), "argmin_all");
}

}  // namespace expr
}  // namespace shade

#endif  // SHADE_EXPR_EXT_REDUCE_H_
