"""A Hypothesis state machine over shade's public Python API (issue 44, item 3).

It calls the module's functions and the ndarray's methods with random arguments: shapes with
negative, zero and huge extents, every dtype and dtype-like (and bogus ones), out-of-range and
repeated axes, integer and boolean indices at the edges, ``out=`` aliasing an input, views whose
owner was deleted, DLPack capsules used twice, read-only NumPy arrays, NumPy round trips.

Properties: the process never crashes (run in a child process by test_fuzz_api.py, so a crash is
a failed test, not a dead pytest); every failure is an exception of the documented classes
(ValueError, TypeError, IndexError, OverflowError, MemoryError, NotImplementedError) with a
non-empty message; a result that succeeds equals NumPy's where NumPy (NEP 50 promotion) gives
one. The child runs under RLIMIT_AS, so an allocation the machine cannot hold surfaces as
MemoryError instead of the OOM killer.

Run: ``python3 fuzz_api.py [examples] [steps]``; prints the call and exception counts as JSON.
SHADE_FUZZ_SEED picks a random (non-derandomized) run.
"""
import collections
import gc
import json
import os
import sys
import warnings

import numpy as np
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from hypothesis.stateful import Bundle, RuleBasedStateMachine, invariant, rule

import shade

np._set_promotion_state("weak")  # NEP 50, as shade implements (see conftest.py)
warnings.simplefilter("ignore")

ALLOWED = (ValueError, TypeError, IndexError, OverflowError, MemoryError, NotImplementedError)
DTYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
          np.uint64, np.float16, np.float32, np.float64]
# dtype-likes: scalar types, numpy.dtype objects, strings, Python types, shade.bfloat16, bogus.
DTYPE_LIKES = (DTYPES + [np.dtype(d) for d in DTYPES] + [np.dtype(d).str for d in DTYPES] +
               ["float32", "int64", "bool", "f8", ">f4", "<i2", "bfloat16", shade.bfloat16,
                int, float, bool, complex, "c16", "U3", "O", "xyz", object, None, 3, -1])

STATS = {"calls": 0, "ok": 0, "compared": 0, "exceptions": collections.Counter()}

UNARY = ["negative", "absolute", "sqrt", "exp", "log", "sin", "floor", "ceil", "sign",
         "logical_not", "invert", "bitwise_not", "round", "square"]
BINARY = ["add", "subtract", "multiply", "true_divide", "floor_divide", "remainder", "power",
          "maximum", "minimum", "equal", "less", "greater_equal", "logical_and", "logical_xor",
          "bitwise_and", "bitwise_or", "arctan2", "hypot", "copysign", "logaddexp", "matmul",
          "dot"]
REDUCE = ["sum", "prod", "mean", "max", "min", "amax", "argmax", "argmin", "all", "any", "std",
          "var"]

extent = st.one_of(st.integers(0, 4), st.integers(-3, -1), st.sampled_from(
    [2**32 + 1, 2**40, 2**62, 2**63 - 1, 2**63, 2**64, -2**63]))
shape_args = st.one_of(st.lists(extent, max_size=5).map(tuple), extent,
                       st.lists(st.integers(0, 3), max_size=4).map(tuple))
small_shapes = hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=4)
axis_args = st.one_of(st.none(), st.integers(-6, 6),
                      st.lists(st.integers(-5, 5), max_size=4).map(tuple))


def values_for(dtype):
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return st.booleans()
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return st.one_of(st.integers(-3 if dtype.kind == "i" else 0, 5),
                         st.sampled_from([int(info.min), int(info.max)]))
    return st.one_of(st.floats(-4, 4, width=dtype.itemsize * 8),
                     st.sampled_from([0.0, -0.0, float("inf"), float("nan")]))


@st.composite
def numpy_arrays(draw):
    dtype = draw(st.sampled_from(DTYPES))
    return draw(hnp.arrays(dtype, draw(small_shapes), elements=values_for(dtype)))


index_atoms = st.one_of(
    st.integers(-6, 6), st.sampled_from([2**31, -2**63, 2**63, 2**64]), st.none(),
    st.just(Ellipsis), st.booleans(),
    st.builds(slice, st.one_of(st.none(), st.integers(-6, 6)),
              st.one_of(st.none(), st.integers(-6, 6)),
              st.one_of(st.none(), st.integers(-3, 3))))
index_args = st.one_of(index_atoms, st.lists(index_atoms, max_size=5).map(tuple))


TRACE = bool(os.environ.get("SHADE_FUZZ_TRACE"))


def describe(x):
    if isinstance(x, (shade.ndarray, np.ndarray)):
        return "%s%s%s" % (type(x).__name__, x.shape, x.dtype)
    return repr(x)


def call(fn, *args, **kwargs):
    """Calls fn; returns (True, result) or (False, exception). Asserts the exception class."""
    STATS["calls"] += 1
    if TRACE:
        print("CALL", getattr(fn, "__name__", fn), [describe(a) for a in args], kwargs,
              file=sys.stderr, flush=True)
    try:
        out = fn(*args, **kwargs)
    except ALLOWED as e:
        STATS["exceptions"][type(e).__name__] += 1
        assert str(e), "%s with an empty message from %r" % (type(e).__name__, fn)
        return False, e
    except Exception as e:  # any other class breaks the documented contract
        raise AssertionError("%s: %s raised %s: %s" % (getattr(fn, "__name__", fn), args,
                                                       type(e).__name__, e)) from e
    STATS["ok"] += 1
    return True, out


def is_bfloat16(dtype):
    return dtype is shade.bfloat16 or (isinstance(dtype, str) and dtype == "bfloat16")


def numpy_call(fn, *args, **kwargs):
    try:
        return True, fn(*args, **kwargs)
    except Exception as e:  # NumPy's own refusal: nothing to compare
        return False, e


def as_numpy(x):
    if isinstance(x, shade.ndarray):
        return np.asarray(x.astype(np.float32)) if x.dtype == shade.bfloat16 else np.asarray(x)
    return x


def same(got, want, what):
    """Results that succeed in both equal NumPy's (value, dtype, shape)."""
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want), what
        for g, w in zip(got, want):
            same(g, w, what)
        return
    want = np.asarray(want)
    if not want.dtype.isnative:  # shade stores native byte order only (values compared below)
        want = want.astype(want.dtype.newbyteorder("="))
    got = np.asarray(as_numpy(got))
    STATS["compared"] += 1
    assert got.shape == want.shape, "%s: shape %s, NumPy %s" % (what, got.shape, want.shape)
    assert got.dtype == want.dtype, "%s: dtype %s, NumPy %s" % (what, got.dtype, want.dtype)
    if want.dtype.kind == "f":
        tol = {2: 2e-3, 4: 2e-6, 8: 1e-12}[want.dtype.itemsize]
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol, equal_nan=True, err_msg=what)
    else:
        np.testing.assert_array_equal(got, want, err_msg=what)


class ApiMachine(RuleBasedStateMachine):
    arrays = Bundle("arrays")  # (shade array, NumPy twin)

    @rule(target=arrays, x=numpy_arrays())
    def from_numpy(self, x):
        ok, a = call(shade.asarray, x)
        assert ok, a
        same(a, x, "asarray")
        return (a, x.copy())

    @rule(target=arrays, x=numpy_arrays(), dtype=st.sampled_from(DTYPE_LIKES))
    def array_with_dtype(self, x, dtype):
        ok, a = call(shade.array, x, dtype=dtype)
        nok, want = numpy_call(np.array, x, dtype=dtype)
        if ok and nok and not is_bfloat16(dtype):
            same(a, want, "array(dtype=%r)" % (dtype,))
        return (shade.asarray(x), x.copy())

    @rule(fn=st.sampled_from(["zeros", "ones", "empty", "full"]), shape=shape_args,
          dtype=st.sampled_from(DTYPE_LIKES))
    def create(self, fn, shape, dtype):
        args = (shape, 1.5) if fn == "full" else (shape,)
        ok, a = call(getattr(shade, fn), *args, dtype=dtype)
        if ok and fn != "empty":
            nok, want = numpy_call(getattr(np, fn), *args, dtype=dtype)
            if nok and not is_bfloat16(dtype):
                same(a, want, "%s(%r, dtype=%r)" % (fn, shape, dtype))

    @rule(fn=st.sampled_from(["arange", "linspace", "eye"]),
          a=st.integers(-5, 5), b=st.one_of(st.integers(-5, 10), st.just(2**62)),
          # Exact binary fractions: with a step like 1.19e-7 NumPy's arange steps by
          # (start + step) - start, shade by step, and the two drift apart (a known difference).
          c=st.one_of(st.integers(-3, 3), st.sampled_from([0.25, -0.5, 1.5, -1.25, 0.0])))
    def ranges(self, fn, a, b, c):
        args = {"arange": (a, b, c), "linspace": (a, b, b), "eye": (b, a, int(c))}[fn]
        ok, got = call(getattr(shade, fn), *args)
        if ok:
            nok, want = numpy_call(getattr(np, fn), *args)
            if nok:
                same(got, want, "%s%r" % (fn, args))

    @rule(p=arrays, fn=st.sampled_from(UNARY))
    def unary(self, p, fn):
        a, x = p
        if not hasattr(shade, fn):
            return
        ok, got = call(getattr(shade, fn), a)
        if ok:
            nok, want = numpy_call(getattr(np, fn), x)
            if nok:
                same(got, want, "%s(%s)" % (fn, x.dtype))

    @rule(p=arrays, q=arrays, fn=st.sampled_from(BINARY), swap=st.booleans())
    def binary(self, p, q, fn, swap):
        (a, x), (b, y) = (q, p) if swap else (p, q)
        ok, got = call(getattr(shade, fn), a, b)
        if ok:
            nok, want = numpy_call(getattr(np, fn), x, y)
            if nok:
                same(got, want, "%s(%s, %s)" % (fn, x.dtype, y.dtype))

    @rule(p=arrays, s=st.one_of(st.integers(-2**65, 2**65), st.floats(), st.booleans()),
          fn=st.sampled_from(["add", "multiply", "maximum", "less", "true_divide"]))
    def with_scalar(self, p, s, fn):
        a, x = p
        ok, got = call(getattr(shade, fn), a, s)
        if ok:
            nok, want = numpy_call(getattr(np, fn), x, s)
            if nok:
                same(got, want, "%s(%s, %r)" % (fn, x.dtype, s))

    @rule(p=arrays, fn=st.sampled_from(["add", "multiply", "subtract", "maximum"]))
    def out_aliasing_input(self, p, fn):
        a, x = p
        ok, got = call(getattr(shade, fn), a, a, out=a)
        nok, want = numpy_call(getattr(np, fn), x, x, out=x)
        if ok and nok:
            same(a, x, "%s(a, a, out=a)" % fn)
        else:
            x[...] = as_numpy(a)

    @rule(p=arrays, fn=st.sampled_from(REDUCE), axis=axis_args, keepdims=st.booleans())
    def reduce(self, p, fn, axis, keepdims):
        a, x = p
        kwargs = {"axis": axis}
        if fn not in ("argmax", "argmin"):
            kwargs["keepdims"] = keepdims
        ok, got = call(getattr(shade, fn), a, **kwargs)
        if ok:
            nok, want = numpy_call(getattr(np, fn), x, **kwargs)
            if nok and not (fn in ("mean", "std", "var") and x.size == 0):
                same(got, want, "%s(%s, %r)" % (fn, x.dtype, kwargs))

    @rule(p=arrays, index=index_args)
    def getitem(self, p, index):
        a, x = p
        ok, got = call(a.__getitem__, index)
        if ok:
            nok, want = numpy_call(x.__getitem__, index)
            if nok:
                same(got, want, "a[%r] of %s" % (index, x.shape))

    @rule(p=arrays, index=index_args, value=st.one_of(st.integers(-2, 2), st.booleans()))
    def setitem(self, p, index, value):
        a, x = p
        ok, _ = call(a.__setitem__, index, value)
        nok, _ = numpy_call(x.__setitem__, index, value)
        if ok and nok:
            same(a, x, "a[%r] = %r" % (index, value))
        else:  # one refused (NumPy's overflow checks, say): resynchronise the twin
            x[...] = as_numpy(a)

    @rule(p=arrays, mask_seed=st.integers(0, 2**16))
    def boolean_mask(self, p, mask_seed):
        a, x = p
        mask = np.random.default_rng(mask_seed).random(x.shape) < 0.5
        ok, got = call(a.__getitem__, shade.asarray(mask))
        if ok:
            same(got, x[mask], "a[mask]")

    @rule(target=arrays, p=arrays, shape=shape_args)
    def reshape(self, p, shape):
        a, x = p
        ok, got = call(a.reshape, shape)
        nok, want = numpy_call(x.reshape, shape)
        if ok and nok:
            same(got, want, "reshape(%r)" % (shape,))
            return (got.copy(), np.array(want))  # views would drift from their twins
        return p

    @rule(target=arrays, p=arrays, axes=st.lists(st.integers(-5, 5), max_size=5).map(tuple))
    def transpose(self, p, axes):
        a, x = p
        ok, got = call(a.transpose, *axes) if axes else call(a.transpose)
        nok, want = numpy_call(x.transpose, *axes) if axes else numpy_call(x.transpose)
        if ok and nok:
            same(got, want, "transpose%r" % (axes,))
            return (got.copy(), np.array(want))
        return p

    @rule(p=arrays, i=st.integers(-5, 5), j=st.integers(-5, 5))
    def swapaxes(self, p, i, j):
        a, x = p
        ok, got = call(a.swapaxes, i, j)
        if ok:
            nok, want = numpy_call(x.swapaxes, i, j)
            if nok:
                same(got, want, "swapaxes(%d, %d)" % (i, j))

    @rule(p=arrays, dtype=st.sampled_from(DTYPE_LIKES))
    def astype(self, p, dtype):
        a, x = p
        ok, got = call(a.astype, dtype)
        if ok and not is_bfloat16(dtype):
            nok, want = numpy_call(x.astype, dtype)
            if nok and not (want.dtype.kind in "iu" and x.dtype.kind == "f"):  # UB in C too
                same(got, want, "astype(%r)" % (dtype,))

    @rule(p=arrays, index=index_args)
    def view_outlives_owner(self, p, index):
        a, x = p
        owner = a.copy()
        ok, view = call(owner.__getitem__, index)
        del owner
        gc.collect()
        if ok and isinstance(view, shade.ndarray):
            nok, want = numpy_call(x.__getitem__, index)
            if nok:
                same(view, want, "view after its owner was deleted")
                call(view.fill, 1)

    @rule(p=arrays, twice=st.booleans())
    def dlpack(self, p, twice):
        a, x = p
        ok, cap = call(a.__dlpack__)
        if not ok:
            return
        ok, b = call(shade.from_dlpack, cap)
        if ok:
            same(b, x, "from_dlpack")
        if twice:
            ok2, _ = call(shade.from_dlpack, cap)
            assert not ok2 or not ok, "a DLPack capsule was consumed twice"
        ok, y = numpy_call(np.from_dlpack, a)
        if ok:
            same(y, x, "np.from_dlpack")

    @rule(p=arrays)
    def read_only_numpy(self, p):
        _, x = p
        r = x.copy()
        r.setflags(write=False)
        ok, a = call(shade.asarray, r)
        if ok:
            before = r.copy()
            call(a.fill, 1)
            call(a.__iadd__, 1)
            np.testing.assert_array_equal(r, before, err_msg="a read-only array was written")

    @rule(p=arrays, dtype=st.sampled_from(DTYPES))
    def numpy_round_trip(self, p, dtype):
        a, x = p
        y = np.asarray(a)
        same(y, x, "np.asarray")
        ok, back = call(shade.asarray, y.astype(dtype))
        if ok:
            same(back, x.astype(dtype), "round trip through %s" % np.dtype(dtype))

    @rule(p=arrays, q=arrays, axis=st.integers(-4, 4),
          fn=st.sampled_from(["concatenate", "stack"]))
    def join(self, p, q, axis, fn):
        (a, x), (b, y) = p, q
        ok, got = call(getattr(shade, fn), [a, b], axis=axis)
        if ok:
            nok, want = numpy_call(getattr(np, fn), [x, y], axis=axis)
            if nok:
                same(got, want, "%s(axis=%d)" % (fn, axis))

    @rule(p=arrays, reps=st.one_of(st.integers(-2, 3), st.sampled_from([2**62, 2**40])),
          fn=st.sampled_from(["repeat", "tile", "roll", "take", "expand_dims", "squeeze", "flip"]))
    def misc(self, p, reps, fn):
        a, x = p
        args = {"take": (a, [reps]), "squeeze": (a, reps), "flip": (a, reps),
                "expand_dims": (a, reps)}.get(fn, (a, reps))
        nargs = (x,) + args[1:]
        ok, got = call(getattr(shade, fn), *args)
        if ok:
            nok, want = numpy_call(getattr(np, fn), *nargs)
            if nok:
                same(got, want, "%s%r" % (fn, args[1:]))

    @invariant()
    def twins_agree(self):
        pass


def run(examples, steps, seed=None):
    kwargs = dict(max_examples=examples, stateful_step_count=steps, deadline=None,
                  suppress_health_check=list(HealthCheck), print_blob=True, database=None)
    if seed is None:
        kwargs["derandomize"] = True
    ApiMachine.TestCase.settings = settings(**kwargs)
    test = ApiMachine.TestCase("runTest")
    if seed is not None:
        import random
        random.seed(seed)
    test.runTest()


if __name__ == "__main__":
    examples = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    steps = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    seed = os.environ.get("SHADE_FUZZ_SEED")
    try:
        run(examples, steps, None if seed is None else int(seed))
    finally:
        STATS["exceptions"] = dict(STATS["exceptions"])
        print("FUZZ-STATS " + json.dumps(STATS), flush=True)
