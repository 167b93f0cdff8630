/*!
 * \file field_entry.h
 * \brief Field entries of parameter structs: ParamError, the type-erased FieldAccessEntry and
 *  the typed FieldEntry (defaults, enums, ranges, descriptions) that SHADE_DECLARE_FIELD
 *  returns. Part of parameter.h.
 */
#ifndef SHADE_PARAM_FIELD_ENTRY_H_
#define SHADE_PARAM_FIELD_ENTRY_H_

#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "shade/base/error.h"
#include "shade/param/codec.h"

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
}  // namespace parameter
}  // namespace shade

#endif  // SHADE_PARAM_FIELD_ENTRY_H_
