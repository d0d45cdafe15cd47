# RUN: %python %vrir_src_root/test/Integration/compare.py %s %t
# RUN: %python %vrir_src_root/test/Integration/compare.py %s %t-keep --keep-checks
# RUN: %python %vrir_src_root/test/Integration/compare.py %s %t-regions --specialize
# RUN: env VRIR_SPECIALIZE=all %python %vrir_src_root/test/Integration/compare.py %s %t-regions-all --specialize
# The thesis's example programs (test/Dialect/VRIR/examples), run on the CPU
# and compared with NumPy.
import numpy as np

EXAMPLES = "../../Dialect/VRIR/examples/"
SOURCE = "Inputs/thesis_figures_run.mlir"

rng = np.random.default_rng(0)
A = rng.random((6, 7))
m, n = A.shape

# Figure 9.2 over the interior (the figure's own domain reads past the last
# row and column; see the error cases below).
B = np.zeros_like(A)
expected = B.copy()
for i in range(m - 1):
    for j in range(n - 1):
        expected[i, j] = (A[i, j] + A[i - 1, j] + A[i + 1, j] + A[i, j + 1]
                          + A[i, j - 1]) / 5

# Figure 6.5: stencil called m times from foo.
a65 = rng.random(8)
b65 = rng.random(9)
want65 = a65.copy()
for _ in range(3):
    for i in range(1, len(a65)):
        want65[i] = (b65[i] + b65[i - 1] + b65[i + 1]) / 3

# Figure 6.2 (MATLAB, 1-based): B(i,j) = A(i,j)*2 + A(j,j)*2 for j >= i.
a62 = np.asfortranarray(rng.random((4, 4)))
want62 = np.zeros((4, 4))
for i in range(4):
    for j in range(i, 4):
        want62[i, j] = a62[i, j] * 2 + a62[j, j] * 2

CASES = [
    Case("myfunc", [("a", 20), ("b", 22)], results=[42],
         source=EXAMPLES + "fig4_2_myfunc.mlir"),
    Case("fig4_5", [], results=[np.ones(10)],
         source=EXAMPLES + "fig4_5_pfor_shared.mlir"),
    Case("stencil_interior", [("A", A), ("B", B)], inplace={"B": expected}),
    Case("stencil_interior_serial", [("A", A), ("B", B)],
         inplace={"B": expected}),
    Case("foo", [("A", a65), ("B", b65), ("m", 3)], inplace={"A": want65},
         source=EXAMPLES + "fig6_5_stencil_inline.mlir"),
    Case("gn", [("A", a62)], results=[want62], source="Inputs/fig6_2_gn_run.mlir"),
    # The figures as written: A[i+1,j] at i = m-1 is out of bounds in NumPy.
    Case("stencil", [("A", A), ("B", B)],
         error="index out of bounds: array 'A'",
         source=EXAMPLES + "fig9_2_stencil_gpu.mlir"),
    Case("stencil_serial", [("A", A), ("B", B)],
         error="dimension 1, index 7, extent 7",
         source=EXAMPLES + "fig9_2_stencil_gpu.mlir"),
]
