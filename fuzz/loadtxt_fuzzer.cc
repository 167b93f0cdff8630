// libFuzzer target: the text readers (LoadTxtFromMemory, GenFromTxtFromMemory) on arbitrary
// bytes, with options picked by the first byte. Anything may be refused with a shade::Error;
// nothing may crash, read out of bounds or allocate beyond what the input holds. A table
// that loads must print (FormatTxt, "%.17g") as text that loads back to the same shape.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "shade/base/error.h"
#include "shade/io/textfile.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t mode = data[0];
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  shade::io::LoadTxtOptions lo;
  const int dtypes[] = {shade::kFloat64, shade::kInt16, shade::kBool, shade::kUint64};
  lo.dtype = dtypes[mode & 3];
  if (mode & 4) lo.delimiter = ",";
  if (mode & 8) lo.quotechar = "\"";
  if (mode & 16) lo.usecols = std::vector<shade::index_t>{0, -1};
  lo.ndmin = (mode >> 5) % 3;
  try {
    const shade::NDArray a = shade::io::LoadTxtFromMemory(text, lo);
    if (a.dim() >= 1 && a.dim() <= 2) {
      shade::io::SaveTxtOptions so;
      so.fmt = {lo.dtype == shade::kFloat64 ? "%.17g" : "%d"};
      shade::io::LoadTxtOptions back;
      back.dtype = lo.dtype;
      back.ndmin = a.dim();
      const shade::NDArray b = shade::io::LoadTxtFromMemory(shade::io::FormatTxt(a, so), back);
      if (a.numel() > 0 && !(b.numel() == a.numel())) __builtin_trap();
    }
  } catch (const shade::Error&) {
  }
  shade::io::GenFromTxtOptions go;
  go.dtype = (mode & 1) ? -1 : shade::kFloat64;
  if (mode & 2) go.delimiter = ",";
  if (mode & 64) go.widths = {2, 3};
  go.invalid_raise = (mode & 128) == 0;
  go.skip_footer = (mode >> 4) & 1;
  try {
    (void)shade::io::GenFromTxtFromMemory(text, go);
  } catch (const shade::Error&) {
  }
  return 0;
}
