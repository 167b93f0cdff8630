/*!
 * \file take.h
 * \brief `take(index, weight)`: rows of a matrix picked by a 1-D index (an embedding lookup,
 *  mshadow's TakeExp), and `take_grad(index, grad, vocab)`: its gradient, the rows of `grad`
 *  summed into the rows they were taken from (mshadow's TakeGradExp).
 *
 * Indices are evaluated and checked once, when the plan is built, so nothing is read out of
 * bounds and nothing is written before a bad index is reported. What an out-of-range index
 * does is the `mode` argument (mxnet's take modes; mshadow itself did not check):
 * take_mode::kRaise (the default) throws shade::Error naming the index and its position,
 * kClip clamps it to [0, rows - 1], kWrap takes it modulo rows (Python-style, so -1 is the
 * last row). Floating-point indices must be integral in kRaise mode and are truncated toward
 * zero in the other modes; NaN and infinities always throw.
 */
#ifndef SHADE_EXPR_EXT_TAKE_H_
#define SHADE_EXPR_EXT_TAKE_H_

#include <cmath>
#include <memory>
#include <type_traits>

#include "shade/expr/ext/ext_base.h"
#include "shade/tensor/tensor.h"

namespace shade {
namespace expr {

/*! \brief What take/take_grad do with an index outside [0, rows). */
namespace take_mode {
/*! \brief Out-of-range policy (fixed underlying type: any int converts without UB and is checked).
 */
enum Mode : int {
  /*! \brief Throw shade::Error (default). */
  kRaise = 0,
  /*! \brief Clamp into [0, rows - 1]. */
  kClip = 1,
  /*! \brief Wrap around modulo rows. */
  kWrap = 2
};
}  // namespace take_mode

namespace detail {
/*!
 * \brief Evaluates a 1-D index expression of n elements into checked row numbers in
 *  [0, bound) according to `mode` (see the file comment).
 */
template <typename IDType, typename IndexExp>
inline std::shared_ptr<index_t[]> TakeIndices(const IndexExp& index, index_t n, index_t bound,
                                              take_mode::Mode mode, const char* who) {
  SHADE_CHECK(mode == take_mode::kRaise || mode == take_mode::kClip || mode == take_mode::kWrap)
      << who << ": unknown mode " << static_cast<int>(mode);
  if (mode == take_mode::kRaise) return EvalIndices<IDType>(index, n, bound, who, "number of rows");
  SHADE_CHECK(n == 0 || bound > 0)
      << who << ": cannot clip or wrap " << n << " indices into a source with 0 rows";
  std::shared_ptr<index_t[]> out = MakeSharedScratch<index_t>(n, who);
  ScratchBuffer<IDType> raw(n, who);
  Tensor<cpu, 1, IDType> tmp(raw.get(), Shape1(n));
  MapExp<sv::saveto>(&tmp, index);
  for (index_t i = 0; i < n; ++i) {
    const long double v = static_cast<long double>(raw[static_cast<size_t>(i)]);
    SHADE_CHECK(std::isfinite(v)) << who << ": index " << static_cast<double>(v) << " at position "
                                  << i << " is not a finite number";
    // Clamp to a range where the conversion to index_t is defined before truncating.
    const long double lim = 9.0e18L;
    const index_t k = static_cast<index_t>(v < -lim ? -lim : v > lim ? lim : v);
    index_t r;
    if (mode == take_mode::kClip) {
      r = k < 0 ? 0 : k >= bound ? bound - 1 : k;
    } else {
      r = k % bound;
      if (r < 0) r += bound;
    }
    out[static_cast<size_t>(i)] = r;
  }
  return out;
}
}  // namespace detail

/*! \brief Row index[i] of the 2-D source as row i of the result. */
template <typename IndexExp, typename IDType, typename SrcExp, typename DType>
struct TakeExp : public MakeTensorExp<TakeExp<IndexExp, IDType, SrcExp, DType>, SrcExp, 2, DType> {
  /*! \brief The indices. */
  IndexExp index_;
  /*! \brief The source matrix. */
  SrcExp src_;
  /*! \brief Rows of the source. */
  index_t src_rows_;
  /*! \brief Out-of-range policy. */
  take_mode::Mode mode_;
  /*! \brief Builds the node. */
  TakeExp(const IndexExp& index, const SrcExp& src, take_mode::Mode mode)
      : index_(index), src_(src), mode_(mode) {
    const Shape<1> is = detail::SourceShape<1>(index_, "take");
    const Shape<2> ss = detail::SourceShape<2>(src_, "take");
    src_rows_ = ss[0];
    this->shape_ = Shape2(is[0], ss[1]);
  }
};

/*!
 * \brief `emb = take(ids, weight)`: row i of the result is row ids[i] of `weight`. The index
 *  may have any element type; see the file comment for `mode`.
 */
template <typename IndexExp, typename IDType, int e1, typename SrcExp, typename DType, int e2>
inline TakeExp<IndexExp, IDType, SrcExp, DType> take(const Exp<IndexExp, IDType, e1>& index,
                                                     const Exp<SrcExp, DType, e2>& src,
                                                     take_mode::Mode mode = take_mode::kRaise) {
  static_assert(ExpInfo<IndexExp>::kDim == 1, "take: the index must be 1-D");
  static_assert(ExpInfo<SrcExp>::kDim == 2, "take: the source must be 2-D");
  return TakeExp<IndexExp, IDType, SrcExp, DType>(index.self(), src.self(), mode);
}

/*! \brief Reads source row idx[y]. */
template <typename IndexExp, typename IDType, typename SrcExp, typename DType>
class Plan<TakeExp<IndexExp, IDType, SrcExp, DType>, DType> {
 public:
  /*!
   * \brief Evaluates and checks the indices once (per the take mode); throws shade::Error or
   *  shade::IndexError for a bad index.
   */
  explicit Plan(const TakeExp<IndexExp, IDType, SrcExp, DType>& e)
      : idx_(detail::TakeIndices<IDType>(e.index_, e.shape_[0], e.src_rows_, e.mode_, "take")),
        ptr_(idx_.get()),
        src_(MakePlan(e.src_)) {}
  /*! \brief Element (y, x). */
  SHADE_XINLINE DType Eval(index_t y, index_t x) const { return src_.Eval(ptr_[y], x); }

 private:
  std::shared_ptr<index_t[]> idx_;
  const index_t* ptr_;
  Plan<SrcExp, DType> src_;
};

/*! \brief Rows of `grad` summed into the rows named by the index (vocab x cols). */
template <typename IndexExp, typename IDType, typename SrcExp, typename DType>
struct TakeGradExp
    : public MakeTensorExp<TakeGradExp<IndexExp, IDType, SrcExp, DType>, SrcExp, 2, DType> {
  /*! \brief The indices. */
  IndexExp index_;
  /*! \brief The gradient of take's result (one row per index). */
  SrcExp grad_;
  /*! \brief Out-of-range policy. */
  take_mode::Mode mode_;
  /*! \brief Builds the node; throws when grad has not one row per index. */
  TakeGradExp(const IndexExp& index, const SrcExp& grad, index_t vocab, take_mode::Mode mode)
      : index_(index), grad_(grad), mode_(mode) {
    SHADE_CHECK_GE(vocab, 0) << "take_grad: negative number of rows (input_dim)";
    const Shape<1> is = detail::SourceShape<1>(index_, "take_grad");
    const Shape<2> gs = detail::SourceShape<2>(grad_, "take_grad");
    SHADE_CHECK_SHAPE_EQ(is[0], gs[0])
        << "take_grad: the gradient of shape " << gs
        << " must have one row per index (index length " << is[0] << ")";
    this->shape_ = Shape2(vocab, gs[1]);
    detail::CheckShapeArg(this->shape_, "take_grad");
  }
};

/*!
 * \brief `dweight = take_grad(ids, demb, vocab)`: row r of the (vocab, cols) result is the sum
 *  of the rows i of `grad` with ids[i] == r (0 for rows never taken). Use `+=` to accumulate.
 */
template <typename IndexExp, typename IDType, int e1, typename SrcExp, typename DType, int e2>
inline TakeGradExp<IndexExp, IDType, SrcExp, DType> take_grad(
    const Exp<IndexExp, IDType, e1>& index, const Exp<SrcExp, DType, e2>& grad, index_t input_dim,
    take_mode::Mode mode = take_mode::kRaise) {
  static_assert(ExpInfo<IndexExp>::kDim == 1, "take_grad: the index must be 1-D");
  static_assert(ExpInfo<SrcExp>::kDim == 2, "take_grad: the gradient must be 2-D");
  return TakeGradExp<IndexExp, IDType, SrcExp, DType>(index.self(), grad.self(), input_dim, mode);
}

/*!
 * \brief Groups the index positions by row once (a counting sort), so each result element
 *  sums only the gradient rows that map to it: O(n + vocab) setup, O(cols * n) in total.
 */
template <typename IndexExp, typename IDType, typename SrcExp, typename DType>
class Plan<TakeGradExp<IndexExp, IDType, SrcExp, DType>, DType> {
 public:
  /*!
   * \brief Evaluates and checks the indices and groups their positions by row; throws as take
   *  does.
   */
  explicit Plan(const TakeGradExp<IndexExp, IDType, SrcExp, DType>& e) : grad_(MakePlan(e.grad_)) {
    const index_t vocab = e.shape_[0];
    const Shape<1> is = detail::SourceShape<1>(e.index_, "take_grad");
    const index_t n = is[0];
    const std::shared_ptr<index_t[]> idx =
        detail::TakeIndices<IDType>(e.index_, n, vocab, e.mode_, "take_grad");
    start_ = MakeSharedScratch<index_t>(CheckedAdd(vocab, 1, "take_grad vocabulary"), "take_grad");
    pos_ = MakeSharedScratch<index_t>(n, "take_grad");
    for (index_t r = 0; r <= vocab; ++r) start_[static_cast<size_t>(r)] = 0;
    for (index_t i = 0; i < n; ++i) ++start_[static_cast<size_t>(idx[static_cast<size_t>(i)] + 1)];
    for (index_t r = 0; r < vocab; ++r)
      start_[static_cast<size_t>(r + 1)] += start_[static_cast<size_t>(r)];
    ScratchBuffer<index_t> fill(vocab, "take_grad");
    for (index_t r = 0; r < vocab; ++r)
      fill[static_cast<size_t>(r)] = start_[static_cast<size_t>(r)];
    for (index_t i = 0; i < n; ++i) {
      const index_t r = idx[static_cast<size_t>(i)];
      pos_[static_cast<size_t>(fill[static_cast<size_t>(r)]++)] = i;
    }
    start_ptr_ = start_.get();
    pos_ptr_ = pos_.get();
  }
  /*! \brief Sum over the positions i with index i == y of grad(i, x). */
  SHADE_XINLINE DType Eval(index_t y, index_t x) const {
    DType sum = DType(0);
    for (index_t k = start_ptr_[y]; k < start_ptr_[y + 1]; ++k) sum += grad_.Eval(pos_ptr_[k], x);
    return sum;
  }

 private:
  Plan<SrcExp, DType> grad_;
  std::shared_ptr<index_t[]> start_, pos_;
  const index_t* start_ptr_ = nullptr;
  const index_t* pos_ptr_ = nullptr;
};

}  // namespace expr
}  // namespace shade

#endif  // SHADE_EXPR_EXT_TAKE_H_
