"""Heat 3-D (PolyBench) written with whole-array slicing."""
import numpy as np

import vrir


def heat3d(A, B, steps):
    for t in range(steps):
        B[1:-1, 1:-1, 1:-1] = (
            0.125 * (A[2:, 1:-1, 1:-1] - 2.0 * A[1:-1, 1:-1, 1:-1] + A[:-2, 1:-1, 1:-1])
            + 0.125 * (A[1:-1, 2:, 1:-1] - 2.0 * A[1:-1, 1:-1, 1:-1] + A[1:-1, :-2, 1:-1])
            + 0.125 * (A[1:-1, 1:-1, 2:] - 2.0 * A[1:-1, 1:-1, 1:-1] + A[1:-1, 1:-1, :-2])
            + A[1:-1, 1:-1, 1:-1])
        A[1:-1, 1:-1, 1:-1] = (
            0.125 * (B[2:, 1:-1, 1:-1] - 2.0 * B[1:-1, 1:-1, 1:-1] + B[:-2, 1:-1, 1:-1])
            + 0.125 * (B[1:-1, 2:, 1:-1] - 2.0 * B[1:-1, 1:-1, 1:-1] + B[1:-1, :-2, 1:-1])
            + 0.125 * (B[1:-1, 1:-1, 2:] - 2.0 * B[1:-1, 1:-1, 1:-1] + B[1:-1, 1:-1, :-2])
            + B[1:-1, 1:-1, 1:-1])


numpy_version = heat3d


def make_inputs(n):
    i, j, k = np.meshgrid(*(np.arange(n, dtype=np.float64),) * 3, indexing="ij")
    A = (i + j + (n - k)) * 10 / n
    return A, A.copy(), 10


KERNEL = heat3d
PARALLEL = None
OUTPUTS = (0, 1)
SIZES = {"test": 12, "bench": 120}


def main(n=SIZES["test"]):
    args = make_inputs(n)
    want = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    numpy_version(*want)
    vrir.jit(heat3d)(*args)
    np.testing.assert_allclose(args[0], want[0], rtol=1e-13)
    np.testing.assert_allclose(args[1], want[1], rtol=1e-13)
    print(f"heat3d {n}^3: ok")


if __name__ == "__main__":
    main()
