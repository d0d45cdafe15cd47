"""Reductions in parallel loops (`s += a[i]` in a `vrir.prange`, as Numba
takes them): each iteration updates a private copy that starts from the
identity, and the loop combines the copies (vrir.pfor's `reduce`). Results
against plain Python on every layout; what is not a reduction is refused
with the user's line; GPU sections take one reduction per loop."""
import inspect
import os
import subprocess
import sys

import numpy as np
import pytest

import vrir

from helpers import assert_same, check
from test_gpu_targets import target  # noqa: F401 (fixture)

HERE = os.path.abspath(__file__)
RNG = np.random.default_rng(11)
V = RNG.random(1001) - 0.3
M = RNG.random((37, 23)) - 0.5


@vrir.jit
def sum_of_squares(a):
    s = 0.0
    for i in vrir.prange(a.shape[0]):
        s += a[i] * a[i]
    return s


@vrir.jit
def four_kinds(a):
    lo = np.inf
    hi = -np.inf
    positives = 0
    p = 1.0
    for i in vrir.prange(len(a)):
        lo = min(lo, a[i])
        hi = max(a[i], hi)
        if a[i] > 0.0:
            positives += 1
        p *= 1.0 + a[i] * 1e-3
    return lo, hi, positives, p


@vrir.jit
def subtract_and_assign_forms(a, start):
    s = start
    t = 0
    for i in vrir.prange(len(a)):
        s -= a[i]
        s = s + 2.0 * a[i]
        t = np.maximum(t, i)
    return s, t


@vrir.jit
def rows_of_matrix(A):
    # A reduction over a 2-D loop nest, with a serial loop inside.
    total = 0.0
    for i in vrir.prange(A.shape[0]):
        for j in range(A.shape[1]):
            total += A[i, j] * (i + 1)
    return total


@vrir.jit
def nested_reductions(A):
    # The inner prange runs serially inside the outer one; its reduction
    # variable is local to the outer iteration.
    out = np.zeros(A.shape[0])
    best = -np.inf
    for i in vrir.prange(A.shape[0]):
        r = 0.0
        for j in vrir.prange(A.shape[1]):
            r += A[i, j]
        out[i] = r
        best = max(best, r)
    return out, best


@vrir.jit
def integer_widening(a):
    # s starts as an int and takes floats: it is a float reduction.
    s = 0
    for i in vrir.prange(len(a)):
        s += a[i]
    return s


@vrir.jit
def empty_loop(a, n):
    s = 5.0
    m = 7
    for i in vrir.prange(n):
        s += a[i]
        m = min(m, i)
    return s, m


def test_sum(layout1):
    check(sum_of_squares, layout1(V))


def test_four_kinds(layout1):
    check(four_kinds, layout1(V))


def test_assign_forms():
    check(subtract_and_assign_forms, V, 1.25)


def test_matrix(layout2):
    check(rows_of_matrix, layout2(M))
    check(nested_reductions, layout2(M))


def test_widening_and_empty():
    check(integer_widening, V)
    check(empty_loop, V, 0)
    check(empty_loop, V, 10)


def test_negative_zero_and_nan():
    # -0.0 is the identity of a float sum: a sum of negative zeros stays -0.0.
    z = np.full(100, -0.0)
    got = sum_of_squares(z)
    assert got == 0.0 and np.signbit(got) == np.signbit(sum(x * x for x in z))
    neg = subtract_and_assign_forms(np.zeros(0), -0.0)[0]
    assert np.signbit(neg)


def test_result_does_not_depend_on_threads():
    # Chunks are fixed, not per thread: the same bits with 1, 2 and 3
    # OpenMP threads (each count in its own process: libomp reads it once).
    script = ("import sys, numpy as np; sys.path.insert(0, sys.argv[1]); "
              "import test_prange_reductions as t; "
              "a = np.random.default_rng(5).random(100003) * 1e6; "
              "print(repr(t.sum_of_squares(a)))")
    here = os.path.dirname(HERE)
    results = set()
    for threads in ("1", "2", "3"):
        env = dict(os.environ, OMP_NUM_THREADS=threads,
                   PYTHONPATH=os.pathsep.join([os.path.join(here, ".."), here]))
        out = subprocess.run([sys.executable, "-c", script, here], env=env, check=True,
                             capture_output=True, text=True).stdout
        results.add(out.strip())
    assert len(results) == 1, results
    a = np.random.default_rng(5).random(100003) * 1e6
    np.testing.assert_allclose(float(results.pop()), (a * a).sum(), rtol=1e-12)


def test_bounds_error_in_a_reduction_loop():
    @vrir.jit
    def overrun(a, n):
        s = 0.0
        for i in vrir.prange(n):
            s += a[i]
        return s
    with pytest.raises(IndexError, match="index 10, extent 10"):
        overrun(np.ones(10), 11)
    assert overrun(np.ones(10), 10) == 10.0


def test_gpu_section_reduction(target):  # noqa: F811
    @vrir.jit(target=target)
    def gpu_sum(a):
        s = 1.5
        with vrir.gpu():
            for i in vrir.prange(len(a)):
                s += a[i] * a[i]
        return s
    np.testing.assert_allclose(gpu_sum(V), 1.5 + (V * V).sum(), rtol=1e-12)


def test_gpu_section_two_reductions_refused(target):  # noqa: F811
    @vrir.jit(target=target)
    def gpu_two(a):
        s = 0.0
        m = 0.0
        with vrir.gpu():
            for i in vrir.prange(len(a)):
                s += a[i]
                m = max(m, a[i])
        return s, m
    with pytest.raises(vrir.CompileError, match="2 reductions in a GPU section"):
        gpu_two(V)


# ------------------------------------------------------------ refused
def reads_reduction(a):
    s = 0.0
    for i in vrir.prange(len(a)):
        s += a[i]
        a[i] = s
    return s


def not_a_reduction_form(a):
    s = 0.0
    for i in vrir.prange(len(a)):
        s = s * 0.5 + a[i]
    return s


def mixes_kinds(a):
    s = 0.0
    for i in vrir.prange(len(a)):
        s += a[i]
        s *= 2.0
    return s


def divides(a):
    s = 1.0
    for i in vrir.prange(len(a)):
        s /= a[i]
    return s


def bool_reduction(a):
    found = False
    for i in vrir.prange(len(a)):
        found = max(found, a[i] > 0)
    return found


def loop_target_store(a):
    s = 0.0
    for i in vrir.prange(len(a)):
        for s in range(3):
            pass
    return s


def unpacked_store(a):
    s = 0.0
    t = 0.0
    for i in vrir.prange(len(a)):
        s, t = a[i], 1.0
    return s


def line_of(fn, marker):
    lines, first = inspect.getsourcelines(fn)
    return first + next(k for k, line in enumerate(lines) if marker in line)


@pytest.mark.parametrize("fn,message,marker", [
    (reads_reduction, "cannot read it except in its updates", "for i in"),
    (not_a_reduction_form, "only reductions update", "s = s * 0.5"),
    (mixes_kinds, "mixes prod and sum", "for i in"),
    (divides, "only reductions update", "s /= a[i]"),
    (bool_reduction, "integer or float scalar", "for i in"),
    (loop_target_store, "only reductions update", "for i in"),
    (unpacked_store, "only reductions update", "for i in"),
])
def test_refused(fn, message, marker):
    with pytest.raises(vrir.CompileError) as info:
        vrir.jit(fn)(V.copy())
    assert message in str(info.value)
    assert f"{HERE}:{line_of(fn, marker)}" in str(info.value)
