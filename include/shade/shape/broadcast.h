/*!
 * \file broadcast.h
 * \brief NumPy's broadcasting rule for two shapes, the one implementation that the fused
 *  elementwise evaluator, advanced indexing and matmul's batch dimensions use. Each caller
 *  words its own error (NumPy's messages differ between those operations).
 */
#ifndef SHADE_SHAPE_BROADCAST_H_
#define SHADE_SHAPE_BROADCAST_H_

#include <algorithm>

#include "shade/base/index.h"

namespace shade {

/*!
 * \brief Broadcasts extents `a[0..na)` with `b[0..nb)`: aligned at the right, each pair equal or
 *  one of them 1 (a 1 takes the other's extent, so 1 with 0 gives 0). Writes the max(na, nb)
 *  result extents to `out` (which may alias `a` or `b`) and returns true; returns false, with
 *  `out` unspecified, when some pair differs and neither is 1.
 */
inline bool BroadcastShapes(const index_t* a, int na, const index_t* b, int nb, index_t* out) {
  const int nd = std::max(na, nb);
  // Right to left, so that writing out[i] never overwrites an aliased extent still to be read.
  for (int i = nd - 1; i >= 0; --i) {
    const int ia = i - (nd - na), ib = i - (nd - nb);
    const index_t sa = ia >= 0 ? a[ia] : 1, sb = ib >= 0 ? b[ib] : 1;
    if (sa != sb && sa != 1 && sb != 1) return false;
    out[i] = sa == 1 ? sb : sa;
  }
  return true;
}

}  // namespace shade

#endif  // SHADE_SHAPE_BROADCAST_H_
