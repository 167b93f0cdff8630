// The out-of-line parts of shade::Error and the CHECK machinery (base/error.h explains why).
#include "shade/base/error.h"

namespace shade {

Error::~Error() = default;

namespace detail {

ErrorMessage::ErrorMessage(const char* file, int line, const char* prefix) {
  os_ << file << ':' << line << ": " << prefix;
}

ErrorMessage::~ErrorMessage() = default;

std::string ErrorMessage::str() const {
  return os_.str();
}

void ErrorThrower::operator&(const ErrorMessage& msg) const {
  throw Error(msg.str());
}

}  // namespace detail
}  // namespace shade
