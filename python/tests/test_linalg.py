"""np.eye, np.identity and np.linalg (cholesky, inv, solve, det through
LAPACK; norm as reductions) against NumPy on every layout, with NumPy's
dtypes; NumPy's errors (LinAlgError, ValueError) for matrices LAPACK
rejects; CompileErrors naming what is not supported."""
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


def test_only_the_lower_triangle_is_read():
    garbage = np.tril(SPD) + np.triu(RNG.random((6, 6)), 1)
    same(factors(garbage, A, b, B)[0], la.cholesky(SPD))


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


@pytest.mark.parametrize("fn,args,error,message", [
    (chol, (-SPD,), la.LinAlgError, "not positive definite"),
    (inv, (np.ones((3, 3)),), la.LinAlgError, "singular matrix"),
    (solve, (np.ones((3, 3)), b[:3].copy()), la.LinAlgError, "singular matrix"),
    (inv, (np.ones((3, 2)),), la.LinAlgError, "not square"),
    (det, (np.ones((2, 3)),), la.LinAlgError, "not square"),
    (solve, (A, b[:4].copy()), ValueError, "not aligned"),
])
def test_numpy_errors(fn, args, error, message):
    with pytest.raises(error):
        fn.py_func(*args)
    with pytest.raises(error, match=message):
        fn(*args)


def test_singular_determinant_is_zero():
    assert det(np.ones((3, 3))) == 0.0


@pytest.mark.parametrize("fn,args,message", [
    (inv, (b,), "1-dimensional array given"),
    (inv, (A + 1j * A,), "complex matrix is not supported"),
    (inv, (RNG.random((2, 3, 3)),), "stack of matrices"),
    (solve, (A, RNG.random((2, 6, 1))), "rank-3 right-hand side"),
    (det, (2.0,), "must be an array"),
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


def test_norm_refused():
    with pytest.raises(vrir.CompileError, match="needs singular values"):
        spectral(A)
    with pytest.raises(vrir.CompileError, match="matrix norm; a vector"):
        vector_fro(b)


# -------------------------------------------------------- eye, identity
@vrir.jit
def eyes(n, m, k):
    return (np.eye(n), np.eye(n, m), np.eye(n, m, k), np.eye(n, k=-k, dtype=np.int64),
            np.eye(n, M=m, k=k, dtype=np.bool_, order="F"), np.identity(n),
            np.identity(n, dtype=np.float32))


@pytest.mark.parametrize("n,m,k", [(4, 4, 0), (3, 5, 2), (5, 3, -1), (4, 2, 7), (0, 3, 0)])
def test_eye(n, m, k):
    got, want = eyes(n, m, k), eyes.py_func(n, m, k)
    for x, y in zip(got, want):
        assert x.dtype == y.dtype and x.shape == y.shape
        np.testing.assert_array_equal(x, y)
    assert got[4].flags.f_contiguous


def test_eye_negative_size():
    with pytest.raises(ValueError, match="negative dimensions"):
        eyes(-1, 2, 0)


@vrir.jit
def module_alias(a, b):
    return la.solve(a, b) + la.norm(b)


def test_numpy_linalg_imported_as_a_module():
    same(module_alias(A, b), module_alias.py_func(A, b))


@vrir.jit(target="opencl")
def inverse_on_gpu(a):
    with vrir.gpu():
        x = np.linalg.inv(a)
    return x


def test_lapack_is_refused_in_gpu_sections():
    with pytest.raises(vrir.CompileError, match="calls LAPACK on the host and cannot run in a "
                                                 "vrir.gpu_section"):
        inverse_on_gpu(A)


@vrir.jit
def grams(X):
    return X.T @ X, X @ X.T, np.dot(X.T, X), np.transpose(X) @ X


def test_gram_products(layout2):
    """X.T @ X and X @ X.T are one syrk and a mirrored triangle: NumPy's
    values, exactly symmetric."""
    for X in (RNG.random((7, 4)), RNG.random((3, 5)), RNG.random((7, 4)).astype(np.float32),
              np.zeros((0, 3)), np.zeros((3, 0))):
        got, want = grams(layout2(X)), grams.py_func(X)
        for g, w in zip(got, want):
            same(g, w, rtol=1e-5 if X.dtype == np.float32 else 1e-12)
            assert np.array_equal(g, g.T)
