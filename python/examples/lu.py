"""LU decomposition without pivoting (PolyBench `lu`), in place."""
import numpy as np

import vrir


def lu(A):
    n = A.shape[0]
    for k in range(n):
        pivot = A[k, k]
        for i in range(k + 1, n):
            A[i, k] /= pivot
        for i in range(k + 1, n):
            f = A[i, k]
            for j in range(k + 1, n):
                A[i, j] -= f * A[k, j]


def lu_prange(A):
    n = A.shape[0]
    for k in range(n):
        pivot = A[k, k]
        for i in vrir.prange(k + 1, n):
            f = A[i, k] / pivot
            A[i, k] = f
            for j in range(k + 1, n):
                A[i, j] -= f * A[k, j]


def numpy_version(A):
    n = A.shape[0]
    for k in range(n):
        A[k + 1:, k] /= A[k, k]
        A[k + 1:, k + 1:] -= np.outer(A[k + 1:, k], A[k, k + 1:])


def make_inputs(n):
    rng = np.random.default_rng(2)
    A = rng.random((n, n))
    return (A + n * np.eye(n),)  # diagonally dominant: stable without pivoting


KERNEL = lu
PARALLEL = lu_prange
OUTPUTS = (0,)
SIZES = {"test": 30, "bench": 600}


def main(n=SIZES["test"]):
    (A,) = make_inputs(n)
    want = A.copy()
    numpy_version(want)
    for fn in (lu, lu_prange):
        got = A.copy()
        vrir.jit(fn)(got)
        np.testing.assert_allclose(got, want, rtol=1e-11)
    L = np.tril(want, -1) + np.eye(n)
    np.testing.assert_allclose(L @ np.triu(want), A, rtol=1e-11)
    print(f"lu {n}x{n}: ok")


if __name__ == "__main__":
    main()
