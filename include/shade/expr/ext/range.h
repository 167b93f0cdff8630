/*!
 * \file range.h
 * \brief `range<DType>(start, stop, step, repeat)`: the 1-D sequence start, start + step, ...
 *  up to but excluding stop, each value repeated `repeat` times (mshadow's RangeExp).
 *
 * The length is ceil((stop - start) / step) * repeat, computed in long double. As in NumPy's
 * arange, a step pointing away from stop gives an empty sequence; step 0, repeat < 1,
 * non-finite arguments and lengths beyond index_t throw shade::Error.
 */
#ifndef SHADE_EXPR_EXT_RANGE_H_
#define SHADE_EXPR_EXT_RANGE_H_

#include <cmath>
#include <type_traits>

#include "shade/expr/ext/ext_base.h"
#include "shade/tensor/tensor.h"

namespace shade {
namespace expr {

/*! \brief An arithmetic sequence (no source: ScalarExp stands in so it fits every device). */
template <typename DType>
struct RangeExp : public MakeTensorExp<RangeExp<DType>, ScalarExp<DType>, 1, DType> {
  /*! \brief First value. */
  DType start_;
  /*! \brief Excluded bound. */
  DType stop_;
  /*! \brief Difference between consecutive distinct values. */
  DType step_;
  /*! \brief Times each value is repeated. */
  index_t repeat_;
  /*! \brief Builds the node and computes its checked length. */
  RangeExp(DType start, DType stop, DType step, index_t repeat)
      : start_(start), stop_(stop), step_(step), repeat_(repeat) {
    const long double a = static_cast<long double>(start), b = static_cast<long double>(stop),
                      st = static_cast<long double>(step);
    SHADE_CHECK(std::isfinite(a) && std::isfinite(b) && std::isfinite(st))
        << "range: start " << +start << ", stop " << +stop << " and step " << +step
        << " must be finite";
    SHADE_CHECK(st != 0) << "range: step must not be 0 (start " << +start << ", stop " << +stop
                         << ")";
    SHADE_CHECK_GE(repeat, 1) << "range: repeat must be at least 1";
    const long double count = std::ceil((b - a) / st);
    const long double n = count > 0 ? count : 0;
    SHADE_CHECK(n < 9.0e18L) << "range: " << static_cast<double>(n)
                             << " values do not fit index_t (start " << +start << ", stop "
                             << +stop << ", step " << +step << ")";
    this->shape_[0] = CheckedMul(static_cast<index_t>(n), repeat, "range");
  }
};

/*!
 * \brief `range<float>(0, 5)` is 0 1 2 3 4; `range(0.f, 3.f, 1.f, 2)` is 0 0 1 1 2 2;
 *  `range(5, 0, -2)` is 5 3 1.
 */
template <typename DType>
inline RangeExp<DType> range(DType start, DType stop, DType step = DType(1), int repeat = 1) {
  return RangeExp<DType>(start, stop, step, repeat);
}

/*! \brief Value x / repeat of the sequence. */
template <typename DType>
class Plan<RangeExp<DType>, DType> {
 public:
  /*! \brief Copies start, step and repeat count. */
  explicit Plan(const RangeExp<DType>& e)
      : start_(e.start_), step_(e.step_), repeat_(e.repeat_) {}
  /*! \brief Element (0, x). */
  SHADE_XINLINE DType Eval(index_t /*y*/, index_t x) const {
    if constexpr (std::is_integral<DType>::value) {
      // In 64 bits: k * step may exceed DType even though the value lies before stop.
      return DType(static_cast<index_t>(start_) + (x / repeat_) * static_cast<index_t>(step_));
    } else {
      return DType(start_ + DType(x / repeat_) * step_);
    }
  }

 private:
  DType start_, step_;
  index_t repeat_;
};

}  // namespace expr
}  // namespace shade

#endif  // SHADE_EXPR_EXT_RANGE_H_
