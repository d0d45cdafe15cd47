"""np.argmax/argmin and np.cumsum/cumprod (functions and methods) over the
flattened array, written as Python loops the frontend compiles in place:
NumPy's results and dtypes on every layout, NaN first-wins for argmax and
argmin, NumPy's ValueError for an empty array (an axis of an N-D array:
test_axis_functions.py)."""
import numpy as np
import pytest

import vrir

from helpers import check

RNG = np.random.default_rng(13)
M = RNG.random((6, 5)) - 0.5
V = RNG.random(11) - 0.5


@vrir.jit
def extremes(A):
    return np.argmax(A), np.argmin(A), A.argmax(), A.argmin(axis=None)


@vrir.jit
def running(A):
    return np.cumsum(A), A.cumprod(), np.cumsum(A > 0.0)


@vrir.jit
def vector_axis(a):
    return np.argmax(a, axis=0), np.cumsum(a, axis=-1)


def test_matrices(layout2):
    check(extremes, layout2(M))
    check(running, layout2(M))


def test_vectors(layout1):
    check(extremes, layout1(V))
    check(vector_axis, layout1(V))


def test_integers_and_nan():
    check(extremes, (M * 10).astype(np.int64))
    check(running, (M * 10).astype(np.int32))
    check(extremes, np.array([1.0, np.nan, 3.0, np.nan]))
    check(extremes, np.array([np.nan, 2.0]))
    check(extremes, np.array([2, 7, 7, -1, -1]))


def test_empty():
    with pytest.raises(ValueError, match="attempt to get argmax of an empty sequence"):
        extremes(np.zeros(0))
    assert running(np.zeros((0, 3)))[0].shape == (0,)
