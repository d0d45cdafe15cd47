"""np.eye, np.identity and np.linalg (cholesky, inv, solve, det, slogdet, eigh,
eigvalsh, svd through LAPACK; pinv, matrix_rank, cond, lstsq and the
spectral and nuclear norms from the SVD; the other norms as reductions)
against NumPy on every layout, with NumPy's solutions also where a
Cholesky factor is solved by substitution, with NumPy's
dtypes; NumPy's errors (LinAlgError, ValueError) for matrices LAPACK
rejects; CompileErrors naming what is not supported. Stacks of matrices:
test_linalg_stacks.py."""
import numpy as np
import numpy.linalg as la
import pytest

import vrir

RNG = np.random.default_rng(23)
G = RNG.random((6, 6))
SPD = G @ G.T + 6 * np.eye(6)
A = RNG.random((6, 6)) + 2 * np.eye(6)
b = RNG.random(6)
B = RNG.random((6, 3))


def same(got, want, rtol=1e-9):
    """Results of two LAPACKs (NumPy's and OpenBLAS's) agree to rounding."""
    assert np.asarray(got).shape == np.asarray(want).shape
    assert np.asarray(got).dtype == np.asarray(want).dtype, (np.asarray(got).dtype,
                                                             np.asarray(want).dtype)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol * 1e-3)


@vrir.jit
def factors(S, A, b, B):
    return (np.linalg.cholesky(S), np.linalg.cholesky(S, upper=True), np.linalg.inv(A),
            np.linalg.solve(A, b), np.linalg.solve(A, B), np.linalg.det(A))


def test_factorizations(layout2):
    got = factors(layout2(SPD), layout2(A), b, layout2(B))
    want = factors.py_func(SPD, A, b, B)
    for x, y in zip(got, want):
        same(x, y)


@vrir.jit
def cholesky_solves(S, b, B):
    # Solved by substitution with the factor (trtrs), as NumPy's LU gives
    L = np.linalg.cholesky(S)
    z = np.linalg.solve(L, b)
    U = np.linalg.cholesky(S, upper=True)
    return z, np.linalg.solve(L.T, z), np.linalg.solve(U, B), np.linalg.solve(U.T, B)


@vrir.jit
def solve_with_a_changed_factor(S, b):
    L = np.linalg.cholesky(S)
    L[0, 1] = 1.0  # no longer triangular: the general solve
    return np.linalg.solve(L, b)


def test_solves_with_cholesky_factors(layout2):
    got = cholesky_solves(layout2(SPD), b, layout2(B))
    want = cholesky_solves.py_func(SPD, b, B)
    for x, y in zip(got, want):
        same(x, y, rtol=1e-12)
    same(solve_with_a_changed_factor(layout2(SPD), b),
         solve_with_a_changed_factor.py_func(SPD, b), rtol=1e-12)


def test_only_the_lower_triangle_is_read():
    garbage = np.tril(SPD) + np.triu(RNG.random((6, 6)), 1)
    same(factors(garbage, A, b, B)[0], la.cholesky(SPD))
    # upper=True reads the upper triangle only, as NumPy's
    garbage = np.triu(SPD) + np.tril(RNG.random((6, 6)), -1)
    same(factors(garbage, A, b, B)[1], la.cholesky(SPD, upper=True))


@vrir.jit
def dtypes(S, A, b):
    return np.linalg.cholesky(S), np.linalg.inv(A), np.linalg.solve(A, b), np.linalg.det(A)


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.int32, np.bool_])
def test_dtypes(dtype):
    """float32 stays float32; integers and booleans become float64."""
    S = (SPD * 4).astype(dtype) if dtype is not np.bool_ else np.eye(4, dtype=bool)
    M = (A * 4).astype(dtype) if dtype is not np.bool_ else np.eye(4, dtype=bool)
    v = b[:len(M)].astype(dtype) if dtype is not np.bool_ else np.ones(4, bool)
    got, want = dtypes(S, M, v), dtypes.py_func(S, M, v)
    for x, y in zip(got, want):
        same(x, y, rtol=2e-5 if dtype is np.float32 else 1e-9)


@vrir.jit
def mixed(a32, B64):
    return np.linalg.solve(a32, B64)


def test_mixed_precision_solves_in_float64():
    same(mixed(A.astype(np.float32), B), la.solve(A.astype(np.float32), B))


@vrir.jit
def in_a_loop(A, n):
    total = 0.0
    for i in range(n):
        total += np.linalg.det(np.linalg.inv(A + i * np.eye(A.shape[0])))
    return total


def test_in_a_loop():
    same(in_a_loop(A, 20), in_a_loop.py_func(A, 20))


@vrir.jit
def empty(A):
    return np.linalg.inv(A), np.linalg.det(A), np.linalg.cholesky(A)


def test_empty_matrices():
    got = empty(np.zeros((0, 0)))
    assert got[0].shape == (0, 0) and got[1] == 1.0 and got[2].shape == (0, 0)


@vrir.jit
def chol(a):
    return np.linalg.cholesky(a)


@vrir.jit
def inv(a):
    return np.linalg.inv(a)


@vrir.jit
def solve(a, b):
    return np.linalg.solve(a, b)


@vrir.jit
def det(a):
    return np.linalg.det(a)


@vrir.jit
def slogdet(a):
    return np.linalg.slogdet(a)


@pytest.mark.parametrize("fn,args,error,message", [
    (chol, (-SPD,), la.LinAlgError, "not positive definite"),
    (inv, (np.ones((3, 3)),), la.LinAlgError, "singular matrix"),
    (solve, (np.ones((3, 3)), b[:3].copy()), la.LinAlgError, "singular matrix"),
    (inv, (np.ones((3, 2)),), la.LinAlgError, "not square"),
    (det, (np.ones((2, 3)),), la.LinAlgError, "not square"),
    (slogdet, (np.ones((2, 3)),), la.LinAlgError, "not square"),
    (solve, (A, b[:4].copy()), ValueError, "not aligned"),
])
def test_numpy_errors(fn, args, error, message):
    with pytest.raises(error):
        fn.py_func(*args)
    with pytest.raises(error, match=message):
        fn(*args)


def test_singular_determinant_is_zero():
    assert det(np.ones((3, 3))) == 0.0


@vrir.jit
def log_likelihood(C, x):
    """A Gaussian's log-density, as real programs use slogdet."""
    sign, logdet = np.linalg.slogdet(C)
    result = np.linalg.slogdet(C)
    return sign, logdet - 0.5 * x @ np.linalg.solve(C, x), result[0] * result[1]


def test_slogdet(layout2):
    got = log_likelihood(layout2(SPD), b)
    want = log_likelihood.py_func(SPD, b)
    for x, y in zip(got, want):
        same(x, y)
    P = A[[1, 0, 2, 3, 4, 5]]  # one row exchange more: the other sign
    for M in (A, P, -A):
        same(slogdet(layout2(M)), tuple(la.slogdet(M)))


@pytest.mark.parametrize("M", [
    10 * np.eye(400) + RNG.random((400, 400)),  # det overflows: 10^400
    0.01 * np.eye(300),  # det underflows: 10^-600
    np.ones((3, 3)),  # singular: (0, -inf)
    np.zeros((0, 0)),  # empty: (1, 0)
    (A * 4).astype(np.float32),
    (A * 4).astype(np.int64),
])
def test_slogdet_ranges_and_dtypes(M):
    got, want = slogdet(M), tuple(la.slogdet(M))
    assert [np.asarray(x).dtype for x in got] == [np.asarray(y).dtype for y in want]
    same(got, want, rtol=2e-5 if M.dtype == np.float32 else 1e-9)
    assert str(got[0]) == str(want[0])  # 0.0, not -0.0


@pytest.mark.parametrize("fn,args,message", [
    (inv, (b,), "1-dimensional array given"),
    (inv, (A + 1j * A,), "complex matrix is not supported"),
    (det, (2.0,), "must be an array"),
    (slogdet, (A + 1j * A,), "complex matrix is not supported"),
])
def test_refused(fn, args, message):
    with pytest.raises(vrir.CompileError, match=message):
        fn(*args)


# ------------------------------------------------------------- norm
@vrir.jit
def vector_norms(v):
    return (np.linalg.norm(v), np.linalg.norm(v, 2), np.linalg.norm(v, 1),
            np.linalg.norm(v, np.inf), np.linalg.norm(v, -np.inf), np.linalg.norm(v, 0),
            np.linalg.norm(v, 3), np.linalg.norm(v, ord=-1.5))


@vrir.jit
def matrix_norms(M):
    return (np.linalg.norm(M), np.linalg.norm(M, "fro"), np.linalg.norm(M, 1),
            np.linalg.norm(M, -1), np.linalg.norm(M, np.inf), np.linalg.norm(M, -np.inf),
            np.linalg.norm(M, axis=0), np.linalg.norm(M, 1, axis=1),
            np.linalg.norm(M, axis=1, keepdims=True), np.linalg.norm(M, np.inf, keepdims=True),
            np.linalg.norm(M, "fro", axis=(1, 0), keepdims=True))


@vrir.jit
def stack_norms(T):
    return np.linalg.norm(T, axis=(1, 2)), np.linalg.norm(T, 1, axis=(2, 0)), np.linalg.norm(T)


def test_vector_norms(layout1):
    v = b - 0.5
    v[2] = 0.0
    for x, y in zip(vector_norms(layout1(v)), vector_norms.py_func(v)):
        same(x, y, rtol=1e-12)


def test_matrix_norms(layout2):
    M = A - 1.0
    for x, y in zip(matrix_norms(layout2(M)), matrix_norms.py_func(M)):
        same(x, y, rtol=1e-12)
    T = RNG.random((2, 3, 4)) - 0.5
    for x, y in zip(stack_norms(T), stack_norms.py_func(T)):
        same(x, y, rtol=1e-12)


@pytest.mark.parametrize("x", [np.arange(6).reshape(2, 3), (A + 1j * A)[:3],
                               b.astype(np.float32), np.arange(5) > 2])
def test_norm_dtypes(x):
    same(vrir.jit(vector_norms.py_func)(x.reshape(-1)), vector_norms.py_func(x.reshape(-1)),
         rtol=1e-6 if x.dtype == np.float32 else 1e-12)


@vrir.jit
def spectral(M):
    return np.linalg.norm(M, 2)


@vrir.jit
def vector_fro(v):
    return np.linalg.norm(v, "fro")


@vrir.jit
def complex_spectral(M):
    return np.linalg.norm(M, 2)


def test_norm_refused():
    with pytest.raises(vrir.CompileError, match="complex singular values"):
        complex_spectral(A + 1j * A)
    with pytest.raises(vrir.CompileError, match="matrix norm; a vector"):
        vector_fro(b)


# ------------------------------------------- eigh, svd and what uses them
W = RNG.random((7, 4))
LOW_RANK = RNG.random((6, 2)) @ RNG.random((2, 5))


def same_up_to_sign(got, want, rtol=1e-9):
    """Eigenvectors and singular vectors: LAPACK chooses each one's sign."""
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(np.abs(got), np.abs(want), rtol=rtol, atol=rtol * 1e-2)


@vrir.jit
def spectra(S, M):
    w, v = np.linalg.eigh(S)
    wu, vu = np.linalg.eigh(S, UPLO="U")
    u, s, vh = np.linalg.svd(M, full_matrices=False)
    U, s2, Vh = np.linalg.svd(M)
    return (w, v, wu, vu, np.linalg.eigvalsh(S), np.linalg.eigvalsh(S, "U"), u, s, vh,
            U @ U.T, Vh.T @ Vh, np.linalg.svd(M, compute_uv=False), (u * s) @ vh)


def test_eigh_and_svd(layout2):
    # A lower triangle that is not the upper one: UPLO picks the triangle.
    S = np.tril(SPD) + np.triu(RNG.random((6, 6)), 1)
    got, want = spectra(layout2(S), layout2(W)), spectra.py_func(S, W)
    for k, (x, y) in enumerate(zip(got, want)):
        if k in (1, 3, 6, 8):
            same_up_to_sign(x, y)
        else:
            same(x, y)
    np.testing.assert_allclose(got[-1], W, rtol=1e-12)  # U diag(s) Vh = M


@pytest.mark.parametrize("dtype", [np.float32, np.int64])
def test_eigh_and_svd_dtypes(dtype):
    S, M = (SPD * 4).astype(dtype), (W * 4).astype(dtype)
    got, want = spectra(S, M), spectra.py_func(S, M)
    rtol = 2e-4 if dtype is np.float32 else 1e-9
    for k, (x, y) in enumerate(zip(got, want)):
        if k in (1, 3, 6, 8):
            same_up_to_sign(x, y, rtol)
        else:
            np.testing.assert_allclose(x, y, rtol=rtol, atol=rtol)
            assert x.dtype == y.dtype


@vrir.jit
def factorizations_qr(M):
    q, r = np.linalg.qr(M)
    qc, rc = np.linalg.qr(M, mode="complete")
    return q @ r, q.T @ q, r, qc @ rc, qc @ qc.T, rc, np.linalg.qr(M, "r")


@pytest.mark.parametrize("shape", [(7, 4), (4, 7), (5, 5)])
def test_qr(layout2, shape):
    M = RNG.random(shape)
    got, want = factorizations_qr(layout2(M)), factorizations_qr.py_func(M)
    for x, y in zip(got, want):
        same(x, y)
    np.testing.assert_allclose(got[0], M, rtol=1e-12)


def qr_raw(a):
    return np.linalg.qr(a, mode="raw")


def test_qr_raw_refused():
    with pytest.raises(vrir.CompileError, match="'raw' is not supported"):
        vrir.jit(qr_raw)(np.ones((3, 3)))


@vrir.jit
def from_the_svd(M, L, A):
    return (np.linalg.pinv(M), np.linalg.pinv(L, rcond=1e-10), np.linalg.pinv(L, rtol=None),
            np.linalg.matrix_rank(L), np.linalg.matrix_rank(M), np.linalg.matrix_rank(L, tol=1e-3),
            np.linalg.matrix_rank(np.zeros(3)), np.linalg.matrix_rank(np.ones(3)),
            np.linalg.cond(A), np.linalg.cond(A, -2), np.linalg.cond(A, 1), np.linalg.cond(A, "fro"),
            np.linalg.norm(M, 2), np.linalg.norm(M, -2), np.linalg.norm(M, "nuc"),
            np.linalg.norm(M, 2, keepdims=True), np.linalg.norm(M, "nuc", axis=(1, 0)))


def test_pinv_rank_cond_and_spectral_norms(layout2):
    got = from_the_svd(layout2(W), layout2(LOW_RANK), layout2(A))
    want = from_the_svd.py_func(W, LOW_RANK, A)
    for x, y in zip(got, want):
        same(x, y)
    assert got[3] == 2 and got[4] == 4


@vrir.jit
def least_squares(M, v, V):
    x, res, rank, s = np.linalg.lstsq(M, v)
    x2, res2, rank2, s2 = np.linalg.lstsq(M, V, rcond=None)
    x3, res3, rank3, s3 = np.linalg.lstsq(M.T, v[:4])  # underdetermined: no residuals
    return x, res, rank, s, x2, res2, rank2, x3, res3, rank3


def test_lstsq(layout2, layout1):
    v, V = RNG.random(7), RNG.random((7, 2))
    got, want = least_squares(layout2(W), layout1(v), layout2(V)), least_squares.py_func(W, v, V)
    for x, y in zip(got, want):
        same(x, y)


@vrir.jit
def eigh1(S):
    return np.linalg.eigh(S)


@vrir.jit
def svd1(M):
    return np.linalg.svd(M)


@vrir.jit
def lstsq1(M, v):
    return np.linalg.lstsq(M, v)


def test_empty_spectra():
    for got, want in zip(eigh1(np.zeros((0, 0))), la.eigh(np.zeros((0, 0)))):
        same(got, want)
    for M in (np.zeros((3, 0)), np.zeros((0, 2))):
        for got, want in zip(svd1(M), la.svd(M)):
            same(got, want)


@pytest.mark.parametrize("fn, args, error, message", [
    (eigh1, (np.ones((2, 3)),), la.LinAlgError, "eigh: matrix is not square"),
    (eigh1, (np.full((3, 3), np.nan),), la.LinAlgError, "eigenvalues did not converge"),
    (svd1, (np.full((3, 2), np.nan),), la.LinAlgError, "SVD did not converge"),
    (lstsq1, (np.ones((3, 2)), np.ones(4)), ValueError, "Incompatible dimensions"),
])
def test_spectral_errors(fn, args, error, message):
    with pytest.raises(error, match=message):
        fn(*args)


def bad_uplo(a):
    return np.linalg.eigh(a, UPLO="X")


def complex_eigh(a):
    return np.linalg.eigh(a + 1j)


def vector_svd(a):
    return np.linalg.svd(a[0])


def unknown_full(a):
    return np.linalg.svd(a, full_matrices=a[0, 0] > 0)


def cond_p3(a):
    return np.linalg.cond(a, 3)


def pinv_both(a):
    return np.linalg.pinv(a, 1e-3, rtol=1e-3)


def lstsq_scalar(a):
    return np.linalg.lstsq(a, 1.0)


@pytest.mark.parametrize("fn, message", [
    (bad_uplo, "UPLO must be 'L' or 'U'"),
    (complex_eigh, "eigh of a complex matrix"),
    (vector_svd, "1-dimensional array given"),
    (unknown_full, "full_matrices must be True or False"),
    (cond_p3, "p must be None, 2"),
    (pinv_both, "can't be both set"),
    (lstsq_scalar, "b must be a real array"),
])
def test_spectral_refused(fn, message):
    with pytest.raises(vrir.CompileError, match=message):
        vrir.jit(fn)(np.ones((3, 3)))


# ------------------------------------- NumPy 2's array-API names in np.linalg
@vrir.jit
def array_api(A, B, v, w, T, I):
    return (np.linalg.matmul(A, B), np.linalg.outer(v, w), np.linalg.cross(v[:3], w[:3]),
            np.linalg.tensordot(A, B, axes=1), np.linalg.trace(A), np.linalg.trace(A, offset=1),
            np.linalg.diagonal(A), np.linalg.diagonal(A, offset=-1), np.linalg.matrix_transpose(T),
            np.linalg.svdvals(B), np.linalg.vecdot(A, B.T[0]), np.linalg.vecdot(T, T, axis=1),
            np.linalg.vector_norm(A), np.linalg.vector_norm(T, axis=1, ord=1),
            np.linalg.vector_norm(v, keepdims=True), np.linalg.matrix_norm(A),
            np.linalg.matrix_norm(A, ord=2, keepdims=True), np.linalg.matrix_power(A, 5),
            np.linalg.matrix_power(A, -2), np.linalg.matrix_power(I, 3),
            np.linalg.matrix_power(I, 0), np.linalg.matrix_power(A, 0))


def test_array_api_names(layout2):
    v, w, T = RNG.random(4), RNG.random(4), RNG.random((2, 3, 4))
    I = np.arange(16).reshape(4, 4) % 3
    args = (A, B[:, :3].copy(), v, w, T, I)
    got = array_api(layout2(A), layout2(args[1]), v, w, T, layout2(I))
    for x, y in zip(got, array_api.py_func(*args)):
        same(x, y)


def power_of_int_by_variable(a, n):
    return np.linalg.matrix_power(a, n)


def vector_norm_keepdims(x):
    return np.linalg.vector_norm(x, keepdims=True)


@vrir.jit
def power(a, n):
    return np.linalg.matrix_power(a, n)


def test_array_api_errors():
    with pytest.raises(vrir.CompileError, match="needs a constant n"):
        vrir.jit(power_of_int_by_variable)(np.eye(3, dtype=np.int64), 2)
    with pytest.raises(vrir.CompileError, match="keepdims with axis=None"):
        vrir.jit(vector_norm_keepdims)(np.ones((2, 2)))
    with pytest.raises(ValueError, match="must be square"):
        power(np.ones((2, 3)), 2)
    same(power(A, 3), la.matrix_power(A, 3))
    same(power(A, -1), la.inv(A))
