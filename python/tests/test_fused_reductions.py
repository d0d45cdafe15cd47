"""Whole-array reductions of element-wise expressions (np.dot of slices,
np.sum(a * b), .max() of a difference) compile to one loop that stores no
element (vrir-fuse-elementwise's reducing maps): results, broadcasting and
errors as NumPy's, on every layout."""
import numpy as np
import pytest

import vrir

from helpers import check

RNG = np.random.default_rng(11)


@vrir.jit
def cholesky(A):
    n = A.shape[0]
    for i in range(n):
        for j in range(i):
            A[i, j] -= np.dot(A[i, :j], A[j, :j])
            A[i, j] /= A[j, j]
        A[i, i] -= np.dot(A[i, :i], A[i, :i])
        A[i, i] = np.sqrt(A[i, i])
    return A


def test_cholesky_with_dots_of_slices():
    # Its own generator: the module's depends on which tests ran before in
    # this process (pytest-xdist), and some draws give elements made by
    # cancellation, which agree with LAPACK's to 1e-15 absolute, not 1e-12
    # relative.
    M = np.random.default_rng(12).random((40, 40))
    A = M @ M.T + 40 * np.eye(40)
    L = np.tril(cholesky(A.copy()))
    np.testing.assert_allclose(L, np.linalg.cholesky(A), rtol=1e-12, atol=1e-14)


@vrir.jit
def reductions(a, b, s):
    return (np.sum(a * b), np.dot(a, b), (a - b).max(), np.min(a * s + b),
            np.prod(a + 1.0), (a * b).sum(axis=0) + 0.0)


def test_reductions_of_expressions(layout1):
    a, b = layout1(RNG.random(37)), layout1(RNG.random(37))
    check(reductions, a, b, 0.5)


@vrir.jit
def broadcast_sum(A, v):
    return np.sum(A * v) + (A - v).min()


def test_broadcasting_reductions(layout2):
    A = layout2(RNG.random((9, 7)))
    check(broadcast_sum, A, RNG.random(7))
    check(broadcast_sum, A, RNG.random(1))
    with pytest.raises(ValueError, match="could not be broadcast"):
        broadcast_sum(A, RNG.random(6))


@vrir.jit
def int_dot(x, y):
    return np.dot(x[1:], y[:-1]), np.sum(x * y), np.max(x - y)


def test_integer_reductions():
    x = RNG.integers(-100, 100, 50)
    y = RNG.integers(-100, 100, 50)
    check(int_dot, x, y)


@vrir.jit
def empty_max(a, k):
    return (a[:k] * 2.0).max()


def test_max_of_nothing_raises():
    a = RNG.random(10)
    assert empty_max(a, 3) == (a[:3] * 2.0).max()
    with pytest.raises(ValueError, match="zero-size array"):
        empty_max(a, 0)


@vrir.jit
def unused_dot(a, b):
    d = np.dot(a, b)
    return 1.0


def test_unused_reduction_still_checks_shapes():
    assert unused_dot(np.ones(3), np.ones(3)) == 1.0
    with pytest.raises(ValueError):
        unused_dot(np.ones(3), np.ones(4))
