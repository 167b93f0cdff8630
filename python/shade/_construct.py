"""Construction and shape helpers of NumPy's API that are Python-level in shade too.

The element work is the C++ library's (shade._shade: _pad, indices, concatenate, put, ...);
this module only parses arguments (pad's pair broadcasting, mgrid's slices, block's nesting)
and provides the small Python objects NumPy has (flatiter, flags, ndindex, ndenumerate).
"""
import builtins as _builtins
import itertools as _itertools
import math as _math

import numpy as _np

from . import _shade
from ._shade import ndarray

__all__ = ["pad", "trace", "fromiter", "frombuffer", "fromfunction", "block", "mgrid", "ogrid",
           "ix_", "ndindex", "ndenumerate", "flatiter"]


# ---------------------------------------------------------------------------------------- pad

def _as_pairs(x, ndim, as_index=False):
    """Broadcasts a pad argument to ``ndim`` (before, after) pairs, as numpy.pad does."""
    if x is None:
        return [(None, None)] * ndim
    x = _np.array(x)
    if as_index:
        x = _np.round(x).astype(_np.intp, copy=False)
    if x.ndim < 3:
        if x.size == 1:
            x = x.ravel()
            if as_index and x[0] < 0:
                raise ValueError("index can't contain negative values")
            return [(x[0].item(), x[0].item())] * ndim
        if x.size == 2 and x.shape != (2, 1):
            x = x.ravel()
            if as_index and (x[0] < 0 or x[1] < 0):
                raise ValueError("index can't contain negative values")
            return [(x[0].item(), x[1].item())] * ndim
    if as_index and x.size and x.min() < 0:
        raise ValueError("index can't contain negative values")
    return [tuple(p) for p in _np.broadcast_to(x, (ndim, 2)).tolist()]


_PAD_KWARGS = {
    "empty": [], "edge": [], "wrap": [],
    "constant": ["constant_values"],
    "linear_ramp": ["end_values"],
    "maximum": ["stat_length"], "mean": ["stat_length"], "median": ["stat_length"],
    "minimum": ["stat_length"],
    "reflect": ["reflect_type"], "symmetric": ["reflect_type"],
}


def pad(array, pad_width, mode="constant", **kwargs):
    """Pads an array (numpy.pad): every string mode of NumPy 1.24.

    Parameters
    ----------
    array : array_like
    pad_width : int or sequence of (before, after) per axis
    mode : str, default "constant"
    constant_values, end_values, stat_length, reflect_type : as numpy.pad
    """
    a = _shade.asarray(array)
    if callable(mode):
        raise NotImplementedError("shade.pad: a callable mode is not supported")
    if mode not in _PAD_KWARGS:
        raise ValueError("mode '{}' is not supported".format(mode))
    unsupported = set(kwargs) - set(_PAD_KWARGS[mode])
    if unsupported:
        raise ValueError("unsupported keyword arguments for mode '{}': {}".format(mode, unsupported))
    nd = a.ndim
    width = _as_pairs(pad_width, nd, as_index=True)

    def values(name):
        v = kwargs.get(name, 0)
        return [(float(b), float(e)) for b, e in _as_pairs(v, nd)]

    constant = values("constant_values") if mode == "constant" else []
    ends = values("end_values") if mode == "linear_ramp" else []
    stat = []
    if "stat_length" in kwargs and kwargs["stat_length"] is not None:
        stat = _as_pairs(kwargs["stat_length"], nd, as_index=True)
    reflect_type = kwargs.get("reflect_type", "even")
    if reflect_type not in ("even", "odd"):
        raise ValueError("unsupported reflect_type '{}'".format(reflect_type))
    return _shade._pad(a, width, mode, constant, ends, stat, reflect_type == "odd")


# ------------------------------------------------------------------------------- functions

def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """Sum along diagonals (numpy.trace); a NumPy scalar for 2-D input."""
    r = _shade._trace(a, offset, axis1, axis2, dtype)
    if out is not None:
        _shade.copyto(out, r, casting="unsafe")
        return out
    return r[()] if r.ndim == 0 else r


def fromiter(iter, dtype, count=-1, *, like=None):
    """1-D array from an iterable (numpy.fromiter); ``count`` items when >= 0."""
    items = list(_itertools.islice(iter, count)) if count >= 0 else list(iter)
    if count >= 0 and len(items) < count:
        raise ValueError("iterator too short: Expected %d but iterator had only %d items."
                         % (count, len(items)))
    return _shade.array(_np.array(items, dtype=dtype))


def frombuffer(buffer, dtype=float, count=-1, offset=0, *, like=None):
    """1-D array viewing the bytes of ``buffer`` (numpy.frombuffer); read-only when the buffer is."""
    mv = memoryview(buffer).cast("B")
    raw = _shade.asarray(mv)
    return _shade._wrap_view(raw, dtype, count, offset, buffer, not mv.readonly)


def fromfunction(function, shape, *, dtype=float, like=None, **kwargs):
    """``function(*indices(shape, dtype))`` (numpy.fromfunction)."""
    args = _shade.indices(shape, dtype=dtype)
    return function(*args, **kwargs)


def _block_depth(arrays, index):
    if type(arrays) is tuple:
        raise TypeError(
            "{} is a tuple. Only lists can be used to arrange blocks, and np.block does not allow "
            "implicit conversion from tuple to ndarray.".format("arrays" + "".join(
                "[{}]".format(i) for i in index)))
    if type(arrays) is list:
        if len(arrays) == 0:
            raise ValueError("List at {} cannot be empty".format(
                "arrays" + "".join("[{}]".format(i) for i in index)))
        depths = [_block_depth(a, index + [i]) for i, a in enumerate(arrays)]
        first = depths[0]
        for i, d in enumerate(depths):
            if d[0] != first[0]:
                raise ValueError(
                    "List depths are mismatched. First element was at depth {}, but there is an "
                    "element at depth {} ({})".format(first[0], d[0], "arrays" + "".join(
                        "[{}]".format(j) for j in d[2])))
        return first[0], _builtins.max(d[1] for d in depths), first[2]
    return len(index), _shade.asarray(arrays).ndim, index


def _block(arrays, depth, max_depth, ndim):
    if type(arrays) is list:
        parts = [_block(a, depth + 1, max_depth, ndim) for a in arrays]
        return _shade.concatenate(parts, axis=-(max_depth - depth))
    a = _shade.asarray(arrays)
    return a.reshape((1,) * (ndim - a.ndim) + a.shape)


def block(arrays):
    """Assembles an array from nested lists of blocks (numpy.block)."""
    max_depth, max_ndim, _ = _block_depth(arrays, [])
    ndim = _builtins.max(max_depth, max_ndim)
    r = _block(arrays, 0, max_depth, ndim)
    return r.copy() if max_depth == 0 else r


class _Grid:
    """mgrid / ogrid: dense or open grids from slices (complex step = number of points)."""

    def __init__(self, sparse):
        self.sparse = sparse

    def __getitem__(self, key):
        if isinstance(key, slice):
            start = 0 if key.start is None else key.start
            step = 1 if key.step is None else key.step
            if isinstance(step, complex):
                return _shade.linspace(start, key.stop, int(abs(step)))
            return _shade.arange(start, key.stop, step)
        size, floats = [], False
        for k in key:
            start = 0 if k.start is None else k.start
            step = 1 if k.step is None else k.step
            if isinstance(step, complex):
                size.append(int(abs(step)))
                floats = True
            else:
                size.append(int(_math.ceil((k.stop - start) / step)))
            floats = floats or any(isinstance(v, float) for v in (k.start, k.stop, k.step))
        dtype = _np.float64 if floats else _np.int64
        grids = _shade.indices(size, dtype=dtype, sparse=self.sparse)
        out = []
        for k, g in zip(key, grids):
            start = 0 if k.start is None else k.start
            step = 1 if k.step is None else k.step
            if isinstance(step, complex):
                n = int(abs(step))
                step = (k.stop - start) / float(n - 1) if n > 1 else 0.0
            out.append(g * step + start)
        if self.sparse:
            return tuple(out)
        return _shade.stack(out)

    def __len__(self):
        return 0


mgrid = _Grid(False)
ogrid = _Grid(True)


def ix_(*args):
    """Open mesh from 1-D sequences for cross indexing (numpy.ix_)."""
    out = []
    nd = len(args)
    for k, new in enumerate(args):
        is_array = isinstance(new, ndarray)
        new = _shade.asarray(new)
        if new.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if new.size == 0 and not is_array:
            new = new.astype(_np.intp)
        if new.dtype == _np.bool_:
            new, = _shade.nonzero(new)
        out.append(new.reshape((1,) * k + (new.size,) + (1,) * (nd - k - 1)))
    return tuple(out)


class ndindex:
    """Iterator over the N-dimensional indices of a shape, row-major (numpy.ndindex)."""

    def __init__(self, *shape):
        if len(shape) == 1 and isinstance(shape[0], tuple):
            shape = shape[0]
        self._it = _itertools.product(*(range(int(s)) for s in shape))

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._it)


class ndenumerate:
    """Iterator of (index, value) pairs of an array, row-major (numpy.ndenumerate)."""

    def __init__(self, arr):
        self._a = _shade.asarray(arr)
        self._it = ndindex(self._a.shape)

    def __iter__(self):
        return self

    def __next__(self):
        idx = next(self._it)
        return idx, self._a[idx]


# ---------------------------------------------------------------------------------- methods

class flatiter:
    """A flat (row-major) iterator over an array, indexable and assignable (ndarray.flat)."""

    def __init__(self, base):
        self.base = base

    def __len__(self):
        return self.base.size

    def __iter__(self):
        flat = self.base.ravel()
        return (flat[i] for i in range(flat.size))

    def __getitem__(self, key):
        r = self.base.ravel()[key]
        return r.copy() if isinstance(r, ndarray) else r

    def __setitem__(self, key, value):
        _shade.put(self.base, _shade.arange(self.base.size)[key], value)

    def __array__(self, dtype=None):
        return _np.asarray(self.base.ravel(), dtype=dtype)

    def copy(self):
        """A flattened copy of the array."""
        return self.base.flatten()


class flagsobj:
    """Memory-layout flags of an array (ndarray.flags); ``writeable`` can be set."""

    _KEYS = {"C": "c_contiguous", "C_CONTIGUOUS": "c_contiguous", "CONTIGUOUS": "c_contiguous",
             "F": "f_contiguous", "F_CONTIGUOUS": "f_contiguous", "FORTRAN": "f_contiguous",
             "W": "writeable", "WRITEABLE": "writeable", "O": "owndata", "OWNDATA": "owndata",
             "A": "aligned", "ALIGNED": "aligned", "X": "writebackifcopy",
             "WRITEBACKIFCOPY": "writebackifcopy"}

    def __init__(self, arr):
        self._a = arr

    c_contiguous = property(lambda self: self._a._c_contiguous)
    f_contiguous = property(lambda self: self._a._f_contiguous)
    owndata = property(lambda self: self._a.base is None)
    aligned = property(lambda self: True)
    writebackifcopy = property(lambda self: False)
    contiguous = c_contiguous
    fortran = property(lambda self: self._a._f_contiguous and not self._a._c_contiguous)

    @property
    def writeable(self):
        return self._a._writeable

    @writeable.setter
    def writeable(self, value):
        self._a.setflags(write=value)

    def __getitem__(self, key):
        return getattr(self, self._KEYS[key.upper()])

    def __setitem__(self, key, value):
        if self._KEYS.get(key.upper()) != "writeable":
            raise KeyError("Unknown flag %s" % key)
        self.writeable = value

    def __repr__(self):
        names = ["C_CONTIGUOUS", "F_CONTIGUOUS", "OWNDATA", "WRITEABLE", "ALIGNED",
                 "WRITEBACKIFCOPY"]
        return "\n".join("  %s : %s" % (n, self[n]) for n in names) + "\n"


def _clip(self, min=None, max=None, out=None, **kwargs):
    if min is None and max is None:
        raise ValueError("One of max or min must be given")
    if min is None:
        return _shade.minimum(self, max, out=out)
    if max is None:
        return _shade.maximum(self, min, out=out)
    return _shade.clip(self, min, max, out=out)


def _setflags(self, write=None, align=None, uic=None):
    if write is not None:
        base = self.base
        if write and isinstance(base, ndarray) and not base._writeable:
            raise ValueError("cannot set WRITEABLE flag to True of this array")
        if write and base is not None and not isinstance(base, ndarray):
            try:
                if memoryview(base).readonly:
                    raise ValueError("cannot set WRITEABLE flag to True of this array")
            except TypeError:
                pass
        self._set_writeable(bool(write))
    if uic:
        raise ValueError("cannot set WRITEBACKIFCOPY flag to True")


def _iter(self):
    if self.ndim == 0:
        raise TypeError("iteration over a 0-d array")
    return (self[i] for i in range(len(self)))


def _set_flat(self, value):
    _shade.put(self, _shade.arange(self.size), value)


def _reconstruct(data, dtype, shape):
    return frombuffer(bytearray(data), dtype=dtype).reshape(shape)


def _reduce(self):
    return (_reconstruct, (self.tobytes(), self.dtype, self.shape))


def _base(self):
    return self.__dict__.get("_base") if hasattr(self, "__dict__") else None


def _put_method(self, indices, values, mode="raise"):
    _shade.put(self, indices, values, mode)


_transposed = ndarray.T
ndarray.T = property(lambda self: _transposed.fget(self)._view_of(self), doc=_transposed.__doc__)
ndarray.clip = _clip
ndarray.trace = lambda self, offset=0, axis1=0, axis2=1, dtype=None, out=None: trace(
    self, offset, axis1, axis2, dtype, out)
ndarray.diagonal = lambda self, offset=0, axis1=0, axis2=1: _shade.diagonal(self, offset, axis1,
                                                                             axis2)
ndarray.repeat = lambda self, repeats, axis=None: _shade.repeat(self, repeats, axis)
ndarray.put = _put_method
ndarray.nonzero = lambda self: _shade.nonzero(self)
ndarray.flat = property(flatiter, _set_flat)
ndarray.flags = property(flagsobj)
ndarray.base = property(_base)
ndarray.setflags = _setflags
ndarray.__iter__ = _iter
ndarray.__contains__ = lambda self, value: bool(_shade.any(self == value))
ndarray.__reduce__ = _reduce
