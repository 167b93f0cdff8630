"""Hypothesis strategies shared by the property tests."""
import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

# dtypes NumPy and shade share (bfloat16 is tested separately).
INT_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
FLOAT_DTYPES = [np.float16, np.float32, np.float64]
ALL_DTYPES = [np.bool_] + INT_DTYPES + FLOAT_DTYPES

dtypes = st.sampled_from(ALL_DTYPES)


def arrays(dtype, shape, small=True):
    """Values that keep every op well defined and comparable: small integers, finite floats."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        elements = st.booleans()
    elif dtype.kind in "iu":
        lo = 0 if dtype.kind == "u" else -20
        elements = st.integers(lo, 20 if small else int(np.iinfo(dtype).max))
    else:
        elements = st.floats(-8, 8, width=dtype.itemsize * 8, allow_nan=False)
    return hnp.arrays(dtype, shape, elements=elements)


shapes = hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=5)
broadcast_pairs = hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=4, max_side=5)

# Python scalars NEP 50 treats as weak: small ints (in range for every dtype), floats, bools.
python_scalars = st.one_of(st.integers(0, 100), st.floats(-4, 4, allow_nan=False), st.booleans())
