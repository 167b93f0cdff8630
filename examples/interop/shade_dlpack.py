"""Hand DLPack tensors between NumPy and a C/C++ library that uses shade, with ctypes only.

A C function that returns ``DLManagedTensor*`` (shade::io::ToDLPack) gives a pointer; NumPy's
``numpy.from_dlpack`` wants an object with ``__dlpack__`` returning a PyCapsule named
"dltensor". In the other direction, ``ndarray.__dlpack__()`` gives such a capsule, and the C
side (shade::io::FromDLPack) wants the pointer inside it. The DLPack rules this module follows:

* The consumer renames a capsule it took over to "used_dltensor"; from then on it (not the
  capsule) calls the tensor's deleter.
* A capsule never consumed calls the deleter when it is garbage collected.

Usage::

    lib = ctypes.CDLL("libinterop.so")
    lib.make.restype = ctypes.c_void_p
    a = shade_dlpack.to_numpy(lib.make(10))        # shade -> NumPy, no copy
    lib.consume(shade_dlpack.from_numpy(np_array))  # NumPy -> shade, no copy
"""
import ctypes

import numpy as np

__all__ = ["to_numpy", "from_numpy"]

_api = ctypes.pythonapi
_api.PyCapsule_New.restype = ctypes.py_object
_api.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
_api.PyCapsule_IsValid.restype = ctypes.c_int
_api.PyCapsule_IsValid.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_GetPointer.restype = ctypes.c_void_p
_api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_SetName.restype = ctypes.c_int
_api.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]


class _DLManagedTensorHead(ctypes.Structure):
    """The leading fields of DLManagedTensor up to its deleter (DLTensor is 48 bytes)."""
    _fields_ = [("dl_tensor", ctypes.c_byte * 48), ("manager_ctx", ctypes.c_void_p),
                ("deleter", ctypes.CFUNCTYPE(None, ctypes.c_void_p))]


@ctypes.CFUNCTYPE(None, ctypes.c_void_p)
def _capsule_destructor(capsule_ptr):
    # Runs when the capsule dies: free the tensor unless a consumer took it over (renamed it).
    capsule = ctypes.cast(capsule_ptr, ctypes.py_object)
    if _api.PyCapsule_IsValid(capsule, b"dltensor"):
        managed = _api.PyCapsule_GetPointer(capsule, b"dltensor")
        head = _DLManagedTensorHead.from_address(managed)
        if head.deleter:
            head.deleter(managed)


class _Exported:
    """What numpy.from_dlpack accepts: __dlpack__ gives the capsule, once."""

    def __init__(self, managed_ptr):
        self._capsule = _api.PyCapsule_New(managed_ptr, b"dltensor",
                                           ctypes.cast(_capsule_destructor, ctypes.c_void_p))

    def __dlpack__(self, stream=None):
        capsule, self._capsule = self._capsule, None
        return capsule

    def __dlpack_device__(self):
        return (1, 0)  # kDLCPU, device 0: shade arrays live in host memory


def to_numpy(managed_ptr):
    """NumPy array sharing the memory of a ``DLManagedTensor*`` (an int) from the C side.

    NumPy owns the tensor afterwards: its deleter runs when the array is garbage collected.
    """
    if not managed_ptr:
        raise ValueError("to_numpy: null DLManagedTensor pointer")
    return np.from_dlpack(_Exported(managed_ptr))


def from_numpy(array):
    """The ``DLManagedTensor*`` (an int) of a NumPy array, for a C function that consumes it.

    The C side owns the tensor afterwards and must call its deleter (shade::io::FromDLPack
    does, when the last NDArray viewing it goes); the array stays alive until then.
    """
    capsule = np.ascontiguousarray(array).__dlpack__()
    managed = _api.PyCapsule_GetPointer(capsule, b"dltensor")
    _api.PyCapsule_SetName(capsule, b"used_dltensor")  # consumed: the destructor must not free
    return managed
