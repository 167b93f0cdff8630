"""Property tests against NumPy: broadcasting and NEP 50 promotion, reductions, indexing and
assignment on random views."""
import contextlib

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import shade
from strategies import ALL_DTYPES, FLOAT_DTYPES, arrays, broadcast_pairs, dtypes, python_scalars, shapes

BINARY = ["add", "subtract", "multiply", "true_divide", "maximum", "minimum", "equal", "not_equal",
          "less", "less_equal", "greater", "greater_equal", "logical_and", "logical_or", "logical_xor"]
INT_BINARY = ["bitwise_and", "bitwise_or", "bitwise_xor", "floor_divide", "remainder"]
OPERATORS = {"add": "__add__", "subtract": "__sub__", "multiply": "__mul__",
             "true_divide": "__truediv__", "equal": "__eq__", "less": "__lt__",
             "greater_equal": "__ge__", "bitwise_and": "__and__", "bitwise_xor": "__xor__",
             "floor_divide": "__floordiv__", "remainder": "__mod__"}
UNARY = ["negative", "abs", "exp", "log1p", "sqrt", "sin", "cos", "tanh", "floor", "ceil", "sign",
         "logical_not"]


@contextlib.contextmanager
def lazy_mode(lazy):
    """lazy: every elementwise result is a pending expression (else small ones run at once)."""
    shade._set_lazy_min_elements(0 if lazy else 1 << 16)
    try:
        yield
    finally:
        shade._set_lazy_min_elements(1 << 16)


def numpy_result(fn):
    """NumPy's result, or the exception class it raises."""
    try:
        with np.errstate(all="ignore"):
            return fn()
    except (TypeError, np.core._exceptions._UFuncNoLoopError) as e:  # noqa: F841
        return TypeError


def assert_same(actual, expected, tol=None):
    actual = np.asarray(actual)
    expected = np.asarray(expected)
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    assert actual.shape == expected.shape
    if expected.dtype.kind == "f":
        tol = tol or {2: 2e-3, 4: 2e-6, 8: 1e-12}[expected.dtype.itemsize]
        np.testing.assert_allclose(actual, expected, rtol=tol, atol=tol, equal_nan=True)
    else:
        np.testing.assert_array_equal(actual, expected)


def skip_if_no_loop(name, *dts):
    kinds = {np.dtype(d).kind for d in dts}
    if name == "subtract" and kinds == {"b"}:
        return True
    if name in INT_BINARY[:3] and "f" in kinds:
        return True
    return False


@given(st.data(), broadcast_pairs, dtypes, dtypes, st.sampled_from(BINARY + INT_BINARY))
def test_binary_broadcast_and_promotion(data, shapes_pair, da, db, name):
    sa, sb = shapes_pair.input_shapes
    a = data.draw(arrays(da, sa))
    b = data.draw(arrays(db, sb))
    if name in ("floor_divide", "remainder") and np.dtype(da).kind != "f" and np.dtype(db).kind != "f":
        b = np.where(b == 0, np.ones_like(b), b)  # integer x // 0 differs only in warnings
    expected = numpy_result(lambda: getattr(np, name)(a, b))
    with lazy_mode(data.draw(st.booleans())):
        if expected is TypeError or skip_if_no_loop(name, da, db):
            with pytest.raises(TypeError):
                getattr(shade, name)(shade.asarray(a), shade.asarray(b)).eval()
            return
        got = getattr(shade, name)(shade.asarray(a), shade.asarray(b))
        assert_same(got, expected)
        if name in OPERATORS:
            assert_same(getattr(shade.asarray(a), OPERATORS[name])(shade.asarray(b)), expected)


@given(st.data(), shapes, dtypes, python_scalars, st.sampled_from(["add", "multiply", "subtract", "maximum", "less"]),
       st.booleans())
def test_python_scalars_are_weak(data, shape, dtype, scalar, name, scalar_first):
    a = data.draw(arrays(dtype, shape))
    if np.dtype(dtype).kind == "u" and isinstance(scalar, int) and not isinstance(scalar, bool):
        scalar = abs(scalar)
    args = (scalar, a) if scalar_first else (a, scalar)
    expected = numpy_result(lambda: getattr(np, name)(*args))
    sargs = (scalar, shade.asarray(a)) if scalar_first else (shade.asarray(a), scalar)
    if expected is TypeError:
        with pytest.raises(TypeError):
            getattr(shade, name)(*sargs).eval()
        return
    assert_same(getattr(shade, name)(*sargs), expected)


@given(st.data(), shapes, st.sampled_from(ALL_DTYPES), st.sampled_from(UNARY))
def test_unary(data, shape, dtype, name):
    a = data.draw(arrays(dtype, shape))
    if name in ("log1p", "sqrt"):
        a = np.abs(a) if np.dtype(dtype).kind != "b" else a
    np_name = "absolute" if name == "abs" else name
    expected = numpy_result(lambda: getattr(np, np_name)(a))
    if expected is TypeError or (name == "sign" and np.dtype(dtype).kind == "b"):
        with pytest.raises(TypeError):
            getattr(shade, name)(shade.asarray(a)).eval()
        return
    assert_same(getattr(shade, name)(shade.asarray(a)), expected)


@given(st.data(), hnp.array_shapes(min_dims=1, max_dims=4, min_side=1, max_side=6), dtypes,
       st.sampled_from(["sum", "prod", "mean", "max", "min", "all", "any", "var", "std"]), st.booleans())
def test_reductions(data, shape, dtype, name, keepdims):
    a = data.draw(arrays(dtype, shape))
    if name == "prod" and np.dtype(dtype).kind == "f":
        a = np.clip(a, -1.5, 1.5).astype(dtype)
    if name in ("var", "std", "mean") and np.dtype(dtype) == np.float16:
        dtype = np.float32
        a = a.astype(dtype)
    axis = data.draw(st.one_of(st.none(), st.integers(-len(shape), len(shape) - 1),
                               st.sets(st.integers(0, len(shape) - 1), min_size=1).map(tuple)))
    expected = getattr(np, name)(a, axis=axis, keepdims=keepdims)
    got = getattr(shade, name)(shade.asarray(a), axis=axis, keepdims=keepdims)
    assert_same(got, expected)
    method = getattr(shade.asarray(a), name)(axis=axis, keepdims=keepdims)
    assert_same(method, expected)


@given(st.data(), hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=6), st.sampled_from([np.int32, np.float64]))
def test_reduction_dtype_and_arg(data, shape, dtype):
    a = data.draw(arrays(dtype, shape))
    assert_same(shade.sum(shade.asarray(a), dtype=np.float32), np.sum(a, dtype=np.float32))
    axis = data.draw(st.integers(0, len(shape) - 1))
    assert_same(shade.argmax(shade.asarray(a), axis=axis), np.argmax(a, axis=axis))
    assert_same(shade.argmin(shade.asarray(a)), np.argmin(a))


def slices(size):
    idx = st.one_of(st.none(), st.integers(-size - 2, size + 2))
    return st.builds(slice, idx, idx, st.one_of(st.none(), st.integers(-3, 3).filter(lambda s: s != 0)))


@st.composite
def basic_keys(draw, shape):
    items = []
    for size in shape:
        kind = draw(st.sampled_from(["slice", "int", "none", "full"]))
        if kind == "slice":
            items.append(draw(slices(size)))
        elif kind == "int" and size > 0:
            items.append(draw(st.integers(-size, size - 1)))
        elif kind == "none":
            items.append(None)
            items.append(slice(None))
        else:
            items.append(slice(None))
    if draw(st.booleans()) and items:
        cut = draw(st.integers(0, len(items)))
        items = items[:cut] + [Ellipsis]
    return tuple(items)


@given(st.data(), hnp.array_shapes(min_dims=1, max_dims=4, min_side=1, max_side=6))
def test_basic_indexing_and_assignment(data, shape):
    a = np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)
    s = shade.asarray(a.copy())
    key = data.draw(basic_keys(shape))
    expected = a[key]
    got = s[key]
    assert_same(got, expected)
    # assignment through the same key: a scalar, then a broadcast array of the selection's shape
    a2, s2 = a.copy(), shade.array(a)
    a2[key] = -7
    s2[key] = -7
    assert_same(s2, a2)
    values = np.asarray(expected) * 10 + 1
    a2[key] = values
    s2[key] = shade.asarray(values)
    assert_same(s2, a2)


@given(st.data(), hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=5))
def test_advanced_indexing_and_assignment(data, shape):
    a = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    s = shade.asarray(a.copy())
    ndim = len(shape)
    kind = data.draw(st.sampled_from(["int_array", "bool_mask", "mixed"]))
    if kind == "int_array":
        k = data.draw(st.integers(1, ndim))
        idx_shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=2, max_side=3))
        key = tuple(data.draw(hnp.arrays(np.int64, idx_shape, elements=st.integers(-shape[d], shape[d] - 1)))
                    for d in range(k))
    elif kind == "bool_mask":
        k = data.draw(st.integers(1, ndim))
        key = data.draw(hnp.arrays(np.bool_, shape[:k]))
    else:
        d = data.draw(st.integers(0, ndim - 1))
        arr = data.draw(hnp.arrays(np.int64, (2,), elements=st.integers(-shape[d], shape[d] - 1)))
        key = tuple([slice(None, None, -1) if i < d else arr if i == d else slice(None) for i in range(ndim)])
        if ndim > 2 and data.draw(st.booleans()):  # separated advanced indices go first (NumPy)
            key = key[:-1] + (0,)
    expected = a[key]
    assert_same(s[key], expected)
    a2, s2 = a.copy(), shade.array(a)
    a2[key] = 5.5
    s2[key] = 5.5
    assert_same(s2, a2)
    values = expected * 2 + 1  # repeated indices write equal values: no order dependence
    a2[key] = values
    s2[key] = values
    assert_same(s2, a2)


@given(st.data(), hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=6), dtypes)
def test_ops_on_random_views(data, shape, dtype):
    """Strided, transposed and broadcast operands through the lazy and the eager paths."""
    a = data.draw(arrays(dtype, shape))
    key = tuple(data.draw(slices(n).filter(lambda s: s.step is None or s.step > 0)) for n in shape)
    view_np = a[key].T
    view = shade.asarray(a)[key].T
    assume(np.dtype(dtype).kind != "b")
    with lazy_mode(data.draw(st.booleans())):
        assert_same(view * 2 + 1, view_np * 2 + 1)
        assert_same(view - view, view_np - view_np)
        # float16/float32 intermediates may feed a float64 result: their precision bounds it
        with np.errstate(all="ignore"):
            expected = np.exp(view_np) * view_np + view_np / 3
        assert_same(shade.exp(view) * view + view / 3, expected, tol=2e-3)
