/*!
 * \file alloc.h
 * \brief Aligned and pitched host allocation; the only place shade calls the system allocator.
 */
#ifndef SHADE_MEMORY_ALLOC_H_
#define SHADE_MEMORY_ALLOC_H_

#include <cstddef>
#include <cstdint>

namespace shade {

/*! \brief Alignment of every host buffer shade allocates (a cache line, an AVX-512 vector). */
constexpr std::size_t kAlignBytes = 64;

/*! \brief Allocates `bytes` aligned to `align`; throws shade::Error on failure (never null). */
void* AlignedAlloc(std::size_t bytes, std::size_t align = kAlignBytes);

/*! \brief Releases memory from AlignedAlloc / AlignedMallocPitch; null is allowed. */
void AlignedFree(void* ptr) noexcept;

/*!
 * \brief Allocates `num_line` rows of `lspace` bytes, each row starting aligned to `align`; the
 *  row pitch (>= lspace, a multiple of align) is written to `*out_pitch`. Throws on overflow.
 */
void* AlignedMallocPitch(std::size_t* out_pitch, std::size_t lspace, std::size_t num_line,
                         std::size_t align = kAlignBytes);

/*!
 * \brief Largest request SmallAlignedAlloc serves from its per-thread cache (512: a small
 *  array's whole block, NDArrayImpl + StorageImpl + up to 256 bytes of data, fits).
 */
constexpr std::size_t kSmallAllocBytes = 512;

/*!
 * \brief Allocates `bytes` (1..kSmallAllocBytes) aligned to kAlignBytes from a per-thread cache
 *  of recently freed blocks of the same size class (a multiple of 64 bytes), falling back to
 *  AlignedAlloc; `*free_fn` receives the function that must release the block (not AlignedFree).
 *  Counts as one allocation in AllocationCount. Under AddressSanitizer the cache is off (every
 *  block comes from and goes back to the system allocator, so use-after-free stays visible).
 */
void* SmallAlignedAlloc(std::size_t bytes, void (**free_fn)(void*));

/*! \brief Number of successful AlignedAlloc calls so far (tests use it to prove fusion). */
std::uint64_t AllocationCount() noexcept;

}  // namespace shade

#endif  // SHADE_MEMORY_ALLOC_H_
