"""Soundness of bounds-check elimination (vrir-bounds-check-elim): every
kernel here has inputs that index out of bounds. With the checks the
compiler removes, it must still raise IndexError there, and give NumPy's
result (the same as with every check kept) everywhere else."""
import numpy as np
import pytest

import vrir


def off_by_one(x):
    s = 0.0
    for i in range(len(x) + 1):  # one past the end
        s += x[i]
    return s


def bounded_by(x, n):
    for i in range(n):
        x[i] = 2.0 * i
    return x


def backwards(x, start):
    s = 0.0
    for i in range(start, -1, -1):
        s += x[i]
    return s


def triangle(A, extra):
    s = 0.0
    n = A.shape[0]
    for i in range(n):
        for j in range(i + 1 + extra):  # extra = 1 overruns on the last row
            s += A[i, j]
    return s


def shifted(x, k):
    s = 0.0
    for i in range(len(x)):
        s += x[i + k]
    return s


def shifted_range(x, k):
    s = 0.0
    for i in range(len(x) - k):
        s += x[i + k]
    return s


def copy_over(a, b):
    for i in range(len(a)):  # the extent of a, indexing b
        b[i] = a[i]
    return b


def strided(x, stop):
    s = 0.0
    for i in range(0, stop, 3):
        s += x[i]
    return s


def guarded(x, n):
    s = 0.0
    for i in range(n):
        if i < len(x):
            s += x[i]
    return s


def periodic(x):
    y = np.empty_like(x)
    for i in range(len(x)):
        y[i] = x[i - 1]  # x[-1] is the last element
    return y


def wrapped(x, m):
    s = 0.0
    for i in range(len(x)):
        s += x[(i + 1) % m]  # in bounds for 0 < m <= len(x)
    return s


def parallel(x, y):
    for i in vrir.prange(len(x)):
        y[i] = x[i] + 1.0
    return y


def lu(A):
    n = A.shape[0]
    for k in range(n):
        for i in range(k + 1, n):
            A[i, k] /= A[k, k]
            for j in range(k + 1, n):
                A[i, j] -= A[i, k] * A[k, j]
    return A


v = np.arange(10.0)
M = np.arange(16.0).reshape(4, 4)

# (kernel, arguments that stay in bounds, arguments that do not)
CASES = [
    (off_by_one, None, (v,)),
    (bounded_by, (v.copy(), 10), (v.copy(), 11)),
    (backwards, (v, 9), (v, 10)),
    (triangle, (M, 0), (M, 1)),
    (shifted, (v, 0), (v, 1)),
    (shifted, (v, -10), (v, -11)),
    (shifted_range, (v, 3), (v, -11)),
    (copy_over, (v, np.zeros(10)), (v, np.zeros(9))),
    (strided, (v, 10), (np.arange(9.0), 10)),
    (guarded, (v, 20), None),
    (periodic, (v,), None),
    (wrapped, (v, 10), (v, 11)),
    (wrapped, (v, -10), (v, -12)),  # (i + 1) % -12 reaches -11
    (parallel, (v, np.zeros(10)), (v, np.zeros(9))),
    (lu, (M + 10 * np.eye(4),), (np.ones((4, 3)) + np.eye(4, 3),)),
]


def copies(args):
    return tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args)


@pytest.mark.parametrize("fn,good,bad", CASES,
                         ids=[f"{c[0].__name__}-{k}" for k, c in enumerate(CASES)])
def test_checks_removed_only_where_they_cannot_fail(fn, good, bad):
    proven = vrir.jit(fn)
    kept = vrir.jit(eliminate_checks=False)(fn)
    if good is not None:
        want = fn(*copies(good))
        got = proven(*copies(good))
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(kept(*copies(good)), want)
    if bad is not None:
        with pytest.raises(IndexError):
            kept(*copies(bad))
        with pytest.raises(IndexError):
            proven(*copies(bad))


def test_stats_count_every_check():
    f = vrir.jit(lu)
    f(M + 10 * np.eye(4))
    (key, stats), = f.stats().items()
    assert key[0] == "cpu"
    assert stats["checks"] == (stats["proven"] + stats["repeated"] + stats["hoisted"] +
                               stats["kept"])
    # 7 accesses, 2 indices, 2 bounds: everything but the column bound is
    # proven; it is checked once per row in the i loop (A[i, k], repeated
    # by A[k, k], the store and A[i, k] again) and once per row before the
    # j loop (A[i, j], repeated by A[k, j] and the store).
    assert stats == dict(stats, checks=28, proven=21, repeated=5, hoisted=1, kept=1)
    assert stats["compile_seconds"] > 0
    kept = vrir.jit(eliminate_checks=False)(lu)
    kept(M + 10 * np.eye(4))
    (stats,) = kept.stats().values()
    assert stats["checks"] == 0  # the passes did not run
