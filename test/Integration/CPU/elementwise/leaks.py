# RUN: %python %vrir_src_root/test/Integration/compare.py %s %t --leaks
# Element-wise code frees its temporaries (the mask of a select, an array
# made in every iteration of a parallel loop) and returns new arrays
# without leaking, under valgrind.
import numpy as np

SOURCE = "Inputs/leaks_run.mlir"

rng = np.random.default_rng(13)
A = rng.random((3, 4))
W = np.asfortranarray(rng.random((3, 4)))
NORMS = rng.random((6, 3))

CASES = [
    Case("where", [("A", A), ("B", W)], results=[np.where(A > W, A, 0.0)]),
    Case("row_norms", [("A", NORMS), ("B", np.zeros(6)), ("n", 6)],
         inplace={"B": np.linalg.norm(NORMS, axis=1)}),
]
