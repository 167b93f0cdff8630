// Host emulation of a CUDA grid (issue 42): compiles a generated kernel source, unchanged, with
// the host compiler. __global__ disappears and the built-in index variables become globals that
// ShadeHostLaunch sets while it runs every (block, thread) of a 1-D grid in order, so a
// grid-stride kernel computes every element exactly once, as on the device.
#ifndef SHADE_TESTS_GPU_HOST_GRID_H_
#define SHADE_TESTS_GPU_HOST_GRID_H_

#include <math.h>

struct ShadeDim3 {
  unsigned x, y, z;
};
static ShadeDim3 blockIdx, threadIdx, blockDim, gridDim;  // NOLINT: CUDA's names
#define __global__

// Runs kernel(args...) once per thread of a grid of `grid` blocks of `block` threads.
template <typename Kernel, typename... Args>
void ShadeHostLaunch(Kernel kernel, unsigned grid, unsigned block, Args... args) {
  gridDim = {grid, 1, 1};
  blockDim = {block, 1, 1};
  for (unsigned b = 0; b < grid; ++b) {
    for (unsigned t = 0; t < block; ++t) {
      blockIdx = {b, 0, 0};
      threadIdx = {t, 0, 0};
      kernel(args...);
    }
  }
}

#endif  // SHADE_TESTS_GPU_HOST_GRID_H_
