"""Sparse matrix-vector product y = A x with A in CSR form."""
import numpy as np

import vrir


def csr_spmv(indptr, indices, data, x, y):
    for i in vrir.prange(y.shape[0]):
        s = 0.0
        for k in range(indptr[i], indptr[i + 1]):
            s += data[k] * x[indices[k]]
        y[i] = s


def numpy_version(indptr, indices, data, x, y):
    rows = np.repeat(np.arange(y.shape[0]), np.diff(indptr))
    y[...] = np.bincount(rows, weights=data * x[indices], minlength=y.shape[0])


def make_inputs(n, per_row=16):
    rng = np.random.default_rng(5)
    counts = rng.integers(0, 2 * per_row, n)
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(counts, out=indptr[1:])
    indices = rng.integers(0, n, indptr[-1])
    data = rng.random(indptr[-1])
    return indptr, indices, data, rng.random(n), np.zeros(n)


KERNEL = csr_spmv
PARALLEL = csr_spmv
OUTPUTS = (4,)
SIZES = {"test": 200, "bench": 1_000_000}


def main(n=SIZES["test"]):
    args = make_inputs(n)
    want = args[4].copy()
    numpy_version(*args[:4], want)
    vrir.jit(csr_spmv)(*args)
    np.testing.assert_allclose(args[4], want, rtol=1e-12)
    print(f"csr_spmv {n} rows, {args[2].size} nonzeros: ok")


if __name__ == "__main__":
    main()
