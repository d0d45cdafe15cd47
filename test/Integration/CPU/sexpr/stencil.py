# RUN: vr-translate --import-vrir-sexpr -mlir-print-debuginfo %S/Inputs/stencil.vrir \
# RUN:   | vr-opt -mem2reg -lift-cf-to-scf -canonicalize -mlir-print-debuginfo -o %t.mlir
# RUN: env VRIR_SEXPR_MLIR=%t.mlir %python %vrir_src_root/test/Integration/compare.py %s %t
# A 2-D Jacobi stencil written in the S-expression form (pfor over a domain
# variable, shared lists given and auto), against NumPy.
import os

import numpy as np

SOURCE = os.environ["VRIR_SEXPR_MLIR"]
rng = np.random.default_rng(5)


def jacobi(A, B, steps):
    A, B = A.copy(), B.copy()
    for _ in range(steps):
        B[1:-1, 1:-1] = 0.2 * (A[1:-1, 1:-1] + A[:-2, 1:-1] + A[2:, 1:-1]
                               + A[1:-1, :-2] + A[1:-1, 2:])
        A[1:-1, 1:-1] = B[1:-1, 1:-1]
    return A, B


A, B = rng.random((20, 17)), np.zeros((20, 17))
A5, B5 = jacobi(A, B, 5)
A0, B0 = jacobi(A, B, 0)

CASES = [
    Case("jacobi", [("A", A), ("B", B), ("steps", 5)],
         inplace={"A": A5, "B": B5}),
    Case("jacobi", [("A", A), ("B", B), ("steps", 5)],
         inplace={"A": A5, "B": B5}, extra=["--threads", "1"]),
    Case("jacobi", [("A", A), ("B", B), ("steps", 0)],
         inplace={"A": A0, "B": B0}),
]
