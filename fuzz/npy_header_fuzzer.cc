// libFuzzer target: the .npy header dict parser on arbitrary bytes. Every input must either
// parse into a consistent header or throw shade::Error; nothing else is acceptable.
#include <cstddef>
#include <cstdint>
#include <string>

#include "shade/base/error.h"
#include "shade/io/npy.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string kName = "<fuzz>";
  try {
    const shade::io::NpyHeader h =
        shade::io::ParseNpyHeaderDict(reinterpret_cast<const char*>(data), size, kName);
    // A header that parsed must describe a valid dtype and a shape whose byte size is checked.
    if (!shade::IsValidTypeFlag(h.type_flag) || h.shape.ndim() > shade::io::kNpyMaxNDim) __builtin_trap();
    try {
      (void)h.DataBytes();
    } catch (const shade::Error&) {
    }
  } catch (const shade::Error&) {
  }
  return 0;
}
