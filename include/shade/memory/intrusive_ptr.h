/*!
 * \file intrusive_ptr.h
 * \brief Intrusive reference counting: `intrusive_ptr_target` carries the count, `intrusive_ptr`
 *  holds it. One word per handle (a shared_ptr is two), the count lives in the object.
 *
 * The count is atomic, so handles may be copied and dropped from several threads at once. The
 * target's destructor is not virtual: `intrusive_ptr<T>` deletes through `T*`, so a handle must
 * name the most derived type (shade never upcasts one).
 *
 * Shared blocks: several targets may live in one allocation (`SharedBlock`, used for small
 * arrays: NDArrayImpl + StorageImpl + data). A target that reports its block through a member
 * `SharedBlock* intrusive_block() const` is destroyed in place when its count reaches zero and
 * the block is freed when its last target is gone; other targets are `delete`d.
 */
#ifndef SHADE_MEMORY_INTRUSIVE_PTR_H_
#define SHADE_MEMORY_INTRUSIVE_PTR_H_

#include <atomic>
#include <cstdint>
#include <utility>

namespace shade {

template <typename T>
class intrusive_ptr;

/*!
 * \brief Header of one allocation holding several intrusively counted targets: counts the
 *  targets not yet destroyed and frees the allocation with `free_fn` after the last one.
 */
struct SharedBlock {
  /*! \brief Targets constructed in the block and not yet destroyed. */
  std::atomic<std::int32_t> live;
  /*! \brief Releases the whole allocation (the block header is at its start). */
  void (*free_fn)(void*);

  /*! \brief Header for `targets` objects; `free_fn` frees the allocation starting at `this`. */
  SharedBlock(std::int32_t targets, void (*free_fn_in)(void*)) noexcept
      : live(targets), free_fn(free_fn_in) {}
  /*! \brief One target is gone; frees the block after the last. */
  void Release() noexcept {
    // A count of 1 read with acquire means every other target is already destroyed and nobody
    // can reach this block any more: skip the atomic read-modify-write (one fewer locked
    // instruction on the common path, where the array dies after its storage).
    if (live.load(std::memory_order_acquire) == 1 ||
        live.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      free_fn(this);
    }
  }
};

namespace detail {
/*! \brief Destroys a target that lives in a SharedBlock in place; others are deleted. */
template <typename T>
auto DestroyIntrusiveTarget(T* p, int) noexcept -> decltype(p->intrusive_block(), void()) {
  if (SharedBlock* block = p->intrusive_block()) {
    p->~T();
    block->Release();
  } else {
    delete p;
  }
}
/*! \brief Targets that never live in a SharedBlock. */
template <typename T>
void DestroyIntrusiveTarget(T* p, long) noexcept {  // NOLINT(runtime/int)
  delete p;
}
}  // namespace detail

/*! \brief Base of every intrusively counted object: the atomic count, nothing else. */
class intrusive_ptr_target {
 public:
  intrusive_ptr_target() noexcept = default;
  /*! \brief A copy of the object starts with its own count of zero. */
  intrusive_ptr_target(const intrusive_ptr_target&) noexcept : refcount_(0) {}
  /*! \brief Assignment never copies the count. */
  intrusive_ptr_target& operator=(const intrusive_ptr_target&) noexcept { return *this; }

 protected:
  ~intrusive_ptr_target() = default;

 private:
  template <typename T>
  friend class intrusive_ptr;
  mutable std::atomic<std::int64_t> refcount_{0};
};

/*! \brief Owning handle of an intrusive_ptr_target; copies share, the last one deletes. */
template <typename T>
class intrusive_ptr {
 public:
  /*! \brief Null handle. */
  constexpr intrusive_ptr() noexcept = default;
  /*! \brief Null handle. */
  constexpr intrusive_ptr(std::nullptr_t) noexcept {}  // NOLINT(runtime/explicit)
  /*! \brief Takes ownership of `p` (fresh from new, count 0) or adds a reference to it. */
  explicit intrusive_ptr(T* p) noexcept : ptr_(p) { Retain(); }
  /*!
   * \brief First handle on `p`, fresh from construction (count 0, not yet visible to any other
   *  thread): sets the count to 1 with a plain store instead of a locked increment.
   */
  static intrusive_ptr AdoptFresh(T* p) noexcept {
    intrusive_ptr h;
    h.ptr_ = p;
    if (p) p->refcount_.store(1, std::memory_order_relaxed);
    return h;
  }
  /*! \brief Shares the target. */
  intrusive_ptr(const intrusive_ptr& o) noexcept : ptr_(o.ptr_) { Retain(); }
  /*! \brief Steals the reference. */
  intrusive_ptr(intrusive_ptr&& o) noexcept : ptr_(o.ptr_) { o.ptr_ = nullptr; }
  ~intrusive_ptr() { Release(); }
  /*! \brief Shares `o`'s target, dropping the current one. */
  intrusive_ptr& operator=(const intrusive_ptr& o) noexcept {
    intrusive_ptr tmp(o);
    swap(tmp);
    return *this;
  }
  /*! \brief Steals `o`'s reference, dropping the current one. */
  intrusive_ptr& operator=(intrusive_ptr&& o) noexcept {
    intrusive_ptr tmp(std::move(o));
    swap(tmp);
    return *this;
  }
  /*! \brief Exchanges targets. */
  void swap(intrusive_ptr& o) noexcept { std::swap(ptr_, o.ptr_); }
  /*! \brief Drops the reference; the handle becomes null. */
  void reset() noexcept {
    Release();
    ptr_ = nullptr;
  }
  /*!
   * \brief Gives up the handle without touching the count and returns the target: the caller
   *  now owns that reference (used to destroy a target of a SharedBlock in place).
   */
  T* Detach() noexcept {
    T* p = ptr_;
    ptr_ = nullptr;
    return p;
  }
  /*! \brief The target (null when undefined). */
  T* get() const noexcept { return ptr_; }
  /*! \brief The target. */
  T& operator*() const noexcept { return *ptr_; }
  /*! \brief The target. */
  T* operator->() const noexcept { return ptr_; }
  /*! \brief True when the handle has a target. */
  bool defined() const noexcept { return ptr_ != nullptr; }
  /*! \brief True when the handle has a target. */
  explicit operator bool() const noexcept { return ptr_ != nullptr; }
  /*! \brief Number of handles sharing the target (0 for a null handle). */
  std::int64_t use_count() const noexcept {
    return ptr_ ? ptr_->refcount_.load(std::memory_order_acquire) : 0;
  }
  /*! \brief True when this is the only handle on the target. */
  bool unique() const noexcept { return use_count() == 1; }
  /*! \brief Same target. */
  friend bool operator==(const intrusive_ptr& a, const intrusive_ptr& b) { return a.ptr_ == b.ptr_; }
  /*! \brief Different targets. */
  friend bool operator!=(const intrusive_ptr& a, const intrusive_ptr& b) { return a.ptr_ != b.ptr_; }

 private:
  void Retain() noexcept {
    // Relaxed suffices for an increment: the caller already holds a reference.
    if (ptr_) ptr_->refcount_.fetch_add(1, std::memory_order_relaxed);
  }
  void Release() noexcept {
    if (!ptr_) return;
    // A count of 1 read with acquire means this is the only handle: nobody else can add or
    // drop a reference, so the target dies without a locked decrement (the common case for
    // temporaries). Otherwise acq_rel: the deleting thread must see every write made through
    // the other handles.
    if (ptr_->refcount_.load(std::memory_order_acquire) == 1 ||
        ptr_->refcount_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      detail::DestroyIntrusiveTarget(ptr_, 0);
    }
  }
  T* ptr_ = nullptr;
};

/*! \brief Allocates a T and returns the first handle on it. */
template <typename T, typename... Args>
intrusive_ptr<T> make_intrusive(Args&&... args) {
  return intrusive_ptr<T>::AdoptFresh(new T(std::forward<Args>(args)...));
}

}  // namespace shade

#endif  // SHADE_MEMORY_INTRUSIVE_PTR_H_
