"""shade.ufunc against live NumPy 1.24: attributes, calls with out=/where=/dtype=/casting=, and
reduce / accumulate / reduceat / outer / at of every binary op; constants, finfo/iinfo/dtype."""
import warnings

import numpy as np
import pytest

import shade

BINARY = [n for n in dir(shade) if isinstance(getattr(shade, n), shade.ufunc)
          and getattr(shade, n).nin == 2 and n == getattr(shade, n).__name__]
DTYPES = [np.bool_, np.int8, np.uint8, np.int32, np.int64, np.float32, np.float64]


def np_ufunc(name):
    return {"true_divide": np.true_divide}.get(name, getattr(np, name, None))


def outcome(f):
    """(result, None) or (None, exception class) of f(), warnings silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return f(), None
        except Exception as e:  # noqa: BLE001 - the class is compared
            return None, type(e)


def same(got, want):
    got = np.asarray(got)
    want = np.asarray(want)
    assert got.shape == want.shape
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    if want.dtype.kind == "f":
        np.testing.assert_allclose(got, want, rtol=2e-3 if want.dtype == np.float16 else 1e-6,
                                   equal_nan=True)
    else:
        np.testing.assert_array_equal(got, want)


def check(sf, nf):
    got, gerr = outcome(sf)
    want, werr = outcome(nf)
    if werr is not None:
        assert gerr is not None and issubclass(gerr, werr) or (
            werr is np.AxisError and gerr in (IndexError, ValueError)), (gerr, werr)
        return
    assert gerr is None, gerr
    same(got, want)


def data(dtype, shape, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.integers(1, 4, size=shape)
    return x.astype(dtype)


def test_every_registry_op_is_a_ufunc():
    # (numpy.where is a function, not a ufunc: shade.where dispatches on its argument count.)
    for name in ["add", "subtract", "exp", "clip", "arctan2", "invert", "logical_not"]:
        u = getattr(shade, name)
        assert isinstance(u, shade.ufunc)
        assert u.__name__ == name
        assert u.nout == 1
        assert u.nargs == u.nin + 1
        assert repr(u) == "<ufunc '%s'>" % name
    assert shade.divide is shade.true_divide
    assert shade.abs is shade.absolute
    assert shade.bitwise_not is shade.invert
    for name in BINARY:
        nf = np_ufunc(name)
        if nf is not None:
            assert getattr(shade, name).identity == nf.identity, name
            assert getattr(shade, name).nin == nf.nin


@pytest.mark.parametrize("name", BINARY)
@pytest.mark.parametrize("dtype", DTYPES)
def test_reduce_accumulate_outer(name, dtype):
    nf = np_ufunc(name)
    if nf is None:
        pytest.skip("no NumPy ufunc " + name)
    su = getattr(shade, name)
    x = data(dtype, (3, 4))
    sx = shade.asarray(x)
    for axis in [0, 1, -1, None, (0, 1), ()]:
        for keepdims in [False, True]:
            check(lambda: su.reduce(sx, axis=axis, keepdims=keepdims),
                  lambda: nf.reduce(x, axis=axis, keepdims=keepdims))
    check(lambda: su.reduce(sx.T, axis=1), lambda: nf.reduce(x.T, axis=1))  # non-contiguous
    check(lambda: su.accumulate(sx, axis=0), lambda: nf.accumulate(x, axis=0))
    check(lambda: su.accumulate(sx[:, ::2], axis=1), lambda: nf.accumulate(x[:, ::2], axis=1))
    check(lambda: su.reduceat(sx, [0, 2, 1], axis=1), lambda: nf.reduceat(x, [0, 2, 1], axis=1))
    check(lambda: su.outer(sx[0], sx[:, 1]), lambda: nf.outer(x[0], x[:, 1]))
    # empty inputs
    e = np.zeros((0, 3), dtype)
    check(lambda: su.reduce(shade.asarray(e), axis=0), lambda: nf.reduce(e, axis=0))
    check(lambda: su.reduce(shade.asarray(e), axis=1), lambda: nf.reduce(e, axis=1))
    check(lambda: su.accumulate(shade.asarray(e), axis=0), lambda: nf.accumulate(e, axis=0))


@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "minimum", "subtract",
                                  "logical_and", "bitwise_or", "hypot", "power"])
@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64])
def test_reduce_initial_where_dtype(name, dtype):
    nf, su = np_ufunc(name), getattr(shade, name)
    x = data(dtype, (2, 3, 4), seed=1)
    sx = shade.asarray(x)
    m = (np.arange(24).reshape(2, 3, 4) % 3) != 0
    for axis in [0, 2, (0, 2), None]:
        check(lambda: su.reduce(sx, axis=axis, initial=2), lambda: nf.reduce(x, axis=axis, initial=2))
        check(lambda: su.reduce(sx, axis=axis, where=shade.asarray(m), initial=1),
              lambda: nf.reduce(x, axis=axis, where=m, initial=1))
        check(lambda: su.reduce(sx, axis=axis, where=shade.asarray(m)),
              lambda: nf.reduce(x, axis=axis, where=m))
        check(lambda: su.reduce(sx, axis=axis, dtype=np.float64),
              lambda: nf.reduce(x, axis=axis, dtype=np.float64))
    e = np.zeros((0, 2), dtype)
    check(lambda: su.reduce(shade.asarray(e), initial=5), lambda: nf.reduce(e, initial=5))


def test_reduce_errors_and_scalars():
    x = np.arange(6.0).reshape(2, 3)
    sx = shade.asarray(x)
    with pytest.raises(ValueError, match="not reorderable"):
        shade.subtract.reduce(sx, axis=None)
    with pytest.raises(ValueError, match="zero-size array"):
        shade.maximum.reduce(shade.zeros((0, 3)))
    with pytest.raises(ValueError, match="initial"):
        shade.maximum.reduce(sx, where=sx > 1)
    with pytest.raises(ValueError, match="binary"):
        shade.exp.reduce(sx)
    with pytest.raises(TypeError):
        shade.equal.reduce(sx)
    with pytest.raises(TypeError, match="scalar"):
        shade.add.accumulate(shade.asarray(np.float64(2)))
    with pytest.raises(IndexError, match="out-of-bounds"):
        shade.add.reduceat(sx, [0, 3], axis=1)
    with pytest.raises(IndexError, match="out-of-bounds"):
        shade.add.reduceat(sx, [-1], axis=1)
    r = shade.add.reduce(sx, axis=None)
    assert type(r) is np.float64 and r == 15.0
    out = shade.zeros(3)
    assert shade.add.reduce(sx, out=out) is out
    same(out, x.sum(axis=0))


@pytest.mark.parametrize("dtype", [np.int64, np.float32, np.uint8])
def test_at_unbuffered(dtype):
    for name in ["add", "multiply", "maximum", "subtract", "bitwise_xor", "negative", "power"]:
        nf, su = np_ufunc(name), getattr(shade, name)
        a = data(dtype, (5,), seed=2)
        idx = np.array([0, 0, 3, -1, 3, 0])
        sa = shade.asarray(a.copy())
        args = () if su.nin == 1 else (np.array(2, dtype),)
        got = outcome(lambda: su.at(sa, idx, *[shade.asarray(b) for b in args]))
        want = outcome(lambda: nf.at(a, idx, *args))
        if want[1] is not None:
            assert got[1] is not None
            continue
        assert got[1] is None, got[1]
        same(sa, a)
    a = np.arange(12.0).reshape(3, 4)
    sa = shade.asarray(a.copy())
    shade.add.at(sa, (np.array([0, 0, 2]), np.array([1, 1, 3])), shade.asarray(np.array([1.0, 2, 3])))
    np.add.at(a, (np.array([0, 0, 2]), np.array([1, 1, 3])), np.array([1.0, 2, 3]))
    same(sa, a)
    sa = shade.asarray(a.copy())
    shade.add.at(sa, [2, 2], shade.asarray(np.array([1.0, 2, 3, 4])))
    np.add.at(a, [2, 2], np.array([1.0, 2, 3, 4]))
    same(sa, a)
    with pytest.raises(IndexError):
        shade.add.at(sa, [3], 1.0)


def test_call_keywords():
    x = np.arange(6, dtype=np.int32).reshape(2, 3)
    y = np.array([1, 2, 3], dtype=np.int32)
    sx, sy = shade.asarray(x), shade.asarray(y)
    same(shade.add(sx, sy, dtype=np.float32), np.add(x, y, dtype=np.float32))
    same(shade.multiply(sx, 2.5, dtype=np.float64), np.multiply(x, 2.5, dtype=np.float64))
    out = shade.asarray(np.full((2, 3), -1.0))
    nout = np.full((2, 3), -1.0)
    m = np.array([True, False, True])
    assert shade.add(sx, sy, out=out, where=shade.asarray(m)) is out
    np.add(x, y, out=nout, where=m)
    same(out, nout)
    out2 = shade.zeros((2, 3), dtype=np.int32)
    shade.add(sx, sy, out2)
    same(out2, x + y)
    shade.add(sx, sy, out=(out2,))
    same(out2, x + y)
    with pytest.raises(TypeError):
        shade.add(sx, sy, dtype=np.int8, casting="safe")
    with pytest.raises(TypeError):
        shade.add(sx, 1.5, out=shade.zeros((2, 3), dtype=np.int32))
    o = shade.zeros((2, 3), dtype=np.int32)
    shade.add(sx, 1.5, out=o, casting="unsafe")
    same(o, np.add(x, 1.5, out=np.zeros((2, 3), np.int32), casting="unsafe"))
    with pytest.raises(TypeError, match="invalid keyword"):
        shade.add(sx, sy, bogus=1)
    with pytest.raises(TypeError):
        shade.add(sx)
    same(shade.exp(shade.asarray(np.array([0.0, 1.0])), dtype=np.float32),
         np.exp(np.array([0.0, 1.0]), dtype=np.float32))
    r = shade.sqrt(shade.asarray(np.array([4.0, 9.0, 16.0])), where=shade.asarray(np.array([True, False, True])))
    assert np.asarray(r)[0] == 2.0 and np.asarray(r)[2] == 4.0


def test_ufunc_call_keeps_fusion():
    shade._set_lazy_min_elements(16)
    try:
        a = shade.asarray(np.arange(64.0))
        before = shade._evaluation_count()
        r = shade.add(shade.multiply(a, a), shade.exp(a))
        assert shade._is_pending(r)
        np.testing.assert_allclose(np.asarray(r), np.arange(64.0) ** 2 + np.exp(np.arange(64.0)))
        assert shade._evaluation_count() == before + 1
    finally:
        shade._set_lazy_min_elements(65536)


def test_constants_and_dtype_info():
    assert shade.pi == np.pi and shade.e == np.e and shade.euler_gamma == np.euler_gamma
    assert shade.inf == np.inf and np.isnan(shade.nan)
    assert isinstance(shade.__version__, str) and shade.__version__.count(".") == 2
    for t in [np.float16, np.float32, np.float64]:
        f, n = shade.finfo(t), np.finfo(t)
        assert f.eps == n.eps and f.max == n.max and f.tiny == n.tiny
        got = shade._finfo(t)
        for key in ["bits", "nmant", "nexp", "machep", "negep", "minexp", "maxexp", "precision"]:
            assert got[key] == getattr(n, key), (t, key)
        for key in ["eps", "epsneg", "max", "min", "tiny", "smallest_subnormal"]:
            assert got[key] == float(getattr(n, key)), (t, key)
    b = shade.finfo(shade.bfloat16)
    assert b.eps == 2.0 ** -7 and b.bits == 16 and b.nmant == 7 and b.nexp == 8
    assert b.max == (2 - 2.0 ** -7) * 2.0 ** 127 and b.tiny == 2.0 ** -126
    assert b.smallest_subnormal == 2.0 ** -133 and b.precision == 2
    for t in [np.int8, np.uint16, np.int64, np.uint64]:
        assert shade.iinfo(t).max == np.iinfo(t).max
        assert shade._iinfo(t) == {"bits": np.iinfo(t).bits, "min": np.iinfo(t).min,
                                   "max": np.iinfo(t).max}
    with pytest.raises(TypeError):
        shade._finfo(np.int32)
    with pytest.raises(TypeError):
        shade._iinfo(np.float32)
    assert shade.dtype("bfloat16") is shade.bfloat16
    assert shade.dtype("f4") == np.float32


def test_show_config(capsys):
    shade.show_config()
    text = capsys.readouterr().out
    for part in ["SIMD extensions", "chosen at run time", "BLAS", "threads", "onednn"]:
        assert part in text


def _print_cases():
    rng = np.random.default_rng(5)
    cases = [
        np.array([1.5, 2.25, -3.0, 10.0]), np.array([0.1, 0.2, 0.30000000000000004]),
        np.array([1e-5, 1.0]), np.array([1e8, 1.0, -2.5]), np.array([1e-100, 1.0]),
        np.array([np.nan, 1.5, -np.inf]), np.array([np.nan, np.inf]), np.array([0.0, -0.0]),
        np.arange(30), np.arange(2000), np.arange(1100).reshape(100, 11), np.arange(24).reshape(2, 3, 4),
        np.array([True, False]), np.array([True, True]), np.array(3.5), np.array(7),
        np.array(True), np.array(1e-7), np.array([], dtype=np.float64), np.zeros((0, 3)),
        np.array([1, -20, 300], dtype=np.int32), np.array([1, 2], dtype=np.uint8),
        np.array([0.1, 1 / 3], dtype=np.float32), np.array([1.5, 2], dtype=np.float16),
        rng.standard_normal((4, 5)), rng.standard_normal(40) * 1e3, rng.standard_normal((3, 4)).astype(np.float32),
        np.linspace(0, 1, 100).reshape(10, 10), np.array([123456.789, 0.001]),
        np.arange(12.0).reshape(3, 4)[:, ::2],
    ]
    return cases


OPTION_SETS = [
    {}, {"precision": 3}, {"precision": 2, "floatmode": "fixed"}, {"floatmode": "unique"},
    {"floatmode": "maxprec_equal"}, {"suppress": True}, {"sign": "+"}, {"sign": " "},
    {"linewidth": 40}, {"threshold": 10, "edgeitems": 2}, {"linewidth": 120, "precision": 4},
    {"threshold": 5, "edgeitems": 1, "sign": "+", "precision": 1, "floatmode": "fixed"},
]


@pytest.mark.parametrize("options", OPTION_SETS)
def test_print_matches_numpy(options):
    saved_np = np.get_printoptions()
    try:
        np.set_printoptions(**options)
        with shade.printoptions(**options):
            for x in _print_cases():
                s = shade.asarray(x)
                assert repr(s) == repr(x), (options, x)
                assert str(s) == str(x), (options, x)
    finally:
        np.set_printoptions(**saved_np)
    assert shade.get_printoptions()["precision"] == 8


def test_printoptions_state():
    o = shade.get_printoptions()
    assert {k: o[k] for k in ["precision", "threshold", "edgeitems", "linewidth", "suppress",
                              "sign", "floatmode"]} == {
        k: np.get_printoptions()[k] for k in ["precision", "threshold", "edgeitems", "linewidth",
                                              "suppress", "sign", "floatmode"]}
    with shade.printoptions(precision=2) as cur:
        assert cur["precision"] == 2
        assert repr(shade.asarray(np.array([1.23456]))) == "array([1.23])"
    assert shade.get_printoptions()["precision"] == 8
    with pytest.raises(ValueError):
        shade.set_printoptions(sign="x")
    with pytest.raises(ValueError):
        shade.set_printoptions(floatmode="bogus")
    with pytest.raises(ValueError):
        shade.set_printoptions(threshold=float("nan"))
    shade.set_printoptions(threshold=float("inf"))
    assert "..." not in repr(shade.arange(5000))
    shade.set_printoptions(threshold=1000)
    assert shade.get_printoptions() == o
    b = shade.asarray(np.array([1.5, 2.0])).astype(shade.bfloat16)
    assert repr(b) == "array([1.5, 2. ], dtype=bfloat16)" and str(b) == "[1.5 2. ]"


@pytest.fixture
def numpy_errstate():
    """NumPy's default error handling (shade's default is all 'ignore': see float_errors.h)."""
    assert set(shade.geterr().values()) == {"ignore"}
    old = shade.seterr(**np.geterr())
    yield
    shade.seterr(**old)


def test_errstate_matches_numpy(numpy_errstate):
    x = np.array([1.0, 0.0, -1.0])
    sx = shade.asarray(x)
    assert shade.geterr() == np.geterr()
    with pytest.warns(RuntimeWarning, match="divide by zero encountered in"):
        shade.true_divide(sx, 0.0)
    with pytest.warns(RuntimeWarning, match="invalid value encountered in sqrt"):
        shade.sqrt(sx)
    with pytest.warns(RuntimeWarning, match="overflow encountered in multiply"):
        shade.multiply(shade.asarray(np.array([1e308])), 10.0)
    with shade.errstate(divide="raise"):
        with pytest.raises(FloatingPointError, match="divide by zero"):
            sx / 0.0
        assert shade.geterr()["divide"] == "raise"
    assert shade.geterr()["divide"] == "warn"
    with shade.errstate(all="ignore"):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            r = shade.sqrt(sx) + sx / 0.0
            np.testing.assert_array_equal(np.isnan(np.asarray(r)), [False, True, True])
    calls = []
    with shade.errstate(invalid="call", call=lambda kind, flag: calls.append((kind, flag))):
        shade.sqrt(sx)
    assert calls == [("invalid value", 8)]

    class Log:
        text = []

        def write(self, s):
            Log.text.append(s)

    with shade.errstate(divide="log", invalid="ignore", call=Log()):
        shade.asarray(np.array([1.0])) / 0.0
    assert Log.text == ["Warning: divide by zero encountered in true_divide\n"]
    old = shade.seterr(over="ignore")
    assert old == np.geterr() and shade.geterr()["over"] == "ignore"
    shade.seterr(**old)
    with pytest.raises(ValueError):
        shade.seterr(divide="loud")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        shade.add(sx, sx)  # no flags, no warning
        shade.multiply(shade.asarray(np.array([1e-308])), 1e-100)  # underflow: ignored


def test_errstate_in_reduce_and_large_arrays(numpy_errstate):
    big = np.ones(1 << 18)
    big[-1] = 0.0
    with pytest.warns(RuntimeWarning, match="divide by zero"):
        shade.true_divide(shade.asarray(np.ones(1 << 18)), shade.asarray(big)).eval()
    with shade.errstate(divide="raise"):
        with pytest.raises(FloatingPointError):
            shade.true_divide.reduce(shade.asarray(np.array([1.0, 0.0])))
