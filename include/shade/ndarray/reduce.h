/*!
 * \file reduce.h
 * \brief Reductions of NDArrays over any set of axes, with NumPy's semantics: sum, mean, prod,
 *  max, min, argmax, argmin, all, any, var, std (docs/design/dynamic-ops.md, "Reductions").
 *
 * Result dtypes follow NumPy: sum/prod of bool and signed integers give int64, of unsigned
 * integers uint64, floats keep theirs; mean/var/std of bool and integers give float64, floats keep
 * theirs (float16/bfloat16 compute in float32 and round once); max/min keep the dtype; argmax/
 * argmin give int64; all/any give bool.
 *
 * Every reduction runs on the kernel layer's accurate, vectorised, threaded kernels
 * (backend/cpu/reduce.h): blocked pairwise sums with the error bound stated there. Strided inputs
 * are first viewed in memory order (a transposed array reduces with no copy); only layouts that
 * are not dense in any order are copied. Float max/min propagate NaN (NumPy); argmax/argmin
 * return the first index of the extremum, a NaN counting as the extremum.
 */
#ifndef SHADE_NDARRAY_REDUCE_H_
#define SHADE_NDARRAY_REDUCE_H_

#include <initializer_list>
#include <type_traits>
#include <vector>

#include "shade/base/index.h"
#include "shade/ndarray/ndarray.h"

namespace shade {

/*!
 * \brief The axes a reduction runs over: all of them (the default, NumPy's axis=None), one axis
 *  (`sum(a, 1)`) or a list (`sum(a, {0, 2})`; negative axes count from the end; an empty list
 *  reduces nothing, like NumPy's axis=()).
 */
class AxisSet {
 public:
  /*! \brief Every axis (axis=None). */
  AxisSet() = default;
  /*! \brief One axis. */
  AxisSet(index_t axis) : all_(false), axes_{axis} {}  // NOLINT(runtime/explicit)
  /*! \brief Axes of a braced list. */
  AxisSet(std::initializer_list<index_t> axes) : all_(false), axes_(axes) {}  // NOLINT
  /*! \brief Axes of a vector. */
  AxisSet(const std::vector<index_t>& axes) : all_(false), axes_(axes) {}  // NOLINT
  /*! \brief Every axis (axis=None). */
  static AxisSet All() { return AxisSet(); }
  /*! \brief True for axis=None. */
  bool all() const noexcept { return all_; }
  /*! \brief The listed axes (unnormalised). */
  const std::vector<index_t>& axes() const noexcept { return axes_; }
  /*!
   * \brief Per-dimension flags of an ndim-d array: true where reduced. Throws shade::Error for
   *  an axis out of [-ndim, ndim) or a repeated axis, naming `op`, the axis and the shape.
   */
  std::vector<bool> Mask(IndexSpan shape, const char* op) const;

 private:
  bool all_ = true;
  std::vector<index_t> axes_;
};

/*! \brief Sum (int64/uint64 for integers and bool, as NumPy); an empty reduction gives 0. */
NDArray sum(const NDArray& a, const AxisSet& axes = AxisSet(), bool keepdims = false);
/*! \brief Product; an empty reduction gives 1. Integers wrap on overflow (NumPy). */
NDArray prod(const NDArray& a, const AxisSet& axes = AxisSet(), bool keepdims = false);
/*! \brief Arithmetic mean (float64 for integers); an empty reduction gives NaN (NumPy). */
NDArray mean(const NDArray& a, const AxisSet& axes = AxisSet(), bool keepdims = false);
/*! \brief Largest value, NaN propagating; throws when a reduced length is 0. */
NDArray max(const NDArray& a, const AxisSet& axes = AxisSet(), bool keepdims = false);
/*! \brief Smallest value, NaN propagating; throws when a reduced length is 0. */
NDArray min(const NDArray& a, const AxisSet& axes = AxisSet(), bool keepdims = false);
/*! \brief NumPy's name for max. */
NDArray amax(const NDArray& a, const AxisSet& axes = AxisSet(), bool keepdims = false);
/*! \brief NumPy's name for min. */
NDArray amin(const NDArray& a, const AxisSet& axes = AxisSet(), bool keepdims = false);
/*! \brief True when every element is non-zero (NaN counts as true); empty gives true. */
NDArray all(const NDArray& a, const AxisSet& axes = AxisSet(), bool keepdims = false);
/*! \brief True when some element is non-zero; empty gives false. */
NDArray any(const NDArray& a, const AxisSet& axes = AxisSet(), bool keepdims = false);
/*!
 * \brief Variance: mean(|x - mean(x)|^2) * n / (n - ddof) (NumPy's two-pass formula). n - ddof
 *  <= 0 divides by 0 (inf or NaN, as NumPy). ddof must be >= 0.
 */
NDArray var(const NDArray& a, const AxisSet& axes = AxisSet(), index_t ddof = 0,
            bool keepdims = false);
/*! \brief sqrt(var). */
NDArray std(const NDArray& a, const AxisSet& axes = AxisSet(), index_t ddof = 0,
            bool keepdims = false);

/*! \brief Flat (row-major) index of the first maximum as a rank-0 int64 array; throws if empty. */
NDArray argmax(const NDArray& a);
/*! \brief Index along `axis` of the first maximum (int64); throws when that axis is empty. */
NDArray argmax(const NDArray& a, index_t axis, bool keepdims = false);
/*! \brief Flat index of the first minimum as a rank-0 int64 array; throws if empty. */
NDArray argmin(const NDArray& a);
/*! \brief Index along `axis` of the first minimum (int64); throws when that axis is empty. */
NDArray argmin(const NDArray& a, index_t axis, bool keepdims = false);

// Options that cannot be confused: a bool is keepdims and only keepdims, ddof is an integer and
// never a bool. `sum(a, 1, true)` keeps dims; `var(a, 1, true)` (ddof meant? keepdims meant?)
// and `sum(a, 1, 1)` do not compile. Write `var(a, 1, /*ddof=*/1)` or `var(a, 1, 0, true)`.
namespace detail {
template <typename T>
constexpr bool kIsNonBoolIntegral = std::is_integral_v<T> && !std::is_same_v<T, bool>;
}  // namespace detail
#define SHADE_REDUCE_REFUSE_INT_KEEPDIMS_(name)                                             \
  /*! \brief Refused: keepdims is a bool; an integer here is a mistake (ddof? an axis?). */ \
  template <typename I, std::enable_if_t<detail::kIsNonBoolIntegral<I>, int> = 0>           \
  NDArray name(const NDArray& a, const AxisSet& axes, I keepdims) = delete;
SHADE_REDUCE_REFUSE_INT_KEEPDIMS_(sum)
SHADE_REDUCE_REFUSE_INT_KEEPDIMS_(prod)
SHADE_REDUCE_REFUSE_INT_KEEPDIMS_(mean)
SHADE_REDUCE_REFUSE_INT_KEEPDIMS_(max)
SHADE_REDUCE_REFUSE_INT_KEEPDIMS_(min)
SHADE_REDUCE_REFUSE_INT_KEEPDIMS_(amax)
SHADE_REDUCE_REFUSE_INT_KEEPDIMS_(amin)
SHADE_REDUCE_REFUSE_INT_KEEPDIMS_(all)
SHADE_REDUCE_REFUSE_INT_KEEPDIMS_(any)
#undef SHADE_REDUCE_REFUSE_INT_KEEPDIMS_
/*! \brief Refused: ddof is an integer; `var(a, axes, true)` would silently mean ddof=1. */
template <typename B, std::enable_if_t<std::is_same_v<B, bool>, int> = 0>
NDArray var(const NDArray& a, const AxisSet& axes, B ddof, bool keepdims = false) = delete;
/*! \brief Refused: ddof is an integer; `std(a, axes, true)` would silently mean ddof=1. */
template <typename B, std::enable_if_t<std::is_same_v<B, bool>, int> = 0>
NDArray std(const NDArray& a, const AxisSet& axes, B ddof, bool keepdims = false) = delete;
/*! \brief Refused: keepdims is a bool, not an integer. */
template <typename I, std::enable_if_t<detail::kIsNonBoolIntegral<I>, int> = 0>
NDArray var(const NDArray& a, const AxisSet& axes, index_t ddof, I keepdims) = delete;
/*! \brief Refused: keepdims is a bool, not an integer. */
template <typename I, std::enable_if_t<detail::kIsNonBoolIntegral<I>, int> = 0>
NDArray std(const NDArray& a, const AxisSet& axes, index_t ddof, I keepdims) = delete;
/*! \brief Refused: keepdims is a bool, not an integer. */
template <typename I, std::enable_if_t<detail::kIsNonBoolIntegral<I>, int> = 0>
NDArray argmax(const NDArray& a, index_t axis, I keepdims) = delete;
/*! \brief Refused: keepdims is a bool, not an integer. */
template <typename I, std::enable_if_t<detail::kIsNonBoolIntegral<I>, int> = 0>
NDArray argmin(const NDArray& a, index_t axis, I keepdims) = delete;

/*! \brief The dtype NumPy's sum/prod give for an input dtype flag. */
int SumResultType(int flag);
/*! \brief The dtype NumPy's mean/var/std give for an input dtype flag. */
int MeanResultType(int flag);

}  // namespace shade

#endif  // SHADE_NDARRAY_REDUCE_H_
