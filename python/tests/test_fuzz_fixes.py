"""Coverage beyond the minimized reproducers of test_fuzz_regressions.py."""
import itertools
import math

import numpy as np
import pytest

import vrir


@vrir.jit
def range3(a, b, s):
    t = 0
    c = 0
    for i in range(a, b, s):
        t += i
        c += 1
    return t, c


def test_range_trip_count_matches_python():
    for a, b, s in itertools.product([-7, 0, 3, 10], [-7, 0, 3, 10], [2, -2, 3, -3, 1, -1, 100]):
        assert range3(a, b, s) == range3.py_func(a, b, s)
    assert range3(2**63 - 1, -2**63, -2**62)[1] == 4


@vrir.jit
def or_and_same(x, y):
    return x or y, x and y


def test_or_and_same_types():
    for x, y in [(0, 5), (3, 0), (0, 0), (-3, 2)]:
        assert or_and_same(x, y) == or_and_same.py_func(x, y)
    assert or_and_same(0.0, 2.5) == (2.5, 0.0)


@vrir.jit
def maybe(n):
    if n > 0:
        x = 1
    return x


def test_definite_assignment_at_run_time():
    assert maybe(3) == 1
    with pytest.raises(UnboundLocalError):
        maybe(0)


@vrir.jit
def fdiv(x, y):
    return x // y


def test_float_floordiv_like_python():
    for x, y in itertools.product([-5.0, 5.0, 0.5, -0.0, 1e300, 7.0], [2.0, -2.0, 0.1, math.inf, -math.inf, 3.0]):
        got, want = fdiv(x, y), fdiv.py_func(x, y)
        assert got == want and math.copysign(1, got) == math.copysign(1, want), (x, y)


@vrir.jit
def mod_(a, b):
    return a % b


def test_int_mod_zero_and_arange_float_step():
    with pytest.raises(ZeroDivisionError):
        mod_(3, 0)
    assert mod_(-7, 3) == 2


@vrir.jit
def ipow(a, b):
    return a ** b, a ** 2


def test_int_pow():
    # int ** int is an int; a negative exponent raises (NumPy's rule for its
    # integer scalars; test_fuzz_regressions.test_integer_powers)
    assert ipow(2, 3) == (8, 4)
    assert all(isinstance(x, int) for x in ipow(2, 3))
    with pytest.raises(ValueError, match="negative integer powers"):
        ipow(2, -2)


@vrir.jit
def prange_tmp(a):
    b = np.empty_like(a)
    for i in vrir.prange(len(a)):
        t = a[i] * 2
        b[i] = t
    return b


def test_prange_private_temporaries_still_work():
    np.testing.assert_array_equal(prange_tmp(np.arange(4.0)), np.arange(4.0) * 2)


@vrir.jit
def views3(n):
    b = np.arange(n) * 1.0
    return b[1:], b, b[::-2], b[:0]


def test_several_views_of_one_result():
    got = views3(6)
    want = views3.py_func(6)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
    got[1][2] = 100.0
    assert got[0][1] == 100.0


@vrir.jit
def chained_array_compare(a, b, c):
    return a == b == c


def test_chained_comparison_of_arrays_is_a_compile_error():
    # Python takes the truth value of `a == b` (ValueError for more than one
    # element); element-wise `&` is what such code means.
    a = np.arange(3)
    with pytest.raises(ValueError):
        chained_array_compare.py_func(a, a, a)
    with pytest.raises(vrir.CompileError, match="chained comparison with arrays"):
        chained_array_compare(a, a, a)
