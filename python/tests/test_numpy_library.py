"""np.outer, np.var/np.std (axis, ddof, keepdims) and np.concatenate /
np.stack (axis, tuples and lists, dtype promotion), against NumPy on every
layout; shapes that do not fit raise NumPy's ValueError."""
import numpy as np
import pytest

import vrir

from helpers import check

RNG = np.random.default_rng(17)
A = RNG.random((5, 4)) - 0.5
B = RNG.random((3, 4)) - 0.5
V = RNG.random(6)


@vrir.jit
def outer(a, b):
    return np.outer(a, b)


@vrir.jit
def spread(A):
    return (np.var(A), np.std(A, axis=0), np.var(A, axis=(0, 1), ddof=1),
            np.std(A, axis=1, keepdims=True), np.var(A, 1, ddof=2))


@vrir.jit
def joined(A, B):
    return (np.concatenate((A, B)), np.concatenate([A, B], axis=0),
            np.concatenate((A.T, B.T, A.T), axis=1), np.concatenate((A, B), axis=-2))


@vrir.jit
def stacked(A):
    return np.stack((A, A)), np.stack([A, 2 * A], axis=2), np.stack((A[0], A[1]), axis=-1)


@vrir.jit
def mixed_dtypes(a, k):
    return np.concatenate((a, k)), np.stack((k, k))


def test_outer(layout1, layout2):
    check(outer, layout1(V), layout2(A))


def test_variance(layout2):
    check(spread, layout2(A))
    check(spread, (A * 100).astype(np.int64))


def test_concatenate_and_stack(layout2):
    check(joined, layout2(A), B)
    check(stacked, layout2(A))
    check(mixed_dtypes, V, np.arange(3))


def test_shapes_must_fit():
    with pytest.raises(ValueError, match="except for the concatenation axis"):
        joined(A, B[:, :3])
    with pytest.raises(ValueError, match="same shape"):
        vrir.jit(stack_mismatch)(A, A[:4])


def stack_mismatch(A, B):
    return np.stack((A, B))


def concatenate_ranks(a, A):
    return np.concatenate((a, A))


def concatenate_names(A, B):
    arrays = (A, B)
    return np.concatenate(arrays)


@pytest.mark.parametrize("fn,message", [
    (concatenate_ranks, "same number of dimensions"),
    (concatenate_names, "tuple or list of arrays written out"),
])
def test_refused(fn, message):
    with pytest.raises(vrir.CompileError, match=message):
        vrir.jit(fn)(A[0], A) if fn is concatenate_ranks else vrir.jit(fn)(A, B)
