"""GPU sections on the Vulkan target (lavapipe on the CPU machines, any
Vulkan device elsewhere): the same kernels as on the CPU, compared with
plain Python/NumPy on every memory layout, and the f64 operations Vulkan
SPIR-V lacks reported at compile time."""
import ctypes
import os

import numpy as np
import pytest

import vrir
from vrir import compiler

from helpers import check


def _vulkan_available():
    lib = os.path.join(compiler.build_dir(), "lib")
    try:
        ctypes.CDLL(os.path.join(lib, "libvrir_runtime.so"), mode=ctypes.RTLD_GLOBAL)
        gpu = ctypes.CDLL(os.path.join(lib, "libvrir_gpu_runtime.so"))
    except OSError:
        return False
    gpu.vrir_gpu_available.argtypes = [ctypes.c_int64]
    return gpu.vrir_gpu_available(1) == 1


pytestmark = pytest.mark.skipif(not _vulkan_available(),
                                reason="no Vulkan device (install mesa-vulkan-drivers)")

RNG = np.random.default_rng(5)
A0 = RNG.random((13, 17))
V0 = RNG.random(50)


@vrir.jit(target="vulkan")
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


@vrir.jit(target="vulkan")
def whole_array(A, x):
    with vrir.gpu():
        B = A * 0.5 + x
        C = B.T @ A
        y = A @ x
        s = np.sum(B)
    return B, C, y, s


def test_whole_array_ops(layout2):
    check(whole_array, layout2(A0), RNG.random(17))


@vrir.jit(target="vulkan")
def negative_indices(x):
    y = np.empty_like(x)
    with vrir.gpu():
        for i in vrir.prange(len(x)):
            y[i] = x[i - 1] + x[-1 - i]
    return y


def test_negative_indices(layout1):
    check(negative_indices, layout1(V0))


@vrir.jit(target="vulkan")
def out_of_bounds(x):
    y = np.zeros_like(x)
    with vrir.gpu():
        for i in vrir.prange(len(x)):
            y[i] = x[i + 1]
    return y


def test_bounds_error_in_kernel():
    with pytest.raises(IndexError, match="in a parallel loop"):
        out_of_bounds(V0.copy())


def test_f64_exp_is_a_compile_error():
    @vrir.jit(target="vulkan")
    def f(x):
        with vrir.gpu():
            y = np.exp(x)
        return y

    with pytest.raises(vrir.CompileError, match="f64 math.exp has no Vulkan SPIR-V lowering"):
        f(V0)
    # f32 has it.
    x32 = V0.astype(np.float32)
    np.testing.assert_allclose(f(x32), np.exp(x32), rtol=1e-6)
