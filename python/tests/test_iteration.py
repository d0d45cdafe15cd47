"""`for` over arrays, `enumerate` and `zip`, as NumPy iterates arrays (the
first axis: elements of a 1-D array, row views of a larger one), and
`for ... else` / `while ... else`, against plain Python on every layout;
what is not iterable is refused at the user's line."""
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


# ------------------------------------------------------------ loop else
@vrir.jit
def index_of(a, x):
    for i in range(a.shape[0]):
        if a[i] == x:
            break
    else:
        return -1
    return i


@vrir.jit
def primes_below(n):
    out = np.zeros(n, np.int64)
    k = 0
    for p in range(2, n):
        for d in range(2, p):
            if p % d == 0:
                break
        else:  # no divisor: the inner loop ran to its end
            out[k] = p
            k += 1
    return out[:k]


@vrir.jit
def sum_below(a, limit):
    i = 0
    s = 0.0
    while i < a.shape[0]:
        if a[i] > limit:
            s = -1.0
            break
        s += a[i]
        i += 1
    else:
        s += 1000.0
    return s


@vrir.jit
def rows_until(A, limit):
    count = 0
    for row in A:
        with_else = 0
        for x in row:
            if x > limit:
                break
        else:
            with_else = 1
        if with_else == 0:
            break
        count += 1
    else:
        count = 100
    return count


@vrir.jit
def else_with_continue(A):
    # A `continue` in the inner loop's else skips the outer body's rest;
    # the outer loop has no break, so its else always runs.
    n = 0
    for i in range(A.shape[0]):
        for j in range(A.shape[1]):
            if A[i, j] < 0:
                break
        else:
            n += 1
            continue
        n += 10
    else:
        n += 1000
    return n


@vrir.jit
def while_true_else(a):
    i = 0
    while True:
        if i >= a.shape[0] or a[i] < 0:
            break
        i += 1
    else:
        i = -5  # never runs: the loop only ends by its break
    return i


@vrir.jit
def prange_else(a):
    s = 0.0
    for i in vrir.prange(a.shape[0]):
        s += a[i]
    else:  # a parallel loop has no break: its else always runs
        s += 1.0
    return s


def test_loop_else(layout1, layout2):
    v = layout1(V)
    check(index_of, v, float(V[4]))
    check(index_of, v, 7.0)
    check(index_of, V[:0], 1.0)
    check(primes_below, 40)
    check(primes_below, 2)
    check(sum_below, v, 0.3)
    check(sum_below, v, 2.0)
    check(while_true_else, v)
    check(prange_else, v)
    m = layout2(M)
    check(rows_until, m, 0.9)
    check(rows_until, m, 2.0)
    check(else_with_continue, layout2(M - 0.1))
    check(else_with_continue, m)


def for_else_in_prange(a):
    s = 0.0
    for i in vrir.prange(a.shape[0]):
        if a[i] < 0:
            break
        s += a[i]
    else:
        s = 1.0
    return s


def test_break_in_prange_with_else_is_refused():
    # The else does not make a break in a parallel loop acceptable.
    with pytest.raises(vrir.CompileError) as info:
        vrir.jit(for_else_in_prange)(V)
    assert "'break' outside a loop (or inside a parallel loop)" in str(info.value)
    assert f"{HERE}:{line_of(for_else_in_prange, 'break')}" in str(info.value)


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
