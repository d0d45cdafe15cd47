# RUN: vr-translate --import-vrir-sexpr -mlir-print-debuginfo %S/Inputs/matlab.vrir \
# RUN:   | vr-opt -mem2reg -lift-cf-to-scf -canonicalize -mlir-print-debuginfo -o %t.mlir
# RUN: env VRIR_SEXPR_MLIR=%t.mlir %python %vrir_src_root/test/Integration/compare.py %s %t
# A 1-based MATLAB module: inclusive ranges (also with a negative step),
# arrays that grow on write, linear indexing, copying slices, two grown
# results, and bounds errors located in the S-expression source.
import os

import numpy as np

SOURCE = os.environ["VRIR_SEXPR_MLIR"]
A = np.asfortranarray(np.arange(6.0).reshape(2, 3))
v = np.asfortranarray([1.0, 5.0, 2.0, 7.0, 3.0, 0.5])
lo, hi = v[v < 2.5], v[v >= 2.5]

CASES = [
    Case("squares", [("n", 7)], results=[np.arange(1, 8.0) ** 2]),
    Case("squares", [("n", 0)], results=[np.zeros(0)]),
    Case("fig4_4", [], results=[np.array([[0, 0], [0, 0], [0, 1.0]])]),
    Case("range_sum", [("a", 1), ("step", 1), ("b", 10)], results=[55]),
    Case("range_sum", [("a", 10), ("step", -3), ("b", 1)], results=[22]),
    Case("range_sum", [("a", 5), ("step", 1), ("b", 4)], results=[0]),
    Case("get2", [("A", A), ("i", 2), ("j", 3)], results=[A[1, 2]]),
    Case("linear", [("A", A), ("k", 4)], results=[A.ravel("F")[3]]),
    Case("column", [("A", A), ("j", 2)], results=[A[:, 1]]),
    Case("split", [("A", v), ("t", 2.5)], results=[lo, hi]),
    Case("caller", [("A", v)], results=[hi.sum() - lo.sum()]),
    # Index 0 is below the base; the error points into matlab.vrir.
    Case("get2", [("A", A), ("i", 0), ("j", 1)],
         error="matlab.vrir:60:32: dimension 1, index 0, extent 2"),
    Case("linear", [("A", A), ("k", 7)], error="dimension 1, index 7, extent 6"),
]
