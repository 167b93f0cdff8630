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
#include "shade/param/codec.h"
#include "shade/param/field_entry.h"
#include "shade/param/manager.h"
#include "shade/param/optional.h"
#include "shade/param/parse.h"
#include "shade/shape/tshape.h"

namespace shade {
namespace parameter {

/*! \brief JSON object text `{"k": "v", ...}`; throws ParamError on text JSON cannot hold. */
std::string ParamDictToJSON(const std::map<std::string, std::string>& dict);
/*! \brief Reads a JSON object of string values; throws ParamError on anything else. */
std::map<std::string, std::string> ParamDictFromJSON(const std::string& json);

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
