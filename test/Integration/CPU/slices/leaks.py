# RUN: %python %vrir_src_root/test/Integration/compare.py %s %t --leaks
# Temporaries of slices and products are freed (under valgrind): copies of
# slices, the copy of an overlapping assigned value, a returned view,
# gathered arrays, the packed BLAS operands, a permuted view of a
# temporary, a reshape that copies, and LAPACK's copies and workspaces
# (each case costs ~40 s under valgrind, so only two views).
import numpy as np

SOURCE = "Inputs/slices_run.mlir"
LINALG = "Inputs/linalg_run.mlir"
VIEWS = "Inputs/views_run.mlir"
LAPACK = "Inputs/lapack_run.mlir"

rng = np.random.default_rng(3)
A = rng.random((5, 6))
v = np.arange(7.0)


def shifted(x):
    result = x.copy()
    result[1:] = result[:-1]
    return result


B = rng.random((4, 5))
CASES = [
    Case("block_copy", [("A", A), ("a", -1), ("b", 0), ("s", -2), ("c", 1),
                        ("d", 4), ("t", 1)],
         results=[np.asfortranarray(A[-1:0:-2, 1:4])]),
    Case("rows_view", [("A", A), ("a", -1), ("b", -100), ("s", -2)],
         results=[A[-1:-100:-2]]),
    Case("shift", [("A", v)], inplace={"A": shifted(v)}),
    Case("take_columns", [("A", A), ("idx", np.array([1, -1], np.int64))],
         results=[np.take(A, [1, -1], axis=1)]),
    Case("matmul_views", [("A", A[:, :4].copy()), ("B", B)],
         results=[A[:, :4][::2, ::-1] @ B[:, 1:]], source=LINALG),
    Case("matvec_reversed", [("A", A[:, :4].copy()), ("x", v[:4].copy())],
         results=[A[:, :4] @ v[:4][::-1]], source=LINALG),
    Case("transposed_temporary", [("A", A)], results=[(A + A).T],
         source=VIEWS),
    Case("strided_flat_copy", [("A", A), ("x", 3.0)],
         results=[A[::2, ::2].reshape(-1)], source=VIEWS),
    # LAPACK's copies, pivots and workspace, in a loop and copied back.
    Case("det_sum", [("A", A[:, :5] + 5 * np.eye(5)), ("n", 2)],
         results=[2 * np.linalg.det(np.linalg.inv(A[:, :5] + 5 * np.eye(5)))],
         rtol=1e-9, source=LAPACK),
    Case("solve_matrix", [("A", np.asfortranarray(A[:, :5] + 5 * np.eye(5))),
                          ("B", B.T.copy())],
         results=[np.linalg.solve(A[:, :5] + 5 * np.eye(5), B.T)], rtol=1e-10,
         source=LAPACK),
]
