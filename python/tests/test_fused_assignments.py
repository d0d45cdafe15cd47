"""Slice assignments of element-wise expressions (`C[i, :k] += x * A[:k, j]`)
write straight into the slice (vrir-fuse-elementwise's store_map), and
still follow NumPy where the expression reads the memory it writes: the
whole value is computed first. Also plain slice copies between views that
overlap, passed in from Python as separate arguments."""
import numpy as np
import pytest

import vrir

from helpers import check

RNG = np.random.default_rng(5)


@vrir.jit
def syrk(alpha, beta, C, A):
    n = C.shape[0]
    for i in range(n):
        C[i, :i + 1] *= beta
        for k in range(A.shape[1]):
            C[i, :i + 1] += alpha * A[i, k] * A[:i + 1, k]
    return C


def test_syrk(layout2):
    check(syrk, 1.5, 1.2, layout2(RNG.random((20, 20))), layout2(RNG.random((20, 15))))


@vrir.jit
def shifted(A, s):
    A[1:] = A[:-1] * s + 1.0     # reads what it writes, shifted
    return A


@vrir.jit
def shifted_back(A, s):
    A[:-1] = A[1:] * s + 1.0
    return A


@vrir.jit
def reversed_update(A):
    A[:] = A[::-1] + A           # the same memory, another order
    return A


@vrir.jit
def interleaved(A):
    A[::2] = A[1::2] * 2.0       # overlapping range, disjoint elements
    return A


def test_overlapping_expressions(layout1):
    for f in (shifted, shifted_back):
        check(f, layout1(np.arange(12.0)), 2.0)
    check(reversed_update, layout1(np.arange(12.0)))
    check(interleaved, layout1(np.arange(12.0)))


@vrir.jit
def assign_expression(A, B, s):
    A[:] = B * s
    return A


@vrir.jit
def assign_copy(A, B):
    A[:] = B
    return A


def test_overlapping_arguments():
    # Two views of one buffer, passed as separate arguments: the value must
    # still be read before it is written (VRIR compared base pointers, which
    # differ for two views, and smeared X[0] over the whole array).
    for f, extra in ((assign_expression, (3.0,)), (assign_copy, ())):
        for dst, src in ((slice(1, None), slice(None, -1)),
                         (slice(None, -1), slice(1, None))):
            X = np.arange(10.0)
            want = X.copy()
            want[dst] = want[src] * extra[0] if extra else want[src]
            f(X[dst], X[src], *extra)
            np.testing.assert_array_equal(X, want)


@vrir.jit
def broadcast_rows(A, v, w):
    A[1:3, :] = v * 2.0 + w
    return A


def test_broadcast_into_slice(layout2):
    A = layout2(RNG.random((5, 4)))
    check(broadcast_rows, A, RNG.random(4), RNG.random((2, 1)))
    check(broadcast_rows, A, RNG.random(1), 0.5)
    with pytest.raises(ValueError, match="could not broadcast"):
        broadcast_rows(A, RNG.random(3), 0.5)


@vrir.jit
def out_of_bounds_row(A, i, v):
    A[i, :] = v + 1.0
    return A


def test_bad_index_raises():
    A = np.zeros((3, 4))
    check(out_of_bounds_row, A, 2, RNG.random(4))
    with pytest.raises(IndexError):
        out_of_bounds_row(A, 3, RNG.random(4))


@vrir.jit
def prange_rows(A, B):
    for i in vrir.prange(A.shape[0]):
        A[i, :] = B[i, :] * 2.0 + A[i, :]
    return A


def test_in_parallel_loops(layout2):
    check(prange_rows, layout2(RNG.random((16, 9))), layout2(RNG.random((16, 9))))
