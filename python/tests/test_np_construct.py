"""Construction and shape functions (issue 40, item 6) against NumPy 1.24 live: several dtypes,
rank 0, empty, non-contiguous views, negative axes, every pad mode and the error classes."""
import copy
import pickle

import numpy as np
import pytest

import shade

DTYPES = [np.float32, np.float64, np.int8, np.int32, np.int64, np.uint8, np.bool_]


def same(s, n):
    """shade result s equals NumPy result n: shape, dtype and values (NaN equal)."""
    if isinstance(n, (list, tuple)):
        assert isinstance(s, (list, tuple)) and len(s) == len(n)
        for x, y in zip(s, n):
            same(x, y)
        return
    s_np = np.asarray(s)
    assert s_np.shape == np.shape(n), (s_np.shape, np.shape(n))
    assert s_np.dtype == np.asarray(n).dtype, (s_np.dtype, np.asarray(n).dtype)
    np.testing.assert_array_equal(s_np, n)


def sample(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.integers(-20, 20, size=shape)
    if dtype == np.uint8:
        x = np.abs(x)
    return x.astype(dtype)


def pair(shape, dtype, transposed=False):
    x = sample(shape, dtype)
    if transposed:
        x = x.T
    s = shade.asarray(np.ascontiguousarray(x.T)).T if transposed else shade.asarray(x.copy())
    return s, x


# ------------------------------------------------------------------ diagonals and triangles

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("transposed", [False, True])
def test_diagonal_trace_diag(dtype, transposed):
    s, n = pair((4, 5), dtype, transposed)
    for k in (-6, -2, 0, 1, 4, 9):
        same(shade.diagonal(s, k), np.diagonal(n, k))
        same(s.diagonal(k), n.diagonal(k))
        same(shade.diag(s, k), np.diag(n, k))
        if dtype != np.bool_:
            r, e = shade.trace(s, k), np.trace(n, k)
            assert type(r) == type(e) and r == e
    s3, n3 = pair((2, 3, 4), dtype, transposed)
    same(shade.diagonal(s3, 1, -1, 0), np.diagonal(n3, 1, -1, 0))
    if dtype != np.bool_:
        same(shade.trace(s3, 0, 1, 2), np.trace(n3, 0, 1, 2))
        same(s3.trace(axis1=2, axis2=0, dtype=np.float32), n3.trace(axis1=2, axis2=0, dtype=np.float32))
    v = shade.asarray(sample(3, dtype))
    for k in (-2, 0, 3):
        same(shade.diag(v, k), np.diag(np.asarray(v), k))
        same(shade.diagflat(shade.asarray(sample((2, 2), dtype)), k), np.diagflat(sample((2, 2), dtype), k))
    d = shade.diagonal(s)
    assert not d.flags.writeable and d.base is (s if s.base is None else s.base)
    with pytest.raises(ValueError, match="read-only"):
        d[0] = 1


def test_diagonal_errors():
    with pytest.raises(ValueError):
        shade.diagonal(shade.zeros(3))
    with pytest.raises(ValueError):
        shade.diagonal(shade.zeros((3, 3)), 0, 1, 1)
    with pytest.raises(ValueError):
        shade.diag(shade.zeros((2, 2, 2)))
    with pytest.raises(IndexError):
        shade.diagonal(shade.zeros((3, 3)), 0, 0, 2)


@pytest.mark.parametrize("dtype", DTYPES)
def test_triangles(dtype):
    for shape in [(4, 5), (2, 3, 4), (3,), (0, 3)]:
        s, n = pair(shape, dtype)
        for k in (-2, 0, 1, 7):
            same(shade.tril(s, k), np.tril(n, k))
            same(shade.triu(s, k=k), np.triu(n, k=k))
    st, nt = pair((4, 3), dtype, transposed=True)
    same(shade.tril(st, -1), np.tril(nt, -1))
    for args in [(3,), (3, 5), (3, 5, -1), (0, 2)]:
        same(shade.tri(*args), np.tri(*args))
        same(shade.tri(*args, dtype=dtype), np.tri(*args, dtype=dtype))
    same(shade.identity(3), np.identity(3))
    same(shade.identity(2, dtype=dtype), np.identity(2, dtype=dtype))


# ------------------------------------------------------------------ grids and broadcasting

@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("sparse", [False, True])
def test_meshgrid(indexing, sparse):
    xs = [np.arange(3, dtype=np.float32), np.array([1, 5], np.int64), np.arange(4.0)[::2]]
    for k in range(0, 4):
        args = xs[:k]
        same(shade.meshgrid(*[shade.asarray(x) for x in args], indexing=indexing, sparse=sparse),
             list(np.meshgrid(*args, indexing=indexing, sparse=sparse)))
    same(shade.meshgrid(shade.asarray(np.arange(6).reshape(2, 3)), np.arange(2), copy=False),
         list(np.meshgrid(np.arange(6).reshape(2, 3), np.arange(2), copy=False)))
    with pytest.raises(ValueError):
        shade.meshgrid(shade.zeros(2), indexing="xx")


def test_indices_and_grids():
    for dims in [(2, 3), (0, 2), (), (3,)]:
        same(shade.indices(dims), np.indices(dims))
        same(shade.indices(dims, dtype=np.float32), np.indices(dims, dtype=np.float32))
        same(shade.indices(dims, sparse=True), np.indices(dims, sparse=True))
    same(shade.mgrid[0:5], np.mgrid[0:5])
    same(shade.mgrid[-1:1:5j], np.mgrid[-1:1:5j])
    same(shade.mgrid[0:3, 1:4:2], np.mgrid[0:3, 1:4:2])
    same(shade.mgrid[0:1:3j, 0:2], np.mgrid[0:1:3j, 0:2])
    same(shade.ogrid[0:3, 1:4:2], np.ogrid[0:3, 1:4:2])
    same(shade.ogrid[0:4.0], np.ogrid[0:4.0])
    same(shade.ix_([0, 2], np.array([True, False, True])), np.ix_([0, 2], np.array([True, False, True])))
    same(shade.ix_([], [1]), np.ix_([], [1]))
    with pytest.raises(ValueError):
        shade.ix_(np.zeros((2, 2), int))
    assert list(shade.ndindex(2, 3)) == list(np.ndindex(2, 3))
    assert list(shade.ndindex((2, 1))) == list(np.ndindex((2, 1)))
    assert list(shade.ndindex()) == list(np.ndindex())
    n = np.arange(6, dtype=np.int16).reshape(2, 3)
    got = list(shade.ndenumerate(shade.asarray(n)))
    want = list(np.ndenumerate(n))
    assert [i for i, _ in got] == [i for i, _ in want]
    assert [v for _, v in got] == [v for _, v in want] and type(got[0][1]) == type(want[0][1])


def test_fromfunction_fromiter_frombuffer():
    same(shade.fromfunction(lambda i, j: i * 10 + j, (2, 3)), np.fromfunction(lambda i, j: i * 10 + j, (2, 3)))
    same(shade.fromfunction(lambda i: i, (3,), dtype=int), np.fromfunction(lambda i: i, (3,), dtype=int))
    same(shade.fromiter(range(5), np.int16), np.fromiter(range(5), np.int16))
    same(shade.fromiter((x * 0.5 for x in range(10)), float, count=3),
         np.fromiter((x * 0.5 for x in range(10)), float, count=3))
    same(shade.fromiter(iter([]), np.float32), np.fromiter(iter([]), np.float32))
    with pytest.raises(ValueError, match="iterator too short"):
        shade.fromiter(range(2), int, count=3)
    raw = np.arange(6, dtype=np.int32).tobytes()
    same(shade.frombuffer(raw, np.int32), np.frombuffer(raw, np.int32))
    same(shade.frombuffer(raw, np.int16, count=3, offset=4), np.frombuffer(raw, np.int16, count=3, offset=4))
    same(shade.frombuffer(raw, np.uint8, offset=24), np.frombuffer(raw, np.uint8, offset=24))
    r = shade.frombuffer(raw, np.int32)
    assert not r.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        r[0] = 5
    buf = bytearray(8)
    w = shade.frombuffer(buf, np.int32)
    w[1] = 7
    assert np.frombuffer(buf, np.int32)[1] == 7 and w.flags.writeable and w.base is buf
    for kwargs in [dict(dtype=np.int64, offset=1), dict(dtype=np.int32, count=7), dict(dtype=np.int8, offset=30)]:
        with pytest.raises(ValueError):
            np.frombuffer(raw, **kwargs)
        with pytest.raises(ValueError):
            shade.frombuffer(raw, **kwargs)


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.bool_])
def test_broadcasting(dtype):
    s, n = pair((3, 1), dtype)
    same(shade.broadcast_to(s, (2, 3, 4)), np.broadcast_to(n, (2, 3, 4)))
    same(shade.broadcast_to(shade.asarray(np.array(5, dtype)), ()), np.broadcast_to(np.array(5, dtype), ()))
    b = shade.broadcast_to(s, (3, 4))
    assert not b.flags.writeable and b.base is s
    with pytest.raises(ValueError, match="read-only"):
        b[0, 0] = 1
    with pytest.raises(ValueError):
        shade.broadcast_to(s, (4, 4))
    x = np.arange(4)
    same(shade.broadcast_arrays(s, shade.asarray(x)), list(np.broadcast_arrays(n, x)))
    assert shade.broadcast_shapes((2, 1), (3,), ()) == np.broadcast_shapes((2, 1), (3,), ())
    assert shade.broadcast_shapes(5, (1, 1)) == np.broadcast_shapes(5, (1, 1))
    assert shade.broadcast_shapes() == np.broadcast_shapes()
    with pytest.raises(ValueError, match="shape mismatch"):
        shade.broadcast_shapes((2,), (3,))


# ------------------------------------------------------------------ axes, ranks, stacking

def test_moveaxis_rollaxis():
    n = sample((2, 3, 4, 5), np.float32)
    s = shade.asarray(n)
    for src, dst in [(0, -1), (-1, 0), ([0, 1], [-1, -2]), ((2, 0), (0, 3)), ([], [])]:
        same(shade.moveaxis(s, src, dst), np.moveaxis(n, src, dst))
    for axis, start in [(3, 0), (0, 4), (-1, 1), (2, -2), (1, 1)]:
        same(shade.rollaxis(s, axis, start), np.rollaxis(n, axis, start))
    with pytest.raises(IndexError):  # NumPy's AxisError is an IndexError (and a ValueError)
        shade.moveaxis(s, 4, 0)
    with pytest.raises(ValueError):
        shade.moveaxis(s, [0, 0], [1, 2])
    with pytest.raises(ValueError):
        shade.moveaxis(s, [0, 1], [1])
    with pytest.raises(IndexError):
        shade.rollaxis(s, 0, 6)
    assert shade.moveaxis(s, 0, 1).base is s


@pytest.mark.parametrize("dtype", [np.float64, np.int8, np.bool_])
def test_atleast_and_stacks(dtype):
    arrays = [np.array(3, dtype), sample(4, dtype), sample((2, 3), dtype), sample((2, 3, 2), dtype)]
    for f in ("atleast_1d", "atleast_2d", "atleast_3d"):
        for a in arrays:
            same(getattr(shade, f)(shade.asarray(a)), getattr(np, f)(a))
        same(getattr(shade, f)(*[shade.asarray(a) for a in arrays[:2]]), getattr(np, f)(*arrays[:2]))
    a1, b1 = sample(3, dtype), sample(3, dtype)
    a2, b2 = sample((2, 3), dtype), sample((2, 3), dtype).T.copy().T
    for f in ("hstack", "vstack", "dstack", "column_stack", "row_stack"):
        for xs in ([a1, b1], [a2, b2], [np.array(1, dtype), np.array(2, dtype)]):
            if f == "column_stack" and xs[0].ndim == 0:
                continue
            same(getattr(shade, f)([shade.asarray(x) for x in xs]), getattr(np, f)(xs))
    same(shade.hstack([a1, np.arange(2)]), np.hstack([a1, np.arange(2)]))
    same(shade.column_stack([a1, a2.T]), np.column_stack([a1, a2.T]))
    with pytest.raises(ValueError):
        shade.vstack([a1, sample(4, dtype)])
    with pytest.raises(ValueError):
        shade.hstack([])


def test_splits():
    n = sample((4, 6, 2), np.int32)
    s = shade.asarray(n)
    for f in ("hsplit", "vsplit", "dsplit"):
        for ios in (2, [1, 3], [-1], []):
            same(getattr(shade, f)(s, ios), getattr(np, f)(n, ios))
    same(shade.hsplit(shade.arange(6), 3), np.hsplit(np.arange(6), 3))
    with pytest.raises(ValueError):
        shade.hsplit(s, 4)
    with pytest.raises(ValueError):
        shade.vsplit(shade.arange(4), 2)
    with pytest.raises(ValueError):
        shade.dsplit(shade.zeros((2, 2)), 2)
    with pytest.raises(ValueError):
        shade.hsplit(shade.asarray(np.array(1.0)), 1)
    assert shade.hsplit(s, 2)[1].base is s


def test_block():
    a, b = np.eye(2), np.zeros((2, 3))
    c, d = np.ones((1, 2)), np.full((1, 3), 7.0)
    same(shade.block([[a, b], [c, d]]), np.block([[a, b], [c, d]]))
    same(shade.block([1, 2, 3]), np.block([1, 2, 3]))
    same(shade.block([[1, 2], [3, 4]]), np.block([[1, 2], [3, 4]]))
    same(shade.block(np.arange(3)), np.block(np.arange(3)))
    same(shade.block([shade.arange(2), np.arange(3)]), np.block([np.arange(2), np.arange(3)]))
    same(shade.block([[np.ones((2, 2, 2))], [np.zeros((2, 2, 2))]]), np.block([[np.ones((2, 2, 2))], [np.zeros((2, 2, 2))]]))
    with pytest.raises(ValueError, match="depths are mismatched"):
        shade.block([[1], 2])
    with pytest.raises(ValueError, match="cannot be empty"):
        shade.block([[]])
    with pytest.raises(TypeError):
        shade.block((1, 2))


# ------------------------------------------------------------------ pad

PAD_WIDTHS = [1, (2, 3), ((1, 0), (0, 2)), ((3, 7), (7, 3))]


@pytest.mark.parametrize("mode", ["constant", "edge", "wrap", "reflect", "symmetric", "linear_ramp",
                                  "maximum", "minimum", "mean", "median"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int16, np.uint8])
def test_pad_modes(mode, dtype):
    for transposed in (False, True):
        s, n = pair((3, 4), dtype, transposed)
        for width in PAD_WIDTHS:
            got, want = shade.pad(s, width, mode), np.pad(n, width, mode)
            if dtype == np.float32 and mode in ("mean", "median"):
                np.testing.assert_allclose(np.asarray(got), want, rtol=1e-6)
                assert got.dtype == want.dtype
            else:
                same(got, want)
    s1, n1 = pair(5, dtype)
    for width in [0, (4, 9), (11, 2)]:
        same(shade.pad(s1, width, mode), np.pad(n1, width, mode))
    same(shade.pad(shade.asarray(np.array(4, dtype)), 3, mode), np.pad(np.array(4, dtype), 3, mode))


def test_pad_keywords():
    s, n = pair((3, 4), np.int32)
    for kw in [dict(constant_values=7), dict(constant_values=(1, 2)), dict(constant_values=((1, 2), (3, 4))),
               dict(constant_values=2.7)]:
        same(shade.pad(s, 2, "constant", **kw), np.pad(n, 2, "constant", **kw))
    for kw in [dict(end_values=5), dict(end_values=((-9, 4), (100, 0)))]:
        same(shade.pad(s, (3, 5), "linear_ramp", **kw), np.pad(n, (3, 5), "linear_ramp", **kw))
    for mode in ("maximum", "minimum", "mean", "median"):
        for kw in [dict(stat_length=1), dict(stat_length=(2, 3)), dict(stat_length=((1, 9), (2, 1))),
                   dict(stat_length=None)]:
            same(shade.pad(s, 2, mode, **kw), np.pad(n, 2, mode, **kw))
    for mode in ("reflect", "symmetric"):
        for width in (1, (5, 9), 13):
            same(shade.pad(s, width, mode, reflect_type="odd"), np.pad(n, width, mode, reflect_type="odd"))
            f = np.linspace(0, 1, 4)
            same(shade.pad(f, width, mode, reflect_type="odd"), np.pad(f, width, mode, reflect_type="odd"))
    same(shade.pad(np.array([[1.0, np.nan, 3.0]]), 1, "median"), np.pad(np.array([[1.0, np.nan, 3.0]]), 1, "median"))
    one = np.array([[5]], np.int8)
    for mode in ("reflect", "symmetric", "wrap", "edge"):
        same(shade.pad(one, 2, mode), np.pad(one, 2, mode))
    e = np.zeros((0, 3))
    same(shade.pad(e, ((2, 1), (0, 0)), "constant"), np.pad(e, ((2, 1), (0, 0)), "constant"))
    same(shade.pad(e, ((0, 0), (1, 1)), "edge"), np.pad(e, ((0, 0), (1, 1)), "edge"))
    assert shade.pad(s, 2, "empty").shape == np.pad(n, 2, "empty").shape
    assert shade.pad(s, 2, "empty").dtype == np.int32


def test_pad_errors():
    s, n = pair((3, 4), np.float64)
    cases = [((s, -1), (n, -1)), ((s, 1, "nope"), (n, 1, "nope")),
             ((s, ((1, 2), (3, 4), (5, 6))), (n, ((1, 2), (3, 4), (5, 6)))),
             ((np.zeros((0, 3)), 1, "edge"), (np.zeros((0, 3)), 1, "edge"))]
    for ours, theirs in cases:
        with pytest.raises(ValueError):
            np.pad(*theirs)
        with pytest.raises(ValueError):
            shade.pad(*ours)
    with pytest.raises(ValueError):
        shade.pad(s, 1, "edge", constant_values=3)
    with pytest.raises(ValueError):
        shade.pad(s, 1, "maximum", stat_length=0)


# ------------------------------------------------------------------ flat indices and bits

def test_ravel_unravel():
    dims = (3, 4, 5)
    for order in ("C", "F"):
        flat = np.array([[0, 7], [59, 33]])
        got = shade.unravel_index(shade.asarray(flat), dims, order=order)
        same(got, np.unravel_index(flat, dims, order=order))
        assert shade.unravel_index(17, dims, order) == np.unravel_index(17, dims, order)
        same(shade.ravel_multi_index(got, dims, order=order), np.ravel_multi_index(np.unravel_index(flat, dims, order=order), dims, order=order))
    coords = (np.array([5, -1]), np.array([0, 3]))
    for mode in ("wrap", "clip", ("clip", "wrap")):
        same(shade.ravel_multi_index(coords, (4, 2), mode=mode), np.ravel_multi_index(coords, (4, 2), mode=mode))
    assert shade.ravel_multi_index((1, 2), (3, 4)) == np.ravel_multi_index((1, 2), (3, 4))
    same(shade.unravel_index(np.array([], np.int64), (2, 2)), np.unravel_index(np.array([], np.int64), (2, 2)))
    with pytest.raises(ValueError):
        shade.ravel_multi_index(coords, (4, 2))
    with pytest.raises(ValueError):
        shade.unravel_index(60, dims)
    with pytest.raises(ValueError):
        shade.unravel_index(-1, dims)
    with pytest.raises(TypeError):
        shade.unravel_index(np.array([1.0]), dims)
    with pytest.raises(ValueError):
        shade.ravel_multi_index((np.array([1]),), (2, 2))


@pytest.mark.parametrize("bitorder", ["big", "little"])
def test_packbits(bitorder):
    rng = np.random.default_rng(1)
    for dtype in (np.bool_, np.int32, np.uint8):
        x = (rng.integers(0, 3, size=(3, 11)) > 0).astype(dtype)
        for axis in (None, 0, 1, -1):
            same(shade.packbits(shade.asarray(x), axis=axis, bitorder=bitorder),
                 np.packbits(x, axis=axis, bitorder=bitorder))
        same(shade.packbits(x.T, axis=0, bitorder=bitorder), np.packbits(x.T, axis=0, bitorder=bitorder))
    b = rng.integers(0, 256, size=(2, 3)).astype(np.uint8)
    for axis in (None, 0, 1):
        for count in (None, 0, 3, -5, 30):
            same(shade.unpackbits(shade.asarray(b), axis=axis, count=count, bitorder=bitorder),
                 np.unpackbits(b, axis=axis, count=count, bitorder=bitorder))
    same(shade.packbits(np.array([], np.uint8)), np.packbits(np.array([], np.uint8)))
    same(shade.packbits(np.array(True)), np.packbits(np.array(True)))
    with pytest.raises(TypeError):
        shade.packbits(np.ones(3))
    with pytest.raises(TypeError):
        shade.unpackbits(np.ones(3, np.int16))
    with pytest.raises(ValueError):
        shade.unpackbits(b, count=-100)
    with pytest.raises(ValueError):
        shade.packbits(b, bitorder="middle")


# ------------------------------------------------------------------ put / take / copyto

@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.uint8])
def test_put_place_putmask(dtype):
    for transposed in (False, True):
        s, n = pair((3, 4), dtype, transposed)
        for ind, v, mode in [([0, -1, 5], [7, 8], "raise"), ([13, -14], 9, "wrap"), ([100, -100], [1, 2], "clip"),
                             ([], [1], "raise"), ([1], [], "raise")]:
            s2, n2 = s.copy(), n.copy()
            shade.put(s2, ind, v, mode=mode)
            np.put(n2, ind, v, mode=mode)
            same(s2, n2)
        s2, n2 = s.copy().T, n.copy().T  # non-contiguous target
        s2.put([1, 2], [5])
        n2.put([1, 2], [5])
        same(s2, n2)
        mask = (n % 3) == 0
        s2, n2 = s.copy(), n.copy()
        shade.place(s2, mask, [4, 5, 6])
        np.place(n2, mask, [4, 5, 6])
        same(s2, n2)
        s2, n2 = s.copy(), n.copy()
        shade.putmask(s2, mask, [1, 2, 3, 4, 5])
        np.putmask(n2, mask, [1, 2, 3, 4, 5])
        same(s2, n2)
    with pytest.raises(IndexError):
        shade.put(shade.zeros(3), [3], 1)
    with pytest.raises(ValueError):
        shade.place(shade.zeros(3), [True, False, True], [])
    with pytest.raises(ValueError):
        shade.putmask(shade.zeros(3), [True, False], [1])
    with pytest.raises(TypeError):
        shade.put([1, 2, 3], [0], 5)


@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.bool_])
def test_take_put_along_axis(dtype):
    s, n = pair((4, 3), dtype, transposed=True)
    assert s.shape == (3, 4)
    idx = np.argsort(sample((3, 4), np.float64), axis=1)
    for axis in (0, 1, -1):
        i = idx if axis != 0 else idx % 3
        same(shade.take_along_axis(s, i, axis), np.take_along_axis(n, i, axis))
        s2, n2 = s.copy(), n.copy()
        shade.put_along_axis(s2, i, np.array(1, dtype), axis)
        np.put_along_axis(n2, i, np.array(1, dtype), axis)
        same(s2, n2)
    same(shade.take_along_axis(s, np.array([0, -1, 5]), None), np.take_along_axis(n, np.array([0, -1, 5]), None))
    s2, n2 = s.copy(), n.copy()
    shade.put_along_axis(s2, np.array([0, 11]), np.array([0, 0], dtype), None)
    np.put_along_axis(n2, np.array([0, 11]), np.array([0, 0], dtype), None)
    same(s2, n2)
    same(shade.take_along_axis(s, np.zeros((1, 4), np.int64), 0), np.take_along_axis(n, np.zeros((1, 4), np.int64), 0))
    with pytest.raises(ValueError):
        shade.take_along_axis(s, np.array([0]), 0)
    with pytest.raises(IndexError):
        shade.take_along_axis(s, np.zeros((1, 4)), 0)
    with pytest.raises(IndexError):
        shade.take_along_axis(s, np.full((1, 4), 5), 0)


def test_copyto():
    for dst_dtype, src in [(np.float32, np.arange(3.0)), (np.int64, np.arange(3, dtype=np.int8)),
                           (np.float64, 2), (np.int16, 7), (np.bool_, True)]:
        s, n = shade.zeros((2, 3), dst_dtype), np.zeros((2, 3), dst_dtype)
        shade.copyto(s, src)
        np.copyto(n, src)
        same(s, n)
        where = np.array([True, False, True])
        s, n = shade.zeros((2, 3), dst_dtype), np.zeros((2, 3), dst_dtype)
        shade.copyto(s, src, where=where)
        np.copyto(n, src, where=where)
        same(s, n)
    s, n = shade.zeros(3, np.int32), np.zeros(3, np.int32)
    shade.copyto(s, np.array([1.7, -2.5, 3.0]), casting="unsafe")
    np.copyto(n, np.array([1.7, -2.5, 3.0]), casting="unsafe")
    same(s, n)
    view = shade.zeros((3, 4)).T
    shade.copyto(view, np.arange(3.0))
    same(view, np.broadcast_to(np.arange(3.0), (4, 3)))
    for args in [(np.zeros(3, np.int32), np.ones(3)), (np.zeros(3, np.uint8), np.ones(3, np.int8))]:
        with pytest.raises(TypeError):
            np.copyto(*args)
        with pytest.raises(TypeError):
            shade.copyto(shade.asarray(args[0].copy()), args[1])
    with pytest.raises(TypeError):
        shade.copyto(shade.zeros(3, np.float32), np.ones(3), casting="safe")
    with pytest.raises(TypeError):
        shade.copyto(shade.zeros(3), np.ones(3), where=np.array([1, 0, 1]))
    with pytest.raises(ValueError):
        shade.copyto(shade.zeros(3), np.ones(4))


# ------------------------------------------------------------------ methods and flags

def test_read_only_arrays():
    a = shade.arange(6.0)
    a.setflags(write=False)
    assert not a.flags.writeable and not a.flags["WRITEABLE"] and not a.flags["W"]
    writes = [lambda: a.__setitem__(0, 1.0), lambda: a.__setitem__(slice(None), 2.0),
              lambda: a.__setitem__(np.array([1, 2]), 3.0), lambda: a.__iadd__(1),
              lambda: shade.add(a, 1, out=a), lambda: shade.copyto(a, 1.0), lambda: shade.put(a, [0], 1),
              lambda: a.fill(0), lambda: shade.putmask(a, a > 2, 0), lambda: a[1:].__setitem__(0, 1.0),
              lambda: shade.place(a, a > 2, [0]), lambda: shade.put_along_axis(a, np.array([0]), 1.0, 0),
              lambda: a.put([0], [1])]
    for w in writes:
        with pytest.raises(ValueError, match="assignment destination is read-only"):
            w()
    same(a, np.arange(6.0))
    big = shade.arange(100000.0)
    big.setflags(write=False)
    with pytest.raises(ValueError, match="read-only"):
        big += 1  # the lazy path
    assert not a[1:].flags.writeable and not a.T.flags.writeable
    with pytest.raises((ValueError, BufferError, TypeError)):
        memoryview(a)[0] = 1.0
    assert np.asarray(a).flags.writeable is False
    through_dlpack = shade.from_dlpack(a)  # exported READ_ONLY, so the importer copies it
    through_dlpack[0] = -1.0
    assert a[0] == 0.0
    a.setflags(write=True)
    a[0] = 5
    assert a[0] == 5
    a.flags.writeable = False
    assert not a.flags.writeable
    base = shade.eye(3)
    base.setflags(write=False)
    view = base[1:]
    with pytest.raises(ValueError, match="cannot set WRITEABLE flag"):
        shade.diagonal(base).setflags(write=True)
    frozen = shade.frombuffer(b"abcd", np.uint8)
    with pytest.raises(ValueError, match="cannot set WRITEABLE flag"):
        frozen.setflags(write=True)
    assert not view.flags.writeable


def test_methods():
    n = sample((3, 4), np.int32)
    s = shade.asarray(n.copy())
    same(s.clip(-3, 5), n.clip(-3, 5))
    same(s.clip(max=2), n.clip(max=2))
    same(s.clip(min=2), n.clip(min=2))
    with pytest.raises(ValueError):
        s.clip()
    assert s.trace() == n.trace() and s.trace(1) == n.trace(1)
    same(s.diagonal(1), n.diagonal(1))
    same(s.repeat(2), n.repeat(2))
    same(s.repeat([1, 0, 2], axis=0), n.repeat([1, 0, 2], axis=0))
    same(s.nonzero(), n.nonzero())
    assert s.tolist() == n.tolist()
    for order in ("C", "F", "A"):
        assert s.tobytes(order) == n.tobytes(order)
        assert s.T.tobytes(order) == n.T.tobytes(order)
    assert shade.asarray(np.array(3.5)).tobytes() == np.array(3.5).tobytes()
    f = shade.asarray(np.array([1.5, -2.0], np.float32))
    same(f.view(np.int32), np.array([1.5, -2.0], np.float32).view(np.int32))
    same(f.view(np.uint8), np.array([1.5, -2.0], np.float32).view(np.uint8))
    same(shade.asarray(np.arange(8, dtype=np.uint8)).view(np.int16), np.arange(8, dtype=np.uint8).view(np.int16))
    same(shade.asarray(np.arange(12, dtype=np.int16).reshape(3, 4)).view(np.int64),
         np.arange(12, dtype=np.int16).reshape(3, 4).view(np.int64))
    v = f.view(np.int32)
    v[0] = 0
    assert f[0] == 0.0 and v.base is f
    assert f.view().base is f
    with pytest.raises(ValueError):
        shade.asarray(np.arange(3, dtype=np.int8)).view(np.int16)
    with pytest.raises(ValueError):
        shade.asarray(np.arange(4, dtype=np.int16).reshape(2, 2)).T.view(np.int8)
    with pytest.raises(ValueError):
        shade.asarray(np.array(1, np.int32)).view(np.int8)


def test_flat_iter_contains():
    n = sample((3, 4), np.float64)
    s = shade.asarray(n.copy())
    for t, m in ((s, n), (s.T, n.T)):
        assert list(t.flat) == list(m.flat)
        assert len(t.flat) == len(m.flat)
        assert t.flat[5] == m.flat[5]
        same(t.flat[2:7], m.flat[2:7])
        same(t.flat[[0, -1]], m.flat[[0, -1]])
        same(np.asarray(t.flat), np.asarray(m.flat))
        same(t.flat.copy(), m.flat.copy())
    for t, m in ((shade.asarray(n.copy()), n.copy()), (shade.asarray(n.copy()).T, n.copy().T)):
        t.flat[3] = 100
        m.flat[3] = 100
        t.flat[[0, 5, 6]] = [1, 2]
        m.flat[[0, 5, 6]] = [1, 2]
        t.flat[8:] = -1
        m.flat[8:] = -1
        same(t, m)
        t.flat = [7, 8, 9]
        m.flat = [7, 8, 9]
        same(t, m)
    assert s.flat.base is s
    rows = list(iter(s))
    assert len(rows) == 3
    same(rows[1], n[1])
    assert [type(x) for x in shade.arange(3)] == [type(x) for x in np.arange(3)]
    with pytest.raises(TypeError):
        iter(shade.asarray(np.array(1.0)))
    assert (n[1, 2] in s) and (1234.5 not in s)
    assert (n[0] in s) == (n[0] in n)
    assert list(shade.zeros((0, 2))) == []


def test_flags_base_pickle():
    s = shade.arange(12).reshape(3, 4)
    n = np.arange(12).reshape(3, 4)
    fresh = shade.zeros((2, 3))
    assert fresh.flags.c_contiguous and fresh.flags.owndata and fresh.base is None
    assert fresh.flags["C_CONTIGUOUS"] and not fresh.flags["F_CONTIGUOUS"] and fresh.flags.aligned
    t = shade.moveaxis(fresh, 0, 1)
    assert t.flags.f_contiguous == np.moveaxis(np.zeros((2, 3)), 0, 1).flags.f_contiguous
    assert not t.flags.c_contiguous and not t.flags.owndata and t.base is fresh
    assert shade.moveaxis(t, 0, 1).base is fresh  # chains collapse to the owner
    assert "WRITEABLE : True" in repr(fresh.flags)
    for a, m in ((s, n), (s.T, n.T), (shade.asarray(np.array(2.5, np.float32)), np.array(2.5, np.float32)),
                 (shade.zeros((0, 3), np.int8), np.zeros((0, 3), np.int8)), (shade.arange(5) > 2, np.arange(5) > 2)):
        r = pickle.loads(pickle.dumps(a))
        same(r, m)
        assert r.flags.writeable and isinstance(r, shade.ndarray)
        same(copy.deepcopy(a), m)
    b16 = shade.asarray(np.array([1.0, 2.5], np.float32)).astype(shade.bfloat16)
    r = pickle.loads(pickle.dumps(b16))
    assert r.dtype == shade.bfloat16
    same(r.astype(np.float32), np.array([1.0, 2.5], np.float32))
