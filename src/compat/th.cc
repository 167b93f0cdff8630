// TH's error reporting (THError, THArgCheck) for shade/compat/th.h: throws shade::Error.
#include "shade/compat/th.h"

#include <cstdarg>
#include <cstdio>

namespace shade {
namespace th {

void ThrowFormatted(const char* file, int line, const char* fmt, ...) {
  char buf[1024];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buf, sizeof(buf), fmt, args);
  va_end(args);
  SHADE_THROW << "TH error at " << ::shade::detail::RelativeSourcePath(file) << ':' << line << ": "
              << buf;
}

void ThrowArgCheck(const char* file, int line, int arg, const char* cond, const char* fmt, ...) {
  char buf[1024];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buf, sizeof(buf), fmt, args);
  va_end(args);
  SHADE_THROW << "TH argument #" << arg << " (" << cond << ") at "
              << ::shade::detail::RelativeSourcePath(file) << ':' << line << ": " << buf;
}

}  // namespace th
}  // namespace shade
