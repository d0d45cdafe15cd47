"""`for` over arrays, `enumerate` and `zip`, as NumPy iterates arrays (the
first axis: elements of a 1-D array, row views of a larger one), against
plain Python on every layout; what is not iterable is refused at the
user's line."""
import inspect
import os

import numpy as np
import pytest

import vrir

from helpers import check

HERE = os.path.abspath(__file__)
RNG = np.random.default_rng(5)
V = RNG.random(9) - 0.5
M = RNG.random((5, 4))


@vrir.jit
def sum_elements(a):
    s = 0.0
    for x in a:
        s += x * x
    return s


@vrir.jit
def last_element(a):
    x = -1.0
    for x in a:
        pass
    return x


@vrir.jit
def row_sums(A):
    out = np.zeros(A.shape[0])
    k = 0
    for row in A:
        for x in row:
            out[k] += x
        k += 1
    return out


@vrir.jit
def rows_are_views(A):
    # Writing through the row writes the array, as in NumPy.
    for row in A:
        row[0] = 7.0
    return A


@vrir.jit
def weighted(a, start):
    s = 0.0
    for i, x in enumerate(a, start):
        s += i * x
    for i, x in enumerate(a, start=2):
        s -= i
    for i, x in enumerate(a):
        s += i
    return s


@vrir.jit
def dot3(a, b, c):
    # zip stops at the shortest array.
    s = 0.0
    for x, y, z in zip(a, b, c):
        s += x * y - z
    return s


@vrir.jit
def iterate_expression(a):
    s = 0.0
    for x in a[::2] * 2.0:
        s += x
    return s


def test_elements(layout1):
    check(sum_elements, layout1(V))
    check(last_element, layout1(V))
    check(last_element, V[:0])
    check(iterate_expression, layout1(V))


def test_rows(layout2):
    check(row_sums, layout2(M))
    check(rows_are_views, layout2(M))


def test_enumerate_and_zip(layout1):
    check(weighted, layout1(V), 3)
    check(dot3, layout1(V), V[:7].copy(), V[::-1].copy())
    check(dot3, V, V[:0].copy(), V)


# ------------------------------------------------------------ refused
def over_a_scalar(x):
    s = 0.0
    for y in x:
        s += y
    return s


def enumerate_one_name(a):
    s = 0.0
    for p in enumerate(a):
        s += 1
    return s


def zip_keywords(a):
    s = 0.0
    for x, y in zip(a, a, strict=True):
        s += x
    return s


def line_of(fn, marker):
    lines, first = inspect.getsourcelines(fn)
    return first + next(k for k, line in enumerate(lines) if marker in line)


@pytest.mark.parametrize("fn,arg,message", [
    (over_a_scalar, 2.0, "for loops iterate over range"),
    (enumerate_one_name, V, "the loop target of enumerate() must be 2 names"),
    (zip_keywords, V, "zip() takes arrays"),
])
def test_refused(fn, arg, message):
    with pytest.raises(vrir.CompileError) as info:
        vrir.jit(fn)(arg)
    assert message in str(info.value)
    assert f"{HERE}:{line_of(fn, 'for ')}" in str(info.value)
