/*!
 * \file manager.h
 * \brief The ParamManager of a parameter struct type (its fields by name, Init, docs,
 *  __DICT__), built once per type by ParamManagerSingleton and read-only afterwards. Part of
 *  parameter.h.
 */
#ifndef SHADE_PARAM_MANAGER_H_
#define SHADE_PARAM_MANAGER_H_

#include <cstddef>
#include <map>
#include <memory>
#include <ostream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "shade/param/field_entry.h"

namespace shade {
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
bool EagerRegister(ParamManager* (*get)()) noexcept;

}  // namespace parameter
}  // namespace shade

#endif  // SHADE_PARAM_MANAGER_H_
