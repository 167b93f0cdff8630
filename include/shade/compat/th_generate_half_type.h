/*!
 * \file th_generate_half_type.h
 * \brief TH's THGenerateHalfType.h: TH_GENERIC_FILE once with real = THHalf, accreal = float.
 *
 * Define TH_GENERIC_FILE (a file written with `real`, `Real`, `accreal`, THTensor_(NAME), ...)
 * and include this header, as with TH's generator headers; TH_GENERIC_FILE is undefined after.
 * Not include-guarded: it is meant to be included once per generic file.
 */
#ifndef TH_GENERIC_FILE
#error "define TH_GENERIC_FILE before including th_generate_half_type.h"
#endif
#include "shade/compat/th.h"

/// The element type while the Half pass includes TH_GENERIC_FILE.
#define real THHalf
/// The wider accumulation type of the Half pass (TH's accreal).
#define accreal float
/// The type-name part of the Half pass (THHalfTensor, THHalfStorage).
#define Real Half
/// Defined only during the Half pass, for `#ifdef` in the generic file.
#define TH_REAL_IS_HALF
#include TH_GENERIC_FILE
#undef real
#undef accreal
#undef Real
#undef TH_REAL_IS_HALF

#undef TH_GENERIC_FILE
