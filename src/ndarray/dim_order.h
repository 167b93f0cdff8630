// Internal to the dynamic front end: the one dimension planner shared by the apply engine
// (apply.cc) and the reductions (reduce.cc).
#ifndef SHADE_SRC_NDARRAY_DIM_ORDER_H_
#define SHADE_SRC_NDARRAY_DIM_ORDER_H_

#include <vector>

#include "shade/base/index.h"

namespace shade {

/*!
 * The dimensions of `sizes` other than the size-1 ones, outermost first in memory order: a
 * stable sort by stride, the first operand whose strides differ at a pair deciding (a zero stride
 * orders nothing). `strides` has `nops` operands of sizes.size() element strides each. Dense
 * layouts (contiguous, transposed, permuted) come out as the order their elements are stored in,
 * so walking the dimensions in this order reads memory sequentially.
 */
inline std::vector<int> MemoryOrderDims(IndexSpan sizes, const IndexSpan* strides, int nops) {
  std::vector<int> dims;
  for (int d = 0; d < static_cast<int>(sizes.size()); ++d) {
    if (sizes[d] != 1) dims.push_back(d);
  }
  const auto inner_than = [&](int a, int b) {  // true when a belongs inside b
    for (int o = 0; o < nops; ++o) {
      const index_t sa = strides[o][a], sb = strides[o][b];
      if (sa == 0 || sb == 0 || sa == sb) continue;
      return sa < sb;
    }
    return false;
  };
  // Insertion sort: stable, and correct for this order, which is not a strict weak ordering
  // once zero strides make pairs incomparable.
  for (std::size_t i = 1; i < dims.size(); ++i) {
    for (std::size_t j = i; j > 0 && inner_than(dims[j - 1], dims[j]); --j) {
      std::swap(dims[j - 1], dims[j]);
    }
  }
  return dims;
}

}  // namespace shade

#endif  // SHADE_SRC_NDARRAY_DIM_ORDER_H_
