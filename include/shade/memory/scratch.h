/*!
 * \file scratch.h
 * \brief Temporary element buffers for kernels and plans (the one scratch mechanism).
 *
 * Every temporary a kernel needs (a reduction's partial rows, a gathered index list, a pooling
 * accumulator) comes from here rather than from `new T[]`, so that it goes through AlignedAlloc:
 * the process-wide allocation cap (SetMaxAllocationBytes) holds for temporaries too, the size
 * is overflow-checked, and the buffer is aligned for the SIMD kernels that read it.
 * tools/check-policies.py rejects a raw `new T[]` or `malloc` in library code.
 */
#ifndef SHADE_MEMORY_SCRATCH_H_
#define SHADE_MEMORY_SCRATCH_H_

#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>

#include "shade/base/checked.h"
#include "shade/base/error.h"
#include "shade/memory/alloc.h"

namespace shade {
namespace detail {

/*! \brief Bytes for `n` elements of T (at least one element, so the pointer is never null). */
template <typename T>
inline std::size_t ScratchBytes(index_t n, const char* what) {
  SHADE_CHECK(n >= 0) << what << ": negative element count " << n;
  const index_t elems = n > 0 ? n : 1;
  return static_cast<std::size_t>(CheckedMul(elems, static_cast<index_t>(sizeof(T)), what));
}

/*! \brief Deleter of scratch memory (AlignedFree). */
struct ScratchFree {
  /*! \brief Releases `p` (null allowed). */
  void operator()(void* p) const noexcept { AlignedFree(p); }
};

}  // namespace detail

/*!
 * \brief An owned, uninitialized, aligned buffer of `n` trivially copyable elements (move-only;
 *  `std::unique_ptr<T[]>`'s role). Allocation through AlignedAlloc: throws shade::Error when the
 *  size overflows or exceeds the allocation cap.
 */
template <typename T>
class ScratchBuffer {
  static_assert(std::is_trivially_copyable<T>::value && std::is_trivially_destructible<T>::value,
                "ScratchBuffer holds plain element types (no constructors run)");

 public:
  /*! \brief No buffer (get() is null). */
  ScratchBuffer() noexcept = default;
  /*! \brief A buffer of `n` elements; `what` names it in an error message. */
  explicit ScratchBuffer(index_t n, const char* what = "scratch buffer")
      : ptr_(static_cast<T*>(AlignedAlloc(detail::ScratchBytes<T>(n, what)))) {}
  /*! \brief Replaces the buffer with one of `n` elements. */
  void reset(index_t n, const char* what = "scratch buffer") {
    ptr_.reset(static_cast<T*>(AlignedAlloc(detail::ScratchBytes<T>(n, what))));
  }
  /*! \brief The elements (null when default-constructed). */
  T* get() const noexcept { return ptr_.get(); }
  /*! \brief Element i (no bound check: the caller sized the buffer). */
  T& operator[](std::size_t i) const noexcept { return ptr_.get()[i]; }

 private:
  std::unique_ptr<T, detail::ScratchFree> ptr_;
};

/*!
 * \brief A shared, uninitialized, aligned buffer of `n` elements, for plans that are copied
 *  while their buffer lives (`std::shared_ptr<T[]>`; AlignedAlloc, so the cap holds).
 */
template <typename T>
std::shared_ptr<T[]> MakeSharedScratch(index_t n, const char* what = "scratch buffer") {
  static_assert(std::is_trivially_copyable<T>::value && std::is_trivially_destructible<T>::value,
                "shared scratch holds plain element types (no constructors run)");
  return std::shared_ptr<T[]>(static_cast<T*>(AlignedAlloc(detail::ScratchBytes<T>(n, what))),
                              detail::ScratchFree());
}

}  // namespace shade

#endif  // SHADE_MEMORY_SCRATCH_H_
