"""Every construct of the subset, compiled and compared with plain NumPy on
the same inputs, in row-major, column-major and strided layouts."""
import math

import numpy as np
import pytest

import vrir
from helpers import check, assert_same

A0 = np.arange(1.0, 13.0).reshape(3, 4) / 3.0
V0 = np.array([3.0, -1.5, 2.0, 0.5, -4.0, 7.0])
I0 = np.array([7, -3, 5, 0, -8, 2], dtype=np.int64)


# ---------------------------------------------------------------- scalars
@vrir.jit
def scalar_arith(a, b, x):
    return a + b, a - b, a * b, a / b, a // b, a % b, a ** 2, -a, x * a + 1.5, x / 2


@pytest.mark.parametrize("a,b", [(7, 3), (-7, 3), (7, -3), (-7, -3), (6, 3)])
def test_scalar_arith(a, b):
    check(scalar_arith, a, b, 2.5)


@vrir.jit
def float_floor(x, y):
    return x // y, x % y


@pytest.mark.parametrize("x,y", [(7.5, 2.0), (-7.5, 2.0), (7.5, -2.0), (-7.5, -2.0)])
def test_float_floordiv_mod(x, y):
    check(float_floor, x, y)


@vrir.jit
def bits_and_bools(a, b, p, q):
    return (a & b, a | b, a ^ b, ~a, a << 2, a >> 1, p and q, p or q, not p,
            a < b, a <= b, a > b, a >= b, a == b, a != b, 0 < a < 10)


@pytest.mark.parametrize("a,b,p,q", [(12, 10, True, False), (-5, 3, False, False), (3, 3, True, True)])
def test_bitwise_boolean_comparison(a, b, p, q):
    check(bits_and_bools, a, b, p, q)


@vrir.jit
def numpy_scalars(x, n, m):
    y = x * 2
    return y, n + n, m * 2


def test_numpy_scalar_types():
    got = numpy_scalars(np.float32(1.5), np.int32(7), np.int64(3))
    assert got == (np.float32(3.0), np.int32(14), 6)
    assert isinstance(got[0], np.float32) and isinstance(got[1], np.int32)


@vrir.jit
def math_fns(x, n):
    return (math.sqrt(x), math.exp(x), math.log(x), math.sin(x), math.cos(x), math.tan(x),
            math.floor(x), math.ceil(x), math.fabs(-x), math.pow(x, 3), math.pi * n,
            abs(-n), min(n, 3), max(x, 1.0), int(x * 3), float(n), bool(n))


def test_math_scalars():
    check(math_fns, 2.25, 4)


@vrir.jit
def ternary(x):
    return 1.0 if x > 0 else -1.0


def test_conditional_expression():
    check(ternary, 3)
    check(ternary, -3)


# ---------------------------------------------------------------- control flow
@vrir.jit
def collatz(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        elif n % 3 == 0:
            n = n // 3
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def test_while_if_elif_else():
    for n in (1, 6, 27, 97):
        check(collatz, n)


@vrir.jit
def find_first(x, t):
    for i in range(len(x)):
        if x[i] == t:
            return i
    return -1


def test_early_return(layout1):
    check(find_first, layout1(V0), 2.0)
    check(find_first, layout1(V0), 99.0)


@vrir.jit
def break_continue(x):
    s = 0.0
    for i in range(len(x)):
        if x[i] < 0:
            continue
        if x[i] > 5:
            break
        s += x[i]
    k = 0
    while True:
        k += 1
        if k >= 4:
            break
    return s, k


def test_break_continue(layout1):
    check(break_continue, layout1(V0))


@vrir.jit
def ranges(n):
    s = 0
    for i in range(n, 0, -2):
        s = s * 3 + i
    for i in range(2, n):
        s -= i
    for i in range(3, n, 3):
        s += i * i
    return s, i


def test_range_forms():
    check(ranges, 10)


@vrir.jit
def minmax_pair(x):
    lo = x[0]
    hi = x[0]
    for i in range(1, x.shape[0]):
        v = x[i]
        if v < lo:
            lo = v
        if v > hi:
            hi = v
    return lo, hi


@vrir.jit
def unpack_use(x):
    lo, hi = minmax_pair(x)
    a, b = hi, lo
    a, b = b, a
    m, = x.shape
    return a, b, m


def test_tuple_unpacking_and_jit_calls(layout1):
    check(unpack_use, layout1(V0))


def doubled_in_a_tuple(x):
    return (x * 2.0,)


def first_of_one(x):
    return (x[0] + 1.0,)


@vrir.jit
def tuples_of_one(x):
    t = doubled_in_a_tuple(x)  # a tuple: t[0] is the array, not its first element
    (d,) = doubled_in_a_tuple(x)
    (s,) = first_of_one(x)
    return t[0] + d, s, first_of_one(x)[0] * 2


@vrir.jit
def returns_a_tuple_of_one(x):
    return (x[1:],)


@vrir.jit
def returns_nonzero(x):
    return np.nonzero(x > 0.5)


def test_tuples_of_one_item(layout1):
    # As in Python: `return (x,)` gives a tuple, to a caller in compiled
    # code and from a kernel (it gave the item itself before 2026-11-30).
    check(tuples_of_one, layout1(V0))
    check(returns_a_tuple_of_one, layout1(V0))
    check(returns_nonzero, layout1(V0))


@vrir.jit
def tuple_or_item(x, c):
    if c:
        return (x,)
    return x


def test_tuple_or_item_refused():
    with pytest.raises(vrir.CompileError, match="all return statements must return a tuple "
                       "of one item, or all the item itself"):
        tuple_or_item(V0, True)


# ---------------------------------------------------------------- indexing
@vrir.jit
def negative_index(A, v):
    return A[-1, -2] + A[0, -4] + v[-1]


def test_negative_indices(layout2, layout1):
    check(negative_index, layout2(A0), layout1(V0))


@vrir.jit
def slices(A, v):
    a = A[1:, ::2]
    b = A[::-1, 1]
    c = v[::-2]
    d = v[-2:1:-1]
    e = v[1:100]
    f = A[1]
    return a.copy(), b.copy(), c.copy(), d.copy(), e.copy(), f.copy(), A.shape[0], len(v)


def test_slices(layout2, layout1):
    check(slices, layout2(A0), layout1(V0))


@vrir.jit
def slice_views(A, v):
    row = A[1]
    row[0] = 100.0          # writes through the view
    A[0, :] = v[:4]
    A[2, 1:3] = -1.0
    A[:, 3] += 0.5
    v[::2] = 9.0


def test_views_and_slice_assignment(layout2, layout1):
    check(slice_views, layout2(A0), layout1(V0))


@vrir.jit
def step_slices(v, a, b, s):
    return v[a:b:s].copy()


@pytest.mark.parametrize("a,b,s", [(0, 6, 2), (5, 0, -1), (-1, -7, -2), (-100, 100, 3), (4, 2, 1)])
def test_runtime_slice_bounds(layout1, a, b, s):
    check(step_slices, layout1(V0), a, b, s)


@vrir.jit
def gather(v, idx):
    return v[idx]


def test_integer_array_index(layout1):
    check(gather, layout1(V0), np.array([0, -1, 2, 2]))


# ---------------------------------------------------------------- array operators
@vrir.jit
def elementwise(A, v, k):
    B = (A + 1.0) * k - A / 2.0
    C = A[:, :1] * v[:4]          # broadcasting (3,1) x (4,) -> (3,4)
    D = A ** 2
    E = np.where(A > 1.5, A, -A)
    F = np.maximum(A, 2.0) + np.minimum(A, v[:4])
    G = (A > 1.0) & (A < 3.0)
    H = -A + np.abs(-A)
    return B, C, D, E, F, G, H


def test_elementwise_broadcasting(layout2, layout1):
    check(elementwise, layout2(A0), layout1(V0), 3)


@vrir.jit
def fused_broadcast(a, b, c):
    # One fused loop nest over six operands, a and b each twice.
    return a * b + (a - c) * b + c


@pytest.mark.parametrize("shapes", [
    ((3, 1), (1, 4), (3, 4)), ((1, 1), (1, 4), (3, 1)), ((1, 1), (1, 1), (1, 1)),
    ((0, 1), (1, 4), (1, 1)), ((0, 1), (1, 1), (0, 4)), ((2, 0), (1, 0), (1, 1)),
    ((3, 4), (3, 4), (3, 4)), ((4,), (3, 1), (1,))])
def test_fused_broadcast_sizes(shapes):
    # The result's size per dimension is the one size other than 1 (or 1),
    # zero-size dimensions included.
    rng = np.random.default_rng(3)
    check(fused_broadcast, *(rng.random(shape) for shape in shapes))


@pytest.mark.parametrize("shapes", [
    ((3, 1), (1, 4), (2, 4)), ((0, 1), (1, 4), (2, 1)), ((3, 4), (3, 1), (3, 5))])
def test_fused_broadcast_mismatch(shapes):
    args = [np.ones(shape) for shape in shapes]
    with pytest.raises(ValueError, match="could not be broadcast"):
        fused_broadcast(*args)
    with pytest.raises(ValueError):  # as NumPy
        args[0] * args[1] + (args[0] - args[2]) * args[1] + args[2]


@vrir.jit
def ufuncs(A):
    return (np.sqrt(A), np.exp(A), np.log(A), np.sin(A), np.cos(A), np.tan(A),
            np.power(A, 3.0), np.abs(A - 2.0))


def test_ufuncs(layout2):
    check(ufuncs, layout2(A0))


@vrir.jit
def int_arrays(X, d):
    return X // d, X % d, X * 2 + 1, X / 2, X ** 2, X & 6, X > 0


def test_integer_array_floor_semantics(layout1):
    check(int_arrays, layout1(I0), 3)
    check(int_arrays, layout1(I0), -3)


@vrir.jit
def reductions(A):
    return (np.sum(A), np.prod(A), np.min(A), np.max(A), np.mean(A),
            np.sum(A, axis=0), np.sum(A, axis=1), A.sum(axis=-1), np.max(A, axis=0),
            np.min(A, 1), np.mean(A, axis=0), A.max(), A.mean())


def test_reductions(layout2):
    check(reductions, layout2(A0))


@vrir.jit
def int_reductions(X):
    return np.sum(X), np.max(X), np.min(X), np.sum(X > 0)


def test_integer_reductions(layout1):
    check(int_reductions, layout1(I0))


@vrir.jit
def linalg(A, v):
    return np.dot(A, A.T), A @ v[:4], v[:3] @ A, np.dot(v, v), A.T


def test_dot_matmul_transpose(layout2, layout1):
    check(linalg, layout2(A0), layout1(V0))


@vrir.jit
def creation(n, m, x):
    a = np.zeros((n, m))
    b = np.ones(n, dtype=np.int64)
    c = np.full((m, n), x)
    d = np.arange(n)
    e = np.arange(1.0, x, 0.5)
    f = np.arange(n, 0, -2)
    g = np.zeros_like(a) + np.ones_like(a)
    h = np.full_like(a, 7)
    k = np.empty((n,), np.int32)
    k[:] = 3
    z = np.zeros((2, 3), order="F")
    return a, b, c, d, e, f, g, h, k, z


def test_array_creation():
    check(creation, 3, 4, 3.25)


@vrir.jit
def conversions(A):
    B = A.astype(np.int64)
    C = A.copy()
    C[0, 0] = -1.0
    D = (A > 2).astype(np.float32)
    E = np.empty_like(A)
    E.fill(2.5)
    return B, C, D, E, A.ndim, A.size


def test_astype_copy(layout2):
    check(conversions, layout2(A0))


@vrir.jit
def mixed_types(x32, x64, i32):
    return x32 * 2.0, x32 + x64, i32 + 1, i32 * 1.5, x64 + i32


def test_array_type_promotion():
    check(mixed_types, V0.astype(np.float32), V0, I0.astype(np.int32))


@vrir.jit
def bool_arrays(M, v):
    return ~M, M & (v > 0), np.where(M, v, 0.0)


def test_bool_arrays():
    check(bool_arrays, V0 > 0.6, V0)


# ---------------------------------------------------------------- parallel / gpu
@vrir.jit
def prange_square(x):
    y = np.empty_like(x)
    for i in vrir.prange(len(x)):
        t = x[i]
        y[i] = t * t
    return y


def test_prange(layout1):
    check(prange_square, layout1(V0))


@vrir.jit
def pfor_domain(A, B):
    m, n = A.shape
    for i, j in vrir.pfor(vrir.Domain(m, n), shared=[A, B]):
        B[i, j] = 2.0 * A[i, j] + i - j


def test_pfor_domain(layout2):
    check(pfor_domain, layout2(A0), np.zeros((3, 4)))


@vrir.jit
def gpu_scale(A, k):
    s = 0.0
    with vrir.gpu():
        m, n = A.shape
        for i, j in vrir.pfor(vrir.Domain(m, n), shared=[A]):
            A[i, j] = A[i, j] * k
        s = np.sum(A)
    return s


def test_gpu_section(layout2):
    check(gpu_scale, layout2(A0), 2.0)


# ---------------------------------------------------------------- caching
def test_signature_cache():
    @vrir.jit
    def f(x):
        return x + 1
    f(1)
    f(2)
    f(1.0)
    f(np.ones(3))
    f(np.ones((2, 2)))
    f(np.ones((2, 2), order="F"))
    assert len(f.signatures) == 5


# ---------------------------------------------------------------- results
@vrir.jit
def returns_argument_and_view(A):
    return A, A[1:]


@vrir.jit
def returns_same_twice(A):
    B = A * 2
    return B, B


@vrir.jit
def early_array_return(A, n):
    B = np.zeros(3)
    for i in range(n):
        if i > 2:
            return B
        B = B + A
    return A


def test_result_ownership():
    a = np.arange(4.0)
    check(returns_argument_and_view, a)  # come back as copies (documented)
    x, y = returns_same_twice(a)
    assert np.shares_memory(x, y)
    del x
    import gc
    gc.collect()
    np.testing.assert_array_equal(y, 2 * a)
    check(early_array_return, np.ones(3), 5)
    check(early_array_return, np.ones(3), 1)
