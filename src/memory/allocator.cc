// The per-device allocator registry and the cpu allocator.
#include "shade/memory/allocator.h"

#include <atomic>

#include "shade/base/device.h"
#include "shade/base/error.h"
#include "shade/memory/alloc.h"

namespace shade {
namespace {

class HostAllocator final : public Allocator {
 public:
  const char* name() const noexcept override { return "cpu"; }
  Allocation Allocate(std::size_t nbytes) override {
    Allocation a;
    if (nbytes <= kSmallAllocBytes) {
      a.ptr = SmallAlignedAlloc(nbytes, &a.deleter);
    } else {
      a.ptr = AlignedAlloc(nbytes);
      a.deleter = &AlignedFree;
    }
    return a;
  }
};

HostAllocator g_host_allocator;

// One slot per device bit of base/device.h (cpu = bit 0, gpu = bit 1).
constexpr int kDeviceSlots = 2;
std::atomic<Allocator*> g_allocators[kDeviceSlots] = {{&g_host_allocator}, {nullptr}};

int SlotOf(int dev_mask, const char* what) {
  if (dev_mask == cpu::kDevMask) return 0;
  if (dev_mask == gpu::kDevMask) return 1;
  SHADE_THROW << what << ": unknown device mask " << dev_mask;
}

}  // namespace

Allocator& CpuAllocator() noexcept {
  return g_host_allocator;
}

Allocator& GetAllocator(int dev_mask) {
  Allocator* a = g_allocators[SlotOf(dev_mask, "GetAllocator")].load(std::memory_order_acquire);
  SHADE_CHECK(a != nullptr) << "no allocator for device " << DevMaskName(dev_mask)
                            << ": this build has no " << DevMaskName(dev_mask)
                            << " backend (CPU only)";
  return *a;
}

Allocator* SetAllocator(int dev_mask, Allocator* allocator) {
  const int slot = SlotOf(dev_mask, "SetAllocator");
  if (allocator == nullptr && slot == 0) allocator = &g_host_allocator;
  return g_allocators[slot].exchange(allocator, std::memory_order_acq_rel);
}

}  // namespace shade
