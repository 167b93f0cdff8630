// libFuzzer target: the .npz loader (libzip archive, member names, declared sizes, each member
// through the .npy loader) on arbitrary bytes. Loaded arrays must fit what the archive can hold.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

#include "shade/base/error.h"
#include "shade/io/npz.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const std::map<std::string, shade::NDArray> arrays = shade::io::LoadNpzFromMemory(data, size);
    for (const auto& kv : arrays) {
      // Deflate expands at most ~1032x: a member can never hold more than that.
      if (kv.second.nbytes() > 1100 * size + 1024) __builtin_trap();
      if (kv.second.numel() > 0) {
        const shade::NDArray c = kv.second.contiguous();
        volatile unsigned char sink =
            static_cast<const unsigned char*>(c.raw_data())[c.nbytes() - 1];
        (void)sink;
      }
    }
  } catch (const shade::Error&) {
  }
  return 0;
}
