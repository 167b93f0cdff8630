#!/usr/bin/python3
"""DLPack round trips between shade and NumPy (np.from_dlpack / ndarray.__dlpack__), driven
through ctypes and the shade_dlpack_bridge shared library. Usage: dlpack_numpy.py BRIDGE.so
Exits non-zero (with a message) on the first mismatch."""
import ctypes
import gc
import sys

import numpy as np

lib = ctypes.CDLL(sys.argv[1])
lib.shade_bridge_export.restype = ctypes.c_void_p
lib.shade_bridge_export.argtypes = [ctypes.c_int, ctypes.c_int]
lib.shade_bridge_data.restype = ctypes.c_void_p
lib.shade_bridge_data.argtypes = [ctypes.c_void_p]
lib.shade_bridge_import.restype = ctypes.c_int
lib.shade_bridge_import.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_int),
                                    ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(ctypes.c_int64),
                                    ctypes.POINTER(ctypes.c_void_p), ctypes.c_char_p, ctypes.c_size_t,
                                    ctypes.POINTER(ctypes.c_size_t)]

api = ctypes.pythonapi
api.PyCapsule_New.restype = ctypes.py_object
api.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
api.PyCapsule_GetPointer.restype = ctypes.c_void_p
api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
api.PyCapsule_SetName.restype = ctypes.c_int
api.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]
CAPSULE_NAME = ctypes.create_string_buffer(b"dltensor")  # must outlive every capsule
USED_NAME = ctypes.create_string_buffer(b"used_dltensor")
DESTRUCTOR = ctypes.cast(lib.shade_bridge_capsule_destructor, ctypes.c_void_p)

# shade dtype flags (include/shade/base/dtype.h) for the dtypes NumPy's DLPack supports.
FLAGS = {"float32": 0, "float64": 1, "float16": 2, "uint8": 3, "int32": 4, "int8": 5, "int64": 6,
         "int16": 9, "uint16": 10, "uint32": 11, "uint64": 12}
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


class Producer:
    """What np.from_dlpack expects: __dlpack__ returning a capsule, and __dlpack_device__."""

    def __init__(self, capsule):
        self.capsule = capsule

    def __dlpack__(self, stream=None):
        return self.capsule

    def __dlpack_device__(self):
        return (1, 0)  # kDLCPU


def expected(dt, variant):
    cols = 8 if variant == 2 else 4
    base = (np.arange(3 * cols) % 100).astype(dt).reshape(3, cols)
    return base.T if variant == 1 else base[:, 1::2] if variant == 2 else base


# shade -> NumPy
exported = 0
for name, flag in FLAGS.items():
    for variant in range(3):
        ptr = lib.shade_bridge_export(flag, variant)
        check(ptr, f"export {name} v{variant}")
        exported += 1
        data = lib.shade_bridge_data(ptr)
        cap = api.PyCapsule_New(ptr, CAPSULE_NAME, DESTRUCTOR)
        x = np.from_dlpack(Producer(cap))
        want = expected(name, variant)
        check(x.dtype == np.dtype(name), f"{name} v{variant}: dtype {x.dtype}")
        check(x.shape == want.shape, f"{name} v{variant}: shape {x.shape}")
        check(np.array_equal(x, want), f"{name} v{variant}: values")
        check(x.ctypes.data == data, f"{name} v{variant}: NumPy copied the data")
        check(x.strides == want.strides if variant != 1 else x.strides[0] == x.itemsize,
              f"{name} v{variant}: strides {x.strides}")
        del x, cap
gc.collect()
check(lib.shade_bridge_deleter_calls() == exported,
      f"deleters run {lib.shade_bridge_deleter_calls()} times for {exported} exports")

# An unconsumed capsule: its destructor must run the deleter (once).
before = lib.shade_bridge_deleter_calls()
cap = api.PyCapsule_New(lib.shade_bridge_export(0, 0), CAPSULE_NAME, DESTRUCTOR)
del cap
gc.collect()
check(lib.shade_bridge_deleter_calls() == before + 1, "unconsumed capsule deleter")

# NumPy -> shade: non-contiguous views with an offset; zero copy; NumPy's deleter runs once.
for name in FLAGS:
    base = (np.arange(48) % 100).astype(name).reshape(6, 8)
    for a in (base, base[1::2, 2:7], base.T, base[2, ::3], np.array(5, dtype=name)):
        refs = sys.getrefcount(a)
        cap = a.__dlpack__()
        ptr = api.PyCapsule_GetPointer(cap, CAPSULE_NAME)
        dtype = ctypes.create_string_buffer(16)
        ndim = ctypes.c_int()
        sizes = (ctypes.c_int64 * 8)()
        strides = (ctypes.c_int64 * 8)()
        data = ctypes.c_void_p()
        buf = ctypes.create_string_buffer(4096)
        nbytes = ctypes.c_size_t()
        rc = lib.shade_bridge_import(ptr, dtype, ctypes.byref(ndim), sizes, strides, ctypes.byref(data),
                                     buf, 4096, ctypes.byref(nbytes))
        check(rc == 0, f"import {name} {a.shape}")
        api.PyCapsule_SetName(cap, USED_NAME)  # consumed: shade owns it now
        del cap
        tag = f"numpy->shade {name} {a.shape} {a.strides}"
        check(dtype.value.decode() == name, tag + f": dtype {dtype.value}")
        check(tuple(sizes[: ndim.value]) == a.shape, tag + ": shape")
        check(tuple(strides[: ndim.value]) == tuple(s // a.itemsize for s in a.strides), tag + ": strides")
        check((data.value or 0) == a.ctypes.data, tag + ": copied")
        check(buf.raw[: nbytes.value] == np.ascontiguousarray(a).tobytes(), tag + ": values")
        check(sys.getrefcount(a) == refs + 1, tag + ": NumPy's export should hold a reference")
        lib.shade_bridge_release_all()
        check(sys.getrefcount(a) == refs, tag + ": NumPy's deleter did not run exactly once")

# NumPy 1.24 cannot export bool over DLPack; shade maps bool itself (tested in C++).
try:
    np.zeros(3, dtype=bool).__dlpack__()
    print("note: this NumPy exports bool over DLPack")
except (BufferError, TypeError):
    pass

if failures:
    sys.exit(f"{len(failures)} failures")
print("dlpack_numpy: all checks passed")
