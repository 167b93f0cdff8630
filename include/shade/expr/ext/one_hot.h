/*!
 * \file one_hot.h
 * \brief `one_hot_encode(index, num_choices)`: row y of the (n, num_choices) result is 1 at
 *  column index[y] and 0 elsewhere. Indices are checked (integers in [0, num_choices)) when the
 *  plan is built: a bad label throws shade::Error naming it before anything is written.
 */
#ifndef SHADE_EXPR_EXT_ONE_HOT_H_
#define SHADE_EXPR_EXT_ONE_HOT_H_

#include <memory>

#include "shade/base/dtype.h"
#include "shade/expr/ext/ext_base.h"
#include "shade/tensor/tensor.h"

namespace shade {
namespace expr {

/*! \brief One-hot rows of a 1-D index expression (mshadow's OneHotEncodeExp). */
template <typename IndexExp, typename IDType, typename DType>
struct OneHotEncodeExp
    : public MakeTensorExp<OneHotEncodeExp<IndexExp, IDType, DType>, IndexExp, 2, DType> {
  /*! \brief The indices. */
  IndexExp index_;
  /*! \brief Builds the node. */
  OneHotEncodeExp(const IndexExp& index, index_t num_choices) : index_(index) {
    SHADE_CHECK_GE(num_choices, 0) << "one_hot_encode: negative number of choices";
    const Shape<1> s = detail::SourceShape<1>(index_, "one_hot_encode");
    this->shape_ = Shape2(s[0], num_choices);
    detail::CheckShapeArg(this->shape_, "one_hot_encode");
  }
};

/*!
 * \brief One-hot encoding of a 1-D index expression (any element type) as DType
 *  (default_real_t, as in mshadow): `label_mat = one_hot_encode(labels, 10);`.
 */
template <typename DType = default_real_t, typename IndexExp, typename IDType, int e1>
inline OneHotEncodeExp<IndexExp, IDType, DType> one_hot_encode(const Exp<IndexExp, IDType, e1>& index,
                                                               index_t num_choices) {
  static_assert(ExpInfo<IndexExp>::kDim == 1, "one_hot_encode: the index must be 1-D");
  return OneHotEncodeExp<IndexExp, IDType, DType>(index.self(), num_choices);
}

/*! \brief Reads the checked indices (evaluated once when the plan is built). */
template <typename IndexExp, typename IDType, typename DType>
class Plan<OneHotEncodeExp<IndexExp, IDType, DType>, DType> {
 public:
  /*!
   * \brief Evaluates and checks the indices once; throws shade::IndexError (or shade::Error for
   *  non-integral floats) for one outside [0, number of choices).
   */
  explicit Plan(const OneHotEncodeExp<IndexExp, IDType, DType>& e)
      : idx_(detail::EvalIndices<IDType>(e.index_, e.shape_[0], e.shape_[1], "one_hot_encode",
                                         "number of choices")),
        ptr_(idx_.get()) {}
  /*! \brief 1 where x is row y's index. */
  SHADE_XINLINE DType Eval(index_t y, index_t x) const { return DType(ptr_[y] == x ? 1 : 0); }

 private:
  std::shared_ptr<index_t[]> idx_;
  const index_t* ptr_;
};

}  // namespace expr
}  // namespace shade

#endif  // SHADE_EXPR_EXT_ONE_HOT_H_
