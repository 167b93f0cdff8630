/*!
 * \file complex.h
 * \brief Scalar math of the complex dtypes (complex64_t, complex128_t) with NumPy 1.24's results:
 *  the products and quotients written out (no C99 Annex G recovery of infinities, which
 *  std::complex's operators add), Smith's quotient, the integer-exponent power by squaring,
 *  NumPy's lexicographic order with its NaN rules. The dynamic front end's complex kernels
 *  (src/ndarray/ops_kernels_complex.cc) are loops over these; docs/design/complex.md.
 */
#ifndef SHADE_FUNCTOR_COMPLEX_H_
#define SHADE_FUNCTOR_COMPLEX_H_

#include <cmath>
#include <complex>
#include <limits>

#include "shade/base/dtype.h"

namespace shade {
namespace cmath {

/*! \brief a * b as (ar br - ai bi, ar bi + ai br). */
template <typename C>
inline C Mul(C a, C b) {
  return C(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
}

/*! \brief a / b by Smith's method (scaled by the larger part of b, so no intermediate overflows
 *  for representable results); b == 0 gives the parts of a divided by +0 (inf or NaN). */
template <typename C>
inline C Div(C a, C b) {
  using R = typename C::value_type;
  const R br = b.real(), bi = b.imag();
  const R abr = std::fabs(br), abi = std::fabs(bi);
  if (abr >= abi) {
    if (abr == 0 && abi == 0) return C(a.real() / abr, a.imag() / abr);
    const R ratio = bi / br;
    const R scale = R(1) / (br + bi * ratio);
    return C((a.real() + a.imag() * ratio) * scale, (a.imag() - a.real() * ratio) * scale);
  }
  const R ratio = br / bi;
  const R scale = R(1) / (bi + br * ratio);
  return C((a.real() * ratio + a.imag()) * scale, (a.imag() * ratio - a.real()) * scale);
}

/*! \brief True when either part is NaN. */
template <typename C>
inline bool HasNaN(C a) {
  return std::isnan(a.real()) || std::isnan(a.imag());
}

/*! \brief NumPy's complex a < b: by real part, then imaginary part; false when a NaN decides. */
template <typename C>
inline bool Less(C a, C b) {
  return (a.real() < b.real() && !std::isnan(a.imag()) && !std::isnan(b.imag())) ||
         (a.real() == b.real() && a.imag() < b.imag());
}

/*! \brief NumPy's complex a <= b (same order as Less). */
template <typename C>
inline bool LessEqual(C a, C b) {
  return (a.real() < b.real() && !std::isnan(a.imag()) && !std::isnan(b.imag())) ||
         (a.real() == b.real() && a.imag() <= b.imag());
}

/*! \brief np.maximum: the first operand holding a NaN, else the lexicographic larger (a on a
 *  tie). */
template <typename C>
inline C Maximum(C a, C b) {
  if (HasNaN(a)) return a;
  if (HasNaN(b)) return b;
  return LessEqual(b, a) ? a : b;
}

/*! \brief np.minimum: the first operand holding a NaN, else the lexicographic smaller. */
template <typename C>
inline C Minimum(C a, C b) {
  if (HasNaN(a)) return a;
  if (HasNaN(b)) return b;
  return LessEqual(a, b) ? a : b;
}

/*! \brief a ** b: 1 for b == 0; for a == 0, 0 when b's real part is positive, else NaN; repeated
 *  squaring for a real integer b of magnitude below 100 (as NumPy, so small integer powers are
 *  products); otherwise the C library's cpow (std::pow). */
template <typename C>
inline C Pow(C a, C b) {
  using R = typename C::value_type;
  const R br = b.real(), bi = b.imag();
  if (br == 0 && bi == 0) return C(1, 0);
  if (a.real() == 0 && a.imag() == 0) {
    if (br > 0) return C(0, 0);
    return C(std::numeric_limits<R>::quiet_NaN(), std::numeric_limits<R>::quiet_NaN());
  }
  if (bi == 0 && br == std::floor(br) && std::fabs(br) < 100) {
    long n = static_cast<long>(br);
    if (n == 1) return a;
    if (n == 2) return Mul(a, a);
    if (n == 3) return Mul(Mul(a, a), a);
    const bool negative = n < 0;
    if (negative) n = -n;
    C acc(1, 0), base = a;
    for (long bit = 1; bit <= n; bit <<= 1) {
      if (n & bit) acc = Mul(acc, base);
      if ((bit << 1) <= n) base = Mul(base, base);
    }
    return negative ? Div(C(1, 0), acc) : acc;
  }
  return std::pow(a, b);
}

/*! \brief |a| as the C library's hypot of the parts (NumPy's cabs). */
template <typename C>
inline typename C::value_type Abs(C a) {
  return std::hypot(a.real(), a.imag());
}

}  // namespace cmath
}  // namespace shade

#endif  // SHADE_FUNCTOR_COMPLEX_H_
