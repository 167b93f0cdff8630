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

#define real THHalf
#define accreal float
#define Real Half
#define TH_REAL_IS_HALF
#include TH_GENERIC_FILE
#undef real
#undef accreal
#undef Real
#undef TH_REAL_IS_HALF

#undef TH_GENERIC_FILE
