// libFuzzer target: mshadow-format LoadBinary (Tensor with fresh memory, pre-allocated Tensor and
// TensorContainer; ranks 1-4; float and int8) on arbitrary bytes. A tensor that loads must fit
// the input and save back to the bytes it consumed.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "shade/base/error.h"
#include "shade/io/binary.h"
#include "shade/io/stream.h"
#include "shade/tensor/tensor.h"
#include "shade/tensor/tensor_cpu.h"

namespace {

template <int dim, typename DType>
void LoadOne(const std::uint8_t* data, std::size_t size, int form) {
  shade::io::MemoryViewStream in(data, size);
  try {
    if (form == 0) {
      shade::Tensor<shade::cpu, dim, DType> t;
      shade::LoadBinary(in, &t, false);
      // mshadow stores each extent in 32 bits.
      const std::size_t used =
          sizeof(shade::detail::BinaryExtent) * dim + t.shape_.Size() * sizeof(DType);
      if (used > size) __builtin_trap();
      shade::io::MemoryStream out;
      shade::SaveBinary(out, t);
      const bool same =
          out.buffer().size() == used && std::memcmp(out.buffer().data(), data, used) == 0;
      shade::FreeSpace(&t);
      if (!same) __builtin_trap();
    } else if (form == 1) {
      shade::Shape<dim> shape;
      for (int i = 0; i < dim; ++i) shape[i] = 2;
      shade::Tensor<shade::cpu, dim, DType> t(shape);
      shade::AllocSpace(&t);
      try {
        shade::LoadBinary(in, &t, true);
      } catch (...) {
        shade::FreeSpace(&t);
        throw;
      }
      shade::FreeSpace(&t);
    } else {
      shade::TensorContainer<shade::cpu, dim, DType> c;
      shade::LoadBinary(in, &c);
      if (c.shape_.Size() * sizeof(DType) > size) __builtin_trap();
    }
  } catch (const shade::Error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const int sel = data[0];
  const int form = sel % 3, rank = (sel / 3) % 4 + 1;
  const bool small = (sel / 12) % 2;
  ++data;
  --size;
  switch (rank * 2 + small) {
    case 2:
      LoadOne<1, float>(data, size, form);
      break;
    case 3:
      LoadOne<1, std::int8_t>(data, size, form);
      break;
    case 4:
      LoadOne<2, float>(data, size, form);
      break;
    case 5:
      LoadOne<2, std::int8_t>(data, size, form);
      break;
    case 6:
      LoadOne<3, float>(data, size, form);
      break;
    case 7:
      LoadOne<3, std::int8_t>(data, size, form);
      break;
    case 8:
      LoadOne<4, float>(data, size, form);
      break;
    default:
      LoadOne<4, std::int8_t>(data, size, form);
      break;
  }
  return 0;
}
