/*!
 * \file storage.h
 * \brief `Storage`: the refcounted owner of a block of bytes (TH's THStorage, Caffe2's
 *  Storage/StorageImpl): device, element TypeMeta, data pointer with its deleter, capacity.
 *
 * A Storage is a handle: copies share one StorageImpl and `use_count()` says how many. The
 * deleter runs once, when the last handle goes or the data is replaced. A null deleter means
 * the memory is borrowed (Caffe2's aliasing case): the storage never frees it.
 */
#ifndef SHADE_MEMORY_STORAGE_H_
#define SHADE_MEMORY_STORAGE_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <type_traits>
#include <utility>

#include "shade/base/device.h"
#include "shade/base/error.h"
#include "shade/base/type_meta.h"
#include "shade/memory/intrusive_ptr.h"

namespace shade {

/*! \brief Plain deleter type; a null one means "do not free" (borrowed memory). */
using MemoryDeleter = void (*)(void*);

/*! \brief Type-erased deleter as stored; empty means borrowed memory. */
using DataDeleter = std::function<void(void*)>;

namespace detail {
/*! \brief Normalises any deleter argument; a null function pointer or nullptr yields "none". */
template <typename Deleter>
DataDeleter MakeDeleter(Deleter d) {
  if constexpr (std::is_same<Deleter, std::nullptr_t>::value) {
    return DataDeleter();
  } else if constexpr (std::is_pointer<Deleter>::value) {
    return d ? DataDeleter(d) : DataDeleter();
  } else {
    return DataDeleter(std::move(d));
  }
}
}  // namespace detail

/*! \brief Largest single host allocation a Storage will request (the machine's physical memory). */
std::size_t MaxStorageBytes();

/*! \brief The shared state behind Storage handles. */
class StorageImpl : public intrusive_ptr_target {
 public:
  /*! \brief Empty storage on a device, element type unset. */
  explicit StorageImpl(int dev_mask) : dev_mask_(dev_mask) {}
  /*! \brief Empty storage on a device with an element type. */
  StorageImpl(int dev_mask, TypeMeta data_type) : data_type_(data_type), dev_mask_(dev_mask) {}
  /*!
   * \brief Wraps `src` (capacity bytes) of type `data_type`; `d` frees it, a null `d` borrows.
   *  Throws when `data_type` is uninitialized (Caffe2's check).
   */
  template <typename Deleter = MemoryDeleter>
  StorageImpl(int dev_mask, TypeMeta data_type, void* src, std::size_t capacity,
              Deleter d = nullptr)
      : data_type_(data_type), dev_mask_(dev_mask) {
    SHADE_CHECK(data_type_.initialized())
        << "To create storage with a raw external pointer you need to pass in an "
           "initialized data_type(TypeMeta).";
    ResetData(src, capacity, detail::MakeDeleter(std::move(d)));
  }
  /*!
   * \brief Owned storage whose `capacity` bytes at `data` lie in `block`, the allocation that
   *  holds this StorageImpl too (NDArray::Empty's small arrays): the bytes are released with
   *  the block, so replacing or resetting the data frees nothing. `data_type` must be
   *  initialized and trivially constructible.
   */
  StorageImpl(SharedBlock* block, int dev_mask, TypeMeta data_type, void* data,
              std::size_t capacity) noexcept
      : data_(data),
        plain_deleter_(&KeepBlockData),
        capacity_(capacity),
        data_type_(data_type),
        dev_mask_(dev_mask),
        block_(block) {}
  StorageImpl(const StorageImpl&) = delete;
  StorageImpl& operator=(const StorageImpl&) = delete;
  ~StorageImpl() {
    // The common case (a plain deleter, or none) without moving a std::function around.
    if (!deleter_) {
      if (data_ && plain_deleter_) plain_deleter_(data_);
    } else {
      reset();
    }
  }
  /*! \brief The allocation this object lives in, or null when it was `new`ed (intrusive_ptr.h). */
  SharedBlock* intrusive_block() const noexcept { return block_; }

  /*! \brief Frees (or forgets, when borrowed) the data; capacity becomes 0. */
  void reset() noexcept;
  /*! \brief Replaces the data: frees the old block, adopts `ptr` with `deleter`. */
  void ResetData(void* ptr, std::size_t capacity, DataDeleter deleter) noexcept;
  /*! \brief ResetData with a plain deleter (null: borrowed), kept without a std::function. */
  void ResetData(void* ptr, std::size_t capacity, MemoryDeleter deleter) noexcept;
  /*! \brief Takes `src` as the new data (Caffe2's UniqueStorageShareExternalPointer body). */
  template <typename Deleter = MemoryDeleter>
  void UniqueStorageShareExternalPointer(void* src, TypeMeta data_type, std::size_t capacity,
                                         Deleter d = nullptr) {
    SHADE_CHECK(data_type.initialized())
        << "To share with a raw external pointer you need to have an initialized data_type.";
    data_type_ = data_type;
    ResetData(src, capacity, detail::MakeDeleter(std::move(d)));
  }
  /*!
   * \brief Replaces the data with `nbytes` of fresh 64-byte aligned host memory typed `meta`
   *  (non-trivial types default-constructed, destroyed on release); returns it. Throws for a
   *  non-CPU device, an uninitialized type or a request larger than the machine's memory.
   */
  void* AllocateData(TypeMeta meta, std::size_t nbytes);
  /*! \brief True when the element type is T. */
  template <typename T>
  bool IsType() const noexcept {
    return data_type_.Match<T>();
  }
  /*! \brief Start of the data (null before allocation). */
  void* data() const noexcept { return data_; }
  /*! \brief Bytes available at data(). */
  std::size_t capacity() const noexcept { return capacity_; }
  /*! \brief Element type. */
  TypeMeta dtype() const noexcept { return data_type_; }
  /*! \brief Changes the element type (the bytes are not touched). */
  void set_dtype(TypeMeta meta) noexcept { data_type_ = meta; }
  /*! \brief Bytes per element. */
  std::size_t itemsize() const noexcept { return data_type_.itemsize(); }
  /*! \brief Device mask (cpu::kDevMask, gpu::kDevMask). */
  int dev_mask() const noexcept { return dev_mask_; }
  /*! \brief True when the storage frees its data (false for borrowed memory). */
  bool owns_data() const noexcept { return plain_deleter_ || static_cast<bool>(deleter_); }
  /*!
   * \brief Write counter of the elements (PyTorch's version counter, shared by every view of
   *  the storage): autograd remembers it for the arrays a graph node saves and refuses a
   *  backward that would read elements written since.
   */
  std::uint32_t version() const noexcept { return version_.load(std::memory_order_relaxed); }
  /*!
   * \brief Counts one write. A load and a store, not a locked increment: concurrent writers may
   *  lose a count, but the counter still moves away from any saved value, which is all the
   *  check needs, and no locked instruction lands on the in-place write paths.
   */
  void bump_version() noexcept {
    version_.store(version_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }

 private:
  // Deleter of data that lives in this object's SharedBlock: the block frees it.
  static void KeepBlockData(void*) noexcept {}

  void* data_ = nullptr;
  // At most one of the two is set: plain function pointers (every deleter shade itself
  // installs) skip std::function's call and management overhead.
  MemoryDeleter plain_deleter_ = nullptr;
  DataDeleter deleter_;
  std::size_t capacity_ = 0;
  TypeMeta data_type_;
  int dev_mask_;
  std::atomic<std::uint32_t> version_{0};  // in the padding after dev_mask_: no size change
  SharedBlock* block_ = nullptr;
};

/*! \brief Refcounted handle on a StorageImpl (what tensors hold). */
class Storage {
 public:
  /*! \brief Undefined handle (no StorageImpl). */
  Storage() = default;
  /*! \brief Empty storage on a device, optionally typed. */
  explicit Storage(int dev_mask, TypeMeta data_type = TypeMeta())
      : impl_(make_intrusive<StorageImpl>(dev_mask, data_type)) {}
  /*! \brief Handle holding `impl`'s reference (a null `impl` gives an undefined handle). */
  explicit Storage(intrusive_ptr<StorageImpl> impl) noexcept : impl_(std::move(impl)) {}
  /*! \brief Wraps external memory; `d` frees it, a null `d` borrows it. */
  template <typename Deleter = MemoryDeleter>
  Storage(void* src, int dev_mask, TypeMeta data_type, std::size_t capacity, Deleter d = nullptr)
      : impl_(make_intrusive<StorageImpl>(dev_mask, data_type, src, capacity, std::move(d))) {}

  /*!
   * \brief New storage with `nbytes` of 64-byte aligned host memory for `numel` elements of
   *  `data_type`; non-trivial types are default-constructed and destroyed on release.
   *  Throws shade::Error for a non-CPU device, `numel * itemsize > nbytes`, or a request larger
   *  than the machine's memory.
   */
  static Storage Allocate(int dev_mask, TypeMeta data_type, std::size_t nbytes);

  /*! \brief True when the handle has a StorageImpl. */
  bool defined() const noexcept { return impl_.defined(); }
  /*! \brief True when the handle has a StorageImpl. */
  explicit operator bool() const noexcept { return impl_.defined(); }
  /*! \brief Frees the data (all sharers see the empty storage). */
  void reset() { Impl()->reset(); }
  /*! \brief True when the element type is T. */
  template <typename T>
  bool IsType() const {
    return Impl()->IsType<T>();
  }
  /*! \brief Start of the data (null before allocation or for an undefined handle). */
  void* data() const noexcept { return impl_ ? impl_->data() : nullptr; }
  /*! \brief Bytes available (0 for an undefined handle). */
  std::size_t capacity() const noexcept { return impl_ ? impl_->capacity() : 0; }
  /*! \brief Element type (uninitialized for an undefined handle). */
  TypeMeta dtype() const noexcept { return impl_ ? impl_->dtype() : TypeMeta(); }
  /*! \brief Changes the element type. */
  void set_dtype(TypeMeta meta) { Impl()->set_dtype(meta); }
  /*! \brief Bytes per element. */
  std::size_t itemsize() const noexcept { return dtype().itemsize(); }
  /*! \brief Device mask. */
  int dev_mask() const { return Impl()->dev_mask(); }
  /*! \brief Number of handles sharing the StorageImpl. */
  long use_count() const noexcept { return static_cast<long>(impl_.use_count()); }  // NOLINT
  /*! \brief True when this is the only handle. */
  bool unique() const noexcept { return impl_.unique(); }
  /*! \brief True when both handles share one StorageImpl. */
  bool is_alias_of(const Storage& o) const noexcept { return impl_ == o.impl_; }
  /*! \brief The StorageImpl. */
  StorageImpl* unsafeGetStorageImpl() const noexcept { return impl_.get(); }
  /*!
   * \brief When this is the only handle on a StorageImpl that lives in `block`, destroys it in
   *  place without releasing its share of the block (the caller, the block's other object,
   *  is being destroyed and accounts for it) and returns true; otherwise changes nothing.
   */
  bool DestroyIfUniqueIn(const SharedBlock* block) noexcept {
    StorageImpl* st = impl_.get();
    if (st == nullptr || st->intrusive_block() != block || !impl_.unique()) return false;
    impl_.Detach();
    st->~StorageImpl();
    return true;
  }

  /*!
   * \brief Replaces the data of a storage nobody else holds with external memory.
   *  Throws (Caffe2's message) when use_count != 1.
   */
  template <typename Deleter = MemoryDeleter>
  void UniqueStorageShareExternalPointer(void* src, TypeMeta data_type, std::size_t capacity,
                                         Deleter d = nullptr) {
    SHADE_CHECK(impl_.unique())
        << "UniqueStorageShareExternalPointer can only be called when use_count == 1 (use_count is "
        << use_count() << ")";
    impl_->UniqueStorageShareExternalPointer(src, data_type, capacity, std::move(d));
  }

 private:
  StorageImpl* Impl() const {
    SHADE_CHECK(impl_.defined()) << "Storage: the handle is undefined (no StorageImpl)";
    return impl_.get();
  }
  intrusive_ptr<StorageImpl> impl_;
};

}  // namespace shade

#endif  // SHADE_MEMORY_STORAGE_H_
