#!/usr/bin/python3
"""Generates the NumPy oracle for shade's dynamic reductions, matmul/dot/tensordot, shape ops and
indexing (tests/ndarray/test_dyn_reduce.cc, test_dyn_linalg.cc, test_dyn_shape_ops.cc,
test_dyn_indexing.cc). Run with Debian's /usr/bin/python3 from this directory:

    /usr/bin/python3 make_oracle.py

NEP 50 promotion (NumPy 2's rule, which shade follows) is switched on first with
np._set_promotion_state('weak') (Debian's NumPy is 1.24).

Format (plain text; values exact: integers in decimal, bool 0/1, floats as float.hex or
nan/inf/-inf; arrays as `DTYPE NDIM SHAPE... | values`):
  case OP key=value ...      one case; the keys are the op's parameters
  in DTYPE NDIM SHAPE | v..  an input array (in order)
  out DTYPE NDIM SHAPE | v.. an output array (several for split / nonzero)
  out error                  NumPy raised
  end
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'dyn'))
from oracle_format import arr_line as arr  # noqa: E402 - the shared array line

np._set_promotion_state('weak')

rng = np.random.default_rng(20261122)


def values(dt, shape, nan=False):
    dt = np.dtype(dt)
    n = int(np.prod(shape))
    if dt == np.bool_:
        v = rng.random(n) < 0.7
    elif dt.kind == 'f':
        v = rng.normal(0, 3, n)
        if nan and n > 2:
            v[rng.integers(0, n, 2)] = np.nan
        # ties for arg-extrema: repeat a few values
        if n > 4:
            v[n // 2] = v[1]
    else:
        info = np.iinfo(dt)
        lo, hi = max(info.min, -20), min(info.max, 20)
        v = rng.integers(lo, hi + 1, n)
    return np.asarray(v).astype(dt).reshape(shape)


def emit(lines, op, params, ins, f):
    lines.append('case ' + op + ''.join(f' {k}={v}' for k, v in params.items()))
    for a in ins:
        lines.append(arr('in', a))
    try:
        with np.errstate(all='ignore'):
            r = f(*ins)
        if isinstance(r, (list, tuple)):
            for x in r:
                lines.append(arr('out', x))
        else:
            lines.append(arr('out', np.asarray(r)))
    except Exception:  # noqa: BLE001 - NumPy's ValueError / TypeError / IndexError
        lines.append('out error')
    lines.append('end')


def axes_str(ax):
    if ax is None:
        return 'none'
    if isinstance(ax, int):
        return str(ax)
    return ','.join(str(x) for x in ax) if ax else 'empty'


def reductions():
    lines = []
    red = {'sum': np.sum, 'prod': np.prod, 'mean': np.mean, 'max': np.max, 'min': np.min,
           'all': np.all, 'any': np.any}
    shapes_axes = [((3, 4, 5), [None, 0, 1, 2, -1, (0, 2), (1, 2), (0, 1, 2), (), (2, 0)]),
                   ((7,), [None, 0]), ((), [None]), ((0, 3), [None, 0, 1]), ((2, 0, 3), [None, 1, (0, 2)])]
    dtypes = ['float32', 'float64', 'int32', 'int64', 'uint8', 'bool', 'float16', 'int8', 'uint64']
    for op, f in red.items():
        for dt in dtypes:
            if op == 'prod' and dt in ('float16',):
                continue
            for shape, axes in shapes_axes:
                a = values(dt, shape)
                if op == 'prod' and np.dtype(dt).kind == 'f':
                    a = (np.abs(a) % 2 + 0.5).astype(dt)
                for ax in axes:
                    for kd in ([0, 1] if ax in (1, (0, 2)) else [0]):
                        emit(lines, op, {'axes': axes_str(ax), 'keepdims': kd}, [a],
                             lambda x, ax=ax, kd=kd, f=f: f(x, axis=ax, keepdims=bool(kd)))
    for op, f in [('var', np.var), ('std', np.std)]:
        for dt in ['float32', 'float64', 'int32', 'uint8', 'bool', 'int64']:
            a = values(dt, (3, 4, 5))
            for ax in [None, 0, 2, (0, 2)]:
                for ddof in [0, 1]:
                    emit(lines, op, {'axes': axes_str(ax), 'keepdims': 0, 'ddof': ddof}, [a],
                         lambda x, ax=ax, ddof=ddof, f=f: f(x, axis=ax, ddof=ddof))
        emit(lines, op, {'axes': '0', 'keepdims': 1, 'ddof': 4}, [values('float64', (4, 3))],
             lambda x, f=f: f(x, axis=0, ddof=4, keepdims=True))
    for op, f in [('argmax', np.argmax), ('argmin', np.argmin)]:
        for dt in ['float32', 'float64', 'int32', 'uint8', 'bool', 'int64', 'float16', 'int8']:
            a = values(dt, (4, 6, 5))
            for ax in [None, 0, 1, 2, -2]:
                emit(lines, op, {'axes': axes_str(ax), 'keepdims': 0}, [a], lambda x, ax=ax, f=f: f(x, axis=ax))
            emit(lines, op, {'axes': '1', 'keepdims': 1}, [a], lambda x, f=f: f(x, axis=1, keepdims=True))
        emit(lines, op, {'axes': 'none', 'keepdims': 0}, [np.zeros((0, 3), 'float32')], lambda x, f=f: f(x))
        emit(lines, op, {'axes': '1', 'keepdims': 0}, [np.zeros((2, 0), 'float32')], lambda x, f=f: f(x, axis=1))
        emit(lines, op, {'axes': '0', 'keepdims': 0}, [np.zeros((3, 0), 'float32')], lambda x, f=f: f(x, axis=0))
    # NaN semantics: max/min/argmax/argmin propagate / pick the first NaN; sums give NaN.
    for dt in ['float32', 'float64']:
        a = values(dt, (4, 33), nan=True)
        for op, f in [('max', np.max), ('min', np.min), ('sum', np.sum)]:
            for ax in [None, 0, 1]:
                emit(lines, op, {'axes': axes_str(ax), 'keepdims': 0}, [a], lambda x, ax=ax, f=f: f(x, axis=ax))
        for op, f in [('argmax', np.argmax), ('argmin', np.argmin)]:
            for ax in [None, 0, 1]:
                emit(lines, op, {'axes': axes_str(ax), 'keepdims': 0}, [a], lambda x, ax=ax, f=f: f(x, axis=ax))
    # Errors: axis out of range, repeated axis, empty max.
    a = values('float32', (3, 4))
    for op, f in [('sum', np.sum), ('max', np.max), ('mean', np.mean)]:
        emit(lines, op, {'axes': '2', 'keepdims': 0}, [a], lambda x, f=f: f(x, axis=2))
        emit(lines, op, {'axes': '-3', 'keepdims': 0}, [a], lambda x, f=f: f(x, axis=-3))
        emit(lines, op, {'axes': '0,-2', 'keepdims': 0}, [a], lambda x, f=f: f(x, axis=(0, -2)))
    emit(lines, 'max', {'axes': '0', 'keepdims': 0}, [np.zeros((0, 3), 'float32')], lambda x: np.max(x, axis=0))
    emit(lines, 'min', {'axes': 'none', 'keepdims': 0}, [np.zeros((0,), 'int32')], lambda x: np.min(x))
    emit(lines, 'argmax', {'axes': '2', 'keepdims': 0}, [a], lambda x: np.argmax(x, axis=2))
    return lines


def linalg():
    lines = []
    shapes = [((3,), (3,)), ((3,), (3, 4)), ((2, 3), (3,)), ((2, 3), (3, 4)), ((5, 2, 3), (3, 4)),
              ((2, 3), (5, 3, 4)), ((2, 1, 2, 3), (3, 3, 4)), ((4,), (2, 4, 3)), ((2, 3, 4), (4,)),
              ((0, 3), (3, 4)), ((2, 0), (0, 3)), ((1, 1), (1, 1)), ((6, 7), (7, 5))]
    for dt in ['float32', 'float64', 'int32', 'int64', 'bool', 'float16', 'uint8']:
        for sa, sb in shapes:
            emit(lines, 'matmul', {}, [values(dt, sa), values(dt, sb)], np.matmul)
    for da, db in [('int32', 'float32'), ('uint8', 'int8'), ('float32', 'float64'), ('bool', 'int32')]:
        emit(lines, 'matmul', {}, [values(da, (2, 3)), values(db, (3, 2))], np.matmul)
    for sa, sb in [((2, 3), (4, 5)), ((3,), (4,)), ((2, 3, 4), (5, 4, 3)), ((), (3,)), ((2, 3), ()),
                   ((3,), (4, 2))]:
        emit(lines, 'matmul', {}, [values('float32', sa), values('float32', sb)], np.matmul)
    for sa, sb in [((3,), (3,)), ((2, 3), (3, 4)), ((2, 3, 4), (4,)), ((2, 3, 4), (5, 4, 2)), ((), (2, 2)),
                   ((2, 2), ()), ((3,), (3, 2)), ((2, 3), (2, 3))]:
        for dt in ['float64', 'int64']:
            emit(lines, 'dot', {}, [values(dt, sa), values(dt, sb)], np.dot)
    for sa, sb, axes in [((3, 4, 5), (4, 5, 2), '2'), ((3, 4, 5), (5, 4, 2), '1,2;1,0'),
                         ((3, 4), (4, 3), '1'), ((2, 3), (4, 5), '0'), ((3, 4, 5), (3, 4, 5), '3'),
                         ((3, 4), (5, 3), '0;1'), ((3, 4), (4, 3), '1;1')]:
        if ';' in axes:
            a_ax, b_ax = [[int(x) for x in part.split(',')] for part in axes.split(';')]
            f = (lambda x, y, a_ax=a_ax, b_ax=b_ax: np.tensordot(x, y, axes=(a_ax, b_ax)))
        else:
            f = (lambda x, y, n=int(axes): np.tensordot(x, y, axes=n))
        for dt in ['float32', 'int32']:
            emit(lines, 'tensordot', {'axes': axes}, [values(dt, sa), values(dt, sb)], f)
    return lines


def shape_ops():
    lines = []
    for dt_a, dt_b in [('float32', 'float32'), ('int32', 'float32'), ('uint8', 'int8'), ('bool', 'int64')]:
        a, b = values(dt_a, (2, 3)), values(dt_b, (2, 2))
        emit(lines, 'cat', {'axis': 1}, [a, b], lambda x, y: np.concatenate([x, y], axis=1))
        emit(lines, 'cat', {'axis': 0}, [a, values(dt_b, (1, 3))], lambda x, y: np.concatenate([x, y], axis=0))
        emit(lines, 'stack', {'axis': -1}, [a, values(dt_b, (2, 3))], lambda x, y: np.stack([x, y], axis=-1))
        emit(lines, 'stack', {'axis': 0}, [a, values(dt_b, (2, 3))], lambda x, y: np.stack([x, y], axis=0))
    emit(lines, 'cat', {'axis': 0}, [values('float32', (2, 3)), values('float32', (2, 2))],
         lambda x, y: np.concatenate([x, y], axis=0))
    emit(lines, 'stack', {'axis': 0}, [values('float32', (2, 3)), values('float32', (3, 2))],
         lambda x, y: np.stack([x, y], axis=0))
    a = values('int32', (4, 6))
    emit(lines, 'split', {'sections': 3, 'axis': 1}, [a], lambda x: np.split(x, 3, axis=1))
    emit(lines, 'split', {'sections': 4, 'axis': 1}, [a], lambda x: np.split(x, 4, axis=1))
    emit(lines, 'array_split', {'sections': 4, 'axis': 1}, [a], lambda x: np.array_split(x, 4, axis=1))
    emit(lines, 'split_at', {'indices': '1,3,10', 'axis': 1}, [a], lambda x: np.split(x, [1, 3, 10], axis=1))
    emit(lines, 'split_at', {'indices': '-2,2', 'axis': 0}, [a], lambda x: np.split(x, [-2, 2], axis=0))
    b = values('float64', (3, 4, 5))
    for axes in ['all', '0', '1,2', '-1']:
        ax = None if axes == 'all' else tuple(int(x) for x in axes.split(','))
        emit(lines, 'flip', {'axes': axes}, [b], lambda x, ax=ax: np.flip(x, axis=ax))
    for shift, axes in [(2, 'none'), (-7, 'none'), (1, '0'), (6, '2'), (-1, '-1'), (0, '1')]:
        ax = None if axes == 'none' else int(axes)
        emit(lines, 'roll', {'shift': shift, 'axes': axes}, [b], lambda x, s=shift, ax=ax: np.roll(x, s, axis=ax))
    emit(lines, 'roll2', {'shifts': '1,2', 'axes': '0,2'}, [b], lambda x: np.roll(x, (1, 2), axis=(0, 2)))
    c = values('int16', (2, 3))
    for reps in ['2', '2,1', '1,2,2', '0,3', '3,1,1']:
        r = tuple(int(x) for x in reps.split(','))
        emit(lines, 'tile', {'reps': reps}, [c], lambda x, r=r: np.tile(x, r))
    for rep, axes in [('2', 'none'), ('3', '0'), ('2', '1'), ('1,0,2', '1'), ('2,1', '0')]:
        r = [int(x) for x in rep.split(',')]
        ax = None if axes == 'none' else int(axes)
        emit(lines, 'repeat', {'repeats': rep, 'axis': axes}, [c],
             lambda x, r=r, ax=ax: np.repeat(x, r if len(r) > 1 else r[0], axis=ax))
    for src, dst in [('float64', 'int32'), ('float32', 'uint8'), ('int32', 'float16'), ('float64', 'bool'),
                     ('int64', 'int8'), ('bool', 'float32'), ('float16', 'float64')]:
        x = values(src, (2, 5))
        if np.dtype(dst).kind in 'iu' and np.dtype(src).kind == 'f':
            x = np.abs(x).astype(src)  # in range for unsigned targets: the cast is defined
        if dst == 'bool' and x.size > 3:
            x.reshape(-1)[2] = 0
            x.reshape(-1)[3] = 1e-300
        emit(lines, 'astype', {'dtype': dst}, [x], lambda v, dst=dst: v.astype(dst))
    # Every dtype into bool (copy_ and astype): nonzero is true in the source type, so tiny
    # values, denormals and NaN are true and -0.0 false. Fixed values (no rng: the other files
    # keep their inputs).
    for src in ['float64', 'float32', 'float16', 'int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32',
                'int64', 'uint64', 'bool']:
        dt = np.dtype(src)
        if dt.kind == 'f':
            tiny = np.finfo(dt).smallest_subnormal
            v = [0.0, -0.0, 1e-300, -1e-310, 5e-324, tiny, -tiny, np.nan, np.inf, -np.inf, 0.5, 1e-45]
        elif dt.kind in 'iu':
            info = np.iinfo(dt)
            v = [0, 1, info.max, info.min, 0, 2, 256 % (int(info.max) + 1), 0, info.max - 1, 1, 0, 3]
        else:
            v = [0, 1] * 6
        with np.errstate(all='ignore'):
            x = np.array(v, dtype=object if dt.kind in 'iu' else None).astype(src).reshape(2, 6)
        for op in ['copy_', 'astype']:
            emit(lines, op, {'dtype': 'bool'}, [x], lambda a: a.astype('bool'))
    return lines


def indexing():
    lines = []
    a = values('float32', (4, 5, 3))
    for idx, axis in [([0, 3, -1, 2, 2], 0), ([[1, 0], [4, -5]], 1), ([2], 2), ([], 1)]:
        emit(lines, 'take', {'axis': axis}, [a, np.array(idx, dtype='int64').reshape(np.shape(idx))],
             lambda x, i, axis=axis: np.take(x, i, axis=axis))
    emit(lines, 'take', {'axis': 0}, [a, np.array([4], 'int32')], lambda x, i: np.take(x, i, axis=0))
    emit(lines, 'take', {'axis': 1}, [a, np.array([-6], 'int64')], lambda x, i: np.take(x, i, axis=1))
    emit(lines, 'take_flat', {}, [a, np.array([[0, 59], [-1, 7]], 'int64')], lambda x, i: np.take(x, i))
    b = values('int32', (4, 5))
    m = values('bool', (4, 5))
    emit(lines, 'index', {}, [b, m], lambda x, mm: x[mm])
    emit(lines, 'index', {}, [a, m], lambda x, mm: x[mm])
    emit(lines, 'index', {}, [a, values('bool', (4,))], lambda x, mm: x[mm])
    emit(lines, 'index', {}, [b, np.array([0, 3, -1], 'int64'), np.array([1, 4, 0], 'int32')],
         lambda x, i, j: x[i, j])
    emit(lines, 'index', {}, [a, np.array([[0], [3]], 'int64'), np.array([1, 4, 0], 'int64')],
         lambda x, i, j: x[i, j])
    emit(lines, 'index', {}, [a, np.array([1, 2], 'uint8')], lambda x, i: x[i])
    emit(lines, 'index', {}, [b, np.array([0, 4], 'int64')], lambda x, i: x[i])
    emit(lines, 'index', {}, [b, np.array([0, 1], 'int64'), np.array([0, 1, 2], 'int64')], lambda x, i, j: x[i, j])
    emit(lines, 'index', {}, [b, values('bool', (3, 5))], lambda x, mm: x[mm])
    emit(lines, 'nonzero', {}, [b], lambda x: np.nonzero(x))

    def put(x, v, *idx):
        y = x.copy()
        y[tuple(idx)] = v
        return y

    def add_at(x, v, *idx):
        y = x.copy()
        np.add.at(y, tuple(idx), v)
        return y

    emit(lines, 'index_put', {'accumulate': 0}, [b, np.array(7, 'int32'), m], put)
    emit(lines, 'index_put', {'accumulate': 0}, [b, values('int32', (3,)), np.array([0, 3, 1], 'int64'),
                                                 np.array([1, 4, 0], 'int64')], put)
    emit(lines, 'index_put', {'accumulate': 0}, [a, values('float32', (2, 1, 3)), np.array([0, 2], 'int64')], put)
    emit(lines, 'index_put', {'accumulate': 1}, [b, values('int32', (4,)), np.array([0, 2, 0, 0], 'int64'),
                                                 np.array([1, 1, 1, 3], 'int64')], add_at)
    emit(lines, 'index_put', {'accumulate': 1}, [a, values('float32', (3, 5, 3)), np.array([1, 1, 3], 'int64')],
         add_at)
    emit(lines, 'index_put', {'accumulate': 0}, [b, values('int32', (2,)), np.array([0, 3, 1], 'int64')], put)
    emit(lines, 'index_put', {'accumulate': 0}, [b, values('int32', (1,)), np.array([9], 'int64')], put)
    return lines


if __name__ == '__main__':
    for name, gen in [('reduce.txt', reductions), ('linalg.txt', linalg), ('shape_ops.txt', shape_ops),
                      ('indexing.txt', indexing)]:
        with open(name, 'w') as fh:
            fh.write('\n'.join(gen()) + '\n')
