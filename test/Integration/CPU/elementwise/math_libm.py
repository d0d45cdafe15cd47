# RUN: %python %vrir_src_root/test/Integration/compare.py %s %t
#
# Math ops without a libm function: math.absi (integer abs) and
# math.copysign (which convert-complex-to-standard emits for complex div,
# sqrt, tan and tanh) go through convert-math-to-llvm, which the CPU
# pipeline runs before convert-math-to-libm.
import numpy as np

SOURCE = "Inputs/math_libm_run.mlir"

rng = np.random.default_rng(11)
I = np.array([5, -3, 0, np.iinfo(np.int32).max, np.iinfo(np.int32).min],
             dtype=np.int32)
CA = (rng.random(6) + 1j * rng.random(6) - (0.5 + 0.5j)).astype(np.complex64)
CB = (rng.random(6) + 1j * rng.random(6) + 0.1).astype(np.complex64)

CASES = [
    # abs(INT_MIN) wraps to INT_MIN, as in NumPy.
    Case("int_abs", [("A", I)], results=[np.abs(I)]),
    Case("complex_math", [("A", CA), ("B", CB)],
         results=[CA / CB, np.sqrt(CA), np.tan(CA), np.tanh(CA)], rtol=1e-5),
]
