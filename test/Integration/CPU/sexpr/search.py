# RUN: vr-translate --import-vrir-sexpr -mlir-print-debuginfo %S/Inputs/search.vrir \
# RUN:   | vr-opt -mem2reg -lift-cf-to-scf -canonicalize -mlir-print-debuginfo -o %t.mlir
# RUN: env VRIR_SEXPR_MLIR=%t.mlir %python %vrir_src_root/test/Integration/compare.py %s %t
# Loops that leave early: break out of a for loop, continue and return from
# inside a while loop (cf branches lifted back to scf), against Python.
import os

import numpy as np

SOURCE = os.environ["VRIR_SEXPR_MLIR"]
values = np.array([1.0, -2.0, 3.0, 0.0, 5.0, -200.0, 7.0])


def find_first(A, x):
    for i, a in enumerate(A):
        if a > x:
            return i
    return -1


def sum_pos(A):
    s = 0.0
    for a in A:
        if a < -100:
            return s
        if a <= 0:
            continue
        s += a
    return s


CASES = [Case("find_first", [("A", values), ("x", x)],
              results=[find_first(values, x)]) for x in (0.5, 2.0, 4.0, 10.0)]
CASES += [
    Case("find_first", [("A", np.zeros(0)), ("x", 0.0)], results=[-1]),
    Case("sum_pos", [("A", values)], results=[sum_pos(values)]),
    Case("sum_pos", [("A", values[:5])], results=[sum_pos(values[:5])]),
    Case("sum_pos", [("A", np.zeros(0))], results=[0.0]),
]
