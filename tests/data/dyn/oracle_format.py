"""The array line of the NumPy oracle files (tests/data/dyn/ and tests/data/dyn2/), shared by
both make_oracle.py scripts: `TAG DTYPE NDIM SHAPE... | values`, values exact (integers in
decimal, bool 0/1, floats as float.hex or nan/inf/-inf). tests/dyn2_oracle.h reads it."""
import numpy as np


def fmt(v, dt):
    if dt == 'bool':
        return '1' if v else '0'
    if dt.startswith('float'):
        return float(v).hex()
    return str(int(v))


def arr_line(tag, a):
    a = np.asarray(a)
    dt = str(a.dtype)
    vals = ' '.join(fmt(v, dt) for v in a.reshape(-1).tolist())
    return f'{tag} {dt} {a.ndim} {" ".join(str(s) for s in a.shape)} | {vals}'
