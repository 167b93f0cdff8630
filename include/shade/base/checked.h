/*!
 * \file checked.h
 * \brief Overflow-checked size arithmetic: sizes never wrap silently.
 */
#ifndef SHADE_BASE_CHECKED_H_
#define SHADE_BASE_CHECKED_H_

#include "shade/base/error.h"
#include "shade/base/index.h"

namespace shade {

/*! \brief a * b for non-negative sizes; throws shade::Error naming `what` on overflow. */
inline index_t CheckedMul(index_t a, index_t b, const char* what = "size") {
  index_t out;
  if (__builtin_mul_overflow(a, b, &out)) {
    SHADE_THROW << what << " overflows int64: " << a << " * " << b;
  }
  return out;
}

/*! \brief a + b; throws shade::Error naming `what` on overflow. */
inline index_t CheckedAdd(index_t a, index_t b, const char* what = "size") {
  index_t out;
  if (__builtin_add_overflow(a, b, &out)) {
    SHADE_THROW << what << " overflows int64: " << a << " + " << b;
  }
  return out;
}

/*! \brief Product of n non-negative extents; throws on a negative extent or on overflow. */
inline index_t CheckedProduct(const index_t* dims, index_t n, const char* what = "shape size") {
  index_t prod = 1;
  for (index_t i = 0; i < n; ++i) {
    SHADE_CHECK_SHAPE_GE(dims[i], 0) << what << ": extent " << i << " is negative";
    prod = CheckedMul(prod, dims[i], what);
  }
  return prod;
}

}  // namespace shade

#endif  // SHADE_BASE_CHECKED_H_
