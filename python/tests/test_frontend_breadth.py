"""Constructs that real NumPy programs use (issue 14): calls to plain Python
helper functions, `.dtype` / `.ndim` / `.size` (and conditions on them,
decided while compiling), and np.clip, np.arctan2, np.hypot, np.sign,
np.logical_*, np.flip, np.linspace. Each compiled function is compared
with the same function run by Python / NumPy, on C-, F-ordered, strided
and negative-stride inputs; bad inputs give a CompileError (or a run-time
exception) that names the user's line."""
import inspect
import math
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import vrir
from conftest import variants1, variants2
from helpers import assert_same, check

import breadth_helpers
from breadth_helpers import centered

HERE = os.path.abspath(__file__)
LAYOUTS2 = ["C", "F", "strided", "negstrided"]
LAYOUTS1 = ["C", "strided", "negstrided"]
M = (np.arange(1.0, 13.0).reshape(3, 4) - 6.5) / 3.0
V = (np.arange(1.0, 8.0) - 4.0) / 2.0


def line_of(fn, text):
    fn = getattr(fn, "py_func", fn)
    lines, first = inspect.getsourcelines(fn)
    for k, l in enumerate(lines):
        if text in l:
            return first + k
    raise AssertionError(text)


def check_layout(jf, make_args):
    """`jf` compiled and in Python on fresh arguments from `make_args()`:
    the same results, and the same arguments afterwards."""
    args, py_args = make_args(), make_args()
    got = jf(*args)
    want = jf.py_func(*py_args)
    assert_same(got, want)
    for x, y in zip(args, py_args):
        if isinstance(x, np.ndarray):
            np.testing.assert_array_equal(x, y)
    return got


def compile_error(fn, *args):
    with pytest.raises(vrir.CompileError) as info:
        fn(*args)
    return str(info.value)


# ================================================================ helpers
SCALE = 2.0


def relu(x):
    return np.maximum(x, 0) * SCALE


def get_acc(pos, mass, G=1.0, softening=0.1):
    dx = pos[None, :] - pos[:, None]
    inv = (dx ** 2 + softening ** 2) ** (-1.5)
    return G * (dx * inv) @ mass


def square(x):
    return x * x


def sum_of_squares(A):
    return square(A).sum()           # a helper calling a helper


def minmax(A):
    return A.min(), A.max()          # several results


def scale_in_place(A, k):
    A *= k                           # no result; writes the caller's array


@vrir.jit
def jit_callee(x):
    return x + 1


def calls_jit(x):
    return jit_callee(x) * 2         # a helper calling a jit function


@vrir.jit
def uses_helpers(A, v):
    r = relu(A)
    a = get_acc(v, np.ones(len(v)), softening=0.2)
    lo, hi = minmax(A)
    B = A.copy()
    scale_in_place(B, 3.0)
    return r, a, sum_of_squares(A), lo, hi, B, calls_jit(v), square(2), square(1.5)


@pytest.mark.parametrize("layout", LAYOUTS2)
def test_helper_calls(layout):
    check_layout(uses_helpers, lambda: [variants2(M)[layout], variants1(V)["C"]])


@vrir.jit
def helper_on_vectors(v, w):
    return relu(v) + square(w), breadth_helpers.scaled(v), centered(w)


@pytest.mark.parametrize("layout", LAYOUTS1)
def test_helpers_on_vectors_and_of_another_module(layout):
    check_layout(helper_on_vectors, lambda: [variants1(V)[layout], variants1(V * 3)[layout]])


def norm(A, axis, out=None, dtype=None):
    if out is None:
        out = np.zeros(A.shape[1 - axis], dtype=A.dtype if dtype is None else dtype)
    out[:] = np.sqrt((A * A).sum(axis=axis))
    return out


def power(x, k=2):
    if k == 2:                       # decided while compiling for a constant k
        return x * x
    return x ** k


@vrir.jit
def static_arguments(A):
    o = np.empty(A.shape[0])
    norm(A, 1, o)
    return (norm(A, 0), norm(A, axis=1, dtype=np.float32), o,
            power(A), power(A, 3), power(A, k=0.5))


@pytest.mark.parametrize("layout", LAYOUTS2)
def test_helpers_specialised_on_constants_none_and_dtypes(layout):
    check_layout(static_arguments, lambda: [np.abs(variants2(M)[layout])])


def sq(x):
    return x * x


@vrir.jit
def helper_in_prange(v):
    out = np.empty_like(v)
    for i in vrir.prange(len(v)):
        out[i] = sq(v[i])
    return out


def test_helper_in_a_parallel_loop():
    check(helper_in_prange, V.copy())


def test_helper_specialised_per_argument_types():
    @vrir.jit
    def f(a, b, A):
        return square(a), square(b), square(A)
    check(f, 3, 2.5, np.arange(4, dtype=np.int32))


def apply(f, x, times=1):
    for _ in range(times):
        x = f(x)
    return x


def trapezoid(f, a, b, n):
    x = np.linspace(a, b, n)
    y = f(x)
    return (b - a) / (n - 1) * (y.sum() - (y[0] + y[-1]) / 2)


@vrir.jit
def higher_order(v):
    return (apply(np.sin, v), apply(relu, v, 2), apply(jit_callee, v),
            trapezoid(np.exp, 0.0, 1.0, 101), trapezoid(square, -1, 1, 11))


@pytest.mark.parametrize("layout", LAYOUTS1)
def test_functions_passed_to_helpers(layout):
    check_layout(higher_order, lambda: [variants1(V)[layout]])


# --- errors
def rec(n):
    if n <= 0:
        return 0
    return rec(n - 1) + 1


def ping(n):
    return pong(n)


def pong(n):
    return ping(n - 1) if n > 0 else 0


def uses_try(x):
    try:
        x = x + 1
    except Exception:
        pass
    return x


def reads_undefined(x):
    return x + NOT_DEFINED_ANYWHERE  # noqa: F821


def accumulate(x, acc=None):
    for i in range(3):
        if acc is None:
            acc = x
        else:
            acc = acc + x
    return acc


inc = lambda x: x + 1  # noqa: E731


@vrir.jit
def calls_rec(n):
    return rec(n)


@vrir.jit
def calls_ping(n):
    return ping(n)


@vrir.jit
def calls_try(x):
    return uses_try(x)


@vrir.jit
def calls_undefined(x):
    return reads_undefined(x)


@vrir.jit
def calls_accumulate(x):
    return accumulate(x)


@vrir.jit
def calls_lambda(x):
    return inc(x)


@vrir.jit
def calls_with_bad_keyword(A):
    return relu(A, y=1)


@vrir.jit
def calls_with_too_many(A):
    return relu(A, A)


@vrir.jit
def calls_library_function(x):
    return textwrap.dedent(x)


@vrir.jit
def passes_a_tuple(A):
    return square(A.shape)


@pytest.mark.parametrize("fn,args,words,where", [
    (calls_rec, (3,), ["recursive call of 'rec'", "(rec -> rec)"], (rec, "return rec(n - 1)")),
    (calls_ping, (3,), ["recursive call of 'ping'", "ping -> pong -> ping"],
     (pong, "return ping(n - 1)")),
    (calls_try, (1,), ["Try", "in 'uses_try', called at"], (uses_try, "try:")),
    (calls_undefined, (1,), ["NOT_DEFINED_ANYWHERE"], (reads_undefined, "return x +")),
    (calls_accumulate, (1.0,), ["parameter 'acc' is None", "inside a loop"],
     (accumulate, "acc = x")),
    (calls_lambda, (1,), ["lambda"], (calls_lambda, "return inc(x)")),
    (calls_with_bad_keyword, (M,), ["unexpected keyword argument 'y'"],
     (calls_with_bad_keyword, "relu(A, y=1)")),
    (calls_with_too_many, (M,), ["takes 1 positional arguments but 2"],
     (calls_with_too_many, "relu(A, A)")),
    (calls_library_function, (1,), ["textwrap.dedent is not supported"],
     (calls_library_function, "textwrap.dedent")),
    (passes_a_tuple, (M,), ["cannot pass a tuple to 'square'"], (passes_a_tuple, "square(A.shape)")),
])
def test_helper_errors_name_the_line(fn, args, words, where):
    msg = compile_error(fn, *args)
    for w in words:
        assert w in msg, msg
    assert f"{HERE}:{line_of(*where)}:" in msg, msg


def test_helper_without_source_is_a_compile_error_at_the_call():
    namespace = {}
    exec("def nosrc(x):\n    return x + 1\n", namespace)

    @vrir.jit
    def f(x):
        return nosrc(x)
    f.py_func.__globals__["nosrc"] = namespace["nosrc"]
    try:
        msg = compile_error(f, 1.0)
    finally:
        del f.py_func.__globals__["nosrc"]
    assert "cannot read the source of nosrc" in msg
    assert f"{HERE}:{line_of(f, 'return nosrc(x)')}:" in msg


def test_mutual_recursion_error_names_the_call_chain():
    msg = compile_error(calls_ping, 2)
    assert f"(in 'ping', called at {HERE}:{line_of(calls_ping, 'return ping(n)')})" in msg


def test_editing_a_helper_recompiles(tmp_path):
    """The disk cache key covers the helpers' code: a second process with the
    same program compiles nothing, one with an edited helper recompiles."""
    prog = textwrap.dedent("""
        import numpy as np, vrir, vrir.runtime as rt
        def helper(x):
            return x * K
        @vrir.jit
        def f(x):
            return helper(x) + 1
        print(f(np.arange(3.0))[2], rt.COMPILE_COUNT)
    """)
    path = tmp_path / "prog.py"
    env = dict(os.environ, VRIR_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=os.path.join(os.path.dirname(HERE), ".."))

    def run(k):
        path.write_text(prog.replace("K", k))
        return subprocess.run([sys.executable, str(path)], env=env, capture_output=True,
                              text=True, check=True).stdout.split()
    assert run("2") == ["5.0", "1"]
    assert run("2") == ["5.0", "0"]
    assert run("10") == ["21.0", "1"]


# ================================================================ dtype, ndim, size
@vrir.jit
def uses_dtype(A):
    Z = np.zeros(A.shape[0], dtype=A.dtype)
    Y = np.zeros(A.size, A.dtype)
    E = np.empty_like(A)
    E[:] = A
    F = np.zeros_like(A, dtype=np.float32)
    G = np.full(3, 7, dtype=A.dtype)
    H = np.arange(4, dtype=A.dtype)
    I = np.ones(2, A.dtype).astype(A.dtype)
    s = A.dtype.type(3)
    return Z, Y, E, F, G, H, I, s, A.ndim, A.size, A.itemsize, A.nbytes


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int32])
@pytest.mark.parametrize("layout", LAYOUTS2)
def test_dtype_ndim_size(layout, dtype):
    check_layout(uses_dtype, lambda: [variants2(M.astype(dtype))[layout]])


@vrir.jit
def by_rank_and_dtype(A):
    if A.ndim == 2 and A.dtype == np.float32:
        x = A[0, 0] + A.dtype.type(1)       # rank and dtype known while compiling
    elif A.ndim == 2:
        x = A[0, 1] * 1.0
    else:
        x = A[1] * A.itemsize
    if np.issubdtype(A.dtype, np.floating) and A.dtype.kind == "f":
        y = A * 2
    elif A.dtype is not None:
        y = A + 1
    else:
        y = A
    return x, y, A.ndim != 1, A.dtype.itemsize, A.dtype == "float32", "int64" != A.dtype


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64])
def test_conditions_known_while_compiling(dtype, layout1, layout2):
    check(by_rank_and_dtype, layout2(M.astype(dtype)))
    check(by_rank_and_dtype, layout1(V.astype(dtype)))


@vrir.jit
def short_circuits(A):
    # Python skips A.shape[1] for a 1-D A: so does the compiler
    if A.ndim == 2 and A.shape[1] > 3:
        return A.sum(axis=1)
    if A.ndim == 1 or A[0, 0] > 0:
        return A.ravel() if False else A.sum(axis=0)
    return A[:, 0]


@pytest.mark.parametrize("layout", LAYOUTS2)
def test_conditions_short_circuit_while_compiling(layout):
    check(short_circuits, variants2(M)[layout])
    check(short_circuits, variants2(-M)[layout])
    check(short_circuits, variants2(M[:, :3])[layout])
    check(short_circuits, variants1(V)[layout.replace("F", "C")])


@vrir.jit
def calls_a_dtype(A):
    return A.dtype(3)


@vrir.jit
def scalar_dtype(x):
    return x.dtype


@vrir.jit
def orders_dtypes(A, B):
    return A.dtype < B.dtype


@vrir.jit
def issubdtype_of_array(A):
    return np.issubdtype(A, np.floating)


@pytest.mark.parametrize("fn,args,words,marker", [
    (calls_a_dtype, (M,), "not callable", "A.dtype(3)"),
    (scalar_dtype, (1.0,), "unsupported attribute 'dtype'", "x.dtype"),
    (orders_dtypes, (M, M), "unsupported comparison", "A.dtype < B.dtype"),
    (issubdtype_of_array, (M,), "needs a dtype", "np.issubdtype(A"),
])
def test_dtype_errors(fn, args, words, marker):
    msg = compile_error(fn, *args)
    assert words in msg and f"{HERE}:{line_of(fn, marker)}:" in msg, msg


# ================================================================ NumPy functions
@vrir.jit
def clips(A, lo, hi):
    return (np.clip(A, -0.5, 0.5), np.clip(A, lo, hi), A.clip(min=0), A.clip(None, 0.25),
            np.clip(A, a_min=lo, a_max=1), np.clip(A, lo, None), np.clip(3.5, 0, 2),
            np.clip((hi * 10).astype(np.int64), 0.5, 2))


@pytest.mark.parametrize("layout", LAYOUTS2)
def test_clip(layout):
    A = M.copy()
    A[1, 1] = np.nan
    check_layout(clips, lambda: [variants2(A)[layout], variants2(M * 0.1 - 0.5)[layout],
                                 variants2(M * 0.1 + 0.5)[layout]])


@pytest.mark.parametrize("layout", LAYOUTS1)
def test_clip_vectors(layout):
    check_layout(clips, lambda: [variants1(V)[layout], variants1(-V / 3)[layout],
                                 variants1(V / 2 + 0.25)[layout]])


@vrir.jit
def arctan2s(y, x, k):
    return (np.arctan2(y, x), np.arctan2(y, 1.0), np.arctan2(2, x), np.arctan2(1, -1),
            np.arctan2(k, 3), np.hypot(y, x), np.hypot(y, 2), np.hypot(3, 4),
            np.hypot(k, k), np.sign(y), np.sign(k), np.sign(-2.5), np.sign(0),
            math.atan2(1, 2.0), math.hypot(3, 4.0))


@vrir.jit
def arctan2s_f32(y, x):
    return (np.arctan2(y, x), np.hypot(y, x), np.hypot(y, np.float32(1)), np.sign(y),
            np.arctan2(y, 1.0), np.arctan(y), np.log1p(np.abs(y)))


def check_f32(jf, *args):
    got, want = jf(*args), jf.py_func(*[a.copy() for a in args])
    for g, w in zip(got, want):
        assert g.dtype == w.dtype == np.float32
        np.testing.assert_allclose(g, w, rtol=3e-7)


@pytest.mark.parametrize("layout", LAYOUTS2)
def test_arctan2_hypot_sign(layout):
    Y = M.copy()
    Y[0, 0], Y[0, 1], Y[2, 3] = np.nan, 0.0, np.inf
    X = M[::-1, ::-1].copy()
    X[0, 2] = 0.0
    K = np.round(M * 3).astype(np.int32)
    check_layout(arctan2s, lambda: [variants2(Y)[layout], variants2(X)[layout],
                                    variants2(K)[layout]])
    check_f32(arctan2s_f32, variants2(Y.astype(np.float32))[layout],
              variants2(X.astype(np.float32))[layout])


@pytest.mark.parametrize("layout", LAYOUTS1)
def test_arctan2_hypot_sign_vectors(layout):
    check_layout(arctan2s, lambda: [variants1(V)[layout], variants1(V[::-1] + 0.5)[layout],
                                    variants1(np.arange(-3, 4))[layout]])


def test_hypot_does_not_overflow_or_underflow():
    @vrir.jit
    def f(x, y):
        return np.hypot(x, y), np.hypot(x[0], y[0])
    x = np.array([1e200, 1e-200, 3.0, np.inf, np.nan, 0.0, -np.inf])
    y = np.array([1e200, 1e-200, -4.0, np.nan, 1.0, 0.0, 2.0])
    check(f, x, y)


@vrir.jit
def logicals(a, b):
    return (np.logical_and(a, b), np.logical_or(a > 0, b), np.logical_xor(a, b),
            np.logical_not(a), np.logical_not(a > 0), np.logical_and(a, 1),
            np.logical_or(0.0, 0), np.logical_xor(True, 2), np.logical_not(0),
            np.logical_and(a.astype(np.int32), b > 0.5))


@pytest.mark.parametrize("layout", LAYOUTS2)
def test_logical_functions(layout):
    A = np.round(M)
    B = np.round(M[::-1, ::-1] * 0.5)
    check_layout(logicals, lambda: [variants2(A)[layout], variants2(B)[layout]])


@pytest.mark.parametrize("layout", LAYOUTS1)
def test_logical_functions_vectors(layout):
    check_layout(logicals, lambda: [variants1(np.round(V))[layout],
                                    variants1(np.round(V[::-1] * 0.7))[layout]])


@vrir.jit
def flips(A):
    return (np.flip(A), np.flip(A, 0), np.flip(A, axis=1), np.flip(A, axis=(0, 1)),
            np.flip(A, -1), np.fliplr(A), np.flipud(A), np.flip(A)[0, 1],
            np.flip(np.flip(A, 0), 0))


@pytest.mark.parametrize("layout", LAYOUTS2)
def test_flip(layout):
    check_layout(flips, lambda: [variants2(M)[layout]])


@vrir.jit
def flip_writes(A, v):
    F = np.flip(A, 1)
    F[0, 0] = 100.0           # a view: writes reach A
    np.flip(v)[:2] = -1.0
    return np.flip(v) + v, F.sum()


@pytest.mark.parametrize("layout", LAYOUTS2)
def test_flip_is_a_view(layout):
    check_layout(flip_writes, lambda: [variants2(M)[layout], variants1(V)["negstrided"]])


@vrir.jit
def linspaces(n, a, b, c):
    y, step = np.linspace(a, b, n, retstep=True)
    return (np.linspace(0, 1, n), np.linspace(a, b, num=n, endpoint=False),
            np.linspace(0, 10, n, dtype=np.int64), y, step, np.linspace(-1, 1),
            np.linspace(c, 1, n), np.linspace(b, a, n, dtype=np.float32))


@pytest.mark.parametrize("n", [0, 1, 2, 5, 50])
def test_linspace(n):
    check(linspaces, n, -1.5, 3.25, np.float32(0.5))
    check(linspaces, n, 2, 2, np.float32(-3))


def test_linspace_negative_num_is_a_value_error():
    with pytest.raises(ValueError, match="must be non-negative"):
        linspaces(-1, 0.0, 1.0, np.float32(0))


@vrir.jit
def float_functions(x):
    return (np.arctan(x), np.arcsin(x / 6), np.arccos(x / 6), np.sinh(x), np.cosh(x),
            np.arcsinh(x), np.arccosh(np.abs(x) + 1), np.arctanh(x / 6), np.log10(np.abs(x)),
            np.log2(np.abs(x)), np.log1p(np.abs(x)), np.expm1(x), np.cbrt(x), np.trunc(x),
            np.rint(x), np.trunc(x.astype(np.int32)), np.cbrt(x.astype(np.int64)),
            np.log10(2), math.atan(0.5), math.log10(1000),
            math.cbrt(-8.0), math.acosh(2))


@pytest.mark.parametrize("layout", LAYOUTS2)
def test_more_float_functions(layout):
    X = M * 3.0
    X[0, 0], X[1, 2] = 2.5, -0.5   # rint rounds half to even
    check_layout(float_functions, lambda: [variants2(X)[layout]])


@vrir.jit
def clip_complex(A):
    return np.clip(A, 0, 1)


@vrir.jit
def arctan2_complex(z):
    return np.arctan2(z, 1.0)


@vrir.jit
def arctan_complex(A):
    return np.arctan(A)


@vrir.jit
def math_log10_array(A):
    return math.log10(A)


@vrir.jit
def hypot_of_tuple(A):
    return np.hypot(A.shape, 1.0)


@vrir.jit
def sign_of_bools(A):
    return np.sign(A > 0)


@vrir.jit
def logical_of_tuple(A):
    return np.logical_and(A.shape, A)


@vrir.jit
def flip_bad_axis(A):
    return np.flip(A, 2)


@vrir.jit
def flip_runtime_axis(A, k):
    return np.flip(A, k)


@vrir.jit
def linspace_float_num(a):
    return np.linspace(0, a, 2.5)


@vrir.jit
def linspace_runtime_endpoint(n, e):
    return np.linspace(0, 1, n, endpoint=e)


@pytest.mark.parametrize("fn,args,words,marker", [
    (clip_complex, (M.astype(complex),), "complex", "np.clip(A, 0, 1)"),
    (arctan_complex, (M.astype(complex),), "complex", "np.arctan(A)"),
    (math_log10_array, (M,), "of an array", "math.log10(A)"),
    (arctan2_complex, (1j,), "complex", "np.arctan2(z"),
    (hypot_of_tuple, (M,), "np.hypot() of a tuple", "np.hypot(A.shape"),
    (sign_of_bools, (M,), "booleans", "np.sign(A > 0)"),
    (logical_of_tuple, (M,), "of a tuple", "np.logical_and(A.shape"),
    (flip_bad_axis, (M,), "out of bounds", "np.flip(A, 2)"),
    (flip_runtime_axis, (M, 1), "integer constants", "np.flip(A, k)"),
    (linspace_float_num, (1.0,), "num must be an integer", "np.linspace(0, a, 2.5)"),
    (linspace_runtime_endpoint, (3, True), "constant True or False", "endpoint=e"),
])
def test_numpy_function_errors(fn, args, words, marker):
    msg = compile_error(fn, *args)
    assert words in msg and f"{HERE}:{line_of(fn, marker)}:" in msg, msg


def test_numpy_rejects_the_bad_inputs_too():
    """The refused calls are errors in NumPy as well (not refused features)."""
    with pytest.raises(TypeError):
        np.sign(M > 0)
    with pytest.raises(TypeError):
        np.arctan2(1j, 1.0)
    with pytest.raises(TypeError):
        np.linspace(0, 1.0, 2.5)
    with pytest.raises(np.exceptions.AxisError):
        np.flip(M, 2)



def _bump(counter, n):
    counter[0] += 1
    return n


@vrir.jit
def linspace_num_from_helper(counter, n):
    return np.linspace(0.0, 1.0, num=_bump(counter, n))


def test_linspace_keywords_are_evaluated_once():
    # num= calls a plain Python helper compiled into the kernel, which
    # writes to its argument: it must run once per call, as in Python.
    counter = np.zeros(1, dtype=np.int64)
    np.testing.assert_allclose(linspace_num_from_helper(counter, 5),
                               np.linspace(0.0, 1.0, 5))
    assert counter[0] == 1
