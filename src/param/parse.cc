// Strict number parsing/printing for Parameter fields: std::from_chars / std::to_chars only,
// so neither the C locale nor the global C++ locale can change what is accepted or printed.
#include "shade/param/parse.h"

#include <charconv>
#include <limits>
#include <system_error>

namespace shade {
namespace parameter {

std::string_view TrimSpace(std::string_view text) {
  std::size_t b = 0, e = text.size();
  while (b < e && IsAsciiSpace(text[b])) ++b;
  while (e > b && IsAsciiSpace(text[e - 1])) --e;
  return text.substr(b, e - b);
}

namespace {

bool IsDigit(char ch) {
  return ch >= '0' && ch <= '9';
}

// from_chars rejects a leading '+'; accept one, but only directly before a digit (or '.'
// for floats), so "+-1" and "++1" stay invalid.
bool StripPlus(std::string_view* t, bool allow_dot) {
  if (!t->empty() && (*t)[0] == '+') {
    t->remove_prefix(1);
    if (t->empty()) return false;
    const char c = (*t)[0];
    if (!(IsDigit(c) || (allow_dot && c == '.') ||
          (allow_dot && (c == 'i' || c == 'I' || c == 'n' || c == 'N')))) {
      return false;
    }
  }
  return true;
}

template <typename T>
ParseStatus ParseIntegerImpl(std::string_view text, T* out) {
  std::string_view t = TrimSpace(text);
  if (t.empty() || !StripPlus(&t, false)) return ParseStatus::kBadFormat;
  const char* first = t.data();
  const char* last = t.data() + t.size();
  T value{};
  const auto res = std::from_chars(first, last, value, 10);
  if (res.ec == std::errc::invalid_argument || res.ptr != last) {
    // "123456789012345678901234x" is junk first, out of range second.
    return ParseStatus::kBadFormat;
  }
  if (res.ec == std::errc::result_out_of_range) return ParseStatus::kOutOfRange;
  *out = value;
  return ParseStatus::kOk;
}

template <typename T>
ParseStatus ParseFloatImpl(std::string_view text, T* out) {
  std::string_view t = TrimSpace(text);
  if (t.empty() || !StripPlus(&t, true)) return ParseStatus::kBadFormat;
  const char* first = t.data();
  const char* last = t.data() + t.size();
  T value{};
  const auto res = std::from_chars(first, last, value, std::chars_format::general);
  if (res.ec == std::errc::invalid_argument) return ParseStatus::kBadFormat;
  const char* rest = res.ptr;
  if (rest != last && (*rest == 'f' || *rest == 'F')) ++rest;  // C-style "0.1f"
  if (rest != last) return ParseStatus::kBadFormat;
  if (res.ec == std::errc::result_out_of_range) return ParseStatus::kOutOfRange;
  *out = value;
  return ParseStatus::kOk;
}

template <typename T>
std::string ToChars(T value) {
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof(buf), value);
  // 64 bytes hold any int64 or shortest double text; to_chars cannot fail here.
  return std::string(buf, res.ptr);
}

}  // namespace

std::size_t FloatPrefixLength(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size() && IsAsciiSpace(text[i])) ++i;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  double value = 0;
  const auto res = std::from_chars(text.data() + i, text.data() + text.size(), value,
                                   std::chars_format::general);
  if (res.ec == std::errc::invalid_argument) return 0;
  std::size_t used = static_cast<std::size_t>(res.ptr - text.data());
  if (used < text.size() && (text[used] == 'f' || text[used] == 'F')) ++used;
  return used;
}

ParseStatus ParseInt64(std::string_view text, std::int64_t* out) {
  return ParseIntegerImpl(text, out);
}

ParseStatus ParseUInt64(std::string_view text, std::uint64_t* out) {
  std::string_view t = TrimSpace(text);
  if (!t.empty() && t[0] == '-') {
    // Negative text for an unsigned field: valid syntax, but only zero is representable.
    std::uint64_t magnitude = 0;
    t.remove_prefix(1);
    if (t.empty() || !IsDigit(t[0])) return ParseStatus::kBadFormat;
    const ParseStatus st = ParseIntegerImpl(t, &magnitude);
    if (st == ParseStatus::kBadFormat) return st;
    if (st == ParseStatus::kOutOfRange || magnitude != 0) return ParseStatus::kOutOfRange;
    *out = 0;
    return ParseStatus::kOk;
  }
  return ParseIntegerImpl(t, out);
}

ParseStatus ParseFloat(std::string_view text, float* out) {
  return ParseFloatImpl(text, out);
}

ParseStatus ParseDouble(std::string_view text, double* out) {
  return ParseFloatImpl(text, out);
}

ParseStatus ParseBool(std::string_view text, bool* out) {
  const std::string_view t = TrimSpace(text);
  auto equals_nocase = [&t](std::string_view word) {
    if (t.size() != word.size()) return false;
    for (std::size_t i = 0; i < t.size(); ++i) {
      char c = t[i];
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      if (c != word[i]) return false;
    }
    return true;
  };
  if (equals_nocase("true") || t == "1") {
    *out = true;
    return ParseStatus::kOk;
  }
  if (equals_nocase("false") || t == "0") {
    *out = false;
    return ParseStatus::kOk;
  }
  return ParseStatus::kBadFormat;
}

std::string FormatInt64(std::int64_t value) {
  return ToChars(value);
}
std::string FormatUInt64(std::uint64_t value) {
  return ToChars(value);
}
// dmlc-core prints with std::setprecision(max_digits10) (%g style); to_chars with that
// precision gives the same text without consulting a locale.
template <typename F>
std::string ToCharsMaxDigits(F value) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof(buf), value, std::chars_format::general,
                               std::numeric_limits<F>::max_digits10);
  return std::string(buf, r.ptr);
}
std::string FormatFloat(float value) {
  return ToCharsMaxDigits(value);
}
std::string FormatDefaultPrecision(double value) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof(buf), value, std::chars_format::general, 6);
  return std::string(buf, r.ptr);
}
std::string FormatDouble(double value) {
  return ToCharsMaxDigits(value);
}

}  // namespace parameter
}  // namespace shade
