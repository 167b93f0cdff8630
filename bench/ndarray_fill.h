// The input arrays of the dynamic-op benchmarks (bench_dynamic.cc, bench_dyn_reduce.cc).
#ifndef SHADE_BENCH_NDARRAY_FILL_H_
#define SHADE_BENCH_NDARRAY_FILL_H_

#include <cstring>
#include <vector>

#include "bench/common.h"
#include "shade/ndarray/ndarray.h"

namespace shade_bench {

/*! A contiguous float32 NDArray of `shape` with the values of Buffer<float>(n, lo, hi). */
inline shade::NDArray UniformNDArray(std::vector<shade::index_t> shape, double lo, double hi) {
  shade::NDArray a = shade::NDArray::Empty<float>(shape);
  Buffer<float> b(a.numel(), lo, hi);
  std::memcpy(a.data_ptr(), b.data(), a.nbytes());
  return a;
}

}  // namespace shade_bench

#endif  // SHADE_BENCH_NDARRAY_FILL_H_
