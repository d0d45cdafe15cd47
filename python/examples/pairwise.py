"""Pairwise Euclidean distances between the rows of X."""
import numpy as np

import vrir


def pairwise(X, D):
    m, k = X.shape
    for i in vrir.prange(m):
        for j in range(m):
            s = 0.0
            for d in range(k):
                t = X[i, d] - X[j, d]
                s += t * t
            D[i, j] = np.sqrt(s)


def numpy_version(X, D):
    diff = X[:, None, :] - X[None, :, :]
    D[...] = np.sqrt((diff * diff).sum(axis=-1))


def make_inputs(n):
    rng = np.random.default_rng(4)
    return rng.random((n, 3)), np.zeros((n, n))


KERNEL = pairwise
PARALLEL = pairwise
OUTPUTS = (1,)
SIZES = {"test": 50, "bench": 2000}


def main(n=SIZES["test"]):
    X, D = make_inputs(n)
    want = D.copy()
    numpy_version(X, want)
    vrir.jit(pairwise)(X, D)
    np.testing.assert_allclose(D, want, rtol=1e-12, atol=1e-15)
    # a strided view of the points
    wide = np.zeros((n, 6))
    wide[:, ::2] = X
    D2 = np.zeros((n, n))
    vrir.jit(pairwise)(wide[:, ::2], D2)
    np.testing.assert_allclose(D2, want, rtol=1e-12, atol=1e-15)
    print(f"pairwise {n} points: ok")


if __name__ == "__main__":
    main()
