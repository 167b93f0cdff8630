// The per-device allocator interface (memory/allocator.h): Storage takes its memory from the
// allocator registered for its device; a device without one fails with an error naming it.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <string>

#include "shade/base/device.h"
#include "shade/base/error.h"
#include "shade/memory/alloc.h"
#include "shade/memory/allocator.h"
#include "shade/memory/storage.h"

namespace {

using shade::Allocation;
using shade::Allocator;
using shade::Storage;
using shade::TypeMeta;

// Wraps the cpu allocator and counts what passes through it.
class CountingAllocator final : public Allocator {
 public:
  const char* name() const noexcept override { return "counting cpu"; }
  Allocation Allocate(std::size_t nbytes) override {
    ++allocations;
    bytes += nbytes;
    return shade::CpuAllocator().Allocate(nbytes);
  }
  std::atomic<int> allocations{0};
  std::atomic<std::size_t> bytes{0};
};

// Registers an allocator for the test's duration.
class ScopedAllocator {
 public:
  ScopedAllocator(int dev_mask, Allocator* a) : dev_mask_(dev_mask) {
    previous_ = shade::SetAllocator(dev_mask, a);
  }
  ~ScopedAllocator() { shade::SetAllocator(dev_mask_, previous_); }

 private:
  int dev_mask_;
  Allocator* previous_;
};

TEST(Allocator, CpuIsRegisteredByDefault) {
  EXPECT_EQ(&shade::GetAllocator(shade::cpu::kDevMask), &shade::CpuAllocator());
  EXPECT_STREQ(shade::CpuAllocator().name(), "cpu");
}

TEST(Allocator, CpuAllocationsAreAlignedForSmallAndLargeSizes) {
  for (std::size_t n : {std::size_t(1), std::size_t(63), std::size_t(512), std::size_t(513),
                        std::size_t(1) << 20}) {
    const Allocation a = shade::CpuAllocator().Allocate(n);
    ASSERT_NE(a.ptr, nullptr);
    ASSERT_NE(a.deleter, nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a.ptr) % shade::kAlignBytes, 0u) << n;
    static_cast<unsigned char*>(a.ptr)[n - 1] = 7;  // the whole block is writable
    a.deleter(a.ptr);
  }
}

TEST(Allocator, StorageAllocatesThroughTheRegisteredAllocator) {
  CountingAllocator counting;
  {
    ScopedAllocator scope(shade::cpu::kDevMask, &counting);
    Storage small = Storage::Allocate(shade::cpu::kDevMask, TypeMeta::Make<float>(), 16);
    Storage large = Storage::Allocate(shade::cpu::kDevMask, TypeMeta::Make<double>(), 1 << 16);
    Storage empty = Storage::Allocate(shade::cpu::kDevMask, TypeMeta::Make<double>(), 0);
    EXPECT_EQ(counting.allocations.load(), 2);  // no allocator call for 0 bytes
    EXPECT_EQ(counting.bytes.load(), 16u + (1u << 16));
    EXPECT_NE(small.data(), nullptr);
    EXPECT_EQ(empty.data(), nullptr);
  }
  EXPECT_EQ(&shade::GetAllocator(shade::cpu::kDevMask), &shade::CpuAllocator());
}

TEST(Allocator, NonTrivialTypesAreConstructedInAllocatorMemory) {
  CountingAllocator counting;
  ScopedAllocator scope(shade::cpu::kDevMask, &counting);
  Storage s = Storage::Allocate(shade::cpu::kDevMask, TypeMeta::Make<std::string>(),
                                3 * sizeof(std::string));
  auto* strings = static_cast<std::string*>(s.data());
  strings[2] = "constructed";
  EXPECT_EQ(strings[0], "");
  EXPECT_EQ(counting.allocations.load(), 1);
}

TEST(Allocator, GpuWithoutBackendNamesTheDevice) {
  try {
    Storage::Allocate(shade::gpu::kDevMask, TypeMeta::Make<float>(), 64);
    FAIL() << "expected shade::Error";
  } catch (const shade::Error& e) {
    EXPECT_NE(std::string(e.what()).find("no allocator for device gpu"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(shade::GetAllocator(1 << 5), shade::Error);
}

TEST(Allocator, ARegisteredGpuAllocatorIsUsed) {
  CountingAllocator pretend_device;  // host memory standing in for a device allocator
  ScopedAllocator scope(shade::gpu::kDevMask, &pretend_device);
  Storage s = Storage::Allocate(shade::gpu::kDevMask, TypeMeta::Make<float>(), 4096);
  EXPECT_EQ(pretend_device.allocations.load(), 1);
  EXPECT_EQ(s.dev_mask(), shade::gpu::kDevMask);
  // Only host memory can hold types that need construction.
  EXPECT_THROW(Storage::Allocate(shade::gpu::kDevMask, TypeMeta::Make<std::string>(), 64),
               shade::Error);
}

}  // namespace

TEST(Allocator, AlignedMallocPitchPadsRowsToTheRequestedAlignment) {
  for (const std::size_t align : {std::size_t{16}, shade::kAlignBytes, std::size_t{256}}) {
    for (const std::size_t lspace : {std::size_t{1}, std::size_t{16}, std::size_t{100}}) {
      std::size_t pitch = 0;
      void* block = shade::AlignedMallocPitch(&pitch, lspace, 3, align);
      // The pitch is the smallest multiple of align that holds a row.
      EXPECT_EQ(pitch, (lspace + align - 1) / align * align) << lspace << " / " << align;
      EXPECT_EQ(reinterpret_cast<std::uintptr_t>(block) % align, 0u) << align;
      shade::AlignedFree(block);
    }
  }
  std::size_t pitch = 7;
  EXPECT_THROW(shade::AlignedMallocPitch(&pitch, 10, 2, 0), shade::Error);
  EXPECT_THROW(shade::AlignedMallocPitch(&pitch, 10, 2, 24), shade::Error);
  EXPECT_EQ(pitch, 7u);  // untouched when it throws
  // The allocation cap applies (mshadow's packet::AlignedMallocPitch goes through here too).
  const std::size_t previous = shade::SetMaxAllocationBytes(1024);
  EXPECT_THROW(shade::AlignedMallocPitch(&pitch, 1000, 2, 16), shade::Error);
  shade::SetMaxAllocationBytes(previous);
}
