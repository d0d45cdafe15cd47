# RUN: %python %vrir_src_root/test/Integration/compare.py %s %t
# Casts (C conversions; astype(bool) is `!= 0`, so NaN is true; complex to
# real takes the real part) and copies between layouts on the CPU,
# compared with NumPy.
import numpy as np

SOURCE = "Inputs/casts_copies_run.mlir"

rng = np.random.default_rng(10)
# No NaN here: its conversion to an integer is undefined.
CF = np.array([1.9, -1.9, 0.0, -0.0, 3.5, -1e9, 0.25])
SPECIAL = np.array([np.nan, 0.0, -0.0, np.inf, 1e-300, -2.0])
CI = np.asfortranarray(
    np.array([[0, 1, -1], [2**40 + 5, -(2**33) - 7, 123456789]],
             dtype=np.int64))
PB = np.array([False, False, True, True])
CZ = np.array([1.5 + 2j, -2.7 + 0j, 0j, 0 - 1j, 3.25 + 0.5j],
              dtype=np.complex64)
A = rng.random((5, 6))
I = np.arange(8, dtype=np.int32).reshape(2, 4) - 3

CASES = [
    Case("casts_from_f64", [("A", CF)],
         results=[CF.astype(np.int32), CF.astype(np.float32),
                  CF.astype(bool), CF.astype(np.complex128)]),
    Case("to_bool", [("A", SPECIAL)], results=[SPECIAL.astype(bool)]),
    Case("casts_from_int", [("A", CI)],
         results=[CI.astype(np.int32), CI.astype(np.float64),
                  CI.astype(bool), CI.astype(np.complex64)]),
    Case("casts_from_bool", [("A", PB)],
         results=[PB.astype(np.int64), PB.astype(np.float32),
                  PB.astype(np.complex128)]),
    Case("casts_from_complex", [("A", CZ)],
         results=[CZ.real, CZ.real.astype(np.int32), CZ.astype(bool),
                  CZ.astype(np.complex128)]),
    Case("copies", [("A", A[::2, 1:])],
         results=[A[::2, 1:], np.asfortranarray(A[::2, 1:])]),
    Case("copies", [("A", A[:0])], results=[A[:0], A[:0]]),
    Case("copy_is_new", [("A", I)],
         results=[np.where(np.arange(8).reshape(2, 4) == 0, 99,
                           I).astype(np.int32)],
         inplace={"A": I}),
]
