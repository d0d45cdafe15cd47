# RUN: %python %vrir_src_root/test/Integration/compare.py %s %t
# 8- and 16-bit integers (int8, int16; uint8 through unsigned arith ops) on
# the CPU, compared with NumPy: wrap-around, casts, reductions, comparisons,
# loops over a strided view.
import numpy as np

SOURCE = "Inputs/small_integers_run.mlir"

rng = np.random.default_rng(12)
X = rng.integers(-128, 128, 40).astype(np.int8)
Y = rng.integers(-128, 128, 40).astype(np.int8)
Y[Y == 0] = 1
H = rng.integers(-32768, 32768, (5, 7)).astype(np.int16)
# In range of int16 (the conversion of anything else is undefined).
F = rng.uniform(-30000, 30000, (5, 7))


def prefix(x):
    x = x.copy()
    view = x[::2]
    total = np.cumsum(view.astype(np.int64))
    view[:] = total.astype(np.int8)
    return x, int(total[-1])


UX, UY = X.view(np.uint8), Y.view(np.uint8)
CASES = [
    Case("wrap", [("x", X), ("y", Y)], results=[X + Y, X * Y]),
    Case("casts", [("x", X), ("h", H), ("f", F)],
         results=[X.astype(np.int64), H.astype(np.float64),
                  H.astype(np.int8), F.astype(np.int16)]),
    Case("reductions", [("h", H)],
         results=[H.sum(dtype=np.int16), H.max(axis=0), H.min(axis=1),
                  np.asfortranarray(H)]),
    Case("less", [("x", X), ("y", Y)], results=[X < Y]),
    Case("prefix", [("x", X)], inplace={"x": prefix(X)[0]},
         results=[prefix(X)[1]]),
    Case("unsigned", [("x", X), ("y", Y)],
         results=[(UX // UY).view(np.int8), UX > UY, UX.astype(np.float64)]),
]
