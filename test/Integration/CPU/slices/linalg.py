# RUN: %python %vrir_src_root/test/Integration/compare.py %s %t
# matmul (OpenBLAS for f32/f64, linalg otherwise), matvec and transpose on
# the CPU, compared with NumPy.
import numpy as np

SOURCE = "Inputs/linalg_run.mlir"

rng = np.random.default_rng(2)
A = rng.random((5, 4))
B = rng.random((4, 3))
F = np.asfortranarray(rng.random((5, 4)))
x = rng.random(4)
Ai = rng.integers(-9, 9, (3, 4)).astype(np.int64)
Bi = np.asfortranarray(rng.integers(-9, 9, (4, 2)).astype(np.int64))
Ac = rng.random((2, 3)) + 1j * rng.random((2, 3))
Bc = rng.random((3, 2)) + 1j * rng.random((3, 2))
T3 = np.arange(24, dtype=np.int64).reshape(2, 3, 4)

CASES = [
    Case("matmul", [("A", A), ("B", B)], results=[A @ B]),
    Case("matmul", [("A", A[:1]), ("B", B)], results=[A[:1] @ B]),
    # Empty inner dimension: zeros; empty result: nothing to compute.
    Case("matmul", [("A", np.zeros((3, 0))), ("B", np.zeros((0, 2)))],
         results=[np.zeros((3, 2))]),
    Case("matmul", [("A", np.zeros((0, 4))), ("B", B)],
         results=[np.zeros((0, 3))]),
    Case("matmul", [("A", A), ("B", A)],
         error="matmul: shapes (m,k) and (k2,n) not aligned"),
    Case("matmul_col", [("A", F), ("B", B)],
         results=[np.asfortranarray(F @ B)]),
    Case("matmul_views", [("A", A), ("B", rng.random((4, 5)))],
         results=None),  # filled in below
    Case("matmul_at", [("A", F), ("B", rng.random((5, 2)))], results=None),
    Case("matmul_stepped", [("A", rng.random((5, 3))),
                            ("B", np.asfortranarray(rng.random((4, 2))))],
         results=None),
    Case("matmul_f32", [("A", A.astype(np.float32)),
                        ("B", np.asfortranarray(B.astype(np.float32)))],
         results=[A.astype(np.float32) @ B.astype(np.float32)], rtol=1e-5),
    Case("matmul_i64", [("A", Ai), ("B", Bi)], results=[Ai @ Bi]),
    Case("matmul_c128", [("A", Ac), ("B", Bc)], results=[Ac @ Bc]),
    Case("matvec", [("A", A), ("x", x)], results=[A @ x]),
    Case("matvec", [("A", np.zeros((2, 0))), ("x", np.zeros(0))],
         results=[np.zeros(2)]),
    Case("matvec", [("A", A), ("x", rng.random(5))],
         error="matvec: shapes (m,n) and (n2,) not aligned"),
    Case("matvec_col", [("A", F), ("x", x)], results=[F @ x]),
    Case("matvec_reversed", [("A", A), ("x", x)], results=[A @ x[::-1]]),
    Case("matvec_i32", [("A", np.asfortranarray(Ai.astype(np.int32))),
                        ("x", np.array([1, -2, 3, 4], dtype=np.int32))],
         results=[Ai.astype(np.int32) @ np.array([1, -2, 3, 4], np.int32)]),
    Case("transpose", [("A", A)], results=[A.T.copy()]),
    Case("transpose3", [("A", T3)], results=[np.asfortranarray(T3.T)]),
]

for case in CASES:
    if case.entry == "matmul_views":
        a, b = case.args[0][1], case.args[1][1]
        case.results = [a[::2, ::-1] @ b[:, 1:]]
    elif case.entry == "matmul_stepped":
        a, b = case.args[0][1], case.args[1][1]
        case.results = [a[::2] @ b[1:]]
    elif case.entry == "matmul_at":
        a, b = case.args[0][1], case.args[1][1]
        case.results = [a.T @ b]
