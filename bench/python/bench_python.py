"""shade's Python module against NumPy in the same process (medians of repeated runs).

Rows (issue 19's targets):
  fused   y = a*b + exp(c) - a/c over 2^24 float32       shade >= 3x NumPy
  small   a + b on 4 float32 elements, time per call      shade <= 1.5x NumPy
  reduce  sum over one axis of a 4096x4096 float32        shade >= NumPy

Run: PYTHONPATH=build/python OPENBLAS_CORETYPE=Haswell /usr/bin/python3 bench/python/bench_python.py
shade runs with its default thread count and with 1 thread (NumPy's ufuncs are single-threaded).
"""
import os
import platform
import statistics
import time

import numpy as np

import shade


def median_seconds(fn, repeats):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def per_call(fn, calls=20000, repeats=9):
    def loop():
        for _ in range(calls):
            fn()
    return median_seconds(loop, repeats) / calls


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def main():
    rng = np.random.default_rng(0)
    n = 1 << 24
    a = rng.standard_normal(n).astype(np.float32)
    b = rng.standard_normal(n).astype(np.float32)
    c = rng.uniform(0.5, 2.0, n).astype(np.float32)
    sa, sb, sc = shade.asarray(a), shade.asarray(b), shade.asarray(c)
    small_a, small_b = np.ones(4, np.float32), np.ones(4, np.float32)
    ssa, ssb = shade.asarray(small_a), shade.asarray(small_b)
    m = rng.standard_normal((4096, 4096)).astype(np.float32)
    sm = shade.array(m)  # shade's own storage (64-byte aligned)
    sm_view = shade.asarray(m)  # a view of NumPy's buffer (NumPy aligns to 16 bytes)

    rows = []

    def fused_np():
        return a * b + np.exp(c) - a / c

    def fused_shade():
        return (sa * sb + shade.exp(sc) - sa / sc).eval()

    np.testing.assert_allclose(np.asarray(fused_shade()), fused_np(), rtol=1e-5, atol=1e-5)
    threads = shade.get_num_threads()
    for label, nthreads in (("default threads (%d)" % threads, threads), ("1 thread", 1)):
        shade.set_num_threads(nthreads)
        t_np = median_seconds(fused_np, 11)
        t_sh = median_seconds(fused_shade, 11)
        rows.append(("fused a*b+exp(c)-a/c, 2^24 f32, shade %s" % label, t_np, t_sh, t_np / t_sh, ">= 3x"))
        t_np = per_call(lambda: small_a + small_b)
        t_sh = per_call(lambda: ssa + ssb)
        rows.append(("a + b, 4 f32, per call, shade %s" % label, t_np, t_sh, t_np / t_sh, ">= 0.67x (<= 1.5x time)"))
        for axis in (0, 1):
            for source, arr in (("shade array", sm), ("view of NumPy's buffer", sm_view)):
                t_np = median_seconds(lambda: m.sum(axis=axis), 11)
                t_sh = median_seconds(lambda: arr.sum(axis=axis), 11)
                rows.append(("sum axis=%d, 4096x4096 f32, %s, shade %s" % (axis, source, label), t_np, t_sh,
                             t_np / t_sh, ">= 1x"))
    shade.set_num_threads(threads)

    print("machine: %s, %d logical CPUs; numpy %s; OPENBLAS_CORETYPE=%s"
          % (cpu_name(), os.cpu_count(), np.__version__, os.environ.get("OPENBLAS_CORETYPE", "")))
    print("| case | NumPy | shade | NumPy time / shade time | target |")
    print("|---|---|---|---|---|")
    for name, t_np, t_sh, ratio, target in rows:
        def fmt(t):
            return "%.1f ns" % (t * 1e9) if t < 1e-5 else "%.2f ms" % (t * 1e3)
        print("| %s | %s | %s | %.2fx | %s |" % (name, fmt(t_np), fmt(t_sh), ratio, target))


if __name__ == "__main__":
    main()
