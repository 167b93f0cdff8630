// libFuzzer target: TShape's text parsers (ParseTShape and operator>>) on arbitrary bytes. A
// shape that parses must print as text that parses back to the same shape; anything else must
// be a shade::Error (ParseTShape) or a stream failure that leaves the shape unchanged (>>). A
// shape with a negative extent parses, and its Size() must throw.
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
    // Negative extents parse (dmlc/MXNet parameters spell reshape targets such as (-1,0) this
    // way), but nothing may size memory from them: Size() must refuse such a shape.
    bool negative = false;
    for (int i = 0; i < shape.ndim(); ++i) negative = negative || shape[i] < 0;
    bool sized = false;
    try {
      (void)shape.Size();
      sized = true;
    } catch (const shade::Error&) {
    }
    if (negative && sized) __builtin_trap();
  } catch (const shade::Error&) {
  }
  // The stream form: failure must leave the target untouched.
  std::istringstream is(text);
  shade::TShape target{9, 8};
  is >> target;
  if (is.fail() && !(target == shade::TShape{9, 8})) __builtin_trap();
  return 0;
}
