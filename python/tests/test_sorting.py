"""Sorting and searching (frontend/sorting.py) against NumPy on every
layout: np.sort, np.argsort (stable), A.sort(), A.argsort(), with ties, NaN,
bool and integer arrays and empty arrays; CompileErrors naming the line for
what is refused."""
import numpy as np
import pytest

import vrir

from helpers import assert_same, check

RNG = np.random.default_rng(41)
DTYPES = [np.float64, np.float32, np.int64, np.int32, np.bool_]


def data(shape, dt, nan=True):
    a = RNG.integers(0, 6, shape).astype(dt)
    if np.issubdtype(dt, np.floating):
        a = a + RNG.random(shape).astype(dt) * (RNG.random(shape) < 0.5)
        if nan and a.size:
            a.reshape(-1)[RNG.choice(a.size, max(1, a.size // 8), replace=False)] = np.nan
    return a


def assert_nan_equal(got, want):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            assert_nan_equal(g, w)
        return
    if isinstance(want, np.ndarray):
        assert isinstance(got, np.ndarray)
        assert got.shape == want.shape and got.dtype == want.dtype, \
            (got.shape, want.shape, got.dtype, want.dtype)
    else:
        assert np.asarray(got).dtype == np.asarray(want).dtype, (type(got), type(want))
    np.testing.assert_array_equal(got, want)


def compare(jf, *args):
    a2 = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    got = jf(*args)
    want = jf.py_func(*a2)
    assert_nan_equal(got, want)
    for x, y in zip(args, a2):
        if isinstance(x, np.ndarray):
            np.testing.assert_array_equal(x, y)
    return got


# ------------------------------------------------------------ sort, argsort
@vrir.jit
def sorts1(a):
    return (np.sort(a), np.sort(a, axis=None), np.sort(a, 0), np.argsort(a, kind="stable"),
            np.argsort(a, axis=None, kind="stable"), a.argsort(kind="stable"))


@vrir.jit
def sorts2(a):
    return (np.sort(a), np.sort(a, axis=0), np.sort(a, axis=None), np.sort(a, -2),
            np.argsort(a, kind="stable"), np.argsort(a, axis=0, kind="stable"),
            np.argsort(a, axis=None, kind="stable"), a.argsort(axis=0, kind="stable"))


@vrir.jit
def sorts3(a):
    return (np.sort(a), np.sort(a, axis=1), np.sort(a, axis=0), np.sort(a, axis=None),
            np.argsort(a, axis=1, kind="stable"), np.argsort(a, axis=0, kind="stable"))


@vrir.jit
def sort_method(a):
    a.sort(axis=0)


@vrir.jit
def sort_method_last(a):
    a.sort(-1)


@vrir.jit
def sort_method_default(a):
    a.sort()


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("n", [0, 1, 5, 17, 100])
def test_sort_1d(layout1, dt, n):
    compare(sorts1, layout1(data(n, dt)))


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (6, 5), (33, 4)])
def test_sort_2d(layout2, dt, shape):
    compare(sorts2, layout2(data(shape, dt)))


@pytest.mark.parametrize("dt", [np.float64, np.int32])
def test_sort_3d(dt):
    a = data((4, 5, 6), dt)
    compare(sorts3, a)
    compare(sorts3, np.asfortranarray(a))
    compare(sorts3, a[::-1, ::2, 1:])


@pytest.mark.parametrize("dt", DTYPES)
def test_sort_method(layout2, dt):
    a = data((9, 7), dt)
    compare(sort_method, layout2(a))
    compare(sort_method_last, layout2(a))
    compare(sort_method_default, layout2(a))


def test_sort_method_views():
    a = data(40, np.float64)
    b = a.copy()
    compare(sort_method, b[::3])
    compare(sort_method, b[::-1])
    c = a.copy()
    sort_method(c[::-1])
    np.testing.assert_array_equal(c[::-1], np.sort(a[::-1]))


def test_sort_ties_stable():
    a = RNG.integers(0, 3, 1000).astype(np.float64)
    got = sorts1(a)
    np.testing.assert_array_equal(got[3], np.argsort(a, kind="stable"))


def test_sort_large():
    a = RNG.random(100003)
    a[::1001] = np.nan
    compare(sorts1, a)
    compare(sorts1, -a)


@vrir.jit
def sort_complex(a):
    return np.sort(a)


@vrir.jit
def sort_bad_axis(a):
    return np.sort(a, axis=2)


@vrir.jit
def sort_bad_kw(a):
    return np.argsort(a, order="x")


@vrir.jit
def sort_scalar(x):
    return np.sort(x)


def test_sort_refused():
    with pytest.raises(vrir.CompileError, match=r"test_sorting.py:\d+: np.sort of a complex"):
        sort_complex(np.zeros(3, complex))
    with pytest.raises(vrir.CompileError, match=r"test_sorting.py:\d+: .*axis 2 is out of bounds"):
        sort_bad_axis(np.zeros((3, 2)))
    with pytest.raises(vrir.CompileError, match="keyword argument 'order'"):
        sort_bad_kw(np.zeros(3))
    with pytest.raises(vrir.CompileError, match="needs an array"):
        sort_scalar(1.5)
