"""The interop example's Python half: .npy files and DLPack between NumPy and shade.

Usage: interop.py LIBINTEROP.so DIR   (DIR holds the .npy file that interop_npy wrote)
"""
import ctypes
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import shade_dlpack  # noqa: E402  (the helper beside this script)

lib = ctypes.CDLL(sys.argv[1])
lib.shade_example_linspace.restype = ctypes.c_void_p
lib.shade_example_linspace.argtypes = [ctypes.c_int]
lib.shade_example_sum.restype = ctypes.c_double
lib.shade_example_sum.argtypes = [ctypes.c_void_p]

# .npy: the file shade wrote reads back in NumPy with its dtype and shape.
table = np.load(os.path.join(sys.argv[2], "table.npy"))
print("table.npy from shade:", table.dtype, table.shape)
assert table.dtype == np.float32 and table.shape == (2, 3)
assert np.array_equal(table, np.arange(6, dtype=np.float32).reshape(2, 3) * 2)

# shade -> NumPy without a copy.
a = shade_dlpack.to_numpy(lib.shade_example_linspace(5))
print("from shade via DLPack:", repr(a))
assert np.array_equal(a, np.arange(5, dtype=np.float32) * 0.5)

# NumPy -> shade without a copy (shade sums NumPy's memory).
b = np.array([[1.5, 2.0], [3.0, 4.5]])
total = lib.shade_example_sum(shade_dlpack.from_numpy(b))
print("sum in shade of a NumPy array:", total)
assert total == b.sum()
print("interop: ok")
