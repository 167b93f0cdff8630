/*!
 * \file fp_flags.h
 * \brief The CPU's floating-point exception flags (divide by zero, overflow, underflow, invalid)
 *  read and cleared cheaply: MXCSR on x86 (what SSE/AVX kernels set; a few cycles), the C
 *  library's fenv functions elsewhere. ndarray/float_errors.h turns them into NumPy's
 *  errstate behaviour.
 */
#ifndef SHADE_BACKEND_CPU_FP_FLAGS_H_
#define SHADE_BACKEND_CPU_FP_FLAGS_H_

#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__)
#include <immintrin.h>
#define SHADE_FP_FLAGS_MXCSR_ 1
#else
#include <cfenv>
#endif

namespace shade {
namespace fp {

/*! \brief Flag bits (NumPy's seterrcall numbering: 1 divide, 2 over, 4 under, 8 invalid). */
enum : unsigned { kDivide = 1, kOverflow = 2, kUnderflow = 4, kInvalid = 8, kAll = 15 };

#ifdef SHADE_FP_FLAGS_MXCSR_
/*! \brief The raised flags of the calling thread. */
/*! \brief The raised flags, as a mask of kDivide, kOverflow, kUnderflow, kInvalid. */
inline unsigned Read() {
  const unsigned m = _mm_getcsr();  // IE 0x1, ZE 0x4, OE 0x8, UE 0x10
  return ((m & 0x4u) ? kDivide : 0u) | ((m & 0x8u) ? kOverflow : 0u) |
         ((m & 0x10u) ? kUnderflow : 0u) | ((m & 0x1u) ? kInvalid : 0u);
}
/*! \brief Clears the four flags of the calling thread (writing MXCSR only when one is set:
 *  the write costs tens of cycles, the read a few). */
/*! \brief Clears the four flags (leaves the rounding mode and masks as they are). */
inline void Clear() {
  const unsigned m = _mm_getcsr();
  if ((m & 0x1Du) != 0) _mm_setcsr(m & ~0x1Du);
}
/*! \brief Raises `flags` on the calling thread (no trap: the exceptions stay masked). */
/*! \brief Raises the flags of the mask (a worker's flags carried to the calling thread). */
inline void Raise(unsigned flags) {
  if (flags == 0) return;
  _mm_setcsr(_mm_getcsr() | ((flags & kDivide) ? 0x4u : 0u) | ((flags & kOverflow) ? 0x8u : 0u) |
             ((flags & kUnderflow) ? 0x10u : 0u) | ((flags & kInvalid) ? 0x1u : 0u));
}
#else
/*! \brief The raised flags, as a mask of kDivide, kOverflow, kUnderflow, kInvalid. */
inline unsigned Read() {
  const int f = std::fetestexcept(FE_DIVBYZERO | FE_OVERFLOW | FE_UNDERFLOW | FE_INVALID);
  return ((f & FE_DIVBYZERO) ? kDivide : 0u) | ((f & FE_OVERFLOW) ? kOverflow : 0u) |
         ((f & FE_UNDERFLOW) ? kUnderflow : 0u) | ((f & FE_INVALID) ? kInvalid : 0u);
}
/*! \brief Clears the four flags (leaves the rounding mode and masks as they are). */
inline void Clear() {
  std::feclearexcept(FE_DIVBYZERO | FE_OVERFLOW | FE_UNDERFLOW | FE_INVALID);
}
/*! \brief Raises the flags of the mask (a worker's flags carried to the calling thread). */
inline void Raise(unsigned flags) {
  if (flags == 0) return;
  std::feraiseexcept(
      ((flags & kDivide) ? FE_DIVBYZERO : 0) | ((flags & kOverflow) ? FE_OVERFLOW : 0) |
      ((flags & kUnderflow) ? FE_UNDERFLOW : 0) | ((flags & kInvalid) ? FE_INVALID : 0));
}
#endif

}  // namespace fp
}  // namespace shade

#endif  // SHADE_BACKEND_CPU_FP_FLAGS_H_
