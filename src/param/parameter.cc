// ParamManager: the non-template half of Parameter (lookup, init loop, docs), compiled once.
#include "shade/param/parameter.h"

#include <istream>
#include <locale>
#include <sstream>

namespace shade {
namespace parameter {

bool IsHiddenKey(const std::string& key) {
  return key.size() > 4 && key.compare(0, 2, "__") == 0 &&
         key.compare(key.size() - 2, 2, "__") == 0;
}

ParseStatus ValueCodec<TShape>::Parse(const std::string& text, TShape* out) {
  std::istringstream is(text);
  is.imbue(std::locale::classic());
  TShape shape;
  is >> shape;
  if (is.fail()) return ParseStatus::kBadFormat;
  while (IsAsciiSpace(static_cast<char>(is.peek()))) is.get();
  if (is.peek() != std::char_traits<char>::eof()) return ParseStatus::kBadFormat;
  *out = std::move(shape);
  return ParseStatus::kOk;
}

std::string ValueCodec<TShape>::Format(const TShape& value) {
  std::ostringstream os;
  os.imbue(std::locale::classic());
  os << value;
  return os.str();
}

FieldAccessEntry* ParamManager::Find(const std::string& key) const {
  const auto it = entry_map_.find(key);
  return it == entry_map_.end() ? nullptr : it->second;
}

void ParamManager::AddEntry(const std::string& key, FieldAccessEntry* e) {
  std::unique_ptr<FieldAccessEntry> owned(e);
  if (entry_map_.count(key) != 0) {
    throw ParamError("key " + key + " has already been registered in " + name_);
  }
  owned->index_ = entry_.size();
  entry_map_[key] = owned.get();
  entry_.push_back(std::move(owned));
}

void ParamManager::AddAlias(const std::string& field, const std::string& alias) {
  const auto it = entry_map_.find(field);
  if (it == entry_map_.end()) {
    throw ParamError("key " + field + " has not been registered in " + name_);
  }
  if (entry_map_.count(alias) != 0) {
    throw ParamError("Alias " + alias + " has already been registered in " + name_);
  }
  entry_map_[alias] = it->second;
}

std::vector<ParamFieldInfo> ParamManager::GetFieldInfo() const {
  std::vector<ParamFieldInfo> ret;
  ret.reserve(entry_.size());
  for (const auto& e : entry_) ret.push_back(e->GetFieldInfo());
  return ret;
}

void ParamManager::PrintDocString(std::ostream& os) const {
  os << DocString();
}

std::string ParamManager::DocString() const {
  std::string s;
  for (const auto& e : entry_) {
    const ParamFieldInfo info = e->GetFieldInfo();
    s += info.name + " : " + info.type_info_str + '\n';
    if (!info.description.empty()) s += "    " + info.description + '\n';
  }
  return s;
}

KVList ParamManager::GetDict(void* head) const {
  // dmlc-core walks its key map: sorted, and every alias appears with its field's value.
  KVList ret;
  ret.reserve(entry_map_.size());
  for (const auto& kv : entry_map_) ret.emplace_back(kv.first, kv.second->GetStringValue(head));
  return ret;
}

void ParamManager::RunUpdate(void* head, const KVList& kwargs, ParamInitOption option,
                             KVList* unknown_args,
                             std::set<const FieldAccessEntry*>* selected_args) const {
  for (const auto& kv : kwargs) {
    if (FieldAccessEntry* e = Find(kv.first)) {
      e->Set(head, kv.second);
      e->Check(head);
      if (selected_args != nullptr) selected_args->insert(e);
      continue;
    }
    if (unknown_args != nullptr) {
      unknown_args->push_back(kv);
      continue;
    }
    if (option == kAllowUnknown) continue;
    if (option == kAllowHidden && IsHiddenKey(kv.first)) continue;
    throw ParamError("Cannot find argument '" + kv.first + "', Possible Arguments:\n" +
                     "----------------\n" + DocString());
  }
}

void ParamManager::RunInit(void* head, const KVList& kwargs, KVList* unknown_args,
                           ParamInitOption option) const {
  std::set<const FieldAccessEntry*> selected;
  RunUpdate(head, kwargs, option, unknown_args, &selected);
  for (const auto& e : entry_) {
    if (selected.count(e.get()) == 0) e->SetDefault(head);
  }
}

bool EagerRegister(ParamManager* (*get)()) noexcept {
  try {
    get();
    return true;
  } catch (...) {
    return false;
  }
}

}  // namespace parameter
}  // namespace shade
