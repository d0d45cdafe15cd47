# RUN: %python %vrir_src_root/test/Integration/compare.py %s %t
# Transcendental functions and complex arithmetic on the CPU, compared with
# NumPy. (Complex div, sqrt, tan and tanh, and integer abs: math_libm.py.)
import numpy as np

SOURCE = "Inputs/transcendental_run.mlir"

rng = np.random.default_rng(9)
POS = np.asfortranarray(rng.random((3, 4)).astype(np.float32) + 0.1)
CA = rng.random(6) + 1j * rng.random(6) - (0.5 + 0.5j)
CB = rng.random(6) + 1j * rng.random(6)
CB[2] = CA[2]
CB[4] = CA[4].real + 1j * (CA[4].imag + 1)

CASES = [
    Case("transcendental", [("A", POS)],
         results=[np.sqrt(POS), np.exp(POS), np.log(POS), np.sin(POS),
                  np.cos(POS), np.tan(POS), np.tanh(POS)], rtol=2e-6),
    Case("complex_ops", [("A", CA), ("B", CB)],
         results=[CA + CB, CA - CB, CA * CB, CA ** CB, np.abs(CA),
                  np.exp(CA), np.log(CA), np.sin(CA), np.cos(CA),
                  np.conj(CA), CA.real, CA.imag, CA == CB, CA != CB],
         rtol=1e-10),
    Case("complex_scalars", [("z", 1 + 2j), ("w", 3 - 1j)],
         results=[(1 + 2j) * (3 - 1j), np.exp(1 + 2j), abs(1 + 2j),
                  complex(abs(1 + 2j))]),
]
