# RUN: %python %vrir_src_root/test/Integration/compare.py %s %t
# Views (vrir.permute, vrir.expand_dims, vrir.reshape) on the CPU, compared
# with NumPy: values, writes through views into the viewed array, and the
# run-time errors of reshape.
import numpy as np

SOURCE = "Inputs/views_run.mlir"

rng = np.random.default_rng(4)
A = rng.random((4, 6))
F = np.asfortranarray(rng.random((3, 4)))
T = rng.random((2, 3, 4))
X = rng.random((5, 3))
v = rng.random(7)


def written(array, key, value):
    result = array.copy()
    result[key] = value
    return result


CASES = [
    Case("transposed", [("A", A)], results=[A.T]),
    Case("write_transposed", [("A", A), ("i", 5), ("j", 1), ("x", -1.0)],
         inplace={"A": written(A, (1, 5), -1.0)}),
    Case("permuted3", [("T", T), ("i", 2), ("x", 7.0)],
         results=[np.transpose(written(T, (slice(None), slice(None), 2), 7.0),
                               (2, 0, 1))],
         inplace={"T": written(T, (slice(None), slice(None), 2), 7.0)}),
    Case("transposed_temporary", [("A", A)], results=[(A + A).T]),
    Case("pairwise", [("X", X)], results=[X[:, None, :] - X[None, :, :]]),
    Case("outer_strided", [("v", v)], results=[v[::2][:, None] * v[None, :]]),
    Case("expand_col_major", [("F", F), ("x", 5.0)],
         results=[written(F, (0, 0), 5.0)[:, None]],
         inplace={"F": written(F, (0, 0), 5.0)}),
    Case("reshape2", [("A", A), ("m", 3), ("n", 8)], results=[A.reshape(3, 8)]),
    Case("reshape2", [("A", A), ("m", -1), ("n", 2)],
         results=[A.reshape(-1, 2)]),
    Case("reshape2", [("A", np.zeros((0, 3))), ("m", 0), ("n", 5)],
         results=[np.zeros((0, 5))]),
    Case("reshape2", [("A", A), ("m", 5), ("n", 5)],
         error="cannot reshape array 'A', accessed at "),
    Case("reshape2", [("A", A), ("m", 5), ("n", 5)],
         error=": the new sizes do not hold as many elements"),
    Case("reshape2", [("A", A), ("m", 5), ("n", -1)],
         error="the new sizes do not hold as many elements"),
    Case("reshape2", [("A", np.zeros((0, 3))), ("m", 0), ("n", -1)],
         error="the new sizes do not hold as many elements"),
    Case("reshape2", [("A", A), ("m", -1), ("n", -1)],
         error="only one size can be -1"),
    Case("reshape2", [("A", A), ("m", -2), ("n", -12)],
         error="negative sizes other than -1 are not allowed"),
    Case("write_flat", [("A", A), ("k", 7), ("x", 9.0)],
         inplace={"A": written(A, (1, 1), 9.0)}),
    Case("write_rows_flat", [("A", A), ("a", 1), ("b", 3), ("x", 0.5)],
         inplace={"A": written(A, slice(1, 3), 0.5)}),
    Case("strided_flat_copy", [("A", A), ("x", 3.0)],
         results=[A[::2, ::2].reshape(-1)], inplace={"A": A}),
    Case("write_reversed_reshape", [("v", v[:6].copy()), ("m", 3), ("n", 1),
                                    ("x", 2.0)],
         inplace={"v": written(v[:6], slice(None, None, -2), 2.0)}),
    Case("reshape_col_major", [("F", F), ("m", 2), ("n", 6)],
         results=[F.reshape(2, 6)]),
]
