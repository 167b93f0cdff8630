/*!
 * \file parallel.h
 * \brief The one threading primitive: `ParallelFor` over an index range, on OpenMP.
 *
 * Work smaller than the grain runs inline on the calling thread, so small tensors pay no
 * thread start-up (the reason mshadow's OpenMP path was switched off). Exceptions thrown in a
 * worker are carried back to the caller.
 */
#ifndef SHADE_BACKEND_CPU_PARALLEL_H_
#define SHADE_BACKEND_CPU_PARALLEL_H_

#include <algorithm>
#include <atomic>
#include <exception>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "shade/backend/cpu/fp_flags.h"
#include "shade/base/error.h"
#include "shade/base/index.h"

namespace shade {
/*! \brief Threads shade's kernels use (initially OMP_NUM_THREADS or the core count). */
int GetNumThreads();

/*! \brief Sets the threads shade's kernels use; n >= 1. */
void SetNumThreads(int n);

/*! \brief True inside a ParallelFor worker (nested calls then run inline). */
bool InParallelRegion();

/*!
 * \brief True when ParallelFor runs n > 0 items with this grain as one chunk on the calling
 *  thread (fewer than two grains), whatever the thread count. Callers with a cheaper
 *  single-chunk form (no index arithmetic) test it first.
 */
constexpr bool IsSingleChunk(index_t n, index_t grain) {
  return n / 2 < (grain > 1 ? grain : 1);
}

namespace detail {
// The threaded part of ParallelFor (n >= 2 * grain), out of line so that the inline front stays
// a compare and a call.
template <typename F>
void ParallelForThreads(index_t begin, index_t end, index_t grain, F& fn) {
  const index_t n = end - begin;
  const index_t max_chunks = n / grain;
  const int threads = static_cast<int>(std::min<index_t>(GetNumThreads(), max_chunks));
  if (threads <= 1 || InParallelRegion()) {
    fn(begin, end);
    return;
  }
#ifdef _OPENMP
  std::exception_ptr error;
  // The workers' floating-point flags (fp_flags.h) end up on the calling thread, where the
  // evaluator reads them once per evaluation (NumPy's errstate).
  unsigned fp_raised = fp::Read();
#pragma omp parallel num_threads(threads)
  {
    const index_t t = omp_get_thread_num();
    const index_t nt = omp_get_num_threads();
    const index_t chunk_begin = begin + n * t / nt;
    const index_t chunk_end = begin + n * (t + 1) / nt;
    fp::Clear();
    try {
      if (chunk_begin < chunk_end) fn(chunk_begin, chunk_end);
      const unsigned f = fp::Read();
      if (f != 0) {
#pragma omp atomic
        fp_raised |= f;
      }
    } catch (...) {
      // An OpenMP critical section rather than a std::mutex: nothing inline from <mutex> is
      // instantiated in the kernel objects built per SIMD target (see packet.h).
#pragma omp critical(shade_parallel_for_error)
      if (!error) error = std::current_exception();
    }
  }
  fp::Raise(fp_raised);
  if (error) std::rethrow_exception(error);
#else
  fn(begin, end);
#endif
}
}  // namespace detail

/*!
 * \brief Calls `fn(b, e)` on disjoint chunks covering [begin, end).
 * Chunks are contiguous and at least `grain` long; with fewer than 2*grain items, one thread.
 * The split depends only on the range, the grain and the thread count, so results that do
 * not depend on the split are reproducible.
 */
/*!
 * \brief THE grain: elements under which an elementwise kernel stays on the calling thread.
 *  Measured (docs/design/kernel-layer.md, "Threading grain"): below ~2^15 floats the OpenMP
 *  fork/join costs more than splitting an add saves. Every element loop derives its grain from
 *  this and kMathGrain (GrainForCost), never from a literal.
 */
constexpr index_t kMapGrain = index_t(1) << 15;
/*! \brief Grain for functors with a transcendental packet (exp, tanh...): ~10x the work/element. */
constexpr index_t kMathGrain = index_t(1) << 12;
/*! \brief Grain of an elementwise loop whose work per element is `cost` adds (>= 1). */
constexpr index_t GrainForCost(index_t cost) {
  const index_t grain = kMapGrain / (cost > 1 ? cost : 1);
  return grain > kMathGrain ? grain : kMathGrain;
}

/*! \brief Calls `fn(b, e)` on disjoint contiguous chunks covering [begin, end), at least `grain`
 *  long; fewer than 2 * grain items run on the calling thread (see the comment above). */
template <typename F>
inline void ParallelFor(index_t begin, index_t end, index_t grain, F&& fn) {
  const index_t n = end - begin;
  if (n <= 0) return;
  grain = std::max<index_t>(grain, 1);
  if (IsSingleChunk(n, grain)) {  // all a small tensor pays: a compare, no division or call
    fn(begin, end);
    return;
  }
  detail::ParallelForThreads(begin, end, grain, fn);
}

}  // namespace shade

#endif  // SHADE_BACKEND_CPU_PARALLEL_H_
