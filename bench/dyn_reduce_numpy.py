#!/usr/bin/python3
"""NumPy peer of bench/bench_dyn_reduce.cc: sum over axis 1 and axis 0 of a 4096x4096 float32
array, axis 1 of its transpose, and a 512x512 float32 matmul with a transposed operand. Prints
the best and median of N runs (wall and process CPU time) in ms. NumPy reduces on one thread;
its matmul uses the BLAS's threads."""
import statistics
import sys
import time

import numpy as np


def bench(name, fn, reps):
    times, cpu = [], []
    fn()
    for _ in range(reps):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        times.append((time.perf_counter() - t0) * 1e3)
        cpu.append((time.process_time() - c0) * 1e3)
    print(f"{name:40s} wall best {min(times):8.2f} ms median {statistics.median(times):8.2f} ms"
          f" | cpu best {min(cpu):8.2f} ms median {statistics.median(cpu):8.2f} ms")


def main():
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    rng = np.random.default_rng(1)
    a = rng.uniform(-1, 1, (4096, 4096)).astype(np.float32)
    bench("numpy sum axis 1 4096^2 float32", lambda: a.sum(axis=1), reps)
    bench("numpy sum axis 0 4096^2 float32", lambda: a.sum(axis=0), reps)
    bench("numpy sum axis 1 of a.T 4096^2", lambda: a.T.sum(axis=1), reps)
    m = rng.uniform(-1, 1, (512, 512)).astype(np.float32)
    n = rng.uniform(-1, 1, (512, 512)).astype(np.float32)
    bench("numpy matmul 512^2 (b transposed)", lambda: m @ n.T, reps)


if __name__ == "__main__":
    main()
