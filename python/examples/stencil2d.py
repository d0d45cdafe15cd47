"""The 2-D stencil of the thesis (figure 9.2), with a periodic boundary.

`stencil` is figure 9.2a's plain Python; `stencil_pfor` is figure 9.2b: a
parallel loop over a 2-D domain inside a GPU section (which runs on the CPU
until a GPU backend is selected). Python's negative indices give the
periodic lower boundary; `% m` gives the upper one.
"""
import numpy as np

import vrir


def stencil(A, B):
    m, n = A.shape
    for i in range(m):
        for j in range(n):
            B[i, j] = (A[i, j] + A[i - 1, j] + A[(i + 1) % m, j]
                       + A[i, (j + 1) % n] + A[i, j - 1]) / 5


def stencil_prange(A, B):
    m, n = A.shape
    for i in vrir.prange(m):
        for j in range(n):
            B[i, j] = (A[i, j] + A[i - 1, j] + A[(i + 1) % m, j]
                       + A[i, (j + 1) % n] + A[i, j - 1]) / 5


def stencil_pfor(A, B):
    m, n = A.shape
    vrir.gpu_begin()
    for i, j in vrir.pfor(vrir.Domain(m, n), shared=[A, B]):
        B[i, j] = (A[i, j] + A[i - 1, j] + A[(i + 1) % m, j]
                   + A[i, (j + 1) % n] + A[i, j - 1]) / 5
    vrir.gpu_end()


def numpy_version(A, B):
    B[...] = (A + np.roll(A, 1, 0) + np.roll(A, -1, 0)
              + np.roll(A, -1, 1) + np.roll(A, 1, 1)) / 5


def make_inputs(n):
    rng = np.random.default_rng(0)
    return rng.random((n, n)), np.zeros((n, n))


KERNEL = stencil
PARALLEL = stencil_prange
OUTPUTS = (1,)  # argument positions the kernel writes
SIZES = {"test": 37, "bench": 2000}


def main(n=SIZES["test"]):
    A, B = make_inputs(n)
    want = B.copy()
    numpy_version(A, want)
    for fn in (stencil, stencil_prange, stencil_pfor):
        got = np.zeros_like(B)
        vrir.jit(fn)(A, got)
        np.testing.assert_allclose(got, want, rtol=1e-13)
        # Fortran order and a strided view of a bigger array too
        got = np.zeros_like(B, order="F")
        vrir.jit(fn)(np.asfortranarray(A), got)
        np.testing.assert_allclose(got, want, rtol=1e-13)
    print(f"stencil2d {n}x{n}: ok")


if __name__ == "__main__":
    main()
