"""The NumPy-named API: dtypes, creation, shape ops, matmul, repr/str, save/load, threads and
the mapping of shade errors to Python exceptions."""
import numpy as np
import pytest

import shade


def same(s, n):
    s = np.asarray(s)
    assert s.dtype == np.asarray(n).dtype and s.shape == np.shape(n)
    np.testing.assert_allclose(s, n, rtol=1e-6)


def test_dtypes_are_numpys():
    for name in ["bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                 "float16", "float32", "float64"]:
        assert getattr(shade, name) == getattr(np, name)
        assert shade.zeros(2, dtype=getattr(shade, name)).dtype == getattr(np, name)
    assert shade.zeros(2, dtype="float32").dtype == shade.float32
    assert shade.zeros(2, dtype=float).dtype == np.float64
    assert shade.zeros(2, dtype=int).dtype == np.int64
    assert shade.zeros(2, dtype=np.complex64).dtype == np.complex64  # docs/design/complex.md
    with pytest.raises(TypeError):
        shade.zeros(2, dtype=np.longdouble)


@pytest.mark.parametrize("dtype", [None, np.float32, np.int16, np.bool_])
def test_creation(dtype):
    same(shade.zeros((2, 3), dtype=dtype), np.zeros((2, 3), dtype=dtype))
    same(shade.ones(4, dtype=dtype), np.ones(4, dtype=dtype))
    assert shade.empty((3, 0), dtype=dtype).shape == (3, 0)
    same(shade.full((2, 2), 7, dtype=dtype), np.full((2, 2), 7, dtype=dtype))
    same(shade.eye(3, 4, k=1, dtype=dtype), np.eye(3, 4, k=1, dtype=dtype))
    base = np.arange(6).reshape(2, 3)
    for f in ["zeros_like", "ones_like", "empty_like"]:
        assert np.asarray(getattr(shade, f)(base, dtype=dtype)).dtype == getattr(np, f)(base, dtype=dtype).dtype
    same(shade.full_like(base, 3, dtype=dtype), np.full_like(base, 3, dtype=dtype))


def test_ranges_and_arrays():
    same(shade.arange(5), np.arange(5))
    same(shade.arange(1, 10, 3), np.arange(1, 10, 3))
    same(shade.arange(0.5, 3.0, 0.5), np.arange(0.5, 3.0, 0.5))
    same(shade.arange(5, dtype=shade.float32), np.arange(5, dtype=np.float32))
    same(shade.linspace(0, 1, 7), np.linspace(0, 1, 7))
    same(shade.linspace(0, 1, 4, endpoint=False, dtype=np.float32), np.linspace(0, 1, 4, endpoint=False, dtype=np.float32))
    same(shade.full(3, 2.5), np.full(3, 2.5))
    same(shade.full(3, True), np.full(3, True))
    same(shade.array([[1, 2], [3, 4]]), np.array([[1, 2], [3, 4]]))
    same(shade.array([1.5, 2]), np.array([1.5, 2]))
    same(shade.asarray([1, 2], dtype=np.uint8), np.asarray([1, 2], dtype=np.uint8))
    a = np.arange(3.0)
    c = shade.array(a)
    c[0] = 5
    assert a[0] == 0  # array() copies
    s = shade.asarray(a)
    assert shade.asarray(s) is s


def test_shape_ops():
    n = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    s = shade.asarray(n)
    same(s.reshape(4, 6), n.reshape(4, 6))
    same(s.reshape((-1, 4)), n.reshape((-1, 4)))
    same(shade.reshape(s, (6, -1)), np.reshape(n, (6, -1)))
    same(s.T, n.T)
    same(s.transpose(1, 0, 2), n.transpose(1, 0, 2))
    same(shade.transpose(s, (2, 0, 1)), np.transpose(n, (2, 0, 1)))
    same(s.astype(np.int32), n.astype(np.int32))
    same(s.T.ravel(), n.T.ravel())
    same(s.T.flatten(), n.T.flatten())
    same(s.copy(), n.copy())
    same(shade.squeeze(s[:, :1, None]), np.squeeze(n[:, :1, None]))
    same(s[:, :1].squeeze(axis=1), n[:, :1].squeeze(axis=1))
    same(shade.expand_dims(s, (0, -1)), np.expand_dims(n, (0, -1)))
    same(s.swapaxes(0, 2), n.swapaxes(0, 2))
    same(shade.concatenate([s, s], axis=1), np.concatenate([n, n], axis=1))
    same(shade.stack([s, s], axis=-1), np.stack([n, n], axis=-1))
    assert (s.ndim, s.size, s.itemsize, s.nbytes, s.strides) == (n.ndim, n.size, n.itemsize, n.nbytes, n.strides)
    assert len(s) == 2 and s.tolist() == n.tolist()
    with pytest.raises(ValueError):
        s.reshape(5, 5)
    with pytest.raises(ValueError):
        s.squeeze(axis=0)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_products(dtype):
    rng = np.random.default_rng(1)
    a = rng.integers(-3, 4, (3, 4)).astype(dtype)
    b = rng.integers(-3, 4, (4, 5)).astype(dtype)
    v = rng.integers(-3, 4, 4).astype(dtype)
    same(shade.asarray(a) @ shade.asarray(b), a @ b)
    same(shade.matmul(a, b), np.matmul(a, b))
    same(shade.asarray(a) @ v, a @ v)
    same(a @ shade.asarray(b), a @ b) if False else None  # numpy's @ converts shade operands itself
    same(shade.dot(v, v), np.dot(v, v))
    same(shade.asarray(a).dot(b), a.dot(b))
    batch = rng.integers(-3, 4, (2, 3, 4)).astype(dtype)
    same(shade.matmul(batch, b), np.matmul(batch, b))
    same(shade.tensordot(batch, b, axes=1), np.tensordot(batch, b, axes=1))
    with pytest.raises(ValueError):
        shade.matmul(a, a)


@pytest.mark.parametrize("values", [
    np.arange(6).reshape(2, 3), np.array([1.5, -2.25, 1e-5]), np.array(3.0), np.array([True, False]),
    np.linspace(0, 1, 3000, dtype=np.float32).reshape(3, 1000), np.zeros((0, 3)), np.zeros(0, np.int8),
    np.array([np.nan, np.inf, -1.0], dtype=np.float16), np.array([1, 2**40], dtype=np.uint64)])
def test_repr_and_str_match_numpy(values):
    s = shade.asarray(values)
    assert repr(s) == repr(values)
    assert str(s) == str(values)


@pytest.mark.parametrize("key", [
    True, False, [], (Ellipsis, [0, 1]), (None, [0, 1], None), ([0, 1], slice(None), [1, 2]),
    (0, slice(None), [1, 2]), (slice(None), [[0], [2]], [1, 3]), (1, [0, 2], None, slice(None, None, -2)),
    (Ellipsis, None), (np.int32(1), -1), (np.array(1), slice(1, None))])
def test_indexing_corner_keys(key):
    n = np.arange(24).reshape(2, 3, 4)
    same(shade.asarray(n)[key], n[key])


def test_indexing_scalars_and_errors():
    n = np.arange(12).reshape(3, 4)
    s = shade.asarray(n)
    assert s[1, 2] == n[1, 2] and type(s[1, 2]) is type(n[1, 2])
    assert isinstance(s[1, 2, ...], shade.ndarray) and s[1, 2, ...].shape == ()
    with pytest.raises(IndexError):
        s[3]
    with pytest.raises(IndexError):
        s[0, 0, 0]
    with pytest.raises(IndexError):
        s[np.array([0, 5])]
    with pytest.raises(IndexError):
        s[np.ones(4, dtype=bool)]
    with pytest.raises(IndexError):
        s[1.5]
    assert [list(row) for row in s] == n.tolist()


def test_errors_map_to_python_classes(tmp_path):
    with pytest.raises(ValueError):
        shade.ones(3) + shade.ones(4)  # shapes do not broadcast
    with pytest.raises(TypeError):
        shade.ones(3, dtype=bool) - shade.ones(3, dtype=bool)
    with pytest.raises(TypeError):
        shade.ones(3) & shade.ones(3)
    with pytest.raises(OSError):
        shade.load(str(tmp_path / "missing.npy"))
    with pytest.raises(IndexError):
        shade.sum(shade.ones((2, 2)), axis=3)
    with pytest.raises(TypeError):
        shade.ones(3) + "x"
    with pytest.raises(OverflowError):
        shade.ones(3, dtype=np.int8) + 1000  # NEP 50: a Python int out of the array's range
    bad = tmp_path / "bad.npy"
    bad.write_bytes(b"not a npy file")
    with pytest.raises(ValueError):
        shade.load(str(bad))


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.bool_, np.uint16])
def test_save_and_load(tmp_path, dtype):
    n = (np.arange(12) % 3).astype(dtype).reshape(3, 4)
    shade.save(tmp_path / "a", shade.asarray(n).T)
    np.testing.assert_array_equal(np.load(tmp_path / "a.npy"), n.T)
    np.save(tmp_path / "b.npy", n)
    same(shade.load(str(tmp_path / "b.npy")), n)
    shade.savez(tmp_path / "c", n, extra=n[0])
    loaded = np.load(tmp_path / "c.npz")
    np.testing.assert_array_equal(loaded["arr_0"], n)
    np.testing.assert_array_equal(loaded["extra"], n[0])
    np.savez_compressed(tmp_path / "d.npz", x=n, y=n * 2)
    d = shade.load(str(tmp_path / "d.npz"))
    assert sorted(d) == ["x", "y"]
    same(d["y"], n * 2)
    shade.savez_compressed(tmp_path / "e.npz", z=n)
    np.testing.assert_array_equal(np.load(tmp_path / "e.npz")["z"], n)


def test_threads():
    old = shade.get_num_threads()
    try:
        shade.set_num_threads(1)
        assert shade.get_num_threads() == 1
        same(shade.sum(shade.ones((64, 64)), axis=0), np.full(64, 64.0))
        with pytest.raises(ValueError):
            shade.set_num_threads(0)
    finally:
        shade.set_num_threads(old)


def test_operators_with_numpy_scalars_are_strong():
    s = shade.ones(3, dtype=np.float32)
    assert (s + np.float64(1)).dtype == np.float64  # NumPy scalars carry their dtype
    assert (s + 1.0).dtype == np.float32  # Python floats are weak
    assert (shade.ones(3, dtype=np.int8) + 1).dtype == np.int8
    assert (shade.ones(3, dtype=np.int8) + 1.5).dtype == np.float64
    assert (2 ** shade.arange(4)).tolist() == [1, 2, 4, 8]
    assert (-shade.arange(3)).tolist() == [0, -1, -2]
    assert abs(shade.asarray([-1.5])).tolist() == [1.5]
    assert (~shade.asarray([True, False])).tolist() == [False, True]
    assert bool(shade.asarray([1])) and float(shade.asarray([2.5])) == 2.5 and int(shade.asarray([3])) == 3
    assert shade.where(shade.asarray([True, False]), 1.0, shade.asarray([5.0, 6.0])).tolist() == [1.0, 6.0]
    assert shade.clip(shade.arange(5), 1, 3).tolist() == [1, 1, 2, 3, 3]


def test_numpy_operands_on_either_side():
    n = np.arange(6.0).reshape(2, 3)
    s = shade.asarray(n.copy())
    for result in (n + s, s + n, n * 2.0 - s):
        assert isinstance(result, shade.ndarray)
    same(n + s, n + n)
    s -= n
    same(s, np.zeros((2, 3)))
    s **= 2
    same(s, np.zeros((2, 3)))
    assert repr(shade.ndarray) == "<class 'shade.ndarray'>"


def test_assignment_into_pending_and_views():
    y = shade.ones(1 << 17) * 2
    y[0] = 5
    assert not shade._is_pending(y)
    assert (float(y[0]), float(y[1])) == (5.0, 2.0)
    x = shade.zeros((2, 3), dtype=shade.float32)
    x[:, 1] = shade.arange(2)
    x[0] = [7, 8, 9]
    same(x, np.array([[7, 8, 9], [0, 1, 0]], dtype=np.float32))


def test_rearrangements_and_copies():
    import copy

    n = np.arange(24, dtype=np.int16).reshape(2, 3, 4)
    s = shade.asarray(n)
    same(shade.flip(s), np.flip(n))
    same(shade.flip(s, axis=(0, 2)), np.flip(n, axis=(0, 2)))
    same(shade.roll(s, 5), np.roll(n, 5))
    same(shade.roll(s, -1, axis=1), np.roll(n, -1, axis=1))
    same(shade.roll(s, (1, 2), axis=(0, 2)), np.roll(n, (1, 2), axis=(0, 2)))
    same(shade.tile(s, (2, 1, 1)), np.tile(n, (2, 1, 1)))
    same(shade.repeat(s, 2), np.repeat(n, 2))
    same(shade.repeat(s, [1, 0, 2], axis=1), np.repeat(n, [1, 0, 2], axis=1))
    same(shade.take(s, [0, -1]), np.take(n, [0, -1]))
    same(shade.take(s, [[2, 0]], axis=2), np.take(n, [[2, 0]], axis=2))
    for got, want in zip(shade.nonzero(s % 5 == 0), np.nonzero(n % 5 == 0)):
        same(got, want)
    c, d = copy.copy(s), copy.deepcopy(s)
    c[0, 0, 0] = 99
    d[0, 0, 0] = 98
    assert n[0, 0, 0] == 0
