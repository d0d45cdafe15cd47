"""Complex numbers, gpu_begin/gpu_end, targets, declared signatures, and the
subset constructs test_constructs.py leaves out; each compiled function is
compared with the same function run by Python/NumPy."""
import cmath
import math

import numpy as np
import pytest

import vrir
from vrir import gpu_begin, gpu_end
from helpers import check, assert_same
from conftest import variants1, variants2

HERE = __file__
Z0 = np.array([[1 + 2j, -0.5 + 1j, 3 - 1j, 0.25j],
               [2.0, -1 - 1j, 0.5 + 0.5j, -2 + 3j],
               [1j, 4 - 2j, -3 + 0j, 1.5 - 2.5j]])
ZV = np.array([1 + 1j, 2 - 3j, -0.5 + 0.25j, 4j, -1.0, 0.5 - 0.5j])


def line_of(fn, text):
    import inspect
    lines, first = inspect.getsourcelines(fn.py_func if hasattr(fn, "py_func") else fn)
    for k, l in enumerate(lines):
        if text in l:
            return first + k
    raise AssertionError(text)


def close(got, want, rtol=1e-12):
    """assert_same with a tolerance (complex64 / float32 results)."""
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            close(g, w, rtol)
        return
    if isinstance(want, np.ndarray):
        assert isinstance(got, np.ndarray) and got.dtype == want.dtype and got.shape == want.shape, \
            (got, want)
    else:  # float64/complex128 come back as float/complex
        assert np.asarray(got).dtype == np.asarray(want).dtype, (type(got), type(want))
    np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol)


# ================================================================ complex
@vrir.jit
def complex_scalars(z, w, x, n):
    return (z + w, z - w, z * w, z / w, z * x, x / z, z + n, -z, +z, abs(z), z.real, z.imag,
            z.conjugate(), z ** 2, z ** 3, w ** -2, z ** 0.5, z ** w, z == w, z != w,
            z == z, complex(x, n), complex(n), bool(z), 2j * z + 1)


@pytest.mark.parametrize("z,w", [(1 + 2j, 3 - 1j), (-0.5 + 0.25j, -2j), (3.0 + 0j, 1 + 1j)])
def test_complex_scalar_arithmetic(z, w):
    check(complex_scalars, z, w, 2.5, 3)


@vrir.jit
def cmath_fns(z):
    return (cmath.sqrt(z), cmath.exp(z), cmath.log(z), cmath.sin(z), cmath.cos(z),
            cmath.tan(z), cmath.tanh(z), cmath.phase(z), cmath.isnan(z), cmath.pi * z)


@pytest.mark.parametrize("z", [1 + 2j, -0.5 - 0.25j, 2.0 + 0j, -3j])
def test_cmath(z):
    got, want = cmath_fns(z), cmath_fns.py_func(z)
    close(got, want)


def test_complex_arguments_and_results_types():
    # np.complex128 is a Python complex; np.complex64 stays single precision.
    assert complex_scalars(np.complex128(1 + 2j), 3 - 1j, 2.5, 3)[0] == 4 + 1j

    @vrir.jit
    def c64(z, w):
        return z * w, z + 1, z.real, abs(w), z, w * 2.0

    z, w = np.complex64(1.5 - 2.25j), np.complex64(-0.5 + 3j)
    got, want = c64(z, w), c64.py_func(z, w)
    close(got, want, rtol=1e-6)
    assert isinstance(got[0], np.complex64) and isinstance(got[2], np.float32)
    assert isinstance(got[5], np.complex64)  # a Python float is weak (NEP 50)


@vrir.jit
def many_complex(a, x, b, y, c, z, d, w, e, f):
    return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f, x - y + z * w


@pytest.mark.parametrize("t", [np.complex64, np.complex128])
def test_complex_arguments_past_the_registers(t):
    # ten arguments, six of them complex: past the eight SSE argument registers
    a, b, c, d, e, f = (t(complex(k + 0.5, -k - 0.25)) for k in range(6))
    args = (a, 1.5, b, -2.0, c, 0.25, d, 4.0, e, f)
    close(many_complex(*args), many_complex.py_func(*args), rtol=1e-6)


@vrir.jit
def julia(c, xs, ys, maxit):
    """Escape counts of the Julia set of z -> z*z + c, scalar loops."""
    out = np.zeros((len(ys), len(xs)), dtype=np.int64)
    for i in range(len(ys)):
        for j in range(len(xs)):
            z = complex(xs[j], ys[i])
            k = 0
            while k < maxit:
                if abs(z) > 2:
                    break
                z = z * z + c
                k += 1
            out[i, j] = k
    return out


def julia_numpy(c, xs, ys, maxit):
    z = xs[None, :] + 1j * ys[:, None]
    out = np.zeros(z.shape, dtype=np.int64)
    alive = np.ones(z.shape, dtype=bool)
    for _ in range(maxit):
        alive &= np.abs(z) <= 2
        out += alive
        z = np.where(alive, z * z + c, z)
    return out


@vrir.jit
def julia_vectorized(c, Z, maxit):
    out = np.zeros(Z.shape, dtype=np.int64)
    for k in range(maxit):
        alive = np.abs(Z) <= 2
        out = out + alive.astype(np.int64)
        Z = np.where(alive, Z * Z + c, Z)
    return out


def test_julia_set():
    xs, ys = np.linspace(-1.6, 1.6, 61), np.linspace(-1.2, 1.2, 41)
    c = complex(-0.8, 0.156)
    got = julia(c, xs, ys, 60)
    np.testing.assert_array_equal(got, julia_numpy(c, xs, ys, 60))
    np.testing.assert_array_equal(got, julia.py_func(c, xs, ys, 60))
    Z = xs[None, :] + 1j * ys[:, None]
    for name, zz in variants2(Z).items():
        np.testing.assert_array_equal(julia_vectorized(c, zz, 60), got, err_msg=name)


@vrir.jit
def complex_arrays(Z, v, s):
    return (Z + 1j, Z * s, Z * Z.conj(), np.abs(Z), Z.real, Z.imag, np.real(Z), np.imag(Z),
            np.conj(Z), np.conjugate(Z), Z / (Z + 10), -Z, Z ** 2, Z == Z.conj(),
            Z[:, 1:3] * v[:2], v.astype(np.complex128) * Z[0])


def test_complex_arrays(layout2, layout1):
    check(complex_arrays, layout2(Z0), layout1(V := np.array([1.0, -2.0, 0.5, 3.0])), 1 - 1j)


@vrir.jit
def complex_ufuncs(Z):
    return np.sqrt(Z), np.exp(Z), np.log(Z), np.sin(Z), np.cos(Z), np.tan(Z), np.tanh(Z)


def test_complex_ufuncs(layout2):
    check(complex_ufuncs, layout2(Z0))


@vrir.jit
def complex_reductions(Z):
    return (np.sum(Z), np.prod(Z), np.mean(Z), Z.sum(axis=0), np.mean(Z, axis=1),
            np.sum(Z, axis=-1), Z.prod(axis=0))


def test_complex_reductions(layout2):
    check(complex_reductions, layout2(Z0))


@vrir.jit
def complex_linalg(Z, v):
    return Z @ Z.T, np.dot(Z, v), np.dot(v, v), Z.T @ Z[:, 0]


def test_complex_linalg(layout2, layout1):
    check(complex_linalg, layout2(Z0), layout1(ZV[:4]))


@vrir.jit
def complex_creation(n, z):
    a = np.zeros(n, dtype=np.complex128)
    b = np.ones((2, n), dtype=complex)
    c = np.full(n, z)
    d = np.empty(n, dtype=np.complex64)
    d[:] = 1.5 - 0.5j
    a[1] = z
    a[2:] += 2j
    e = np.zeros_like(a)
    e[0] = np.complex128(3, 4)
    return a, b, c, d, e


def test_complex_creation_and_stores():
    check(complex_creation, 4, 2 - 1j)


@vrir.jit
def complex64_arrays(Z, s):
    return Z * s, Z + 1j, Z.sum(), np.abs(Z), np.exp(Z), Z * 2.0


def test_complex64_arrays(layout2):
    Z = Z0.astype(np.complex64)
    got = complex64_arrays(layout2(Z), np.complex64(0.5 + 2j))
    want = complex64_arrays.py_func(Z, np.complex64(0.5 + 2j))
    close(got, want, rtol=2e-6)


@vrir.jit
def complex_variable_widens(x, n):
    z = x          # a float first, then complex: the variable is complex
    for k in range(n):
        z = z * 1j
    return z


def test_complex_variable_widening():
    check(complex_variable_widens, 2.0, 3)


@vrir.jit
def complex_jit_callee(z, A):
    return z * A.sum()


@vrir.jit
def complex_jit_caller(A):
    return complex_jit_callee(1 + 1j, A) + complex_jit_callee(2.0, A)


def test_complex_through_jit_calls(layout1):
    check(complex_jit_caller, layout1(ZV))


@vrir.jit
def complex_ordered(z, w):
    return z < w


@vrir.jit
def complex_into_real(A, z):
    A[0] = z


@vrir.jit
def complex_math(z):
    return math.sqrt(z)


@vrir.jit
def complex_to_int(z):
    return int(z)


@vrir.jit
def complex_floordiv(z):
    return z // 2


@vrir.jit
def complex_max(Z):
    return np.max(Z)


@pytest.mark.parametrize("fn,args,construct,marker", [
    (complex_ordered, (1j, 2j), "not ordered", "return z < w"),
    (complex_into_real, (np.zeros(2), 1j), "real array", "A[0] = z"),
    (complex_math, (1j,), "cmath.sqrt", "math.sqrt(z)"),
    (complex_to_int, (1j,), "complex", "return int(z)"),
    (complex_floordiv, (1j,), "//", "z // 2"),
    (complex_max, (Z0,), "not ordered", "np.max(Z)"),
])
def test_complex_errors(fn, args, construct, marker):
    with pytest.raises(vrir.CompileError) as info:
        fn(*args)
    assert construct in str(info.value)
    assert f"{HERE}:{line_of(fn, marker)}" in str(info.value)


# ================================================================ gpu markers
@vrir.jit
def gpu_markers(A, k):
    m, n = A.shape
    vrir.gpu_begin()
    for i, j in vrir.pfor(vrir.Domain(m, n), shared=[A]):
        A[i, j] = A[i, j] * k
    s = np.sum(A)
    t = s * 2
    vrir.gpu_end()
    return s + t


@vrir.jit
def gpu_markers_nested_block(A, n):
    total = 0.0
    for r in range(n):
        if r % 2 == 0:
            vrir.gpu_begin()
            total = total + A.sum() * r
            vrir.gpu_end()
    return total


def test_gpu_begin_end(layout2):
    A0 = np.arange(12.0).reshape(3, 4)
    check(gpu_markers, layout2(A0), 1.5)
    check(gpu_markers_nested_block, layout2(A0), 5)


@vrir.jit
def gpu_markers_imported(A):
    from_outside = A * 2
    gpu_begin()
    t = from_outside.sum()
    gpu_end()
    return t


def test_gpu_markers_imported_by_name(layout1):
    check(gpu_markers_imported, layout1(np.arange(6.0)))


def test_gpu_markers_in_plain_python():
    assert vrir.gpu_begin() is None and vrir.gpu_end() is None


@vrir.jit
def gpu_begin_unclosed(A):
    vrir.gpu_begin()
    s = A.sum()
    return s


@vrir.jit
def gpu_end_alone(A):
    s = A.sum()
    vrir.gpu_end()
    return s


@vrir.jit
def gpu_begin_twice(A):
    vrir.gpu_begin()
    s = A.sum()
    vrir.gpu_begin()
    vrir.gpu_end()
    return s


@vrir.jit
def gpu_end_in_other_block(A):
    vrir.gpu_begin()
    s = A.sum()
    if s > 0:
        vrir.gpu_end()
    return s


@vrir.jit
def gpu_marker_with_return(A):
    vrir.gpu_begin()
    return A.sum()
    vrir.gpu_end()


@vrir.jit
def gpu_marker_inside_with(A):
    with vrir.gpu():
        vrir.gpu_begin()
        s = A.sum()
        vrir.gpu_end()
    return s


@vrir.jit
def gpu_marker_as_value(A):
    x = vrir.gpu_begin()
    return A.sum()


@pytest.mark.parametrize("fn,construct,marker", [
    (gpu_begin_unclosed, "without a vrir.gpu_end()", "vrir.gpu_begin()"),
    (gpu_end_alone, "without a vrir.gpu_begin()", "vrir.gpu_end()"),
    (gpu_begin_twice, "do not nest", "    vrir.gpu_begin()\n    vrir.gpu_end()"),
    (gpu_end_in_other_block, "without a vrir.gpu_end()", "vrir.gpu_begin()"),
    (gpu_marker_with_return, "'return' inside", "return A.sum()"),
    (gpu_marker_inside_with, "do not nest", "vrir.gpu_begin()"),
    (gpu_marker_as_value, "statement of its own", "x = vrir.gpu_begin()"),
])
def test_gpu_marker_errors(fn, construct, marker):
    with pytest.raises(vrir.CompileError) as info:
        fn(np.ones(3))
    msg = str(info.value)
    assert construct in msg
    if "\n" in marker:  # the second gpu_begin
        line = line_of(fn, "s = A.sum()") + 1
    else:
        line = line_of(fn, marker)
    assert f"{HERE}:{line}" in msg, msg


# ================================================================ targets
def test_target_option_and_global_setting():
    @vrir.jit(target="cpu", boundscheck=False)
    def f(x, i):
        return x[i] * 2

    assert f.target == "cpu" and not f.boundscheck
    assert f(np.arange(3.0), -1) == 4.0

    @vrir.jit
    def g(x):
        return x + 1

    assert vrir.config.target == "cpu"
    old = vrir.set_target("vulkan")
    try:
        assert old == "cpu" and vrir.config.target == "vulkan"
        assert g(1) == 2  # no GPU section: nothing runs on the device
        assert f(np.arange(3.0), 0) == 0.0  # its own target wins
        vrir.config.target = "opencl"
        assert g(1) == 2
    finally:
        vrir.set_target("cpu")
    assert g(1) == 2


def test_unbuilt_and_unknown_targets(monkeypatch):
    # Every target is built now; a target without a backend would say so.
    monkeypatch.setattr(vrir.api, "BUILT_TARGETS", ("cpu", "opencl"))

    @vrir.jit(target="vulkan")
    def f(x):
        return x

    with pytest.raises(vrir.CompileError) as info:
        f(1)
    assert "not built yet" in str(info.value) and "on the CPU" in str(info.value)
    assert "'opencl'" in str(info.value)
    with pytest.raises(ValueError, match="unknown target"):
        vrir.jit(target="cuda")
    with pytest.raises(ValueError, match="unknown target"):
        vrir.set_target("tpu")
    assert vrir.config.target == "cpu"
    # declared signatures compile at decoration: the error comes right away
    with pytest.raises(vrir.CompileError, match="vulkan"):
        @vrir.jit("f64", target="vulkan")
        def h(x):
            return x


# ================================================================ signatures
def test_signature_string_compiles_eagerly():
    @vrir.jit("f64[:, ::1], f64[:, :], i64")
    def f(A, B, n):
        return A.sum() * n + B[0, 0]

    assert f.signatures == [(vrir.f64[:, ::1], vrir.f64[:, :], "i64")]
    A = np.arange(12.0).reshape(3, 4)
    for name, B in variants2(A).items():
        assert_same(f(A, B, 2), f.py_func(A, B, 2))
    assert f(A[:, :], A, True) == f.py_func(A, A, 1)  # bool converts to an integer
    with pytest.raises(TypeError, match="no declared signature matches"):
        f(np.asfortranarray(A), A, 2)            # C order declared
    with pytest.raises(TypeError, match=r"declared: \(f64\[:, ::1\], f64\[:, :\], i64\)"):
        f(A, A, 2.5)                             # float for an integer
    with pytest.raises(TypeError):
        f(A.astype(np.float32), A, 2)            # element type
    with pytest.raises(TypeError):
        f(A, A[0], 2)                            # rank
    assert len(f.signatures) == 1


def test_signature_list_and_scalar_conversions():
    @vrir.jit(["f64[:], f64", "i32[::1], i32", "c128[:], c128"])
    def scale(x, s):
        return x * s

    assert len(scale.signatures) == 3
    v = np.arange(4.0)
    assert_same(scale(v, 2), v * 2.0)                  # int -> f64
    assert_same(scale(v[::2], np.float32(2)), v[::2] * 2.0)
    i = np.arange(4, dtype=np.int32)
    assert_same(scale(i, 3), i * np.int32(3))
    with pytest.raises(TypeError):
        scale(i, 2**40)                                # does not fit in i32
    with pytest.raises(TypeError):
        scale(i, np.int64(3))                          # not a safe cast
    z = v.astype(np.complex128)
    assert_same(scale(z, 1j), z * 1j)
    assert_same(scale(z, 2), z * 2)


def test_signature_type_objects_and_layouts():
    @vrir.jit((vrir.f64[::1, :], vrir.i64))
    def corner(A, n):
        return A[-1, -1] * n

    A = np.asfortranarray(np.arange(6.0).reshape(2, 3))
    assert corner(A, 2) == 10.0
    assert corner.signatures == [(vrir.Array(vrir.f64, 2, "F"), "i64")]
    with pytest.raises(TypeError):
        corner(np.ascontiguousarray(A), 2)
    # a 2-D array that is both C and F contiguous fits either declaration
    assert corner(np.ones((1, 3)), 1) == 1.0
    assert vrir.f64[::1] == vrir.Array(vrir.float64, 1, "C")
    assert vrir.f32[:, :, ::1].layout == "row_major" and vrir.c64[:].layout == "strided"


def test_annotations_in_the_thesis_style():
    @vrir.jit
    def stencil(A: vrir.Array(vrir.float64, 2, "RowMajor"),
                B: vrir.Array(np.float64, 2, "RowMajor")):
        m, n = A.shape
        vrir.gpu_begin()
        for i, j in vrir.pfor(vrir.Domain(range(1, m - 1), range(1, n - 1)), shared=[A, B]):
            B[i, j] = (A[i, j] + A[i - 1, j] + A[i + 1, j] + A[i, j + 1] + A[i, j - 1]) / 5
        vrir.gpu_end()

    assert len(stencil.signatures) == 1  # compiled at decoration
    A = np.random.default_rng(0).random((6, 7))
    check(stencil, A, np.zeros_like(A))
    with pytest.raises(TypeError):
        stencil(np.asfortranarray(A), np.zeros_like(A))

    @vrir.jit
    def mixed(x: vrir.f64[:], n: int, c: complex, s: "f32"):
        return x[0] * n + c * s

    assert mixed.signatures == [(vrir.f64[:], "i64", "complex<f64>", "f32")]
    assert mixed(np.array([2.0]), 3, 1j, 0.5) == 6 + 0.5j

    @vrir.jit
    def ordinary(x: float, n: int):  # no VRIR types: compiled lazily as usual
        return x * n

    assert ordinary.signatures == [] and ordinary(2.0, 3) == 6.0


def test_bad_signatures():
    with pytest.raises(TypeError, match="unknown type"):
        vrir.jit("f65[:]")
    with pytest.raises(TypeError, match="':' or '::1'"):
        vrir.jit("f64[1:]")
    with pytest.raises(TypeError, match="contiguous dimension"):
        vrir.jit("f64[::1, ::1]")
    with pytest.raises(TypeError, match="argument types only"):
        vrir.jit("f64(f64[:])")
    with pytest.raises(TypeError, match="2 types for 1 parameters"):
        @vrir.jit("f64, f64")
        def f(x):
            return x
    with pytest.raises(TypeError, match="no type annotation"):
        @vrir.jit
        def g(x: vrir.f64, y):
            return x
    with pytest.raises(TypeError):
        vrir.jit(42)


# ================================================================ subset gaps
@vrir.jit
def int_bitwise_arrays(X, Y, k):
    return X & Y, X | Y, X ^ Y, ~X, X & k, k | Y, X ^ 5


def test_bitwise_on_integer_arrays(layout1):
    X = np.array([12, -5, 7, 0, 255, -1], dtype=np.int64)
    Y = np.array([10, 3, -8, 6, 15, 9], dtype=np.int64)
    check(int_bitwise_arrays, layout1(X), layout1(Y), 6)
    check(int_bitwise_arrays, layout1(X.astype(np.int32)), layout1(Y.astype(np.int32)), 6)


@vrir.jit
def bool_bitwise(M, N, p):
    return M & N, M | N, M ^ N, ~M, M & p, M | (N & ~M), np.sum(M | N), M == N, M != p


def test_bitwise_on_bool_arrays(layout2):
    M = np.array([[True, False, True, False], [False, False, True, True], [True, True, False, True]])
    N = M[::-1].copy()
    check(bool_bitwise, layout2(M), layout2(N), True)
    check(bool_bitwise, layout2(M), layout2(N), False)


@vrir.jit
def scalar_bitwise(a, b, p, q):
    return a & b, a | b, a ^ b, ~a, p & q, p | q, p ^ q, a & p, a >> 2, a << 3


@vrir.jit
def bool_invert(p):
    return ~p, not p


@pytest.mark.parametrize("a,b,p,q", [(12, 10, True, False), (-7, 3, False, False), (0, -1, True, True)])
def test_bitwise_scalars(a, b, p, q):
    check(scalar_bitwise, a, b, p, q)
    check(scalar_bitwise, np.int32(a), np.int32(b), np.bool_(p), np.bool_(q))
    # ~ on a bool is logical, as on np.bool_ (Python's ~True == -2 is deprecated)
    assert bool_invert(np.bool_(p)) == bool_invert.py_func(np.bool_(p)) == (not p, not p)


@vrir.jit
def numpy_scalar_args(a, b, c, d, e, f):
    return a * 2, b + 1, c * a, d or e, f + a, a / b, b // 2, -c, a + c


def test_numpy_scalar_arguments():
    # NEP 50: NumPy scalar arguments are strong, np.float64 too (c * a is
    # float64)
    args = (np.float64(1.5), np.int32(7), np.float32(0.25), np.bool_(False), np.bool_(True),
            np.int64(-3))
    got, want = numpy_scalar_args(*args), numpy_scalar_args.py_func(*args)
    # float64/int64/bool_ results come back as float/int/bool
    assert [np.asarray(g).dtype for g in got] == [np.asarray(w).dtype for w in want]
    np.testing.assert_allclose(np.array(got, dtype=float), np.array(want, dtype=float))


@vrir.jit
def numpy_scalar_with_arrays(x, s32, s64, k):
    return x * s32, x * s64, x + k, (x * s32).sum()


def test_numpy_scalars_with_arrays(layout1):
    x = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], dtype=np.float32)
    got = numpy_scalar_with_arrays(layout1(x), np.float32(2), np.float64(2), np.int64(1))
    want = numpy_scalar_with_arrays.py_func(x, np.float32(2), np.float64(2), np.int64(1))
    close(got[0], want[0]), close(got[3], want[3], rtol=1e-6)
    # NumPy 2 (NEP 50) promotes a float32 array with a float64 or int64 scalar
    # to float64 (the frontend made typed scalars weak with arrays before)
    for g, w in (got[1], want[1]), (got[2], want[2]):
        assert g.dtype == w.dtype == np.float64
        np.testing.assert_allclose(g, w)


@vrir.jit
def swap_and_unpack(A, v):
    m, n = A.shape
    a, b = m, n
    a, b = b, a
    (p, q), r = (v[0], v[1]), v[2]
    t = (a, b, p)
    x, y, z = t
    lo, hi = stats(v)
    return a, b, p, q, r, x + y + z, lo, hi, t[-1]


@vrir.jit
def stats(v):
    return np.min(v), np.max(v)


def test_tuple_unpacking(layout2, layout1):
    check(swap_and_unpack, layout2(np.ones((3, 4))), layout1(np.array([3.0, -1.0, 2.0, 5.0])))


@vrir.jit
def more_math(x, y, n):
    return (math.tanh(x), math.isnan(x), math.isnan(x - x * math.inf), math.e * n, math.tau,
            math.fabs(-n), math.floor(-x), math.ceil(-x), math.pow(n, 0.5), math.sqrt(n),
            math.exp(-x) + math.log(y), math.sin(x) ** 2 + math.cos(x) ** 2, abs(-x), max(x, y, 1),
            min(n, 2, 7))


@pytest.mark.parametrize("x,y,n", [(0.5, 2.0, 3), (2.25, 0.75, 10)])
def test_math_functions(x, y, n):
    check(more_math, x, y, n)


@vrir.jit
def astype_all(A):
    return (A.astype(np.float32), A.astype(np.int32), A.astype(np.int64), A.astype(bool),
            A.astype(np.complex128), (A > 0).astype(np.int64), A.astype(np.float64),
            A.astype(float), A.astype(int))


def test_astype(layout2):
    A = np.array([[1.5, -2.5, 0.0, 3.0], [-0.5, 7.25, 1e3, -3.0], [2.0, 0.25, -1.0, 0.5]])
    check(astype_all, layout2(A))


@vrir.jit
def mean_axes(A, X):
    return (np.mean(A, axis=0), np.mean(A, axis=1), A.mean(axis=-1), A.mean(0), np.mean(A),
            np.mean(X, axis=0), X.mean(axis=1), np.mean(X > 0, axis=0))


def test_mean_with_axis(layout2):
    A = np.arange(1.0, 13.0).reshape(3, 4) / 7.0
    X = np.array([[1, -2, 3, 4], [5, 6, -7, 8], [9, 10, 11, -12]])
    check(mean_axes, layout2(A), layout2(X))


@vrir.jit
def transposes(A, v):
    B = np.transpose(A)
    C = A.T
    D = A.transpose()
    return B, C, D, B.shape[0], C[1, 0], v.T, (A.T @ A)


def test_transposes(layout2, layout1):
    check(transposes, layout2(np.arange(12.0).reshape(3, 4)), layout1(np.arange(3.0)))


@vrir.jit
def creation_like(A):
    return (np.zeros_like(A), np.ones_like(A, dtype=np.int32), np.empty_like(A).shape[1],
            np.full_like(A, 2.5), np.full((2, 3), 7, dtype=np.int32), np.arange(2, 11, 3),
            np.arange(0.5, 3.0, 0.75, dtype=np.float32), np.ones((2, 2), np.complex64))


def test_creation_like(layout2):
    check(creation_like, layout2(np.arange(12.0).reshape(3, 4)))


def test_like_keeps_layout():
    @vrir.jit
    def like(A):
        return np.zeros_like(A)
    assert like(np.asfortranarray(np.ones((3, 4)))).flags.f_contiguous
    assert like(np.ones((3, 4))).flags.c_contiguous


@vrir.jit
def elementwise_fns(A, B):
    return (np.power(A, 2), np.power(np.abs(A), B), np.maximum(A, B), np.minimum(A, 0.5),
            np.where(A > B, A, B), np.abs(A - B), np.sqrt(np.abs(A)), np.exp(-A), np.log(A + 2),
            np.sin(A) + np.cos(B) - np.tan(A / 4), np.abs(A) ** B, np.tanh(A), np.floor(A),
            np.ceil(B))


def test_elementwise_functions(layout2):
    A = np.array([[0.5, -1.0, 1.5, 0.25], [1.0, 0.75, -0.5, 1.25], [0.1, 1.9, 0.6, -0.3]])
    B = np.abs(A[::-1]) + 0.1
    check(elementwise_fns, layout2(A), layout2(B))


@vrir.jit
def dots(A, B, v, w):
    return np.dot(A, B), A @ B, np.dot(A, v), A @ v, np.dot(w, A), np.dot(v, v), v @ v, np.dot(2.0, v)


def test_dot(layout2, layout1):
    rng = np.random.default_rng(3)
    A, B = rng.random((3, 4)), rng.random((4, 2))
    v, w = rng.random(4), rng.random(3)
    check(dots, layout2(A), B if True else None, layout1(np.r_[v, v[:2]])[:4], w)
    for name, Bv in variants2(B).items():
        check(dots, A, Bv, v, w)


@vrir.jit
def int_index_arrays(v, idx, A):
    w = v[idx]
    v[idx] = -1.0
    return w, A[1][idx[:2]], v[np.arange(2)]


def test_integer_array_indexing_negative(layout1):
    v = np.arange(10.0)
    idx = np.array([0, -1, 3, -4, 3])
    check(int_index_arrays, layout1(v), idx, np.arange(12.0).reshape(3, 4))


@vrir.jit
def points_of(A, T, i, j, k):
    # One element (or sub-array) per position of the index arrays, as
    # NumPy: A[i, j][t] is A[i[t], j[t]]; integers broadcast.
    return (A[i, j], A[np.arange(A.shape[0]), j[:3] % 3], T[i, k], T[i, 1, :], T[-1, k],
            A[i, :], A[j % 3, -1])


@vrir.jit
def write_points(A, T, i, j, k):
    A[i, j] = 0.5
    A[j[:2] % 3, i[:2]] += 1.0
    T[i, k] = T[k, i] * 2.0  # one row each
    T[i, 0] = T[0, 0]  # one row for all
    A[i, j] = np.arange(4) * 1.0  # one value each
    return A, T


def test_integer_arrays_for_several_dimensions(layout2):
    i, j, k = np.array([0, 2, -1, 1]), np.array([1, 3, 0, -4]), np.array([3, 0, 1, 1], np.int32)
    T = np.arange(48.0).reshape(4, 4, 3)
    for t in (T, np.asfortranarray(T), T[::-1].copy()[::-1]):
        check(points_of, layout2(M4), t, i, j, k)
        check(write_points, layout2(M4), t, i, j, k)
    with pytest.raises(IndexError, match="shape mismatch: indexing arrays could not be "
                       "broadcast together"):
        points_of(M4, T, i, j[:3], k)
    with pytest.raises(IndexError, match="index out of bounds"):
        points_of(M4, T, i, j + 4, k)
    with pytest.raises(ValueError, match="shape mismatch: value array could not be "
                       "broadcast to indexing result"):
        write_points(M4.copy(), T.copy(), i[:3], j[:3], k[:3])


@vrir.jit
def columns_of(A, T, i):
    return A[:, i], T[:, i], T[..., i % 3], T[:, :, i[:2] % 3]


@vrir.jit
def write_columns_of(A, T, i):
    A[:, i] = A[:, i] * 2.0 + 1.0  # values of the selection's shape
    A[:, i[:2]] += 1.0
    T[:, i] = T[0, 0]  # the trailing dimension broadcast
    return A, T


def test_one_integer_array_after_slices(layout2):
    i = np.array([0, 3, -1, 2])
    T = np.arange(24.0).reshape(2, 4, 3)
    for t in (T, np.asfortranarray(T)):
        check(columns_of, layout2(M4), t, i)
        check(write_columns_of, layout2(M4), t, i)
    with pytest.raises(IndexError, match="index out of bounds"):
        columns_of(M4, T, i + 4)


@vrir.jit
def points_after_a_slice(A, i):
    return A[:, i, i]


def test_integer_arrays_after_a_slice_refused():
    with pytest.raises(vrir.CompileError, match="A\\[:, ..., idx\\] \\(one 1-D integer "
                       "array after bare `:`s\\)") as info:
        points_after_a_slice(np.ones((2, 2, 2)), np.array([0, 1]))
    assert f"{HERE}:{line_of(points_after_a_slice, 'return')}" in str(info.value)


M4 = np.arange(12.0).reshape(3, 4) / 7.0


@vrir.jit
def neg_step_views(A, v):
    r = v[::-1]
    r[0] = 100.0             # writes through into v[-1]
    B = A[::-1, ::-2]
    B[0, 0] = -7.0
    return r.copy(), B.copy(), v[-1:-4:-1].sum(), A[-1, ::-1][1]


def test_negative_step_views(layout2, layout1):
    check(neg_step_views, layout2(np.arange(12.0).reshape(3, 4)), layout1(np.arange(6.0)))


@vrir.jit
def broadcasting(A, row, col):
    return A + row, A * col, row * col, A - A[0], A[:, :1] + row, (A > row) & (A < col)


def test_broadcasting(layout2):
    A = np.arange(12.0).reshape(3, 4)
    check(broadcasting, layout2(A), np.arange(4.0), np.arange(3.0).reshape(3, 1))


@vrir.jit
def loops_everywhere(v, limit):
    n = len(v)
    total = 0.0
    i = 0
    while True:
        if i >= n:
            break
        if v[i] < 0:
            i += 1
            continue
        total += v[i]
        if total > limit:
            return total, i, False
        i += 1
    for k in range(n - 1, -1, -1):
        if v[k] > 0:
            break
    else_branch = 0
    if total > 10:
        else_branch = 1
    elif total > 5:
        else_branch = 2
    else:
        else_branch = 3
    return total, k * 10 + else_branch, True


@pytest.mark.parametrize("limit", [1.0, 6.0, 100.0])
def test_control_flow(layout1, limit):
    check(loops_everywhere, layout1(np.array([1.0, -2.0, 3.5, 0.5, -1.0, 2.5])), limit)


@vrir.jit
def prange_reduce_rows(A):
    m, n = A.shape
    out = np.zeros(m)
    for i in vrir.prange(m):
        s = 0.0
        for j in range(n):
            s += A[i, j] * A[i, j]
        out[i] = math.sqrt(s)
    return out


def test_prange_2d(layout2):
    check(prange_reduce_rows, layout2(np.arange(12.0).reshape(3, 4)))
