#!/usr/bin/python3
"""Writes the .npy/.npz files shade's io tests read: arrays saved by NumPy itself (every dtype,
both byte orders, Fortran order, 0-d, 0-size, format versions 1.0/2.0/3.0), each with a .bin
sidecar holding the expected elements (C order, little-endian) and a line in manifest.txt; and
hand-made bad files under bad/, each with the reason the loader must give in bad/manifest.txt.

Run from anywhere: /usr/bin/python3 tests/data/io/make_npy.py
"""
import io
import os
import struct
import zipfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
GOOD = os.path.join(HERE, "npy")
BAD = os.path.join(HERE, "bad")
rng = np.random.default_rng(20261122)

DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
          "float16", "float32", "float64"]


def values(dtype, shape):
    """Deterministic values that exercise the extremes of each dtype."""
    n = int(np.prod(shape, dtype=np.int64))
    dt = np.dtype(dtype)
    if dt.kind == "b":
        a = rng.integers(0, 2, n).astype(bool)
    elif dt.kind in "iu":
        info = np.iinfo(dt)
        a = rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)
        special = np.array([info.min, info.max, 0, 1], dtype=dt)
        a[: min(n, 4)] = special[: min(n, 4)]
    else:
        a = (rng.standard_normal(n) * 100).astype(dt)
        special = np.array([np.nan, np.inf, -np.inf, -0.0, np.finfo(dt).tiny / 2, np.finfo(dt).max],
                           dtype=dt)
        a[: min(n, 6)] = special[: min(n, 6)]
    return a.reshape(shape)


manifest = []


def save(name, arr, version=None, order="<"):
    """Saves arr (converted to byte order `order`) with NumPy, plus the expected-bytes sidecar."""
    stored = arr.astype(arr.dtype.newbyteorder(order)) if arr.dtype.itemsize > 1 else arr
    with open(os.path.join(GOOD, name + ".npy"), "wb") as f:
        np.lib.format.write_array(f, stored, version=version, allow_pickle=False)
    expect = np.ascontiguousarray(arr).astype(arr.dtype.newbyteorder("<"))
    with open(os.path.join(GOOD, name + ".bin"), "wb") as f:
        f.write(expect.tobytes(order="C"))
    shape = ",".join(str(d) for d in arr.shape)
    fortran = int(np.isfortran(stored) and stored.ndim > 1)
    manifest.append(f"{name} {arr.dtype.name} ({shape}) {fortran}")


def make_good():
    os.makedirs(GOOD, exist_ok=True)
    for dt in DTYPES:
        a = values(dt, (2, 3, 4))
        save(f"{dt}_le", a, order="<")
        if np.dtype(dt).itemsize > 1:
            save(f"{dt}_be", a, order=">")
        save(f"{dt}_fortran", np.asfortranarray(values(dt, (3, 4, 5))))
        save(f"{dt}_0d", values(dt, ()))
        save(f"{dt}_empty", values(dt, (3, 0, 2)))
    for rank in range(7):
        shape = tuple([3, 2, 1, 2, 3, 1][:rank])
        save(f"rank{rank}_float32", values("float32", shape))
    save("float64_fortran_be", np.asfortranarray(values("float64", (4, 3))), order=">")
    save("int32_fortran_2d", np.asfortranarray(values("int32", (5, 7))))
    save("empty_1d_float64", values("float64", (0,)))
    for v in (1, 2, 3):
        save(f"version{v}_int16", values("int16", (4, 5)), version=(v, 0))
    with open(os.path.join(GOOD, "manifest.txt"), "w") as f:
        f.write("\n".join(manifest) + "\n")
    # .npz: stored and deflated members, named arrays of several dtypes.
    arrays = {"weights": values("float32", (3, 4)), "ids": values("int64", (5,)),
              "mask": values("bool", (2, 2)), "scalar": values("float64", ()),
              "empty": values("uint8", (0, 3))}
    np.savez(os.path.join(GOOD, "stored.npz"), **arrays)
    np.savez_compressed(os.path.join(GOOD, "deflated.npz"), **arrays)
    for k, a in arrays.items():
        with open(os.path.join(GOOD, f"npz_{k}.bin"), "wb") as f:
            f.write(np.ascontiguousarray(a).astype(a.dtype.newbyteorder("<")).tobytes())


def header(d, version=1, pad=True):
    """A preamble with dict text d (str), padded like NumPy."""
    body = d.encode("latin1")
    lenfmt = "<H" if version == 1 else "<I"
    pre = b"\x93NUMPY" + bytes([version, 0])
    n = len(pre) + struct.calcsize(lenfmt) + len(body) + 1
    padding = (64 - n % 64) % 64 if pad else 0
    body = body + b" " * padding + b"\n"
    return pre + struct.pack(lenfmt, len(body)) + body


def make_bad():
    os.makedirs(BAD, exist_ok=True)
    good = header("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }")
    data = np.arange(6, dtype="<f4").tobytes()
    cases = [
        ("empty", b"", "preamble"),
        ("short_magic", b"\x93NUM", "preamble"),
        ("bad_magic", b"\x93NUMPZ\x01\x00" + good[8:] + data, "bad magic"),
        ("version_4", b"\x93NUMPY\x04\x00" + good[8:] + data, "format version 4.0"),
        ("version_minor", b"\x93NUMPY\x01\x01" + good[8:] + data, "format version 1.1"),
        ("no_header_len", b"\x93NUMPY\x01\x00\x10", "header length"),
        ("header_len_beyond_file", b"\x93NUMPY\x01\x00" + struct.pack("<H", 60000) + b"{}",
         "beyond the end of the file"),
        ("header_len_huge_v2", b"\x93NUMPY\x02\x00" + struct.pack("<I", 0xFFFFFFF0) + b"{}",
         "exceeds the limit"),
        ("truncated_header", good[:40], "beyond the end of the file"),
        ("truncated_data", good + data[:10], "truncated"),
        ("no_data", good, "truncated"),
        ("trailing_bytes", good + data + b"xx", "unexpected bytes after"),
        ("negative_shape", header("{'descr': '<f4', 'fortran_order': False, 'shape': (-2, 3), }") + data,
         "negative extent"),
        ("overflow_extent", header("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }"),
         "overflows int64"),
        ("overflow_product", header("{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296), }"),
         "overflows int64"),
        ("overflow_with_zero", header("{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 0, 4294967296), }"),
         "overflows int64"),
        ("overflow_bytes", header("{'descr': '<f8', 'fortran_order': False, 'shape': (2305843009213693952,), }"),
         "overflows int64"),
        ("huge_shape_tiny_file", header("{'descr': '<f8', 'fortran_order': False, 'shape': (1000000, 1000000), }"),
         "truncated"),
        ("unknown_dtype", header("{'descr': '<V8', 'fortran_order': False, 'shape': (2,), }"), "unsupported dtype"),
        ("string_dtype", header("{'descr': '<U4', 'fortran_order': False, 'shape': (2,), }"), "unsupported dtype"),
        ("odd_size_float", header("{'descr': '<f3', 'fortran_order': False, 'shape': (2,), }"), "unsupported dtype"),
        ("object_dtype", header("{'descr': '|O', 'fortran_order': False, 'shape': (2,), }"), "object dtype"),
        ("structured_dtype", header("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }"),
         "structured"),
        ("missing_shape", header("{'descr': '<f4', 'fortran_order': False, }"), "missing key 'shape'"),
        ("missing_descr", header("{'fortran_order': False, 'shape': (2,), }"), "missing key 'descr'"),
        ("missing_fortran", header("{'descr': '<f4', 'shape': (2,), }"), "missing key 'fortran_order'"),
        ("unknown_key", header("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1, }"), "unknown key"),
         "duplicate key"),
        ("not_a_dict", header("['descr', '<f4']"), "must be a dict"),
        ("unclosed_dict", header("{'descr': '<f4', 'fortran_order': False, 'shape': (2,)"), "expected ',' or '}'"),
        ("unterminated_string", header("{'descr: '<f4', 'fortran_order': False, 'shape': (2,), }"),
         "expected ':'"),
        ("fortran_not_bool", header("{'descr': '<f4', 'fortran_order': 0, 'shape': (2,), }"), "True or False"),
        ("shape_not_tuple", header("{'descr': '<f4', 'fortran_order': False, 'shape': [2], }"), "must be a tuple"),
        ("shape_int_paren", header("{'descr': '<f4', 'fortran_order': False, 'shape': (2), }"), "must be a tuple"),
        ("shape_float", header("{'descr': '<f4', 'fortran_order': False, 'shape': (2.5,), }"), "must be a tuple of ints"),
        ("rank_65", header("{'descr': '<f4', 'fortran_order': False, 'shape': (" + "1, " * 65 + "), }"),
         "more than 32"),
        ("junk_after_dict", header("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), } x"), "after the header dict"),
        ("non_ascii", header("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), '\xe9': 1}"), "unknown key"),
        ("nul_in_header", header("{'descr': '<f4',\x00 'fortran_order': False, 'shape': (2,), }"), "null byte"),
        ("bool_byte_2", header("{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }") + b"\x00\x02\x01",
         "only 0 and 1"),
    ]
    with open(os.path.join(BAD, "manifest.txt"), "w") as f:
        for name, blob, reason in cases:
            with open(os.path.join(BAD, name + ".npy"), "wb") as g:
                g.write(blob)
            f.write(f"{name}.npy\t{reason}\n")
    # Bad .npz archives: not a zip, a member that is not .npy, a corrupt member.
    with open(os.path.join(BAD, "not_a_zip.npz"), "wb") as g:
        g.write(b"PK\x03\x04 this is not a zip archive")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr(zipfile.ZipInfo("a.npy", date_time=(2026, 1, 1, 0, 0, 0)), good + data[:7])
    with open(os.path.join(BAD, "truncated_member.npz"), "wb") as g:
        g.write(buf.getvalue())
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr(zipfile.ZipInfo("readme.txt", date_time=(2026, 1, 1, 0, 0, 0)), b"hello")
    with open(os.path.join(BAD, "member_not_npy.npz"), "wb") as g:
        g.write(buf.getvalue())


def make_nd():
    """Seed files in shade's NDArray binary format (see include/shade/io/ndarray_io.h)."""
    nd = os.path.join(HERE, "nd")
    os.makedirs(nd, exist_ok=True)
    flags = {"float32": 0, "float64": 1, "float16": 2, "uint8": 3, "int32": 4, "int8": 5,
             "int64": 6, "bool": 7, "int16": 9, "uint16": 10, "uint32": 11, "uint64": 12}
    for name, shape in [("float32", (2, 3)), ("bool", (4,)), ("int64", ()), ("uint16", (2, 0, 3)),
                        ("float16", (1, 2, 1, 2))]:
        a = values(name, shape)
        blob = b"SHADEND\x00" + struct.pack("<IIII", 1, flags[name], len(shape), 0)
        blob += b"".join(struct.pack("<q", d) for d in shape)
        blob += np.ascontiguousarray(a).astype(a.dtype.newbyteorder("<")).tobytes()
        with open(os.path.join(nd, name + ".nd"), "wb") as f:
            f.write(blob)


if __name__ == "__main__":
    make_good()
    make_bad()
    make_nd()
