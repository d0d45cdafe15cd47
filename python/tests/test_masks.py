"""Boolean-mask indexing: A[mask] reads the selected elements in C order
into a new 1-D array, A[mask] = v writes a scalar or one value per True
element (through views too), A[mask] op= v updates them; a mask of fewer
dimensions selects along its own (rows with A[mask], columns with
A[:, mask]), also next to integers and slices (A[0, mask], T[1:, mask]);
NumPy's IndexError for a mask of another shape and ValueError for the
wrong number of values."""
import re

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


@vrir.jit
def rows_where(A, T, m):
    # a mask over the leading dimensions selects rows (sub-arrays)
    return A[A[:, 0] > 0], A[A[:, 1] < 0, :], T[m], T[m[:, 0], ...], A[A[:, 0] > 9.0]


@vrir.jit
def write_rows(A, row):
    A[A[:, 0] > 0] = -1.0
    A[A[:, 2] < 0] = row  # one row for every selected one
    sel = A[:, 3] > 0.1
    A[sel] = A[sel] * 2.0 + 1.0  # one row each
    A[A[:, 4] < 0.0] += 3.0
    return A


def test_rows(layout2):
    T = RNG.random((4, 3, 2))
    m = RNG.random((4, 3)) > 0.4
    check(rows_where, layout2(M), T, m)
    check(rows_where, layout2(M), np.asfortranarray(T), m)
    check(write_rows, layout2(M), np.arange(6.0))


@vrir.jit
def columns_where(A, T, m, m2):
    # a mask after bare `:`s selects along its own dimensions
    return A[:, A[0, :] > 0], T[:, m], T[:, m, :], T[:, m2], T[..., m2[0, :]]


@vrir.jit
def write_columns(A, T, m, col, plane):
    A[:, A[0, :] > 0] = -1.0
    A[:, A[1, :] < 0] += 3.0
    sel = A[2, :] > 0.1
    A[:, sel] = A[:, sel] * 2.0 + col[:, None]  # one value each
    T[:, m] = plane  # the last dimension's values broadcast
    return A, T


def test_columns(layout2):
    T = RNG.random((2, 4, 3))
    m = np.array([True, False, True, True])
    m2 = RNG.random((4, 3)) > 0.4
    check(columns_where, layout2(M), T, m, m2)
    check(columns_where, layout2(M), np.asfortranarray(T), m, m2)
    check(write_columns, layout2(M), T, m, np.arange(5.0), np.arange(3.0))
    with pytest.raises(IndexError, match="boolean index did not match indexed array along axis 1"):
        columns_where(M, T, m[:3], m2)


@vrir.jit
def masks_next_to_indices(A, T, m, m3):
    # Integers and slices around a mask: an integer counts as an advanced
    # index, so a slice between it and the mask puts the selection first.
    return (A[0, A[0, :] > 0], A[A[:, 0] > 0, 1], A[-1, 1:][A[-1, 1:] > 0],
            T[0, :, m], T[:, 0, m], T[1:, m3, ::2], T[m[:2], :, 1], T[-1, m3],
            T[..., 1, m])


@vrir.jit
def write_next_to_indices(A, T, m, m3):
    A[0, A[0, :] > 0] = 7.0
    A[1:, A[1, :] < 0] += 1.0
    T[0, :, m] = -T[0, :, m]  # (count, 3): the selection's dimension first
    T[1:, m3, ::2] *= 2.0
    T[:, 0, m] = T[:, 1, m] * 0.5  # (2, count): the selection in place
    return A, T


def test_masks_next_to_indices(layout2):
    T = RNG.random((2, 3, 4)) - 0.5
    m = np.array([True, False, True, True])
    m3 = np.array([True, False, True])
    for t in (T, np.asfortranarray(T), T[:, ::-1, :].copy()[:, ::-1, :]):
        check(masks_next_to_indices, layout2(M), t, m, m3)
        check(write_next_to_indices, layout2(M), t, m, m3)
    with pytest.raises(IndexError, match="boolean index did not match indexed array along axis 2"):
        masks_next_to_indices(M, T, m[:3], m3)


def two_masks(A):
    return A[A[:, 0] > 0, A[0, :] > 0]


def rows_of_wrong_rank(A):
    A[A[:, 0] > 0] = np.ones((2, 2, 2))
    return A


def columns_of_wrong_rank(A):
    A[:, A[0, :] > 0] = np.ones(3)
    return A


@pytest.mark.parametrize("fn,message", [
    (two_masks, "only one boolean mask per subscript is supported"),
    (rows_of_wrong_rank, "A[mask] = values takes a scalar, 2-D values"),
    (columns_of_wrong_rank, "A[..., mask, ...] = values takes a scalar, values of the "
     "selection's 2 dimensions, or values of its last 0"),
])
def test_partial_mask_refused(fn, message):
    with pytest.raises(vrir.CompileError, match=re.escape(message)) as info:
        vrir.jit(fn)(M.copy())
    assert f"{__file__}:{fn.__code__.co_firstlineno + 1}" in str(info.value)


def test_row_mask_of_another_length():
    with pytest.raises(IndexError, match="boolean index did not match indexed array along axis 0"):
        rows_where(M, RNG.random((3, 3, 2)), np.ones((4, 3), bool))
