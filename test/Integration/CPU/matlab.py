# RUN: %python %vrir_src_root/test/Integration/compare.py %s %t
# RUN: %python %vrir_src_root/test/Integration/compare.py %s %t-keep --keep-checks
# RUN: %python %vrir_src_root/test/Integration/compare.py %s %t-regions --specialize
# MATLAB semantics against NumPy: growth on write in a loop (and thesis
# figure 4.4), column-major linear indexing, 1-based inclusive ranges with
# negative steps, and the 1-based bounds errors.
import numpy as np

SOURCE = "Inputs/matlab.mlir"
A = np.asfortranarray(np.arange(6.0).reshape(2, 3))

CASES = [
    Case("squares", [("n", 7)], results=[np.arange(1, 8.0) ** 2]),
    Case("squares", [("n", 0)], results=[np.zeros(0)]),
    Case("fig4_4", [], results=[np.array([[0, 0], [0, 0], [0, 1.0]])]),
    # A(k) runs down the columns.
    Case("linear", [("A", A), ("k", 1)], results=[A.ravel("F")[0]]),
    Case("linear", [("A", A), ("k", 4)], results=[A.ravel("F")[3]]),
    Case("linear", [("A", A), ("k", 6)], results=[A.ravel("F")[5]]),
    Case("get2", [("A", A), ("i", 2), ("j", 3)], results=[A[1, 2]]),
    Case("range_sum", [("a", 1), ("step", 1), ("b", 10)], results=[55]),
    Case("range_sum", [("a", 10), ("step", -3), ("b", 1)],
         results=[10 + 7 + 4 + 1]),
    Case("range_sum", [("a", 5), ("step", 1), ("b", 4)], results=[0]),
    # Errors: index 0 (below the base), past the end, a linear index past
    # the number of elements.
    Case("get2", [("A", A), ("i", 0), ("j", 1)],
         error="dimension 1, index 0, extent 2"),
    Case("get2", [("A", A), ("i", 1), ("j", 4)],
         error="dimension 2, index 4, extent 3"),
    Case("linear", [("A", A), ("k", 7)],
         error="dimension 1, index 7, extent 6"),
]
