// shade's NDArray binary format (see ndarray_io.h for the layout).
#include "shade/io/ndarray_io.h"

#include <cstring>
#include <vector>

#include "shade/base/checked.h"
#include "shade/base/device.h"
#include "shade/base/error.h"
#include "shade/io/atomic_file.h"
#include "shade/io/npy.h"

namespace shade {
namespace io {

namespace {

const char kMagic[8] = {'S', 'H', 'A', 'D', 'E', 'N', 'D', '\0'};

void PutU32(unsigned char* p, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<unsigned char>(v >> (8 * i));
}
std::uint32_t GetU32(const unsigned char* p) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

NDArray LoadImpl(Stream* strm, bool exact) {
  const std::string& name = strm->name();
  unsigned char head[24];
  const std::size_t got = strm->Read(head, sizeof(head));
  SHADE_CHECK_EQ(got, sizeof(head)) << name << ": not a shade NDArray file: only " << got
                                    << " bytes where the 24-byte header should be";
  SHADE_CHECK(std::memcmp(head, kMagic, sizeof(kMagic)) == 0)
      << name << ": not a shade NDArray file: bad magic";
  const std::uint32_t version = GetU32(head + 8), flag = GetU32(head + 12),
                      rank = GetU32(head + 16), reserved = GetU32(head + 20);
  SHADE_CHECK_EQ(version, kNDArrayFormatVersion) << name << ": unsupported NDArray format version";
  SHADE_CHECK_TYPE_LT(flag, static_cast<std::uint32_t>(kNumTypeFlags))
      << name << ": unknown dtype flag " << flag;
  SHADE_CHECK_LE(rank, kNDArrayMaxNDim) << name << ": rank too large";
  SHADE_CHECK_EQ(reserved, 0u) << name << ": reserved header field is not zero";
  std::int64_t sizes[kNDArrayMaxNDim];
  unsigned char raw[8 * kNDArrayMaxNDim];
  strm->ReadExact(raw, 8u * rank, "the NDArray sizes");
  std::uint64_t count = 1, strided = 1;  // strided: product of the non-zero extents
  for (std::uint32_t i = 0; i < rank; ++i) {
    std::uint64_t u = 0;
    for (int b = 7; b >= 0; --b) u = (u << 8) | raw[8 * i + static_cast<unsigned>(b)];
    std::memcpy(&sizes[i], &u, sizeof(u));
    SHADE_CHECK_GE(sizes[i], 0) << name << ": negative extent at axis " << i;
    SHADE_CHECK(!__builtin_mul_overflow(count, u, &count) &&
                count <= static_cast<std::uint64_t>(INT64_MAX))
        << name << ": NDArray element count overflows int64";
    // Strides are built from the non-zero extents even when a zero extent empties the array.
    SHADE_CHECK(!__builtin_mul_overflow(strided, u == 0 ? 1 : u, &strided) &&
                strided <= static_cast<std::uint64_t>(INT64_MAX))
        << name << ": NDArray extents overflow int64 (strides would overflow)";
  }
  const int type_flag = static_cast<int>(flag);
  const std::size_t itemsize = TypeFlagSize(type_flag);
  std::uint64_t bytes = 0;
  SHADE_CHECK(!__builtin_mul_overflow(count, itemsize, &bytes) &&
              bytes <= static_cast<std::uint64_t>(INT64_MAX))
      << name << ": NDArray data size overflows int64";
  std::uint64_t left = 0;
  const bool sized = strm->BytesLeft(&left);
  if (sized) {
    SHADE_CHECK_IO_LE(bytes, left) << name << ": NDArray file truncated: " << bytes
                                   << " data bytes declared, " << left << " remain";
    if (exact) {
      SHADE_CHECK_EQ(bytes, left) << name << ": unexpected bytes after the NDArray data";
    }
  }
  const IndexSpan dims(sizes, rank);
  NDArray out;
  if (sized) {
    out = NDArray::Empty(dims, type_flag);
    strm->ReadExact(out.data_ptr(), static_cast<std::size_t>(bytes), "the NDArray data");
  } else {
    const std::vector<unsigned char> buf = ReadBounded(strm, bytes, "the NDArray data");
    out = NDArray::Empty(dims, type_flag);
    if (bytes != 0) std::memcpy(out.data_ptr(), buf.data(), buf.size());
  }
  if (type_flag == kBool) CheckBoolBytes(out.data_ptr(), count, name);
  return out;
}

}  // namespace

void CheckBoolBytes(const void* data, std::uint64_t count, const std::string& source) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (std::uint64_t i = 0; i < count; ++i) {
    SHADE_CHECK(p[i] <= 1) << source << ": bool element " << i << " holds byte " << int(p[i])
                           << " (only 0 and 1 are valid)";
  }
}

void SaveNDArray(Stream* strm, const NDArray& array) {
  SHADE_CHECK(array.defined()) << "SaveNDArray: undefined NDArray (writing " << strm->name() << ")";
  SHADE_CHECK_EQ(array.dev_mask(), cpu::kDevMask)
      << "SaveNDArray: only CPU arrays can be written (writing " << strm->name() << ")";
  const int flag = array.type_flag();
  SHADE_CHECK_TYPE(IsValidTypeFlag(flag))
      << "SaveNDArray: element type " << array.dtype().name() << " is not a numeric dtype (writing "
      << strm->name() << ")";
  unsigned char head[24];
  std::memcpy(head, kMagic, sizeof(kMagic));
  PutU32(head + 8, kNDArrayFormatVersion);
  PutU32(head + 12, static_cast<std::uint32_t>(flag));
  PutU32(head + 16, static_cast<std::uint32_t>(array.ndim()));
  PutU32(head + 20, 0);
  strm->Write(head, sizeof(head));
  for (int i = 0; i < array.ndim(); ++i) {
    const std::uint64_t u = static_cast<std::uint64_t>(array.size(i));
    unsigned char b[8];
    for (int k = 0; k < 8; ++k) b[k] = static_cast<unsigned char>(u >> (8 * k));
    strm->Write(b, 8);
  }
  if (array.numel() == 0) return;
  const NDArray c = array.is_contiguous() ? array : array.contiguous();
  strm->Write(c.raw_data(), c.nbytes());  // the host is little-endian (static_assert in npy.cc)
}

void SaveNDArray(const std::string& path, const NDArray& array) {
  AtomicFileStream f(path);
  SaveNDArray(&f, array);
  f.Commit();
}

NDArray LoadNDArray(Stream* strm) {
  return LoadImpl(strm, false);
}

NDArray LoadNDArray(const std::string& path) {
  FileStream f(path, "rb");
  return LoadImpl(&f, true);
}

NDArray LoadNDArrayFromMemory(const void* data, std::size_t size) {
  MemoryViewStream v(data, size);
  return LoadImpl(&v, true);
}

}  // namespace io
}  // namespace shade
