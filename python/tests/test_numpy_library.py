"""np.outer, np.var/np.std (axis, ddof, keepdims) and np.concatenate /
np.stack (axis, tuples and lists, dtype promotion), against NumPy on every
layout; shapes that do not fit raise NumPy's ValueError."""
import numpy as np
import pytest

import vrir

from helpers import check

RNG = np.random.default_rng(17)
A = RNG.random((5, 4)) - 0.5
B = RNG.random((3, 4)) - 0.5
V = RNG.random(6)


@vrir.jit
def outer(a, b):
    return np.outer(a, b)


@vrir.jit
def spread(A):
    return (np.var(A), np.std(A, axis=0), np.var(A, axis=(0, 1), ddof=1),
            np.std(A, axis=1, keepdims=True), np.var(A, 1, ddof=2))


@vrir.jit
def joined(A, B):
    return (np.concatenate((A, B)), np.concatenate([A, B], axis=0),
            np.concatenate((A.T, B.T, A.T), axis=1), np.concatenate((A, B), axis=-2))


@vrir.jit
def stacked(A):
    return np.stack((A, A)), np.stack([A, 2 * A], axis=2), np.stack((A[0], A[1]), axis=-1)


@vrir.jit
def mixed_dtypes(a, k):
    return np.concatenate((a, k)), np.stack((k, k))


def test_outer(layout1, layout2):
    check(outer, layout1(V), layout2(A))


def test_variance(layout2):
    check(spread, layout2(A))
    check(spread, (A * 100).astype(np.int64))


def test_concatenate_and_stack(layout2):
    check(joined, layout2(A), B)
    check(stacked, layout2(A))
    check(mixed_dtypes, V, np.arange(3))


def test_shapes_must_fit():
    with pytest.raises(ValueError, match="except for the concatenation axis"):
        joined(A, B[:, :3])
    with pytest.raises(ValueError, match="same shape"):
        vrir.jit(stack_mismatch)(A, A[:4])


def stack_mismatch(A, B):
    return np.stack((A, B))


def concatenate_ranks(a, A):
    return np.concatenate((a, A))


def concatenate_number(A, B):
    return np.concatenate(A[0, 0])


@pytest.mark.parametrize("fn,message", [
    (concatenate_ranks, "same number of dimensions"),
    (concatenate_number, "tuple or list of arrays"),
])
def test_refused(fn, message):
    with pytest.raises(vrir.CompileError, match=message):
        vrir.jit(fn)(A[0], A) if fn is concatenate_ranks else vrir.jit(fn)(A, B)


# ------------------------------------------------------------ ufuncs
@vrir.jit
def ufuncs(A, v):
    return (np.add(A, 1.0), np.subtract(v, 2), np.multiply(A, A), np.divide(v, 2),
            np.true_divide(A, 3), np.floor_divide(v, 0.7), np.remainder(v, 0.7),
            np.less(A, 0.0), np.greater_equal(v, 0.5), np.equal(v, v),
            np.maximum(A, 0.1), np.minimum(v, 0.2), np.power(v, 2))


@vrir.jit
def integer_ufuncs(k):
    return np.bitwise_and(k, 6), np.bitwise_or(k, 1), np.bitwise_xor(k, k), np.mod(k, 3)


@vrir.jit
def ufunc_methods(A, v):
    return (np.add.outer(v, v), np.multiply.outer(v, A), np.less.outer(A[0], v),
            np.add.reduce(A), np.maximum.reduce(A, axis=1), np.minimum.reduce(v),
            np.multiply.accumulate(v + 1), np.add.accumulate(v))


@vrir.jit
def ufunc_out(A):
    out = np.zeros(A.shape)
    r = np.multiply(A, 2.0, out=out)
    np.add(A, out, out=out)
    return out, r


def test_binary_ufuncs(layout2):
    check(ufuncs, layout2(A), V)
    check(integer_ufuncs, np.arange(-5, 7))
    check(ufunc_methods, layout2(A), V)
    check(ufunc_out, layout2(A))


def out_of_wrong_kind(A):
    out = np.zeros(A.shape, dtype=np.int64)
    np.add(A, 1.5, out=out)
    return out


def divide_reduce(A):
    return np.divide.reduce(A)


@pytest.mark.parametrize("fn,message", [
    (out_of_wrong_kind, "same-kind casting"),
    (divide_reduce, "np.divide.reduce is not supported"),
])
def test_ufunc_refused(fn, message):
    with pytest.raises(vrir.CompileError, match=message):
        vrir.jit(fn)(A)


# ------------------------------------------------------------ meshgrid
@vrir.jit
def grids(x, y, z):
    X, Y = np.meshgrid(x, y)
    I, J, K = np.meshgrid(x, y, z, indexing="ij")
    P, Q, R = np.meshgrid(x, y, z)
    return X, Y, I + J * K, P * Q + R


def test_meshgrid(layout1):
    check(grids, layout1(V), np.arange(4), np.linspace(0.0, 1.0, 5))
    check(grids, V[:0].copy(), np.arange(4), np.ones((2, 2)))


def meshgrid_bad_indexing(x):
    return np.meshgrid(x, x, indexing="xz")


def test_meshgrid_refused():
    with pytest.raises(vrir.CompileError, match="indexing is 'xy' or 'ij'"):
        vrir.jit(meshgrid_bad_indexing)(V)


# ------------------------------------------------------------ batched @
@vrir.jit
def matmul(a, b):
    return a @ b


def test_batched_matmul():
    r = np.random.default_rng(29)
    for a, b in [(r.random((2, 3, 4, 5)), r.random((5, 6))),
                 (r.random((4, 5)), r.random((3, 5, 2))),
                 (r.random((3, 4, 5)), r.random((3, 5, 2))),
                 (np.asfortranarray(r.random((3, 4, 5))), r.random((5, 2))[::-1]),
                 (r.random((3, 4, 5)), r.random(5)),
                 (r.random(4), r.random((3, 4, 2))),
                 (r.integers(0, 5, (2, 3, 3)), r.random((3, 3))),
                 (r.random((0, 4, 5)), r.random((5, 2))),
                 # size-1 batch dimensions broadcast (fuzzer case s10_00347)
                 (r.random((1, 4, 5)), r.random((3, 5, 2))),
                 (r.random((2, 1, 4, 5)), r.random((1, 3, 5, 2))[:, ::-1]),
                 (r.random((0, 4, 5)), r.random((1, 5, 2)))]:
        check(matmul, a, b)


def test_batched_matmul_errors():
    r = np.random.default_rng(31)
    with pytest.raises(ValueError, match="batch dimension 0 of the operands cannot be broadcast"):
        matmul(r.random((3, 4, 5)), r.random((2, 5, 2)))
    with pytest.raises(ValueError):
        matmul(r.random((3, 4, 5)), r.random((6, 2)))
    with pytest.raises(vrir.CompileError, match="stacks of different ranks"):
        matmul(r.random((2, 3, 4, 5)), r.random((3, 5, 2)))


@vrir.jit
def scaled_product(A, B):
    return 2.0 * (A @ B)


def test_openblas_uses_the_cpus_kernels(tmp_path):
    """Debian's OpenBLAS picks kernels by the CPU's model number and falls
    back to generic ones (Prescott) for a model it does not know, as virtual
    machines report: matrix products ran 4x slower than NumPy's. vrir names
    the family the CPU's instruction sets allow (OPENBLAS_CORETYPE) before
    OpenBLAS loads, unless the user chose one."""
    import ctypes
    import os
    from vrir import compiler

    A = np.arange(12.0).reshape(3, 4)
    np.testing.assert_allclose(scaled_product(A, A.T), 2.0 * (A @ A.T))
    want = compiler.openblas_core_for_this_cpu()
    if want is None or os.environ.get("OPENBLAS_CORETYPE") != want:
        pytest.skip("the CPU has neither AVX2 nor AVX-512, or the user chose a core")
    corename = ctypes.CDLL("libopenblas.so.0").openblas_get_corename
    corename.restype = ctypes.c_char_p
    assert corename().decode().lower() == want.lower()

    # The choice follows the instruction sets.
    def core(flags):
        path = tmp_path / "cpuinfo"
        path.write_text(f"processor\t: 0\nflags\t\t: {flags}\n")
        return compiler.openblas_core_for_this_cpu(str(path))
    assert core("fpu sse2 avx avx2 fma avx512f avx512cd avx512bw avx512dq "
                "avx512vl") == "SkylakeX"
    assert core("fpu sse2 avx avx2 fma avx512f") == "Haswell"
    assert core("fpu sse2 avx") is None
    assert compiler.openblas_core_for_this_cpu(str(tmp_path / "missing")) is None
