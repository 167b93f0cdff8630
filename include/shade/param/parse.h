/*!
 * \file parse.h
 * \brief Strict, locale-independent text <-> number conversion used by Parameter fields.
 *
 * Why not `std::istream >> value` as dmlc-core did: streams follow the global locale
 * (a German locale reads "1,5"), accept "-1" for unsigned types by wrapping, stop silently
 * at trailing junk and print floats with 9 digits (0.00999999978). These functions use
 * std::from_chars / std::to_chars, so they never look at a locale, reject anything that is
 * not entirely one number (surrounding whitespace aside), report out-of-range separately,
 * and print the shortest text that reads back to the same value.
 */
#ifndef SHADE_PARAM_PARSE_H_
#define SHADE_PARAM_PARSE_H_

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>

namespace shade {
namespace parameter {

/*! \brief Outcome of parsing one value from text. */
enum class ParseStatus {
  kOk,        /*!< the whole text was one valid value */
  kBadFormat, /*!< not a value of the requested type (junk, empty, wrong syntax) */
  kOutOfRange /*!< a well-formed number the requested type cannot hold */
};

/*! \brief True for the six ASCII whitespace characters (locale-independent isspace). */
inline bool IsAsciiSpace(char ch) {
  return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f';
}

/*! \brief `text` without leading and trailing ASCII whitespace. */
std::string_view TrimSpace(std::string_view text);

/*!
 * \brief Parses a decimal integer: optional sign, digits, surrounding whitespace allowed.
 *  "1.5", "1e3", "0x10", "12abc" are kBadFormat; a value beyond int64 is kOutOfRange.
 */
ParseStatus ParseInt64(std::string_view text, std::int64_t* out);

/*!
 * \brief As ParseInt64 for uint64. "-0" reads as 0; any other negative value is kOutOfRange
 *  (a stream would have wrapped it to a huge positive number).
 */
ParseStatus ParseUInt64(std::string_view text, std::uint64_t* out);

/*!
 * \brief Parses a decimal float as dmlc-core's strtonum does: optional sign, digits with an
 *  optional fraction and exponent, or inf / infinity / nan (any case), then an optional
 *  trailing 'f' or 'F' ("0.1f"). Overflow to infinity and underflow of a non-zero value to
 *  zero ("3.5e+38", "1e-100" for float) are kOutOfRange; subnormal results are accepted.
 */
ParseStatus ParseFloat(std::string_view text, float* out);

/*! \brief As ParseFloat for double. */
ParseStatus ParseDouble(std::string_view text, double* out);

/*! \brief true/false/1/0 in any letter case, surrounding whitespace allowed. */
ParseStatus ParseBool(std::string_view text, bool* out);

/*! \brief Decimal text of an integer. */
std::string FormatInt64(std::int64_t value);
/*! \brief Decimal text of an unsigned integer. */
std::string FormatUInt64(std::uint64_t value);
/*! \brief Shortest text that ParseFloat reads back to exactly `value` ("0.01", "1e-05", "inf"). */
std::string FormatFloat(float value);
/*!
 * \brief Length of the longest prefix of `text` that reads as a float (leading whitespace, a
 *  sign, the number and a C-style 'f' suffix); 0 when none. Names the junk in error messages.
 */
std::size_t FloatPrefixLength(std::string_view text);
/*! \brief `value` as an ostream with default settings prints it (%g, 6 digits), any locale. */
std::string FormatDefaultPrecision(double value);
/*! \brief Shortest text that ParseDouble reads back to exactly `value`. */
std::string FormatDouble(double value);

/*!
 * \brief Parses any integral type (not bool): through int64/uint64, then a range check
 *  against T, so `300` for an int8_t field is kOutOfRange rather than a wrapped value.
 */
template <typename T>
ParseStatus ParseInteger(std::string_view text, T* out) {
  static_assert(std::is_integral<T>::value && !std::is_same<T, bool>::value,
                "ParseInteger: integral types only");
  if constexpr (std::is_signed<T>::value) {
    std::int64_t v = 0;
    const ParseStatus st = ParseInt64(text, &v);
    if (st != ParseStatus::kOk) return st;
    if (v < static_cast<std::int64_t>(std::numeric_limits<T>::min()) ||
        v > static_cast<std::int64_t>(std::numeric_limits<T>::max())) {
      return ParseStatus::kOutOfRange;
    }
    *out = static_cast<T>(v);
  } else {
    std::uint64_t v = 0;
    const ParseStatus st = ParseUInt64(text, &v);
    if (st != ParseStatus::kOk) return st;
    if (v > static_cast<std::uint64_t>(std::numeric_limits<T>::max())) {
      return ParseStatus::kOutOfRange;
    }
    *out = static_cast<T>(v);
  }
  return ParseStatus::kOk;
}

/*! \brief Decimal text of any integral type (not bool). */
template <typename T>
std::string FormatInteger(T value) {
  if constexpr (std::is_signed<T>::value) {
    return FormatInt64(static_cast<std::int64_t>(value));
  } else {
    return FormatUInt64(static_cast<std::uint64_t>(value));
  }
}

}  // namespace parameter
}  // namespace shade

#endif  // SHADE_PARAM_PARSE_H_
