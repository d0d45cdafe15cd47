"""np.linalg on stacks of matrices (rank > 2: the last two axes are the
matrix, the leading ones loop and, for solve, broadcast), against NumPy
on rank-3 and rank-4 inputs of every layout; empty stacks; NumPy's errors
(LinAlgError for one bad matrix of the stack, ValueError for leading axes
that do not broadcast) and CompileErrors, at the user's line, for what
stays single-matrix only."""
import inspect

import numpy as np
import numpy.linalg as la
import pytest

import vrir
# one-call kernels, shared with the tests of single matrices
from test_linalg import chol as cholesky, eigh1 as eigh, inv, solve

RNG = np.random.default_rng(14)


@pytest.fixture(autouse=True)
def _fresh_rng():
    """Each test draws from a generator of its own seed: with the module's
    one, a test's inputs depended on the tests pytest-xdist ran before it in
    the worker, and one draw left float32 outside the tolerance."""
    global RNG
    RNG = np.random.default_rng(2029)


LAYOUTS = ["C", "F", "strided", "matrix-strided", "negstrided"]
SHAPES = [(3,), (2, 3)]  # the leading axes: rank-3 and rank-4 stacks


def layout(a, kind):
    """The values of `a` as a C-contiguous or F-contiguous array, a view
    strided in every axis or only in the matrix axes (a[:, ::2, ::2]), or a
    view with negative strides."""
    if kind == "C":
        return a.copy()
    if kind == "F":
        return np.asfortranarray(a)
    if kind == "negstrided":
        back = (slice(None, None, -1),) * a.ndim
        return np.ascontiguousarray(a[back])[back]
    step = (2,) * a.ndim if kind == "strided" else (1,) * (a.ndim - 2) + (2, 2)
    big = np.zeros(tuple(n * s for n, s in zip(a.shape, step)), a.dtype)
    view = big[tuple(slice(None, None, s) for s in step)]
    view[...] = a
    return view


def spd(lead, n=4):
    """A stack of symmetric positive definite matrices."""
    g = RNG.random(lead + (n, n))
    return g @ np.swapaxes(g, -1, -2) + n * np.eye(n)


def regular(lead, n=4):
    return RNG.random(lead + (n, n)) + 2 * np.eye(n)


def same(got, want, rtol=1e-9):
    """Shapes and dtypes equal NumPy's, values to rounding (two LAPACKs)."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol * 1e-2)


def same_up_to_sign(got, want, rtol=1e-9):
    """Eigenvectors and singular vectors: LAPACK chooses each one's sign."""
    same(np.abs(got), np.abs(want), rtol)
    assert got.dtype == want.dtype


# ------------------------------------------- square stacks, every function
@vrir.jit
def square(S, A, B, b):
    sign, logdet = np.linalg.slogdet(A)
    w, v = np.linalg.eigh(S)
    return (np.linalg.inv(A), np.linalg.det(A), sign, logdet, np.linalg.cholesky(S),
            np.linalg.cholesky(S, upper=True), np.linalg.solve(A, B), np.linalg.solve(A, b),
            np.linalg.eigvalsh(S), np.linalg.eigvalsh(S, UPLO="U"), w, v,
            np.linalg.svd(A, compute_uv=False), np.linalg.svdvals(A), np.linalg.pinv(A),
            np.linalg.matrix_rank(A), np.linalg.cond(A), np.linalg.cond(A, 1),
            np.linalg.matrix_power(A, 3), np.linalg.matrix_power(A, -1))


@pytest.mark.parametrize("kind", LAYOUTS)
@pytest.mark.parametrize("lead", SHAPES)
def test_square_stacks(kind, lead):
    S, A, B, b = spd(lead), regular(lead), RNG.random(lead + (4, 2)), RNG.random(4)
    S[..., 0, 3] += 1.0  # the upper triangle differs: UPLO picks the lower
    got = square(layout(S, kind), layout(A, kind), layout(B, kind), b)
    want = square.py_func(S, A, B, b)
    assert len(got) == len(want)
    for k, (x, y) in enumerate(zip(got, want)):
        if k == 11:
            same_up_to_sign(x, y)
        else:
            same(x, y)
    # and matrix by matrix, as one would write the loop
    for i in np.ndindex(*lead):
        same(got[0][i], la.inv(A[i]))
        same(got[1][i], la.det(A[i]))


@vrir.jit
def rectangular(M):
    u, s, vh = np.linalg.svd(M)
    u2, s2, vh2 = np.linalg.svd(M, full_matrices=False)
    q, r = np.linalg.qr(M)
    qc, rc = np.linalg.qr(M, mode="complete")
    return (u, s, vh, u2, s2, vh2, (u2 * np.expand_dims(s2, -2)) @ vh2, q, r, qc, rc,
            np.linalg.qr(M, "r"), np.linalg.pinv(M), np.linalg.pinv(M, rtol=None),
            np.linalg.matrix_rank(M, tol=0.5))


@pytest.mark.parametrize("kind", LAYOUTS)
@pytest.mark.parametrize("shape", [(3, 5, 3), (2, 2, 3, 5)])
def test_svd_qr_pinv_of_rectangular_stacks(kind, shape):
    M = RNG.random(shape)
    got, want = rectangular(layout(M, kind)), rectangular.py_func(M)
    for k, (x, y) in enumerate(zip(got, want)):
        if k in (0, 2, 3, 5):
            same_up_to_sign(x, y)
        else:
            same(x, y)
    np.testing.assert_allclose(got[6], M, rtol=1e-12)  # U diag(s) Vh = M


@vrir.jit
def determinants(A):
    sign, logdet = np.linalg.slogdet(A)
    return np.linalg.det(A), sign, logdet


def test_low_rank_and_singular_stacks():
    low = RNG.random((3, 5, 2)) @ RNG.random((3, 2, 5))
    low[1] = 0.0
    same(rectangular(low)[-1], rectangular.py_func(low)[-1])
    A = regular((4,))
    A[1] = 1.0  # singular: det 0, slogdet (0, -inf)
    A[2, [0, 1]] = A[2, [1, 0]]  # a row exchange: a negative determinant
    got, want = determinants(A), determinants.py_func(A)
    for x, y in zip(got, want):
        same(x, y)
    assert np.array_equal(np.sign(got[0]), np.sign(want[0]))
    assert str(got[1]) == str(want[1])  # 0.0, not -0.0


# --------------------------------------------------- solve's broadcasting
@pytest.mark.parametrize("a_shape, b_shape", [
    ((2, 1, 3, 3), (4, 3, 2)),  # leading axes (2, 1) and (4,): (2, 4)
    ((3, 3), (2, 3, 2)),  # one matrix, a stack of right-hand sides
    ((2, 3, 3), (3,)),  # NumPy 2: a 1-D b is one vector for every matrix
    ((1, 3, 3), (4, 3, 1)),
    ((4, 3, 3), (1, 3, 2)),
    ((2, 3, 3), (2, 3, 3)),
])
def test_solve_broadcasts(a_shape, b_shape):
    a = RNG.random(a_shape) + 2 * np.eye(3)
    b = RNG.random(b_shape)
    for kind in ("C", "F", "negstrided"):
        same(solve(layout(a, kind), layout(b, kind)), la.solve(a, b))


def test_solve_leading_axes_that_do_not_broadcast():
    a, b = regular((2,), 3), RNG.random((3, 3, 1))
    with pytest.raises(ValueError):
        la.solve(a, b)
    with pytest.raises(ValueError, match="could not be broadcast"):
        solve(a, b)


def test_solve_stack_of_vectors_is_a_matrix_of_right_hand_sides():
    """NumPy 2: a 2-D b is one matrix of right-hand sides, even against a
    stack of matrices."""
    a, b = regular((3,), 3), RNG.random((3, 3))
    same(solve(a, b), la.solve(a, b))


# ------------------------------------------------------ dtypes and empties
@pytest.mark.parametrize("dtype", [np.float32, np.int64])
def test_dtypes(dtype):
    S, A = (spd((2,)) * 4).astype(dtype), (regular((2,)) * 4).astype(dtype)
    B, b = (RNG.random((2, 4, 2)) * 4).astype(dtype), (RNG.random(4) * 4).astype(dtype)
    got, want = square(S, A, B, b), square.py_func(S, A, B, b)
    rtol = 2e-4 if dtype is np.float32 else 1e-9
    for k, (x, y) in enumerate(zip(got, want)):
        if k == 11:
            same_up_to_sign(x, y, rtol)
        elif k == 15:  # matrix_rank: NumPy's intp
            assert x.dtype == np.int64 and np.array_equal(x, y)
        else:
            same(x, y, rtol)


@vrir.jit
def on_empty(A, B):
    w, v = np.linalg.eigh(A)
    u, s, vh = np.linalg.svd(A)
    return (np.linalg.inv(A), np.linalg.det(A), np.linalg.slogdet(A)[1], np.linalg.solve(A, B),
            w, v, u, s, vh, np.linalg.pinv(A), np.linalg.qr(A)[1], np.linalg.cholesky(A))


@vrir.jit
def rank(A):
    return np.linalg.matrix_rank(A)


@pytest.mark.parametrize("a_shape, b_shape", [((0, 3, 3), (0, 3, 2)), ((2, 0, 3, 3), (2, 0, 3, 1)),
                                              ((3, 0, 0), (3, 0, 2))])
def test_empty_stacks(a_shape, b_shape):
    A = np.zeros(a_shape) + np.eye(a_shape[-1])
    B = np.ones(b_shape)
    got, want = on_empty(A, B), on_empty.py_func(A, B)
    for x, y in zip(got, want):
        same(x, y)
    if a_shape[-1]:  # NumPy's matrix_rank of 0x0 matrices raises (max of no values)
        same(rank(A), la.matrix_rank(A))


# ------------------------------------------------------------- norms
@vrir.jit
def norms(x):
    return (np.linalg.norm(x, 2, axis=(1, 2)), np.linalg.norm(x, -2, axis=(2, 1)),
            np.linalg.norm(x, "nuc", axis=(2, 0), keepdims=True),
            np.linalg.norm(x, 2, axis=(0, 1), keepdims=True),
            np.linalg.norm(x, "fro", axis=(1, 2)), np.linalg.matrix_norm(x),
            np.linalg.matrix_norm(x, ord=2), np.linalg.matrix_norm(x, ord="nuc", keepdims=True),
            np.linalg.matrix_norm(x, ord=-np.inf))


@pytest.mark.parametrize("kind", LAYOUTS)
def test_norms_of_stacks(kind):
    x = RNG.random((3, 4, 5)) - 0.5
    got, want = norms(layout(x, kind)), norms.py_func(x)
    for a, b in zip(got, want):
        same(a, b, rtol=1e-12)


@vrir.jit
def smallest_singular_value(x):
    return np.linalg.matrix_norm(x, ord=-2, keepdims=True)


def test_matrix_norm_of_rank_4():
    x = RNG.random((2, 3, 4, 2))
    same(smallest_singular_value(x), smallest_singular_value.py_func(x))


# ------------------------------------------------------------- errors
@pytest.mark.parametrize("fn, arg, message", [
    (inv, "singular", "singular matrix"),
    (inv, np.ones((2, 3, 4)), "not square"),
    (solve, "singular", "singular matrix"),
    (cholesky, "indefinite", "not positive definite"),
    (eigh, np.ones((2, 2, 3)), "not square"),
])
def test_one_bad_matrix_raises_numpys_error(fn, arg, message):
    if isinstance(arg, str):
        arg = regular((2, 3))
        arg[1, 2] = 1.0 if message == "singular matrix" else -np.eye(4)
    args = (arg, RNG.random((2, 3, 4, 1))) if fn is solve else (arg,)
    with pytest.raises(la.LinAlgError):
        fn.py_func(*args)
    with pytest.raises(la.LinAlgError, match=message):
        fn(*args)


def lstsq_of_stack(a, b):
    return np.linalg.lstsq(a, b)


def trace_of_stack(a):
    return np.linalg.trace(a)


def pinv_of_array_rcond(a, r):
    return np.linalg.pinv(a, r)


def qr_raw_of_stack(a):
    return np.linalg.qr(a, mode="raw")


def spectral_norm_of_complex_stack(a):
    return np.linalg.norm(a * 1j, 2, axis=(1, 2))


@pytest.mark.parametrize("fn, args, message", [
    (inv, (np.ones(3),), "1-dimensional array given"),
    (solve, (np.ones(3), np.ones(3)), "1-dimensional array given"),
    (lstsq_of_stack, (np.ones((2, 3, 3)), np.ones(3)), "lstsq of a stack of matrices"),
    (trace_of_stack, (np.ones((2, 3, 3)),), "trace of a stack of matrices"),
    (pinv_of_array_rcond, (np.ones((2, 3, 3)), np.ones(2)), "argument 2 must be a scalar"),
    (qr_raw_of_stack, (np.ones((2, 3, 3)),), "'raw' is not supported"),
    (spectral_norm_of_complex_stack, (np.ones((2, 3, 3)),), "complex singular values"),
])
def test_refused_at_the_users_line(fn, args, message):
    line = inspect.getsourcelines(fn.py_func if hasattr(fn, "py_func") else fn)
    with pytest.raises(vrir.CompileError, match=message) as info:
        (fn if hasattr(fn, "py_func") else vrir.jit(fn))(*args)
    # the line of the call in the user's source
    first, body = line[1], line[0]
    lines = [first + k for k, text in enumerate(body) if "np.linalg" in text]
    assert any(f":{n}:" in str(info.value) for n in lines), str(info.value)
