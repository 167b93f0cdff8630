"""Zero-copy exchange with NumPy (buffer protocol, asarray) and DLPack, and the lifetimes of the
shared memory in both directions (the owner is deleted first)."""
import gc
import sys
import weakref

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import shade
from strategies import ALL_DTYPES, arrays, shapes


def address(a):
    return np.asarray(a).__array_interface__["data"][0]


@given(st.data(), shapes, st.sampled_from(ALL_DTYPES))
def test_buffer_round_trip_shares_memory(data, shape, dtype):
    a = data.draw(arrays(dtype, shape))
    s = shade.asarray(a)
    assert s.dtype == a.dtype and s.shape == a.shape
    back = np.asarray(s)
    np.testing.assert_array_equal(back, a)
    assert back.dtype == a.dtype
    if a.size > 0:
        assert address(back) == address(a)  # numpy -> shade -> numpy: one buffer
        assert np.shares_memory(back, a)


@given(st.data(), hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=6))
def test_strided_numpy_views_are_shared(data, shape):
    a = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
    key = tuple(slice(None, None, data.draw(st.integers(1, 3))) for _ in shape)
    view = a[key].T
    s = shade.asarray(view)
    np.testing.assert_array_equal(np.asarray(s), view)
    s[...] = -1.0  # written through shade, seen by NumPy
    assert (a[key] == -1).all()


def test_negative_strides_and_read_only_buffers_are_copied():
    a = np.arange(5.0)
    rev = shade.asarray(a[::-1])
    np.testing.assert_array_equal(np.asarray(rev), a[::-1])
    ro = np.arange(3.0)
    ro.flags.writeable = False
    s = shade.asarray(ro)
    s[0] = 9
    assert ro[0] == 0  # shade wrote into its own copy


def test_numpy_view_keeps_shade_storage_alive():
    s = shade.arange(1000, dtype=shade.float32) * 2
    ref = weakref.ref(s)
    n = np.asarray(s)
    del s
    gc.collect()
    assert ref() is not None  # the exported buffer holds the shade array
    np.testing.assert_array_equal(n, np.arange(1000, dtype=np.float32) * 2)
    del n
    gc.collect()
    assert ref() is None


def test_shade_view_keeps_numpy_array_alive():
    a = np.arange(10.0)
    before = sys.getrefcount(a)
    s = shade.asarray(a)
    assert sys.getrefcount(a) > before  # the buffer export references the numpy array
    ref = weakref.ref(a)
    del a
    gc.collect()
    assert ref() is not None
    np.testing.assert_array_equal(np.asarray(s), np.arange(10.0))
    t = s[2:5]  # a view keeps the same storage
    del s
    gc.collect()
    assert ref() is not None
    np.testing.assert_array_equal(np.asarray(t), [2.0, 3.0, 4.0])
    del t
    gc.collect()
    assert ref() is None


def test_expression_keeps_numpy_inputs_alive():
    a = np.ones(1 << 17, dtype=np.float32)
    ref = weakref.ref(a)
    y = shade.asarray(a) * 3 + 1
    assert shade._is_pending(y)
    del a
    gc.collect()
    assert ref() is not None
    assert float(y[5]) == 4.0
    del y
    gc.collect()
    assert ref() is None


# NumPy 1.24's DLPack has no bool (kDLBool came with DLPack 0.8); shade's bool export is tested
# in C++ (tests/io/test_dlpack.cc) and by the shade -> shade round trip below.
DLPACK_DTYPES = [d for d in ALL_DTYPES if d is not np.bool_]


@given(st.data(), shapes, st.sampled_from(DLPACK_DTYPES))
def test_dlpack_to_numpy(data, shape, dtype):
    a = data.draw(arrays(dtype, shape))
    s = shade.array(a)
    n = np.from_dlpack(s)
    np.testing.assert_array_equal(n, a)
    assert n.dtype == a.dtype
    if a.size > 0:
        assert address(n) == address(s)


@given(st.data(), shapes, st.sampled_from(DLPACK_DTYPES))
def test_dlpack_from_numpy(data, shape, dtype):
    a = data.draw(arrays(dtype, shape))
    s = shade.from_dlpack(a)
    np.testing.assert_array_equal(np.asarray(s), a)
    if a.size > 0:
        assert address(s) == address(a)


def test_dlpack_lifetimes():
    s = shade.arange(100.0)
    ref = weakref.ref(s)
    n = np.from_dlpack(s)
    del s
    gc.collect()
    np.testing.assert_array_equal(n, np.arange(100.0))  # the capsule's tensor holds the storage
    del n
    gc.collect()
    assert ref() is None
    a = np.arange(50.0)
    aref = weakref.ref(a)
    s = shade.from_dlpack(a)
    del a
    gc.collect()
    assert aref() is not None
    assert float(s.sum()) == sum(range(50))
    del s
    gc.collect()
    assert aref() is None


def test_dlpack_capsule_rules():
    s = shade.ones(3)
    assert s.__dlpack_device__() == (1, 0)
    cap = s.__dlpack__()
    t = shade.from_dlpack(cap)
    with pytest.raises(ValueError):
        shade.from_dlpack(cap)  # consumed
    np.testing.assert_array_equal(np.asarray(t), [1, 1, 1])
    flags = shade.from_dlpack(shade.asarray([True, False]))  # shade -> shade keeps bool
    assert flags.dtype == np.bool_ and flags.tolist() == [True, False]
    unused = s.__dlpack__()
    del unused  # an unconsumed capsule frees its tensor
    with pytest.raises(TypeError):
        shade.from_dlpack(3)


def test_bfloat16_has_no_buffer_format():
    b = shade.ones(3, dtype=shade.bfloat16)
    assert b.dtype == shade.bfloat16
    with pytest.raises(TypeError):
        memoryview(b)
    np.testing.assert_array_equal(np.asarray(b.astype(shade.float32)), [1, 1, 1])
    converted = np.asarray(b)  # __array__: through float32
    assert converted.dtype == np.float32 and converted.tolist() == [1, 1, 1]


@given(st.data(), shapes, st.sampled_from(ALL_DTYPES))
def test_dlpack_versioned_round_trip(data, shape, dtype):
    a = data.draw(arrays(dtype, shape))
    s = shade.asarray(a)
    cap = s.__dlpack__(max_version=(1, 0))
    assert "dltensor_versioned" in repr(cap)
    t = shade.from_dlpack(cap)
    np.testing.assert_array_equal(np.asarray(t), a)
    if a.size > 0:
        assert address(t) == address(a)
    copied = shade.from_dlpack(shade.asarray(a).__dlpack__(max_version=(1, 0), copy=True))
    np.testing.assert_array_equal(np.asarray(copied), a)
    if a.size > 0:
        assert address(copied) != address(a)
