// The out-of-line parts of shade's error classes and CHECK machinery (base/error.h says why).
#include "shade/base/error.h"

#include <cstring>

namespace shade {

Error::Error(const std::string& what) : std::runtime_error(what) {}
Error::~Error() = default;
ValueError::ValueError(const std::string& what) : Error(what) {}
ValueError::~ValueError() = default;
ShapeError::ShapeError(const std::string& what) : ValueError(what) {}
ShapeError::~ShapeError() = default;
IndexError::IndexError(const std::string& what) : Error(what) {}
IndexError::~IndexError() = default;
TypeError::TypeError(const std::string& what) : Error(what) {}
TypeError::~TypeError() = default;
IOError::IOError(const std::string& what) : Error(what) {}
IOError::~IOError() = default;
NotImplementedError::NotImplementedError(const std::string& what) : Error(what) {}
NotImplementedError::~NotImplementedError() = default;
LinAlgError::LinAlgError(const std::string& what) : Error(what) {}
LinAlgError::~LinAlgError() = default;

namespace detail {

const char* RelativeSourcePath(const char* file) {
  const char* best = nullptr;
  for (const char* dir :
       {"/include/", "/src/", "/tests/", "/examples/", "/python/", "/bench/", "/fuzz/", "/docs/"}) {
    for (const char* p = std::strstr(file, dir); p != nullptr; p = std::strstr(p + 1, dir)) {
      if (best == nullptr || p > best) best = p;
    }
  }
  if (best != nullptr) {
    // An installed header reads as shade/..., a source file as src/...
    if (std::strncmp(best, "/include/", 9) == 0) return best + 9;
    return best + 1;
  }
  const char* slash = std::strrchr(file, '/');
  return slash != nullptr ? slash + 1 : file;
}

ErrorMessage::ErrorMessage(const char* file, int line) {
  os_ << RelativeSourcePath(file) << ':' << line << ": ";
}

ErrorMessage::~ErrorMessage() = default;

std::string ErrorMessage::str() const {
  return os_.str() + values_.str();
}

}  // namespace detail
}  // namespace shade
