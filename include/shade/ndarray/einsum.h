/*!
 * \file einsum.h
 * \brief np.einsum on NDArrays: Einstein summation over labelled axes, with NumPy 1.24's
 *  subscript language (letters, one "..." per term, implicit or explicit "->" output).
 *
 * Evaluation never loops over elements itself: a repeated label inside one operand is a
 * diagonal view (strides added), labels of one operand that no other operand or the output uses
 * are summed first (reduce.h), and each pair of operands contracts as one batched matmul over
 * permuted and reshaped views (linalg.h, so float products run on the BLAS). The result dtype
 * is the operands' promoted dtype (as NumPy's einsum; integer sums keep it, wrapping).
 */
#ifndef SHADE_NDARRAY_EINSUM_H_
#define SHADE_NDARRAY_EINSUM_H_

#include <string>
#include <vector>

#include "shade/ndarray/ndarray.h"

namespace shade {

/*! \brief Order in which einsum contracts more than two operands. */
enum class EinsumOptimize {
  kNone,    //!< left to right, as written (NumPy's optimize=False)
  kGreedy,  //!< repeatedly the pair whose result is smallest (optimize=True / "greedy")
};

/*!
 * \brief np.einsum(subscripts, *operands, optimize=...). Throws shade::ValueError for a
 *  malformed subscript string or operand count (NumPy's messages), shade::ShapeError when the
 *  sizes of one label disagree (size 1 broadcasts, as NumPy).
 */
NDArray einsum(const std::string& subscripts, const std::vector<NDArray>& operands,
               EinsumOptimize optimize = EinsumOptimize::kNone);

}  // namespace shade

#endif  // SHADE_NDARRAY_EINSUM_H_
