#!/usr/bin/python3
"""Generates the NumPy oracle for shade's dynamic elementwise ops (tests/ndarray/test_promotion.cc and
tests/ndarray/test_dyn_elementwise.cc). Run with Debian's /usr/bin/python3 from this directory:

    /usr/bin/python3 make_oracle.py

Debian's NumPy is 1.24, whose default promotion is the old value-based rule. NEP 50 (the rule
of NumPy 2, which shade follows) is switched on below with np._set_promotion_state('weak'):
Python scalars are then weak (an int scalar does not widen float32; an int scalar that does not
fit the array's integer dtype is an OverflowError).

Output (plain text, one record per line, values exact: integers in decimal, bool as 0/1,
floats as float.hex or nan/inf/-inf):
  promotion.txt  promote A B R | weak A int|float R | cast A B safe same_kind
                 | dtype OP A [B] R|error | dtype_weak OP A int|float R|error
  cases.txt      case OP NIN / in DTYPE SHAPE values | in int|float VALUE (weak scalar)
                 / out DTYPE SHAPE values | out error
"""
import numpy as np

from oracle_format import arr_line

np._set_promotion_state('weak')

DTYPES = ['bool', 'uint8', 'uint16', 'uint32', 'uint64', 'int8', 'int16', 'int32', 'int64',
          'float16', 'float32', 'float64']

BINARY = {
    'add': np.add, 'subtract': np.subtract, 'multiply': np.multiply, 'true_divide': np.true_divide,
    'floor_divide': np.floor_divide, 'remainder': np.remainder, 'power': np.power,
    'maximum': np.maximum, 'minimum': np.minimum, 'equal': np.equal, 'not_equal': np.not_equal,
    'less': np.less, 'less_equal': np.less_equal, 'greater': np.greater,
    'greater_equal': np.greater_equal, 'logical_and': np.logical_and,
    'logical_or': np.logical_or, 'logical_xor': np.logical_xor, 'bitwise_and': np.bitwise_and,
    'bitwise_or': np.bitwise_or, 'bitwise_xor': np.bitwise_xor,
}


def float_for(dt):
    """The float dtype NumPy's float ufuncs pick for an input dtype."""
    return np.result_type(np.exp(np.ones(1, dt)))


def rsqrt(x):
    x = np.asarray(x)
    f = float_for(x.dtype)
    return (np.float64(1) / np.sqrt(x.astype(np.float64))).astype(f)


def sigmoid(x):
    x = np.asarray(x)
    f = float_for(x.dtype)
    return (1.0 / (1.0 + np.exp(-x.astype(np.float64)))).astype(f)


def relu(x):
    x = np.asarray(x)
    if x.dtype == np.bool_:
        return x.copy()
    return np.where(x > 0, x, np.zeros((), x.dtype)).astype(x.dtype)


def sign(x):
    return np.sign(x)


UNARY = {
    'negative': np.negative, 'absolute': np.absolute, 'exp': np.exp, 'log': np.log,
    'log1p': np.log1p, 'expm1': np.expm1, 'sqrt': np.sqrt, 'rsqrt': rsqrt, 'sin': np.sin,
    'cos': np.cos, 'tanh': np.tanh, 'sigmoid': sigmoid, 'relu': relu, 'floor': np.floor,
    'ceil': np.ceil, 'round': np.round, 'sign': sign, 'logical_not': np.logical_not,
    'invert': np.invert,
}

# Not NumPy functions: their dtype rule is shade's (the float rule of exp), computed in float64.
NOT_NUMPY = {'rsqrt', 'sigmoid', 'relu'}


# The ufuncs added through the op registry (functor/op_registry.h). Their cases and dtype lines are
# written after all the others, so the random values of the earlier cases stay the same.
NEW_BINARY = {'arctan2': np.arctan2, 'hypot': np.hypot, 'logaddexp': np.logaddexp,
              'copysign': np.copysign}
NEW_UNARY = {'log2': np.log2, 'exp2': np.exp2, 'log10': np.log10, 'cbrt': np.cbrt}
# Broadcast pairs for them, with rank 0 on both sides and 0-size operands.
NEW_SHAPES = [((2, 1, 3), (2, 3)), ((4,), (4,)), ((), (2, 2)), ((3, 1), (1, 2)), ((), ()),
              ((0, 3), (1, 3)), ((5,), ())]
NEW_UNARY_SHAPES = [(2, 3), (), (0,), (7,), (3, 0, 2)]


def sinc(x):
    """numpy.sinc's values; as a registry op, floats keep their dtype and the rest give float64
    (NumPy's Python-level sinc promotes float16/float32 to float64 under NEP 50)."""
    x = np.asarray(x)
    out = x.dtype if x.dtype.kind == 'f' else np.dtype('float64')
    return np.sinc(x.astype(np.float64)).astype(out)


# Issue 40's additions, written after everything above so that the earlier values stay the same.
NEWER_BINARY = {'heaviside': np.heaviside}
NEWER_UNARY = {'deg2rad': np.deg2rad, 'rad2deg': np.rad2deg, 'sinc': sinc}


def result_or_error(f, *args):
    try:
        with np.errstate(all='ignore'):
            r = f(*args)
        return str(np.asarray(r).dtype)
    except Exception:  # noqa: BLE001 - NumPy's TypeError / OverflowError / ValueError
        return 'error'


def dtype_lines(lines, one, binary, unary):
    """The result dtype (or error) of each op for every dtype, pair and weak scalar."""
    for op, f in binary.items():
        for a in DTYPES:
            for b in DTYPES:
                lines.append(f'dtype {op} {a} {b} {result_or_error(f, one[a], one[b])}')
            lines.append(f'dtype_weak {op} {a} int {result_or_error(f, one[a], 1)}')
            lines.append(f'dtype_weak {op} {a} float {result_or_error(f, one[a], 1.0)}')
    for op, f in unary.items():
        if op in NOT_NUMPY:
            continue
        for a in DTYPES:
            lines.append(f'dtype {op} {a} {result_or_error(f, one[a])}')


def write_promotion(path):
    lines = []
    for a in DTYPES:
        for b in DTYPES:
            lines.append(f'promote {a} {b} {np.promote_types(a, b)}')
            lines.append(f'cast {a} {b} {int(np.can_cast(a, b, "safe"))} '
                         f'{int(np.can_cast(a, b, "same_kind"))}')
        lines.append(f'weak {a} int {np.result_type(np.dtype(a), 1)}')
        lines.append(f'weak {a} float {np.result_type(np.dtype(a), 1.0)}')
    one = {d: np.ones(1, d) for d in DTYPES}
    dtype_lines(lines, one, BINARY, UNARY)
    for a in DTYPES:  # where and clip
        for b in DTYPES:
            lines.append(f'dtype where {a} {b} {result_or_error(np.where, one["bool"], one[a], one[b])}')
            lines.append(f'dtype clip {a} {b} {result_or_error(np.clip, one[a], one[b], one[b])}')
    dtype_lines(lines, one, NEW_BINARY, NEW_UNARY)
    dtype_lines(lines, one, NEWER_BINARY, {k: f for k, f in NEWER_UNARY.items() if k != 'sinc'})
    with open(path, 'w') as fh:
        fh.write('\n'.join(lines) + '\n')


rng = np.random.default_rng(20260522)
FLOAT_SPECIAL = [np.nan, np.inf, -np.inf, 0.0, -0.0, 0.5, 1.5, 2.5, -2.5, 1.0, -1.0]


def values(dt, n, op=None, role='a'):
    dt = np.dtype(dt)
    if dt == np.bool_:
        return rng.integers(0, 2, n).astype(bool)
    if dt.kind == 'f':
        v = rng.normal(0, 3, n)
        k = rng.integers(0, len(FLOAT_SPECIAL), n)
        special = rng.random(n) < 0.35
        v = np.where(special, np.array(FLOAT_SPECIAL)[k], v)
        if op == 'power' and role == 'b':
            v = np.where(rng.random(n) < 0.5, np.round(v), v)
        return v.astype(dt)
    info = np.iinfo(dt)
    if op == 'power' and role == 'b':
        return rng.integers(0, 5, n).astype(dt)
    lo, hi = max(info.min, -100), min(info.max, 100)
    v = rng.integers(lo, hi + 1, n).astype(dt)
    edge = np.nonzero(rng.random(n) < 0.2)[0]
    pick = np.array([info.min, info.max, 0, 1], dtype=dt)
    v[edge] = pick[rng.integers(0, 4, len(edge))]
    return v


SHAPES = [((2, 1, 3), (2, 3)), ((4,), (4,)), ((), (2, 2)), ((3, 1), (1, 2))]

SAME = DTYPES
MIXED = [('int32', 'float32'), ('uint8', 'int8'), ('float16', 'int32'), ('uint64', 'int64'),
         ('bool', 'float32'), ('int16', 'uint32'), ('float16', 'float32')]


def case(lines, op, f, ins, weak=None):
    """ins: arrays (weak: list of (position, python scalar))."""
    args = list(ins)
    lines.append(f'case {op} {len(args)}')
    for a in args:
        if isinstance(a, (int, float)) and not isinstance(a, bool):
            kind = 'int' if isinstance(a, int) else 'float'
            lines.append(f'in {kind} {a if kind == "int" else float(a).hex()}')
        else:
            lines.append(arr_line('in', a))
    try:
        with np.errstate(all='ignore'):
            r = np.asarray(f(*args))
        lines.append(arr_line('out', r))
    except Exception:  # noqa: BLE001
        lines.append('out error')


def write_cases(path):
    lines = []
    k = 0
    for op, f in BINARY.items():
        for a_dt, b_dt in [(d, d) for d in SAME] + MIXED:
            sa, sb = SHAPES[k % len(SHAPES)]
            k += 1
            a = values(a_dt, int(np.prod(sa)), op, 'a').reshape(sa)
            b = values(b_dt, int(np.prod(sb)), op, 'b').reshape(sb)
            case(lines, op, f, [a, b])
        for dt in ['float32', 'int32', 'uint8', 'bool', 'float16', 'int64']:
            a = values(dt, 4, op, 'a').reshape(2, 2)
            for s in ([3, 2.5] if op != 'power' else [2, 0.5]):
                case(lines, op, f, [a, s])
                if op != 'power':
                    case(lines, op, f, [s, a])
        case(lines, op, f, [values('uint8', 3), 300])  # NEP 50 OverflowError
    for op, f in UNARY.items():
        for dt in DTYPES:
            a = values(dt, 6, op).reshape(2, 3)
            case(lines, op, f, [a])
    for dt in ['float32', 'int32', 'int8', 'float64', 'bool', 'float16']:
        c = values('bool', 6).reshape(2, 3)
        case(lines, 'where', np.where, [c, values(dt, 3), values('float32', 2 * 3).reshape(2, 3)])
        case(lines, 'where', np.where, [values(dt, 6).reshape(3, 2), 1, 2.5])
        case(lines, 'clip', np.clip, [values(dt, 6).reshape(2, 3), values(dt, 3), values(dt, 1)])
        case(lines, 'clip', np.clip, [values(dt, 6).reshape(2, 3), -1, 2])
    k = 0
    for op, f in NEW_BINARY.items():  # every dtype pair NumPy accepts (all of them)
        for a_dt in DTYPES:
            for b_dt in DTYPES:
                sa, sb = NEW_SHAPES[k % len(NEW_SHAPES)]
                k += 1
                a = values(a_dt, int(np.prod(sa))).reshape(sa)
                b = values(b_dt, int(np.prod(sb))).reshape(sb)
                case(lines, op, f, [a, b])
        for dt in ['float32', 'int32', 'uint8', 'bool', 'float16', 'int64', 'float64']:
            a = values(dt, 4).reshape(2, 2)
            for s in [3, -2.5]:
                case(lines, op, f, [a, s])
                case(lines, op, f, [s, a])
        case(lines, op, f, [values('uint8', 3), 300])
    for op, f in NEW_UNARY.items():
        for dt in DTYPES:
            for shape in NEW_UNARY_SHAPES:
                a = values(dt, int(np.prod(shape))).reshape(shape)
                if np.dtype(dt).kind == 'f' and op != 'exp2':  # mostly inside the domain
                    a = np.abs(a) if rng.random() < 0.7 else a
                case(lines, op, f, [a])
    for op, f in NEW_BINARY.items():  # one float dtype and shape (the static front end's cases)
        for dt in ['float16', 'float32', 'float64']:
            for shape in [(3, 5), (17,)]:
                n = int(np.prod(shape))
                case(lines, op, f, [values(dt, n).reshape(shape), values(dt, n).reshape(shape)])
    k = 0
    for op, f in NEWER_BINARY.items():
        for a_dt in DTYPES:
            for b_dt in DTYPES:
                sa, sb = NEW_SHAPES[k % len(NEW_SHAPES)]
                k += 1
                a = values(a_dt, int(np.prod(sa))).reshape(sa)
                b = values(b_dt, int(np.prod(sb))).reshape(sb)
                case(lines, op, f, [a, b])
        for dt in ['float32', 'int32', 'uint8', 'bool', 'float16', 'int64', 'float64']:
            a = values(dt, 4).reshape(2, 2)
            for s in [3, -2.5]:
                case(lines, op, f, [a, s])
                case(lines, op, f, [s, a])
    for op, f in NEWER_UNARY.items():
        for dt in DTYPES:
            for shape in NEW_UNARY_SHAPES:
                case(lines, op, f, [values(dt, int(np.prod(shape))).reshape(shape)])
    with open(path, 'w') as fh:
        fh.write('\n'.join(lines) + '\n')


if __name__ == '__main__':
    write_promotion('promotion.txt')
    write_cases('cases.txt')
