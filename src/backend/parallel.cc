// The thread-count setting of ParallelFor (backend/cpu/parallel.h): one process-wide value,
// defined here so that every object, whatever SIMD target it is compiled for, shares it.
#include "shade/backend/cpu/parallel.h"

#include <atomic>

namespace shade {
namespace {

std::atomic<int>& NumThreadsSetting() {
#ifdef _OPENMP
  static std::atomic<int> n{omp_get_max_threads()};  // honours OMP_NUM_THREADS
#else
  static std::atomic<int> n{1};
#endif
  return n;
}

}  // namespace

int GetNumThreads() {
  return NumThreadsSetting().load(std::memory_order_relaxed);
}

void SetNumThreads(int n) {
  SHADE_CHECK_GE(n, 1) << "SetNumThreads: need at least one thread";
  NumThreadsSetting().store(n, std::memory_order_relaxed);
}

bool InParallelRegion() {
#ifdef _OPENMP
  return omp_in_parallel() != 0;
#else
  return false;
#endif
}

}  // namespace shade
