/*!
 * \file creation.h
 * \brief NDArray factories with NumPy semantics: zeros, ones, full, empty, arange, linspace, eye,
 *  and seeded, reproducible random arrays through a `Generator` (rand, randn, randint, uniform,
 *  normal).
 */
#ifndef SHADE_NDARRAY_CREATION_H_
#define SHADE_NDARRAY_CREATION_H_

#include <cstdint>
#include <type_traits>

#include "shade/base/dtype.h"
#include "shade/base/index.h"
#include "shade/ndarray/ndarray.h"

namespace shade {

/*! \brief Uninitialised contiguous array (np.empty). */
NDArray empty(IndexSpan shape, int dtype = kFloat64);
/*! \brief Zeros (np.zeros). */
NDArray zeros(IndexSpan shape, int dtype = kFloat64);
/*! \brief Ones (np.ones). */
NDArray ones(IndexSpan shape, int dtype = kFloat64);
/*!
 * \brief Every element `value` converted to dtype (np.full); an integer dtype needs a finite
 *  value in its range (else shade::Error). int64 values above 2^53 need full_int.
 */
NDArray full(IndexSpan shape, double value, int dtype = kFloat64);
/*! \brief Every element the exact integer `value` (range-checked for dtype). */
NDArray full_int(IndexSpan shape, std::int64_t value, int dtype = kInt64);

namespace detail {
NDArray ArangeInt(std::int64_t start, std::int64_t stop, std::int64_t step, int dtype);
NDArray ArangeFloat(double start, double stop, double step, int dtype);
}  // namespace detail

/*!
 * \brief Values start, start+step, ... below stop (above for step < 0) (np.arange): length
 *  ceil((stop - start) / step), 0 when empty. All-integer arguments give int64 exactly, any
 *  floating argument float64 (value i is start + i * step, as NumPy); `dtype` >= 0 overrides.
 *  step == 0 throws.
 */
template <typename A, typename B, typename C = int>
NDArray arange(A start, B stop, C step = 1, int dtype = -1) {
  static_assert(std::is_arithmetic<A>::value && std::is_arithmetic<B>::value && std::is_arithmetic<C>::value,
                "arange: arithmetic arguments");
  if constexpr (std::is_integral<A>::value && std::is_integral<B>::value && std::is_integral<C>::value) {
    return detail::ArangeInt(static_cast<std::int64_t>(start), static_cast<std::int64_t>(stop),
                             static_cast<std::int64_t>(step), dtype < 0 ? kInt64 : dtype);
  } else {
    return detail::ArangeFloat(static_cast<double>(start), static_cast<double>(stop), static_cast<double>(step),
                               dtype < 0 ? kFloat64 : dtype);
  }
}
/*! \brief arange(0, stop). */
template <typename A>
NDArray arange(A stop) {
  return arange(A(0), stop);
}

/*!
 * \brief `num` evenly spaced values over [start, stop] (np.linspace): value i is start + i * step
 *  with step = (stop - start) / (num - endpoint), computed in float64; with endpoint the last is
 *  exactly stop. An integer dtype takes the floor (NumPy 2). num >= 0.
 */
NDArray linspace(double start, double stop, index_t num = 50, bool endpoint = true, int dtype = kFloat64);

/*! \brief n x m (m < 0: n) array with ones on diagonal k (np.eye). */
NDArray eye(index_t n, index_t m = -1, index_t k = 0, int dtype = kFloat64);

/*!
 * \brief Seeded random source for NDArrays. Reproducible: each call draws a fresh stream number;
 *  the result's elements (row-major) are cut into fixed chunks of kChunk and chunk c of call k
 *  uses its own std::mt19937_64 seeded from (seed, k, c), so values depend only on the seed, the
 *  sequence of calls and the shapes - never on the thread count. Values are drawn in double
 *  with the standard library's distributions (the same numbers for a given libstdc++; other
 *  standard libraries may differ) and rounded to the dtype; a float uniform that rounds up to its
 *  upper bound is moved below it.
 */
class Generator {
 public:
  /*! \brief Elements per stream. */
  static constexpr index_t kChunk = 4096;
  /*! \brief A generator seeded with `seed`. */
  explicit Generator(std::uint64_t seed = 0) : seed_(seed) {}
  /*! \brief Restarts the sequence from `seed`. */
  void manual_seed(std::uint64_t seed) {
    seed_ = seed;
    calls_ = 0;
  }
  /*! \brief Uniform [0, 1) of a floating dtype (np.random.rand). */
  NDArray rand(IndexSpan shape, int dtype = kFloat64);
  /*! \brief Standard normal of a floating dtype (np.random.randn). */
  NDArray randn(IndexSpan shape, int dtype = kFloat64);
  /*! \brief Uniform [low, high) of a floating dtype; needs finite low < high. */
  NDArray uniform(double low, double high, IndexSpan shape, int dtype = kFloat64);
  /*! \brief Normal(mean, stddev >= 0) of a floating dtype. */
  NDArray normal(double mean, double stddev, IndexSpan shape, int dtype = kFloat64);
  /*!
   * \brief Integers uniform in [low, high) of an integer dtype (np.random.randint); needs
   *  low < high, both representable in dtype.
   */
  NDArray randint(std::int64_t low, std::int64_t high, IndexSpan shape, int dtype = kInt64);

 private:
  template <typename Draw>
  NDArray Generate(IndexSpan shape, int dtype, const char* who, Draw draw);
  std::uint64_t seed_;
  std::uint64_t calls_ = 0;
};

}  // namespace shade

#endif  // SHADE_NDARRAY_CREATION_H_
