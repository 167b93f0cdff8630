// libFuzzer target: TShape's text parsers (ParseTShape and operator>>) on arbitrary bytes. A
// shape that parses must print as text that parses back to the same shape; anything else must
// be a shade::Error (ParseTShape) or a stream failure that leaves the shape unchanged (>>).
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "shade/base/error.h"
#include "shade/shape/tshape.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const shade::TShape shape = shade::ParseTShape(text);
    std::ostringstream printed;
    printed << shape;
    if (!(shade::ParseTShape(printed.str()) == shape)) __builtin_trap();
    for (int i = 0; i < shape.ndim(); ++i) {
      if (shape[i] < 0) __builtin_trap();  // a parsed extent is never negative
    }
  } catch (const shade::Error&) {
  }
  // The stream form: failure must leave the target untouched.
  std::istringstream is(text);
  shade::TShape target{9, 8};
  is >> target;
  if (is.fail() && !(target == shade::TShape{9, 8})) __builtin_trap();
  return 0;
}
