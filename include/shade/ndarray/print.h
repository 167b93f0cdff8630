/*!
 * \file print.h
 * \brief NumPy-style text of an NDArray: `array([[1. , 2.5],\n       [3. , 4. ]], dtype=float32)`.
 *
 * The style is NumPy's repr (chosen over PyTorch's `tensor(...)`): columns aligned (floats on the
 * decimal point), floats in the fewest digits (at most `precision` after the point) that read
 * back as the same value in their dtype, scientific notation when the finite non-zero magnitudes
 * reach 1e8, go below 1e-4 or span more than 1e3 (NumPy's rule), long rows wrapped at
 * `linewidth`, and arrays above `threshold` elements summarised with `...` keeping `edgeitems`
 * at each end of every dimension. Differences from NumPy: the dtype is always shown (NumPy omits
 * float64/int64/bool), and `shape=(...)` is added to summarised arrays as NumPy 2 does (empty
 * arrays print as NumPy: `array([], shape=(0, 3), dtype=float64)`).
 *
 * `os << a` prints this form for an NDArray and for a static cpu Tensor; NDArray::Describe() is
 * the one-line summary (what error messages show). `os << Print(a, options)` sets the options.
 */
#ifndef SHADE_NDARRAY_PRINT_H_
#define SHADE_NDARRAY_PRINT_H_

#include <iosfwd>
#include <string>

#include "shade/base/index.h"
#include "shade/ndarray/bridge.h"
#include "shade/ndarray/ndarray.h"
#include "shade/tensor/tensor.h"

namespace shade {

/*! \brief Printing options (NumPy's np.set_printoptions names and defaults). */
struct PrintOptions {
  index_t threshold = 1000;  //!< summarise above this many elements
  index_t edgeitems = 3;     //!< items kept at each end of a summarised dimension
  int precision = 8;         //!< most digits after the point for floats
  int linewidth = 75;        //!< wrap rows longer than this
};

/*! \brief The NumPy-style text (see the file comment). */
std::string ToString(const NDArray& a, const PrintOptions& opt = PrintOptions());

/*! \brief Stream adaptor: `std::cout << Print(a)`. */
struct Printed {
  const NDArray& array;  //!< the array (must outlive the adaptor)
  PrintOptions options;  //!< how
};
/*! \brief Wraps `a` for `<<`. */
inline Printed Print(const NDArray& a, const PrintOptions& opt = PrintOptions()) {
  return Printed{a, opt};
}
/*! \brief Writes ToString(p.array, p.options). */
std::ostream& operator<<(std::ostream& os, const Printed& p);

/*! \brief Prints a static host Tensor's values as ToString does (a view; nothing is copied). */
template <int dim, typename DType>
std::ostream& operator<<(std::ostream& os, const Tensor<cpu, dim, DType>& t) {
  return os << ToString(FromTBlob(TBlob(t)));
}

}  // namespace shade

#endif  // SHADE_NDARRAY_PRINT_H_
