"""Jacobi 2-D (PolyBench) written with whole-array slicing: the same
function is the NumPy program and the compiled one."""
import numpy as np

import vrir


def jacobi2d(A, B, steps):
    for t in range(steps):
        B[1:-1, 1:-1] = 0.2 * (A[1:-1, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:]
                               + A[2:, 1:-1] + A[:-2, 1:-1])
        A[1:-1, 1:-1] = 0.2 * (B[1:-1, 1:-1] + B[1:-1, :-2] + B[1:-1, 2:]
                               + B[2:, 1:-1] + B[:-2, 1:-1])


numpy_version = jacobi2d


def make_inputs(n):
    i = np.arange(n, dtype=np.float64)[:, None]
    j = np.arange(n, dtype=np.float64)[None, :]
    A = (i * (j + 2) + 2) / n
    B = (i * (j + 3) + 3) / n
    return A, B, 20


KERNEL = jacobi2d
PARALLEL = None
OUTPUTS = (0, 1)
SIZES = {"test": 50, "bench": 1000}


def main(n=SIZES["test"]):
    args = make_inputs(n)
    want = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    numpy_version(*want)
    vrir.jit(jacobi2d)(*args)
    np.testing.assert_allclose(args[0], want[0], rtol=1e-13)
    np.testing.assert_allclose(args[1], want[1], rtol=1e-13)
    print(f"jacobi2d {n}x{n}: ok")


if __name__ == "__main__":
    main()
