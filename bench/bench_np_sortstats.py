#!/usr/bin/python3
"""NumPy and shade side by side: sort/argsort of 10^7 float32 and int64, unique, cumsum, median,
percentile, bincount, histogram. Prints the median of N runs (wall ms) and shade's speed-up
(numpy_ms / shade_ms; > 1 means shade is faster). NumPy 1.24 runs these on one thread; shade's
thread count follows OMP_NUM_THREADS (run once with OMP_NUM_THREADS=1 for the 1-thread target):

    PYTHONPATH=build/python OMP_NUM_THREADS=1 python3 bench/bench_np_sortstats.py
    PYTHONPATH=build/python python3 bench/bench_np_sortstats.py
"""
import os
import statistics
import sys
import time

import numpy as np

import shade


def timed(fn, reps):
    fn()
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        r = fn()
        if isinstance(r, shade.ndarray):
            r = r.shape  # force a pending result
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def main():
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000_000
    rng = np.random.default_rng(1)
    f32 = rng.uniform(-1, 1, n).astype(np.float32)
    i64 = rng.integers(-2**62, 2**62, n, dtype=np.int64)
    small = rng.integers(0, 1000, n, dtype=np.int64)
    f64 = rng.normal(size=n)
    m2 = f64.reshape(1000, -1)
    cases = [
        ("sort float32", lambda m: m.sort(f32)),
        ("sort int64", lambda m: m.sort(i64)),
        ("argsort float32", lambda m: m.argsort(f32)),
        ("argsort int64", lambda m: m.argsort(i64)),
        ("unique int64 (1000 values)", lambda m: m.unique(small)),
        ("unique counts int64", lambda m: m.unique(small, return_counts=True)),
        ("cumsum float64", lambda m: m.cumsum(f64)),
        ("cumsum axis 0 (1000, n/1000)", lambda m: m.cumsum(m2, axis=0)),
        ("median float64", lambda m: m.median(f64)),
        ("median axis 1 (1000, n/1000)", lambda m: m.median(m2, axis=1)),
        ("percentile [5,50,95] float64", lambda m: m.percentile(f64, [5, 50, 95])),
        ("bincount int64", lambda m: m.bincount(small)),
        ("histogram float64 100 bins", lambda m: m.histogram(f64, 100)),
    ]
    threads = os.environ.get("OMP_NUM_THREADS", "default")
    print(f"n = {n}, median of {reps}, shade threads: {threads} ({shade.get_num_threads()})")
    print(f"{'case':32s} {'numpy ms':>10s} {'shade ms':>10s} {'speed-up':>9s}")
    for name, fn in cases:
        tn = timed(lambda: fn(np), reps)
        ts = timed(lambda: fn(shade), reps)
        print(f"{name:32s} {tn:10.1f} {ts:10.1f} {tn / ts:8.2f}x")


if __name__ == "__main__":
    main()
