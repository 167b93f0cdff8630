"""shade.loadtxt / genfromtxt / savetxt against NumPy 1.24, live: values, dtypes, shapes,
sources (paths, file objects, lists of lines, compressed files), error classes and messages,
hostile inputs."""
import gzip
import io
import os
import random
import warnings

import numpy as np
import pytest

import shade


def both(fn_np, fn_sh):
    """Runs both; returns (numpy result or exception, shade result or exception)."""
    out = []
    for fn in (fn_np, fn_sh):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                out.append(fn())
            except Exception as e:  # noqa: BLE001 - compared below
                out.append(e)
    return out


def same(expected, got):
    if isinstance(expected, Exception):
        assert isinstance(got, Exception), got
        assert type(got) is type(expected) or isinstance(got, type(expected)), (expected, got)
        # NumPy's message is part of shade's (which adds where it was raised and the line).
        assert str(expected).split("\n")[0] in str(got), (str(expected), str(got))
        return
    assert not isinstance(got, Exception), got
    got = np.asarray(got)
    assert got.shape == expected.shape and got.dtype == expected.dtype, (got, expected)
    np.testing.assert_array_equal(got, expected)


LOADTXT_CASES = [
    (["1 2", "3 4"], {}),
    (["1 2", "3 x"], {}),
    (["1, 2", "3, x"], {"delimiter": ","}),
    (["1 2", "3 4 5"], {}),
    (["#c", "1 2", "", "3 4 5"], {}),
    (["1 0 2 -1"], {"dtype": bool}),
    (["True"], {"dtype": bool}),
    ([], {}), ([], {"ndmin": 2}), ([], {"ndmin": 1}),
    (["5"], {}), (["5"], {"ndmin": 1}), (["5"], {"ndmin": 2}),
    (["1 2 3"], {"ndmin": 2}), (["1", "2"], {"ndmin": 2}),
    (["1 2", "3 4", "5 6"], {"unpack": True}),
    (["inf -inf nan +inf Infinity -nan NaN INF 1e5 .5 5. +1 1E-3"], {}),
    (["0x10"], {}), (["1_0"], {}), (["1.0f"], {}), (["1d5"], {}), (["1e"], {}),
    (["1,,2"], {"delimiter": ","}), (["1,2,"], {"delimiter": ","}),
    (["  1 ,  2  "], {"delimiter": ","}),
    (["1 2 3", "4 5 6"], {"usecols": (2, 0)}),
    (["1 2 3", "4 5 6"], {"usecols": -1}),
    (["1 2 3", "4 5 6"], {"usecols": 5}),
    (["1 2 3", "4 5"], {"usecols": [0, 1]}),
    (["1 2", "3 4"], {"usecols": []}),
    (["a b", "#c", "1 2", "3 4"], {"skiprows": 2}),
    (["1 2", "#c", "", "3 4", "5 6"], {"max_rows": 2}),
    (["1 2", "3 4"], {"max_rows": 0}),
    (["1 2 // c", "3 4 # d"], {"comments": ["//", "#"]}),
    (["1 2"], {"comments": None}),
    (["1 2 ## 3"], {"comments": "##"}),
    (['"1,5",2'], {"delimiter": ",", "quotechar": '"'}),
    (['"1"",5",2'], {"delimiter": ",", "quotechar": '"'}),
    (['"1" "2"', '3 "4"'], {"quotechar": '"'}),
    (["1\t\t2"], {"delimiter": "\t"}),
    (["1\x002"], {}),
    (["1\u00a02\u30003"], {}),
    (["65520 1e-8 0.1 6e-8"], {"dtype": np.float16}),
    (["0.1 16777217 3.4028235677973366e38 1e39"], {"dtype": np.float32}),
    (["1e400 -1e400 1e-400"], {}),
    (["-128 127", "0 -0"], {"dtype": np.int8}),
    (["18446744073709551615 0"], {"dtype": np.uint64}),
    (["  -3  "], {"dtype": np.int16}),
    (["0b1"], {"dtype": np.int16}),
    (["1 x"], {"dtype": np.uint8}),
    (["x" * 300], {}),
    (["'x\"\\"], {}),
    (["1::2"], {"delimiter": "::"}),
    (["1\n2"], {"delimiter": "\n"}),
    (["1,2"], {"delimiter": ",", "comments": ","}),
    (["1"], {"ndmin": 3}),
    (["1"], {"skiprows": -1}),
    (["1 2"], {"comments": ""}),
    (["1 2"], {"usecols": [1.0]}),
]


@pytest.mark.parametrize("lines,kw", LOADTXT_CASES)
def test_loadtxt_matches_numpy(lines, kw):
    same(*both(lambda: np.loadtxt(lines, **kw), lambda: shade.loadtxt(lines, **kw)))


@pytest.mark.parametrize("text,dtype", [
    ("300", np.int8), ("-1", np.uint8), ("99999999999999999999", np.int64), ("1.5", np.int64),
    ("1e3", np.int32), ("99999999999999999999", bool)])
def test_loadtxt_integers_never_wrap(text, dtype):
    # NumPy 1.24 wraps these through a deprecated float path; shade refuses them.
    with pytest.raises(ValueError, match="could not convert string '%s' to" % text):
        shade.loadtxt([text], dtype=dtype)


def test_loadtxt_sources(tmp_path):
    p = tmp_path / "a.txt"
    p.write_text("# h\n1,2\r\n3,4\r\n")
    expected = np.loadtxt(str(p), delimiter=",")
    for src in (str(p), p, io.StringIO(p.read_text()), open(p, "rb"),
                p.read_text().splitlines(True), [b"1,2", b"3,4"]):
        np.testing.assert_array_equal(np.asarray(shade.loadtxt(src, delimiter=",")), expected)
    g = tmp_path / "a.txt.gz"
    with gzip.open(g, "wt") as fh:
        fh.write("1 2\n3 4\n")
    np.testing.assert_array_equal(np.asarray(shade.loadtxt(g)), np.loadtxt(g))
    lat = tmp_path / "l.txt"
    lat.write_bytes("1\xa02\n".encode("latin1"))
    np.testing.assert_array_equal(np.asarray(shade.loadtxt(lat, encoding="latin1")),
                                  np.loadtxt(lat, encoding="latin1"))
    with pytest.raises(FileNotFoundError):
        shade.loadtxt(tmp_path / "missing.txt")
    with pytest.raises(TypeError):
        shade.loadtxt(5)
    with pytest.raises(NotImplementedError):
        shade.loadtxt(["1"], converters={0: float})
    with pytest.warns(UserWarning, match="input contained no data"):
        shade.loadtxt([])


def test_loadtxt_random_tables_match_numpy():
    rng = random.Random(5)
    for dtype in (np.float64, np.float32, np.int64, np.int16, np.uint32, np.float16):
        for _ in range(20):
            rows, cols = rng.randint(1, 6), rng.randint(1, 5)
            delim = rng.choice([None, ",", ";", "\t"])
            sep = " " if delim is None else delim
            if np.issubdtype(dtype, np.integer):
                info = np.iinfo(dtype)
                vals = [[str(rng.randint(int(info.min), int(info.max))) for _ in range(cols)]
                        for _ in range(rows)]
            else:
                vals = [[repr(rng.uniform(-1e6, 1e6) * 10 ** rng.randint(-8, 8))
                         for _ in range(cols)] for _ in range(rows)]
            lines = [sep.join(r) + rng.choice(["", "  # c", " "]) for r in vals]
            same(*both(lambda: np.loadtxt(lines, dtype=dtype, delimiter=delim),
                       lambda: shade.loadtxt(lines, dtype=dtype, delimiter=delim)))


def test_loadtxt_hostile_inputs_raise_cleanly():
    rng = random.Random(9)
    alphabet = "0123456789 \t\n\r,.-+eE#\"'infa\x00\xff\u00a0"
    for n in range(600):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        kw = {"delimiter": "," if n % 2 else None, "quotechar": '"' if n % 3 == 0 else None,
              "dtype": [float, np.int16, bool, np.float32][n % 4]}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                shade.loadtxt(io.StringIO(text), **kw)
            except ValueError as e:
                assert "at row" in str(e) or "column" in str(e), str(e)
    # Big inputs that claim nothing: long lines, many rows, huge numbers.
    assert shade.loadtxt(["1 " * 50000]).shape == (50000,)
    with pytest.raises(ValueError, match="to int64 at row 0, column 1"):
        shade.loadtxt(["9" * 100000], dtype=np.int64)
    assert np.isinf(np.asarray(shade.loadtxt(["1e" + "9" * 1000]))).all()
    with pytest.raises(ValueError, match="could not convert string '\u00ff\u00fe' to float64"):
        shade.loadtxt(io.BytesIO(b"\xff\xfe"), encoding="latin1")


GENFROMTXT_CASES = [
    (["1 2", "3 4"], {}),
    (["1,abc", "3,4"], {"delimiter": ","}),
    (["1,abc", "3,4"], {"delimiter": ",", "dtype": int}),
    (["1,,3", "4,5,6"], {"delimiter": ","}),
    (["1,,3", "4,5,6"], {"delimiter": ",", "dtype": int}),
    (["1,,0"], {"delimiter": ",", "dtype": bool}),
    (["True,false,1,0,2"], {"delimiter": ",", "dtype": bool}),
    (["1,N/A,3", "4,5,-999"], {"delimiter": ",", "missing_values": ["N/A", "-999"]}),
    (["1,N/A,3", "4,5,-999"], {"delimiter": ",", "missing_values": "N/A,-999",
                               "filling_values": 0}),
    (["1,,3", "4,5,"], {"delimiter": ",", "filling_values": [10, 20, 30]}),
    (["1,,3", "4,5,"], {"delimiter": ",", "filling_values": {2: 7}}),
    (["1 2", "3 4 5", "6 7"], {}),
    (["1 2", "3 4 5", "6 7"], {"invalid_raise": False}),
    (["#h", "1 2", "", "3", "3 4 5", "6 7"], {"skip_header": 1}),
    (["a b", "#c", "1 2", "3 4"], {"skip_header": 1}),
    (["1 2", "3 4", "", "5 6", "#x"], {"skip_footer": 1}),
    (["1 2", "3 4 5", "5 6", "7"], {"skip_footer": 2, "invalid_raise": False}),
    (["1 2", "#c", "3 4", "5 6"], {"max_rows": 2}),
    (["1 2"], {"max_rows": 2, "skip_footer": 1}),
    (["1 2"], {"max_rows": 0}),
    (["1 2", "3 4"], {"dtype": None}),
    (["True False"], {"dtype": None}),
    (["1,,3", "4,5,6"], {"delimiter": ",", "dtype": None}),
    (["1 2 3", "4 5 6"], {"usecols": (2, -3)}),
    (["1 2 3", "4 5 6"], {"usecols": (5,)}),
    ([], {}), (["5"], {}), (["1 2 3"], {}), (["1", "2"], {}), (["1"], {"ndmin": 2}),
    (["12345"], {"delimiter": 3}), (["12345"], {"delimiter": [1, 2, 2]}),
    (["1 2 # c", "3 4"], {}), (["1 2"], {"comments": None}),
    ([" 1 , 2 "], {"delimiter": ","}), (["1::2::3"], {"delimiter": "::"}),
    (["inf -inf nan 1_0 0x10 1e5"], {}),
    (["1_0 +5 1__0"], {"dtype": int}),
    (['"1" 2'], {}),
    (["1"], {"skip_header": 3}),
    (["0.1 x"], {"dtype": np.float32}),
    ([",", "1,2"], {"delimiter": ",", "dtype": int}),
    (["1 2", "3 4", "5 6"], {"unpack": True}),
    (["1,-999"], {"delimiter": ",", "missing_values": -999}),
    (["1,,3"], {"delimiter": ",", "dtype": int, "filling_values": np.nan}),
    (["nan"], {"dtype": int}),
    (["1.5"], {"dtype": int}),
]


@pytest.mark.parametrize("lines,kw", GENFROMTXT_CASES)
def test_genfromtxt_matches_numpy(lines, kw):
    same(*both(lambda: np.genfromtxt(lines, **kw), lambda: shade.genfromtxt(lines, **kw)))


@pytest.mark.parametrize("lines,kw,expected", [
    (["1 2.5", "3 4"], {"dtype": None}, np.array([[1, 2.5], [3, 4]])),
    (["True,", "False,1"], {"delimiter": ",", "dtype": None}, np.array([[1, -1], [0, 1]])),
    (["99999999999999999999 1"], {"dtype": None}, np.array([1e20, 1.0])),
])
def test_genfromtxt_infers_one_common_dtype(lines, kw, expected):
    # NumPy gives a structured array when the columns' types differ; shade has no structured
    # dtypes and returns the widest column type, each column converted as NumPy converts it.
    got = np.asarray(shade.genfromtxt(lines, **kw))
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)


def test_genfromtxt_differences_are_errors():
    with pytest.raises(NotImplementedError):
        shade.genfromtxt(["1 abc"], dtype=None)
    with pytest.raises(NotImplementedError):
        shade.genfromtxt(["a b", "1 2"], names=True)
    with pytest.raises(ValueError, match="out of range for int8"):
        shade.genfromtxt(["300"], dtype=np.int8)  # NumPy wraps with a DeprecationWarning
    with pytest.raises(ValueError, match="out of range for int64"):
        shade.genfromtxt(["99999999999999999999"], dtype=int)  # NumPy: OverflowError
    with pytest.raises(ValueError, match="line 2, column 2"):
        shade.genfromtxt(["1 2", "3 abc"], loose=False)


def test_genfromtxt_warnings():
    with pytest.warns(Warning, match="Line #2"):
        shade.genfromtxt(["1 2", "3 4 5"], invalid_raise=False)
    with pytest.warns(UserWarning, match="Empty input file"):
        shade.genfromtxt([])


SAVE_X = np.array([[1.5, -2.0, np.nan], [np.inf, -np.inf, 1e-300]])
SAVE_FMTS = ["%.18e", "%d", "%s", "%r", "%x", "%#o", "%+08.3f", "%-10g|", "%G", "%5s", "%.2s",
             "%i,%i;%i", "%%%d", ["%d", "%.2f", "%s"], "%e %e", "%5.1e", "%05d", "% .3E",
             "%ld", "%u"]


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16, np.int64, np.int8,
                                   np.uint64, np.bool_])
@pytest.mark.parametrize("fmt", SAVE_FMTS, ids=str)
def test_savetxt_matches_numpy(dtype, fmt):
    if np.issubdtype(dtype, np.floating):
        x = SAVE_X.astype(dtype)
    else:
        x = np.array([[1, -2, 3], [127, 0, -128]]).astype(dtype)

    def run(mod, arr):
        buf = io.StringIO()
        mod.savetxt(buf, arr, fmt=fmt)
        return buf.getvalue()

    expected, got = both(lambda: run(np, x), lambda: run(shade, shade.asarray(x)))
    if isinstance(expected, OverflowError):  # %d of inf: shade raises ValueError
        assert isinstance(got, ValueError) and "infinity" in str(got)
    elif isinstance(expected, Exception):
        assert type(got) is type(expected) and str(expected) in str(got), (expected, got)
    else:
        assert got == expected


def test_savetxt_options_and_views(tmp_path):
    base = np.arange(24, dtype=np.float64).reshape(4, 6) / 7
    x = base[::2, 1::2]  # a non-contiguous view
    kw = dict(fmt="%.6g", delimiter=",", newline="\r\n", header="a\nb", footer="end",
              comments="// ")
    buf = io.StringIO()
    np.savetxt(buf, x, **kw)
    p = tmp_path / "x.txt"
    shade.savetxt(p, shade.asarray(base)[::2, 1::2], **kw)
    assert p.read_bytes().decode() == buf.getvalue()
    shade.savetxt(str(p), np.arange(3.0))  # 1-D: one value per line
    np.testing.assert_array_equal(np.loadtxt(p), np.arange(3.0))
    bbuf = io.BytesIO()
    shade.savetxt(bbuf, np.arange(2.0), fmt="%g")
    assert bbuf.getvalue() == b"0\n1\n"
    gz = tmp_path / "x.txt.gz"
    shade.savetxt(gz, np.arange(2.0), fmt="%g")
    np.testing.assert_array_equal(np.loadtxt(gz), np.arange(2.0))
    for bad in (np.float64(1), np.zeros((2, 2, 2))):
        with pytest.raises(ValueError, match="Expected 1D or 2D array"):
            shade.savetxt(io.StringIO(), bad)


def test_savetxt_formats_are_validated(tmp_path):
    p = tmp_path / "keep.txt"
    p.write_text("old\n")
    for bad in ("%n", "%p", "%*d", "%(a)s", "%", "%c", "%.99999f", "%5$d", "%y"):
        with pytest.raises((ValueError, TypeError)):
            shade.savetxt(p, np.ones((1, 1)), fmt=bad)
        assert p.read_text() == "old\n"  # atomic: the failed save left the file alone
    with pytest.raises(ValueError, match="fmt has wrong shape"):
        shade.savetxt(io.StringIO(), np.ones((1, 2)), fmt=["%d"])
    with pytest.raises(ValueError, match="invalid fmt"):
        shade.savetxt(io.StringIO(), np.ones((1, 2)), fmt=5)


def test_round_trip_random_values(tmp_path):
    rng = np.random.default_rng(3)
    x = rng.standard_normal((50, 7)) * 10.0 ** rng.integers(-300, 300, (50, 7))
    p = tmp_path / "r.txt"
    shade.savetxt(p, x)
    np.testing.assert_array_equal(np.asarray(shade.loadtxt(p)), x)
    np.testing.assert_array_equal(np.loadtxt(p), x)
    ints = rng.integers(-2**63, 2**63 - 1, (20, 3), dtype=np.int64)
    shade.savetxt(p, ints, fmt="%d")
    np.testing.assert_array_equal(np.asarray(shade.loadtxt(p, dtype=np.int64)), ints)
    assert os.path.getsize(p) > 0
