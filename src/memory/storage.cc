// Storage: deleter bookkeeping and the CPU allocation path (AlignedAlloc + placement construction).
#include "shade/memory/storage.h"

#include <unistd.h>

#include <algorithm>
#include <cstdint>

#include "shade/memory/alloc.h"

namespace shade {

std::size_t MaxStorageBytes() {
  // Asking the system for more than it has only fails later (or aborts under sanitizers);
  // refuse it up front with a message naming the request.
  static const std::size_t limit = [] {
    const long pages = sysconf(_SC_PHYS_PAGES);      // NOLINT(runtime/int)
    const long page_size = sysconf(_SC_PAGESIZE);    // NOLINT(runtime/int)
    if (pages <= 0 || page_size <= 0) return std::size_t(1) << 40;
    std::size_t bytes = 0;
    if (__builtin_mul_overflow(static_cast<std::size_t>(pages), static_cast<std::size_t>(page_size),
                               &bytes)) {
      return SIZE_MAX / 2;
    }
    return std::min(bytes, std::size_t(1) << 40);
  }();
  return limit;
}

void StorageImpl::reset() noexcept {
  void* old = data_;
  DataDeleter d = std::move(deleter_);
  data_ = nullptr;
  deleter_ = nullptr;
  capacity_ = 0;
  if (old && d) d(old);
}

void StorageImpl::ResetData(void* ptr, std::size_t capacity, DataDeleter deleter) noexcept {
  // Adopt the new block first so the object is consistent even if the old deleter re-enters.
  void* old = data_;
  DataDeleter old_deleter = std::move(deleter_);
  data_ = ptr;
  deleter_ = std::move(deleter);
  capacity_ = capacity;
  if (old && old_deleter && old != ptr) old_deleter(old);
}

Storage Storage::Allocate(int dev_mask, TypeMeta data_type, std::size_t nbytes) {
  SHADE_CHECK_EQ(dev_mask, cpu::kDevMask)
      << "Storage::Allocate: no allocator for device " << DevMaskName(dev_mask)
      << " in this build (CPU only)";
  SHADE_CHECK(data_type.initialized()) << "Storage::Allocate: the element type is uninitialized";
  SHADE_CHECK_LE(nbytes, MaxStorageBytes())
      << "Storage::Allocate: request of " << nbytes << " bytes exceeds the machine's memory ("
      << MaxStorageBytes() << " bytes)";
  Storage s(dev_mask, data_type);
  if (nbytes == 0) return s;
  void* ptr = AlignedAlloc(nbytes);
  if (data_type.ctor()) {
    const std::size_t n = nbytes / data_type.itemsize();
    try {
      data_type.ctor()(ptr, n);
    } catch (...) {
      AlignedFree(ptr);
      throw;
    }
    const detail::TypeDtor dtor = data_type.dtor();
    s.impl_->ResetData(ptr, nbytes, [n, dtor](void* p) {
      dtor(p, n);
      AlignedFree(p);
    });
  } else {
    s.impl_->ResetData(ptr, nbytes, &AlignedFree);
  }
  return s;
}

}  // namespace shade
