// TypeMeta: the uninitialized record, demangled names for non-numeric types, printing.
#include "shade/base/type_meta.h"

#include <cxxabi.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>

namespace shade {
namespace detail {

const TypeMetaData* UninitializedMetaData() {
  static const TypeMetaData data{"nullptr (uninitialized)", 0, nullptr, nullptr, nullptr, -1};
  return &data;
}

const char* DemangledTypeName(const std::type_info& info) {
  // Names are interned so the const char* stays valid for the life of the process.
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<std::string>> names;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = names.find(info.name());
  if (it != names.end()) return it->second->c_str();
  int status = 0;
  char* demangled = abi::__cxa_demangle(info.name(), nullptr, nullptr, &status);
  std::string name = (status == 0 && demangled) ? demangled : info.name();
  std::free(demangled);
  auto& slot = names[info.name()];
  slot = std::make_unique<std::string>(name);
  return slot->c_str();
}

}  // namespace detail

std::ostream& operator<<(std::ostream& os, TypeMeta meta) { return os << meta.name(); }

}  // namespace shade
