"""NumPy reductions with a tuple `axis` and `keepdims` (functions and
methods), against NumPy on every layout, with NumPy's result dtypes and
shapes; bad axes are CompileErrors."""
import numpy as np
import pytest

import vrir

from helpers import check

RNG = np.random.default_rng(9)
T = RNG.random((3, 4, 5)) - 0.5
M = RNG.random((6, 7)) - 0.5


@vrir.jit
def tuple_axes(A):
    return (A.sum(axis=(1, 2)), np.max(A, axis=(0, 2)), A.mean(axis=(2, 0)),
            np.prod(A, axis=(0, 1, 2)), np.min(A, (0,)))


@vrir.jit
def keepdims(A):
    return (np.sum(A, axis=1, keepdims=True), A.max(axis=(0, 2), keepdims=True),
            np.mean(A, keepdims=True), A.min(keepdims=True),
            (A > 0).sum(axis=(2,), keepdims=True))


@vrir.jit
def keepdims_2d(A):
    # Broadcasting against the kept axes, the usual reason for keepdims.
    centered = A - A.mean(axis=1, keepdims=True)
    return centered / np.abs(centered).max(axis=0, keepdims=True)


@vrir.jit
def integer_mean(A):
    return A.mean(axis=(0, 1)), np.sum(A, axis=(1,), keepdims=True)


def strided3(a):
    big = np.zeros((a.shape[0] * 2, a.shape[1], a.shape[2] * 3), a.dtype)
    view = big[::2, :, ::3]
    view[...] = a
    return view


@pytest.mark.parametrize("make", [np.ascontiguousarray, np.asfortranarray, strided3])
def test_tuple_axes_and_keepdims(make):
    check(tuple_axes, make(T))
    check(keepdims, make(T))


def test_keepdims_broadcasting(layout2):
    check(keepdims_2d, layout2(M))


def test_integer_arrays():
    check(integer_mean, (T * 100).astype(np.int64))


def repeated_axis(A):
    return A.sum(axis=(1, 1))


def axis_out_of_range(A):
    return A.sum(axis=(0, 3))


def keepdims_not_constant(A, k):
    return A.sum(axis=0, keepdims=k)


@pytest.mark.parametrize("fn,args,message", [
    (repeated_axis, (T,), "duplicate value in 'axis'"),
    (axis_out_of_range, (T,), "axis 3 is out of bounds for a 3-dimensional array"),
    (keepdims_not_constant, (T, True), "keepdims must be a constant True or False"),
])
def test_refused(fn, args, message):
    with pytest.raises(vrir.CompileError, match=message):
        vrir.jit(fn)(*args)
