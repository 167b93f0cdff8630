"""Sorting, searching, sets, counting, cumulative and statistics functions against live NumPy
1.24: values, dtypes, shapes, NaN handling and exception classes."""
import numpy as np
import pytest

import shade

INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
FLOATS = [np.float16, np.float32, np.float64]
ALL = [np.bool_] + INTS + FLOATS


def data(dtype, shape, seed=0, nan=True):
    """Random values of dtype with many ties; floats get NaNs, -0.0 and infinities."""
    rng = np.random.RandomState(seed)
    n = int(np.prod(shape))
    if dtype == np.bool_:
        return (rng.randint(0, 2, n) == 1).reshape(shape)
    if np.issubdtype(dtype, np.unsignedinteger):
        return rng.randint(0, 20, n).astype(dtype).reshape(shape)
    if np.issubdtype(dtype, np.integer):
        return rng.randint(-10, 10, n).astype(dtype).reshape(shape)
    x = (rng.randint(-8, 8, n) * 0.5).astype(dtype)
    if nan and n >= 6:
        x[rng.randint(0, n, 2)] = np.nan
        x[rng.randint(0, n)] = -0.0
        x[rng.randint(0, n)] = np.inf
    return x.reshape(shape)


def views(x):
    """x itself, a transposed view and a strided view (non-contiguous)."""
    out = [x]
    if x.ndim >= 2:
        out.append(x.T)
        out.append(x[:, ::2])
    elif x.ndim == 1:
        out.append(x[::2])
    return out


def same(s, n, exact_dtype=True, rtol=0.0):
    s = np.asarray(s)
    n = np.asarray(n)
    assert s.shape == n.shape, (s.shape, n.shape)
    if exact_dtype:
        assert s.dtype == n.dtype, (s.dtype, n.dtype)
    if rtol:
        np.testing.assert_allclose(s.astype(np.float64), n.astype(np.float64), rtol=rtol,
                                   atol=rtol, equal_nan=True)
    else:
        np.testing.assert_array_equal(s, n)


def raises_like(fs, fn):
    """fs and fn raise the same exception class (AxisError counts as IndexError/ValueError)."""
    with pytest.raises(Exception) as en:
        fn()
    with pytest.raises(Exception) as es:
        fs()
    assert isinstance(es.value, type(en.value).__mro__[:-2]) or \
        issubclass(type(en.value), type(es.value)), (es.value, en.value)


SHAPES = [(7,), (4, 6), (3, 4, 5), (0,), (0, 3), (5, 1)]


# ------------------------------------------------------------------ sorting

@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("shape", SHAPES)
def test_sort_and_argsort(dtype, shape):
    for x in views(data(dtype, shape)):
        for axis in [None, 0, -1] + ([1] if x.ndim > 1 else []):
            same(shade.sort(x, axis=axis), np.sort(x, axis=axis))
            same(shade.argsort(x, axis=axis), np.argsort(x, axis=axis, kind="stable"))
            same(shade.asarray(x).argsort(axis=axis), np.argsort(x, axis=axis, kind="stable"))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64, np.int32, np.int16,
                                   np.uint8, np.float16])
def test_sort_large(dtype):
    # Large lanes take vqsort (values) and the radix passes (indices).
    x = data(dtype, (20000,), seed=3)
    if np.issubdtype(dtype, np.integer):
        x = np.random.RandomState(1).randint(np.iinfo(dtype).min, np.iinfo(dtype).max, 20000,
                                             dtype=dtype)
    same(shade.sort(x), np.sort(x))
    same(shade.argsort(x, kind="quicksort"), np.argsort(x, kind="stable"))
    y = x.reshape(100, 200)
    same(shade.sort(y, axis=0), np.sort(y, axis=0))
    same(shade.argsort(y, axis=0), np.argsort(y, axis=0, kind="stable"))


def test_sort_kinds_method_and_rank0():
    x = data(np.float64, (5, 4))
    for kind in ["quicksort", "mergesort", "heapsort", "stable", None]:
        same(shade.sort(x, kind=kind), np.sort(x, kind=kind))
    s = shade.array(x)
    s.sort(axis=0)
    same(s, np.sort(x, axis=0))
    same(shade.sort(np.array(3.0), axis=None), np.sort(np.array(3.0), axis=None))
    same(shade.argsort(np.array(3.0)), np.argsort(np.array(3.0)))
    raises_like(lambda: shade.sort(np.array(3.0)), lambda: np.sort(np.array(3.0)))
    raises_like(lambda: shade.sort(x, kind="bogus"), lambda: np.sort(x, kind="bogus"))
    raises_like(lambda: shade.sort(x, axis=2), lambda: np.sort(x, axis=2))
    raises_like(lambda: shade.argsort(x, axis=-3), lambda: np.argsort(x, axis=-3))


@pytest.mark.parametrize("dtype", [np.int8, np.float32, np.uint64, np.bool_])
def test_lexsort(dtype):
    a = data(dtype, (30,), 1)
    b = data(dtype, (30,), 2)
    c = data(np.float64, (30,), 3)
    same(shade.lexsort([a, b]), np.lexsort([a, b]))
    same(shade.lexsort((c, a, b)), np.lexsort((c, a, b)))
    m = np.stack([a.astype(np.float64), c])
    same(shade.lexsort(m), np.lexsort(m))
    k2 = data(np.int16, (4, 5), 4), data(np.int16, (4, 5), 5)
    same(shade.lexsort(k2, axis=0), np.lexsort(k2, axis=0))
    same(shade.lexsort([np.array(1)]), np.lexsort([np.array(1)]))
    raises_like(lambda: shade.lexsort([]), lambda: np.lexsort([]))
    raises_like(lambda: shade.lexsort([a, a[:3]]), lambda: np.lexsort([a, a[:3]]))


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64, np.uint8])
def test_partition(dtype):
    x = data(dtype, (6, 9), 7)
    for kth in [0, 3, -1, [1, 5], (2, 2, 5)]:
        for axis in [0, 1, -1, None]:
            n = np.partition(x, kth, axis=axis)
            s = np.asarray(shade.partition(x, kth, axis=axis))
            ss = np.sort(x, axis=axis)
            ks = np.atleast_1d(kth)
            lane = -1 if axis is None else axis
            assert s.shape == n.shape and s.dtype == n.dtype
            for k in ks:
                np.testing.assert_array_equal(np.take(s, k, axis=lane), np.take(ss, k, axis=lane))
            same(np.sort(s, axis=lane), np.sort(n, axis=lane))
            idx = np.asarray(shade.argpartition(x, kth, axis=axis))
            assert idx.dtype == np.int64
            src = x.ravel() if axis is None else x
            got = np.take_along_axis(src, idx, axis=lane)
            for k in ks:
                np.testing.assert_array_equal(np.take(got, k, axis=lane),
                                              np.take(ss, k, axis=lane))
    s = shade.array(x)
    s.partition(2, axis=0)
    np.testing.assert_array_equal(np.asarray(s)[2], np.sort(x, axis=0)[2])
    raises_like(lambda: shade.partition(x, 9), lambda: np.partition(x, 9))
    raises_like(lambda: shade.partition(x, -10), lambda: np.partition(x, -10))
    raises_like(lambda: shade.partition(np.array(1), 0), lambda: np.partition(np.array(1), 0))


@pytest.mark.parametrize("dtype", ALL)
def test_searchsorted(dtype):
    a = np.sort(data(dtype, (25,), 4))
    v = data(dtype, (3, 5), 5)
    for side in ["left", "right"]:
        same(shade.searchsorted(a, v, side=side), np.searchsorted(a, v, side=side))
        same(shade.searchsorted(a, v[:, ::2], side), np.searchsorted(a, v[:, ::2], side))
        same(shade.searchsorted(a, 1, side=side), np.searchsorted(a, 1, side=side))
        same(shade.asarray(a).searchsorted(v, side), a.searchsorted(v, side))
    u = data(dtype, (25,), 6)
    order = np.argsort(u, kind="stable")
    same(shade.searchsorted(u, v, sorter=order), np.searchsorted(u, v, sorter=order))
    same(shade.searchsorted(a, np.zeros(0, dtype)), np.searchsorted(a, np.zeros(0, dtype)))


def test_searchsorted_mixed_and_errors():
    a = np.arange(10, dtype=np.int8)
    same(shade.searchsorted(a, [2.5, -1.0, 100.0]), np.searchsorted(a, [2.5, -1.0, 100.0]))
    same(shade.searchsorted(a, 1000), np.searchsorted(a, 1000))
    raises_like(lambda: shade.searchsorted(a, 1, side="x"), lambda: np.searchsorted(a, 1, side="x"))
    raises_like(lambda: shade.searchsorted(np.array(3), 1), lambda: np.searchsorted(np.array(3), 1))
    raises_like(lambda: shade.searchsorted(np.ones((2, 2)), 1),
                lambda: np.searchsorted(np.ones((2, 2)), 1))
    raises_like(lambda: shade.searchsorted(a, 1, sorter=np.arange(10.0)),
                lambda: np.searchsorted(a, 1, sorter=np.arange(10.0)))


# ------------------------------------------------------------------ searching and counting

@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("shape", [(7,), (4, 6), (2, 3, 4), (0,), (0, 2)])
def test_where_argwhere_count(dtype, shape):
    for x in views(data(dtype, shape, 8)):
        for s, n in zip(shade.where(x), np.where(x)):
            same(s, n)
        for s, n in zip(shade.asarray(x).nonzero(), x.nonzero()):
            same(s, n)
        same(shade.argwhere(x), np.argwhere(x))
        same(shade.flatnonzero(x), np.flatnonzero(x))
        assert shade.count_nonzero(x) == np.count_nonzero(x)
        assert type(shade.count_nonzero(x)) is int
        for axis in range(x.ndim):
            same(shade.count_nonzero(x, axis=axis), np.count_nonzero(x, axis=axis))
            same(shade.count_nonzero(x, axis=axis, keepdims=True),
                 np.count_nonzero(x, axis=axis, keepdims=True))


def test_argwhere_rank0_extract_select():
    same(shade.argwhere(np.array(3)), np.argwhere(np.array(3)))
    same(shade.argwhere(np.array(0)), np.argwhere(np.array(0)))
    x = data(np.float32, (4, 5), 9)
    c = data(np.bool_, (4, 5), 10)
    same(shade.extract(c, x), np.extract(c, x))
    same(shade.extract(c.T, x), np.extract(c.T, x))
    same(shade.extract(np.array([1, 0]), np.arange(3)), np.extract(np.array([1, 0]), np.arange(3)))
    raises_like(lambda: shade.extract(np.array([1, 0, 0, 1]), np.arange(3)),
                lambda: np.extract(np.array([1, 0, 0, 1]), np.arange(3)))
    conds = [x > 1, x < -1]
    choices = [x, np.arange(20, dtype=np.int16).reshape(4, 5)]
    same(shade.select(conds, choices), np.select(conds, choices))
    same(shade.select(conds, choices, default=np.float64(7)),
         np.select(conds, choices, default=np.float64(7)))
    raises_like(lambda: shade.select([], []), lambda: np.select([], []))
    raises_like(lambda: shade.select([np.array([1, 0])], [np.array([1, 2])]),
                lambda: np.select([np.array([1, 0])], [np.array([1, 2])]))
    raises_like(lambda: shade.select(conds, choices[:1]), lambda: np.select(conds, choices[:1]))


# ------------------------------------------------------------------ sets

@pytest.mark.parametrize("dtype", ALL)
def test_unique(dtype):
    x = data(dtype, (6, 7), 11)
    for v in views(x):
        for flags in [(False, False, False), (True, True, True), (True, False, True),
                      (False, True, False)]:
            s = shade.unique(v, *flags)
            n = np.unique(v, *flags)
            if not any(flags):
                same(s, n)
            else:
                assert len(s) == len(n)
                for a, b in zip(s, n):
                    same(a, b)
    if np.issubdtype(dtype, np.floating):
        for a, b in zip(shade.unique(x, return_counts=True, equal_nan=False),
                        np.unique(x, return_counts=True, equal_nan=False)):
            same(a, b)
    y = data(dtype, (6, 3), 12, nan=False)
    y = np.concatenate([y, y[:2]])
    for axis in [0, 1, -1]:
        for a, b in zip(shade.unique(y, True, True, True, axis=axis),
                        np.unique(y, True, True, True, axis=axis)):
            same(a, b)
    same(shade.unique(np.array(3, dtype)), np.unique(np.array(3, dtype)))
    same(shade.unique(np.zeros(0, dtype)), np.unique(np.zeros(0, dtype)))
    raises_like(lambda: shade.unique(np.ones(3), axis=1), lambda: np.unique(np.ones(3), axis=1))


@pytest.mark.parametrize("d1,d2", [(np.int64, np.int64), (np.int8, np.float64),
                                   (np.float32, np.float32), (np.uint16, np.int16),
                                   (np.bool_, np.bool_), (np.float16, np.float64)])
def test_set_routines(d1, d2):
    a = data(d1, (5, 6), 13)
    b = data(d2, (11,), 14)
    same(shade.isin(a, b), np.isin(a, b))
    same(shade.isin(a, b, invert=True), np.isin(a, b, invert=True))
    same(shade.isin(a.T, b[::2]), np.isin(a.T, b[::2]))
    same(shade.in1d(a, b), np.in1d(a, b))
    same(shade.intersect1d(a, b), np.intersect1d(a, b))
    for s, n in zip(shade.intersect1d(a, b, return_indices=True),
                    np.intersect1d(a, b, return_indices=True)):
        same(s, n)
    same(shade.union1d(a, b), np.union1d(a, b))
    same(shade.setdiff1d(a, b), np.setdiff1d(a, b))
    same(shade.setxor1d(a, b), np.setxor1d(a, b))
    ua, ub = np.unique(a), np.unique(b)
    same(shade.setdiff1d(ua[::-1], ub, assume_unique=True),
         np.setdiff1d(ua[::-1], ub, assume_unique=True))
    same(shade.setxor1d(ua, ub, assume_unique=True), np.setxor1d(ua, ub, assume_unique=True))
    same(shade.intersect1d(ua, ub, assume_unique=True), np.intersect1d(ua, ub, assume_unique=True))
    same(shade.isin(np.array(2, d1), b), np.isin(np.array(2, d1), b))
    same(shade.union1d(np.zeros(0, d1), np.zeros(0, d2)), np.union1d(np.zeros(0, d1), np.zeros(0, d2)))


# ------------------------------------------------------------------ counting and binning

@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint8, np.int32, np.int64, np.uint32])
def test_bincount(dtype):
    x = np.abs(data(dtype, (40,), 15).astype(np.int64)).astype(dtype)
    w = data(np.float32, (40,), 16, nan=False)
    same(shade.bincount(x), np.bincount(x))
    same(shade.bincount(x[::3]), np.bincount(x[::3]))
    same(shade.bincount(x, weights=w), np.bincount(x, weights=w))
    same(shade.bincount(x, minlength=50), np.bincount(x, minlength=50))
    same(shade.bincount(np.zeros(0, dtype)), np.bincount(np.zeros(0, dtype)))


def test_bincount_errors():
    for bad in [np.array([1.0]), np.array([1], np.uint64), np.array([-1]), np.array([[1]]),
                np.array(1)]:
        raises_like(lambda: shade.bincount(bad), lambda: np.bincount(bad))
    raises_like(lambda: shade.bincount(np.array([1]), minlength=-1),
                lambda: np.bincount(np.array([1]), minlength=-1))
    raises_like(lambda: shade.bincount(np.array([1, 2]), weights=np.array([1.0])),
                lambda: np.bincount(np.array([1, 2]), weights=np.array([1.0])))


@pytest.mark.parametrize("dtype", [np.int16, np.float32, np.float64, np.uint8])
def test_digitize(dtype):
    x = data(dtype, (4, 6), 17)
    for bins in [np.array([-3, 0, 1, 5]), np.array([5.0, 1.0, 0.0, -3.0]), np.array([1, 1, 2])]:
        for right in [False, True]:
            same(shade.digitize(x, bins, right=right), np.digitize(x, bins, right=right))
    same(shade.digitize(2.5, np.array([1, 2, 3])), np.digitize(2.5, np.array([1, 2, 3])))
    raises_like(lambda: shade.digitize(x, np.array([1, 3, 2])),
                lambda: np.digitize(x, np.array([1, 3, 2])))
    raises_like(lambda: shade.digitize(x, np.ones((2, 2))), lambda: np.digitize(x, np.ones((2, 2))))


@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.float16, np.float32, np.float64,
                                   np.uint16, np.bool_])
def test_histogram(dtype):
    x = data(dtype, (7, 9), 18, nan=False)
    x = np.where(np.isinf(x), 1, x).astype(dtype) if x.dtype.kind == "f" else x
    w = data(np.float32, (7, 9), 19, nan=False)
    w = np.where(np.isinf(w), 1, w).astype(np.float32)
    for bins in [10, 1, 7]:
        for rng in [None, (-2.0, 3.0)]:
            for s, n in zip(shade.histogram(x, bins, range=rng), np.histogram(x, bins, range=rng)):
                same(s, n)
            for s, n in zip(shade.histogram(x, bins, range=rng, density=True),
                            np.histogram(x, bins, range=rng, density=True)):
                same(s, n, rtol=1e-12)
            for s, n in zip(shade.histogram(x, bins, range=rng, weights=w),
                            np.histogram(x, bins, range=rng, weights=w)):
                same(s, n, rtol=1e-5)
    edges = np.array([-4.0, -1.0, 0.0, 0.5, 3.5])
    for s, n in zip(shade.histogram(x, edges), np.histogram(x, edges)):
        same(s, n)
    for s, n in zip(shade.histogram(x.T, edges, weights=w.T, density=True),
                    np.histogram(x.T, edges, weights=w.T, density=True)):
        same(s, n, rtol=1e-5)


def test_histogram_edge_cases_and_errors():
    for a in [np.zeros(0), np.array(3.0), np.full(5, 2.0), np.arange(5, dtype=np.int32)]:
        for s, n in zip(shade.histogram(a), np.histogram(a)):
            same(s, n)
    x = np.arange(6.0)
    raises_like(lambda: shade.histogram(np.array([1, np.nan])), lambda: np.histogram(np.array([1, np.nan])))
    raises_like(lambda: shade.histogram(x, 0), lambda: np.histogram(x, 0))
    raises_like(lambda: shade.histogram(x, range=(2, 1)), lambda: np.histogram(x, range=(2, 1)))
    raises_like(lambda: shade.histogram(x, range=(0, np.inf)), lambda: np.histogram(x, range=(0, np.inf)))
    raises_like(lambda: shade.histogram(x, np.array([1, 0])), lambda: np.histogram(x, np.array([1, 0])))
    raises_like(lambda: shade.histogram(x, weights=np.ones(2)), lambda: np.histogram(x, weights=np.ones(2)))


def test_histogram2d():
    x = data(np.float32, (50,), 20, nan=False)
    y = data(np.float64, (50,), 21, nan=False)
    x = np.where(np.isinf(x), 0, x)
    y = np.where(np.isinf(y), 0, y)
    w = np.arange(50.0)
    for kw in [{}, {"bins": 4}, {"bins": (3, 5)}, {"range": ((-2, 2), (0, 3))},
               {"weights": w}, {"density": True}, {"bins": 6, "weights": w, "density": True}]:
        for s, n in zip(shade.histogram2d(x, y, **kw), np.histogram2d(x, y, **kw)):
            same(s, n, rtol=1e-12)
    raises_like(lambda: shade.histogram2d(x, y[:3]), lambda: np.histogram2d(x, y[:3]))


# ------------------------------------------------------------------ cumulative

@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("shape", [(7,), (4, 5), (2, 3, 4), (0,), (3, 0)])
def test_cumsum_cumprod(dtype, shape):
    x = data(dtype, shape, 22)
    if np.issubdtype(dtype, np.floating):
        x = np.where(np.isinf(x), 1, x).astype(dtype)
    for v in views(x):
        for axis in [None] + list(range(-v.ndim, v.ndim)):
            same(shade.cumsum(v, axis=axis), np.cumsum(v, axis=axis))
            same(shade.cumprod(v, axis=axis), np.cumprod(v, axis=axis))
            same(shade.asarray(v).cumsum(axis), v.cumsum(axis))
    same(shade.cumsum(x, dtype=np.float32), np.cumsum(x, dtype=np.float32))
    same(shade.cumprod(x, dtype=np.int16), np.cumprod(x, dtype=np.int16))


def test_cumulative_rank0_out_and_errors():
    same(shade.cumsum(np.array(3)), np.cumsum(np.array(3)))
    same(shade.cumsum(np.array(3), axis=0), np.cumsum(np.array(3), axis=0))
    out = shade.zeros((2, 3))
    r = shade.cumsum(np.ones((2, 3)), axis=1, out=out)
    assert r is out
    same(out, np.cumsum(np.ones((2, 3)), axis=1))
    raises_like(lambda: shade.cumsum(np.ones((2, 3)), axis=2), lambda: np.cumsum(np.ones((2, 3)), axis=2))


@pytest.mark.parametrize("dtype", ALL)
def test_diff_ediff1d(dtype):
    x = data(dtype, (5, 6), 23)
    for v in views(x):
        for n in [0, 1, 2, 7]:
            for axis in [0, -1]:
                same(shade.diff(v, n=n, axis=axis), np.diff(v, n=n, axis=axis))
    if dtype != np.bool_:
        p = np.array(1, dtype)
        same(shade.diff(x, prepend=p, append=x[:, :2]), np.diff(x, prepend=p, append=x[:, :2]))
        same(shade.ediff1d(x), np.ediff1d(x))
        same(shade.ediff1d(x, to_begin=np.array([7], dtype), to_end=np.array([1, 2], dtype)),
             np.ediff1d(x, to_begin=np.array([7], dtype), to_end=np.array([1, 2], dtype)))
    raises_like(lambda: shade.diff(np.array(3)), lambda: np.diff(np.array(3)))
    raises_like(lambda: shade.diff(x, n=-1), lambda: np.diff(x, n=-1))
    raises_like(lambda: shade.ediff1d(np.array([True, False])),
                lambda: np.ediff1d(np.array([True, False])))
    raises_like(lambda: shade.ediff1d(np.arange(3, dtype=np.int8), to_end=1.5),
                lambda: np.ediff1d(np.arange(3, dtype=np.int8), to_end=1.5))


# ------------------------------------------------------------------ statistics

METHODS = ["linear", "lower", "higher", "midpoint", "nearest", "inverted_cdf",
           "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf", "hazen",
           "weibull", "median_unbiased", "normal_unbiased"]


def tol(dtype):
    return {np.float16: 2e-3, np.float32: 1e-6}.get(dtype, 1e-12)


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("shape", [(9,), (4, 6), (3, 4, 5), (6, 1)])
def test_median(dtype, shape):
    x = data(dtype, shape, 24)
    for v in views(x):
        for axis in [None, 0, -1, tuple(range(v.ndim))] + ([(0, 1)] if v.ndim > 2 else []):
            for keepdims in [False, True]:
                same(shade.median(v, axis=axis, keepdims=keepdims),
                     np.median(v, axis=axis, keepdims=keepdims), rtol=tol(dtype))


@pytest.mark.parametrize("dtype", INTS + FLOATS)
@pytest.mark.parametrize("method", METHODS)
def test_quantile_methods(dtype, method):
    x = data(dtype, (5, 8), 25)
    for q in [0.5, 0.0, 1.0, 0.123, [0.1, 0.9, 0.5], np.array([[0.25], [0.75]])]:
        for axis in [None, 0, 1, (0, 1)]:
            s = shade.quantile(x, q, axis=axis, method=method)
            n = np.quantile(x, q, axis=axis, method=method)
            same(s, n, rtol=tol(dtype))
            assert np.asarray(s).dtype == np.asarray(n).dtype
    qs = [0, 33.3, 100]
    same(shade.percentile(x.T, qs, axis=1, method=method, keepdims=True),
         np.percentile(x.T, qs, axis=1, method=method, keepdims=True), rtol=tol(dtype))


def test_quantile_errors_and_edge_cases():
    x = np.arange(12.0).reshape(3, 4)
    assert isinstance(shade.quantile(x, 0.3), np.float64)
    same(shade.quantile(x, 0.3, interpolation="lower"), np.quantile(x, 0.3, method="lower"))
    same(shade.median(np.array(5)), np.median(np.array(5)))
    with pytest.warns(RuntimeWarning):
        n = np.median(np.zeros(0))
    same(shade.median(np.zeros(0)), n)
    same(shade.median(np.array([True, False, True])), np.median(np.array([True, False, True])))
    same(shade.quantile(np.array([True, False]), 0.5, method="lower"),
         np.quantile(np.array([True, False]), 0.5, method="lower"))
    raises_like(lambda: shade.quantile(x, 1.5), lambda: np.quantile(x, 1.5))
    raises_like(lambda: shade.percentile(x, -1), lambda: np.percentile(x, -1))
    raises_like(lambda: shade.quantile(x, 0.5, method="foo"), lambda: np.quantile(x, 0.5, method="foo"))
    raises_like(lambda: shade.quantile(np.array([True, False]), 0.5),
                lambda: np.quantile(np.array([True, False]), 0.5))
    raises_like(lambda: shade.quantile(np.zeros(0), 0.5), lambda: np.quantile(np.zeros(0), 0.5))
    raises_like(lambda: shade.median(x, axis=2), lambda: np.median(x, axis=2))


@pytest.mark.parametrize("dtype", INTS + FLOATS)
def test_ptp_average(dtype):
    x = data(dtype, (4, 5), 26)
    for v in views(x):
        for axis in [None, 0, 1, (0, 1)]:
            same(shade.ptp(v, axis=axis), np.ptp(v, axis=axis))
            same(shade.ptp(v, axis=axis, keepdims=True), np.ptp(v, axis=axis, keepdims=True))
            same(shade.average(v, axis=axis), np.average(v, axis=axis), rtol=tol(dtype) * 10)
    same(shade.asarray(x).ptp(0), x.ptp(0))
    w = np.arange(1, 21, dtype=np.float32).reshape(4, 5)
    same(shade.average(x, weights=w), np.average(x, weights=w), rtol=tol(dtype) * 10)
    same(shade.average(x, axis=1, weights=w[0]), np.average(x, axis=1, weights=w[0]),
         rtol=tol(dtype) * 10)
    same(shade.average(x, axis=0, weights=np.arange(4, dtype=np.int8), keepdims=True),
         np.average(x, axis=0, weights=np.arange(4, dtype=np.int8), keepdims=True),
         rtol=tol(dtype) * 10)
    raises_like(lambda: shade.average(x, weights=np.zeros((4, 5))),
                lambda: np.average(x, weights=np.zeros((4, 5))))
    raises_like(lambda: shade.average(x, weights=w[0]), lambda: np.average(x, weights=w[0]))
    raises_like(lambda: shade.average(x, axis=1, weights=w[:, 0]),
                lambda: np.average(x, axis=1, weights=w[:, 0]))
    raises_like(lambda: shade.ptp(np.zeros(0, dtype)), lambda: np.ptp(np.zeros(0, dtype)))
    raises_like(lambda: shade.ptp(np.array([True, False])), lambda: np.ptp(np.array([True, False])))


# ------------------------------------------------------------------ nan* reductions

NAN_REDUCTIONS = ["nansum", "nanprod", "nanmean", "nanmin", "nanmax"]


@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.uint16, np.float16, np.float32,
                                   np.float64])
def test_nan_reductions(dtype):
    x = data(dtype, (5, 6), 27)
    if x.dtype.kind == "f":
        x = np.where(np.isinf(x), 2, x).astype(dtype)
        x[2] = np.nan  # an all-NaN row
    r = tol(dtype) * 10
    with np.errstate(all="ignore"), pytest.warns(None) if False else _quiet():
        for v in views(x):
            for axis in [None, 0, 1]:
                for name in NAN_REDUCTIONS:
                    same(getattr(shade, name)(v, axis=axis), getattr(np, name)(v, axis=axis),
                         rtol=r)
                for ddof in [0, 1]:
                    same(shade.nanvar(v, axis=axis, ddof=ddof), np.nanvar(v, axis=axis, ddof=ddof),
                         rtol=r * 10)
                    same(shade.nanstd(v, axis=axis, ddof=ddof, keepdims=True),
                         np.nanstd(v, axis=axis, ddof=ddof, keepdims=True), rtol=r * 10)
                same(shade.nanmedian(v, axis=axis), np.nanmedian(v, axis=axis), rtol=r)
                same(shade.nanquantile(v, [0.2, 0.5], axis=axis),
                     np.nanquantile(v, [0.2, 0.5], axis=axis), rtol=r)
                same(shade.nanpercentile(v, 30, axis=axis, method="lower"),
                     np.nanpercentile(v, 30, axis=axis, method="lower"))
                same(shade.nancumsum(v, axis=axis), np.nancumsum(v, axis=axis))
                same(shade.nancumprod(v, axis=axis), np.nancumprod(v, axis=axis))
        y = x[[0, 1, 3, 4]]
        for axis in [None, 0, 1]:
            same(shade.nanargmin(y, axis=axis), np.nanargmin(y, axis=axis))
            same(shade.nanargmax(y, axis=axis), np.nanargmax(y, axis=axis))
    if x.dtype.kind == "f":
        raises_like(lambda: shade.nanargmax(x, axis=1), lambda: np.nanargmax(x, axis=1))


class _quiet:
    def __enter__(self):
        import warnings
        self._w = warnings.catch_warnings()
        self._w.__enter__()
        warnings.simplefilter("ignore")

    def __exit__(self, *a):
        self._w.__exit__(*a)


# ------------------------------------------------------------------ covariance, comparisons

@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64])
def test_cov_corrcoef(dtype):
    m = data(dtype, (3, 8), 28, nan=False)
    m = np.where(np.isinf(m), 1, m).astype(dtype) if m.dtype.kind == "f" else m
    y = data(dtype, (2, 8), 29, nan=False)
    y = np.where(np.isinf(y), 2, y).astype(dtype) if y.dtype.kind == "f" else y
    for kw in [{}, {"bias": True}, {"ddof": 3}]:
        same(shade.cov(m, **kw), np.cov(m, **kw), rtol=1e-12)
        same(shade.cov(m, y, **kw), np.cov(m, y, **kw), rtol=1e-12)
        same(shade.cov(m.T, rowvar=False, **kw), np.cov(m.T, rowvar=False, **kw), rtol=1e-12)
        same(shade.cov(m[0], **kw), np.cov(m[0], **kw), rtol=1e-12)
    same(shade.corrcoef(m), np.corrcoef(m), rtol=1e-12)
    same(shade.corrcoef(m, y), np.corrcoef(m, y), rtol=1e-12)
    same(shade.corrcoef(m[0]), np.corrcoef(m[0]), rtol=1e-12)
    raises_like(lambda: shade.cov(np.ones((2, 2, 2))), lambda: np.cov(np.ones((2, 2, 2))))


@pytest.mark.parametrize("d1,d2", [(np.float64, np.float64), (np.float32, np.float32),
                                   (np.int32, np.float64), (np.float16, np.float16),
                                   (np.int64, np.int64)])
def test_isclose_family(d1, d2):
    a = np.array([1, 2, np.inf, -np.inf, np.nan, 0, 1e-9, 100]) if d1 != np.int64 else np.arange(8)
    b = np.array([1 + 1e-6, 2.1, np.inf, np.inf, np.nan, 1e-9, 0, 100.0001])
    a = a.astype(d1) if d1 not in INTS else a.astype(d1)
    b = b.astype(d2) if d2 not in INTS else np.arange(8).astype(d2)
    for kw in [{}, {"equal_nan": True}, {"rtol": 1e-3, "atol": 0.5}]:
        same(shade.isclose(a, b, **kw), np.isclose(a, b, **kw))
        same(shade.isclose(a[:, None], b[None, :], **kw), np.isclose(a[:, None], b[None, :], **kw))
        assert shade.allclose(a, b, **kw) == np.allclose(a, b, **kw)
        assert shade.allclose(a, a, **kw) == np.allclose(a, a, **kw)
    assert isinstance(shade.isclose(1.0, 1.0), np.bool_)
    for e in [False, True]:
        assert shade.array_equal(a, a, equal_nan=e) == np.array_equal(a, a, equal_nan=e)
        assert shade.array_equal(a, b) == np.array_equal(a, b)
        assert shade.array_equal(a, a[:3]) == np.array_equal(a, a[:3])
    for kw in [{}, {"nan": 5.0, "posinf": 1.0}, {"neginf": -2.0}]:
        same(shade.nan_to_num(a, **kw), np.nan_to_num(a, **kw))


# ------------------------------------------------------------------ integration, convolution

@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64, np.int8])
def test_trapz_convolve_correlate(dtype):
    y = data(dtype, (4, 7), 30, nan=False)
    y = np.where(np.isinf(y), 1, y).astype(dtype) if y.dtype.kind == "f" else y
    x = np.cumsum(np.arange(7) * 0.5 + 1)
    for axis in [0, -1]:
        same(shade.trapz(y, axis=axis), np.trapz(y, axis=axis), rtol=tol(dtype))
        same(shade.trapz(y.T, dx=0.25, axis=axis), np.trapz(y.T, dx=0.25, axis=axis),
             rtol=tol(dtype))
    same(shade.trapz(y, x), np.trapz(y, x), rtol=tol(dtype))
    same(shade.trapz(y[0], x), np.trapz(y[0], x), rtol=tol(dtype))
    a, v = y[0], y[1, :3]
    for mode in ["full", "same", "valid"]:
        same(shade.convolve(a, v, mode), np.convolve(a, v, mode), rtol=tol(dtype))
        same(shade.convolve(v, a[::2], mode), np.convolve(v, a[::2], mode), rtol=tol(dtype))
        same(shade.correlate(a, v, mode), np.correlate(a, v, mode), rtol=tol(dtype))
        same(shade.correlate(v, a, mode), np.correlate(v, a, mode), rtol=tol(dtype))
    raises_like(lambda: shade.convolve(a, np.zeros(0, dtype)), lambda: np.convolve(a, np.zeros(0, dtype)))
    raises_like(lambda: shade.convolve(a, v, "bogus"), lambda: np.convolve(a, v, "bogus"))


def test_interp():
    xp = np.array([0.0, 1.0, 1.5, 4.0, 4.0, 7.0])
    fp = np.array([1.0, -2.0, 0.5, 3.0, 5.0, np.inf])
    x = np.array([[-1.0, 0.0, 0.3, 1.5, 2.2], [4.0, 5.5, 7.0, 8.0, np.nan]])
    same(shade.interp(x, xp, fp), np.interp(x, xp, fp))
    same(shade.interp(x.T, xp, fp, left=-9, right=9), np.interp(x.T, xp, fp, left=-9, right=9))
    same(shade.interp(np.arange(5, dtype=np.int8), xp[:3], fp[:3]),
         np.interp(np.arange(5, dtype=np.int8), xp[:3], fp[:3]))
    assert shade.interp(0.5, xp, fp) == np.interp(0.5, xp, fp)
    raises_like(lambda: shade.interp(1, [], []), lambda: np.interp(1, [], []))
    raises_like(lambda: shade.interp(1, [1, 2], [1]), lambda: np.interp(1, [1, 2], [1]))


@pytest.mark.parametrize("dtype", ALL)
def test_round_decimals(dtype):
    x = data(dtype, (3, 5), 31) if dtype == np.bool_ else \
        (data(np.float64, (3, 5), 31, nan=False) * 37.3).astype(dtype)
    if x.dtype.kind == "f":
        x[0, 0] = np.nan
    for d in [0, 1, 2, -1, -2]:
        if dtype == np.bool_ and d != 0:
            raises_like(lambda: shade.round(x, d), lambda: np.round(x, d))
            continue
        same(shade.round(x, d), np.round(x, d))
        same(shade.around(x.T, decimals=d), np.around(x.T, decimals=d))
        same(shade.asarray(x).round(d), x.round(d))
    assert shade.round(2.5) == np.round(2.5)


@pytest.mark.parametrize("dtype", [np.int16, np.int64, np.float32, np.float64, np.float16])
def test_gradient(dtype):
    f = (data(np.float64, (5, 6), 32, nan=False) * 3).astype(dtype)
    f = np.where(np.isinf(f.astype(np.float64)), 1, f).astype(dtype)
    for args, kw in [((), {}), ((2.0,), {}), ((0.5, 3.0), {}), ((), {"axis": 0}),
                     ((), {"axis": -1, "edge_order": 2}), ((), {"edge_order": 2})]:
        s, n = shade.gradient(f, *args, **kw), np.gradient(f, *args, **kw)
        if isinstance(n, np.ndarray):
            same(s, n, rtol=tol(dtype) * 4)
        else:
            assert len(s) == len(n)
            for a, b in zip(s, n):
                same(a, b, rtol=tol(dtype) * 4)
    same(shade.gradient(f[0]), np.gradient(f[0]), rtol=tol(dtype) * 4)
    raises_like(lambda: shade.gradient(f[:2], edge_order=2), lambda: np.gradient(f[:2], edge_order=2))
