"""GEMM (PolyBench): C = alpha * A @ B + beta * C."""
import numpy as np

import vrir


def gemm(alpha, beta, A, B, C):
    C[:, :] = alpha * (A @ B) + beta * C


def gemm_loops(alpha, beta, A, B, C):
    n, m = C.shape
    p = A.shape[1]
    for i in vrir.prange(n):
        for j in range(m):
            C[i, j] *= beta
        for k in range(p):
            a = alpha * A[i, k]
            for j in range(m):
                C[i, j] += a * B[k, j]


numpy_version = gemm


def make_inputs(n):
    rng = np.random.default_rng(1)
    return 1.5, 1.2, rng.random((n, n)), rng.random((n, n)), rng.random((n, n))


KERNEL = gemm
PARALLEL = None
OUTPUTS = (4,)
SIZES = {"test": 40, "bench": 1000}


def main(n=SIZES["test"]):
    args = make_inputs(n)
    want = args[4].copy()
    numpy_version(*args[:4], want)
    for fn in (gemm, gemm_loops):
        C = args[4].copy()
        vrir.jit(fn)(*args[:4], C)
        np.testing.assert_allclose(C, want, rtol=1e-12)
    print(f"gemm {n}x{n}: ok")


if __name__ == "__main__":
    main()
