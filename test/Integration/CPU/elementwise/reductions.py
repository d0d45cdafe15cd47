# RUN: %python %vrir_src_root/test/Integration/compare.py %s %t
# Reductions on the CPU, compared with NumPy: NaN propagates through min
# and max, min and max of nothing are errors, sum and prod of nothing are
# 0 and 1.
import numpy as np

SOURCE = "Inputs/reductions_run.mlir"

rng = np.random.default_rng(12)
RC = np.asfortranarray(rng.random((4, 3)) + 0.5)
RC_NAN = RC.copy(order="F")
RC_NAN[2, 1] = np.nan
RI = rng.integers(-20, 20, size=(3, 4, 5)).astype(np.int32)
R3 = rng.random((3, 4, 5)) - 0.5
R3_NAN = R3.copy()
R3_NAN[1, 2, 3] = np.nan
RL = np.asfortranarray(rng.integers(-9, 9, size=(4, 3)).astype(np.int64))
RZ = rng.random((2, 3)) + 1j * rng.random((2, 3))
SMALL = np.array([0.25, 0.5, 1.25])
X = np.array([1.5, -2.5, np.nan, 3.0])
NORMS = rng.random((6, 3))

CASES = [
    Case("reduce_all_f64", [("A", RC)],
         results=[RC.sum(), RC.prod(), RC.min(), RC.max()]),
    Case("reduce_all_f64", [("A", RC_NAN)],
         results=[np.nan, np.nan, np.nan, np.nan]),
    # Integer sums wrap in the element type (the frontend widens first
    # where NumPy would).
    Case("reduce_all_i32", [("A", RI)],
         results=[RI.sum(dtype=np.int32), RI.prod(dtype=np.int32), RI.min(),
                  RI.max()]),
    Case("sum_prod_1d", [("A", np.zeros(0, np.float32))], results=[0.0, 1.0]),
    Case("sum_prod_1d", [("A", SMALL.astype(np.float32))],
         results=[SMALL.sum(), SMALL.prod()], rtol=1e-6),
    Case("min_1d", [("A", X)], results=[np.nan]),
    Case("min_1d", [("A", np.zeros(0))],
         error="zero-size array to reduction operation min which has no "
               "identity"),
    Case("reduce_complex", [("A", RZ)], results=[RZ.sum(), RZ.prod()]),
    Case("reduce_axes", [("A", R3)],
         results=[R3.sum(axis=0), np.asfortranarray(R3.max(axis=1)),
                  R3.min(axis=2)]),
    Case("reduce_axes", [("A", R3_NAN)],
         results=[R3_NAN.sum(axis=0), np.asfortranarray(R3_NAN.max(axis=1)),
                  R3_NAN.min(axis=2)]),
    Case("reduce_axis_col", [("A", RL)],
         results=[RL.prod(axis=0), RL.max(axis=1)]),
    Case("min_axis0", [("A", np.zeros((3, 0)))], results=[np.zeros(0)]),
    Case("min_axis0", [("A", np.zeros((0, 3)))],
         error="zero-size array to reduction operation min"),
    # 3 million iterations: a stack slot per iteration would overflow.
    Case("sum_in_loop", [("A", SMALL), ("n", 3_000_000)],
         results=[3_000_000 * SMALL.sum()]),
    Case("row_norms", [("A", NORMS), ("B", np.zeros(6)), ("n", 6)],
         inplace={"B": np.linalg.norm(NORMS, axis=1)}),
]
