"""Julia set escape counts, with complex arithmetic."""
import numpy as np

import vrir


def julia(xs, ys, c, max_iter, out):
    for i in vrir.prange(ys.shape[0]):
        for j in range(xs.shape[0]):
            z = complex(xs[j], ys[i])
            k = 0
            while k < max_iter and abs(z) <= 2.0:
                z = z * z + c
                k += 1
            out[i, j] = k


def numpy_version(xs, ys, c, max_iter, out):
    z = xs[None, :] + 1j * ys[:, None]
    count = np.zeros(z.shape, dtype=np.int64)
    alive = np.ones(z.shape, dtype=bool)
    for _ in range(max_iter):
        alive &= np.abs(z) <= 2.0
        if not alive.any():
            break
        z[alive] = z[alive] * z[alive] + c
        count += alive
    out[...] = count


def make_inputs(n):
    xs = np.linspace(-1.6, 1.6, n)
    ys = np.linspace(-1.2, 1.2, (3 * n) // 4)
    return xs, ys, complex(-0.8, 0.156), 200, np.zeros((ys.size, xs.size), dtype=np.int64)


KERNEL = julia
PARALLEL = julia
OUTPUTS = (4,)
SIZES = {"test": 64, "bench": 1000}


def main(n=SIZES["test"]):
    args = make_inputs(n)
    want = args[4].copy()
    numpy_version(*args[:4], want)
    vrir.jit(julia)(*args)
    np.testing.assert_array_equal(args[4], want)
    print(f"julia {args[4].shape}: ok")


if __name__ == "__main__":
    main()
