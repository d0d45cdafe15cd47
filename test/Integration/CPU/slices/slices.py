# RUN: %python %vrir_src_root/test/Integration/compare.py %s %t
# Slices (views and copies), slice assignment, gather and scatter on the
# CPU, compared with NumPy.
import numpy as np

SOURCE = "Inputs/slices_run.mlir"

rng = np.random.default_rng(1)
A = rng.random((5, 6))
T = rng.random((3, 4, 5))
v = np.arange(7.0)


def assigned(array, key, value):
    result = array.copy()
    result[key] = value
    return result


def shifted(x):
    result = x.copy()
    result[1:] = result[:-1]
    return result


def put(array, idx, value, axis=0):
    result = array.copy()
    if axis == 0:
        result[idx] = value
    else:
        result[:, idx] = value
    return result


M = np.asfortranarray(rng.random((4, 3)))
MATLAB = "Inputs/matlab_slices_run.mlir"

idx_cols = np.array([0, -1, 2, 2, -6], dtype=np.int64)
idx_2d = np.array([[6, 0], [3, 3], [1, 5]], dtype=np.int32)
idx_rows = np.array([4, -5, 1, 4], dtype=np.int64)
row = rng.random(6)

CASES = [
    # Views and copies, NumPy slice semantics (`negative` flag).
    Case("row_part", [("A", A), ("i", -1), ("a", 1), ("b", 100), ("s", 2)],
         results=[A[-1, 1:100:2]]),
    Case("row_part", [("A", A), ("i", 2), ("a", -2), ("b", -100), ("s", -1)],
         results=[A[2, -2:-100:-1]]),
    Case("row_part", [("A", A), ("i", 0), ("a", 4), ("b", 2), ("s", 1)],
         results=[A[0, 4:2]]),
    Case("block_copy", [("A", A), ("a", -1), ("b", 0), ("s", -2), ("c", 1),
                        ("d", 4), ("t", 1)],
         results=[np.asfortranarray(A[-1:0:-2, 1:4])]),
    Case("block_copy", [("A", A), ("a", 7), ("b", 9), ("s", 1), ("c", 0),
                        ("d", 6), ("t", 5)],
         results=[A[7:9, 0:6:5]]),
    Case("rows_view", [("A", A), ("a", -1), ("b", -100), ("s", -2)],
         results=[A[-1:-100:-2]]),
    Case("write_through_view", [("A", A), ("a", 4), ("b", -100), ("s", -3),
                                ("c", -2), ("x", 7.5)],
         inplace={"A": assigned(A, (slice(4, -100, -3), -2), 7.5)}),
    Case("plane_column", [("T", T), ("i", -1), ("j", 3)],
         results=[T[-1], T[-1][:, 3]]),
    Case("reverse_inner", [("A", v)], results=[v[::-1][1:-1]]),
    # Checked ranges (default flags): in bounds, empty, out of bounds.
    Case("checked_rows", [("A", A), ("a", 1), ("b", 5), ("s", 3)],
         results=[A[1:5:3]]),
    Case("checked_rows", [("A", A), ("a", 4), ("b", -1), ("s", -1)],
         results=[A[4::-1]]),
    Case("checked_rows", [("A", A), ("a", 9), ("b", 9), ("s", 1)],
         results=[A[0:0]]),
    Case("checked_rows", [("A", A), ("a", 2), ("b", 100), ("s", 1)],
         error="dimension 0, index 99, extent 5"),
    Case("checked_rows", [("A", A), ("a", -1), ("b", 3), ("s", 1)],
         error="dimension 0, index -1, extent 5"),
    Case("checked_rows", [("A", A), ("a", 0), ("b", 3), ("s", 0)],
         error="slice step cannot be zero"),
    Case("plane_column", [("T", T), ("i", 3), ("j", 0)],
         error="dimension 0, index 3, extent 3"),
    # Slice assignment.
    Case("fill_block", [("A", A), ("a", 1), ("b", -1), ("c", -3), ("d", 100),
                        ("x", -1.0)],
         inplace={"A": assigned(A, (slice(1, -1), slice(-3, 100)), -1.0)}),
    Case("assign_columns", [("A", A), ("c", 2), ("d", 4), ("v", v[:2])],
         inplace={"A": assigned(A, (slice(None), slice(2, 4)), v[:2])}),
    Case("assign_columns", [("A", A), ("c", 2), ("d", 5), ("v", v[3:4])],
         inplace={"A": assigned(A, (slice(None), slice(2, 5)), v[3:4])}),
    Case("assign_columns", [("A", A), ("c", 2), ("d", 5), ("v", v[:2])],
         error="could not broadcast input array"),
    Case("assign_row", [("A", A), ("i", -2), ("B", row)],
         inplace={"A": assigned(A, -2, row)}),
    Case("assign_row", [("A", A), ("i", 5), ("B", row)],
         error="dimension 0, index 5, extent 5"),
    Case("shift", [("A", v)], inplace={"A": shifted(v)}),
    Case("reverse_in_place", [("A", v)], inplace={"A": v[::-1]}),
    # Gather and scatter.
    Case("take_columns", [("A", A), ("idx", idx_cols)],
         results=[np.take(A, idx_cols, axis=1)]),
    Case("take_columns", [("A", A), ("idx", np.array([6], dtype=np.int64))],
         error="dimension 1, index 6, extent 6"),
    Case("take_2d", [("v", v), ("idx", idx_2d)], results=[np.take(v, idx_2d)]),
    Case("take_2d", [("v", v), ("idx", np.array([[0, -1]], dtype=np.int32))],
         error="dimension 0, index -1, extent 7"),
    Case("put_rows", [("A", A), ("idx", idx_rows), ("B", row)],
         inplace={"A": put(A, idx_rows, row)}),
    Case("put_rows", [("A", A), ("idx", idx_rows), ("B", row[:4])],
         error="could not broadcast input array"),
    Case("put_rows_overlapping",
         [("A", A), ("idx", np.array([1, 0], dtype=np.int64))],
         inplace={"A": put(A, [1, 0], A[:2])}),
    Case("put_columns_scalar", [("A", A), ("idx", idx_rows[:1]), ("x", 3.0)],
         inplace={"A": put(A, idx_rows[:1], 3.0, axis=1)}),
    Case("rows_in_pfor", [("A", A), ("n", 5), ("x", 2.0)],
         inplace={"A": assigned(A, (slice(None), slice(1, 3)), 2.0)}),
    Case("rows_in_pfor", [("A", A), ("n", 6), ("x", 2.0)],
         error="dimension 0, index 5, extent 5 (in a parallel loop)"),
    # MATLAB module: 1-based inclusive ranges, checked.
    Case("rows", [("A", M), ("a", 2), ("b", 3)], results=[M[1:3]],
         source=MATLAB),
    Case("rows", [("A", M), ("a", 3), ("b", 2)], results=[M[2:2]],
         source=MATLAB),
    Case("rows", [("A", M), ("a", 2), ("b", 5)],
         error="dimension 1, index 5, extent 4", source=MATLAB),
    Case("rows", [("A", M), ("a", 0), ("b", 2)],
         error="dimension 1, index 0, extent 4", source=MATLAB),
    Case("column_reversed", [("A", M), ("j", 3)], results=[M[::-1, 2]],
         source=MATLAB),
    Case("set_column", [("A", M), ("j", 1), ("v", np.arange(4.0))],
         inplace={"A": assigned(M, (slice(None), 0), np.arange(4.0))},
         source=MATLAB),
    Case("pick", [("v", np.arange(10.0, 15.0)),
                  ("idx", np.array([5, 1, 1], dtype=np.int64))],
         results=[np.array([14.0, 10.0, 10.0])], source=MATLAB),
    Case("pick", [("v", np.arange(10.0, 15.0)),
                  ("idx", np.array([0], dtype=np.int64))],
         error="dimension 1, index 0, extent 5", source=MATLAB),
]
