# RUN: %python %vrir_src_root/test/Integration/compare.py %s %t
# Views (vrir.permute, vrir.expand_dims, vrir.reshape, vrir.part_view) on
# the CPU, compared
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
Z = rng.random((3, 4)) + 1j * rng.random((3, 4))
z32 = (rng.random(9) + 1j * rng.random(9)).astype(np.complex64)


def written(array, key, value):
    result = array.copy()
    result[key] = value
    return result


def written_part(array, part, key, value):
    result = array.copy()
    getattr(result, part)[key] = value
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
    Case("complex_parts", [("Z", Z)], results=[Z.real, Z.imag],
         inplace={"Z": Z}),
    Case("write_imag", [("Z", Z), ("i", 2), ("j", 1), ("x", -3.0)],
         inplace={"Z": written_part(Z, "imag", (2, 1), -3.0)}),
    Case("part_sees_writes", [("Z", Z), ("i", 0), ("j", 3), ("w", 5 - 2j)],
         results=[written(Z, (0, 3), 5 - 2j).real],
         inplace={"Z": written(Z, (0, 3), 5 - 2j)}),
    Case("parts_of_temporary", [("Z", Z), ("x", 0.25)],
         results=[written_part(Z * Z, "real", Ellipsis, 0.25), (Z * Z).imag]),
    Case("imag_f32_strided", [("z", z32[::2])],
         results=[z32[::2].imag + np.float32(1)]),
    Case("temporary_and_its_views", [("A", A)], results=[A * A, (A * A).T, A * A]),
    Case("reshape_constant_negative", [("v", v[:6].copy())],
         error="negative sizes other than -1 are not allowed"),
]
