"""GPU sections on the OpenCL target (PoCL on the CPU machines, any OpenCL
device elsewhere): the same kernels as on the CPU, compared with plain
Python/NumPy on every memory layout."""
import ctypes
import os

import numpy as np
import pytest

import vrir
from vrir import compiler

from helpers import check


def _opencl_available():
    lib = os.path.join(compiler.build_dir(), "lib")
    try:
        ctypes.CDLL(os.path.join(lib, "libvrir_runtime.so"), mode=ctypes.RTLD_GLOBAL)
        gpu = ctypes.CDLL(os.path.join(lib, "libvrir_gpu_runtime.so"))
    except OSError:
        return False
    gpu.vrir_gpu_available.argtypes = [ctypes.c_int64]
    return gpu.vrir_gpu_available(0) == 1


pytestmark = pytest.mark.skipif(not _opencl_available(),
                                reason="no OpenCL device (install pocl-opencl-icd)")

RNG = np.random.default_rng(3)
A0 = RNG.random((13, 17))
V0 = RNG.random(50)


@vrir.jit(target="opencl")
def scale_and_sum(A, k):
    s = 0.0
    with vrir.gpu():
        m, n = A.shape
        for i, j in vrir.pfor(vrir.Domain(m, n), shared=[A]):
            A[i, j] = A[i, j] * k
        s = np.sum(A)
    return s


def test_pfor_and_reduction(layout2):
    check(scale_and_sum, layout2(A0), 2.0)


@vrir.jit(target="opencl")
def jacobi(A, B, steps):
    m, n = A.shape
    for t in range(steps):
        with vrir.gpu():
            for i, j in vrir.pfor(vrir.Domain(m - 2, n - 2), shared=[A, B]):
                B[i + 1, j + 1] = 0.2 * (A[i + 1, j + 1] + A[i, j + 1] + A[i + 2, j + 1]
                                         + A[i + 1, j] + A[i + 1, j + 2])
            for i, j in vrir.pfor(vrir.Domain(m - 2, n - 2), shared=[A, B]):
                A[i + 1, j + 1] = B[i + 1, j + 1]


def test_jacobi(layout2):
    check(jacobi, layout2(A0), layout2(A0.copy()), 3)


@vrir.jit(target="opencl")
def whole_array(A, x):
    with vrir.gpu():
        B = np.exp(A * 0.5) + x
        C = B.T @ A
        y = A @ x
    return B, C, y


def test_whole_array_ops(layout2):
    check(whole_array, layout2(A0), RNG.random(17))


@vrir.jit(target="opencl")
def negative_indices(x):
    y = np.empty_like(x)
    with vrir.gpu():
        for i in vrir.prange(len(x)):
            y[i] = x[i - 1] + x[-1 - i]
    return y


def test_negative_indices(layout1):
    check(negative_indices, layout1(V0))


@vrir.jit(target="opencl")
def out_of_bounds(x):
    y = np.zeros_like(x)
    with vrir.gpu():
        for i in vrir.prange(len(x)):
            y[i] = x[i + 1]
    return y


def test_bounds_error_in_kernel():
    with pytest.raises(IndexError, match="in a parallel loop"):
        out_of_bounds(V0.copy())


def test_same_function_on_both_targets():
    @vrir.jit
    def double(x):
        with vrir.gpu():
            for i in vrir.prange(len(x)):
                x[i] = 2.0 * x[i]

    want = 2.0 * V0
    for target in ("cpu", "opencl"):
        old = vrir.set_target(target)
        try:
            x = V0.copy()
            double(x)
            np.testing.assert_allclose(x, want)
        finally:
            vrir.set_target(old)
    assert len(double.signatures) == 1  # one signature, compiled per target
