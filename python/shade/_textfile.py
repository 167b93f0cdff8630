"""numpy.loadtxt, numpy.genfromtxt and numpy.savetxt over shade's C++ text reader and writer
(include/shade/io/textfile.h). This module maps NumPy's arguments (paths, file objects, lists
of lines, encodings, the forms of fmt, missing_values and filling_values) onto the C++
options; parsing and formatting happen in C++ with the GIL released.
"""
import bz2 as _bz2
import gzip as _gzip
import lzma as _lzma
import operator as _operator
import os as _os
import warnings as _warnings

import numpy as _np

from ._shade import _genfromtxt, _loadtxt, _savetxt, _write_file_atomically

_COMPRESSED = {".gz": _gzip.open, ".bz2": _bz2.open, ".xz": _lzma.open}


def _text(value, what):
    if value is None:
        return None
    if isinstance(value, bytes):
        return value.decode("latin1")
    if not isinstance(value, str):
        raise TypeError("%s must be a str or None, not %s" % (what, type(value).__name__))
    return value


def _plain_utf8(encoding):
    return encoding in (None, "bytes") or encoding.lower().replace("-", "").replace(
        "_", "") == "utf8"


def _source(fname, encoding):
    """(text or path, is_path): paths are read by C++ unless compressed or not UTF-8."""
    if isinstance(fname, _os.PathLike):
        fname = _os.fspath(fname)
    if isinstance(fname, bytes):
        fname = _os.fsdecode(fname)
    enc = None if encoding == "bytes" else encoding
    if isinstance(fname, str):
        opener = _COMPRESSED.get(_os.path.splitext(fname)[1])
        if opener is not None:
            with opener(fname, "rt", encoding=enc) as fh:
                return fh.read(), False
        if _plain_utf8(encoding):
            return fname, True
        with open(fname, "r", encoding=enc, newline="") as fh:
            return fh.read(), False
    if hasattr(fname, "read"):
        data = fname.read()
        if isinstance(data, bytes):
            data = data.decode(enc or "latin1")
        return data, False
    try:
        lines = iter(fname)
    except TypeError:
        raise TypeError("fname must be a string, filehandle, list of strings, or generator. "
                        "Got %s instead." % type(fname)) from None
    parts = []
    for line in lines:
        if isinstance(line, bytes):
            line = line.decode(enc or "latin1")
        if not isinstance(line, str):
            raise TypeError("non-string returned while reading data")
        if line.endswith("\r\n"):
            line = line[:-2]
        elif line.endswith(("\n", "\r")):
            line = line[:-1]
        parts.append(line)
    return "\n".join(parts), False


def _index_list(usecols):
    if usecols is None:
        return None
    try:
        return [_operator.index(usecols)]
    except TypeError:
        pass
    out = []
    for c in usecols:
        try:
            out.append(_operator.index(c))
        except TypeError:
            raise TypeError("usecols must be an int or a sequence of ints but it contains at "
                            "least one element of type '%s'" % type(c).__name__) from None
    return out


def _nonneg(value, what):
    value = _operator.index(value)
    if value < 0:
        raise ValueError("argument must be nonnegative")
    return value


def _no_like(like, name):
    if like is not None:
        raise NotImplementedError("shade.%s: like= (array-function dispatch) is not supported"
                                  % name)


def loadtxt(fname, dtype=float, comments="#", delimiter=None, converters=None, skiprows=0,
            usecols=None, unpack=False, ndmin=0, encoding="bytes", max_rows=None, *,
            quotechar=None, like=None):
    """Load data from a text file (numpy.loadtxt).

    Parameters
    ----------
    fname : path, file object, or iterable of lines
        ``.gz``, ``.bz2`` and ``.xz`` paths are decompressed.
    dtype : dtype, default float
        Any numeric shade dtype (bool reads integers; nonzero is True).
    comments : str, sequence of str or None, default '#'
    delimiter : str or None
        One character; None splits at runs of whitespace.
    converters : None
        Not supported (shade parses in C++): anything else raises NotImplementedError.
    skiprows : int
        Lines skipped first, comment and blank lines included.
    usecols : int or sequence of int, optional
    unpack : bool
        Return the transpose.
    ndmin : {0, 1, 2}
    encoding : str, default 'bytes' (UTF-8)
    max_rows : int, optional
        Data rows read at most (blank and comment lines do not count).
    quotechar : str, optional
        Quotes a field (delimiters and comments inside are data; doubled is one quote).

    Returns
    -------
    shade.ndarray

    Notes
    -----
    Integer text out of the dtype's range is a ValueError, and float text in an integer column
    is a ValueError (NumPy 1.24 accepts both through a deprecated float path that wraps).
    Errors name the row and column as NumPy's, and the input line.
    """
    _no_like(like, "loadtxt")
    if converters is not None:
        raise NotImplementedError("shade.loadtxt: converters are not supported")
    if comments is None:
        comments = []
    elif isinstance(comments, (str, bytes)):
        comments = [_text(comments, "comments")]
    else:
        comments = [_text(c, "comments") for c in comments]
    delimiter = _text(delimiter, "delimiter") or ""
    quotechar = _text(quotechar, "quotechar") or ""
    skiprows = _nonneg(skiprows, "skiprows")
    if max_rows is not None:
        max_rows = _nonneg(max_rows, "max_rows")
    ndmin = _operator.index(ndmin)
    if ndmin not in (0, 1, 2):
        raise ValueError("Illegal value of ndmin keyword: %s" % ndmin)
    src, is_path = _source(fname, encoding)
    arr = _loadtxt(src, is_path, _np.float64 if dtype is float else dtype, comments, delimiter,
                   skiprows, _index_list(usecols), bool(unpack), ndmin, max_rows, quotechar)
    if arr.shape and arr.shape[0] == 0:
        _warnings.warn('loadtxt: input contained no data: "%s"' % (fname,), UserWarning,
                       stacklevel=2)
    return arr


def _missing_spec(missing_values, usecols):
    """NumPy's forms of missing_values -> (for every column, by output position)."""
    every, by_pos = [], {}
    if not missing_values:
        return every, by_pos
    if isinstance(missing_values, bytes):
        missing_values = missing_values.decode("latin1")
    if isinstance(missing_values, dict):
        for key, val in missing_values.items():
            vals = [str(v) for v in val] if isinstance(val, (list, tuple)) else [str(val)]
            if key is None:
                every.extend(vals)
                continue
            if isinstance(key, str):
                continue  # a column name: shade reads no names
            key = _operator.index(key)
            if usecols and key in usecols:
                key = usecols.index(key)
            by_pos.setdefault(key, []).extend(vals)
    elif isinstance(missing_values, (list, tuple)):
        for pos, val in enumerate(missing_values):
            by_pos.setdefault(pos, []).append(str(val))
    elif isinstance(missing_values, str):
        every.extend(missing_values.split(","))
    else:
        every.append(str(missing_values))
    return every, by_pos


def _filling_spec(filling_values, usecols):
    """NumPy's forms of filling_values -> (for every column or None, by output position)."""
    if filling_values is None:
        return None, {}
    if isinstance(filling_values, dict):
        by_pos = {}
        for key, val in filling_values.items():
            if isinstance(key, str) or val is None:
                continue
            key = _operator.index(key)
            if usecols and key in usecols:
                key = usecols.index(key)
            by_pos[key] = float(val)
        return None, by_pos
    if isinstance(filling_values, (list, tuple)):
        return None, {pos: float(v) for pos, v in enumerate(filling_values) if v is not None}
    return float(filling_values), {}


def genfromtxt(fname, dtype=float, comments="#", delimiter=None, skip_header=0, skip_footer=0,
               converters=None, missing_values=None, filling_values=None, usecols=None,
               names=None, excludelist=None,
               deletechars=''.join(sorted(set(" !#$%&'()*+,-./:;<=>?@[\\]^{|}~"))),
               replace_space="_", autostrip=False, case_sensitive=True, defaultfmt="f%i",
               unpack=None, usemask=False, loose=True, invalid_raise=True, max_rows=None,
               encoding="bytes", *, ndmin=0, like=None):
    """Load numeric data from a text file, with missing values handled (numpy.genfromtxt).

    Parameters
    ----------
    fname : path, file object, or iterable of lines
    dtype : dtype or None, default float
        None infers one dtype for the whole array: bool, int64 or float64, the widest that any
        column needs (NumPy returns a structured array when columns differ: shade has no
        structured dtypes; text columns raise NotImplementedError).
    comments : str or None, default '#'
    delimiter : str, int, sequence of int, or None
        A separator of any length, a field width, or the widths of each field.
    skip_header, skip_footer : int
        Lines skipped at the start; valid rows dropped at the end.
    missing_values : str, sequence or dict, optional
        Strings that count as missing (only dtype=None's inference looks at them, as NumPy).
    filling_values : scalar, sequence or dict, optional
        Values of missing or unreadable fields (default nan, -1 for integers, False for bool).
    usecols : int or sequence of int, optional
    names, converters, usemask : not supported (raise NotImplementedError unless default)
    loose : bool, default True
        False: a non-missing field that does not convert raises, naming its line and column.
    invalid_raise : bool, default True
        False: rows with the wrong number of fields are dropped with a ConversionWarning.
    max_rows : int, optional
    ndmin : {0, 1, 2}
    unpack : bool

    Returns
    -------
    shade.ndarray
    """
    _no_like(like, "genfromtxt")
    if names is not None:
        raise NotImplementedError("shade.genfromtxt: names (structured results) are not "
                                  "supported; use names=None")
    if converters is not None:
        raise NotImplementedError("shade.genfromtxt: converters are not supported")
    if usemask:
        raise NotImplementedError("shade.genfromtxt: usemask (masked arrays) is not supported")
    comments = _text(comments, "comments") or ""
    widths = []
    if isinstance(delimiter, (str, bytes)) or delimiter is None:
        delimiter = _text(delimiter, "delimiter") or ""
    elif hasattr(delimiter, "__iter__"):
        widths = [_operator.index(w) for w in delimiter]
        delimiter = ""
        if len(widths) == 1:
            raise NotImplementedError("shade.genfromtxt: give one field width as an int")
    else:
        widths = [_operator.index(delimiter)]
        delimiter = ""
    cols = _index_list(usecols)
    every, by_pos = _missing_spec(missing_values, cols)
    fill_all, fill_pos = _filling_spec(filling_values, cols)
    src, is_path = _source(fname, encoding)
    ndmin = _operator.index(ndmin)
    arr, dropped = _genfromtxt(
        src, is_path, dtype, comments, delimiter, widths, _operator.index(skip_header),
        _operator.index(skip_footer), every, by_pos, fill_all, fill_pos, cols,
        bool(invalid_raise), bool(loose), None if max_rows is None else _operator.index(max_rows),
        bool(unpack), ndmin)
    if dropped:
        category = getattr(getattr(_np.lib, "_iotools", None), "ConversionWarning", UserWarning)
        _warnings.warn(dropped, category, stacklevel=2)
    elif arr.size == 0:
        _warnings.warn('genfromtxt: Empty input file: "%s"' % (fname,), UserWarning,
                       stacklevel=2)
    return arr


def savetxt(fname, X, fmt="%.18e", delimiter=" ", newline="\n", header="", footer="",
            comments="# ", encoding=None):
    """Save a 1-D or 2-D array to a text file (numpy.savetxt).

    Parameters
    ----------
    fname : path or file object
        A path is replaced atomically (the old file stays on failure); ``.gz``, ``.bz2`` and
        ``.xz`` paths are compressed.
    X : array_like, 1-D or 2-D
    fmt : str or sequence of str, default '%.18e'
        One format for every column, one per column, or a whole-row format. Directives:
        ``%[flags][width][.precision]`` + one of ``d i u o x X e E f F g G s r a``, and ``%%``;
        others (``%c``, ``*`` widths, mapping keys) raise.
    delimiter, newline, header, footer, comments : str
    encoding : str, optional (default UTF-8)
    """
    if isinstance(fmt, bytes):
        fmt = fmt.decode("latin1")
    if isinstance(fmt, str):
        fmts, seq = [fmt], False
    elif isinstance(fmt, (list, tuple)):
        fmts, seq = [_text(f, "fmt") for f in fmt], True
    else:
        raise ValueError("invalid fmt: %r" % (fmt,))
    args = (fmts, seq, _text(delimiter, "delimiter"), _text(newline, "newline"),
            _text(header, "header"), _text(footer, "footer"), _text(comments, "comments"))
    if isinstance(fname, _os.PathLike):
        fname = _os.fspath(fname)
    if isinstance(fname, bytes):
        fname = _os.fsdecode(fname)
    if isinstance(fname, str):
        opener = _os.path.splitext(fname)[1]
        if opener in _COMPRESSED or not _plain_utf8(encoding):
            data = _savetxt(None, X, *args).encode(encoding or "utf-8")
            if opener == ".gz":
                data = _gzip.compress(data)
            elif opener == ".bz2":
                data = _bz2.compress(data)
            elif opener == ".xz":
                data = _lzma.compress(data)
            _write_file_atomically(fname, data)
        else:
            _savetxt(fname, X, *args)
        return
    if not hasattr(fname, "write"):
        raise ValueError("fname must be a string or file handle")
    text = _savetxt(None, X, *args)
    try:
        fname.write(text)
    except TypeError:
        fname.write(text.encode(encoding or "latin1"))
