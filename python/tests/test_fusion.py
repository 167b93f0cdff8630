"""Fusion from Python: an expression over large arrays is one lazy Expr that runs once, as one
kernel with one allocation (its result), when it is used; the GIL is released meanwhile."""
import threading
import time

import numpy as np

import shade

N = 1 << 18


def operands():
    rng = np.random.default_rng(7)
    a, b = (rng.standard_normal(N).astype(np.float32) for _ in range(2))
    c = rng.uniform(0.5, 2.0, N).astype(np.float32)
    return a, b, c


def test_expression_is_one_fused_evaluation():
    a, b, c = operands()
    sa, sb, sc = shade.asarray(a), shade.asarray(b), shade.asarray(c)
    evals, allocs = shade._evaluation_count(), shade._allocation_count()
    y = sa * sb + shade.exp(sc) - sa / sc
    assert shade._is_pending(y)
    assert y.shape == (N,) and y.dtype == np.float32 and y.ndim == 1 and y.size == N  # known without running
    assert shade._evaluation_count() == evals and shade._allocation_count() == allocs
    out = np.asarray(y)  # first use
    assert shade._evaluation_count() == evals + 1
    assert shade._allocation_count() == allocs + 1  # the result only: no temporaries
    np.testing.assert_allclose(out, a * b + np.exp(c) - a / c, rtol=2e-6, atol=2e-6)
    np.asarray(y)
    assert shade._evaluation_count() == evals + 1  # evaluated once


def test_pending_results_see_shade_writes_in_program_order():
    a = shade.ones(N, dtype=shade.float32)
    y = a + 1
    assert shade._is_pending(y)
    a += 10  # shade evaluates y before writing into its input (NumPy's order)
    assert float(y[0]) == 2.0
    z = a * 2
    a[0] = 0
    assert float(z[0]) == 22.0
    w = a - 1
    shade.multiply(a, 0, out=a)
    assert float(w[1]) == 10.0


def test_out_and_in_place_forms():
    a, b, c = operands()
    sa, sb = shade.asarray(a.copy()), shade.asarray(b)
    out = shade.empty(N, dtype=shade.float32)
    r = shade.add(sa, sb, out=out)
    assert r is out
    np.testing.assert_array_equal(np.asarray(out), a + b)
    sa *= sb
    np.testing.assert_array_equal(np.asarray(sa), a * b)
    i = shade.arange(10)
    i //= 3
    np.testing.assert_array_equal(np.asarray(i), np.arange(10) // 3)
    try:
        i += 0.5  # same_kind: float into int64 is refused, as NumPy
        raise AssertionError("int += float must raise")
    except TypeError:
        pass


def test_large_expressions_are_split_not_refused():
    xs = [shade.full(N, float(k), dtype=shade.float64) for k in range(12)]
    y = xs[0]
    for x in xs[1:]:
        y = y + x * 2  # more arrays than one Expr holds: earlier parts run first
    assert float(y[3]) == 0 + 2 * sum(range(1, 12))


def test_gil_is_released_while_kernels_run():
    big = shade.ones(1 << 23, dtype=shade.float32)
    ticks = []
    stop = threading.Event()

    def count():
        while not stop.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0)

    thread = threading.Thread(target=count)
    thread.start()
    time.sleep(0.01)
    before = len(ticks)
    for _ in range(5):
        (shade.exp(big) * big + big).eval()
    stop.set()
    thread.join()
    assert len(ticks) > before  # the other thread ran during the evaluations


def test_laziness_follows_the_result_size():
    row, col = shade.arange(300.0), shade.arange(300.0).reshape(300, 1)
    outer = row * col  # 90,000 elements from two 300-element operands
    assert shade._is_pending(outer)
    np.testing.assert_array_equal(np.asarray(outer), np.arange(300.0) * np.arange(300.0).reshape(300, 1))
    small = shade.arange(4.0) + 1
    assert not shade._is_pending(small)
