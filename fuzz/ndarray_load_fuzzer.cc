// libFuzzer target: shade's NDArray binary loader on arbitrary bytes, then a save/load round
// trip of whatever loaded (which must reproduce the input exactly).
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "shade/base/error.h"
#include "shade/io/ndarray_io.h"
#include "shade/io/stream.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  shade::NDArray a;
  try {
    a = shade::io::LoadNDArrayFromMemory(data, size);
  } catch (const shade::Error&) {
    return 0;
  }
  if (a.nbytes() > size) __builtin_trap();
  shade::io::MemoryStream ms;
  shade::io::SaveNDArray(&ms, a);
  // A file that loads is canonical: saving it again gives the same bytes.
  if (ms.buffer().size() != size || std::memcmp(ms.buffer().data(), data, size) != 0) __builtin_trap();
  return 0;
}
