"""`raise` of the built-in exceptions and `assert` in compiled code: the
same exception and message as Python, at function level (the rest of the
block is dead), in loops, and in a prange (raised after the loop); shape
tuples compared with == and !=; CompileErrors for what is not supported."""
import numpy as np
import pytest

import vrir

from helpers import check


@vrir.jit
def checked_sqrt(x):
    if x > 0:
        return np.sqrt(x)
    raise ValueError("negative input")


@vrir.jit
def add_same_shapes(a, b):
    if a.shape != b.shape:
        raise ValueError("shapes differ")
    assert a.shape[0] > 1, "need two rows"
    for i in range(a.shape[0]):
        if a[i] < 0:
            raise IndexError
    return a + b, a.sum()


@vrir.jit
def bump_all(a):
    for i in vrir.prange(a.shape[0]):
        if a[i] > 5:
            raise RuntimeError("too big")
        a[i] += 1
    return a


@vrir.jit
def always(x):
    raise NotImplementedError("not yet")


@vrir.jit
def plain_assert(x):
    assert x < 10
    return x * 2


def test_raise_and_assert():
    assert checked_sqrt(4.0) == 2.0
    check(add_same_shapes, np.ones(3), np.ones(3))
    check(bump_all, np.ones(4))
    assert plain_assert(3) == 6


@pytest.mark.parametrize("fn,args,error,message", [
    (checked_sqrt, (-1.0,), ValueError, "negative input"),
    (add_same_shapes, (np.ones(3), np.ones(2)), ValueError, "shapes differ"),
    (add_same_shapes, (np.ones(1), np.ones(1)), AssertionError, "need two rows"),
    (add_same_shapes, (-np.ones(3), np.ones(3)), IndexError, ""),
    (bump_all, (np.arange(10.0),), RuntimeError, "too big"),
    (always, (1,), NotImplementedError, "not yet"),
    (plain_assert, (12,), AssertionError, ""),
])
def test_raised_like_python(fn, args, error, message):
    with pytest.raises(error, match=message):
        fn.py_func(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
    with pytest.raises(error, match=message):
        fn(*args)


@vrir.jit
def shapes(a, b):
    return (a.shape == b.shape, a.shape != b.shape, a.shape == (3, b.shape[0]),
            (1, a.shape[0]) == (2, 3))


@pytest.mark.parametrize("b", [np.ones((3, 4)), np.ones((4, 3)), np.ones(4), np.ones((3, 3))])
def test_shape_comparisons(b):
    check(shapes, np.ones((3, 4)), b)


def reraise(x):
    raise


def message_from_value(x):
    raise ValueError(f"bad {x}")


def own_exception(x):
    raise MyError("x")


class MyError(Exception):
    pass


def message_of_assert(x):
    assert x > 0, f"bad {x}"
    return x


@pytest.mark.parametrize("fn,message", [
    (reraise, "bare 'raise'"),
    (message_from_value, "must be a constant string"),
    (own_exception, "raise supports the built-in exceptions"),
    (message_of_assert, "message of an assert must be a constant string"),
])
def test_refused(fn, message):
    with pytest.raises(vrir.CompileError, match=message):
        vrir.jit(fn)(1.0)


@vrir.jit
def rows_view(a, k):
    if k < 0:
        raise ValueError("k must not be negative")
    return a[::k + 1]


def test_raise_in_a_function_returning_a_view():
    check(rows_view, np.arange(6.0), 1)
    with pytest.raises(ValueError, match="must not be negative"):
        rows_view(np.arange(6.0), -1)
