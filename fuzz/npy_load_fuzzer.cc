// libFuzzer target: the whole .npy loader (preamble, header, size checks, data, byte swap,
// Fortran view, bool validation) on arbitrary bytes. Any outcome but an array or shade::Error
// (a crash, a sanitizer report, a leak, an allocation beyond the input) is a bug.
#include <cstddef>
#include <cstdint>

#include "shade/base/error.h"
#include "shade/io/npy.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const shade::NDArray a = shade::io::LoadNpyFromMemory(data, size);
    // The loader checked the data against the input size: the array can never be larger.
    if (a.nbytes() > size) __builtin_trap();
    if (a.numel() > 0) {
      const shade::NDArray c = a.contiguous();  // touch every element through the view
      volatile unsigned char sink = static_cast<const unsigned char*>(c.raw_data())[c.nbytes() - 1];
      (void)sink;
    }
  } catch (const shade::Error&) {
  }
  return 0;
}
