"""shade.nn.functional, shade.nn and shade.optim against PyTorch 1.13 (the oracle; the module
is skipped when torch is missing): forwards in float32 and float64, and the optimizers' updates
over 100 steps on the same parameters and gradients."""
import numpy as np
import pytest

import shade
import shade.nn.functional as F

torch = pytest.importorskip("torch")
TF = torch.nn.functional


def _rng(seed):
    return np.random.default_rng(seed)


def _close(got, want, rtol):
    got = np.asarray(got)
    want = want.detach().numpy() if isinstance(want, torch.Tensor) else np.asarray(want)
    assert got.shape == want.shape
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol)


@pytest.mark.parametrize("dtype,rtol", [(np.float64, 1e-12), (np.float32, 1e-5)])
def test_forward_matches_torch(dtype, rtol):
    r = _rng(0)
    x4 = r.standard_normal((2, 3, 7, 6)).astype(dtype)
    w4 = r.standard_normal((4, 3, 3, 2)).astype(dtype)
    b4 = r.standard_normal(4).astype(dtype)
    t = torch.from_numpy
    for stride, padding, dilation in [(1, 0, 1), ((2, 1), (1, 2), 1), (1, (1, 0), (2, 1))]:
        _close(F.conv2d(x4, w4, b4, stride=stride, padding=padding, dilation=dilation),
               TF.conv2d(t(x4), t(w4), t(b4), stride=stride, padding=padding, dilation=dilation),
               rtol)
    for k, s, p in [(2, None, 0), ((3, 2), (2, 1), (1, 1)), (3, 1, 0)]:
        _close(F.max_pool2d(x4, k, s, p), TF.max_pool2d(t(x4), k, s, p), rtol)
        _close(F.avg_pool2d(x4, k, s, p), TF.avg_pool2d(t(x4), k, s, p), rtol)
    x2 = r.standard_normal((5, 4)).astype(dtype)
    w2 = r.standard_normal((3, 4)).astype(dtype)
    b2 = r.standard_normal(3).astype(dtype)
    _close(F.linear(x2, w2, b2), TF.linear(t(x2), t(w2), t(b2)), rtol)
    _close(F.linear(x2, w2), TF.linear(t(x2), t(w2)), rtol)
    for name, ref in [("relu", torch.relu), ("sigmoid", torch.sigmoid), ("tanh", torch.tanh),
                      ("gelu", TF.gelu)]:
        _close(getattr(F, name)(x2), ref(t(x2)), rtol)
    _close(F.gelu(x2, approximate="tanh"), TF.gelu(t(x2), approximate="tanh"), rtol)
    for dim in [0, 1, -1]:
        _close(F.softmax(x2, dim), TF.softmax(t(x2), dim), rtol)
        _close(F.log_softmax(x2, dim), TF.log_softmax(t(x2), dim), rtol)
    target = np.array([0, 3, 1, 3, 2], dtype=np.int64)
    for reduction in ["mean", "sum", "none"]:
        _close(F.cross_entropy(x2, target, reduction=reduction),
               TF.cross_entropy(t(x2), t(target), reduction=reduction), rtol)
        logp = TF.log_softmax(t(x2), 1)
        _close(F.nll_loss(logp.numpy(), target, reduction=reduction, ignore_index=3),
               TF.nll_loss(logp, t(target), reduction=reduction, ignore_index=3), rtol)
        _close(F.mse_loss(x2, x2[::-1].copy(), reduction=reduction),
               TF.mse_loss(t(x2), t(x2[::-1].copy()), reduction=reduction), rtol)
    rm, rv = np.zeros(3, dtype), np.ones(3, dtype)
    trm, trv = t(rm.copy()), t(rv.copy())
    xb = r.standard_normal((4, 3, 2, 2)).astype(dtype)
    wb, bb = r.standard_normal(3).astype(dtype), r.standard_normal(3).astype(dtype)
    srm, srv = shade.asarray(rm.copy()), shade.asarray(rv.copy())
    _close(F.batch_norm(xb, srm, srv, wb, bb, training=True),
           TF.batch_norm(t(xb), trm, trv, t(wb), t(bb), training=True), rtol)
    _close(srm, trm, rtol)
    _close(srv, trv, rtol)
    _close(F.batch_norm(xb, srm, srv, wb, bb), TF.batch_norm(t(xb), trm, trv, t(wb), t(bb)), rtol)
    emb = r.standard_normal((6, 3)).astype(dtype)
    idx = np.array([[5, 0], [2, 5]], dtype=np.int64)
    _close(F.embedding(idx, emb), TF.embedding(t(idx), t(emb)), 0)


def test_dropout():
    x = np.ones((200, 50), np.float32)
    shade.nn.manual_seed(3)
    y = np.asarray(F.dropout(x, 0.25))
    kept = y != 0
    assert abs(kept.mean() - 0.75) < 0.03
    np.testing.assert_allclose(y[kept], 1 / 0.75, rtol=1e-6)
    shade.nn.manual_seed(3)
    np.testing.assert_array_equal(np.asarray(F.dropout(x, 0.25)), y)
    np.testing.assert_array_equal(np.asarray(F.dropout(x, 0.25, training=False)), x)


def test_errors():
    x = np.zeros((2, 3), np.float32)
    with pytest.raises(ValueError):
        F.mse_loss(x, x, reduction="avg")
    with pytest.raises(ValueError):
        F.gelu(x, approximate="erf")
    with pytest.raises(TypeError):
        F.relu(np.zeros(3, np.int32))
    with pytest.raises(IndexError):
        F.cross_entropy(x, np.array([0, 3]))
    with pytest.raises(ValueError):
        F.linear(x, np.zeros((4, 2), np.float32))
    with pytest.raises(NotImplementedError):
        F.conv2d(np.zeros((1, 2, 3, 3), np.float32), np.zeros((2, 1, 1, 1), np.float32), groups=2)
    with pytest.raises(NotImplementedError):
        F.max_pool2d(np.zeros((1, 1, 4, 4), np.float32), 2, ceil_mode=True)


def _torch_and_shade_models():
    torch.manual_seed(0)
    tm = torch.nn.Sequential(
        torch.nn.Conv2d(1, 4, 3, padding=1), torch.nn.BatchNorm2d(4), torch.nn.ReLU(),
        torch.nn.MaxPool2d(2), torch.nn.Flatten(), torch.nn.Linear(4 * 4 * 4, 3)).double()
    sn = shade.nn
    sm = sn.Sequential(
        sn.Conv2d(1, 4, 3, padding=1, dtype=np.float64), sn.BatchNorm2d(4, dtype=np.float64),
        sn.ReLU(), sn.MaxPool2d(2), sn.Flatten(), sn.Linear(4 * 4 * 4, 3, dtype=np.float64))
    return tm, sm


def test_modules_match_torch(tmp_path):
    tm, sm = _torch_and_shade_models()
    assert [n for n, _ in sm.named_parameters()] == [n for n, _ in tm.named_parameters()]
    assert list(sm.state_dict()) == list(tm.state_dict())
    sm.load_state_dict({k: v.numpy() for k, v in tm.state_dict().items()})
    x = _rng(1).standard_normal((5, 1, 8, 8))
    _close(sm(x), tm(torch.from_numpy(x)), 1e-12)  # training mode: batch statistics
    for k, v in tm.state_dict().items():  # running statistics updated alike
        _close(sm.state_dict()[k], v, 1e-12)
    sm.eval()
    tm.eval()
    assert not sm.training
    _close(sm(x), tm(torch.from_numpy(x)), 1e-12)
    path = str(tmp_path / "model.npz")
    sm.save(path)
    with np.load(path) as saved:
        assert sorted(saved.files) == sorted(tm.state_dict())
        np.testing.assert_array_equal(saved["5.bias"], tm.state_dict()["5.bias"].numpy())
    other = _torch_and_shade_models()[1]
    other.load(path)
    other.eval()
    _close(other(x), tm(torch.from_numpy(x)), 1e-12)
    with pytest.raises(ValueError):
        other.load_state_dict({"0.weight": np.zeros((4, 1, 3, 3))})
    assert len(sm) == 6 and isinstance(sm[5], shade.nn.Linear)
    assert sm[5].weight.shape == (3, 64)


def _grad_pair(f_shade, f_torch, arrays, seed=5):
    """Gradients of sum(f(x) * up) w.r.t. every array, by shade's autograd and by torch's."""
    xs = [shade.asarray(a.copy()).requires_grad_() for a in arrays]
    ts = [torch.from_numpy(a.copy()).requires_grad_() for a in arrays]
    y_shade, y_torch = f_shade(*xs), f_torch(*ts)
    up = _rng(seed).standard_normal(tuple(y_torch.shape)).astype(arrays[0].dtype)
    y_shade.backward(shade.asarray(up))
    y_torch.backward(torch.from_numpy(up))
    return [x.grad for x in xs], [t.grad for t in ts]


def test_gradients_match_torch():
    r = _rng(2)
    x4 = r.standard_normal((2, 3, 7, 6))
    w4, b4 = r.standard_normal((4, 3, 3, 2)), r.standard_normal(4)
    x2, w2, b2 = r.standard_normal((5, 4)), r.standard_normal((3, 4)), r.standard_normal(3)
    target = np.array([0, 3, 1, 3, 2])
    cases = [
        (lambda x, w, b: F.conv2d(x, w, b, stride=(2, 1), padding=1, dilation=(1, 2)),
         lambda x, w, b: TF.conv2d(x, w, b, stride=(2, 1), padding=1, dilation=(1, 2)),
         [x4, w4, b4]),
        (lambda x: F.max_pool2d(x, 3, 2, 1), lambda x: TF.max_pool2d(x, 3, 2, 1), [x4]),
        (lambda x: F.avg_pool2d(x, 2), lambda x: TF.avg_pool2d(x, 2), [x4]),
        (F.linear, TF.linear, [x2, w2, b2]),
        (F.relu, torch.relu, [x2]),
        (F.gelu, TF.gelu, [x2]),
        (F.sigmoid, torch.sigmoid, [x2]),
        (F.tanh, torch.tanh, [x2]),
        (lambda x: F.softmax(x, 0), lambda x: TF.softmax(x, 0), [x2]),
        (lambda x: F.log_softmax(x, 1), lambda x: TF.log_softmax(x, 1), [x2]),
        (lambda x: F.cross_entropy(x, target), lambda x: TF.cross_entropy(x, torch.tensor(target)),
         [x2]),
        (lambda x: F.nll_loss(x, target, reduction="sum", ignore_index=1),
         lambda x: TF.nll_loss(x, torch.tensor(target), reduction="sum", ignore_index=1), [x2]),
        (lambda x, y: F.mse_loss(x, y), TF.mse_loss, [x2, r.standard_normal((5, 4))]),
        (lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True),
         lambda x, w, b: TF.batch_norm(x, None, None, w, b, training=True),
         [x4, r.standard_normal(3), r.standard_normal(3)]),
        (lambda w: F.embedding(np.array([[1, 0], [1, 2]]), w),
         lambda w: TF.embedding(torch.tensor([[1, 0], [1, 2]]), w), [w2]),
    ]
    for i, (fs, ft, arrays) in enumerate(cases):
        got, want = _grad_pair(fs, ft, arrays)
        for g, w in zip(got, want):
            np.testing.assert_allclose(np.asarray(g), w.numpy(), rtol=1e-9, atol=1e-12,
                                       err_msg="case %d" % i)


def _optim_grad(i, t):
    return np.cos(0.3 * i * (t + 1)) + 0.1 * (i - 2)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("name,kwargs", [
    ("SGD", dict(lr=0.1)),
    ("SGD", dict(lr=0.05, momentum=0.9, dampening=0.1, weight_decay=0.01)),
    ("SGD", dict(lr=0.05, momentum=0.9, nesterov=True, weight_decay=0.001, maximize=True)),
    ("Adam", dict(lr=0.01)),
    ("Adam", dict(lr=0.01, betas=(0.8, 0.99), eps=1e-6, weight_decay=0.05, amsgrad=True)),
    ("AdamW", dict(lr=0.01)),
    ("AdamW", dict(lr=0.02, weight_decay=0.1, amsgrad=True, maximize=True)),
])
def test_optimizers_match_torch_over_100_steps(name, kwargs, dtype):
    r = _rng(3)
    init = [r.standard_normal((3, 4)).astype(dtype), r.standard_normal(5).astype(dtype)]
    sp = [shade.asarray(a.copy()).requires_grad_() for a in init]
    tp = [torch.from_numpy(a.copy()).requires_grad_() for a in init]
    sopt = getattr(shade.optim, name)(sp, **kwargs)
    topt = getattr(torch.optim, name)(tp, **kwargs)
    for t in range(100):
        for k, (s, p) in enumerate(zip(sp, tp)):
            g = _optim_grad(np.arange(p.numel()).reshape(p.shape) + k, t).astype(dtype)
            s.grad = shade.asarray(g)
            p.grad = torch.from_numpy(g)
        sopt.step()
        topt.step()
    for s, p in zip(sp, tp):
        np.testing.assert_allclose(np.asarray(s), p.detach().numpy(), rtol=1e-6, atol=1e-6)
    state = sopt.state_dict()
    assert state["param_groups.0.lr"] == kwargs["lr"]
    if name != "SGD":
        assert float(state["state.1.step"]) == 100.0
        np.testing.assert_allclose(np.asarray(state["state.1.exp_avg"]),
                                   topt.state[tp[1]]["exp_avg"].numpy(), rtol=1e-6, atol=1e-6)
    sopt.zero_grad()
    assert float(np.abs(np.asarray(sp[0].grad)).max()) == 0.0
    sopt.zero_grad(set_to_none=True)
    assert sp[0].grad is None


def test_module_gradients_match_torch():
    tm, sm = _torch_and_shade_models()
    sm.load_state_dict({k: v.numpy() for k, v in tm.state_dict().items()})
    x = _rng(4).standard_normal((6, 1, 8, 8))
    target = np.array([0, 1, 2, 2, 1, 0])
    F.cross_entropy(sm(x), target).backward()
    TF.cross_entropy(tm(torch.from_numpy(x)), torch.tensor(target)).backward()
    for (name, p), (tname, tp) in zip(sm.named_parameters(), tm.named_parameters()):
        assert name == tname
        np.testing.assert_allclose(np.asarray(p.grad), tp.grad.numpy(), rtol=1e-9, atol=1e-12,
                                   err_msg=name)
    # One SGD step with momentum on both.
    sopt = shade.optim.SGD(sm.parameters(), lr=0.1, momentum=0.9)
    topt = torch.optim.SGD(tm.parameters(), lr=0.1, momentum=0.9)
    sopt.step()
    topt.step()
    for (name, p), (_, tp) in zip(sm.named_parameters(), tm.named_parameters()):
        np.testing.assert_allclose(np.asarray(p), tp.detach().numpy(), rtol=1e-12, err_msg=name)
