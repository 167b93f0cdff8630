/*!
 * \file th_generate_all_types.h
 * \brief TH's THGenerateAllTypes.h: TH_GENERIC_FILE once per real type Byte, Char, Short, Int,
 *  Long, Float, Double (Half has its own generator, as in TH).
 *
 * Define TH_GENERIC_FILE (a file written with `real`, `Real`, `accreal`, THTensor_(NAME), ...)
 * and include this header, as with TH's generator headers; TH_GENERIC_FILE is undefined after.
 * Not include-guarded: it is meant to be included once per generic file.
 */
#ifndef TH_GENERIC_FILE
#error "define TH_GENERIC_FILE before including th_generate_all_types.h"
#endif
#include "shade/compat/th.h"

#define real std::uint8_t
#define accreal std::int64_t
#define Real Byte
#define TH_REAL_IS_BYTE
#include TH_GENERIC_FILE
#undef real
#undef accreal
#undef Real
#undef TH_REAL_IS_BYTE

#define real std::int8_t
#define accreal std::int64_t
#define Real Char
#define TH_REAL_IS_CHAR
#include TH_GENERIC_FILE
#undef real
#undef accreal
#undef Real
#undef TH_REAL_IS_CHAR

#define real std::int16_t
#define accreal std::int64_t
#define Real Short
#define TH_REAL_IS_SHORT
#include TH_GENERIC_FILE
#undef real
#undef accreal
#undef Real
#undef TH_REAL_IS_SHORT

#define real std::int32_t
#define accreal std::int64_t
#define Real Int
#define TH_REAL_IS_INT
#include TH_GENERIC_FILE
#undef real
#undef accreal
#undef Real
#undef TH_REAL_IS_INT

#define real std::int64_t
#define accreal std::int64_t
#define Real Long
#define TH_REAL_IS_LONG
#include TH_GENERIC_FILE
#undef real
#undef accreal
#undef Real
#undef TH_REAL_IS_LONG

#define real float
#define accreal double
#define Real Float
#define TH_REAL_IS_FLOAT
#include TH_GENERIC_FILE
#undef real
#undef accreal
#undef Real
#undef TH_REAL_IS_FLOAT

#define real double
#define accreal double
#define Real Double
#define TH_REAL_IS_DOUBLE
#include TH_GENERIC_FILE
#undef real
#undef accreal
#undef Real
#undef TH_REAL_IS_DOUBLE

#undef TH_GENERIC_FILE
