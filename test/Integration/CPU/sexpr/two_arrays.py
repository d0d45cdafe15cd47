# RUN: vr-translate --import-vrir-sexpr -mlir-print-debuginfo %S/Inputs/two-arrays.vrir \
# RUN:   | vr-opt -mem2reg -lift-cf-to-scf -canonicalize -mlir-print-debuginfo -o %t.mlir
# RUN: env VRIR_SEXPR_MLIR=%t.mlir %python %vrir_src_root/test/Integration/compare.py %s %t
# Functions returning two arrays, and a two-target assignment of their
# results, against NumPy.
import os

import numpy as np

SOURCE = os.environ["VRIR_SEXPR_MLIR"]
rng = np.random.default_rng(2)
A, B = rng.random((4, 6)), rng.random((4, 6))
x = rng.random(9)

CASES = [
    Case("sum_diff", [("A", A), ("B", B)], results=[A + B, A - B]),
    Case("prefix_and_total", [("x", x)],
         results=[np.cumsum(x), np.full(9, x.sum())]),
    Case("combined", [("A", A), ("B", B)], results=[np.sum((A + B) * (A - B))]),
]
