"""complex64 / complex128 against NumPy 1.24 (NEP 50 promotion, conftest.py): dtypes and
promotion, arithmetic, the unary functions, comparisons, reductions, matmul, the part functions,
printing, .npy/.npz, DLPack and the buffer protocol both ways, and the TypeErrors of the ops
without complex loops. Bit for bit where shade computes NumPy's formula (add, subtract, multiply,
divide, integer powers, absolute, exp, log, sqrt, comparisons, casts, prod); sums and means in
another summation order and the cpow of non-integer powers within a tight tolerance."""
import os
import warnings

import numpy as np
import pytest

import shade

CDTYPES = [np.complex64, np.complex128]


def values(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    re = rng.standard_normal(shape) * 3
    im = rng.standard_normal(shape) * 2
    z = (re + 1j * im).astype(dtype)
    flat = z.reshape(-1)
    if flat.size > 3:  # some zero parts
        flat[1] = flat[1].real
        flat[3] = 1j * flat[3].imag
    return z


def layouts(z):
    """The array, a transposed and a strided view of it (non-contiguous operands)."""
    out = [z]
    if z.ndim >= 2:
        out.append(z.T)
    if z.ndim >= 1 and z.shape[0] > 1:
        out.append(z[::2])
    return out


def same(got, want):
    got = np.asarray(got)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, want)  # NaNs equal; exact values


SHAPES = [(), (0,), (7,), (4, 5)]


def test_dtypes_and_promotion():
    assert shade.complex64 is np.complex64 and shade.complex128 is np.complex128
    for dt in CDTYPES:
        assert shade.zeros(3, dtype=dt).dtype == np.dtype(dt)
    reals = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
             np.uint64, np.float16, np.float32, np.float64]
    for c in CDTYPES:
        for r in reals:
            a, b = np.ones(2, r), np.ones(2, c)
            assert (shade.asarray(a) + shade.asarray(b)).dtype == (a + b).dtype, (r, c)
        assert (shade.asarray(np.ones(2, np.complex64)) + np.ones(2, np.complex128)).dtype == \
            np.complex128
    # Python complex scalars are weak (NEP 50).
    for r in [np.float16, np.float32, np.float64, np.int8, np.bool_, np.complex64]:
        a = np.ones(3, r)
        same(shade.asarray(a) + 2j, a + 2j)
        same(1j * shade.asarray(a), 1j * a)


@pytest.mark.parametrize("dtype", CDTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_arithmetic_bit_for_bit(dtype, shape):
    a0, b0 = values(shape, dtype, 1), values(shape, dtype, 2)
    for a, b in zip(layouts(a0), layouts(b0)):
        sa, sb = shade.asarray(a), shade.asarray(b)
        same(sa + sb, a + b)
        same(sa - sb, a - b)
        same(sa * sb, a * b)
        same(sa / sb, a / b)
        same(-sa, -a)
        same(sa ** 2, a ** 2)
        same(sa ** 3, a ** 3)
        same(sa ** -2, a ** -2)
        same(sa * 1.5, a * 1.5)
        same(sa - (2 - 1j), a - (2 - 1j))
        same(shade.absolute(sa), np.absolute(a))
        same(shade.exp(sa), np.exp(a))
        same(shade.log(sa), np.log(a))
        same(shade.sqrt(sa), np.sqrt(a))
        for op in ["equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
                   "maximum", "minimum"]:
            same(getattr(shade, op)(sa, sb), getattr(np, op)(a, b))


@pytest.mark.parametrize("dtype", CDTYPES)
def test_non_integer_power_and_mixed_dtypes(dtype):
    a, b = values((3, 4), dtype, 3), values((3, 4), dtype, 4)
    tol = 1e-5 if dtype == np.complex64 else 1e-13  # cpow vs cpow: same library, order may differ
    np.testing.assert_allclose(np.asarray(shade.power(shade.asarray(a), shade.asarray(b))),
                               np.power(a, b), rtol=tol)
    np.testing.assert_allclose(np.asarray(shade.asarray(a) ** 0.5), a ** 0.5, rtol=tol)
    d = np.linspace(-2, 2, 4)
    same(shade.asarray(a) * shade.asarray(d), a * d)  # broadcast, complex64 * float64 -> c128
    i = np.arange(12, dtype=np.int16).reshape(3, 4)
    same(shade.asarray(a) + shade.asarray(i), a + i)


def test_special_values():
    z = np.array([0j, 1 + 0j, complex(np.inf, 0), complex(0, np.inf), complex(np.nan, 1),
                  complex(1, np.nan), complex(-np.inf, np.nan), -0.0 - 0j])
    w = z[::-1].copy()
    s, t = shade.asarray(z), shade.asarray(w)
    with np.errstate(all="ignore"):
        for op in ["add", "subtract", "multiply", "divide", "equal", "less", "maximum",
                   "minimum"]:
            same(getattr(shade, op)(s, t), getattr(np, op)(z, w))
        for op in ["absolute", "exp", "log", "sqrt", "negative"]:
            same(getattr(shade, op)(s), getattr(np, op)(z))
        same(s ** 0, z ** 0)
        same(s ** 2, z ** 2)


@pytest.mark.parametrize("dtype", CDTYPES)
def test_part_functions(dtype):
    z0 = values((4, 5), dtype, 5)
    for z in layouts(z0):
        s = shade.asarray(z)
        same(s.real, z.real)
        same(s.imag, z.imag)
        same(shade.real(s), np.real(z))
        same(shade.imag(s), np.imag(z))
        same(shade.conj(s), np.conj(z))
        same(shade.conjugate(s), np.conjugate(z))
        same(s.conj(), z.conj())
        same(shade.angle(s), np.angle(z))
        same(shade.angle(s, deg=True), np.angle(z, deg=True))
        same(shade.iscomplex(s), np.iscomplex(z))
        same(shade.isreal(s), np.isreal(z))
        assert shade.iscomplexobj(s) and not shade.isrealobj(s)
    # .real / .imag are views: writing through them changes the array (NumPy's semantics).
    z = z0.copy()
    s = shade.asarray(np.ascontiguousarray(z))
    s.imag = 7
    s.real[0] = -1
    z.imag = 7
    z.real[0] = -1
    same(s, z)
    # Real input.
    r = np.arange(-2, 3, dtype=np.float32)
    sr = shade.asarray(r)
    same(sr.real, r.real)
    same(sr.imag, r.imag)
    same(shade.angle(sr), np.angle(r))
    same(shade.conj(sr), np.conj(r))
    same(shade.iscomplex(sr), np.iscomplex(r))
    same(shade.isreal(sr), np.isreal(r))
    assert not shade.iscomplexobj(sr) and shade.isrealobj(sr)
    with pytest.raises(TypeError):
        sr.imag = 1


@pytest.mark.parametrize("dtype", CDTYPES)
def test_casts(dtype):
    z = values((3, 4), dtype, 6)
    s = shade.asarray(z)
    for target in [np.float32, np.float64, np.int32, np.bool_, np.complex64, np.complex128]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", np.ComplexWarning)
            same(s.astype(target), z.astype(target))
            same(s.T.astype(target), z.T.astype(target))
    r = np.linspace(-1, 1, 6, dtype=np.float32)
    same(shade.asarray(r).astype(dtype), r.astype(dtype))


@pytest.mark.parametrize("dtype", CDTYPES)
def test_reductions(dtype):
    z0 = values((6, 5), dtype, 7)
    rtol = 1e-5 if dtype == np.complex64 else 1e-13  # summation order differs from NumPy's
    for z in layouts(z0):
        s = shade.asarray(z)
        for axis in [None, 0, 1]:
            for fn in ["sum", "mean"]:
                got = np.asarray(getattr(shade, fn)(s, axis=axis))
                want = getattr(np, fn)(z, axis=axis)
                assert got.dtype == want.dtype
                np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol)
            same(np.asarray(shade.prod(s, axis=axis)), np.prod(z, axis=axis))  # same order
        assert np.asarray(shade.sum(s, axis=1, keepdims=True)).shape == (z.shape[0], 1)
    e = np.zeros((0, 3), dtype)
    same(np.asarray(shade.sum(shade.asarray(e), axis=0)), np.sum(e, axis=0))
    same(np.asarray(shade.prod(shade.asarray(e), axis=0)), np.prod(e, axis=0))


@pytest.mark.parametrize("dtype", CDTYPES)
def test_matmul(dtype):
    rtol = 1e-5 if dtype == np.complex64 else 1e-13  # BLAS accumulation order
    a, b = values((3, 5), dtype, 8), values((5, 4), dtype, 9)
    for x, y in [(a, b), (a.T.copy().T, b), (a, b[:, ::-1]), (a[0], b), (a, b[:, 0]),
                 (values((2, 3, 5), dtype, 10), b)]:
        got = shade.asarray(x) @ shade.asarray(y)
        want = x @ y
        assert np.asarray(got).dtype == want.dtype and got.shape == want.shape
        np.testing.assert_allclose(np.asarray(got), want, rtol=rtol, atol=rtol)
    got = shade.dot(shade.asarray(a), shade.asarray(b))
    np.testing.assert_allclose(np.asarray(got), np.dot(a, b), rtol=rtol)
    f = np.ones((5, 2))
    assert (shade.asarray(a) @ shade.asarray(f)).dtype == (a @ f).dtype


@pytest.mark.parametrize("dtype", CDTYPES)
def test_vdot_norm_and_linalg(dtype):
    rtol = 1e-5 if dtype == np.complex64 else 1e-13
    a, b = values((6,), dtype, 14), values((6,), dtype, 15)
    m = values((3, 4), dtype, 16)
    # vdot conjugates its first operand (NumPy); inner and outer do not.
    np.testing.assert_allclose(np.asarray(shade.vdot(shade.asarray(a), shade.asarray(b))),
                               np.vdot(a, b), rtol=rtol)
    np.testing.assert_allclose(np.asarray(shade.inner(shade.asarray(a), shade.asarray(b))),
                               np.inner(a, b), rtol=rtol)
    # norms of the magnitudes (hypot, then NumPy's own sums: a tolerance)
    for x, kw in [(a, {}), (a, {"ord": 1}), (a, {"ord": np.inf}), (a, {"ord": 3}), (m, {}),
                  (m, {"ord": "fro"}), (m, {"ord": 1}), (m, {"ord": -np.inf}),
                  (m, {"axis": 1})]:
        got = np.asarray(shade.linalg.norm(shade.asarray(x), **kw))
        want = np.linalg.norm(x, **kw)
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=rtol)
    # No complex LAPACK yet: refused, never cast to real.
    sq = values((3, 3), dtype, 17)
    for f in [lambda: shade.linalg.det(shade.asarray(sq)), lambda: shade.linalg.inv(shade.asarray(sq)),
              lambda: shade.linalg.solve(shade.asarray(sq), shade.asarray(sq[0])),
              lambda: shade.linalg.norm(shade.asarray(m), ord=2)]:
        with pytest.raises(TypeError, match="complex"):
            f()


def test_printing():
    for z in [np.array([1 + 2j, -1j]), np.array([1 + 2j, -1j], np.complex64),
              np.array([[1.5 + 2j, 3 - 0.25j], [complex(np.nan, 1), complex(np.nan, -np.inf)]]),
              np.array(1 + 2j), np.array([], np.complex64), np.array([1e-5 + 1e5j, 2 + 3j]),
              np.array([0.1 + 0.2j, 1 / 3], np.complex64), values((3, 4), np.complex128, 11)]:
        assert repr(shade.asarray(z)) == repr(z)
    s = shade.asarray(np.array([1 + 2j, 2j]))
    assert s[0] == np.complex128(1 + 2j) and type(s[0]) is np.complex128
    assert str(s[1]) == str(np.complex128(2j))
    assert shade.asarray(np.array([3 - 1j], np.complex64))[0].dtype == np.complex64
    assert s.tolist() == [1 + 2j, 2j]


@pytest.mark.parametrize("dtype", CDTYPES)
def test_npy_npz_dlpack_buffer(dtype, tmp_path):
    z = values((3, 4), dtype, 12)
    s = shade.asarray(z)
    # buffer protocol both ways, sharing memory
    back = np.asarray(s)
    assert back.dtype == z.dtype and np.shares_memory(back, z)
    assert memoryview(s).format == ("Zf" if dtype == np.complex64 else "Zd")
    # .npy / .npz: NumPy reads shade's files and shade reads NumPy's
    p = str(tmp_path / "z.npy")
    shade.save(p, s.T)
    same(np.load(p), z.T)
    q = str(tmp_path / "n.npy")
    np.save(q, z.astype(z.dtype.newbyteorder(">")))
    same(np.asarray(shade.load(q)), z)
    r = str(tmp_path / "z.npz")
    shade.savez(r, a=s, b=s[::2])
    with np.load(r) as f:
        same(f["a"], z)
        same(f["b"], z[::2])
    # DLPack both ways
    t = shade.from_dlpack(z)
    same(np.asarray(t), z)
    same(np.from_dlpack(s), z)


def test_errors_are_type_errors():
    s = shade.asarray(values((3,), np.complex128, 13))
    for f in [lambda: s // s, lambda: s % s, lambda: s & s, lambda: shade.floor(s),
              lambda: shade.arctan2(s, s), lambda: shade.sort(s), lambda: shade.max(s),
              lambda: shade.var(s)]:
        with pytest.raises(TypeError):
            f()
    with pytest.raises(TypeError, match="complex128"):
        shade.sort(s)
    # Real-only algorithms refuse complex input instead of dropping the imaginary part.
    with pytest.raises(TypeError, match="complex"):
        shade.cov(s)
    with pytest.raises(TypeError, match="complex"):
        shade.interp(shade.asarray([0.5]), shade.asarray([0.0, 1.0, 2.0]), s)


def test_gradient_keeps_complex():
    z = values((5, 4), np.complex128, 18)
    for axis in [0, 1]:
        np.testing.assert_allclose(np.asarray(shade.gradient(shade.asarray(z), axis=axis)),
                                   np.gradient(z, axis=axis), rtol=1e-14)
