# RUN: %python %vrir_src_root/test/Integration/compare.py %s %t
# RUN: %python %vrir_src_root/test/Integration/compare.py %s %t-keep --keep-checks
# RUN: %python %vrir_src_root/test/Integration/compare.py %s %t-regions --specialize
# RUN: env VRIR_SPECIALIZE=all %python %vrir_src_root/test/Integration/compare.py %s %t-regions-all --specialize
# Kernels of the CPU lowering issue, against NumPy: a 2-D Jacobi stencil,
# matrix multiply as loops, LU, CSR sparse matrix-vector product, column-major
# access, NumPy negative indices, atomics, and every kind of bounds error.
import numpy as np

SOURCE = "Inputs/kernels.mlir"
rng = np.random.default_rng(1)

# Jacobi 2-D, 5 sweeps.
A = rng.random((24, 24))
B = A.copy()
Aj, Bj = A.copy(), B.copy()
for _ in range(5):
    Bj[1:-1, 1:-1] = 0.2 * (Aj[1:-1, 1:-1] + Aj[:-2, 1:-1] + Aj[2:, 1:-1]
                            + Aj[1:-1, :-2] + Aj[1:-1, 2:])
    Aj[1:-1, 1:-1] = Bj[1:-1, 1:-1]

# Matrix multiply.
P, Q = rng.random((13, 17)), rng.random((17, 11))
C = rng.random((13, 11))

# LU without pivoting of a diagonally dominant matrix.
M = rng.random((12, 12)) + 12 * np.eye(12)
L, U = np.tril(M, -1), np.triu(M)
lu_expected = M.copy()
for k in range(12):
    lu_expected[k + 1:, k] /= lu_expected[k, k]
    lu_expected[k + 1:, k + 1:] -= np.outer(lu_expected[k + 1:, k],
                                            lu_expected[k, k + 1:])

# CSR sparse matrix.
dense = rng.random((20, 15)) * (rng.random((20, 15)) < 0.3)
rows, cols = np.nonzero(dense)
indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=20))])
x = rng.random(15)

cm = np.asfortranarray(rng.random((5, 7)))
vec = np.arange(10.0)
values = rng.integers(0, 8, 1000)

CASES = [
    Case("jacobi2d", [("A", A), ("B", B), ("steps", 5)],
         inplace={"A": Aj, "B": Bj}),
    Case("jacobi2d", [("A", A), ("B", B), ("steps", 5)],
         inplace={"A": Aj, "B": Bj}, extra=["--threads", "1"]),
    Case("matmul_loops", [("A", P), ("B", Q), ("C", C)],
         inplace={"C": C + P @ Q}),
    Case("lu", [("A", M)], inplace={"A": lu_expected}),
    Case("spmv", [("indptr", indptr.astype(np.int64)),
                  ("indices", cols.astype(np.int64)),
                  ("data", dense[rows, cols]), ("x", x)],
         results=[dense @ x]),
    Case("transpose_loops", [("A", cm)], results=[cm.T]),
    Case("get", [("A", vec), ("i", 3)], results=[3.0]),
    Case("get", [("A", vec), ("i", -1)], results=[9.0]),
    Case("get", [("A", vec), ("i", -10)], results=[0.0]),
    Case("histogram", [("values", values.astype(np.int64)), ("bins", 8)],
         results=[np.bincount(values, minlength=8)]),
    Case("max_cas", [("values", values.astype(np.int64))],
         results=[values.max()]),
    # Errors: upper bound, a negative index past the front, a bad bin in a
    # parallel loop.
    Case("get", [("A", vec), ("i", 10)],
         error="array 'A', accessed at"),
    Case("get", [("A", vec), ("i", 10)],
         error="dimension 0, index 10, extent 10"),
    Case("get", [("A", vec), ("i", -11)],
         error="dimension 0, index -11, extent 10"),
    Case("histogram", [("values", values.astype(np.int64)), ("bins", 7)],
         error="index 7, extent 7 (in a parallel loop)"),
]
