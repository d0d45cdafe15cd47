"""NumPy's integers of every width, signed and unsigned (int8, int16,
uint8, uint16, uint32, uint64): arithmetic with wrap-around, NEP 50
promotion, comparisons, //, %, shifts, min/max/abs, conversions,
reductions, creation with dtype=, astype, gathers, loops, prange
reductions and GPU sections, each compared with NumPy (values and dtypes)
on every memory layout; Python ints out of a type's range raise as NumPy's
do, and dtypes VRIR lacks are clear errors."""
import numpy as np
import pytest

import vrir

from conftest import variants1, variants2
from helpers import assert_same, check

DTYPES = [np.int8, np.int16, np.uint8, np.uint16, np.uint32, np.uint64]
ALL_INTS = DTYPES + [np.int32, np.int64]
OTHERS = [np.bool_, np.float32, np.float64, np.complex64, np.complex128]
RNG = np.random.default_rng(14)


def values(dt, n, nonzero=False, small=False):
    info = np.iinfo(dt)
    lo, hi = (-5, 6) if small else (info.min, info.max)
    x = RNG.integers(max(lo, info.min), min(hi, info.max), n, endpoint=True,
                     dtype=dt)
    first = [info.min, info.max, 0, -1] if info.min else [0, info.max, 1, info.max // 2 + 1]
    if not small:
        x[:4] = first[:len(x[:4])]
    if nonzero:
        x[x == 0] = 3
    return x


def layouts(a):
    return list((variants1(a) if a.ndim == 1 else variants2(a)).values())


@pytest.fixture(params=DTYPES, ids=lambda d: np.dtype(d).name)
def dt(request):
    return request.param


def same(jf, *args):
    with np.errstate(all="ignore"):
        return check(jf, *args)


@vrir.jit
def arith(a, b):
    return a + b, a - b, a * b, -a, a & b, a | b, a ^ b, ~a, a + 3, 5 * a, a - np.int8(7)


@vrir.jit
def divmod_(a, b):
    return a // b, a % b, a // 3, a % -4, -7 // b, 100 % b


@vrir.jit
def divmod_u(a, b):
    return a // b, a % b, a // 3, a % 4, 7 // b, 100 % b, a // np.uint8(5), a % np.uint8(6)


@vrir.jit
def compare(a, b):
    return a < b, a <= b, a == b, a != b, a > b, a >= b, a < 3, a >= -2, 1000 > a, a == 100000


@vrir.jit
def scalar_ops(a, b):
    out = np.empty(a.shape[0] * 0 + 12, a.dtype)
    s = a[0]
    t = b[1]
    out[0] = s + t
    out[1] = s * t
    out[2] = s // t
    out[3] = s % t
    out[4] = s >> 1
    out[5] = s << 2
    out[6] = s >> (t & 3)
    out[7] = s & t
    out[8] = s < t
    out[9] = max(s, t)
    out[10] = abs(s)
    out[11] = s - t
    return out, s + t, s * t, s // t, s << 2, s >> 3, abs(s), -s, max(s, t), min(s, t)


@vrir.jit
def extremes(a, b):
    return (np.maximum(a, b), np.minimum(a, b), np.abs(a), abs(b), a.max(), a.min(),
            np.argmax(a), np.argmin(a))


@vrir.jit
def reductions(a):
    return a.sum(), a.prod(), np.sum(a), a.mean(), np.cumsum(a), np.cumprod(a), np.var(a)


@vrir.jit
def reductions2(a):
    return a.sum(axis=0), a.sum(axis=1), a.max(axis=0), a.min(axis=1), a.sum(), a.max()


@vrir.jit
def to_float(a):
    return a.astype(np.float64), a.astype(np.float32), a * 1.5, a / 2, a + np.float32(1.0)


@vrir.jit
def widths(a):
    return (a.astype(np.int8), a.astype(np.int16), a.astype(np.int32), a.astype(np.int64),
            a.astype(np.bool_), a.astype(np.complex64), a.astype(np.uint8), a.astype(np.uint16),
            a.astype(np.uint32), a.astype(np.uint64))


@vrir.jit
def from_float(x):
    return x.astype(np.int8), x.astype(np.int16)


@vrir.jit
def from_float_u(x):
    return (x.astype(np.uint8), x.astype(np.uint16), x.astype(np.uint32), x.astype(np.uint64),
            np.uint8(x[0]), np.uint64(x[1]))


@vrir.jit
def from_big_float(x):
    return x.astype(np.uint64), np.uint64(x[0]), np.uint32(x[1])


@vrir.jit
def scalar_conversions(a, f):
    return (np.int8(a[0]), np.int16(a[1]), np.int8(f), np.int16(f), float(a[3]), int(a[2]),
            np.float32(a[0]), np.int64(a[1]))


def make_creation(t):
    @vrir.jit
    def creation(n):
        return (np.zeros(n, dtype=t), np.ones((n, 2), t), np.full(n, 7, dtype=t),
                np.arange(n, dtype=t), np.empty(n, dtype=t).shape[0])
    return creation


@vrir.jit
def gather(a, idx):
    out = np.empty(idx.shape[0], a.dtype)
    for k in range(idx.shape[0]):
        out[k] = a[idx[k]]
    return out, a[idx]


def make_loop(t):
    @vrir.jit
    def loop(a):
        s = t(0)
        m = t(0)
        for v in a:
            s += v
            if v > m:
                m = v
        return s, m
    return loop


def make_prange(t):
    @vrir.jit
    def psum(a):
        s = t(0)
        for i in vrir.prange(a.shape[0]):
            s += a[i]
        return s
    return psum


@vrir.jit
def add(a, b):
    return a + b


@vrir.jit
def add_scalar(a, k):
    return a + k


def test_arith(dt, layout1):
    a, b = values(dt, 40), values(dt, 40)
    same(arith, layout1(a), layout1(b))


def test_arith_2d(dt, layout2):
    a, b = values(dt, 42).reshape(6, 7), values(dt, 42).reshape(6, 7)
    same(arith, layout2(a), layout2(b))


def test_divmod(dt, layout1):
    a, b = values(dt, 40), values(dt, 40, nonzero=True)
    same(divmod_ if np.iinfo(dt).min else divmod_u, layout1(a), layout1(b))


def test_unsigned_array_division_by_zero(layout1):
    a, b = values(np.uint32, 20), values(np.uint32, 20)
    b[::3] = 0
    same(divmod_u, layout1(a), layout1(b))  # NumPy's 0 (with a warning)


def test_compare(dt, layout2):
    a, b = values(dt, 42, small=True).reshape(6, 7), values(dt, 42, small=True).reshape(6, 7)
    same(compare, layout2(a), layout2(b))


def test_scalar_ops(dt):
    pairs = [(100, 3), (-100, 7), (np.iinfo(dt).min, 3), (5, -2), (-9, 4)] if np.iinfo(dt).min \
        else [(100, 3), (200, 7), (np.iinfo(dt).max, 3), (5, 2), (0, 4), (np.iinfo(dt).max, 255)]
    for a0, b0 in pairs:
        a, b = np.array([a0, 1], dt), np.array([2, b0], dt)
        same(scalar_ops, a, b)


def test_extremes(dt, layout1):
    a, b = values(dt, 40), values(dt, 40)
    same(extremes, layout1(a), layout1(b))


def test_reductions(dt, layout1):
    a = values(dt, 30, small=True)
    same(reductions, layout1(a))
    same(reductions, layout1(values(dt, 30)))


def test_reductions_2d(dt, layout2):
    same(reductions2, layout2(values(dt, 42).reshape(6, 7)))


def test_conversions(dt, layout1):
    a = values(dt, 40)
    same(to_float, layout1(a))
    same(widths, layout1(a))
    same(widths, layout1(values(np.int64, 40)))
    same(widths, layout1(values(np.int32, 40)))
    x = RNG.uniform(-100, 100, 40)
    same(from_float, layout1(x))
    same(from_float_u, layout1(np.abs(x) * 2.5))
    same(from_big_float, layout1(np.array([2.0 ** 63 + 2 ** 12, 4e9, 2.0 ** 64 - 2 ** 11, 1.5])))
    same(scalar_conversions, a, 77.9)
    same(scalar_conversions, a, -77.9)


def test_creation(dt):
    same(make_creation(dt), 5)
    same(make_creation(dt), 0)


def test_gather(dt, layout1):
    a = values(dt, 60)
    idx = RNG.integers(0, 60 if np.iinfo(dt).max >= 60 else 0, 25).astype(dt)
    idx = np.minimum(idx, 59).astype(dt)
    same(gather, layout1(a), layout1(idx))
    if np.iinfo(dt).min:
        neg = (-RNG.integers(1, 60, 25)).astype(dt)  # negative indices wrap (signed)
        same(gather, layout1(a), layout1(neg))
    else:  # a large unsigned index is out of bounds, never a negative one
        big = np.array([np.iinfo(dt).max], dt)
        with pytest.raises(IndexError):
            gather(a, big)


def test_loop(dt, layout1):
    same(make_loop(dt), layout1(values(dt, 40)))


def test_prange_sum(dt, layout1):
    same(make_prange(dt), layout1(values(dt, 400)))


PAIRS = [(x, y) for x in DTYPES for y in ALL_INTS + OTHERS]


@pytest.mark.parametrize("x,y", PAIRS, ids=lambda d: np.dtype(d).name)
def test_promotion(x, y):
    a = np.arange(1, 7).astype(x)
    b = np.arange(2, 8).astype(y)
    got = add(a, b)
    assert got.dtype == np.result_type(x, y)
    assert_same(got, a + b)
    got = add(b, a)
    assert got.dtype == np.result_type(y, x)
    # a NumPy scalar is strong, a Python number weak (NEP 50)
    assert_same(add_scalar(a, y(3)), a + y(3))
    assert_same(add_scalar(a, 3), a + 3)
    assert_same(add_scalar(a, 2.5), a + 2.5)
    assert_same(add_scalar(a, 1j), a + 1j)


@vrir.jit
def add_300(a):
    return a + 300


@vrir.jit
def add_big(a):
    return a * 100000


@vrir.jit
def add_n(a, n):
    return a + n


@vrir.jit
def add_minus_one(a):
    return a + (-1)


@vrir.jit
def compare_python_ints_const(a):
    return a < -1, a >= -1, -1 == a, a != -5, a > 7, a <= 1099511627776, -3 < a, 0 <= a


@vrir.jit
def compare_python_ints(a, n):
    return a < -1, a >= -1, -1 == a, a != -5, a > n, a <= n, a < 2 ** 40, 0 <= a


def test_python_int_out_of_bounds(dt):
    a = np.arange(5, dtype=dt)
    if not np.iinfo(dt).min:
        with pytest.raises(OverflowError):
            add_minus_one.py_func(a)
        with pytest.raises((OverflowError, vrir.CompileError), match="out of bounds"):
            add_minus_one(a)
        with pytest.raises(OverflowError, match="out of bounds"):
            add_n(a, -1)
    if np.iinfo(dt).bits >= 32:
        return
    f = add_300 if dt in (np.int8, np.uint8) else add_big
    with pytest.raises(OverflowError):
        f.py_func(a)
    with pytest.raises((OverflowError, vrir.CompileError), match="out of bounds"):
        f(a)
    n = int(np.iinfo(dt).max) + 1
    with pytest.raises(OverflowError):
        add_n.py_func(a, n)
    with pytest.raises(OverflowError, match="out of bounds"):
        add_n(a, n)
    assert_same(add_n(a, n - 1), add_n.py_func(a, n - 1))


def test_compare_python_ints(dt, layout1):
    a = values(dt, 30)
    if dt != np.uint64:
        same(compare_python_ints, layout1(a), 7)
        same(compare_python_ints, layout1(a), -3)
    else:
        with pytest.raises(vrir.CompileError, match="uint64 values with a Python int"):
            compare_python_ints(a, -3)
        same(compare_python_ints_const, layout1(a))


def test_other_dtypes_refused():
    with pytest.raises(TypeError, match="unsupported array dtype float16"):
        add(np.arange(3, dtype=np.float16), np.arange(3, dtype=np.float16))
    with pytest.raises(TypeError, match="unsupported scalar type"):
        add_scalar(np.arange(3), np.float16(2))


def uses_float16(a):
    return a.astype(np.float16)


def test_other_dtype_in_code_refused():
    f = vrir.jit(uses_float16)
    with pytest.raises(vrir.CompileError,
                       match=r"test_integer_widths.py:\d+: np.float16 \(dtype float16\) is not supported"):
        f(np.arange(3))


@vrir.jit
def powers(a, b):
    return a ** b, a ** 3, np.power(a, b), a[0] ** b[1], a[1] ** 2, 3 ** b, a ** 0


def test_powers(dt, layout1):
    a = values(dt, 30, small=True)
    b = np.abs(values(dt, 30, small=True)).astype(dt)
    b[:3] = [0, 1, 5]
    same(powers, layout1(a), layout1(b))
    if not np.iinfo(dt).min:
        a, b = values(dt, 30), values(dt, 30)  # any exponent, wrapping
        same(powers, layout1(a), layout1(b))


@vrir.jit
def unsigned_pmax(a):
    m = a[0]
    for i in vrir.prange(a.shape[0]):
        m = max(m, a[i])
    return m


def test_unsupported_unsigned_constructs():
    a = np.arange(5, dtype=np.uint8)
    with pytest.raises(vrir.CompileError, match=r"test_integer_widths.py:\d+: .*unsigned"):
        unsigned_pmax(a)


def gpu_int(A, B, k):
    with vrir.gpu():
        n = A.shape[0]
        for i in vrir.pfor(vrir.Domain(n), shared=[A, B]):
            B[i] = A[i] * k + (A[i] >> 1) - (A[i] // 3)
    return B


@pytest.mark.parametrize("target", ["cpu", "opencl", "vulkan"])
def test_gpu_targets(dt, target, layout1):
    from test_gpu_targets import _available
    if target != "cpu" and not _available(target):
        pytest.skip(f"no {target} device")
    f = vrir.jit(target=target)(gpu_int)
    a = values(dt, 64)
    b = np.zeros(64, dt)
    same(f, layout1(a), layout1(b), dt(3))


@vrir.jit
def kinds(a):
    return (np.issubdtype(a.dtype, np.integer), np.issubdtype(a.dtype, np.signedinteger),
            np.issubdtype(a.dtype, np.unsignedinteger), np.issubdtype(a.dtype, np.floating),
            a.dtype.kind == "u", a.itemsize, a.dtype == np.uint8)


def test_dtype_queries(dt):
    same(kinds, values(dt, 3))


@vrir.jit
def small_float_fns(a):
    return np.sqrt(a), np.exp(a), np.arctan2(a, a), a / a[0]


def test_float_functions_of_small_ints(dt):
    a = values(dt, 20, small=True)
    a[a == 0] = 1
    if np.iinfo(dt).bits == 8:
        with pytest.raises(vrir.CompileError, match="float16"):
            small_float_fns(a)
    else:  # float32, as NumPy's (compared within float32's precision)
        got, want = small_float_fns(a), small_float_fns.py_func(a)
        for g, w in zip(got, want):
            assert g.dtype == w.dtype
            np.testing.assert_allclose(g, w, rtol=1e-6)


@vrir.jit
def booleans(a, b):
    return a ** b, a // b, a % b, np.power(a, b), a[0] << b[1], a[0] ** b[1]


def test_numpy_booleans_compute_in_int8(layout1):
    a = np.array([True, False, True, True])
    b = np.array([True, True, True, True])
    same(booleans, layout1(a), layout1(b))
