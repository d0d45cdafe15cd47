"""Minimized reproducers found by python/tests/fuzz/fuzz_python_frontend.py.

Each test asserts the CORRECT behaviour (what Python/NumPy does, or a
contract error); the ones that fail today are strict xfails. Reproducers
that crash or hang the process run in a subprocess."""
import cmath
import math
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import vrir

PYDIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def run_isolated(tmp_path, body, timeout=120):
    """Runs `body` (which defines jit functions and prints a result) in a
    fresh interpreter; returns (returncode, stdout, stderr)."""
    path = tmp_path / "repro.py"
    path.write_text("import math\nimport numpy as np\nimport vrir\n\n" + textwrap.dedent(body))
    env = dict(os.environ, PYTHONPATH=PYDIR + os.pathsep + os.environ.get("PYTHONPATH", ""))
    try:
        cp = subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                            timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return "timeout", "", ""
    return cp.returncode, cp.stdout, cp.stderr


def expect_isolated(tmp_path, body, expected, timeout=120):
    rc, out, err = run_isolated(tmp_path, body, timeout)
    assert rc == 0, f"process died: returncode {rc}\n{err[-2000:]}"
    assert out.strip().splitlines()[-1] == expected, (out, err[-2000:])


# ================================================================ crashes
def test_int_floordiv_by_zero_scalar(tmp_path):
    expect_isolated(tmp_path, """
        @vrir.jit
        def f(a, b):
            return a // b
        try:
            f(7, 0)
            print("no error")
        except ZeroDivisionError:
            print("ZeroDivisionError")
    """, "ZeroDivisionError")


def test_int_mod_by_zero_scalar(tmp_path):
    expect_isolated(tmp_path, """
        @vrir.jit
        def f(a, b):
            return a % b
        try:
            f(7, 0)
            print("no error")
        except ZeroDivisionError:
            print("ZeroDivisionError")
    """, "ZeroDivisionError")


def test_int_array_floordiv_by_zero(tmp_path):
    expect_isolated(tmp_path, """
        @vrir.jit
        def f(a, b):
            return a // b
        print(f(np.arange(3), np.zeros(3, dtype=np.int64)).tolist())
    """, "[0, 0, 0]")


def test_int32_array_mod_by_zero(tmp_path):
    expect_isolated(tmp_path, """
        @vrir.jit
        def f(a, b):
            return a % b
        print(f(np.arange(3, dtype=np.int32), np.zeros(3, dtype=np.int32)).tolist(),
              f(np.arange(3), 0).tolist())
    """, "[0, 0, 0] [0, 0, 0]")


def test_int_min_floordiv_minus_one(tmp_path):
    expect_isolated(tmp_path, """
        @vrir.jit
        def f(a, b):
            return a // b
        print(f(np.array([-2**63, 4]), -1).tolist())
    """, str([-2**63, -4]))


def test_arange_zero_step(tmp_path):
    expect_isolated(tmp_path, """
        @vrir.jit
        def f(n, s):
            return np.arange(0, n, s)
        try:
            f(5, 0)
            print("no error")
        except (ValueError, ZeroDivisionError):
            print("error")
    """, "error")


def test_same_empty_array_returned_twice(tmp_path):
    expect_isolated(tmp_path, """
        @vrir.jit
        def f(n):
            v = np.zeros(n)
            return v, v
        a, b = f(0)
        print(a.shape, b.shape)
    """, "(0,) (0,)")


def test_array_rebound_in_nested_loops(tmp_path):
    expect_isolated(tmp_path, """
        @vrir.jit
        def f(n):
            for w in range(5):
                for i in range(5):
                    v4 = np.arange(-2, i)
            return v4.sum()
        print(f(1))
    """, "3")


def test_range_with_huge_step_terminates(tmp_path):
    expect_isolated(tmp_path, """
        @vrir.jit
        def f(n):
            c = 0
            for i in range(0, n, 2**62):
                c += 1
            return c
        print(f(2**63 - 1))
    """, "2", timeout=60)


# ================================================================ wrong answers
@vrir.jit
def prange_sum(a):
    s = 0.0
    for i in vrir.prange(len(a)):
        s += a[i]
    return s


@vrir.jit
def prange_last(a):
    x = 0
    for i in vrir.prange(len(a)):
        x = i
    return x


def test_prange_scalar_updates():
    # A reduction is combined over the iterations; any other update of a
    # variable from before the loop is refused (it was once a silent
    # wrong answer).
    assert prange_sum(np.arange(100.0)) == 4950.0
    with pytest.raises(vrir.CompileError, match="only reductions update"):
        prange_last(np.arange(100.0))


@vrir.jit
def or_and(x, y):
    return x or y, x and y


def test_or_and_return_operands():
    # the deciding operand, as in Python
    for x, y in [(-3, 2), (0, 5), (2.5, 0.0), (0.0, -1.5)]:
        assert or_and(x, y) == or_and.py_func(x, y)
    # operands of different types: the result's type would depend on which
    # one decides, known only when it runs
    with pytest.raises(vrir.CompileError, match="'or' of values of different types"):
        or_and(-3, 2.5)


@vrir.jit
def bool_ops_as_conditions(x, n):
    k = 0
    if x and n:
        k += 1
    while not (x or n) and k < 3:
        k += 10
    return k + (1 if n or x else 2)


@vrir.jit
def constant_decides(s0):
    return (-0.5 + 0.25j) and s0, 0.0 or s0, 3 or s0


def test_bool_ops_of_mixed_types():
    # only the truth counts in a condition: mixed types are fine there
    for x, n in [(0.0, 0), (0.5, 0), (0.0, 3), (1.5, 2)]:
        assert bool_ops_as_conditions(x, n) == bool_ops_as_conditions.py_func(x, n)
    # an operand known while compiling decides (or drops out) as in Python:
    # fuzz case s2_00021
    got = constant_decides(1.0)
    want = constant_decides.py_func(1.0)
    assert got == want and [type(g) for g in got] == [type(w) for w in want]


@vrir.jit
def fdiv_mod(x, y):
    return x // y, x % y


def test_float_floordiv_by_infinity():
    assert fdiv_mod(-5.0, math.inf) == fdiv_mod.py_func(-5.0, math.inf) == (-1.0, math.inf)


@vrir.jit
def range_step(n, s):
    t = 0
    for i in range(0, n, s):
        t += i
    return t


def test_range_zero_step():
    with pytest.raises(ValueError):
        range_step(5, 0)


@vrir.jit
def maybe_unbound(n):
    if n > 0:
        x = 1
    return x


def test_unbound_local():
    with pytest.raises((UnboundLocalError, vrir.CompileError)):
        maybe_unbound(-1)


@vrir.jit
def to_int(x):
    return int(x)


def test_int_of_nan():
    with pytest.raises(ValueError):
        to_int(math.nan)


@vrir.jit
def shift(a, b):
    return a << b


def test_negative_shift():
    with pytest.raises(ValueError):
        shift(1, -1)


@vrir.jit
def sqrt_pow(x):
    return x ** 0.5


@pytest.mark.xfail(reason="(-4.0) ** 0.5 gives nan; Python gives a complex number (not "
                          "documented as a deviation)", strict=True)
def test_negative_float_fractional_power():
    assert sqrt_pow(-4.0) == sqrt_pow.py_func(-4.0)


# ================================================================ dtypes
@vrir.jit
def ceil_floor(a):
    return np.ceil(a), np.floor(a)


def test_ceil_floor_of_int_array_keep_dtype():
    got, want = ceil_floor(np.arange(3)), ceil_floor.py_func(np.arange(3))
    assert [g.dtype for g in got] == [w.dtype for w in want]


# ================================================================ internal exceptions
@vrir.jit
def two_views(a):
    b = a * 2
    return b[1:], b[::-1]


def test_two_views_of_one_result():
    got = two_views(np.arange(3.0))
    want = two_views.py_func(np.arange(3.0))
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_array_equal(got[1], want[1])


# ================================================================ compiler errors (verifier)
@vrir.jit
def bool_minmax(a):
    return np.max(a), np.min(a), a.max(axis=0)


def test_max_min_of_bool_array():
    a = np.array([True, False])
    assert bool_minmax(a) == bool_minmax.py_func(a)


@vrir.jit
def bool_maximum(a, b):
    return np.maximum(a, b), np.minimum(a, b)


def test_maximum_of_bool_arrays():
    a, b = np.array([True, False]), np.array([False, False])
    for g, w in zip(bool_maximum(a, b), bool_maximum.py_func(a, b)):
        assert g.dtype == w.dtype
        np.testing.assert_array_equal(g, w)


@vrir.jit
def store_leading_one(a, b):
    a[:] = b
    return a


def test_slice_store_drops_leading_unit_dims():
    got = store_leading_one(np.zeros(2), np.ones((1, 2)))
    np.testing.assert_array_equal(got, np.ones(2))


# ================================================================ contract kept (guards)
@vrir.jit
def gather(a, i):
    return a[i]


def test_gather_out_of_bounds_is_index_error():
    with pytest.raises(IndexError):
        gather(np.arange(4.0), np.array([0, 4]))


@vrir.jit
def zeros_n(n):
    return np.zeros(n)


def test_negative_size_is_value_error():
    with pytest.raises(ValueError):
        zeros_n(-1)


# ================================================================ float //
@vrir.jit
def floordiv_any(a, b):
    return a // b


def test_float_floor_division_matches_numpy():
    # seed 1, case 55: `x // (v // False)` gave nan where NumPy gives 0.0:
    # a float divided by zero gave nan instead of NumPy's inf; and on
    # arrays floor(a / b) was off by one (1.0 // 0.1 is 9.0, not 10.0).
    a = np.array([1.0, -1.0, 5.0, 7.5, 0.0, 3.0, -3.0, 1e308])
    b = np.array([0.1, 0.1, np.inf, 2.0, 0.0, 0.0, 0.0, 1e-308])
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(floordiv_any(a, b), a // b)
        np.testing.assert_array_equal(floordiv_any(a[::-2], b[::-2]), a[::-2] // b[::-2])
        np.testing.assert_array_equal(floordiv_any(a.astype(np.float32), np.float32(0.1)),
                                      a.astype(np.float32) // np.float32(0.1))
        for x, y in zip(a, b):
            got, want = floordiv_any(x, y), x // y
            assert got == want or (math.isnan(got) and math.isnan(want)), (x, y, got, want)


# ================================================================ seed 1
@vrir.jit
def int_div_mod(a, b):
    return a // b, a % b


def test_integer_division_rule():
    # VRIR's rule for scalars: ZeroDivisionError, also for NumPy integer
    # scalars (seed 1, case 236: NumPy returns 0 and warns there); MIN // -1
    # wraps as in NumPy instead of reaching an undefined division.
    with pytest.raises(ZeroDivisionError):
        int_div_mod(5, 0)
    with pytest.raises(ZeroDivisionError):
        int_div_mod(np.int64(5), np.int64(0))
    with np.errstate(all="ignore"):
        for a, b in [(np.int64(-2**63), np.int64(-1)), (np.int32(-2**31), np.int32(-1)),
                     (np.int64(7), np.int64(-1)), (-7, 2), (7, -2), (-7, -2)]:
            assert int_div_mod(a, b) == (a // b, a % b)


@vrir.jit
def constant_conditional(x):
    return x if -0.75 else (-0.5 + 0.25j)


def test_constant_conditional_takes_one_branch():
    # seed 1, case 133: a constant test keeps only the branch Python takes,
    # so the result has that branch's type (float, not complex).
    r = constant_conditional(np.float64(-1.5))
    assert r == -1.5 and not isinstance(r, complex)


def test_imag_of_real_array_is_read_only():
    # seed 1, case 125: NumPy's .imag of a real array is read-only; writing
    # into it is refused (NumPy raises ValueError) instead of ignored.
    @vrir.jit
    def write_imag(a):
        b = a.imag
        b[0] = 1.0
        return b

    @vrir.jit
    def rebound(a):
        b = a.imag
        b = a.copy()
        b[0] = 1.0
        return b

    with pytest.raises(ValueError):
        np.arange(3).imag[0] = 1
    with pytest.raises(vrir.CompileError, match="read-only"):
        write_imag(np.arange(3.0))
    np.testing.assert_array_equal(rebound(np.arange(3.0)), [1.0, 1.0, 2.0])


# ================================================================ seed 2
def test_unary_plus_of_an_array_is_a_new_array():
    # seed 2, case 173: +A aliased A, so writes through it reached the caller
    @vrir.jit
    def plus(a):
        b = +a
        b[0] = 7.0
        return b

    a = np.arange(3.0)
    np.testing.assert_array_equal(plus(a), [7.0, 1.0, 2.0])
    np.testing.assert_array_equal(a, [0.0, 1.0, 2.0])


def test_real_of_a_real_array_is_the_array():
    # seed 2, case 463: NumPy's A.real of a real array is A itself, and
    # writes through it reach the caller (it was a copy)
    @vrir.jit
    def write_real(a):
        b = a.real
        b[0] = 7.0
        c = np.real(a)
        c[1] = 8.0

    a = np.arange(3.0)
    write_real(a)
    np.testing.assert_array_equal(a, [7.0, 8.0, 2.0])


def test_builtin_scalar_of_a_size_one_array():
    # seed 2, case 51: bool(array) gave an array; Python's bool/int/float of
    # a size-1 array is its element, of a larger one an error
    @vrir.jit
    def scalars(a):
        return bool(a[0:1] > 1.0), int(a[1:2]), float(a[0:1])

    @vrir.jit
    def truth(a):
        return bool(a)

    assert scalars(np.array([2.5, 3.5])) == (True, 3, 2.5)
    with pytest.raises(ValueError, match="ambiguous"):
        truth(np.array([1.0, 2.0]))
    with pytest.raises(TypeError, match="length-1"):
        scalars(np.array([2.5]))


def test_loop_body_that_always_returns():
    # seed 2, cases 915 and 951: `if (1 * -1): return ...` in a loop body is
    # known while compiling, the loop's latch is then unreachable, and the
    # CFG-to-scf lifting refused the unreachable block.
    @vrir.jit
    def first(a):
        for i in range(a.shape[0] - 1, -1, -1):
            if 1 * -1:
                return a[i]
            a[i] = 0.0
        return -1.0

    @vrir.jit
    def first_continue(a):
        s = 0.0
        for i in range(a.shape[0]):
            if a[i] < 0:
                continue
            s += a[i]
            if True:
                return s
        return s

    assert first(np.arange(3.0)) == 2.0
    assert first(np.zeros(0)) == -1.0
    assert first_continue(np.array([-1.0, 2.0, 3.0])) == 2.0


def test_scatter_of_a_higher_rank_value_is_refused():
    # seed 2, case 82: the vrir.scatter verifier rejected what the frontend
    # emitted (a backend error); NumPy cannot broadcast it either
    @vrir.jit
    def scatter(v, a):
        v[np.arange(0)] = a

    with pytest.raises(vrir.CompileError, match="rank 2"):
        scatter(np.zeros(3), np.zeros((2, 2)))


def test_numpy_2_result_types_of_rounding_and_scalar_sums():
    # seed 2, cases 1 and 315: np.sum of a bool scalar is int64; np.floor,
    # np.ceil and np.trunc keep booleans and integers (NumPy 2), np.rint
    # of integers is float64
    @vrir.jit
    def types(b, i, s):
        return np.floor(b), np.ceil(i), np.trunc(i), np.rint(i), np.sum(s), np.prod(np.int32(3))

    args = (np.array([True, False]), np.array([3, 4], np.int32), np.bool_(True))
    for got, want in zip(types(*args), types.py_func(*args)):
        assert np.asarray(got).dtype == np.asarray(want).dtype, (got, want)
        np.testing.assert_array_equal(got, want)


# ======================================== dtypes (fuzzer seed 2, triaged)
@vrir.jit
def bool_array_arithmetic(a, b):
    return a + b, a * b, a + True, a @ b, +False, +True


def test_bool_arithmetic_types():
    # NumPy: + and * of boolean arrays are `or` and `and`, @ is a boolean
    # product; +False is the int 0 (cases s2_00331, s2_00276, s2_00585)
    a = np.array([True, False, True, False])
    b = np.array([True, True, False, False])
    got = bool_array_arithmetic(a, b)
    want = bool_array_arithmetic.py_func(a, b)
    for g, w in zip(got, want):
        assert np.asarray(g).dtype == np.asarray(w).dtype
        np.testing.assert_array_equal(g, w)
    assert type(got[4]) is int and got[4] == 0


@vrir.jit
def bool_array_minus(a):
    return a - a


@vrir.jit
def bool_array_plus(a):
    return +a


def test_bool_array_minus_is_refused():
    # NumPy raises TypeError for - and unary + of boolean arrays
    with pytest.raises(vrir.CompileError, match="'-' of boolean arrays"):
        bool_array_minus(np.array([True]))
    with pytest.raises(vrir.CompileError, match="'\\+' of a boolean array"):
        bool_array_plus(np.array([True]))


@vrir.jit
def math_of_float32(a):
    return math.tanh(a[0]), math.sqrt(a[1]), math.floor(a[1])


def test_math_functions_return_python_floats():
    # math.tanh of a float32 element is a Python float (case s2_00814)
    a = np.array([0.5, 2.25], dtype=np.float32)
    got = math_of_float32(a)
    want = math_of_float32.py_func(a)
    assert [type(g) for g in got] == [type(w) for w in want] == [float, float, int]
    assert got == want


@vrir.jit
def abs_of_bool_then_write(a0):
    a0 = np.abs(a0)
    a0[0] = np.sum(-1.5)
    return a0[-1]


def test_abs_of_bool_array_is_a_new_array():
    # np.abs of a boolean array was the array itself: the write reached the
    # caller's array (fuzzer seed 3, case s3_00290)
    a = np.array([False])
    assert abs_of_bool_then_write(a) == abs_of_bool_then_write.py_func(np.array([False]))
    assert not a[0]


@vrir.jit
def conj_of_real_then_write(a0):
    w = 0
    while w < 2:
        a0 = a0.conj()
        a0[1:] = np.sum(a0)
        w += 1
    return a0.conjugate()[0]


def test_conj_method_of_real_array_is_the_array():
    # ndarray.conj() of a real array is the array itself in NumPy, so the
    # writes reach the caller's array (case s3_00317); np.conj copies
    a, b = np.array([1.0, 2.0, 3.0]), np.array([1.0, 2.0, 3.0])
    assert conj_of_real_then_write(a) == conj_of_real_then_write.py_func(b)
    np.testing.assert_array_equal(a, b)


@vrir.jit
def chained_compare(a, i, j):
    return 0 <= i < a.shape[0] and a[i] > 0 < j <= 3, i < a.shape[0] > a[i]


def test_chained_comparison_short_circuits():
    # a false part skips the rest, which may index out of bounds
    # (case s3_01259)
    a = np.array([1.0, 2.0, -1.0])
    for i in range(-1, 6):
        for j in (0, 2, 4):
            assert chained_compare(a, i, j) == chained_compare.py_func(a, i, j)


@vrir.jit
def loop_bound_from_loop(a0):
    for i in range(a0.shape[0]):
        v = 7 >> a0[0]
    for j in range(i):
        a0[j] = v
    return i


def test_loop_bound_from_a_versioned_loop():
    # the second loop's bound is the first loop's last counter; versioning
    # both loops' bounds checks made invalid IR (case s3_00853)
    a, b = np.array([1, 5, 6]), np.array([1, 5, 6])
    assert loop_bound_from_loop(a) == loop_bound_from_loop.py_func(b)
    np.testing.assert_array_equal(a, b)


@vrir.jit
def int_power(x, n):
    return x ** n


@vrir.jit
def int_array_power(a, b):
    a **= b
    return a


def test_integer_powers():
    # int ** int is an int, exact beyond 2**53 (it was a float)
    assert int_power(3, 39) == 3 ** 39 and type(int_power(3, 39)) is int
    assert int_power(2.0, -1) == 0.5
    # a negative exponent: NumPy integer scalars raise; VRIR's rule for Python
    # ints too (Python would return a float)
    with pytest.raises(ValueError, match="negative integer powers"):
        int_power(2, -1)
    # an empty array to a negative power raises nothing (case s3_01791)
    assert int_array_power(np.zeros((1, 0), np.int64), -3).shape == (1, 0)
    with pytest.raises(ValueError, match="negative integer powers"):
        int_array_power(np.arange(3), -1)
    # a negative element of an exponent array raises, as NumPy's loop does
    # (it gave 0)
    with pytest.raises(ValueError, match="negative integer powers"):
        int_array_power(np.arange(3), np.array([1, -1, 2]))
    np.testing.assert_array_equal(int_array_power(np.arange(3), np.array([1, 0, 2])),
                                  [0, 1, 4])


@vrir.jit
def ifexp_mixed(x, c):
    return x if c else 0


def test_conditional_expression_of_mixed_types():
    # Python's result type depends on the branch taken (case s3_01378)
    with pytest.raises(vrir.CompileError, match="conditional expression .* different types"):
        ifexp_mixed(2.5, 0)
    assert ifexp_mixed(2, 0) == 0 and ifexp_mixed(5, 1) == 5


@vrir.jit
def complex_functions(a, w, z):
    return a ** w, np.sqrt(a), np.sqrt(z), cmath.cos(z.real), a ** 3


def test_complex_functions_as_numpy():
    # sqrt, pow and cos went through polar forms (convert-complex-to-standard):
    # signed zeros lost, 1e-16 residues, nan for 0 ** w (cases s3_00736,
    # s3_00837, s3_02262, s3_02637); now libm's csqrt/ccos and NumPy's npy_cpow
    a = np.array([0j, 1 + 0j, 2j, complex(-4, -0.0), complex(-0.99, 0.0), complex(np.inf, 1)])
    for w in (1.5 + 0.25j, -0.5 + 0.25j, 2 + 0j, -2 + 0j, 0j):
        for z in (complex(-4, -0.0), complex(3, 0), complex(-0.99, 0.0)):
            got = complex_functions(a, w, z)
            want = complex_functions.py_func(a, w, z)
            for g, x in zip(got, want):
                np.testing.assert_array_equal(np.signbit(np.real(g)), np.signbit(np.real(x)))
                np.testing.assert_array_equal(np.signbit(np.imag(g)), np.signbit(np.imag(x)))
                np.testing.assert_allclose(g, x, rtol=1e-15, atol=0)
    # complex64 in single precision, as NumPy (case s3_00444: computing in
    # complex128 and rounding differed in the last bit); complex(...) is a
    # Python complex, which keeps complex64 (s3_01659)
    a32 = a.astype(np.complex64)
    for w in (2 + 0j, 1.5 + 0.25j, complex(1.0, -2.0)):
        got = complex_functions(a32, w, 1j)
        want = complex_functions.py_func(a32, w, 1j)
        for g, x in zip(got[:2], want[:2]):
            assert np.asarray(g).dtype == np.asarray(x).dtype == np.complex64
            np.testing.assert_array_equal(g, x)
    z = np.array([0.3 + 0.7j, -2 + 0.1j, complex(0, -0.0)], np.complex64)
    for g, x in zip(complex64_functions(z), complex64_functions.py_func(z)):
        assert g.dtype == np.complex64
        np.testing.assert_array_equal(g, x)


@vrir.jit
def complex64_functions(z):
    return np.sqrt(z), np.exp(z), np.log(z), np.sin(z), np.cos(z), np.tan(z), np.tanh(z)


@vrir.jit
def float_remainders(a, b, x, y):
    a //= b % a
    return a, b % a, x % y


def test_float_remainder_has_the_divisors_sign():
    # a zero remainder is +0.0 or -0.0 as the divisor (fmod gave -2.0 % 0.125
    # = -0.0, so a // that was -inf; case s3_01005)
    a = np.array([-2.0, 4.0, 0.125, 0.5, 1.0, -0.245, 1.783, np.inf, np.nan])
    for b in (-2.0, 2.0, -0.0):
        got = float_remainders(a.copy(), b, b, 0.125)
        want = float_remainders.py_func(a.copy(), b, b, 0.125)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g, w)
            np.testing.assert_array_equal(np.signbit(g), np.signbit(w))


@vrir.jit
def tanh_of_bool(x):
    return np.tanh(x)


def test_float_functions_of_booleans_are_refused():
    # NumPy computes np.tanh(True) in float16, which VRIR lacks (case s3_01473)
    with pytest.raises(vrir.CompileError, match="float16"):
        tanh_of_bool(True)
    assert tanh_of_bool(1.0) == np.tanh(1.0)


def nep50_counter(a):
    s = 0
    for i in range(3):
        s = a[i] * i
    return s


def nep50_while(a):
    w = 0
    while w < 2:
        w += 1
    return a[0] * w


def nep50_sizes(a, n):
    return a[0] * n, a[0] * len(a), a[0] * a.shape[0], a[1] * int(a[2])


def nep50_accumulate(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    return s


def nep50_strong_with_array(a, b):
    return np.sum(a) * a, b[0] * a, np.float32(2) * b, np.floor(3) * a[0]


def nep50_helper(x, n):
    return x * n


def nep50_calls(a):
    return nep50_helper(a[0], 2), nep50_helper(a[0], a.shape[0]), math.sqrt(a[1]) * a


@pytest.mark.parametrize("fn, args", [
    (nep50_counter, (np.arange(4, dtype=np.float32),)),
    (nep50_while, (np.arange(4, dtype=np.int32),)),
    (nep50_sizes, (np.arange(4, dtype=np.float32), 3)),
    (nep50_accumulate, (np.arange(4, dtype=np.float32),)),
    (nep50_strong_with_array, (np.arange(3, dtype=np.int32), np.arange(3.0))),
    (nep50_calls, (np.arange(3, dtype=np.float32),)),
])
def test_nep50_python_scalars_are_weak(fn, args):
    # NEP 50: Python numbers (literals, loop counters, len(), shapes, int(),
    # math.*, variables holding only those) take a NumPy operand's type;
    # NumPy scalars (elements, reductions, np.* results) promote as arrays
    # do, also with arrays. VRIR made every variable and argument a NumPy
    # scalar, and every scalar weak next to an array (fuzzer seed 3's
    # dtype mismatches: s3_00136, s3_00525, s3_00700, s3_01861, s3_02077 ...)
    got, want = vrir.jit(fn)(*args), fn(*args)
    got = got if isinstance(got, tuple) else (got,)
    want = want if isinstance(want, tuple) else (want,)
    assert [np.asarray(g).dtype for g in got] == [np.asarray(w).dtype for w in want]
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-6)


@vrir.jit
def nep50_more(a, i):
    return np.power(~i, -a[0]), np.dot(a, -0.0), not i, i > 0


def test_nep50_operators_and_dot():
    # ~ and `not` of Python numbers are Python numbers (case s4_00330);
    # np.dot makes arrays of Python numbers, so they are not weak there
    # (s4_02245: np.dot(a32, -0.0) is float64)
    a = np.array([1.5, 2.0], np.float32)
    got, want = nep50_more(a, 3), nep50_more.py_func(a, 3)
    assert [np.asarray(g).dtype for g in got] == [np.asarray(w).dtype for w in want]
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-6)


@vrir.jit
def zeros_like_positional(a):
    return np.zeros_like(a, np.int32), np.ones_like(a, None)


@vrir.jit
def zeros_like_bad_dtype(a):
    return np.zeros_like(a, 0.1)


@vrir.jit
def matmul_scalar(a):
    return np.matmul(a, 2.0)


def test_like_constructors_take_a_positional_dtype():
    # the second positional argument was ignored (case s4_02814)
    a = np.arange(3.0)
    z, o = zeros_like_positional(a)
    assert z.dtype == np.int32 and o.dtype == np.float64
    with pytest.raises(vrir.CompileError, match="second argument is the dtype"):
        zeros_like_bad_dtype(a)
    with pytest.raises(vrir.CompileError, match="np.matmul of a scalar"):
        matmul_scalar(a)


@vrir.jit
def scale_by(x, a):
    return x * a, x + 1


def test_numpy_scalar_arguments_are_strong():
    # np.float64(2.0) * a32 is float64, 2.0 * a32 float32 (NEP 50); the two
    # compile apart (np.float64 passed as a Python float before; the
    # fuzzer's deviation-weak class, s4_02138 for np.bool_)
    a = np.arange(3, dtype=np.float32)
    for x in (2.0, np.float64(2.0), 3, np.int64(3), True, np.bool_(True), 1j,
              np.complex128(1j), np.float32(2.0)):
        got, want = scale_by(x, a), scale_by.py_func(x, a)
        assert [np.asarray(g).dtype for g in got] == [np.asarray(w).dtype for w in want], x
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w)


@vrir.jit
def prange_modulo(done, every):
    for i in vrir.prange(done.shape[0]):
        done[i + (every if i > 0 and i % every == 0 else 0)] = 1.0


def test_division_by_zero_in_prange_raises():
    # the frontend left its checks out of parallel loops: i % 0 was a SIGFPE
    # that killed the process (case s6_00115)
    with pytest.raises(ZeroDivisionError):
        prange_modulo(np.zeros(100), 0)
    d = np.zeros(100)
    prange_modulo(d, 200)
    assert d.sum() == 100


@vrir.jit
def int64_min():
    return -9223372036854775808


@vrir.jit
def negated_int64_min():
    return --9223372036854775808


def test_integer_constants_beyond_int64_are_refused():
    # --9223372036854775808 wrapped to -2**63 silently (case s6_00903)
    assert int64_min() == -2**63
    with pytest.raises(vrir.CompileError, match="does not fit in int64"):
        negated_int64_min()


@vrir.jit
def negate_flag(p):
    return -p


@vrir.jit
def plus_flag(p):
    return +p


def test_sign_of_a_numpy_bool_is_refused():
    # -np.bool_(False) gave 0; NumPy raises TypeError (case s4_02346)
    with pytest.raises(vrir.CompileError, match="'-' of an np.bool_"):
        negate_flag(np.bool_(False))
    with pytest.raises(vrir.CompileError, match="'\\+' of an np.bool_"):
        plus_flag(np.bool_(True))
    # Python's bools are ints: -True is -1, +True is 1
    assert negate_flag(True) == -1 and type(negate_flag(True)) is int
    assert plus_flag(True) == 1


@vrir.jit
def unused_sum(A, v):
    F = A + v[:0]
    return A.sum()


@vrir.jit
def unused_product(A, B):
    C = A @ B
    return 1.0


@vrir.jit
def unused_row(A, i):
    r = A[i, :]
    return 1.0


@vrir.jit
def unused_reshape(A):
    R = A.reshape(3, 7)
    return 1.0


@vrir.jit
def unused_minimum(A):
    m = A[:0].min()
    return 1.0


def test_unused_expressions_still_raise():
    # F = A + v[:0] with F unused raised nothing: element-wise ops were
    # pure, so DCE erased them with their broadcast check (case s4_00460)
    A = np.ones(4)
    with pytest.raises(ValueError):
        unused_sum(A, np.ones(3))
    assert unused_sum(np.ones(1), np.ones(3)) == 1.0  # (0,) broadcasts with (1,)
    with pytest.raises(ValueError):
        unused_product(np.ones((2, 3)), np.ones((2, 3)))
    assert unused_product(np.ones((2, 3)), np.ones((3, 2))) == 1.0
    with pytest.raises(IndexError):
        unused_row(np.ones((2, 3)), 5)
    assert unused_row(np.ones((2, 3)), 1) == 1.0
    with pytest.raises(ValueError):
        unused_reshape(np.ones(20))
    assert unused_reshape(np.ones(21)) == 1.0
    with pytest.raises(ValueError):
        unused_minimum(np.ones(3))


@vrir.jit
def unused_allocations(n):
    Z = np.zeros(n)
    E = np.empty((3, n))
    return 1.0


def test_unused_allocations_check_their_sizes():
    # np.zeros(n) with n < 0 and the result unused raised nothing: the
    # allocation was erased with its size check. NumPy raises ValueError.
    with pytest.raises(ValueError, match="negative dimensions"):
        unused_allocations(-1)
    # Sizes that pass allocate nothing: 10**12 doubles would not fit.
    assert unused_allocations(10**12) == 1.0


def test_zero_divisor_in_a_gpu_section_on_the_cpu(tmp_path):
    # The frontend leaves its checks out of GPU sections (a kernel cannot
    # raise), and the CPU target runs them inline: i // 0 and a zero range
    # step reached arith.divsi/divui and killed the process with SIGFPE.
    # There, like NumPy's arrays, x // 0 and x % 0 are 0, and a zero step
    # runs nothing.
    rc, out, err = run_isolated(tmp_path, """
        @vrir.jit
        def divide(a, d, s):
            with vrir.gpu():
                for i in vrir.prange(0, a.shape[0], s):
                    t = 0
                    for k in range(0, 4, s):
                        t += k
                    a[i] = a[i] // d + a[i] % d + t
            return a

        a = np.arange(-5, 9)
        print(divide(a.copy(), 3, 1).tolist() == (a // 3 + a % 3 + 6).tolist(),
              divide(a.copy(), 0, 1).tolist() == [6] * 14,
              divide(a.copy(), 3, 0).tolist() == a.tolist())
    """)
    assert rc == 0, err
    assert out.split() == ["True", "True", "True"]


def test_parallel_loops_in_a_long_serial_loop(tmp_path):
    # A prange whose body may raise, and a prange reduction, inside a serial
    # loop of many iterations: their bookkeeping was allocated on the stack
    # at every iteration of the outer loop (32 KiB for the error scope), so
    # an LU decomposition of 300 rows overflowed the stack (SIGSEGV). Found
    # by benchmarks/python/run.py.
    examples = os.path.join(PYDIR, "examples")
    expect_isolated(tmp_path, f"""
        import sys
        sys.path.insert(0, {examples!r})
        from lu import lu_prange
        lu = vrir.jit(lu_prange)

        @vrir.jit
        def sums(a, steps):
            total = 0.0
            for t in range(steps):
                s = 0.0
                for i in vrir.prange(a.shape[0]):
                    s += a[i]
                total += s
            return total

        n = 400
        A = np.random.default_rng(2).random((n, n)) + n * np.eye(n)
        B = A.copy()
        lu(B)
        L = np.tril(B, -1) + np.eye(n)
        U = np.triu(B)
        a = np.ones(100)
        print(np.allclose(L @ U, A), sums(a, 400000) == 4e7)
    """, "True True", timeout=400)  # 46 s under the sanitizers, 400000 fork-joins


@vrir.jit
def real_part_then_write(a):
    r = np.real(a)
    a[0] = 10.0 + 1.0j
    return r[0]


def test_real_part_of_a_complex_array_is_a_view():
    # Case s9_00334: NumPy's r sees the later write to a (VRIR's np.real
    # was a copy).
    assert real_part_then_write(np.array([1.0 + 2.0j, 3.0 + 4.0j])) == 10.0


@vrir.jit
def abs_of_python_bools(x):
    return abs(not -1.5), abs(x > 0), abs(not x)


def test_abs_of_a_python_bool_is_an_int():
    # Case s10_00554: abs(not -1.5) is the int 0 in Python (was False).
    got = abs_of_python_bools(2.0)
    assert got == (0, 1, 0) and all(type(v) is int for v in got)


@vrir.jit
def store_float_into_int_array(x, n):
    out = np.zeros(3, dtype=np.int64)
    out[0] = x
    out[1:] = x * n
    return out


def test_float_stored_into_an_int_array_is_checked():
    # Case s10_01136: NumPy converts a float stored into an integer array
    # as int() does (NaN and values out of range raise); VRIR stored
    # INT64_MIN.
    np.testing.assert_array_equal(store_float_into_int_array(2.7, 1.0), [2, 2, 2])
    with pytest.raises(OverflowError):
        store_float_into_int_array(1e308, 1.0)
    with pytest.raises(OverflowError):
        store_float_into_int_array(2.0, 1e300)
    with pytest.raises(ValueError, match="NaN"):
        store_float_into_int_array(float("nan"), 1.0)


@vrir.jit
def float_to_int_casts(a, y):
    c = np.zeros(3, dtype=np.int64)
    c[np.arange(3)] = y           # an np.float32 through an index array: cast
    return a.astype(np.int64), a.astype(np.int32), c


def test_float_to_int_casts_of_nan_and_out_of_range_values():
    # Case s11_00467: LLVM's fptosi of NaN or of a value out of range is
    # poison (a store of it was dropped); NumPy gives the smallest integer
    # on x86-64.
    a = np.array([np.nan, 1e300, -1e300, 2.5, -2.5, np.inf, 9.3e18, -2.0**63])
    with np.errstate(invalid="ignore"):
        want = float_to_int_casts.py_func(a, np.float32("nan"))
    got = float_to_int_casts(a, np.float32("nan"))
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
        assert g.dtype == w.dtype
