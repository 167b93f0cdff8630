// Storage: deleter bookkeeping and allocation through the device's registered allocator
// (memory/allocator.h), with placement construction of non-trivial element types.
#include "shade/memory/storage.h"

#include <unistd.h>

#include <algorithm>
#include <cstdint>

#include "shade/memory/alloc.h"
#include "shade/memory/allocator.h"

namespace shade {

std::size_t MaxStorageBytes() {
  // Asking the system for more than it has only fails later (or aborts under sanitizers);
  // refuse it up front with a message naming the request.
  static const std::size_t limit = [] {
    const long pages = sysconf(_SC_PHYS_PAGES);    // NOLINT(runtime/int)
    const long page_size = sysconf(_SC_PAGESIZE);  // NOLINT(runtime/int)
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

namespace {
// Frees the data a storage just let go of with whichever deleter it had (the plain pointer or
// the std::function; at most one is set), unless it is null or the block that replaced it.
void FreeReplaced(void* old, const void* replacement, MemoryDeleter plain,
                  const DataDeleter& deleter) noexcept {
  if (old == nullptr || old == replacement) return;
  if (plain) {
    plain(old);
  } else if (deleter) {
    deleter(old);
  }
}
}  // namespace

void StorageImpl::reset() noexcept {
  void* old = data_;
  const MemoryDeleter plain = plain_deleter_;
  DataDeleter d = std::move(deleter_);
  data_ = nullptr;
  plain_deleter_ = nullptr;
  deleter_ = nullptr;
  capacity_ = 0;
  FreeReplaced(old, nullptr, plain, d);
}

void StorageImpl::ResetData(void* ptr, std::size_t capacity, DataDeleter deleter) noexcept {
  // A std::function holding a plain function pointer is stored as the pointer.
  if (!deleter) return ResetData(ptr, capacity, MemoryDeleter(nullptr));
  using NoexceptDeleter = void (*)(void*) noexcept;  // a distinct type since C++17
  if (const MemoryDeleter* fn = deleter.target<MemoryDeleter>()) {
    return ResetData(ptr, capacity, *fn);
  }
  if (const NoexceptDeleter* fn = deleter.target<NoexceptDeleter>()) {
    return ResetData(ptr, capacity, MemoryDeleter(*fn));
  }
  // Adopt the new block first so the object is consistent even if the old deleter re-enters.
  void* old = data_;
  const MemoryDeleter old_plain = plain_deleter_;
  DataDeleter old_deleter = std::move(deleter_);
  data_ = ptr;
  plain_deleter_ = nullptr;
  deleter_ = std::move(deleter);
  capacity_ = capacity;
  FreeReplaced(old, ptr, old_plain, old_deleter);
}

void StorageImpl::ResetData(void* ptr, std::size_t capacity, MemoryDeleter deleter) noexcept {
  void* old = data_;
  const MemoryDeleter old_plain = plain_deleter_;
  DataDeleter old_deleter;
  if (deleter_) old_deleter = std::move(deleter_);
  data_ = ptr;
  plain_deleter_ = deleter;
  deleter_ = nullptr;
  capacity_ = capacity;
  FreeReplaced(old, ptr, old_plain, old_deleter);
}

void* StorageImpl::AllocateData(TypeMeta meta, std::size_t nbytes) {
  SHADE_CHECK_TYPE(meta.initialized())
      << "Storage: cannot allocate for an uninitialized element type";
  SHADE_CHECK_LE(nbytes, MaxStorageBytes())
      << "Storage: allocation request of " << nbytes << " bytes exceeds the machine's memory ("
      << MaxStorageBytes() << " bytes)";
  // Every device's memory comes from its registered allocator (memory/allocator.h); a device
  // without one (gpu in a CPU-only build) fails here, naming it.
  Allocator& allocator = GetAllocator(dev_mask_);
  if (nbytes == 0) {
    data_type_ = meta;
    ResetData(nullptr, 0, MemoryDeleter(nullptr));
    return nullptr;
  }
  // The cap applies to every device's allocator, custom ones included.
  CheckAllocationLimit(nbytes, "Storage");
  if (!meta.ctor()) {
    const Allocation a = allocator.Allocate(nbytes);
    data_type_ = meta;
    ResetData(a.ptr, nbytes, a.deleter);
    return a.ptr;
  }
  // Non-trivial element types are constructed and destroyed in place: host memory only.
  SHADE_CHECK_TYPE_EQ(dev_mask_, cpu::kDevMask)
      << "Storage: element type " << meta.name()
      << " needs construction, which only host memory allows";
  const Allocation a = allocator.Allocate(nbytes);
  const std::size_t n = nbytes / meta.itemsize();
  try {
    meta.ctor()(a.ptr, n);
  } catch (...) {
    a.deleter(a.ptr);
    throw;
  }
  const detail::TypeDtor dtor = meta.dtor();
  const MemoryDeleter free_fn = a.deleter;
  data_type_ = meta;
  ResetData(a.ptr, nbytes, DataDeleter([n, dtor, free_fn](void* p) {
              dtor(p, n);
              free_fn(p);
            }));
  return a.ptr;
}

Storage Storage::Allocate(int dev_mask, TypeMeta data_type, std::size_t nbytes) {
  Storage s(dev_mask, data_type);
  s.impl_->AllocateData(data_type, nbytes);
  return s;
}

}  // namespace shade
