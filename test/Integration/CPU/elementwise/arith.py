# RUN: %python %vrir_src_root/test/Integration/compare.py %s %t
# Element-wise binary and unary functions and comparisons on the CPU,
# compared with NumPy, with NaN, infinities, signed zeros and integer
# extremes. Integer `div` and `rem` truncate (C), like np.fmod; by zero they
# give 0 and INT_MIN / -1 wraps, as in NumPy, instead of trapping.
import numpy as np

SOURCE = "Inputs/arith_run.mlir"

# NaN, infinities and division by zero are part of the tests.
np.seterr(all="ignore")


def trunc_div(a, b):
    """C integer division (VRIR `div` on integers), not Python's //."""
    wide = np.sign(a.astype(np.int64)) * np.sign(b) * (
        np.abs(a.astype(np.int64)) // np.abs(b.astype(np.int64)))
    return wide.astype(a.dtype)


rng = np.random.default_rng(8)
X = np.array([1.5, -2.5, np.nan, np.inf, -0.0, 7.0, -7.0, 3.0, 0.5, 2.0])
Y = np.array([2.0, 0.5, 1.0, np.nan, 3.0, -2.0, 2.0, 0.0, -np.inf, 2.0])
I = np.array([7, -7, 7, -7, 0, 2**31 - 1, -(2**31), 13], dtype=np.int32)
J = np.array([2, 2, -2, -2, 5, 2, 3, -4], dtype=np.int32)
K = np.array([3, -2, 0, 1, -1, 10], dtype=np.int64)
IZ = np.array([7, -7, 0, -(2**31), -(2**31), 5, 2**31 - 1], dtype=np.int32)
JZ = np.array([0, 0, 0, -1, 0, -1, -1], dtype=np.int32)
BA = rng.random((3, 4)) > 0.5
BB = np.array([True, False, True, False])
R = np.array([0.5, 1.5, 2.5, -0.5, -2.5, -1.7, 1.2, np.nan, -np.inf, 3.0])
L = np.array([5, -3, 0, np.iinfo(np.int64).max, np.iinfo(np.int64).min],
             dtype=np.int64)
CMP_A = np.array([[1.0, np.nan, 3.0, 4.0], [5.0, 2.0, np.nan, -1.0],
                  [0.0, -0.0, np.inf, 2.0]])
CMP_B = np.array([1.0, 2.0, np.nan, 4.0])
PB = np.array([False, False, True, True])
QB = np.array([False, True, False, True])

CASES = [
    Case("float_ops", [("A", X), ("B", Y)],
         results=[X / Y, np.fmod(X, Y), np.power(X, Y), np.minimum(X, Y),
                  np.maximum(X, Y)]),
    Case("int_ops", [("A", I), ("B", J)],
         results=[trunc_div(I, J), np.fmod(I, J), np.minimum(I, J),
                  np.maximum(I, J), I & J, I | J, I ^ J, I * J]),
    # Division by 0 and INT_MIN / -1, which trap in C.
    Case("int_ops", [("A", IZ), ("B", JZ)],
         results=[np.array([0, 0, 0, -(2**31), 0, -5, -(2**31 - 1)], np.int32),
                  np.zeros(7, np.int32), np.minimum(IZ, JZ),
                  np.maximum(IZ, JZ), IZ & JZ, IZ | JZ, IZ ^ JZ, IZ * JZ]),
    Case("int_div_scalar", [("A", L), ("b", 0)],
         results=[np.zeros(5, np.int64), np.zeros(5, np.int64), 0, 0]),
    Case("int_div_scalar", [("A", L), ("b", -1)],
         results=[np.array([-5, 3, 0, -np.iinfo(np.int64).max,
                            np.iinfo(np.int64).min], np.int64),
                  np.zeros(5, np.int64), -5, 0]),
    Case("int_div_scalar", [("A", L[::-1].copy()), ("b", -1)],
         results=[np.array([np.iinfo(np.int64).min, -np.iinfo(np.int64).max,
                            0, 3, -5], np.int64),
                  np.zeros(5, np.int64), np.iinfo(np.int64).min, 0]),
    Case("int_div_scalar", [("A", L), ("b", 3)],
         results=[np.array([1, -1, 0, (2**63 - 1) // 3, -(2**63 // 3)], np.int64),
                  np.fmod(L, 3), 1, 2]),
    Case("int_pow", [("A", K), ("e", 3)], results=[K ** 3]),
    Case("int_pow", [("A", K), ("e", 0)], results=[K ** 0]),
    Case("bool_ops", [("A", BA), ("B", BB)],
         results=[BA & BB, BA ^ BB, np.asfortranarray(~BA)]),
    # np.round rounds halves to even.
    Case("float_unary", [("A", R)],
         results=[-R, np.abs(R), np.floor(R), np.ceil(R), np.round(R),
                  np.real(R), np.zeros_like(R)]),
    Case("int_unary", [("A", L)], results=[-L, ~L]),
    # NaN compares false, except with ne; False < True.
    Case("compare", [("A", CMP_A), ("B", CMP_B)],
         results=[CMP_A == CMP_B, CMP_A != CMP_B, CMP_A < CMP_B,
                  CMP_A <= CMP_B, CMP_A > CMP_B, CMP_A >= CMP_B]),
    Case("compare_int_bool", [("A", I), ("b", 7), ("P", PB), ("Q", QB)],
         results=[I < 7, PB < QB, PB >= QB]),
    Case("scalars", [("x", 2.5), ("y", -1.5), ("i", -7), ("j", 2)],
         results=[2.5 ** -1.5, np.fmod(2.5, -1.5), -3, -1, 49, True, True,
                  2.0, 2, True, 2.5]),
    Case("scalars", [("x", 2.5), ("y", -1.5), ("i", -9), ("j", 0)],
         results=[2.5 ** -1.5, np.fmod(2.5, -1.5), 0, 0, 1, True, True,
                  2.0, 2, True, 2.5]),
    Case("scalars", [("x", -3.5), ("y", 1.0), ("i", -9), ("j", 4)],
         results=[-3.5, np.fmod(-3.5, 1.0), -2, -1, 6561, True, True, -4.0,
                  -3, True, 1.0]),
]
