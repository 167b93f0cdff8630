/*!
 * \file codec.h
 * \brief Value codecs of parameter fields: how each field type is parsed from text, printed
 *  and named (numbers strictly and without a locale, see parse.h), and the traits that give
 *  integer fields enum names and arithmetic fields range checks. Part of parameter.h.
 */
#ifndef SHADE_PARAM_CODEC_H_
#define SHADE_PARAM_CODEC_H_

#include <cstdint>
#include <limits>
#include <locale>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "shade/param/optional.h"
#include "shade/param/parse.h"
#include "shade/shape/tshape.h"

namespace shade {
namespace parameter {

/*!
 * \brief Name used for a type in docs and errors when it has no built-in codec; specialise
 *  it (with operator>> and operator<< for the type) to use your own types in a Parameter.
 */
template <typename T>
struct type_name_helper {
  /*! \brief The name. */
  static std::string value() { return "value"; }
};

/*! \brief Codec for types with no built-in one: classic-locale streams, strict trailing. */
template <typename T, typename Enable = void>
struct ValueCodec {
  /*! \brief Type name for docs. */
  static std::string TypeName() { return type_name_helper<T>::value(); }
  /*! \brief Parses the whole text (surrounding whitespace allowed). */
  static ParseStatus Parse(const std::string& text, T* out);
  /*! \brief Prints a value. */
  static std::string Format(const T& value);
};

/*! \brief Integers (not bool): decimal, range-checked against the type. */
template <typename T>
struct ValueCodec<T,
                  std::enable_if_t<std::is_integral<T>::value && !std::is_same<T, bool>::value>> {
  /*! \brief dmlc-core's names: int, int (non-negative), long, long (non-negative). */
  static std::string TypeName() {
    if (std::is_signed<T>::value) return sizeof(T) <= 4 ? "int" : "long";
    return sizeof(T) <= 4 ? "int (non-negative)" : "long (non-negative)";
  }
  /*! \brief Parses. */
  static ParseStatus Parse(const std::string& text, T* out) { return ParseInteger(text, out); }
  /*! \brief Prints. */
  static std::string Format(T value) { return FormatInteger(value); }
};

/*! \brief float. */
template <>
struct ValueCodec<float> {
  /*! \brief "float". */
  static std::string TypeName() { return "float"; }
  /*! \brief Parses. */
  static ParseStatus Parse(const std::string& text, float* out) { return ParseFloat(text, out); }
  /*! \brief max_digits10 significant digits, as dmlc-core prints (0.00999999978). */
  static std::string Format(float value) { return FormatFloat(value); }
};

/*! \brief double. */
template <>
struct ValueCodec<double> {
  /*! \brief "double". */
  static std::string TypeName() { return "double"; }
  /*! \brief Parses. */
  static ParseStatus Parse(const std::string& text, double* out) { return ParseDouble(text, out); }
  /*! \brief max_digits10 significant digits, as dmlc-core prints (0.10000000000000001). */
  static std::string Format(double value) { return FormatDouble(value); }
};

/*! \brief bool: true/false/1/0 in any case; printed 1/0 as dmlc-core does. */
template <>
struct ValueCodec<bool> {
  /*! \brief "boolean". */
  static std::string TypeName() { return "boolean"; }
  /*! \brief Parses. */
  static ParseStatus Parse(const std::string& text, bool* out) { return ParseBool(text, out); }
  /*! \brief "1" or "0" (dmlc-core streams the bool as an int). */
  static std::string Format(bool value) { return value ? "1" : "0"; }
};

/*! \brief std::string: taken verbatim (spaces included). */
template <>
struct ValueCodec<std::string> {
  /*! \brief "string". */
  static std::string TypeName() { return "string"; }
  /*! \brief Copies. */
  static ParseStatus Parse(const std::string& text, std::string* out) {
    *out = text;
    return ParseStatus::kOk;
  }
  /*! \brief The string itself. */
  static std::string Format(const std::string& value) { return value; }
};

/*! \brief TShape, through TShape's own parser: `3`, `(3,4)`, `(3, 4L)`, `(7,)`, `()`. */
template <>
struct ValueCodec<TShape> {
  /*! \brief "Shape(tuple)". */
  static std::string TypeName() { return "Shape(tuple)"; }
  /*! \brief Parses. */
  static ParseStatus Parse(const std::string& text, TShape* out);
  /*! \brief Python tuple text. */
  static std::string Format(const TShape& value);
};

/*! \brief Tuples of numbers: `(1,2,3)`, `[1, 2]`, `5`, `(7,)`, `()`. */
template <typename T>
struct ValueCodec<std::vector<T>,
                  std::enable_if_t<std::is_arithmetic<T>::value && !std::is_same<T, bool>::value>> {
  /*! \brief "tuple of <int>" etc. */
  static std::string TypeName() { return "tuple of <" + ValueCodec<T>::TypeName() + ">"; }
  /*! \brief Parses; any bad element fails the whole tuple. */
  static ParseStatus Parse(const std::string& text, std::vector<T>* out);
  /*! \brief `(1,2)`, `(7,)`, `()`. */
  static std::string Format(const std::vector<T>& value) {
    std::string s = "(";
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (i != 0) s += ',';
      s += ValueCodec<T>::Format(value[i]);
    }
    if (value.size() == 1) s += ',';
    return s + ")";
  }
};

/*! \brief Shared by shade::optional and std::optional: "None" is empty, else a T. */
template <typename Opt, typename T>
struct OptionalCodec {
  /*! \brief "int or None" etc. (dmlc-core's names). */
  static std::string TypeName() { return ValueCodec<T>::TypeName() + " or None"; }
  /*! \brief Parses. */
  static ParseStatus Parse(const std::string& text, Opt* out) {
    if (TrimSpace(text) == "None") {
      *out = Opt();
      return ParseStatus::kOk;
    }
    T value{};
    const ParseStatus st = ValueCodec<T>::Parse(text, &value);
    if (st == ParseStatus::kOk) *out = Opt(std::move(value));
    return st;
  }
  /*!
   * \brief The value's text or "None". dmlc-core streams the optional with the stream's
   *  default precision, so floats print with 6 significant digits here (0.1, not 0.100000001).
   */
  static std::string Format(const Opt& value) {
    if (!value.has_value()) return "None";
    if constexpr (std::is_floating_point<T>::value) {
      return FormatDefaultPrecision(static_cast<double>(*value));
    } else {
      return ValueCodec<T>::Format(*value);
    }
  }
};

/*! \brief shade::optional<T>. */
template <typename T>
struct ValueCodec<optional<T>> : OptionalCodec<optional<T>, T> {};
/*! \brief std::optional<T>. */
template <typename T>
struct ValueCodec<std::optional<T>> : OptionalCodec<std::optional<T>, T> {};

template <typename T, typename Enable>
ParseStatus ValueCodec<T, Enable>::Parse(const std::string& text, T* out) {
  std::istringstream is(text);
  is.imbue(std::locale::classic());
  T value{};
  is >> value;
  if (is.fail()) return ParseStatus::kBadFormat;
  while (IsAsciiSpace(static_cast<char>(is.peek()))) is.get();
  if (is.peek() != std::char_traits<char>::eof()) return ParseStatus::kBadFormat;
  *out = std::move(value);
  return ParseStatus::kOk;
}

template <typename T, typename Enable>
std::string ValueCodec<T, Enable>::Format(const T& value) {
  std::ostringstream os;
  os.imbue(std::locale::classic());
  os << value;
  return os.str();
}

template <typename T>
ParseStatus ValueCodec<
    std::vector<T>, std::enable_if_t<std::is_arithmetic<T>::value &&
                                     !std::is_same<T, bool>::value>>::Parse(const std::string& text,
                                                                            std::vector<T>* out) {
  std::string_view t = TrimSpace(text);
  if (t.empty()) return ParseStatus::kBadFormat;
  std::vector<T> values;
  auto parse_one = [&values](std::string_view item) {
    item = TrimSpace(item);
    // Python 2 longs ("4L") are accepted inside integer tuples, as TShape's parser does.
    if (std::is_integral<T>::value && !item.empty() && (item.back() == 'L' || item.back() == 'l')) {
      item.remove_suffix(1);
    }
    T v{};
    const ParseStatus st = ValueCodec<T>::Parse(std::string(item), &v);
    if (st == ParseStatus::kOk) values.push_back(v);
    return st;
  };
  const char open = t.front();
  if (open != '(' && open != '[') {  // a bare scalar is a 1-tuple
    const ParseStatus st = parse_one(t);
    if (st == ParseStatus::kOk) *out = std::move(values);
    return st;
  }
  if (t.back() != (open == '(' ? ')' : ']') || t.size() < 2) return ParseStatus::kBadFormat;
  std::string_view inner = TrimSpace(t.substr(1, t.size() - 2));
  if (!inner.empty()) {
    if (inner.back() == ',') inner = TrimSpace(inner.substr(0, inner.size() - 1));  // "(7,)"
    if (inner.empty()) return ParseStatus::kBadFormat;                              // "(,)"
    while (true) {
      const std::size_t comma = inner.find(',');
      const ParseStatus st = parse_one(inner.substr(0, comma));
      if (st != ParseStatus::kOk) return st;
      if (comma == std::string_view::npos) break;
      inner.remove_prefix(comma + 1);
    }
  }
  *out = std::move(values);
  return ParseStatus::kOk;
}

/*! \brief Whether T is an integer field type that may carry enum names. */
template <typename T>
struct IsEnumInteger
    : std::integral_constant<bool, std::is_integral<T>::value && !std::is_same<T, bool>::value> {};

/*! \brief Enum support: integers and optionals of integers (None stays a valid value). */
template <typename T, typename Enable = void>
struct EnumTraits {
  /*! \brief Not enum-capable. */
  static constexpr bool kEnabled = false;
};
/*! \brief Integers. */
template <typename T>
struct EnumTraits<T, std::enable_if_t<IsEnumInteger<T>::value>> {
  static constexpr bool kEnabled = true;   /*!< \brief enum-capable */
  static constexpr bool kOptional = false; /*!< \brief no None */
  using Int = T;                           /*!< \brief the stored integer type */
  /*! \brief Reads the integer; false for an empty optional. */
  static bool Get(const T& v, std::int64_t* out) {
    if (std::is_unsigned<T>::value &&
        static_cast<std::uint64_t>(v) > static_cast<std::uint64_t>(INT64_MAX)) {
      return false;
    }
    *out = static_cast<std::int64_t>(v);
    return true;
  }
  /*! \brief Stores an integer (already checked to fit). */
  static T Make(std::int64_t v) { return static_cast<T>(v); }
};
/*! \brief Optional integers. */
template <template <typename> class Opt, typename T>
struct EnumTraits<Opt<T>, std::enable_if_t<IsEnumInteger<T>::value &&
                                           (std::is_same<Opt<T>, optional<T>>::value ||
                                            std::is_same<Opt<T>, std::optional<T>>::value)>> {
  static constexpr bool kEnabled = true;  /*!< \brief enum-capable */
  static constexpr bool kOptional = true; /*!< \brief None allowed */
  using Int = T;                          /*!< \brief the stored integer type */
  /*! \brief Reads the integer; false for an empty optional. */
  static bool Get(const Opt<T>& v, std::int64_t* out) {
    if (!v.has_value()) return false;
    return EnumTraits<T>::Get(*v, out);
  }
  /*! \brief Stores an integer (already checked to fit). */
  static Opt<T> Make(std::int64_t v) { return Opt<T>(static_cast<T>(v)); }
};

/*! \brief The scalar a range check applies to: arithmetic T, or the T inside an optional. */
template <typename T, typename Enable = void>
struct RangeTraits {
  static constexpr bool kEnabled = false; /*!< \brief no range support */
};
/*! \brief Arithmetic types (not bool). */
template <typename T>
struct RangeTraits<
    T, std::enable_if_t<std::is_arithmetic<T>::value && !std::is_same<T, bool>::value>> {
  static constexpr bool kEnabled = true; /*!< \brief ranged */
  using Scalar = T;                      /*!< \brief compared type */
  /*! \brief Pointer to the scalar (never null here). */
  static const T* Get(const T& v) { return &v; }
};
/*! \brief Optionals of arithmetic types: checked only when a value is present. */
template <template <typename> class Opt, typename T>
struct RangeTraits<Opt<T>,
                   std::enable_if_t<std::is_arithmetic<T>::value && !std::is_same<T, bool>::value &&
                                    (std::is_same<Opt<T>, optional<T>>::value ||
                                     std::is_same<Opt<T>, std::optional<T>>::value)>> {
  static constexpr bool kEnabled = true; /*!< \brief ranged */
  using Scalar = T;                      /*!< \brief compared type */
  /*! \brief Pointer to the value, null when empty. */
  static const T* Get(const Opt<T>& v) { return v.has_value() ? &*v : nullptr; }
};
}  // namespace parameter
}  // namespace shade

#endif  // SHADE_PARAM_CODEC_H_
