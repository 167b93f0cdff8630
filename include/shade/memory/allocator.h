/*!
 * \file allocator.h
 * \brief The per-device allocator interface: the one way Storage obtains memory.
 *
 * Each device has one registered `Allocator`. The cpu one ships with the library (64-byte
 * aligned host memory, small blocks from a per-thread size-class cache); a backend adds its
 * device by registering its own (the CUDA caching allocator, pinned host memory), and a test can
 * wrap one to count or fail allocations. Storage asks `GetAllocator(dev_mask)`, so a device
 * without a registered allocator fails with a shade::Error that names it instead of handing
 * host memory to device code.
 */
#ifndef SHADE_MEMORY_ALLOCATOR_H_
#define SHADE_MEMORY_ALLOCATOR_H_

#include <cstddef>

#include "shade/memory/storage.h"

namespace shade {

/*! \brief Memory handed out by an Allocator: the block and the plain function that frees it. */
struct Allocation {
  /*! \brief First byte; aligned to at least kAlignBytes. */
  void* ptr = nullptr;
  /*! \brief Frees `ptr` (never null for a successful allocation). */
  MemoryDeleter deleter = nullptr;
};

/*! \brief Allocates raw memory of one device. Implementations must be thread-safe. */
class Allocator {
 public:
  virtual ~Allocator() = default;
  /*! \brief Name used in messages ("cpu", "gpu", "cpu pinned"). */
  virtual const char* name() const noexcept = 0;
  /*! \brief `nbytes` (> 0) of memory aligned to at least kAlignBytes; throws shade::Error. */
  virtual Allocation Allocate(std::size_t nbytes) = 0;
};

/*! \brief The library's cpu allocator (AlignedAlloc; blocks up to kSmallAllocBytes cached). */
Allocator& CpuAllocator() noexcept;

/*!
 * \brief The allocator registered for `dev_mask` (cpu::kDevMask, gpu::kDevMask). Throws
 *  shade::Error naming the device when it has none (a gpu array in a build without CUDA).
 */
Allocator& GetAllocator(int dev_mask);

/*!
 * \brief Registers `allocator` for `dev_mask` and returns the previous one (null if none);
 *  null unregisters (the cpu device falls back to CpuAllocator()). The caller keeps ownership
 *  and must keep it alive while memory it handed out may still be freed through its deleters.
 */
Allocator* SetAllocator(int dev_mask, Allocator* allocator);

/*!
 * \brief Sets the process-wide cap on a single allocation, in bytes (0, the default, means no
 *  cap) and returns the previous cap. A larger request (a Storage through any device's
 *  allocator, or AlignedAlloc) throws shade::Error naming the requested size and the cap
 *  instead of reaching the system allocator, so an oversized shape cannot end in
 *  std::bad_alloc or the OOM killer. Safe to call from any thread.
 */
std::size_t SetMaxAllocationBytes(std::size_t bytes) noexcept;

/*! \brief The current cap of SetMaxAllocationBytes (0: none). */
std::size_t MaxAllocationBytes() noexcept;

/*! \brief Throws shade::Error naming `what`, `bytes` and the cap when `bytes` exceeds the cap. */
void CheckAllocationLimit(std::size_t bytes, const char* what);

}  // namespace shade

#endif  // SHADE_MEMORY_ALLOCATOR_H_
