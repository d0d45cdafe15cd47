# RUN: vr-translate --import-vrir-sexpr -mlir-print-debuginfo %S/Inputs/figure-4-2.vrir \
# RUN:   | vr-opt -mem2reg -lift-cf-to-scf -canonicalize -mlir-print-debuginfo -o %t.mlir
# RUN: env VRIR_SEXPR_MLIR=%t.mlir %python %vrir_src_root/test/Integration/compare.py %s %t
# Thesis figure 4.2, imported from its S-expression form, compiled and run.
import os

import numpy as np

# The module the RUN lines import (compare.py takes SOURCE relative to this
# file, and an absolute path as it is).
SOURCE = os.environ["VRIR_SEXPR_MLIR"]

CASES = [
    Case("myfunc", [("a", 3), ("b", 4)], results=[7]),
    Case("myfunc", [("a", -5), ("b", 2)], results=[-3]),
    # c is an int32, as figure 4.1 declares: the sum wraps around.
    Case("myfunc", [("a", 2**31 - 1), ("b", 1)], results=[np.int32(-2**31)]),
]
