#!/usr/bin/python3
"""NumPy side of the shade benchmarks (W1, W3, W4, W5): median seconds per workload as JSON lines
in Google Benchmark's aggregate naming, so bench/run.sh tabulates them with the C++ peers.
Arguments: repetitions (default 5) and a regex on the benchmark names (Google Benchmark's filter)."""
import json
import re
import sys
import timeit

import numpy as np


def median_time(fn, reps):
    fn()  # warm up (page faults, caches)
    times = timeit.repeat(fn, number=1, repeat=reps)
    times.sort()
    return times[len(times) // 2]


def main():
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    name_filter = re.compile(sys.argv[2] if len(sys.argv) > 2 else ".")
    rng = np.random.default_rng(0)
    n1 = 1 << 24
    b, c = rng.random(n1, dtype=np.float32), rng.random(n1, dtype=np.float32)
    a = np.empty_like(b)
    n3 = 1 << 22
    x3 = (rng.random(n3, dtype=np.float32) * 8 - 4)
    y3 = np.empty_like(x3)
    n4 = 1 << 25
    x4 = rng.random(n4, dtype=np.float32)
    m = rng.random((4096, 4096), dtype=np.float32)
    mt = np.empty_like(m)
    work = {
        "BM_W1_copy_numpy/threads:1": lambda: np.copyto(a, b),
        "BM_W1_triad_numpy/threads:1": lambda: np.add(b, np.multiply(c, np.float32(3.0)), out=a),
        "BM_W3_tanh_numpy/threads:1": lambda: np.tanh(x3, out=y3),
        "BM_W3_exp_numpy/threads:1": lambda: np.exp(x3, out=y3),
        "BM_W4_sum_numpy/threads:1": lambda: x4.sum(),
        "BM_W4_axis0_numpy/threads:1": lambda: m.sum(axis=0),
        "BM_W4_axis1_numpy/threads:1": lambda: m.sum(axis=1),
        "BM_W5_transpose_numpy/threads:1": lambda: np.copyto(mt, m.T),
    }
    moved = {"BM_W1_copy_numpy/threads:1": 8.0 * n1, "BM_W1_triad_numpy/threads:1": 12.0 * n1}  # bytes
    for name, fn in work.items():
        if not name_filter.search(name):
            continue
        t = median_time(fn, reps)
        row = {"name": name + "/real_time_median", "real_time": t * 1e6, "time_unit": "us"}
        if name in moved:
            row["bytes_per_second"] = moved[name] / t
        print(json.dumps(row))


if __name__ == "__main__":
    main()
