"""shade.linalg, outer/inner/vdot/kron/cross and einsum against live NumPy 1.24.

Values within dtype tolerances; sign-ambiguous factors (svd, eigh, qr vectors) by reconstruction
and up to column signs; result dtypes and shapes exactly NumPy's; errors as NumPy's classes
(numpy.linalg.LinAlgError itself).
"""
import numpy as np
import pytest

import shade
import shade.linalg as sla

DTYPES = [np.float32, np.float64]


def tol(dtype):
    return dict(rtol=2e-4, atol=2e-4) if np.dtype(dtype) == np.float32 else dict(rtol=1e-9, atol=1e-9)


def rand(shape, dtype=np.float64, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def well(batch, n, dtype, seed=0):
    a = rand(batch + (n, n), np.float64, seed) + (n + 1) * np.eye(n)
    return a.astype(dtype)


def spd(batch, n, dtype, seed=0):
    r = rand(batch + (n, n), np.float64, seed)
    return (r @ np.swapaxes(r, -1, -2) + n * np.eye(n)).astype(dtype)


def check(got, want, dtype=None):
    got = np.asarray(got)
    assert got.shape == np.shape(want)
    assert got.dtype == np.asarray(want).dtype
    np.testing.assert_allclose(got, want, **tol(dtype or got.dtype))


SHAPES = [(), (3,), (2, 2)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("batch", SHAPES)
@pytest.mark.parametrize("n", [0, 1, 4])
def test_solve_inv_det(dtype, batch, n):
    a = well(batch, n, dtype, 1)
    b = rand(batch + (n, 2), dtype, 2)
    check(sla.solve(a, b), np.linalg.solve(a, b))
    check(sla.solve(a, b[..., 0]), np.linalg.solve(a, b[..., 0]))
    check(sla.inv(a), np.linalg.inv(a))
    check(sla.det(a), np.linalg.det(a))
    for g, w in zip(sla.slogdet(a), np.linalg.slogdet(a)):
        check(g, w)
    at = np.swapaxes(a, -1, -2)  # non-contiguous
    check(sla.inv(shade.asarray(at)), np.linalg.inv(at))


def test_solve_broadcast_and_types():
    a = well((2, 1), 3, np.float64)
    b = rand((1, 4, 3, 1))
    check(sla.solve(a, b), np.linalg.solve(a, b))
    ai = np.array([[2, 1], [1, 3]], np.int32)
    check(sla.solve(ai, np.array([1, 2])), np.linalg.solve(ai, np.array([1, 2])))
    check(sla.det(ai), np.linalg.det(ai))
    check(sla.solve(ai.astype(np.float32), np.ones(2)), np.linalg.solve(ai.astype(np.float32), np.ones(2)))


def test_errors():
    with pytest.raises(np.linalg.LinAlgError, match="Singular"):
        sla.inv(np.ones((3, 3)))
    with pytest.raises(np.linalg.LinAlgError):
        sla.solve(np.zeros((2, 2)), np.ones(2))
    with pytest.raises(np.linalg.LinAlgError, match="square"):
        sla.det(np.ones((2, 3)))
    with pytest.raises(np.linalg.LinAlgError, match="two-dimensional"):
        sla.inv(np.ones(3))
    with pytest.raises(np.linalg.LinAlgError, match="positive definite"):
        sla.cholesky(-np.eye(2))
    with pytest.raises(TypeError, match="unsupported in linalg"):
        sla.inv(np.eye(2, dtype=np.float16))
    with pytest.raises(ValueError):
        sla.solve(np.eye(3), np.ones(4))
    assert sla.LinAlgError is np.linalg.LinAlgError
    assert np.linalg.det(np.ones((2, 2))) == sla.det(np.ones((2, 2))) == 0.0
    s, l = sla.slogdet(np.ones((2, 2), np.float32))
    assert s == 0 and l == -np.inf and np.asarray(l).dtype == np.float32


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("batch", SHAPES)
def test_cholesky_eigh(dtype, batch):
    a = spd(batch, 5, dtype, 3)
    check(sla.cholesky(a), np.linalg.cholesky(a))
    w, v = sla.eigh(a)
    nw, nv = np.linalg.eigh(a)
    check(w, nw)
    v = np.asarray(v)
    assert v.shape == nv.shape and v.dtype == nv.dtype
    # Columns equal up to sign.
    signs = np.sign(np.sum(v * nv, axis=-2, keepdims=True))
    np.testing.assert_allclose(v * signs, nv, **{k: x * 10 for k, x in tol(dtype).items()})
    check(sla.eigvalsh(a, UPLO="U"), np.linalg.eigvalsh(a, UPLO="U"))
    check(sla.eigvalsh(np.zeros(batch + (0, 0), dtype)), np.linalg.eigvalsh(np.zeros(batch + (0, 0), dtype)))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 4), (3, 0), (2, 1, 6)])
def test_svd_qr(dtype, shape):
    a = rand(shape, dtype, 4)
    for full in (True, False):
        u, s, vh = sla.svd(a, full_matrices=full)
        nu, ns, nvh = np.linalg.svd(a, full_matrices=full)
        check(s, ns)
        for g, w in ((u, nu), (vh, nvh)):
            assert np.asarray(g).shape == w.shape and np.asarray(g).dtype == w.dtype
        k = ns.shape[-1]
        rec = (np.asarray(u)[..., :, :k] * np.asarray(s)[..., None, :]) @ np.asarray(vh)[..., :k, :]
        np.testing.assert_allclose(rec, a, **tol(dtype))
    check(sla.svd(a, compute_uv=False), np.linalg.svd(a, compute_uv=False))
    for mode in ("reduced", "complete"):
        q, r = sla.qr(a, mode=mode)
        nq, nr = np.linalg.qr(a, mode=mode)
        assert np.asarray(q).shape == nq.shape and np.asarray(r).shape == nr.shape
        assert np.asarray(q).dtype == nq.dtype
        np.testing.assert_allclose(np.asarray(q) @ np.asarray(r), a, **tol(dtype))
        # Same factors as NumPy up to the signs of R's rows.
        sg = np.where(np.sign(np.diagonal(np.asarray(r), axis1=-2, axis2=-1)) == np.sign(
            np.diagonal(nr, axis1=-2, axis2=-1)), 1.0, -1.0)
        k = sg.shape[-1]
        np.testing.assert_allclose(np.asarray(r)[..., :k, :] * sg[..., :, None], nr[..., :k, :],
                                   **{x: y * 10 for x, y in tol(dtype).items()})
    check(sla.qr(a, mode="r"), np.linalg.qr(a, mode="r"))
    h, tau = sla.qr(a, mode="raw")
    nh, ntau = np.linalg.qr(a, mode="raw")
    assert np.asarray(h).shape == nh.shape and np.asarray(tau).shape == ntau.shape


def test_svd_hermitian_pinv_rank_lstsq():
    a = spd((), 4, np.float64, 5) - 6 * np.eye(4)
    check(sla.svd(a, hermitian=True, compute_uv=False), np.linalg.svd(a, hermitian=True, compute_uv=False))
    u, s, vh = sla.svd(a, hermitian=True)
    np.testing.assert_allclose((np.asarray(u) * np.asarray(s)) @ np.asarray(vh), a, atol=1e-9)
    for dtype in DTYPES:
        b = rand((2, 4, 6), dtype, 6)
        check(sla.pinv(b), np.linalg.pinv(b))
        check(sla.pinv(np.zeros((3, 0), dtype)), np.linalg.pinv(np.zeros((3, 0), dtype)))
        check(sla.pinv(a.astype(dtype), hermitian=True), np.linalg.pinv(a.astype(dtype), hermitian=True))
        low = np.outer(rand(5, dtype), rand(4, dtype))
        assert sla.matrix_rank(low) == np.linalg.matrix_rank(low) == 1
        st = np.stack([np.eye(3, dtype=dtype), np.zeros((3, 3), dtype)])
        check(sla.matrix_rank(st), np.linalg.matrix_rank(st))
        assert sla.matrix_rank(low, tol=0.5) == np.linalg.matrix_rank(low, tol=0.5)
        assert sla.matrix_rank(np.ones(3)) == 1 and sla.matrix_rank(np.zeros(3)) == 0
        A, B = rand((7, 3), dtype, 7), rand((7, 2), dtype, 8)
        for bb in (B, B[:, 0]):
            got, want = sla.lstsq(A, bb, rcond=None), np.linalg.lstsq(A, bb, rcond=None)
            for g, w in zip(got, want):
                if np.ndim(w) == 0:
                    assert g == w and type(g) == type(w)
                else:
                    check(g, w, dtype)
        got, want = sla.lstsq(A.T, B[:3], rcond=None), np.linalg.lstsq(A.T, B[:3], rcond=None)
        check(got[0], want[0], dtype)
        check(got[1], want[1])
        with pytest.warns(FutureWarning):
            sla.lstsq(A, B)
    for g, w in zip(sla.lstsq(np.zeros((3, 0)), np.ones(3), rcond=None),
                    np.linalg.lstsq(np.zeros((3, 0)), np.ones(3), rcond=None)):
        assert np.asarray(g).shape == np.shape(w)
        np.testing.assert_allclose(g, w)


def test_eig():
    t = np.array([[2.0, 1, 4], [0, -3, 5], [0, 0, 7]])
    w, v = sla.eig(t)
    nw, nv = np.linalg.eig(t)
    assert np.asarray(w).dtype == nw.dtype == np.float64
    np.testing.assert_allclose(np.sort(np.asarray(w)), np.sort(nw))
    np.testing.assert_allclose(t @ np.asarray(v), np.asarray(v) * np.asarray(w), atol=1e-12)
    sym = spd((2,), 3, np.float32)
    np.testing.assert_allclose(np.sort(np.asarray(sla.eigvals(sym)), -1),
                               np.sort(np.linalg.eigvals(sym), -1), rtol=1e-4)
    with pytest.raises(NotImplementedError, match="complex"):
        sla.eig(np.array([[0.0, -1], [1, 0]]))


NORM_VEC = [None, 1, 2, 3, 0.5, 0, np.inf, -np.inf, -1]
NORM_MAT = [None, "fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf]


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_norm(dtype):
    x = (rand((3, 4, 5), np.float64, 9) * 4).astype(dtype)
    check(sla.norm(x), np.linalg.norm(x), np.float64 if dtype == np.int32 else dtype)
    check(sla.norm(x, keepdims=True), np.linalg.norm(x, keepdims=True))
    for o in NORM_VEC:
        for ax in (0, -1, (1,)):
            check(sla.norm(x, o, ax), np.linalg.norm(x, o, ax))
        check(sla.norm(x[0, 0], o), np.linalg.norm(x[0, 0], o))
        check(sla.norm(x, o, 1, keepdims=True), np.linalg.norm(x, o, 1, keepdims=True))
    for o in NORM_MAT:
        for ax in ((0, 1), (2, 0), (-1, -2)):
            check(sla.norm(x, o, ax), np.linalg.norm(x, o, ax))
        check(sla.norm(x[0], o), np.linalg.norm(x[0], o))
        check(sla.norm(x, o, (1, 2), keepdims=True), np.linalg.norm(x, o, (1, 2), keepdims=True))
    for bad in (lambda m: m.norm(x, 3, (0, 1)), lambda m: m.norm(x[0, 0], "fro"),
                lambda m: m.norm(x, 1), lambda m: m.norm(x, 1, (0, 0))):
        with pytest.raises(ValueError):
            bad(np.linalg)
        with pytest.raises(ValueError):
            bad(sla)


def test_norm_float16():
    x = rand((4, 3), np.float16)
    np.testing.assert_allclose(sla.norm(x), np.linalg.norm(x), rtol=2e-3)
    assert np.asarray(sla.norm(x)).dtype == np.float16
    with pytest.raises(TypeError):
        sla.norm(x, 2)
    with pytest.raises(TypeError):
        np.linalg.norm(x, 2)


def test_matrix_power_multi_dot():
    a = rand((2, 3, 3), np.float64, 10)
    for n in (0, 1, 2, 3, 5, 8, -1, -3):
        check(sla.matrix_power(a, n), np.linalg.matrix_power(a, n))
    ai = np.array([[1, 2], [3, 4]], np.int32)
    check(sla.matrix_power(ai, 5), np.linalg.matrix_power(ai, 5))
    with pytest.raises(np.linalg.LinAlgError):
        sla.matrix_power(np.ones((2, 3)), 2)
    arrs = [rand(4), rand((4, 6)), rand((6, 2)), rand((2, 5)), rand(5)]
    check(sla.multi_dot(arrs), np.linalg.multi_dot(arrs))
    check(sla.multi_dot(arrs[1:4]), np.linalg.multi_dot(arrs[1:4]))
    check(sla.multi_dot(arrs[:4]), np.linalg.multi_dot(arrs[:4]))
    check(sla.multi_dot(arrs[1:]), np.linalg.multi_dot(arrs[1:]))
    check(sla.multi_dot(arrs[:2]), np.linalg.multi_dot(arrs[:2]))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64])
def test_products(dtype):
    a = (rand((2, 3), np.float64, 11) * 5).astype(dtype)
    b = (rand((4, 3), np.float64, 12) * 5).astype(dtype)
    c = (rand((2, 2), np.float64, 13) * 5).astype(dtype)
    check(shade.outer(a, b), np.outer(a, b))
    check(shade.inner(a, b), np.inner(a, b))
    check(shade.inner(a[0], b[0]), np.inner(a[0], b[0]))
    check(shade.inner(a, 2), np.inner(a, 2))
    check(shade.vdot(a, c.ravel()[:6] if c.size >= 6 else a), np.vdot(a, a))
    check(shade.vdot(a, a), np.vdot(a, a))
    check(shade.kron(a, c), np.kron(a, c))
    check(shade.kron(a, b[0]), np.kron(a, b[0]))
    check(shade.kron(a[0], c), np.kron(a[0], c))
    check(shade.cross(a, b[:2]), np.cross(a, b[:2]))
    check(shade.cross(a[:, :2], b[:2]), np.cross(a[:, :2], b[:2]))
    check(shade.cross(a, b[:2, :2]), np.cross(a, b[:2, :2]))
    check(shade.cross(a[:, :2], b[:2, :2]), np.cross(a[:, :2], b[:2, :2]))
    check(shade.cross(a.T, b[:2], axisa=0), np.cross(a.T, b[:2], axisa=0))
    check(shade.cross(a, b[:2], axisc=0), np.cross(a, b[:2], axisc=0))
    check(shade.cross(a.T, b[:2].T, axis=0), np.cross(a.T, b[:2].T, axis=0))
    check(shade.cross(a[:, None, :], b[None, :, :]), np.cross(a[:, None, :], b[None, :, :]))
    with pytest.raises(ValueError):
        shade.cross(np.ones(4), np.ones(4))
    with pytest.raises(ValueError):
        shade.inner(a, c)
    with pytest.raises(ValueError):
        shade.vdot(a, c)


EINSUM = [
    ("ij,jk->ik", [(3, 4), (4, 5)]),
    ("ij,jk", [(3, 4), (4, 5)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("ii", [(4, 4)]),
    ("ii->i", [(4, 4)]),
    ("ij->", [(3, 4)]),
    ("ij->ji", [(3, 4)]),
    ("i,i", [(5,), (5,)]),
    ("i,j->ij", [(3,), (4,)]),
    ("...ij,...jk->...ik", [(2, 1, 3, 4), (5, 4, 2)]),
    ("...i,...i", [(3, 4), (4,)]),
    ("ij...,jk...->ik...", [(3, 4, 2), (4, 5, 2)]),
    ("ijk,jil->kl", [(3, 4, 5), (4, 3, 2)]),
    ("iij,jk->ik", [(3, 3, 4), (4, 2)]),
    ("ij,jk,kl->il", [(3, 4), (4, 5), (5, 2)]),
    ("ab,bc,cd,de->ae", [(10, 2), (2, 8), (8, 3), (3, 6)]),
    ("i,i,i->", [(4,), (4,), (4,)]),
    ("ij,ij->ij", [(3, 4), (1, 4)]),
    ("ijk,k->ij", [(2, 0, 3), (3,)]),
    ("Ab,bc->Ac", [(2, 3), (3, 4)]),
    ("i->", [(0,)]),
    ("", [()]),
    (",i->i", [(), (3,)]),
]


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
@pytest.mark.parametrize("subs,shapes", EINSUM)
def test_einsum(dtype, subs, shapes):
    ops = [(rand(s, np.float64, i) * 3).astype(dtype) for i, s in enumerate(shapes)]
    want = np.einsum(subs, *ops)
    for opt in (False, True, "greedy"):
        check(shade.einsum(subs, *ops, optimize=opt), want)
    # Non-contiguous operands.
    tops = [np.asfortranarray(o) if o.ndim >= 2 else o for o in ops]
    check(shade.einsum(subs, *tops), np.einsum(subs, *tops))


def test_einsum_interleaved_out_errors():
    a, b = rand((3, 4)), rand((4, 5))
    check(shade.einsum(a, [0, 1], b, [1, 2], [0, 2]), np.einsum(a, [0, 1], b, [1, 2], [0, 2]))
    check(shade.einsum(a, [Ellipsis, 1], b, [1, 2]), np.einsum(a, [Ellipsis, 1], b, [1, 2]))
    out = shade.zeros((3, 5))
    shade.einsum("ij,jk->ik", a, b, out=out)
    check(out, a @ b)
    for subs, ops in (("ij,jk->ik", [a]), ("ij->ik", [a]), ("ij,jk->ii", [a, b]),
                      ("ijk->i", [a]), ("ij,ij->i", [a, b]), ("i1", [a]), ("ij..->i", [a]),
                      ("ij,jk", [a, b, b])):
        with pytest.raises(ValueError):
            np.einsum(subs, *ops)
        with pytest.raises(ValueError):
            shade.einsum(subs, *ops)


def test_nan_inputs():
    a = np.eye(3)
    a[0, 1] = np.nan
    for name in ("svd", "pinv", "matrix_rank", "eig", "eigvals"):
        with pytest.raises(np.linalg.LinAlgError):
            getattr(np.linalg, name)(a)
        with pytest.raises(np.linalg.LinAlgError):
            getattr(sla, name)(a)
    for name in ("inv", "det", "solve"):
        args = (a, np.ones(3)) if name == "solve" else (a,)
        want = getattr(np.linalg, name)(*args)
        np.testing.assert_array_equal(np.isnan(np.asarray(getattr(sla, name)(*args))), np.isnan(want))
