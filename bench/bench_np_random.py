"""Times 10^7 draws of random / standard_normal / integers in NumPy 1.24 and shade.random
(medians of 5) and prints the ratios shade / NumPy (below 1: shade faster).

Run: PYTHONPATH=build/python OPENBLAS_CORETYPE=Haswell /usr/bin/python3 bench/bench_np_random.py
"""
import statistics
import time

import numpy as np

from shade import random as sr

N = 10_000_000


def median_time(fn, reps=5):
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main():
    nrs, srs = np.random.RandomState(0), sr.RandomState(0)
    ng, sg = np.random.default_rng(0), sr.default_rng(0)
    cases = [
        ("RandomState.random_sample", lambda: nrs.random_sample(N), lambda: srs.random_sample(N)),
        ("RandomState.standard_normal", lambda: nrs.standard_normal(N), lambda: srs.standard_normal(N)),
        ("RandomState.randint(0, 1000)", lambda: nrs.randint(0, 1000, N), lambda: srs.randint(0, 1000, N)),
        ("Generator.random", lambda: ng.random(N), lambda: sg.random(N)),
        ("Generator.integers(0, 1000)", lambda: ng.integers(0, 1000, N), lambda: sg.integers(0, 1000, N)),
    ]
    print(f"{'case':32s} {'numpy ms':>10s} {'shade ms':>10s} {'ratio':>7s}")
    for name, fn_np, fn_sh in cases:
        t_np, t_sh = median_time(fn_np), median_time(fn_sh)
        print(f"{name:32s} {t_np * 1e3:10.1f} {t_sh * 1e3:10.1f} {t_sh / t_np:7.2f}")


if __name__ == "__main__":
    main()
