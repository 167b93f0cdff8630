"""shade.linalg / shade.einsum against NumPy in one process: solve and svd of 1000x1000, a
batched einsum contraction, stacks of small matrices (which shade splits over its threads), and
det, inv, eigh, qr for context.

Runs itself twice, with OMP_NUM_THREADS=1 (NumPy's OpenBLAS and shade both on one thread) and with
the default thread count, and prints medians of 5 runs in ms and the ratio numpy/shade (> 1:
shade is faster).

  PYTHONPATH=build/python OPENBLAS_CORETYPE=Haswell /usr/bin/python3 bench/bench_np_linalg.py
"""
import os
import subprocess
import sys
import time

REPEATS = 5


def median_ms(fn):
    fn()  # warm-up (page faults, LAPACK work queries)
    times = []
    for _ in range(REPEATS):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1e3)
    times.sort()
    return times[len(times) // 2]


def child():
    import numpy as np

    import shade

    rng = np.random.default_rng(0)
    n = 1000
    a = (rng.standard_normal((n, n)) + n ** 0.5 * np.eye(n)) / n ** 0.5
    b = rng.standard_normal((n, 1))
    sym = a + a.T
    x, y = rng.standard_normal((64, 128, 96)), rng.standard_normal((64, 96, 112))
    q, k = rng.standard_normal((8, 8, 128, 64)), rng.standard_normal((8, 8, 128, 64))
    ba = rng.standard_normal((4000, 16, 16)) + 4 * np.eye(16)
    bb = rng.standard_normal((4000, 16, 1))
    bsym = ba + np.swapaxes(ba, -1, -2)
    sa, sb, ssym = shade.asarray(a), shade.asarray(b), shade.asarray(sym)
    sba, sbb, sbsym = shade.asarray(ba), shade.asarray(bb), shade.asarray(bsym)
    sx, sy, sq, sk = (shade.asarray(v) for v in (x, y, q, k))
    cases = [
        ("solve 1000x1000 (b 1000x1)", lambda: np.linalg.solve(a, b),
         lambda: shade.linalg.solve(sa, sb)),
        ("svd 1000x1000", lambda: np.linalg.svd(a), lambda: shade.linalg.svd(sa)),
        ("svd 1000x1000 compute_uv=False", lambda: np.linalg.svd(a, compute_uv=False),
         lambda: shade.linalg.svd(sa, compute_uv=False)),
        ("einsum bij,bjk->bik 64x128x96x112", lambda: np.einsum("bij,bjk->bik", x, y),
         lambda: shade.einsum("bij,bjk->bik", sx, sy)),
        ("  numpy optimize=True", lambda: np.einsum("bij,bjk->bik", x, y, optimize=True),
         lambda: shade.einsum("bij,bjk->bik", sx, sy, optimize=True)),
        ("einsum bhid,bhjd->bhij 8x8x128x64", lambda: np.einsum("bhid,bhjd->bhij", q, k),
         lambda: shade.einsum("bhid,bhjd->bhij", sq, sk)),
        ("batched solve 4000x16x16", lambda: np.linalg.solve(ba, bb),
         lambda: shade.linalg.solve(sba, sbb)),
        ("batched inv 4000x16x16", lambda: np.linalg.inv(ba), lambda: shade.linalg.inv(sba)),
        ("batched svd 4000x16x16", lambda: np.linalg.svd(ba), lambda: shade.linalg.svd(sba)),
        ("batched eigh 4000x16x16", lambda: np.linalg.eigh(bsym),
         lambda: shade.linalg.eigh(sbsym)),
        ("det 1000x1000", lambda: np.linalg.det(a), lambda: shade.linalg.det(sa)),
        ("inv 1000x1000", lambda: np.linalg.inv(a), lambda: shade.linalg.inv(sa)),
        ("eigh 1000x1000", lambda: np.linalg.eigh(sym), lambda: shade.linalg.eigh(ssym)),
        ("qr 1000x1000", lambda: np.linalg.qr(a), lambda: shade.linalg.qr(sa)),
    ]
    print("threads: OMP_NUM_THREADS=%s (shade %d)" % (os.environ.get("OMP_NUM_THREADS", "default"),
                                                      shade.get_num_threads()))
    print("%-36s %10s %10s %8s" % ("case", "numpy ms", "shade ms", "np/shade"))
    for name, f_np, f_sh in cases:
        t_np, t_sh = median_ms(f_np), median_ms(f_sh)
        print("%-36s %10.2f %10.2f %8.2f" % (name, t_np, t_sh, t_np / t_sh))
    sys.stdout.flush()


def main():
    if os.environ.get("SHADE_BENCH_CHILD"):
        child()
        return
    for threads in ("1", None):
        env = dict(os.environ, SHADE_BENCH_CHILD="1")
        env.pop("OMP_NUM_THREADS", None)
        env.pop("OPENBLAS_NUM_THREADS", None)
        if threads is not None:
            env["OMP_NUM_THREADS"] = threads
        subprocess.run([sys.executable, __file__], env=env, check=True)
        print()


if __name__ == "__main__":
    main()
