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

/// The element type while the Byte pass includes TH_GENERIC_FILE.
#define real std::uint8_t
/// The wider accumulation type of the Byte pass (TH's accreal).
#define accreal std::int64_t
/// The type-name part of the Byte pass (THByteTensor, THByteStorage).
#define Real Byte
/// Defined only during the Byte pass, for `#ifdef` in the generic file.
#define TH_REAL_IS_BYTE
#include TH_GENERIC_FILE
#undef real
#undef accreal
#undef Real
#undef TH_REAL_IS_BYTE

/// The element type while the Char pass includes TH_GENERIC_FILE.
#define real std::int8_t
/// The wider accumulation type of the Char pass (TH's accreal).
#define accreal std::int64_t
/// The type-name part of the Char pass (THCharTensor, THCharStorage).
#define Real Char
/// Defined only during the Char pass, for `#ifdef` in the generic file.
#define TH_REAL_IS_CHAR
#include TH_GENERIC_FILE
#undef real
#undef accreal
#undef Real
#undef TH_REAL_IS_CHAR

/// The element type while the Short pass includes TH_GENERIC_FILE.
#define real std::int16_t
/// The wider accumulation type of the Short pass (TH's accreal).
#define accreal std::int64_t
/// The type-name part of the Short pass (THShortTensor, THShortStorage).
#define Real Short
/// Defined only during the Short pass, for `#ifdef` in the generic file.
#define TH_REAL_IS_SHORT
#include TH_GENERIC_FILE
#undef real
#undef accreal
#undef Real
#undef TH_REAL_IS_SHORT

/// The element type while the Int pass includes TH_GENERIC_FILE.
#define real std::int32_t
/// The wider accumulation type of the Int pass (TH's accreal).
#define accreal std::int64_t
/// The type-name part of the Int pass (THIntTensor, THIntStorage).
#define Real Int
/// Defined only during the Int pass, for `#ifdef` in the generic file.
#define TH_REAL_IS_INT
#include TH_GENERIC_FILE
#undef real
#undef accreal
#undef Real
#undef TH_REAL_IS_INT

/// The element type while the Long pass includes TH_GENERIC_FILE.
#define real std::int64_t
/// The wider accumulation type of the Long pass (TH's accreal).
#define accreal std::int64_t
/// The type-name part of the Long pass (THLongTensor, THLongStorage).
#define Real Long
/// Defined only during the Long pass, for `#ifdef` in the generic file.
#define TH_REAL_IS_LONG
#include TH_GENERIC_FILE
#undef real
#undef accreal
#undef Real
#undef TH_REAL_IS_LONG

/// The element type while the Float pass includes TH_GENERIC_FILE.
#define real float
/// The wider accumulation type of the Float pass (TH's accreal).
#define accreal double
/// The type-name part of the Float pass (THFloatTensor, THFloatStorage).
#define Real Float
/// Defined only during the Float pass, for `#ifdef` in the generic file.
#define TH_REAL_IS_FLOAT
#include TH_GENERIC_FILE
#undef real
#undef accreal
#undef Real
#undef TH_REAL_IS_FLOAT

/// The element type while the Double pass includes TH_GENERIC_FILE.
#define real double
/// The wider accumulation type of the Double pass (TH's accreal).
#define accreal double
/// The type-name part of the Double pass (THDoubleTensor, THDoubleStorage).
#define Real Double
/// Defined only during the Double pass, for `#ifdef` in the generic file.
#define TH_REAL_IS_DOUBLE
#include TH_GENERIC_FILE
#undef real
#undef accreal
#undef Real
#undef TH_REAL_IS_DOUBLE

#undef TH_GENERIC_FILE
