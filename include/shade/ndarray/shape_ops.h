/*!
 * \file shape_ops.h
 * \brief Shape and dtype operations on NDArrays with NumPy semantics: astype, item, cat
 *  (concatenate), stack, split / array_split, flip, roll, tile, repeat.
 *
 * Copying and filling are NDArray members already (`copy_`, `Fill`, `Clone`). Results are new
 * contiguous arrays except `split` / `array_split`, which return views (as NumPy does).
 */
#ifndef SHADE_NDARRAY_SHAPE_OPS_H_
#define SHADE_NDARRAY_SHAPE_OPS_H_

#include <type_traits>
#include <vector>

#include "shade/base/dtype.h"
#include "shade/base/error.h"
#include "shade/base/half.h"
#include "shade/ndarray/ndarray.h"
#include "shade/ndarray/promotion.h"

namespace shade {

/*!
 * \brief a converted to dtype `flag` (NumPy's astype). The conversion must be allowed by
 *  `casting` (default unsafe, as NumPy: float -> int truncates toward zero; a NaN or
 *  out-of-range float gives an unspecified integer); any -> bool is `x != 0` (NaN is true).
 *  Returns `a` itself when it already has that dtype (Clone() for a copy).
 */
NDArray astype(const NDArray& a, int flag, Casting casting = Casting::kUnsafe);

/*!
 * \brief The single element of a one-element array (any rank) as T (static_cast semantics,
 *  through float for half_t / bf16_t). Throws unless numel == 1.
 */
template <typename T>
T item(const NDArray& a) {
  SHADE_CHECK(a.defined()) << "item: the NDArray is undefined";
  SHADE_CHECK_SHAPE_EQ(a.numel(), 1)
      << "item: only one-element arrays convert to a scalar; shape is " << a.sizes();
  SHADE_CHECK_TYPE_GE(a.type_flag(), 0)
      << "item: element type " << a.dtype().name() << " is not numeric";
  SHADE_CHECK(a.data_ptr() != nullptr) << "item: " << a << " has no memory allocated";
  return DispatchDType(a.type_flag(), [&](auto tag) -> T {
    using S = typename decltype(tag)::type;
    const S v = *static_cast<const S*>(a.data_ptr());
    if constexpr (kIsFloat16<S> && kIsFloat16<T>) {
      return T(static_cast<float>(v));
    } else if constexpr (kIsFloat16<S>) {
      return static_cast<T>(static_cast<float>(v));
    } else if constexpr (kIsFloat16<T>) {
      return T(static_cast<float>(v));
    } else {
      return static_cast<T>(v);
    }
  });
}

/*!
 * \brief Joins arrays along an existing axis (np.concatenate): same rank, equal sizes except
 *  along `axis`; the result dtype is the promotion of all inputs. Throws for an empty list,
 *  rank-0 inputs, a bad axis or mismatched shapes (naming the array and both shapes).
 */
NDArray cat(const std::vector<NDArray>& arrays, index_t axis = 0);
/*! \brief NumPy's name for cat. */
NDArray concatenate(const std::vector<NDArray>& arrays, index_t axis = 0);
/*! \brief Joins equal-shaped arrays along a new axis in [-ndim-1, ndim] (np.stack). */
NDArray stack(const std::vector<NDArray>& arrays, index_t axis = 0);

/*! \brief `sections` equal views along `axis`; throws unless the size divides (np.split). */
std::vector<NDArray> split(const NDArray& a, index_t sections, index_t axis = 0);
/*!
 * \brief Views a[:i0], a[i0:i1], ..., a[ik:] along `axis` (np.split with indices; indices are
 *  clamped like slices, negative ones count from the end). Note: a braced single value
 *  `split(a, {3})` means 3 sections; pass `std::vector<index_t>{3}` for an index list.
 */
std::vector<NDArray> split(const NDArray& a, const std::vector<index_t>& indices, index_t axis = 0);
/*! \brief `sections` views whose sizes differ by at most one, larger first (np.array_split). */
std::vector<NDArray> array_split(const NDArray& a, index_t sections, index_t axis = 0);

/*! \brief Reverses the order of elements along every axis (np.flip(a)); a copy. */
NDArray flip(const NDArray& a);
/*! \brief Reverses along the listed axes (negative count from the end); a copy. */
NDArray flip(const NDArray& a, const std::vector<index_t>& axes);

/*! \brief Rolls the flattened array by `shift` and restores the shape (np.roll, axis=None). */
NDArray roll(const NDArray& a, index_t shift);
/*! \brief Element i of `axis` moves to (i + shift) mod size (np.roll). */
NDArray roll(const NDArray& a, index_t shift, index_t axis);
/*! \brief Rolls by shifts[k] along axes[k] (same lengths; repeated axes add up, as NumPy). */
NDArray roll(const NDArray& a, const std::vector<index_t>& shifts,
             const std::vector<index_t>& axes);

/*!
 * \brief Repeats the whole array reps[k] times along each axis (np.tile): shorter reps are
 *  padded with leading 1s, a shorter array gets leading size-1 axes. reps >= 0.
 */
NDArray tile(const NDArray& a, const std::vector<index_t>& reps);

/*! \brief Each element of the flattened array `repeats` times (np.repeat, axis=None). */
NDArray repeat(const NDArray& a, index_t repeats);
/*! \brief Each index of `axis` repeated `repeats` times. */
NDArray repeat(const NDArray& a, index_t repeats, index_t axis);
/*! \brief Index i of `axis` repeated repeats[i] times (one count per index, each >= 0). */
NDArray repeat(const NDArray& a, const std::vector<index_t>& repeats, index_t axis);

}  // namespace shade

#endif  // SHADE_NDARRAY_SHAPE_OPS_H_
