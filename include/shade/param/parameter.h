/*!
 * \file parameter.h
 * \brief Parameter structs: fields declared once get parsing from strings, defaults, range
 *  and enum checks, aliases, documentation and JSON save/load (seed note 004, dmlc-core's
 *  parameter.h).
 *
 * \code
 *   struct Param : public shade::Parameter<Param> {
 *     float learning_rate;
 *     int num_hidden;
 *     std::string name;
 *     SHADE_DECLARE_PARAMETER(Param) {
 *       SHADE_DECLARE_FIELD(num_hidden).set_range(0, 1000);
 *       SHADE_DECLARE_FIELD(learning_rate).set_default(0.01f);
 *       SHADE_DECLARE_FIELD(name).set_default("hello");
 *     }
 *   };
 *   SHADE_REGISTER_PARAMETER(Param);   // in one .cc file
 *   ...
 *   Param p;
 *   p.Init(std::map<std::string, std::string>{{"num_hidden", "100"}});
 * \endcode
 *
 * Differences from the note, each deliberate: numbers are parsed and printed without any
 * locale and strictly (see parse.h); floats print in their shortest round-trip form; NaN
 * never passes a range check (the note's `v < begin_ || v > end_` lets it through); a broken
 * declaration (duplicate key, unknown alias target) throws ParamError at first use instead of
 * aborting the process; Init gives the strong guarantee (on error the
 * struct is unchanged); integers refuse negative text for unsigned fields (dmlc-core's stream
 * wraps "-3" to 2^64-3). Everything printed matches dmlc-core byte for byte: floats with
 * max_digits10 digits, bools as 1/0, int defaults quoted, __DICT__ with the aliases.
 * All registries are built once under C++11 magic statics and are read-only afterwards, so
 * any number of threads may Init / print their own parameter structs at the same time.
 */
#ifndef SHADE_PARAM_PARAMETER_H_
#define SHADE_PARAM_PARAMETER_H_

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <limits>
#include <locale>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "shade/base/error.h"
#include "shade/param/optional.h"
#include "shade/param/parse.h"
#include "shade/shape/tshape.h"

namespace shade {

/*! \brief Error thrown for any invalid parameter input or declaration. */
class ParamError : public ValueError {
 public:
  /*! \brief With the complete message (no file:line prefix: the texts are dmlc-core's). */
  explicit ParamError(const std::string& msg) : ValueError(msg) {}
};

/*! \brief A field described in strings (for docs and language bindings). */
struct ParamFieldInfo {
  /*! \brief Field name. */
  std::string name;
  /*! \brief Type name, e.g. "int (non-negative)". */
  std::string type;
  /*! \brief Type, enum choices and default: "float, optional, default=0.01". */
  std::string type_info_str;
  /*! \brief The text given to describe(). */
  std::string description;
};

namespace parameter {

/*! \brief What Init does with keys that name no field. */
enum ParamInitOption {
  /*! \brief Ignore unknown keys. */
  kAllowUnknown,
  /*! \brief Every key must name a field (or alias). */
  kAllMatch,
  /*! \brief As kAllMatch, but hidden keys `__name__` are ignored. */
  kAllowHidden
};

/*! \brief Key/value pairs in their given order. */
using KVList = std::vector<std::pair<std::string, std::string>>;

/*! \brief Whether `key` has the hidden form `__x__` (more than 4 characters). */
bool IsHiddenKey(const std::string& key);

/*! \brief JSON object text `{"k": "v", ...}`; throws ParamError on text JSON cannot hold. */
std::string ParamDictToJSON(const std::map<std::string, std::string>& dict);
/*! \brief Reads a JSON object of string values; throws ParamError on anything else. */
std::map<std::string, std::string> ParamDictFromJSON(const std::string& json);

// ---------------------------------------------------------------------------------------
// Value codecs: how each field type is parsed, printed and named.

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

// ---------------------------------------------------------------------------------------
// Field entries.

class ParamManager;

/*! \brief Type-erased access to one field of a parameter struct (by byte offset). */
class FieldAccessEntry {
 public:
  virtual ~FieldAccessEntry() = default;
  /*! \brief Writes the default; throws "Required parameter k of T is not presented". */
  virtual void SetDefault(void* head) const = 0;
  /*! \brief Parses `value` into the field; throws ParamError on bad text. */
  virtual void Set(void* head, const std::string& value) const = 0;
  /*! \brief Checks constraints (ranges) of the current value. */
  virtual void Check(void* /*head*/) const {}
  /*! \brief Current value as text (reads back through Set). */
  virtual std::string GetStringValue(void* head) const = 0;
  /*! \brief Description strings of the field. */
  virtual ParamFieldInfo GetFieldInfo() const = 0;
  /*! \brief Field name. */
  const std::string& key() const { return key_; }
  /*! \brief Type name. */
  const std::string& type() const { return type_; }
  /*! \brief Whether set_default was called. */
  bool has_default() const { return has_default_; }
  /*! \brief Declaration position. */
  std::size_t index() const { return index_; }

 protected:
  /*! \brief Whether a default exists. */
  bool has_default_ = false;
  /*! \brief Declaration position. */
  std::size_t index_ = 0;
  /*! \brief Field name. */
  std::string key_;
  /*! \brief Type name. */
  std::string type_;
  /*! \brief describe() text. */
  std::string description_;
  /*! \brief Declared through DMLC_DECLARE_FIELD: errors use dmlc-core's exact texts. */
  bool dmlc_messages_ = false;
  friend class ParamManager;
};

/*! \brief Typed entry: parsing, defaults, enums, docs. TEntry is the most derived class. */
template <typename TEntry, typename DType>
class FieldEntryBase : public FieldAccessEntry {
 public:
  /*! \brief The codec for DType. */
  using Codec = ValueCodec<DType>;
  /*! \brief The most derived entry type. */
  using EntryType = TEntry;

  /*! \brief Makes the errors of this field dmlc-core's exact texts (which, for an enum, do not
   *  name the field); DMLC_DECLARE_FIELD calls it. */
  TEntry& use_dmlc_messages() {
    dmlc_messages_ = true;
    return static_cast<TEntry&>(*this);
  }
  /*! \brief Binds the entry to field `ref` of the struct at `head`. */
  void Init(const std::string& key, void* head, DType& ref) {
    key_ = key;
    if (type_.empty()) type_ = Codec::TypeName();
    offset_ = reinterpret_cast<char*>(&ref) - static_cast<char*>(head);
  }
  /*! \brief The struct's byte offset of the field. */
  std::ptrdiff_t offset() const { return offset_; }

  /*! \brief Sets the default (a field without one is required). */
  TEntry& set_default(const DType& default_value) {
    default_value_ = default_value;
    has_default_ = true;
    return self();
  }
  /*! \brief Sets the description shown in docs and range errors. */
  TEntry& describe(const std::string& description) {
    description_ = description;
    return self();
  }
  /*!
   * \brief Declares enum name `key` for integer `value`: the field then accepts only the
   *  declared names (and "None" for an optional field) and prints names. Integer fields only.
   */
  template <typename U = DType, typename = std::enable_if_t<EnumTraits<U>::kEnabled>>
  TEntry& add_enum(const std::string& key, std::int64_t value) {
    using Int = typename EnumTraits<U>::Int;
    if (EnumTraits<U>::kOptional && key == "None") {
      throw ParamError("add_enum for Parameter " + key_ +
                       ": 'None' is reserved for the empty optional");
    }
    const bool fits =
        std::is_signed<Int>::value
            ? (value >= static_cast<std::int64_t>(std::numeric_limits<Int>::min()) &&
               value <= static_cast<std::int64_t>(std::numeric_limits<Int>::max()))
            : (value >= 0 && static_cast<std::uint64_t>(value) <=
                                 static_cast<std::uint64_t>(std::numeric_limits<Int>::max()));
    if (!fits) {
      throw ParamError("add_enum for Parameter " + key_ + ": value " + FormatInt64(value) +
                       " of '" + key + "' does not fit " + type_);
    }
    if (enum_map_.count(key) != 0 || enum_back_map_.count(value) != 0) {
      std::string msg = "Enum (" + key + ": " + FormatInt64(value) +
                        ") already exists in Parameter " + key_ + "\nEnums: ";
      for (const auto& kv : enum_map_)
        msg += "(" + kv.first + ": " + FormatInt64(kv.second) + "), ";
      throw ParamError(msg);
    }
    enum_map_[key] = value;
    enum_back_map_[value] = key;
    is_enum_ = true;
    return self();
  }

  void SetDefault(void* head) const override {
    if (!has_default_) {
      throw ParamError("Required parameter " + key_ + " of " + type_ + " is not presented");
    }
    Get(head) = default_value_;
  }

  void Set(void* head, const std::string& value) const override {
    if constexpr (EnumTraits<DType>::kEnabled) {
      if (is_enum_) {
        SetEnum(head, value);
        return;
      }
    }
    DType parsed{};
    const ParseStatus st = Codec::Parse(value, &parsed);
    if constexpr (std::is_floating_point<DType>::value) {
      // dmlc-core's stof/stod path: a number followed by anything (junk or spaces) names it.
      const std::size_t used = parameter::FloatPrefixLength(value);
      if (used > 0 && used < value.size() && st != ParseStatus::kOutOfRange) {
        throw ParamError("Some trailing characters could not be parsed: '" + value.substr(used) +
                         "'");
      }
    }
    // dmlc-core reads integers with a stream, which reports overflow as a format error.
    if (st == ParseStatus::kBadFormat ||
        (st == ParseStatus::kOutOfRange && std::is_integral<DType>::value)) {
      throw ParamError("Invalid Parameter format for " + key_ + " expect " + type_ +
                       " but value='" + value + "'");
    }
    if (st == ParseStatus::kOutOfRange) {
      throw ParamError("Out of range value for " + key_ + ", value='" + value + "'");
    }
    Get(head) = std::move(parsed);
  }

  std::string GetStringValue(void* head) const override { return PrintValue(Get(head)); }

  ParamFieldInfo GetFieldInfo() const override {
    ParamFieldInfo info;
    info.name = key_;
    info.type = type_;
    std::string s;
    if (is_enum_) {
      // The missing space in ",optional" is dmlc-core's; MXNet docs show exactly this.
      s = PrintEnums();
      s += has_default_ ? ",optional, default=" + PrintDefaultValueString() : ", required";
    } else {
      s = type_;
      s += has_default_ ? ", optional, default=" + PrintDefaultValueString() : ", required";
    }
    info.type_info_str = s;
    info.description = description_;
    return info;
  }

 protected:
  /*! \brief The field inside the struct at `head`. */
  DType& Get(void* head) const {
    return *reinterpret_cast<DType*>(static_cast<char*>(head) + offset_);
  }
  /*! \brief This entry as its most derived type, for chaining. */
  TEntry& self() { return *static_cast<TEntry*>(this); }

  /*! \brief Text of a value: the enum name, else the codec's text. */
  std::string PrintValue(const DType& value) const {
    if constexpr (EnumTraits<DType>::kEnabled) {
      if (is_enum_) {
        std::int64_t v = 0;
        if (!EnumTraits<DType>::Get(value, &v)) {
          if (EnumTraits<DType>::kOptional && !HasValue(value)) return "None";
          throw ParamError("value " + Codec::Format(value) + " of Parameter " + key_ +
                           " is not one of the declared enum values " + PrintEnums());
        }
        const auto it = enum_back_map_.find(v);
        if (it == enum_back_map_.end()) {
          throw ParamError("value " + FormatInt64(v) + " of Parameter " + key_ +
                           " is not one of the declared enum values " + PrintEnums());
        }
        return it->second;
      }
    }
    return Codec::Format(value);
  }
  /*!
   * \brief The default as shown in docs: quoted for strings, enums, and (as dmlc-core's
   *  FieldEntry<int> and FieldEntry<optional<int>> do) every int and optional<int> field.
   */
  std::string PrintDefaultValueString() const {
    if (is_enum_ || std::is_same<DType, std::string>::value || std::is_same<DType, int>::value ||
        std::is_same<DType, optional<int>>::value) {
      return "'" + PrintValue(default_value_) + "'";
    }
    return PrintValue(default_value_);
  }
  /*! \brief "{'a', 'b'}", with a leading None for optional fields. */
  std::string PrintEnums() const {
    std::string s = "{";
    bool first = true;
    if constexpr (EnumTraits<DType>::kEnabled) {
      if (EnumTraits<DType>::kOptional) {
        s += "None";
        first = false;
      }
    }
    for (const auto& kv : enum_map_) {
      if (!first) s += ", ";
      first = false;
      s += "'" + kv.first + "'";
    }
    return s + "}";
  }

  /*! \brief Byte offset of the field in the struct. */
  std::ptrdiff_t offset_ = 0;
  /*! \brief Default value (meaningful when has_default_). */
  DType default_value_{};
  /*! \brief Whether add_enum was called. */
  bool is_enum_ = false;
  /*! \brief Enum name -> value. */
  std::map<std::string, std::int64_t> enum_map_;
  /*! \brief Enum value -> name. */
  std::map<std::int64_t, std::string> enum_back_map_;

 private:
  template <typename V>
  static bool HasValue(const V& v) {
    if constexpr (EnumTraits<V>::kEnabled && EnumTraits<V>::kOptional) {
      return v.has_value();
    } else {
      (void)v;
      return true;
    }
  }
  void SetEnum(void* head, const std::string& value) const {
    if constexpr (EnumTraits<DType>::kEnabled) {
      if (EnumTraits<DType>::kOptional && value == "None") {
        Get(head) = DType();
        return;
      }
      const auto it = enum_map_.find(value);
      if (it == enum_map_.end()) {
        if (this->dmlc_messages_) {
          throw ParamError("Invalid Input: '" + value + "', valid values are: " + PrintEnums());
        }
        throw ParamError("Invalid Input: '" + value + "' for Parameter " + this->key_ +
                         ", valid values are: " + PrintEnums());
      }
      Get(head) = EnumTraits<DType>::Make(it->second);
    } else {
      (void)head;
      (void)value;
    }
  }
};

/*! \brief Numeric entries: adds set_range / set_lower_bound / set_upper_bound. */
template <typename TEntry, typename DType>
class FieldEntryNumeric : public FieldEntryBase<TEntry, DType> {
 public:
  /*! \brief The compared scalar type. */
  using Scalar = typename RangeTraits<DType>::Scalar;

  /*! \brief Values must lie in [begin, end]; throws ParamError when begin > end or NaN. */
  TEntry& set_range(Scalar begin, Scalar end) {
    if (!(begin <= end)) {
      throw ParamError("set_range for Parameter " + this->key_ + ": begin " +
                       ValueCodec<Scalar>::Format(begin) + " is not <= end " +
                       ValueCodec<Scalar>::Format(end));
    }
    begin_ = begin;
    end_ = end;
    has_begin_ = has_end_ = true;
    return this->self();
  }
  /*! \brief Values must be >= begin. */
  TEntry& set_lower_bound(Scalar begin) {
    CheckBound(begin);
    begin_ = begin;
    has_begin_ = true;
    return this->self();
  }
  /*! \brief Values must be <= end. */
  TEntry& set_upper_bound(Scalar end) {
    CheckBound(end);
    end_ = end;
    has_end_ = true;
    return this->self();
  }

  /*! \brief Range check; NaN fails any bound (every comparison with it is false). */
  void Check(void* head) const override {
    FieldEntryBase<TEntry, DType>::Check(head);
    const Scalar* p = RangeTraits<DType>::Get(this->Get(head));
    if (p == nullptr) return;  // empty optional
    const Scalar v = *p;
    const bool ok_begin = !has_begin_ || v >= begin_;
    const bool ok_end = !has_end_ || v <= end_;
    if (ok_begin && ok_end) return;
    const std::string vs = ValueCodec<Scalar>::Format(v);
    std::string msg = "value " + vs + " for Parameter " + this->key_;
    if (has_begin_ && has_end_) {
      msg += " exceed bound [" + ValueCodec<Scalar>::Format(begin_) + ',' +
             ValueCodec<Scalar>::Format(end_) + ']';
    } else if (has_begin_) {
      msg += " should be greater equal to " + ValueCodec<Scalar>::Format(begin_);
    } else {
      msg += " should be smaller equal to " + ValueCodec<Scalar>::Format(end_);
    }
    msg += "\n" + this->key_ + ": " + this->description_;
    throw ParamError(msg);
  }

 protected:
  /*! \brief Whether a lower bound is set. */
  bool has_begin_ = false;
  /*! \brief Whether an upper bound is set. */
  bool has_end_ = false;
  /*! \brief Lower bound. */
  Scalar begin_{};
  /*! \brief Upper bound. */
  Scalar end_{};

 private:
  void CheckBound(Scalar b) const {
    if (!(b == b)) throw ParamError("bound for Parameter " + this->key_ + " is NaN");
  }
};

/*! \brief The entry type for a field of type DType (numeric ones get range setters). */
template <typename DType>
class FieldEntry : public std::conditional_t<RangeTraits<DType>::kEnabled,
                                             FieldEntryNumeric<FieldEntry<DType>, DType>,
                                             FieldEntryBase<FieldEntry<DType>, DType>> {};

// ---------------------------------------------------------------------------------------
// Manager: one per parameter struct type, built once, read-only afterwards.

/*! \brief All fields of one parameter struct type. */
class ParamManager {
 public:
  ParamManager() = default;
  ParamManager(const ParamManager&) = delete;
  ParamManager& operator=(const ParamManager&) = delete;

  /*! \brief Entry for a field name or alias; nullptr when none. */
  FieldAccessEntry* Find(const std::string& key) const;
  /*!
   * \brief Adds an entry, taking ownership of `e` (also when it throws: ParamError when
   *  `key` is already a field or alias).
   */
  void AddEntry(const std::string& key, FieldAccessEntry* e);
  /*! \brief Makes `alias` another name of `field`; ParamError when impossible. */
  void AddAlias(const std::string& field, const std::string& alias);
  /*! \brief Sets the struct name used in messages. */
  void set_name(const std::string& name) { name_ = name; }
  /*! \brief Struct name. */
  const std::string& name() const { return name_; }
  /*! \brief Number of fields (aliases not counted). */
  std::size_t size() const { return entry_.size(); }
  /*! \brief Field descriptions in declaration order. */
  std::vector<ParamFieldInfo> GetFieldInfo() const;
  /*! \brief "name : type_info_str" lines, each followed by the indented description. */
  void PrintDocString(std::ostream& os) const;
  /*! \brief The doc string as text. */
  std::string DocString() const;
  /*! \brief (field name, value text) for every field, in declaration order. */
  KVList GetDict(void* head) const;
  /*!
   * \brief Sets the given fields, checks them, then gives every other field its default.
   *  Unknown keys go to `unknown_args` when it is not null, else are handled per `option`.
   */
  void RunInit(void* head, const KVList& kwargs, KVList* unknown_args,
               ParamInitOption option) const;
  /*! \brief Iterator form of RunInit (dmlc-core's signature). */
  template <typename RandomAccessIterator>
  void RunInit(void* head, RandomAccessIterator begin, RandomAccessIterator end,
               KVList* unknown_args, ParamInitOption option) const {
    RunInit(head, ToKVList(begin, end), unknown_args, option);
  }
  /*! \brief As RunInit but leaves fields that are not given untouched (no defaults). */
  void RunUpdate(void* head, const KVList& kwargs, ParamInitOption option, KVList* unknown_args,
                 std::set<const FieldAccessEntry*>* selected_args) const;

  /*! \brief Copies any range of pairs whose members convert to std::string. */
  template <typename It>
  static KVList ToKVList(It begin, It end) {
    KVList out;
    for (It it = begin; it != end; ++it)
      out.emplace_back(std::string(it->first), std::string(it->second));
    return out;
  }

 private:
  std::string name_;
  std::vector<std::unique_ptr<FieldAccessEntry>> entry_;
  std::map<std::string, FieldAccessEntry*> entry_map_;
};

/*! \brief Builds the manager of PType once: declares the fields on a scratch instance. */
template <typename PType>
struct ParamManagerSingleton {
  /*! \brief The manager. */
  ParamManager manager;
  /*! \brief Runs PType's __DECLARE__ (the name is set first so errors can name PType). */
  explicit ParamManagerSingleton(const std::string& param_name) {
    manager.set_name(param_name);
    PType param;
    param.__DECLARE__(this);
  }
};

/*!
 * \brief Builds a manager during static initialisation, swallowing errors: a broken
 *  declaration then throws its ParamError at first use (the function-local static retries),
 *  where a caller can catch it, instead of terminating before main.
 */
inline bool EagerRegister(ParamManager* (*get)()) noexcept {
  try {
    get();
    return true;
  } catch (...) {
    return false;
  }
}

}  // namespace parameter

/*!
 * \brief Base of every parameter struct (CRTP: `struct P : Parameter<P>`). Gives Init,
 *  __DICT__, __FIELDS__, __DOC__, Save/Load.
 */
template <typename PType>
struct Parameter {
 public:
  /*!
   * \brief Sets fields from key/value strings (any container of pairs convertible to
   *  std::string), checks them, defaults the rest. Throws ParamError; the struct is left
   *  unchanged then.
   */
  template <typename Container>
  void Init(const Container& kwargs, parameter::ParamInitOption option = parameter::kAllowHidden) {
    const parameter::KVList kv = parameter::ParamManager::ToKVList(kwargs.begin(), kwargs.end());
    Apply([&](PType* p) { PType::__MANAGER__()->RunInit(p, kv, nullptr, option); });
  }
  /*! \brief Init from a braced list: `p.Init({{"num_hidden", "10"}})`. */
  void Init(std::initializer_list<std::pair<std::string, std::string>> kwargs,
            parameter::ParamInitOption option = parameter::kAllowHidden) {
    Init(std::vector<std::pair<std::string, std::string>>(kwargs), option);
  }
  /*! \brief Init that returns unknown keys instead of rejecting them. */
  template <typename Container>
  parameter::KVList InitAllowUnknown(const Container& kwargs) {
    const parameter::KVList kv = parameter::ParamManager::ToKVList(kwargs.begin(), kwargs.end());
    parameter::KVList unknown;
    Apply([&](PType* p) {
      unknown.clear();
      PType::__MANAGER__()->RunInit(p, kv, &unknown, parameter::kAllowUnknown);
    });
    return unknown;
  }
  /*! \brief Sets only the given fields (others keep their values); returns unknown keys. */
  template <typename Container>
  parameter::KVList UpdateAllowUnknown(const Container& kwargs) {
    const parameter::KVList kv = parameter::ParamManager::ToKVList(kwargs.begin(), kwargs.end());
    parameter::KVList unknown;
    Apply([&](PType* p) {
      unknown.clear();
      PType::__MANAGER__()->RunUpdate(p, kv, parameter::kAllowUnknown, &unknown, nullptr);
    });
    return unknown;
  }
  /*! \brief Writes every field's current text into `dict` (other keys are kept). */
  void UpdateDict(std::map<std::string, std::string>* dict) const {
    for (auto& kv : PType::__MANAGER__()->GetDict(head())) (*dict)[kv.first] = kv.second;
  }
  /*! \brief Field name -> current value text; Init(__DICT__()) reproduces the struct. */
  std::map<std::string, std::string> __DICT__() const {
    const parameter::KVList vec = PType::__MANAGER__()->GetDict(head());
    return std::map<std::string, std::string>(vec.begin(), vec.end());
  }
  /*! \brief Descriptions of all fields in declaration order. */
  static std::vector<ParamFieldInfo> __FIELDS__() { return PType::__MANAGER__()->GetFieldInfo(); }
  /*! \brief The documentation text ("name : type_info_str" + indented description). */
  static std::string __DOC__() { return PType::__MANAGER__()->DocString(); }

  /*! \brief Writes __DICT__ through any writer with Write(std::map<string,string>). */
  template <typename Writer>
  void Save(Writer* writer) const {
    writer->Write(this->__DICT__());
  }
  /*! \brief Reads a map<string,string> through any reader with Read(map*), then Init. */
  template <typename Reader>
  void Load(Reader* reader) {
    std::map<std::string, std::string> kwargs;
    reader->Read(&kwargs);
    this->Init(kwargs);
  }
  /*! \brief __DICT__ as a JSON object of strings. */
  std::string SaveJSON() const { return parameter::ParamDictToJSON(__DICT__()); }
  /*! \brief Init from what SaveJSON wrote; ParamError on malformed JSON. */
  void LoadJSON(const std::string& json) { Init(parameter::ParamDictFromJSON(json)); }

 protected:
  /*! \brief Declares field `ref` named `key` (used by SHADE_DECLARE_FIELD). */
  template <typename DType>
  parameter::FieldEntry<DType>& DECLARE(parameter::ParamManagerSingleton<PType>* manager,
                                        const std::string& key, DType& ref) {
    auto e = std::make_unique<parameter::FieldEntry<DType>>();
    e->Init(key, this->head(), ref);
    const std::ptrdiff_t off = e->offset();
    if (off < 0 || static_cast<std::size_t>(off) + sizeof(DType) > sizeof(PType)) {
      throw ParamError("field " + key + " declared in " + manager->manager.name() +
                       " is not a member of it");
    }
    parameter::FieldEntry<DType>* raw = e.release();
    manager->manager.AddEntry(key, raw);  // owns raw from here, even if it throws
    return *raw;
  }

 private:
  PType* head() const { return static_cast<PType*>(const_cast<Parameter<PType>*>(this)); }
  // Strong guarantee without copying the struct (its members may still be uninitialised):
  // `fn` runs first on a fresh scratch instance, where it fails exactly as it would on this
  // one (Set/Check/SetDefault depend only on the text and the declaration), then for real.
  template <typename Fn>
  void Apply(Fn&& fn) {
    PType scratch;
    fn(&scratch);
    fn(head());
  }
};

/*!
 * \brief Reads environment variable `key` as a ValueType (parsed like a field of that type);
 *  `default_value` when unset or empty. Throws ParamError on malformed text.
 *  Like getenv itself, not safe against a concurrent SetEnv.
 */
template <typename ValueType>
ValueType GetEnv(const char* key, ValueType default_value) {
  const char* val = std::getenv(key);
  if (val == nullptr || *val == '\0') return default_value;
  ValueType ret{};
  parameter::FieldEntry<ValueType> e;
  e.Init(key, &ret, ret);
  e.Set(&ret, val);
  return ret;
}

/*! \brief Sets environment variable `key` to `value`'s parameter text; ParamError on failure. */
template <typename ValueType>
void SetEnv(const char* key, ValueType value) {
  parameter::FieldEntry<ValueType> e;
  e.Init(key, &value, value);
  if (::setenv(key, e.GetStringValue(&value).c_str(), 1) != 0) {
    throw ParamError(std::string("SetEnv: cannot set environment variable '") + key + "'");
  }
}

}  // namespace shade

/*! \brief Opens the field declarations of PType (inside the struct body). */
#define SHADE_DECLARE_PARAMETER(PType)                    \
  static ::shade::parameter::ParamManager* __MANAGER__(); \
  inline void __DECLARE__(::shade::parameter::ParamManagerSingleton<PType>* manager)

/*! \brief Declares a field; chain set_default / describe / set_range / add_enum on it. */
#define SHADE_DECLARE_FIELD(FieldName) this->DECLARE(manager, #FieldName, FieldName)

/*! \brief Makes AliasName another key for FieldName. */
#define SHADE_DECLARE_ALIAS(FieldName, AliasName) manager->manager.AddAlias(#FieldName, #AliasName)

/// Pastes the tokens a, b and c (internal: names the registration flag SHADE_REGISTER_PARAMETER
/// defines).
#define SHADE_PARAM_CAT_(a, b, c) a##b##c

/*! \brief Defines PType's manager (in exactly one .cc file). PType must be unqualified. */
#define SHADE_REGISTER_PARAMETER(PType)                                                  \
  ::shade::parameter::ParamManager* PType::__MANAGER__() {                               \
    static ::shade::parameter::ParamManagerSingleton<PType> inst(#PType);                \
    return &inst.manager;                                                                \
  }                                                                                      \
  [[maybe_unused]] static const bool SHADE_PARAM_CAT_(__make__, PType, ParamManager__) = \
      ::shade::parameter::EagerRegister(&PType::__MANAGER__)

#endif  // SHADE_PARAM_PARAMETER_H_
