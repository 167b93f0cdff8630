// THStorage: the out-of-line bodies of shade/compat/th.h's storage functions, compiled once
// for the eight TH real types.
#include <algorithm>
#include <cstring>

#include "shade/compat/th.h"

namespace shade {
namespace th {

// Inside StorageOps a member hides the function template of the same name, so the calls that
// spell <T> name the template as th::X<T>.

template <typename T>
index_t StorageOps<T>::StorageSize(const Storage<T>* s) {
  SHADE_CHECK(s != nullptr) << "THStorage: null storage";
  return static_cast<index_t>(s->storage.capacity() / sizeof(T));
}

template <typename T>
Storage<T>* StorageOps<T>::StorageNew() {
  auto* s = new Storage<T>();
  s->storage = shade::Storage(cpu::kDevMask, TypeMeta::Make<T>());
  return s;
}

template <typename T>
void StorageOps<T>::StorageResize(Storage<T>* s, index_t size) {
  SHADE_CHECK(s != nullptr) << "THStorage_resize: null storage";
  SHADE_CHECK_GE(size, 0) << "THStorage_resize: size " << size << " is negative";
  const index_t nbytes = CheckedMul(size, static_cast<index_t>(sizeof(T)), "THStorage size");
  SHADE_CHECK_LE(static_cast<std::size_t>(nbytes), MaxStorageBytes())
      << "THStorage_resize: " << nbytes << " bytes exceed the machine's memory";
  StorageImpl* impl = s->storage.unsafeGetStorageImpl();
  if (size == 0) {
    impl->ResetData(nullptr, 0, MemoryDeleter(nullptr));
    return;
  }
  void* fresh = AlignedAlloc(static_cast<std::size_t>(nbytes));
  const std::size_t keep = std::min(impl->capacity(), static_cast<std::size_t>(nbytes));
  if (keep > 0) std::memcpy(fresh, impl->data(), keep);
  impl->ResetData(fresh, static_cast<std::size_t>(nbytes), MemoryDeleter(&AlignedFree));
}

template <typename T>
Storage<T>* StorageOps<T>::StorageNewWithSize(index_t size) {
  Storage<T>* s = th::StorageNew<T>();
  try {
    StorageResize(s, size);
  } catch (...) {
    delete s;
    throw;
  }
  return s;
}

template <typename T>
Storage<T>* StorageOps<T>::StorageNewWithData(T* data, index_t size) {
  SHADE_CHECK_GE(size, 0) << "THStorage_newWithData: size " << size << " is negative";
  SHADE_CHECK(data != nullptr || size == 0)
      << "THStorage_newWithData: null data for " << size << " elements";
  const index_t nbytes = CheckedMul(size, static_cast<index_t>(sizeof(T)), "THStorage size");
  auto* s = new Storage<T>();
  s->storage = shade::Storage(data, cpu::kDevMask, TypeMeta::Make<T>(),
                              static_cast<std::size_t>(nbytes), MemoryDeleter(&AlignedFree));
  return s;
}

template <typename T>
void StorageOps<T>::StorageRetain(Storage<T>* s) {
  if (s) s->refcount.fetch_add(1, std::memory_order_relaxed);
}

template <typename T>
void StorageOps<T>::StorageFree(Storage<T>* s) {
  if (!s) return;
  if (s->refcount.fetch_sub(1, std::memory_order_acq_rel) == 1) delete s;
}

template <typename T>
T* StorageOps<T>::StorageData(const Storage<T>* s) {
  SHADE_CHECK(s != nullptr) << "THStorage_data: null storage";
  return static_cast<T*>(s->storage.data());
}

template <typename T>
void StorageOps<T>::CheckStorageIndex(const Storage<T>* s, index_t idx, const char* fn) {
  const index_t n = StorageSize(s);
  SHADE_CHECK_INDEX(idx >= 0 && idx < n)
      << fn << ": index " << idx << " out of bounds for a storage of " << n << " elements";
}

template <typename T>
void StorageOps<T>::StorageFill(Storage<T>* s, T value) {
  T* d = StorageData(s);
  std::fill(d, d + StorageSize(s), value);
}

template <typename T>
void StorageOps<T>::StorageCopy(Storage<T>* dst, const Storage<T>* src) {
  SHADE_CHECK_SHAPE_EQ(StorageSize(dst), StorageSize(src))
      << "THStorage_copy: size mismatch (destination " << StorageSize(dst) << ", source "
      << StorageSize(src) << " elements)";
  if (StorageSize(src) > 0)
    std::memmove(StorageData(dst), StorageData(src), dst->storage.capacity());
}

template struct StorageOps<std::uint8_t>;
template struct StorageOps<std::int8_t>;
template struct StorageOps<std::int16_t>;
template struct StorageOps<std::int32_t>;
template struct StorageOps<std::int64_t>;
template struct StorageOps<float>;
template struct StorageOps<double>;
template struct StorageOps<half_t>;

}  // namespace th
}  // namespace shade
