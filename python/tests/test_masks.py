"""Boolean-mask indexing: A[mask] reads the selected elements in C order
into a new 1-D array, A[mask] = v writes a scalar or one value per True
element (through views too), A[mask] op= v updates them; NumPy's
IndexError for a mask of another shape and ValueError for the wrong
number of values."""
import numpy as np
import pytest

import vrir

from helpers import check

RNG = np.random.default_rng(23)
M = RNG.random((5, 6)) - 0.5
V = RNG.random(9) - 0.5


@vrir.jit
def select(A):
    return A[A > 0.1], A[(A < 0) & (A > -0.2)].sum(), A[A > 10.0]


@vrir.jit
def power_of_positives(x):
    # From a real n-body kernel: x[x > 0] = x[x > 0] ** -1.5
    x[x > 0] = x[x > 0] ** -1.5
    return x


@vrir.jit
def clamp_and_bump(A):
    A[A < 0] = 0.0
    A[A > 0.3] += 1.0
    return A


@vrir.jit
def integer_mask(k):
    k[k % 2 == 0] = -k[k % 2 == 0]
    return k, k[k < 0]


def test_read(layout2):
    check(select, layout2(M))


def test_write(layout1, layout2):
    check(power_of_positives, layout1(V))
    check(clamp_and_bump, layout2(M))
    check(integer_mask, np.arange(-4, 9))


def test_shapes_must_match():
    @vrir.jit
    def other_mask(A, B):
        return A[B > 0]
    with pytest.raises(IndexError, match="boolean index did not match indexed array along axis 1"):
        other_mask(M, M[:, :3])

    @vrir.jit
    def wrong_count(x):
        x[x > 0] = np.ones(2)
        return x
    with pytest.raises(ValueError, match="boolean array indexing assignment"):
        wrong_count(V.copy())


def partial_mask(A):
    return A[A[:, 0] > 0]


def test_partial_mask_refused():
    with pytest.raises(vrir.CompileError, match="mask of A's number of dimensions"):
        vrir.jit(partial_mask)(M)
