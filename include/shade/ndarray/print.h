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
 * The options (precision, threshold, edgeitems, linewidth, suppress, sign, floatmode) are
 * NumPy's; GetPrintOptions / SetPrintOptions hold the ones in force. NumPyRepr and NumPyStr give
 * NumPy 1.24's repr and str exactly (the Python module's __repr__ and __str__).
 *
 * `os << a` prints this form for an NDArray and for a static cpu Tensor; NDArray::Describe() is
 * the one-line summary (what error messages show). `os << Print(a, options)` sets the options.
 */
#ifndef SHADE_NDARRAY_PRINT_H_
#define SHADE_NDARRAY_PRINT_H_

#include <cstdint>
#include <iosfwd>
#include <string>

#include "shade/base/index.h"
#include "shade/ndarray/bridge.h"
#include "shade/ndarray/ndarray.h"
#include "shade/tensor/tensor.h"

namespace shade {

/*! \brief How floats choose their digits (NumPy's floatmode). */
enum class FloatMode : std::uint8_t {
  kFixed,         ///< always `precision` digits
  kUnique,        ///< the fewest digits that read back as the value (precision ignored)
  kMaxPrec,       ///< the fewest digits, at most `precision`; shorter ones padded with spaces
  kMaxPrecEqual,  ///< as kMaxPrec, but every element gets the longest one's digits (zeros)
};

/*! \brief Printing options (NumPy's np.set_printoptions names and defaults). */
struct PrintOptions {
  index_t threshold = 1000;                   //!< summarise above this many elements
  index_t edgeitems = 3;                      //!< items kept at each end of a summarised dimension
  int precision = 8;                          //!< most digits after the point for floats
  int linewidth = 75;                         //!< wrap rows longer than this
  bool suppress = false;                      //!< no scientific notation for small numbers
  char sign = '-';                            //!< '-': minus only; '+': always; ' ': space if >= 0
  FloatMode floatmode = FloatMode::kMaxPrec;  //!< float digits (FloatMode)
};

/*!
 * \brief The printing options in force (NumPy's get_printoptions): what ToString, NumPyRepr and
 *  NumPyStr use by default. Process-wide, as NumPy 1.24's.
 */
PrintOptions GetPrintOptions();
/*!
 * \brief Sets the options in force (NumPy's set_printoptions). Throws ValueError for
 *  precision outside [0, 400], threshold < 0, edgeitems < 1, linewidth < 1, or a sign other than
 *  '-', '+', ' '.
 */
void SetPrintOptions(const PrintOptions& opt);
/*! \brief FloatMode by NumPy's name ("fixed", "unique", "maxprec", "maxprec_equal"). */
FloatMode ParseFloatMode(const std::string& name);
/*! \brief NumPy's name of a FloatMode. */
const char* FloatModeName(FloatMode mode);

/*! \brief The NumPy-style text (see the file comment), with the options in force by default. */
std::string ToString(const NDArray& a, const PrintOptions& opt = GetPrintOptions());
/*!
 * \brief NumPy 1.24's repr exactly: as ToString, but float64, int64 and bool omit the dtype and
 *  summarised arrays omit the shape (empty ones keep it).
 */
std::string NumPyRepr(const NDArray& a, const PrintOptions& opt = GetPrintOptions());
/*!
 * \brief NumPy 1.24's str: `[[1. 2.]\n [3. 4.]]`, elements separated by spaces; a 0-d array
 *  prints its value alone, in the fewest digits that read back as it (NumPy's scalar str).
 */
std::string NumPyStr(const NDArray& a, const PrintOptions& opt = GetPrintOptions());

/*! \brief Stream adaptor: `std::cout << Print(a)`. */
struct Printed {
  const NDArray& array;  //!< the array (must outlive the adaptor)
  PrintOptions options;  //!< how
};
/*! \brief Wraps `a` for `<<`. */
inline Printed Print(const NDArray& a, const PrintOptions& opt = GetPrintOptions()) {
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
