# RUN: %python %vrir_src_root/test/Integration/compare.py %s %t
# NumPy broadcasting of element-wise ops on the CPU: trailing dimensions
# align, dimensions of size 1 and missing ones expand, anything else is a
# run-time error.
import numpy as np

SOURCE = "Inputs/broadcast_run.mlir"

rng = np.random.default_rng(7)
A = rng.random((4, 5))
row = rng.random(5)
col = np.asfortranarray(rng.random((4, 1)))
line = rng.random((1, 5))
T = rng.random((3, 1, 4)).astype(np.float32)
P = rng.random((5, 4)).astype(np.float32)
F = np.asfortranarray(rng.random((3, 4)) + 0.5)
W = np.asfortranarray(rng.random((3, 4)))
COND = rng.random((4, 1)) > 0.5
VA = np.arange(5, dtype=np.int64)
VB = -np.arange(10, dtype=np.int64).reshape(2, 1, 5)

CASES = [
    Case("add", [("A", A), ("B", row)], results=[A + row]),
    Case("add", [("A", A), ("B", row[:1])], results=[A + row[:1]]),
    Case("add", [("A", A[:0]), ("B", row)], results=[A[:0] + row]),
    Case("add", [("A", A[:, :1]), ("B", row[:0])], results=[A[:, :1] + row[:0]]),
    Case("add", [("A", A), ("B", row[:4])],
         error="operands could not be broadcast together: vrir.binary add"),
    Case("add", [("A", A[:, :0]), ("B", row)],
         error="dimension 1 of the result"),
    Case("outer", [("A", col), ("B", line)], results=[col * line]),
    Case("outer", [("A", np.asfortranarray(A)), ("B", line)],
         results=[A * line]),
    Case("outer", [("A", np.asfortranarray(A[:, :1])), ("B", A[:1])],
         results=[A[:, :1] * A[:1]]),
    Case("outer", [("A", np.asfortranarray(A[:, :3])), ("B", A)],
         error="dimension 1 of the result"),
    Case("sub3", [("A", T), ("B", P)], results=[T - P], rtol=1e-6),
    Case("sub3", [("A", np.zeros((3, 2, 4), np.float32)), ("B", P)],
         error="dimension 1 of the result"),
    Case("scalar_div", [("A", F), ("s", 3.0)], results=[3.0 / F]),
    Case("rank0_pow", [("a", np.array(3.0)), ("B", row)],
         results=[row ** 3.0]),
    Case("where", [("A", A[:3, :4]), ("B", W)],
         results=[np.where(A[:3, :4] > W, A[:3, :4], 0.0)]),
    Case("where_broadcast", [("C", COND), ("A", VA), ("B", VB)],
         results=[np.where(COND, VA, VB)]),
]
