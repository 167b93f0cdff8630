// Allocation limits and size arithmetic (issue 21): the process-wide allocation cap
// (shade::SetMaxAllocationBytes), every loader refusing data its input cannot hold, and property
// tests of the size / stride products near INT64_MAX against a 128-bit reference.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "error_test_util.h"
#include "shade/base/checked.h"
#include "shade/base/dtype.h"
#include "shade/base/error.h"
#include "shade/expr/ext/reduce.h"
#include "shade/io/binary.h"
#include "shade/io/ndarray_io.h"
#include "shade/io/npy.h"
#include "shade/io/npz.h"
#include "shade/io/stream.h"
#include "shade/memory/alloc.h"
#include "shade/memory/allocator.h"
#include "shade/memory/scratch.h"
#include "shade/ndarray/linalg.h"
#include "shade/ndarray/ndarray.h"
#include "shade/ndarray/ops.h"
#include "shade/shape/tshape.h"
#include "shade/tensor/tensor.h"
#include "shade/tensor/tensor_cpu.h"

namespace {

using shade::index_t;
using shade::IndexSpan;
using shade::NDArray;
using Int128 = __int128;

constexpr index_t kMax = INT64_MAX;

// Sets the cap for one scope and restores the previous one.
class CapGuard {
 public:
  explicit CapGuard(std::size_t bytes) : previous_(shade::SetMaxAllocationBytes(bytes)) {}
  ~CapGuard() { shade::SetMaxAllocationBytes(previous_); }
  CapGuard(const CapGuard&) = delete;
  CapGuard& operator=(const CapGuard&) = delete;

 private:
  std::size_t previous_;
};

// The message of the shade::Error `fn` throws (tests/error_test_util.h).
std::string ErrorText(const std::function<void()>& fn) {
  return shade_test::ErrorOf(fn);
}
using shade_test::Contains;

NDArray EmptyOf(std::vector<index_t> sizes, int flag) {
  return NDArray::Empty(IndexSpan(sizes.data(), sizes.size()), flag);
}

// ------------------------------------------------------------------------- the allocation cap

TEST(AllocationCap, SetReturnsPreviousAndDefaultsToNone) {
  EXPECT_EQ(shade::MaxAllocationBytes(), 0u);
  {
    CapGuard cap(12345);
    EXPECT_EQ(shade::MaxAllocationBytes(), 12345u);
    EXPECT_EQ(shade::SetMaxAllocationBytes(777), 12345u);
  }
  EXPECT_EQ(shade::MaxAllocationBytes(), 0u);
}

TEST(AllocationCap, ExactCapIsAllowedOneByteMoreIsAnErrorNamingTheSize) {
  constexpr std::size_t kCap = 1 << 20;
  CapGuard cap(kCap);
  const int flags[] = {shade::kInt8, shade::kFloat16, shade::kFloat32, shade::kFloat64};
  for (const int flag : flags) {
    const index_t itemsize = static_cast<index_t>(shade::TypeFlagSize(flag));
    const index_t at_cap = static_cast<index_t>(kCap) / itemsize;
    const NDArray ok = EmptyOf({at_cap}, flag);
    EXPECT_EQ(ok.nbytes(), kCap);
    const std::string msg = ErrorText([&] { EmptyOf({at_cap + 1}, flag); });
    EXPECT_TRUE(Contains(msg, std::to_string((at_cap + 1) * itemsize))) << msg;
    EXPECT_TRUE(Contains(msg, "allocation cap of " + std::to_string(kCap))) << msg;
  }
  // The raw host allocator and the static Tensor path are capped too.
  void* p = shade::AlignedAlloc(kCap);
  shade::AlignedFree(p);
  EXPECT_TRUE(
      Contains(ErrorText([&] { shade::AlignedAlloc(kCap + 1); }), std::to_string(kCap + 1)));
  shade::Tensor<shade::cpu, 2, float> t(shade::Shape2(1024, 257));  // 1,052,672 bytes + padding
  EXPECT_TRUE(Contains(ErrorText([&] { shade::AllocSpace(&t); }), "allocation cap"));
  EXPECT_EQ(t.dptr_, nullptr);
}

TEST(AllocationCap, ResultsOfOperationsAreCapped) {
  const NDArray a = EmptyOf({64, 64}, shade::kFloat64);  // 32 KiB
  a.Fill(1.5);
  CapGuard cap(16 << 10);
  EXPECT_TRUE(Contains(ErrorText([&] { NDArray r = a + a; }), "32768"));
  EXPECT_TRUE(Contains(ErrorText([&] { a.transpose(0, 1).contiguous(); }), "32768"));
  EXPECT_TRUE(Contains(ErrorText([&] { shade::matmul(a, a); }), "32768"));
  const NDArray small = a.slice(0, 0, 8);  // 8 x 64 doubles: 4 KiB, under the cap
  const NDArray r = small * 2;
  EXPECT_EQ(r.at<double>(7, 63), 3.0);
}

// Temporaries go through the cap too (memory/scratch.h): a static-path reduction whose source is
// an expression (not memory) materialises it in a ScratchBuffer, which the cap refuses.
TEST(AllocationCap, ScratchBuffersAreCapped) {
  EXPECT_THROW(shade::ScratchBuffer<float>(-1), shade::Error);
  EXPECT_TRUE(Contains(ErrorText([] { shade::ScratchBuffer<double>(kMax / 4, "huge scratch"); }),
                       "huge scratch"));
  CapGuard cap(16 << 10);
  EXPECT_TRUE(Contains(ErrorText([] { shade::ScratchBuffer<double>(4096, "rows"); }), "32768"));
  EXPECT_TRUE(Contains(ErrorText([] { shade::MakeSharedScratch<float>(8192, "idx"); }), "32768"));
  const shade::ScratchBuffer<double> ok(1024);  // 8 KiB: under the cap
  ok[1023] = 2.0;
  EXPECT_EQ(ok[1023], 2.0);
  std::vector<float> data(64 * 128, 1.0f);
  shade::Tensor<shade::cpu, 2, float> t(data.data(), shade::Shape2(64, 128));
  // t * 2 is an expression: reduce_all copies it into a 32 KiB scratch buffer first.
  EXPECT_TRUE(Contains(ErrorText([&] { (void)shade::expr::sum_all(t * 2.0f); }), "32768"));
}

// A registered allocator never sees a request above the cap.
class CountingAllocator final : public shade::Allocator {
 public:
  const char* name() const noexcept override { return "counting"; }
  shade::Allocation Allocate(std::size_t nbytes) override {
    ++calls;
    return shade::CpuAllocator().Allocate(nbytes);
  }
  int calls = 0;
};

TEST(AllocationCap, AppliesBeforeAnyRegisteredAllocator) {
  CountingAllocator counting;
  shade::Allocator* const previous = shade::SetAllocator(shade::cpu::kDevMask, &counting);
  {
    CapGuard cap(4096);
    EXPECT_TRUE(Contains(ErrorText([&] { EmptyOf({513}, shade::kFloat64); }), "4104"));
    EXPECT_EQ(counting.calls, 0);
    const NDArray ok = EmptyOf({512}, shade::kFloat64);
    EXPECT_EQ(counting.calls, 1);
  }
  shade::SetAllocator(shade::cpu::kDevMask, previous);
}

// ------------------------------------------------------------------- loaders and their input

// A loader given a few bytes that claim a gigabyte must refuse from the input's size, before it
// allocates: under a 64 KiB cap the error is the loader's own, never the cap's.
void ExpectRefusedByLoader(const std::function<void()>& load) {
  CapGuard cap(64 << 10);
  const std::string msg = ErrorText(load);
  EXPECT_FALSE(msg.empty());
  EXPECT_FALSE(Contains(msg, "allocation cap")) << msg;
}

std::string NpyBytes(const std::string& dict) {
  std::string header = dict;
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::string out = "\x93NUMPY\x01";
  out += '\0';
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  return out + header + std::string(16, '\0');
}

TEST(LoaderLimits, NpyClaimingAGigabyte) {
  const std::string npy =
      NpyBytes("{'descr': '<f8', 'fortran_order': False, 'shape': (134217728,), }");
  ExpectRefusedByLoader([&] { shade::io::LoadNpyFromMemory(npy.data(), npy.size()); });
}

TEST(LoaderLimits, NDArrayFormatClaimingAGigabyte) {
  const NDArray small = EmptyOf({3}, shade::kFloat64);
  small.Fill(2.0);
  shade::io::MemoryStream ms;
  shade::io::SaveNDArray(&ms, small);
  std::string bytes = ms.buffer();
  // The extent 3 is stored as a little-endian int64 just before the 24 data bytes.
  const std::size_t at = bytes.size() - 24 - 8;
  ASSERT_EQ(bytes[at], 3);
  bytes[at + 3] = 0x08;  // 3 -> 134217731 elements
  ExpectRefusedByLoader([&] { shade::io::LoadNDArrayFromMemory(bytes.data(), bytes.size()); });
}

TEST(LoaderLimits, NpzMemberClaimingAGigabyte) {
  // A stored (uncompressed) archive: the member's .npy header text appears verbatim, so its shape
  // can be enlarged in place (the padding spaces absorb the longer text).
  const NDArray small = EmptyOf({2}, shade::kFloat64);
  small.Fill(1.0);
  const std::string path = ::testing::TempDir() + "/shade_limits.npz";
  shade::io::SaveNpz(path, {{"a", small}}, false);
  std::ifstream f(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::remove(path.c_str());
  const std::string from = "(2,), }", to = "(134217728,), }";
  const std::size_t at = bytes.find(from);
  ASSERT_NE(at, std::string::npos);
  const std::size_t grow = to.size() - from.size();
  ASSERT_EQ(bytes.substr(at + from.size(), grow), std::string(grow, ' '));
  bytes.replace(at, from.size() + grow, to);
  ExpectRefusedByLoader([&] { shade::io::LoadNpzFromMemory(bytes.data(), bytes.size()); });
}

TEST(LoaderLimits, MshadowBinaryClaimingAGigabyte) {
  // mshadow's format: int32 extents, then the rows.
  std::string bytes(2 * sizeof(std::int32_t) + 16, '\0');
  const std::int32_t shape[2] = {1 << 15, 1 << 13};  // 2^28 floats
  std::memcpy(&bytes[0], shape, sizeof(shape));
  ExpectRefusedByLoader([&] {
    shade::io::MemoryViewStream in(bytes.data(), bytes.size());
    shade::Tensor<shade::cpu, 2, float> t;
    shade::LoadBinary(in, &t, false);
  });
  ExpectRefusedByLoader([&] {
    shade::io::MemoryViewStream in(bytes.data(), bytes.size());
    shade::TensorContainer<shade::cpu, 2, float> c;
    shade::LoadBinary(in, &c);
  });
}

// A stream that cannot tell its size: LoadBinary cannot compare, so the cap is what stops it.
struct UnsizedStream {
  const char* data;
  std::size_t size, pos = 0;
  std::size_t Read(void* out, std::size_t n) {
    const std::size_t k = std::min(n, size - pos);
    std::memcpy(out, data + pos, k);
    pos += k;
    return k;
  }
};

TEST(LoaderLimits, UnsizedStreamIsStoppedByTheCap) {
  std::string bytes(2 * sizeof(std::int32_t), '\0');  // mshadow's int32 extents
  const std::int32_t shape[2] = {1 << 15, 1 << 13};
  std::memcpy(&bytes[0], shape, sizeof(shape));
  CapGuard cap(1 << 20);
  UnsizedStream in{bytes.data(), bytes.size()};
  shade::Tensor<shade::cpu, 2, float> t;
  const std::string msg = ErrorText([&] { shade::LoadBinary(in, &t, false); });
  EXPECT_TRUE(Contains(msg, "allocation cap")) << msg;
  EXPECT_TRUE(Contains(msg, std::to_string((index_t{1} << 28) * 4))) << msg;
}

// Run by the ctest entry test_limits_ulimit under `ulimit -v` (skipped without an address-space
// limit): a request the system cannot satisfy is a shade::Error, never std::bad_alloc or a kill;
// the cap turns a request above it into its own Error first.
TEST(UlimitV, OversizedRequestsAreErrors) {
  rlimit limit{};
  ASSERT_EQ(getrlimit(RLIMIT_AS, &limit), 0);
  if (limit.rlim_cur == RLIM_INFINITY)
    GTEST_SKIP() << "no address-space limit (run under ulimit -v)";
  const index_t over =
      static_cast<index_t>(limit.rlim_cur) / 8 + 1024;  // float64s: more than the limit
  const std::string os_msg = ErrorText([&] { EmptyOf({over}, shade::kFloat64); });
  EXPECT_TRUE(Contains(os_msg, std::to_string(over * 8))) << os_msg;
  EXPECT_FALSE(Contains(os_msg, "allocation cap")) << os_msg;
  CapGuard cap(static_cast<std::size_t>(limit.rlim_cur) / 4);
  const std::string cap_msg = ErrorText([&] { EmptyOf({over}, shade::kFloat64); });
  EXPECT_TRUE(Contains(cap_msg, "allocation cap")) << cap_msg;
  // A legitimate array still works under both limits.
  const NDArray ok = EmptyOf({1 << 20}, shade::kFloat64);
  ok.Fill(3.0);
  EXPECT_EQ(ok.at<double>(12345), 3.0);
}

// ------------------------------------------------------------- size arithmetic near INT64_MAX

// Values around the overflow boundaries of a product of two (sqrt(INT64_MAX)) or of k factors.
std::vector<index_t> BoundaryValues() {
  std::vector<index_t> v = {0,
                            1,
                            2,
                            3,
                            7,
                            3037000499,
                            3037000500,
                            3037000501,
                            kMax / 2,
                            kMax / 2 + 1,
                            kMax / 3,
                            kMax / 3 + 1,
                            kMax - 1,
                            kMax,
                            index_t{1} << 31,
                            index_t{1} << 32,
                            (index_t{1} << 32) + 1,
                            2097151,
                            2097152,
                            2642245,
                            2642246};
  std::mt19937_64 rng(21);
  for (int i = 0; i < 40; ++i) {
    const int bits = 1 + static_cast<int>(rng() % 62);
    v.push_back(static_cast<index_t>(rng() >> (64 - bits)));
  }
  return v;
}

bool Fits(Int128 v) {
  return v <= kMax && v >= INT64_MIN;
}

TEST(SizeArithmetic, CheckedMulAddProductAgreeWith128Bit) {
  const std::vector<index_t> vals = BoundaryValues();
  for (index_t a : vals) {
    for (index_t b : vals) {
      const Int128 prod = Int128(a) * b, sum = Int128(a) + b;
      if (Fits(prod)) {
        EXPECT_EQ(shade::CheckedMul(a, b), static_cast<index_t>(prod));
      } else {
        EXPECT_THROW(shade::CheckedMul(a, b), shade::Error) << a << " * " << b;
      }
      if (Fits(sum)) {
        EXPECT_EQ(shade::CheckedAdd(a, b), static_cast<index_t>(sum));
      } else {
        EXPECT_THROW(shade::CheckedAdd(a, b), shade::Error);
      }
    }
  }
  // Three factors, as shapes multiply: the running product decides, not the final one.
  for (index_t a : {index_t{2097152}, index_t{2097151}, kMax, index_t{0}}) {
    for (index_t b : {index_t{2097152}, index_t{2097151}, index_t{2}}) {
      const index_t dims[3] = {a, b, 2097152};
      const Int128 p01 = Int128(a) * b;
      const bool ok = Fits(p01) && Fits(p01 * 2097152);
      if (ok) {
        EXPECT_EQ(shade::CheckedProduct(dims, 3), static_cast<index_t>(p01 * 2097152));
      } else {
        EXPECT_THROW(shade::CheckedProduct(dims, 3), shade::Error);
      }
    }
  }
}

TEST(SizeArithmetic, ShapeSizesAndNDArrayCreation) {
  CapGuard cap(1 << 20);  // nothing here may actually allocate more
  const std::vector<index_t> vals = BoundaryValues();
  for (index_t a : vals) {
    for (index_t b : vals) {
      const shade::TShape shape{a, b};
      const Int128 n = Int128(a) * b;
      if (Fits(n)) {
        EXPECT_EQ(shape.Size(), static_cast<std::size_t>(n));
      } else {
        EXPECT_THROW(shape.Size(), shade::Error);
      }
      // Empty: a valid array only when the bytes fit the cap; otherwise an Error, whichever of
      // the element count, the byte size, the strides or the cap refuses it.
      for (const int flag : {shade::kInt8, shade::kFloat64}) {
        // (n beyond int64 is refused anyway; multiplying it could overflow even 128 bits.)
        const Int128 bytes = Fits(n) ? n * Int128(shade::TypeFlagSize(flag)) : n;
        try {
          const NDArray x = EmptyOf({a, b}, flag);
          EXPECT_LE(bytes, Int128(1 << 20)) << a << " x " << b;
          EXPECT_EQ(Int128(x.numel()), n);
        } catch (const shade::Error&) {
          EXPECT_TRUE(bytes > Int128(1 << 20) || (a > 0 && b > 0 && !Fits(Int128(a) * b)) ||
                      !Fits(Int128(a == 0 ? 1 : a) * (b == 0 ? 1 : b)))
              << a << " x " << b;
        }
      }
    }
  }
}

TEST(SizeArithmetic, AsStridedBoundsNearInt64Max) {
  const NDArray base = EmptyOf({16}, shade::kInt8);
  const index_t storage = static_cast<index_t>(base.storage().capacity());
  const std::vector<index_t> vals = BoundaryValues();
  std::mt19937_64 rng(7);
  for (int iter = 0; iter < 4000; ++iter) {
    const index_t s0 = 1 + static_cast<index_t>(rng() % 3),
                  s1 = 1 + static_cast<index_t>(rng() % 3);
    const index_t st0 = vals[rng() % vals.size()], st1 = vals[rng() % vals.size()];
    const index_t off = iter % 4 == 0 ? vals[rng() % vals.size()] : static_cast<index_t>(rng() % 4);
    const Int128 last = Int128(off) + Int128(s0 - 1) * st0 + Int128(s1 - 1) * st1;
    const bool valid = last < storage;
    const index_t sizes[2] = {s0, s1}, strides[2] = {st0, st1};
    if (valid) {
      const NDArray v = base.as_strided(IndexSpan(sizes, 2), IndexSpan(strides, 2), off);
      EXPECT_EQ(v.numel(), s0 * s1);
    } else {
      EXPECT_THROW(base.as_strided(IndexSpan(sizes, 2), IndexSpan(strides, 2), off), shade::Error)
          << s0 << "x" << s1 << " strides " << st0 << "," << st1 << " offset " << off;
    }
  }
}

TEST(SizeArithmetic, ReshapeViewAndExpandNearInt64Max) {
  const NDArray a = EmptyOf({4, 4}, shade::kFloat32);
  const std::vector<index_t> vals = BoundaryValues();
  for (index_t x : vals) {
    for (index_t y : vals) {
      const Int128 n = Int128(x) * y;
      const index_t sizes[2] = {x, y};
      if (n == 16) {
        EXPECT_EQ(a.reshape(IndexSpan(sizes, 2)).numel(), 16);
      } else {
        EXPECT_THROW(a.reshape(IndexSpan(sizes, 2)), shade::Error) << x << " x " << y;
        EXPECT_THROW(a.view(IndexSpan(sizes, 2)), shade::Error);
      }
      // -1 inference with a huge known part: never a wrapped size.
      const index_t inferred[3] = {x, -1, y};
      if (n > 0 && 16 % n == 0) {
        EXPECT_EQ(a.reshape(IndexSpan(inferred, 3)).size(1), static_cast<index_t>(16 / n));
      } else {
        EXPECT_THROW(a.reshape(IndexSpan(inferred, 3)), shade::Error) << x << " -1 " << y;
      }
    }
  }
  // Broadcast views may be huge (zero strides) until the element count overflows.
  const NDArray one = EmptyOf({1, 1}, shade::kFloat32);
  for (index_t x : vals) {
    for (index_t y : vals) {
      const index_t target[2] = {x, y};
      if (Fits(Int128(x) * y)) {
        EXPECT_EQ(Int128(one.expand(IndexSpan(target, 2)).numel()), Int128(x) * y);
      } else {
        EXPECT_THROW(one.expand(IndexSpan(target, 2)), shade::Error) << x << " x " << y;
      }
    }
  }
}

TEST(SizeArithmetic, BroadcastAndMatmulBatchesNearInt64Max) {
  CapGuard cap(1 << 20);
  const NDArray one = EmptyOf({1, 1}, shade::kFloat32);
  one.Fill(1);
  const index_t big = index_t{1} << 32;
  const index_t col[2] = {big, 1}, row[2] = {1, big};
  // 2^32 x 2^32 elements: the broadcast count overflows; it must be an Error, not a wrap.
  EXPECT_THROW(
      {
        const NDArray sum = one.expand(IndexSpan(col, 2)) + one.expand(IndexSpan(row, 2));
        (void)sum;
      },
      shade::Error);
  // 2^30 x 2^30 float32s (2^62 bytes): fits int64 but not the machine; an Error naming the size.
  const index_t col30[2] = {index_t{1} << 30, 1}, row30[2] = {1, index_t{1} << 30};
  const std::string huge_msg = ErrorText(
      [&] { NDArray r = one.expand(IndexSpan(col30, 2)) + one.expand(IndexSpan(row30, 2)); });
  EXPECT_TRUE(Contains(huge_msg, std::to_string(index_t{1} << 62))) << huge_msg;
  // 2^12 x 2^12 float32s (64 MiB): the cap refuses it.
  const index_t col12[2] = {index_t{1} << 12, 1}, row12[2] = {1, index_t{1} << 12};
  const std::string sum_msg = ErrorText(
      [&] { NDArray r = one.expand(IndexSpan(col12, 2)) + one.expand(IndexSpan(row12, 2)); });
  EXPECT_TRUE(Contains(sum_msg, "allocation cap")) << sum_msg;
  EXPECT_TRUE(Contains(sum_msg, std::to_string(index_t{1} << 26))) << sum_msg;
  // matmul batches: (2^32, 1, 2, 2) @ (1, 2^32, 2, 2) broadcasts to 2^64 matrices.
  const NDArray m = EmptyOf({1, 1, 2, 2}, shade::kFloat32);
  m.Fill(1);
  const index_t ba[4] = {big, 1, 2, 2}, bb[4] = {1, big, 2, 2};
  EXPECT_THROW(shade::matmul(m.expand(IndexSpan(ba, 4)), m.expand(IndexSpan(bb, 4))), shade::Error);
  // 2^10 x 2^10 batches of 2x2 float32 results (16 MiB): the cap refuses it.
  const index_t ca[4] = {index_t{1} << 10, 1, 2, 2}, cb[4] = {1, index_t{1} << 10, 2, 2};
  const std::string batch_msg =
      ErrorText([&] { shade::matmul(m.expand(IndexSpan(ca, 4)), m.expand(IndexSpan(cb, 4))); });
  EXPECT_TRUE(Contains(batch_msg, "allocation cap")) << batch_msg;
  EXPECT_TRUE(Contains(batch_msg, std::to_string(index_t{1} << 24))) << batch_msg;
  // 2-D products whose result count overflows.
  const index_t tall[2] = {kMax / 2, 1}, wide[2] = {1, 4};
  EXPECT_THROW(shade::matmul(one.expand(IndexSpan(tall, 2)), one.expand(IndexSpan(wide, 2))),
               shade::Error);
}

TEST(SizeArithmetic, NpyHeaderSizesNearInt64Max) {
  const std::vector<index_t> vals = BoundaryValues();
  for (index_t a : vals) {
    for (index_t b : vals) {
      std::ostringstream dict;
      dict << "{'descr': '<f8', 'fortran_order': False, 'shape': (" << a << ", " << b << "), }";
      const std::string text = dict.str();
      // (A count beyond int64 stays as it is: it fails Fits either way, and times 8 it could
      // overflow even 128 bits.)
      const Int128 count = Int128(a) * b;
      const Int128 bytes = Fits(count) ? count * 8 : count;
      try {
        const shade::io::NpyHeader h =
            shade::io::ParseNpyHeaderDict(text.data(), text.size(), "<test>");
        // A header that parses reports its data size exactly or throws when it cannot.
        try {
          EXPECT_EQ(Int128(h.DataBytes()), bytes);
        } catch (const shade::Error&) {
          EXPECT_FALSE(Fits(bytes)) << a << " x " << b;
        }
      } catch (const shade::Error&) {
        const Int128 nonzero_count = Int128(a == 0 ? 1 : a) * (b == 0 ? 1 : b);
        EXPECT_FALSE(Fits(bytes) && Fits(nonzero_count) && Fits(nonzero_count * 8))
            << a << " x " << b;
      }
    }
  }
}

}  // namespace
