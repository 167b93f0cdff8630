"""shade: NumPy-compatible arrays over shade's dynamic NDArray.

Arrays share memory with NumPy in both directions (buffer protocol, DLPack), Python scalars
promote as NumPy 2 does (NEP 50: weak), and elementwise ops on large arrays build one lazy
expression that runs as a single fused kernel when the result is first used.

dtypes: shade.float32 etc. are NumPy's scalar types themselves, so ``shade.float32 ==
numpy.float32`` and ``a.dtype == shade.float32`` hold (``a.dtype`` is a ``numpy.dtype``).
bfloat16, which NumPy lacks, is ``shade.bfloat16``.
"""
import builtins as _builtins
import contextlib as _contextlib
import os as _os

import numpy as _np

from ._shade import *  # noqa: F401,F403
from ._shade import (  # noqa: F401
    ndarray, _save_npy, _save_npz, _evaluation_count, _allocation_count, _is_pending,
    _set_lazy_min_elements)

bool_ = _np.bool_
int8, int16, int32, int64 = _np.int8, _np.int16, _np.int32, _np.int64
uint8, uint16, uint32, uint64 = _np.uint8, _np.uint16, _np.uint32, _np.uint64
float16, float32, float64 = _np.float16, _np.float32, _np.float64
# complex dtypes (docs/design/complex.md): NumPy's scalar types, like the real ones
complex64, complex128 = _np.complex64, _np.complex128
newaxis = None


class _BFloat16:
    """shade's bfloat16 dtype (NumPy has none)."""

    _shade_dtype_flag = 8
    name = "bfloat16"
    itemsize = 2

    def __repr__(self):
        return "shade.bfloat16"

    def __eq__(self, other):
        return other is self or other == "bfloat16"

    def __hash__(self):
        return hash("bfloat16")


bfloat16 = _BFloat16()


def _npy_path(file):
    file = _os.fspath(file)
    return file if file.endswith(".npy") else file + ".npy"


def save(file, arr):
    """Writes ``arr`` to a .npy file (".npy" is appended when missing, as numpy.save does)."""
    _save_npy(_npy_path(file), arr)


def _npz_path(file):
    file = _os.fspath(file)
    return file if file.endswith(".npz") else file + ".npz"


def _named(args, kwds):
    named = [("arr_%d" % i, a) for i, a in enumerate(args)]
    for key, value in kwds.items():
        if _builtins.any(key == n for n, _ in named):  # shade.any shadows the builtin here
            raise ValueError("Cannot use un-named variables and keyword %s" % key)
        named.append((key, value))
    return named


def savez(file, *args, **kwds):
    """numpy.savez: arrays as members of an uncompressed .npz archive."""
    _save_npz(_npz_path(file), _named(args, kwds), False)


def savez_compressed(file, *args, **kwds):
    """numpy.savez_compressed: arrays as deflated members of a .npz archive."""
    _save_npz(_npz_path(file), _named(args, kwds), True)


def _tolist(self):
    if self.dtype == bfloat16:
        return _np.asarray(self.astype(float32)).tolist()
    return _np.asarray(self).tolist()


def _array(self, dtype=None):
    """NumPy conversion for what the buffer protocol cannot carry (bfloat16 -> float32)."""
    out = _np.asarray(self.astype(float32)) if self.dtype == bfloat16 else _np.asarray(memoryview(self))
    return out if dtype is None else out.astype(dtype, copy=False)


ndarray.__array__ = _array
ndarray.tolist = _tolist
ndarray.__module__ = "shade"

# --- construct (issue 40 item 6): Python-level helpers over the C++ construction functions
from ._construct import (  # noqa: E402,F401
    pad, trace, fromiter, frombuffer, fromfunction, block, mgrid, ogrid, ix_, ndindex,
    ndenumerate, flatiter)
# --- end construct
# --- linalg: numpy.linalg over LAPACK (python/src/np_linalg.cc); `import shade.linalg` works too.
import sys as _sys  # noqa: E402

from ._shade import _einsum, linalg  # noqa: E402,F401

_sys.modules[__name__ + ".linalg"] = linalg


def _einsum_label(v):
    if v is Ellipsis:
        return "..."
    v = _builtins.int(v)
    if 0 <= v < 26:
        return chr(ord("A") + v)
    if 26 <= v < 52:
        return chr(ord("a") + v - 26)
    raise ValueError("subscript is not within the valid range [0, 52)")


def einsum(*operands, out=None, optimize=False):
    """numpy.einsum: Einstein summation over labelled axes.

    Parameters
    ----------
    subscripts : str
        Labels of each operand's axes, comma separated, with an optional ``->`` output (or the
        interleaved form ``einsum(op0, sublist0, op1, sublist1, ..., [sublistout])``).
    *operands : array_like
    out : shade.ndarray, optional
        Written with the result (same shape).
    optimize : {False, True, 'greedy', 'optimal'} or einsum_path list
        False contracts left to right; the others pick the cheapest pair first (greedy).

    Returns
    -------
    shade.ndarray (a scalar for a rank-0 result)
    """
    if not operands:
        raise ValueError("No input operands")
    if isinstance(operands[0], str):
        subs, ops = operands[0], list(operands[1:])
    else:
        args = list(operands)
        out_sub = args.pop() if len(args) % 2 == 1 else None
        ops = args[0::2]
        subs = ",".join("".join(_einsum_label(v) for v in sub) for sub in args[1::2])
        if out_sub is not None:
            subs += "->" + "".join(_einsum_label(v) for v in out_sub)
    if optimize is False or optimize is None:
        greedy = False
    elif optimize is True or optimize in ("greedy", "optimal"):
        greedy = True
    elif isinstance(optimize, (list, tuple)) and optimize and optimize[0] == "einsum_path":
        greedy = True  # the order does not change the values; shade picks its own pairs
    else:
        raise TypeError("Did not understand the path: %s" % str(optimize))
    r = _einsum(subs, ops, greedy)
    if out is not None:
        out[...] = r
        return out
    return r
# --- end linalg
# --- random (issue 40): NumPy-exact random streams as the shade.random submodule ---
from . import random  # noqa: E402,F401

# --- ufunc topic: constants, dtype objects and machine limits (issue 40, item 2) ------------
from ._shade import ufunc, _finfo, _iinfo, __version__  # noqa: E402,F401


class _BFloat16FInfo:
    """np.finfo's fields for shade.bfloat16 (NumPy has no bfloat16), from shade::FInfo."""

    def __init__(self):
        for key, value in _finfo(bfloat16).items():
            setattr(self, key, value)
        self.dtype = bfloat16

    def __repr__(self):
        return ("finfo(resolution=%g, min=%g, max=%g, dtype=bfloat16)"
                % (self.resolution, self.min, self.max))


def finfo(dtype):
    """Machine limits of a float dtype (numpy.finfo; shade.bfloat16 too)."""
    if dtype is bfloat16 or (isinstance(dtype, str) and dtype == "bfloat16") or getattr(
            dtype, "dtype", None) == bfloat16:
        return _BFloat16FInfo()
    return _np.finfo(getattr(dtype, "dtype", dtype) if isinstance(dtype, ndarray) else dtype)


def iinfo(dtype):
    """Machine limits of an integer dtype (numpy.iinfo)."""
    return _np.iinfo(getattr(dtype, "dtype", dtype) if isinstance(dtype, ndarray) else dtype)


def dtype(obj):
    """numpy.dtype(obj), or shade.bfloat16 for bfloat16."""
    if obj is bfloat16 or (isinstance(obj, str) and obj == "bfloat16"):
        return bfloat16
    return _np.dtype(obj)


@_contextlib.contextmanager
def printoptions(*args, **kwargs):
    """Context manager: set_printoptions(*args, **kwargs) inside, the previous options after."""
    saved = get_printoptions()
    try:
        set_printoptions(*args, **kwargs)
        yield get_printoptions()
    finally:
        set_printoptions(**{k: v for k, v in saved.items()
                            if k not in ("nanstr", "infstr", "formatter", "legacy")})


class errstate(_contextlib.ContextDecorator):
    """Context manager for floating-point error handling (numpy.errstate): keyword arguments as
    seterr's (all, divide, over, under, invalid), and ``call`` as seterrcall's."""

    _unset = object()

    def __init__(self, *, call=_unset, **kwargs):
        self.call = call
        self.kwargs = kwargs

    def __enter__(self):
        self._old = seterr(**self.kwargs)
        if self.call is not errstate._unset:
            self._old_call = seterrcall(self.call)

    def __exit__(self, *exc_info):
        seterr(**self._old)
        if self.call is not errstate._unset:
            seterrcall(self._old_call)
# --- textfile (issue 40 item 9): loadtxt / genfromtxt / savetxt over io/textfile.h
from ._textfile import loadtxt, genfromtxt, savetxt  # noqa: E402,F401
# --- end textfile


# --- autograd (issue 41): grad mode, shade.autograd, requires_grad= on creation ---------------
import functools as _functools  # noqa: E402
import sys as _sys  # noqa: E402
import types as _types  # noqa: E402

from ._shade import is_grad_enabled, _set_grad_enabled, _autograd_grad  # noqa: E402,F401
from ._shade import _autograd_backward  # noqa: E402


class _GradMode(_contextlib.ContextDecorator):
    _enabled = True

    def __enter__(self):
        self._prev = _set_grad_enabled(self._enabled)

    def __exit__(self, *exc_info):
        _set_grad_enabled(self._prev)


class no_grad(_GradMode):
    """Context manager and decorator: ops inside record nothing for backward (torch.no_grad)."""

    _enabled = False


class enable_grad(_GradMode):
    """Context manager and decorator: ops inside are recorded again (torch.enable_grad)."""

    _enabled = True


def _grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
          allow_unused=False):
    """Gradients of ``outputs`` with respect to ``inputs`` (torch.autograd.grad).

    Parameters
    ----------
    outputs, inputs : ndarray or sequence of ndarray
    grad_outputs : ndarray or sequence, optional
        Gradients of the outputs; may be omitted for one-element outputs.
    retain_graph : bool, optional
        Keep the graph for another backward (default: ``create_graph``).
    create_graph : bool
        Record the backward too, so the gradients can be differentiated again.
    allow_unused : bool
        Return None for an input the outputs do not depend on (else raise).

    Returns
    -------
    tuple of ndarray
    """
    return _autograd_grad(outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused)


def _backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False):
    """Backpropagates from ``tensors`` into the leaves' ``.grad`` (torch.autograd.backward)."""
    _autograd_backward(tensors, grad_tensors, retain_graph, create_graph)


autograd = _types.ModuleType("shade.autograd", "Reverse-mode automatic differentiation.")
autograd.grad = _grad
autograd.backward = _backward
autograd.no_grad = no_grad
autograd.enable_grad = enable_grad
_sys.modules["shade.autograd"] = autograd


def _with_requires_grad(f):
    @_functools.wraps(f)
    def wrapper(*args, requires_grad=False, **kwargs):
        r = f(*args, **kwargs)
        if requires_grad:
            r.requires_grad_(True)
        return r
    return wrapper


for _name in ("array", "asarray", "zeros", "ones", "empty", "full", "zeros_like", "ones_like",
              "empty_like", "full_like", "arange", "linspace", "eye"):
    if _name in globals():
        globals()[_name] = _with_requires_grad(globals()[_name])
del _name
# --- end autograd


# --- nn (issue 41): shade.nn, shade.nn.functional, shade.optim --------------------------------
from . import nn, optim  # noqa: E402,F401
