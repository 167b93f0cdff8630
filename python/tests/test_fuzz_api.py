"""Runs the Python API fuzz (fuzz_api.py) in a child process, so that a crash fails this test
instead of killing pytest, under an address-space limit, so that an allocation the machine
cannot hold must surface as MemoryError. Regression tests of what the fuzz found follow.

SHADE_FUZZ_EXAMPLES / SHADE_FUZZ_STEPS size the run (default: a smoke of about a minute);
SHADE_FUZZ_SEED makes it a random campaign instead of the derandomized smoke."""
import json
import os
import resource
import subprocess
import sys

import numpy as np
import pytest

import shade

HERE = os.path.dirname(os.path.abspath(__file__))


def _limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))


def test_fuzz_api_smoke():
    examples = os.environ.get("SHADE_FUZZ_EXAMPLES", "200")
    steps = os.environ.get("SHADE_FUZZ_STEPS", "40")
    out = subprocess.run([sys.executable, "-X", "faulthandler", os.path.join(HERE, "fuzz_api.py"),
                          examples, steps], env=os.environ, capture_output=True, text=True,
                         preexec_fn=_limit_memory, timeout=3600)
    tail = (out.stdout + out.stderr)[-6000:]
    assert out.returncode == 0, "fuzz child exited with %d:\n%s" % (out.returncode, tail)
    stats = [line for line in out.stdout.splitlines() if line.startswith("FUZZ-STATS ")]
    assert stats, tail
    figures = json.loads(stats[-1][len("FUZZ-STATS "):])
    print(figures)
    assert figures["calls"] > 0 and figures["compared"] > 0


# Regressions found by the fuzz.

def test_argmin_axis_tuple_raises_type_error_not_a_crash():
    # The axis was cast with the GIL released: the failed cast crashed the process.
    a = shade.asarray(np.array(3.0))
    for fn in (shade.argmin, shade.argmax):
        with pytest.raises(TypeError):
            fn(a, axis=())
        with pytest.raises(TypeError):
            fn(a, axis=(0,))
    assert shade.argmax(shade.asarray(np.array([1, 5, 2])), axis=0) == 1


def test_eye_with_huge_n_and_no_columns_returns_at_once():
    # The loop ran over all N rows (2**62 iterations) whatever M was.
    assert shade.eye(2**62, 0).shape == (2**62, 0)
    for n in range(4):
        for m in range(4):
            for k in range(-5, 6):
                np.testing.assert_array_equal(np.asarray(shade.eye(n, m, k)), np.eye(n, m, k))
    for k in (2**63 - 1, -2**63):
        np.testing.assert_array_equal(np.asarray(shade.eye(3, 3, k)), np.eye(3, 3, k))


def test_integers_beyond_int64_raise_overflow_or_index_error():
    a = shade.asarray(np.arange(4))
    with pytest.raises(IndexError):
        a[2**63]
    with pytest.raises(IndexError):
        a[-2**64]
    with pytest.raises(OverflowError, match="shape"):
        shade.zeros((2**64,))
    with pytest.raises(OverflowError, match="axis"):
        shade.sum(a, axis=2**70)
    with pytest.raises(OverflowError, match="shift"):
        shade.roll(a, 2**64)
    with pytest.raises(OverflowError, match="stop"):
        shade.arange(0, 2**64)
    with pytest.raises(TypeError, match="shape"):
        shade.zeros("abc")


def test_boolean_scalar_key_assigns_a_zero_d_array_as_numpy():
    # a[False] = v wrote the element of a 0-d array: nothing carried the empty selection.
    for key in (False, True, (False,), (True, True)):
        for value in (5, [7]):
            x = np.array(1.0)
            a = shade.asarray(x.copy())
            x[key] = value
            a[key] = value
            np.testing.assert_array_equal(np.asarray(a), x)
