// libFuzzer target: FromDLPack on random DLManagedTensor / DLManagedTensorVersioned structs
// (device, dtype code/bits/lanes, ndim, shape, strides or null strides, byte offset, data
// pointer, version and flags). An import that succeeds must describe exactly the elements a
// reference computation of the DLPack layout gives (checked element by element when the tensor
// fits the fuzzer's buffer), call the deleter exactly once, and never accept an extent that
// overflows int64; a refused import must not call the deleter.
#include <dlpack/dlpack.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "shade/base/error.h"
#include "shade/io/dlpack.h"
#include "shade/ndarray/ndarray.h"

namespace {

// Reads fuzz bytes in order; zeros once exhausted.
struct ByteReader {
  const std::uint8_t* p;
  std::size_t n;
  template <typename T>
  T Get() {
    T v{};
    const std::size_t k = n < sizeof(T) ? n : sizeof(T);
    std::memcpy(&v, p, k);
    p += k;
    n -= k;
    return v;
  }
};

int deleter_calls = 0;
void CountingDeleter(DLManagedTensor*) {
  ++deleter_calls;
}
void CountingDeleterV(DLManagedTensorVersioned*) {
  ++deleter_calls;
}

// A small extent or stride most of the time, a hostile one sometimes.
std::int64_t Pick(ByteReader& r) {
  const std::uint8_t sel = r.Get<std::uint8_t>();
  if (sel < 200) return sel % 7;
  if (sel < 230) return r.Get<std::int64_t>();
  static const std::int64_t kEdge[] = {-1,        INT64_MAX, INT64_MIN,   INT64_MAX / 2 + 1,
                                       1LL << 32, 1LL << 62, 3037000500LL};
  return kEdge[sel % 7];
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ByteReader r{data, size};
  const std::uint8_t form = r.Get<std::uint8_t>();
  DLTensor t{};
  t.device.device_type =
      static_cast<DLDeviceType>(r.Get<std::uint8_t>() < 240 ? kDLCPU : r.Get<std::uint8_t>());
  t.device.device_id = r.Get<std::uint8_t>() % 2;
  static const std::uint8_t kCodes[] = {kDLInt, kDLUInt, kDLFloat, kDLBfloat, 6, 5, 200};
  static const std::uint8_t kBits[] = {8, 16, 32, 64, 1, 128, 7};
  t.dtype.code = kCodes[r.Get<std::uint8_t>() % 7];
  t.dtype.bits = kBits[r.Get<std::uint8_t>() % 7];
  t.dtype.lanes = r.Get<std::uint8_t>() < 250 ? 1 : 4;
  const std::uint8_t rank_byte = r.Get<std::uint8_t>();
  t.ndim = rank_byte < 250 ? rank_byte % 6 : static_cast<std::int32_t>(rank_byte) - 260;
  const int ndim = t.ndim > 0 ? t.ndim : 0;
  std::vector<std::int64_t> shape(static_cast<std::size_t>(ndim) + 1), strides(shape.size());
  for (int i = 0; i < ndim; ++i) shape[i] = Pick(r);
  const bool null_strides = r.Get<std::uint8_t>() < 64;
  for (int i = 0; i < ndim; ++i) strides[i] = Pick(r);
  t.shape = shape.data();
  t.strides = null_strides ? nullptr : strides.data();
  const std::uint8_t offset_sel = r.Get<std::uint8_t>();
  t.byte_offset = offset_sel < 200 ? offset_sel % 24 : r.Get<std::uint64_t>();

  // Reference layout (128-bit, so it cannot overflow): element count and the furthest element.
  const std::size_t itemsize = t.dtype.bits / 8 == 0 ? 1 : t.dtype.bits / 8;
  __int128 numel = 1, span = 0;
  bool negative = false;
  std::vector<std::int64_t> ref_strides(static_cast<std::size_t>(ndim));
  for (int i = ndim - 1; i >= 0; --i) {
    if (shape[i] < 0) negative = true;
    // Saturate at 2^63 (beyond any int64 count): a capped count times one more extent (< 2^63)
    // stays below 2^126. (A cap of 2^80 overflowed the 128 bits: UBSan, in this target.)
    numel *= shape[i] > 0 ? shape[i] : 0;
    if (numel > (__int128(1) << 63)) numel = __int128(1) << 63;
  }
  std::int64_t running = 1;
  for (int i = ndim - 1; i >= 0; --i) {
    ref_strides[i] = null_strides ? running : strides[i];
    if (!null_strides && strides[i] < 0) negative = true;
    const __int128 next = __int128(running) * (shape[i] > 1 ? shape[i] : 1);
    running = next > INT64_MAX ? INT64_MAX : static_cast<std::int64_t>(next);
  }
  if (numel > 0) {
    for (int i = 0; i < ndim; ++i) {
      span += __int128(shape[i] - 1) * ref_strides[i];
      // Saturate both ways (negative strides make negative terms): 5 terms of 2^126 would wrap.
      span = std::min(std::max(span, -(__int128(1) << 100)), __int128(1) << 100);
    }
  }
  const __int128 bytes_needed = numel > 0 ? (span + 1) * __int128(itemsize) : 0;
  // A buffer that holds the tensor when it is small; otherwise a small dummy (never read).
  constexpr std::size_t kMaxBuffer = 1 << 16;
  const bool fits =
      !negative && t.byte_offset < kMaxBuffer && bytes_needed + t.byte_offset <= kMaxBuffer;
  std::vector<std::uint64_t> buffer(
      fits ? (static_cast<std::size_t>(bytes_needed) + t.byte_offset) / 8 + 1 : 2);
  for (std::size_t i = 0; i < buffer.size(); ++i) buffer[i] = i * 0x9E3779B97F4A7C15ULL;
  t.data = r.Get<std::uint8_t>() < 250 ? static_cast<void*>(buffer.data()) : nullptr;

  DLManagedTensor legacy{};
  DLManagedTensorVersioned versioned{};
  deleter_calls = 0;
  bool imported = false;
  try {
    shade::NDArray a;
    if (form % 2 == 0) {
      legacy.dl_tensor = t;
      legacy.deleter = &CountingDeleter;
      a = shade::io::FromDLPack(&legacy);
    } else {
      versioned.dl_tensor = t;
      versioned.deleter = &CountingDeleterV;
      versioned.version.major = (form / 2) % 8 == 7 ? 2 : 1;
      versioned.version.minor = form / 16;
      versioned.flags = (form / 4) % 4 == 3 ? DLPACK_FLAG_BITMASK_READ_ONLY : 0;
      a = shade::io::FromDLPack(&versioned, (form / 64) % 2 == 1);
    }
    imported = true;
    // Accepted: the layout must be representable and match the reference.
    if (negative || t.device.device_type != kDLCPU || t.dtype.lanes != 1) __builtin_trap();
    if (a.ndim() != ndim || static_cast<__int128>(a.numel()) != numel) __builtin_trap();
    if ((span + 1) * __int128(itemsize) > INT64_MAX) __builtin_trap();
    if (a.itemsize() != itemsize) __builtin_trap();
    if (numel * __int128(itemsize) <= INT64_MAX) {
      if (a.nbytes() != static_cast<std::size_t>(numel) * itemsize) __builtin_trap();
    } else {
      // Zero strides let a broadcast view count more bytes than int64 holds (as expand does):
      // nbytes() must say so with an Error, never wrap.
      bool threw = false;
      try {
        (void)a.nbytes();
      } catch (const shade::Error&) {
        threw = true;
      }
      if (!threw) __builtin_trap();
    }
    if (fits && numel > 0 && numel <= 4096 &&
        t.data != nullptr) {  // zero strides: numel may be huge
      // Every element: the bytes at data + byte_offset + (sum idx * stride) * itemsize.
      const shade::NDArray c = a.contiguous();
      const unsigned char* base = static_cast<const unsigned char*>(t.data) + t.byte_offset;
      const unsigned char* got = static_cast<const unsigned char*>(c.raw_data());
      std::vector<std::int64_t> idx(static_cast<std::size_t>(ndim), 0);
      for (__int128 k = 0; k < numel; ++k) {
        std::int64_t off = 0;
        for (int i = 0; i < ndim; ++i) off += idx[i] * ref_strides[i];
        if (std::memcmp(got + k * itemsize, base + off * itemsize, itemsize) != 0) __builtin_trap();
        for (int i = ndim - 1; i >= 0; --i) {
          if (++idx[i] < shape[i]) break;
          idx[i] = 0;
        }
      }
    }
    // Still owned by `a`, unless the tensor had no data (empty): then released at import.
    if (deleter_calls != (t.data == nullptr ? 1 : 0)) __builtin_trap();
  } catch (const shade::Error& e) {
    if (imported) {  // an imported array must be usable
      std::fprintf(stderr, "dlpack_import_fuzzer: reading an imported array failed: %s\n",
                   e.what());
      __builtin_trap();
    }
  }
  // The deleter runs exactly once after a successful import, never after a refused one.
  if (deleter_calls != (imported ? 1 : 0)) __builtin_trap();
  return 0;
}
