# RUN: %python %vrir_src_root/test/Integration/compare.py %s %t --leaks
# The CPU code frees every temporary and never frees the caller's arrays:
# programs that allocate in loops (MATLAB growth), return new arrays, and
# run parallel loops with atomics, under valgrind.
import numpy as np

SOURCE = "../Inputs/kernels.mlir"
rng = np.random.default_rng(2)
values = rng.integers(0, 8, 200).astype(np.int64)
dense = rng.random((10, 6)) * (rng.random((10, 6)) < 0.4)
rows, cols = np.nonzero(dense)
indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=10))])
cm = np.asfortranarray(rng.random((4, 5)))

CASES = [
    Case("squares", [("n", 40)], results=[np.arange(1, 41.0) ** 2],
         source="../Inputs/matlab.mlir"),
    Case("histogram", [("values", values), ("bins", 8)],
         results=[np.bincount(values, minlength=8)]),
    Case("spmv", [("indptr", indptr.astype(np.int64)),
                  ("indices", cols.astype(np.int64)),
                  ("data", dense[rows, cols]), ("x", np.ones(6))],
         results=[dense @ np.ones(6)]),
    Case("transpose_loops", [("A", cm)], results=[cm.T]),
]
