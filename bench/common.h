// Shared helpers of the benchmark programs: aligned buffers, one place that sets the thread
// count of every library in the binary, and the peers' availability.
#ifndef SHADE_BENCH_COMMON_H_
#define SHADE_BENCH_COMMON_H_

#include <benchmark/benchmark.h>
#include <cblas.h>
#include <omp.h>

#include <Eigen/Core>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "shade/backend/cpu/parallel.h"
#include "shade/memory/alloc.h"

#ifdef SHADE_BENCH_HAVE_TORCH
#include <torch/torch.h>
#endif

extern "C" void openblas_set_num_threads(int);

namespace shade_bench {

using shade::index_t;

/*! \brief A 64-byte aligned array of n T, filled with a smooth pattern in [lo, hi). */
template <class T>
struct Buffer {
  std::unique_ptr<T, void (*)(void*)> p;
  index_t n;
  Buffer(index_t count, double lo = -1, double hi = 1)
      : p(static_cast<T*>(shade::AlignedAlloc(static_cast<size_t>(count > 0 ? count : 1) * sizeof(T))),
          shade::AlignedFree),
        n(count) {
    std::uint64_t s = 88172645463325252ULL;
    for (index_t i = 0; i < n; ++i) {
      s ^= s << 13;
      s ^= s >> 7;
      s ^= s << 17;
      p.get()[i] = static_cast<T>(lo + (hi - lo) * static_cast<double>(s >> 11) * (1.0 / 9007199254740992.0));
    }
  }
  T* data() { return p.get(); }
};

/*! \brief Sets the thread count of shade, OpenMP, OpenBLAS, Eigen and LibTorch. */
inline void SetThreads(int n) {
  shade::SetNumThreads(n);
  omp_set_num_threads(n);
  openblas_set_num_threads(n);
  Eigen::setNbThreads(n);
#ifdef SHADE_BENCH_HAVE_TORCH
  torch::set_num_threads(n);
#endif
}

/*! \brief Bytes moved per iteration, reported as the bytes_per_second counter. */
inline void SetBytes(benchmark::State& st, double bytes) {
  st.SetBytesProcessed(static_cast<int64_t>(bytes * static_cast<double>(st.iterations())));
}

}  // namespace shade_bench

#endif  // SHADE_BENCH_COMMON_H_
