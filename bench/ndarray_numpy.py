#!/usr/bin/python3
"""NumPy peer of bench/bench_ndarray.cc: ascontiguousarray of a permuted (0,2,3,1) 64^4 float32
tensor and of a transposed 4096x4096 float32 matrix. Prints the best and median of N runs in ms.
NumPy runs these copies on one thread."""
import statistics
import sys
import time

import numpy as np


def bench(name, fn, reps):
    # Wall and CPU time: on a shared machine the CPU time is the fairer single-thread figure.
    times, cpu = [], []
    for _ in range(reps):
        t0, c0 = time.perf_counter(), time.process_time()
        out = fn()
        times.append((time.perf_counter() - t0) * 1e3)
        cpu.append((time.process_time() - c0) * 1e3)
        assert out.flags['C_CONTIGUOUS']
    print(f"{name:40s} wall best {min(times):8.2f} ms median {statistics.median(times):8.2f} ms"
          f" | cpu best {min(cpu):8.2f} ms median {statistics.median(cpu):8.2f} ms")


def main():
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    x4 = (np.arange(64 ** 4, dtype=np.float32) % 1000).reshape(64, 64, 64, 64)
    p = x4.transpose(0, 2, 3, 1)
    x2 = (np.arange(4096 * 4096, dtype=np.float32) % 1000).reshape(4096, 4096)
    t = x2.T
    bench("numpy ascontiguousarray permute 64^4", lambda: np.ascontiguousarray(p), reps)
    bench("numpy ascontiguousarray transpose 4096^2", lambda: np.ascontiguousarray(t), reps)
    y4 = np.empty_like(p, order='C')
    y2 = np.empty((4096, 4096), np.float32)
    bench("numpy copyto permute 64^4", lambda: (np.copyto(y4, p), y4)[1], reps)
    bench("numpy copyto transpose 4096^2", lambda: (np.copyto(y2, t), y2)[1], reps)


if __name__ == "__main__":
    main()
