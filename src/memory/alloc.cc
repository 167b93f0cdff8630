// Host allocation through posix_memalign, with overflow checks and a counter.
#include "shade/memory/alloc.h"

#include <sys/mman.h>

#include <atomic>
#include <cstdlib>
#include <mutex>

#include "shade/base/error.h"
#include "shade/memory/allocator.h"

namespace shade {
namespace {
std::atomic<std::uint64_t> g_allocations{0};
std::atomic<std::size_t> g_max_allocation_bytes{0};  // SetMaxAllocationBytes; 0 = no cap
constexpr std::size_t kHugePageBytes = std::size_t(2) << 20;
constexpr std::size_t kHugePageThreshold = std::size_t(4) << 20;

// posix_memalign's rule, checked before any arithmetic divides by the alignment.
void CheckAlignment(std::size_t align, const char* where) {
  SHADE_CHECK(align >= sizeof(void*) && (align & (align - 1)) == 0)
      << where << ": alignment " << align << " is not a power of two >= " << sizeof(void*);
}
}  // namespace

std::size_t SetMaxAllocationBytes(std::size_t bytes) noexcept {
  return g_max_allocation_bytes.exchange(bytes, std::memory_order_relaxed);
}

std::size_t MaxAllocationBytes() noexcept {
  return g_max_allocation_bytes.load(std::memory_order_relaxed);
}

void CheckAllocationLimit(std::size_t bytes, const char* what) {
  const std::size_t cap = MaxAllocationBytes();
  if (cap != 0 && bytes > cap) {
    SHADE_THROW << what << ": request of " << bytes << " bytes exceeds the allocation cap of "
                << cap << " bytes (shade::SetMaxAllocationBytes)";
  }
}

void* AlignedAlloc(std::size_t bytes, std::size_t align) {
  CheckAllocationLimit(bytes, "AlignedAlloc");
  CheckAlignment(align, "AlignedAlloc");
  // Round up to the alignment so vector loads of a full last packet stay inside the block.
  SHADE_CHECK_LE(bytes, SIZE_MAX - align)
      << "AlignedAlloc: request of " << bytes << " bytes overflows";
  // Large blocks start on a 2 MiB boundary and ask for transparent huge pages: first-touch
  // page faults of a 64 MiB array drop from 16384 to 32 (NumPy does the same).
  const bool huge = bytes >= kHugePageThreshold && align <= kHugePageBytes;
  if (huge) align = kHugePageBytes;
  const std::size_t rounded = bytes == 0 ? align : (bytes + align - 1) / align * align;
  void* ptr = nullptr;
  if (posix_memalign(&ptr, align, rounded) != 0 || ptr == nullptr) {
    SHADE_THROW << "AlignedAlloc: out of memory allocating " << bytes << " bytes";
  }
#ifdef MADV_HUGEPAGE
  if (huge) madvise(ptr, rounded, MADV_HUGEPAGE);  // advisory: failure changes nothing
#endif
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return ptr;
}

void AlignedFree(void* ptr) noexcept {
  std::free(ptr);
}

// Small blocks: posix_memalign is glibc's slow path (no tcache; it splits and consolidates
// chunks), about 60-80 ns a pair for a 16-byte array. A per-thread stack of freed blocks per
// 64-byte size class makes the pair a few nanoseconds. A block freed on another thread joins
// that thread's cache (every block of a class has the same size and alignment). The cache is
// plain thread-local data (trivially destructible, so reachable even while the thread exits);
// a separate thread-local reaper drains it at thread exit and switches it off.
#if defined(__SANITIZE_ADDRESS__)
#define SHADE_SMALL_CACHE 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SHADE_SMALL_CACHE 0
#endif
#endif
#ifndef SHADE_SMALL_CACHE
#define SHADE_SMALL_CACHE 1
#endif

namespace {
constexpr int kSmallClasses = static_cast<int>(kSmallAllocBytes / kAlignBytes);
#if SHADE_SMALL_CACHE
constexpr int kSmallCacheDepth = 32;
struct SmallCache {
  void* slot[kSmallClasses][kSmallCacheDepth];
  int count[kSmallClasses];
  bool dead;
  // Cache hits counted for AllocationCount: written by the owning thread only (a plain store,
  // no locked increment: that one instruction was most of a cache hit's cost), read by any.
  std::atomic<std::uint64_t> hits;
  SmallCache* prev;  // the list of registered threads, under g_hit_counters_mu
  SmallCache* next;
};
thread_local SmallCache t_small;  // zero-initialised, trivially destructible

// The caches of live threads (registered when a thread's reaper is armed, i.e. before its first
// cache hit; an intrusive list, so registering allocates nothing and cannot throw) and the hits
// left by threads that exited.
std::mutex g_hit_counters_mu;
SmallCache* g_registered = nullptr;  // under the mutex
std::uint64_t g_exited_hits = 0;     // under the mutex

struct SmallCacheReaper {
  bool armed = false;
  void Arm() noexcept {
    armed = true;
    std::lock_guard<std::mutex> lock(g_hit_counters_mu);
    t_small.prev = nullptr;
    t_small.next = g_registered;
    if (g_registered) g_registered->prev = &t_small;
    g_registered = &t_small;
  }
  ~SmallCacheReaper() {
    t_small.dead = true;
    for (int c = 0; c < kSmallClasses; ++c) {
      for (int k = 0; k < t_small.count[c]; ++k) std::free(t_small.slot[c][k]);
      t_small.count[c] = 0;
    }
    if (!armed) return;
    std::lock_guard<std::mutex> lock(g_hit_counters_mu);
    g_exited_hits += t_small.hits.load(std::memory_order_relaxed);
    if (t_small.prev) t_small.prev->next = t_small.next;
    if (t_small.next) t_small.next->prev = t_small.prev;
    if (g_registered == &t_small) g_registered = t_small.next;
  }
};
thread_local SmallCacheReaper t_reaper;

template <int C>
void SmallFree(void* ptr) noexcept {
  SmallCache& t = t_small;
  if (ptr && !t.dead && t.count[C] < kSmallCacheDepth) {
    if (t.count[C] == 0 && !t_reaper.armed) t_reaper.Arm();  // drain at thread exit
    t.slot[C][t.count[C]++] = ptr;
    return;
  }
  std::free(ptr);
}
#else
template <int C>
void SmallFree(void* ptr) noexcept {
  std::free(ptr);
}
#endif
using FreeFn = void (*)(void*);
constexpr FreeFn kSmallFree[8] = {&SmallFree<0>, &SmallFree<1>, &SmallFree<2>, &SmallFree<3>,
                                  &SmallFree<4>, &SmallFree<5>, &SmallFree<6>, &SmallFree<7>};
static_assert(kSmallClasses == 8, "one SmallFree per size class");
}  // namespace

void* SmallAlignedAlloc(std::size_t bytes, void (**free_fn)(void*)) {
  SHADE_CHECK(bytes >= 1 && bytes <= kSmallAllocBytes)
      << "SmallAlignedAlloc: " << bytes << " bytes is outside 1.." << kSmallAllocBytes;
  const int c = static_cast<int>((bytes - 1) / kAlignBytes);
  *free_fn = kSmallFree[c];
#if SHADE_SMALL_CACHE
  SmallCache& t = t_small;
  if (t.count[c] > 0) {
    // The cache is only filled after Arm() registered this thread's counter.
    t.hits.store(t.hits.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    return t.slot[c][--t.count[c]];
  }
  if (!t.dead && !t_reaper.armed) t_reaper.Arm();  // registers the thread-exit drain
#endif
  return AlignedAlloc(static_cast<std::size_t>(c + 1) * kAlignBytes);
}

void* AlignedMallocPitch(std::size_t* out_pitch, std::size_t lspace, std::size_t num_line,
                         std::size_t align) {
  CheckAlignment(align, "AlignedMallocPitch");
  SHADE_CHECK_LE(lspace, SIZE_MAX - align)
      << "AlignedMallocPitch: row of " << lspace << " bytes overflows";
  const std::size_t pitch = (lspace + align - 1) / align * align;
  std::size_t total = 0;
  if (__builtin_mul_overflow(pitch, num_line, &total)) {
    SHADE_THROW << "AlignedMallocPitch: " << num_line << " rows of " << pitch << " bytes overflow";
  }
  void* block = AlignedAlloc(total, align);
  *out_pitch = pitch;
  return block;
}

std::uint64_t AllocationCount() noexcept {
  std::uint64_t n = g_allocations.load(std::memory_order_relaxed);
#if SHADE_SMALL_CACHE
  std::lock_guard<std::mutex> lock(g_hit_counters_mu);
  n += g_exited_hits;
  for (const SmallCache* c = g_registered; c; c = c->next)
    n += c->hits.load(std::memory_order_relaxed);
#endif
  return n;
}

}  // namespace shade
