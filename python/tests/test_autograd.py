"""Autograd in Python against PyTorch 1.13 as the oracle (float64, 1e-6 relative).

Random compositions of ops are evaluated by shade and by torch from the same values; the
gradients of sum(y * w) must agree. Skipped when torch is missing.
"""
import numpy as np
import pytest

import shade

torch = pytest.importorskip("torch")

RTOL = 1e-6


def pair(shape, rng, lo=-1.0, hi=1.0):
    """The same float64 values as a shade leaf and a torch leaf, both requiring grad."""
    v = rng.uniform(lo, hi, size=shape)
    return shade.array(v, requires_grad=True), torch.tensor(v, dtype=torch.float64,
                                                            requires_grad=True)


def check_grads(shade_leaves, torch_leaves, ys, yt, rng):
    w = rng.uniform(-1, 1, size=np.shape(np.asarray(yt.detach())))
    ls = shade.sum(ys * shade.array(w))
    lt = (yt * torch.tensor(w, dtype=torch.float64)).sum()
    np.testing.assert_allclose(float(ls), lt.item(), rtol=RTOL, atol=1e-12)
    ls.backward()
    lt.backward()
    for s, t in zip(shade_leaves, torch_leaves):
        if t.grad is None:  # a leaf the composition did not use
            assert s.grad is None
            continue
        assert s.grad is not None
        np.testing.assert_allclose(np.asarray(s.grad), t.grad.numpy(), rtol=RTOL, atol=1e-10)


# Unary ops: (shade, torch, domain) - domains keep away from kinks and poles.
UNARY = [
    (shade.exp, torch.exp, (-1, 1)),
    (shade.log, torch.log, (0.5, 2)),
    (shade.sqrt, torch.sqrt, (0.5, 2)),
    (shade.tanh, torch.tanh, (-2, 2)),
    (shade.sin, torch.sin, (-2, 2)),
    (shade.cos, torch.cos, (-2, 2)),
    (shade.abs, torch.abs, (0.1, 1)),
    (shade.negative, torch.neg, (-1, 1)),
    (shade.log1p, torch.log1p, (0, 1)),
    (shade.expm1, torch.expm1, (-1, 1)),
]
BINARY = [
    (lambda a, b: a + b, lambda a, b: a + b),
    (lambda a, b: a - b, lambda a, b: a - b),
    (lambda a, b: a * b, lambda a, b: a * b),
    (lambda a, b: a / (b * b + 1), lambda a, b: a / (b * b + 1)),
    (shade.maximum, torch.maximum),
    (shade.minimum, torch.minimum),
]


@pytest.mark.parametrize("seed", range(20))
def test_random_elementwise_compositions(seed):
    rng = np.random.default_rng(seed)
    shapes = [(3, 4), (4,), (3, 1), ()]
    leaves = [pair(shapes[i % len(shapes)], rng, 0.5, 1.5) for i in range(3)]
    s_vals = [s for s, _ in leaves]
    t_vals = [t for _, t in leaves]
    for _ in range(4):
        if rng.random() < 0.5:
            fs, ft, (lo, hi) = UNARY[rng.integers(len(UNARY))]
            i = rng.integers(len(s_vals))
            s_in, t_in = s_vals[i], t_vals[i]
            # Ops with a restricted domain get x*x + lo (>= lo > 0).
            if lo >= 0.1:
                s_in, t_in = s_in * s_in + lo, t_in * t_in + lo
            s_vals.append(fs(s_in))
            t_vals.append(ft(t_in))
        else:
            fs, ft = BINARY[rng.integers(len(BINARY))]
            i, j = rng.integers(len(s_vals), size=2)
            s_vals.append(fs(s_vals[i], s_vals[j]))
            t_vals.append(ft(t_vals[i], t_vals[j]))
    check_grads([s for s, _ in leaves], [t for _, t in leaves], s_vals[-1], t_vals[-1], rng)


@pytest.mark.parametrize("seed", range(8))
def test_random_reductions_products_and_views(seed):
    rng = np.random.default_rng(100 + seed)
    a_s, a_t = pair((3, 4), rng, 0.5, 1.5)
    b_s, b_t = pair((4, 2), rng, 0.5, 1.5)
    c_s, c_t = pair((2, 3), rng, 0.5, 1.5)
    pick = seed % 4
    if pick == 0:
        ys = shade.tanh(a_s @ b_s) @ c_s
        yt = torch.tanh(a_t @ b_t) @ c_t
    elif pick == 1:
        ys = shade.sum(a_s.T * b_s[:, :1], axis=1) + shade.var(a_s, axis=0) + a_s.std()
        yt = (a_t.T * b_t[:, :1]).sum(1) + a_t.var(0, unbiased=False) + a_t.std(unbiased=False)
    elif pick == 2:
        ys = shade.max(a_s, axis=1) * shade.mean(b_s) + shade.prod(c_s, axis=0).sum()
        yt = a_t.amax(1) * b_t.mean() + c_t.prod(0).sum()
    else:
        ys = shade.concatenate([a_s.reshape(2, 6), shade.exp(c_s)], axis=1)[:, ::2]
        yt = torch.cat([a_t.reshape(2, 6), torch.exp(c_t)], 1)[:, ::2]
    check_grads([a_s, b_s, c_s], [a_t, b_t, c_t], ys, yt, rng)


def test_indexing_scatter_adds_repeated_indices():
    rng = np.random.default_rng(5)
    a_s, a_t = pair((5, 3), rng)
    idx = np.array([0, 2, 2, 4, 0])
    ys = a_s[shade.asarray(idx)] * 2
    yt = a_t[torch.tensor(idx)] * 2
    check_grads([a_s], [a_t], ys, yt, rng)


def test_second_derivative_matches_torch():
    rng = np.random.default_rng(9)
    x_s, x_t = pair((4,), rng, 0.5, 1.5)
    (gs,) = shade.autograd.grad(shade.sum(x_s * x_s * shade.exp(x_s)), x_s, create_graph=True)
    (gt,) = torch.autograd.grad((x_t * x_t * torch.exp(x_t)).sum(), x_t, create_graph=True)
    assert gs.requires_grad
    (hs,) = shade.autograd.grad(shade.sum(gs * gs), x_s)
    (ht,) = torch.autograd.grad((gt * gt).sum(), x_t)
    np.testing.assert_allclose(np.asarray(hs), ht.numpy(), rtol=RTOL)


def test_attributes_and_modes():
    x = shade.ones((2, 2), requires_grad=True)
    assert x.requires_grad and x.is_leaf and x.grad is None and x.grad_fn is None
    y = (x * 3).sum()
    assert not y.is_leaf and y.grad_fn == "sum"
    y.backward()
    np.testing.assert_array_equal(np.asarray(x.grad), np.full((2, 2), 3.0))
    x.grad = None
    assert x.grad is None
    with shade.no_grad():
        assert not shade.is_grad_enabled()
        z = x * 2
        assert not z.requires_grad
        with shade.enable_grad():
            assert (x * 2).requires_grad
    assert shade.is_grad_enabled()
    d = x.detach()
    assert not d.requires_grad
    w = shade.zeros(3)
    assert w.requires_grad_() is w and w.requires_grad

    @shade.no_grad()
    def f(v):
        return v * 2

    assert not f(x).requires_grad


def test_errors():
    with pytest.raises(Exception):
        shade.arange(3).requires_grad_()  # integers cannot require grad
    x = shade.ones(3, requires_grad=True)
    with pytest.raises(Exception):
        (x * x).backward()  # more than one element: needs a gradient
    c = shade.ones(3)
    y = (x * c).sum()
    c[0] = 5.0  # modified after it was saved
    with pytest.raises(Exception, match="in-place"):
        y.backward()
    with pytest.raises(Exception):
        x += 1  # in-place on a leaf that requires grad, grad mode on
    with shade.no_grad():
        x -= 1  # an optimizer step
    np.testing.assert_array_equal(np.asarray(x), np.zeros(3))
