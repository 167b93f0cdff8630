"""heaviside, deg2rad / radians, rad2deg / degrees and sinc: registry ops (so ufuncs) checked
against live NumPy 1.24 (NEP 50 promotion, conftest.py): dtypes, values, NaN/inf, rank 0,
empty, non-contiguous and broadcast operands, out=."""
import warnings

import numpy as np
import pytest

import shade

DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.int32, np.int64, np.uint64, np.float16,
          np.float32, np.float64]


def values(dtype, shape=(3, 5), seed=0):
    rng = np.random.default_rng(seed)
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    if np.issubdtype(dtype, np.integer):
        return rng.integers(0 if dtype in (np.uint8, np.uint64) else -20, 20, shape).astype(dtype)
    x = (rng.standard_normal(shape) * 100).astype(dtype)
    x.flat[0], x.flat[1], x.flat[2] = 0, np.nan, np.inf
    return x


def close(got, want, dtype=None):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape
    assert got.dtype == (want.dtype if dtype is None else dtype), (got.dtype, want.dtype)
    rtol = {np.dtype(np.float16): 1e-3, np.dtype(np.float32): 1e-6}.get(got.dtype, 1e-13)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=rtol,
                                   atol=0, equal_nan=True)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name,alias", [("deg2rad", "radians"), ("rad2deg", "degrees")])
def test_angle_conversions(dtype, name, alias):
    x = values(dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = getattr(np, name)(x)
    close(getattr(shade, name)(x), want)
    close(getattr(shade, alias)(x), want)
    close(getattr(shade, name)(x[:, ::2]), getattr(np, name)(x[:, ::2]))  # a strided view
    close(getattr(shade, name)(x[0, 3]), getattr(np, name)(x[0, 3]))  # rank 0
    close(getattr(shade, name)(x[:0]), getattr(np, name)(x[:0]))  # empty


def test_angle_conversions_exact_for_floats():
    # The constant is computed in the dtype, as NumPy's npy_deg2radf: the values agree exactly.
    for dtype in (np.float32, np.float64):
        x = np.linspace(-720, 720, 1001, dtype=dtype)
        np.testing.assert_array_equal(np.asarray(shade.deg2rad(x)), np.deg2rad(x))
        np.testing.assert_array_equal(np.asarray(shade.rad2deg(x)), np.rad2deg(x))


@pytest.mark.parametrize("d1", DTYPES)
@pytest.mark.parametrize("d2", [np.bool_, np.int8, np.float16, np.float32, np.float64])
def test_heaviside(d1, d2):
    x = values(d1)
    h = values(d2, shape=(1, 5), seed=1)  # broadcast
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = np.heaviside(x, h)
    got = shade.heaviside(x, h)
    close(got, want)
    np.testing.assert_array_equal(np.asarray(got), want)  # exact: only 0, 1, h or NaN


def test_heaviside_specials_and_out():
    x = np.array([-np.inf, -1.0, -0.0, 0.0, 2.0, np.inf, np.nan])
    np.testing.assert_array_equal(np.asarray(shade.heaviside(x, 0.5)), np.heaviside(x, 0.5))
    out = shade.zeros(7)
    r = shade.heaviside(x, 0.25, out=out)
    assert r is out
    np.testing.assert_array_equal(np.asarray(out), np.heaviside(x, 0.25))
    assert shade.heaviside.nin == 2 and shade.heaviside.identity is None


@pytest.mark.parametrize("dtype", DTYPES)
def test_sinc(dtype):
    x = values(dtype)
    if np.issubdtype(dtype, np.floating):
        x = (x / 7).astype(dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = np.sinc(x)
    # NumPy's sinc is a Python function whose where(x == 0, 1e-20, x) promotes to float64 under
    # NEP 50; shade's is a ufunc that keeps float16/float32 (NumPy 2's and NumPy 1.24's default
    # promotion) and gives float64 for integers and bool, as NumPy.
    expected_dtype = np.dtype(dtype) if dtype in (np.float16, np.float32) else np.float64
    close(shade.sinc(x), want.astype(expected_dtype), expected_dtype)
    assert float(np.asarray(shade.sinc(np.zeros((), dtype)))) == 1.0


def test_sinc_values():
    x = np.array([0.0, 0.5, -0.5, 1.0, 2.5, 1e-30, 12345.25, np.inf, -np.inf, np.nan])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = np.sinc(x)
    np.testing.assert_allclose(np.asarray(shade.sinc(x)), want, rtol=1e-13, equal_nan=True)
    assert isinstance(shade.sinc, shade.ufunc) and shade.sinc.nin == 1
