/*!
 * \file complex.h
 * \brief NumPy's complex-number functions on NDArray: `real`, `imag` (views of a complex array's
 *  parts), `conj` / `conjugate`, `angle`, `iscomplexobj`, `isrealobj`, `iscomplex`, `isreal`,
 *  `view_as_real` (the interleaved (re, im) float layout of the static front end's complex
 *  extension, compat/mshadow_complex.h) and `complex_item`. The complex dtypes themselves
 *  (complex64, complex128) go through every elementwise op, promotion, reduction and matmul
 *  that supports them; docs/design/complex.md lists which.
 */
#ifndef SHADE_NDARRAY_COMPLEX_H_
#define SHADE_NDARRAY_COMPLEX_H_

#include "shade/base/dtype.h"
#include "shade/ndarray/ndarray.h"

namespace shade {

/*! \brief np.real: a complex array's real parts as a strided float view sharing its memory
 *  (complex64 -> float32, complex128 -> float64); a real array is returned itself. */
NDArray real(const NDArray& a);

/*! \brief np.imag: a complex array's imaginary parts as a strided float view sharing its memory;
 *  for a real array a new read-only array of zeros of its dtype (as NumPy). */
NDArray imag(const NDArray& a);

/*! \brief np.conj: the complex conjugate (a new array); a real array is copied unchanged. */
NDArray conj(const NDArray& a);

/*! \brief np.conjugate (same as conj). */
NDArray conjugate(const NDArray& a);

/*! \brief np.angle: arctan2(imag, real) of each element, in radians (degrees with `deg`); float
 *  dtype as arctan2 gives it (complex64 -> float32, complex128 -> float64, integers by the
 *  binary float rule). */
NDArray angle(const NDArray& a, bool deg = false);

/*! \brief np.iscomplexobj: true when the dtype is complex. */
bool iscomplexobj(const NDArray& a);

/*! \brief np.isrealobj: true when the dtype is not complex. */
bool isrealobj(const NDArray& a);

/*! \brief np.iscomplex: per element, true where the imaginary part is nonzero (bool array). */
NDArray iscomplex(const NDArray& a);

/*! \brief np.isreal: per element, true where the imaginary part is zero (bool array). */
NDArray isreal(const NDArray& a);

/*! \brief A complex array of shape (..., n) as a float view of shape (..., n, 2) holding (re, im)
 *  pairs (torch.view_as_real). With a contiguous array, `.view({..., 2 * n})` of it is the
 *  interleaved layout the static front end's complex extension computes on. */
NDArray view_as_real(const NDArray& a);

/*! \brief The single element of a one-element array as complex128 (a real one gets a zero
 *  imaginary part). Throws unless numel == 1. */
complex128_t complex_item(const NDArray& a);

}  // namespace shade

#endif  // SHADE_NDARRAY_COMPLEX_H_
