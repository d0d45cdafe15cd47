"""GPU sections on each GPU target this machine has (OpenCL on PoCL and
Vulkan on lavapipe here, any device elsewhere): the kernels of the CPU
tests, compared with plain Python/NumPy on every memory layout, and what
a target lacks reported at compile time."""
import ctypes
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import vrir
from vrir import compiler

from helpers import check
from test_constructs import gpu_scale

# Runtime format number of each target (VRIRGPURuntime.h).
FORMATS = {"opencl": 0, "vulkan": 1}


def _available(target):
    lib = os.path.join(compiler.build_dir(), "lib")
    try:
        ctypes.CDLL(os.path.join(lib, "libvrir_runtime.so"), mode=ctypes.RTLD_GLOBAL)
        gpu = ctypes.CDLL(os.path.join(lib, "libvrir_gpu_runtime.so"))
    except OSError:
        return False
    gpu.vrir_gpu_available.argtypes = [ctypes.c_int64]
    return gpu.vrir_gpu_available(FORMATS[target]) == 1


@pytest.fixture(params=[
    pytest.param(t, marks=pytest.mark.skipif(
        not _available(t), reason=f"no {t} device (scripts/setup.sh installs PoCL and lavapipe)"))
    for t in FORMATS])
def target(request):
    return request.param


RNG = np.random.default_rng(3)
A0 = RNG.random((13, 17))
V0 = RNG.random(50)


def on(target, fn):
    """`fn` (a plain function or a @vrir.jit one) compiled for `target`."""
    return vrir.jit(target=target)(getattr(fn, "py_func", fn))


def test_pfor_and_reduction(target, layout2):
    check(on(target, gpu_scale), layout2(A0), 2.0)


def jacobi(A, B, steps):
    m, n = A.shape
    for t in range(steps):
        with vrir.gpu():
            for i, j in vrir.pfor(vrir.Domain(m - 2, n - 2), shared=[A, B]):
                B[i + 1, j + 1] = 0.2 * (A[i + 1, j + 1] + A[i, j + 1] + A[i + 2, j + 1]
                                         + A[i + 1, j] + A[i + 1, j + 2])
            for i, j in vrir.pfor(vrir.Domain(m - 2, n - 2), shared=[A, B]):
                A[i + 1, j + 1] = B[i + 1, j + 1]


def test_jacobi(target, layout2):
    check(on(target, jacobi), layout2(A0), layout2(A0.copy()), 3)


def whole_array(A, x):
    with vrir.gpu():
        B = A * 0.5 + x
        C = B.T @ A
        y = A @ x
        s = np.sum(B)
    return B, C, y, s


def test_whole_array_ops(target, layout2):
    check(on(target, whole_array), layout2(A0), RNG.random(17))


def whole_array_exp(A, x):
    with vrir.gpu():
        B = np.exp(A * 0.5) + x
        C = B.T @ A
        y = A @ x
    return B, C, y


def test_f64_math(target, layout2):
    # On Vulkan, whose GLSL.std.450 has exp for 16- and 32-bit floats only,
    # f64 exp is expanded into arithmetic (vrir-gpu-expand-f64-math).
    check(on(target, whole_array_exp), layout2(A0), RNG.random(17))


def test_f32_math(target):
    def f(x):
        with vrir.gpu():
            y = np.exp(x)
        return y

    x32 = V0.astype(np.float32)
    np.testing.assert_allclose(on(target, f)(x32), np.exp(x32), rtol=1e-6)


def negative_indices(x):
    y = np.empty_like(x)
    with vrir.gpu():
        for i in vrir.prange(len(x)):
            y[i] = x[i - 1] + x[-1 - i]
    return y


def test_negative_indices(target, layout1):
    check(on(target, negative_indices), layout1(V0))


def out_of_bounds(x):
    y = np.zeros_like(x)
    with vrir.gpu():
        for i in vrir.prange(len(x)):
            y[i] = x[i + 1]
    return y


def test_bounds_error_in_kernel(target):
    with pytest.raises(IndexError, match="in a parallel loop"):
        on(target, out_of_bounds)(V0.copy())


def test_same_function_on_every_target(target):
    @vrir.jit
    def double(x):
        with vrir.gpu():
            for i in vrir.prange(len(x)):
                x[i] = 2.0 * x[i]

    want = 2.0 * V0
    for t in ("cpu", target):
        old = vrir.set_target(t)
        try:
            x = V0.copy()
            double(x)
            np.testing.assert_allclose(x, want)
        finally:
            vrir.set_target(old)
    assert len(double.signatures) == 1  # one signature, compiled per target


def test_arrays_stay_on_the_device(target):
    """Ten time steps of two kernels: each array goes to the device once and
    comes back once (the GPU runtime's counters, vrir.stats())."""
    f = on(target, jacobi)
    f(A0.copy(), A0.copy(), 1)  # compiled before counting
    A, B = A0.copy(), A0.copy()
    vrir.reset_stats()
    f(A, B, 10)
    stats = vrir.stats()
    assert stats["kernels"] == 20
    assert (stats["uploads"], stats["downloads"]) == (2, 2)
    assert stats["bytes_uploaded"] == stats["bytes_downloaded"] == 2 * A0.nbytes
    want_A, want_B = A0.copy(), A0.copy()
    jacobi(want_A, want_B, 10)
    np.testing.assert_allclose(A, want_A)
    np.testing.assert_allclose(B, want_B)


def jacobi_slicing(A, B, steps):
    for t in range(steps):
        with vrir.gpu():
            B[1:-1, 1:-1] = 0.2 * (A[1:-1, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:]
                                   + A[2:, 1:-1] + A[:-2, 1:-1])
            A[1:-1, 1:-1] = 0.2 * (B[1:-1, 1:-1] + B[1:-1, :-2] + B[1:-1, 2:]
                                   + B[2:, 1:-1] + B[:-2, 1:-1])


def test_slicing_stencil_stays_on_the_device(target):
    """The Jacobi sweep as NumPy slicing: a slice assignment's overlap test
    compares addresses on the host, which is no access to the arrays, so
    each array goes to the device once and comes back once. Every kernel
    runs on the device: a kernel's scalars share one Vulkan binding, so the
    five views of the fused sweep fit lavapipe's 32 storage buffers."""
    f = on(target, jacobi_slicing)
    f(A0.copy(), A0.copy(), 1)  # compiled before counting
    transfers = {}
    for steps in (2, 10):
        A, B = A0.copy(), A0.copy()
        vrir.reset_stats()
        f(A, B, steps)
        stats = vrir.stats()
        transfers[steps] = stats
        want_A, want_B = A0.copy(), A0.copy()
        jacobi_slicing(want_A, want_B, steps)
        np.testing.assert_allclose(A, want_A, rtol=1e-14)
        np.testing.assert_allclose(B, want_B, rtol=1e-14)
    assert transfers[10]["fallbacks"] == 0
    assert transfers[10]["kernels"] == 5 * transfers[2]["kernels"]
    # A and B once each: the function declares its array arguments, so the
    # views of each share one device buffer.
    for counter in ("uploads", "downloads"):
        assert transfers[10][counter] == transfers[2][counter] == 2
    assert transfers[10]["bytes_uploaded"] == 2 * A0.nbytes


def overlapping_assignments(x, A):
    with vrir.gpu():
        x[1:] = x[:-1] * 2.0 + 1.0      # overlaps: computed first
        x[::2] = x[::2] - 0.5           # the same view: in place
        A[1:, :] = A[:-1, :] + A[1:, :]  # overlaps
        A[:, ::-1] = A * 3.0            # reversed onto itself


def test_fused_slice_assignments_in_a_kernel(target, layout2):
    """A slice assignment in a GPU section is one kernel writing the slice
    (fused); when an input overlaps the slice other than as the same view,
    the elements go through a temporary first, as NumPy does."""
    check(on(target, overlapping_assignments), V0.copy(), layout2(A0))


def host_reads_between_sections(x, steps):
    total = 0.0
    for t in range(steps):
        with vrir.gpu():
            for i in vrir.prange(len(x)):
                x[i] = x[i] + 1.0
        total += x[0]
    return total


def test_host_read_between_sections_downloads(target):
    """A host read of the array after each section brings it back each
    time; the device copy stays valid (no upload after the first)."""
    f = on(target, host_reads_between_sections)
    f(V0.copy(), 1)
    x = V0.copy()
    vrir.reset_stats()
    total = f(x, 4)
    stats = vrir.stats()
    assert stats["kernels"] == 4
    assert stats["uploads"] == 1
    assert stats["downloads"] == 4
    np.testing.assert_allclose(total, sum(V0[0] + k for k in range(1, 5)))
    np.testing.assert_allclose(x, V0 + 4)


def heat_with_copies(u, steps):
    n = u.shape[0]
    with vrir.gpu():
        for t in range(steps):
            old = u.copy()
            for i in vrir.prange(1, n - 1):
                u[i] = 0.25 * old[i - 1] + 0.5 * old[i] + 0.25 * old[i + 1]
    return u


def test_copies_on_the_device_are_made_on_write(target, layout1):
    """`old = u.copy()` in a time-step loop of a GPU section: the copy
    shares u's device buffer (copy on potential write, thesis 7.3.2), and
    the kernel that writes u makes the device copy, so u goes to the device
    once and comes back once (a copy made at once would download u and
    upload the copy every step). The first copy is made on the host: u is
    not on the device yet. Checked against NumPy on every layout."""
    f = on(target, heat_with_copies)
    check(f, layout1(V0), 3)
    u = V0.copy()
    vrir.reset_stats()
    f(u, 12)
    stats = vrir.stats()
    assert stats["kernels"] == 12
    assert (stats["uploads"], stats["downloads"]) == (2, 1)
    assert stats["shared_copies"] == stats["device_copies"] == 11
    want = V0.copy()
    heat_with_copies(want, 12)
    np.testing.assert_allclose(u, want, rtol=1e-14)


def test_out_of_device_memory_runs_on_the_cpu(target, tmp_path):
    """With no device memory to spare (VRIR_GPU_MEMORY_LIMIT=1, read once per
    process), every kernel's work runs on the CPU instead: the same results,
    counted as fallbacks; with VRIR_GPU_CPU_FALLBACK=0 it is an error."""
    script = textwrap.dedent(f"""
        import numpy as np, vrir
        from test_gpu_targets import jacobi, whole_array, A0, RNG
        f = vrir.jit(target="{target}")(jacobi)
        g = vrir.jit(target="{target}")(whole_array)
        A, B = A0.copy(), A0.copy()
        f(A, B, 3)
        x = RNG.random(17)
        got = g(A0, x)
        want_A, want_B = A0.copy(), A0.copy()
        jacobi(want_A, want_B, 3)
        np.testing.assert_allclose(A, want_A)
        np.testing.assert_allclose(B, want_B)
        for value, expected in zip(got, whole_array(A0, x)):
            np.testing.assert_allclose(value, expected)
        stats = vrir.stats()
        print(stats["kernels"], stats["fallbacks"])
    """)
    path = tmp_path / "fallback.py"
    path.write_text(script)
    env = dict(os.environ, VRIR_GPU_MEMORY_LIMIT="1", VRIR_CACHE_DIR=str(tmp_path),
               PYTHONPATH=os.pathsep.join([os.path.join(os.path.dirname(__file__), ".."),
                                           os.path.dirname(__file__)]))
    run = subprocess.run([sys.executable, str(path)], env=env, capture_output=True,
                         text=True)
    assert run.returncode == 0, run.stderr
    kernels, fallbacks = map(int, run.stdout.split())
    # Jacobi: 2 kernels a step; whole_array: 7 kernels on a device, one of
    # them the second launch of the sum's reduction tree, which is skipped.
    assert kernels == 0 and fallbacks == 2 * 3 + 6
    env["VRIR_GPU_CPU_FALLBACK"] = "0"
    run = subprocess.run([sys.executable, str(path)], env=env, capture_output=True,
                         text=True)
    assert run.returncode != 0
    assert "out of device memory" in run.stderr


def gpu_divide(a, d, s):
    with vrir.gpu():
        for i in vrir.prange(0, a.shape[0], s):
            a[i] = a[i] // d + a[i] % d
    return a


def test_zero_divisor_and_step_in_a_kernel(target):
    # A kernel cannot raise: an integer divisor of zero gives NumPy's
    # array result (0) and a zero range step runs nothing, on every target
    # (the CPU target runs the section inline: tested in a subprocess in
    # test_fuzz_regressions.py, as it was a SIGFPE there).
    f = on(target, gpu_divide)
    a = np.arange(-5, 9)
    assert np.array_equal(f(a.copy(), 3, 1), a // 3 + a % 3)
    assert np.array_equal(f(a.copy(), 0, 1), np.zeros_like(a))
    assert np.array_equal(f(a.copy(), 3, 0), a)


def gpu_floor_div_mod(a, b, q, r):
    with vrir.gpu():
        q[:] = a // b
        r[:] = a % b


@pytest.mark.parametrize("dt", [np.int8, np.int16, np.int32, np.int64])
def test_floor_division_of_the_minimum_in_a_kernel(target, dt):
    """NumPy's // and % of every signed width, the minimum value included
    (Vulkan's remainder used to take the sign of INT_MIN as positive)."""
    info = np.iinfo(dt)
    a = np.array([info.min, info.min, info.min + 1, -7, 7, -100, 100, info.max, 0], dt)
    b = np.array([3, 7, -2, 2, -2, 7, -7, -1, 5], dt)
    q, r = np.zeros_like(a), np.zeros_like(a)
    on(target, gpu_floor_div_mod)(a, b, q, r)
    np.testing.assert_array_equal(q, a // b)
    np.testing.assert_array_equal(r, a % b)


def fused_sums(A, x):
    with vrir.gpu():
        s = np.sum(A * x + 1.0)
        m = (A - x).max()
    return s, m


def test_reductions_of_expressions_in_a_kernel(target, layout2):
    # A reducing map (no temporary array) becomes the reduction tree of
    # kernels, as a plain np.sum does.
    check(on(target, fused_sums), layout2(A0), RNG.random(17))


def complex_parts(Z, x):
    n = Z.shape[0]
    with vrir.gpu():
        im = Z.imag
        im[:] = im * x
        for i in vrir.prange(n):
            Z.real[i] = Z.imag[i] + 1.0
    return Z


def test_complex_parts_are_views_on_the_gpu(target):
    # .real / .imag are views of the complex array's device buffer, also
    # when a parallel loop writes them by index.
    vrir.reset_stats()
    check(on(target, complex_parts), np.arange(6.0) + 2j, 3.0)
    assert vrir.stats()["fallbacks"] == 0 and vrir.stats()["kernels"] >= 2


def doubled_tail(a):
    with vrir.gpu():
        for i in vrir.prange(a.shape[0]):
            a[i] = a[i] * 2.0
    return a[1:]


def test_returned_view_of_an_argument(target):
    # The section's writes are back on the host and the result is a view
    # of the argument, as on the CPU.
    a = np.arange(5.0)
    r = on(target, doubled_tail)(a)
    np.testing.assert_array_equal(a, [0.0, 2.0, 4.0, 6.0, 8.0])
    r[0] = -1.0
    assert a[1] == -1.0


def contractions(a, b, c):
    with vrir.gpu():
        r = np.einsum("ij,jk->ik", a, b)
        s = np.einsum("bij,bjk->bik", c, c)
        t = np.einsum("ii->i", a[:, :3])
        u = np.tensordot(c, c, axes=((1, 2), (1, 2)))
    return r, s, t, u


def test_contractions_in_a_section(target):
    vrir.reset_stats()
    check(on(target, contractions), RNG.random((3, 4)), RNG.random((4, 5)),
          RNG.random((2, 3, 3)))
    assert vrir.stats()["kernels"] > 0


def test_compile_timing_names_the_target_pipeline(target, tmp_path):
    """VRIR_TIMING=1 reports the MLIR pipeline of the kernel's target."""
    script = textwrap.dedent(f"""
        import numpy as np, vrir
        @vrir.jit(target="{target}")
        def f(x):
            with vrir.gpu():
                y = x * 2.0
            return y
        assert (f(np.arange(3.0)) == np.array([0.0, 2.0, 4.0])).all()
    """)
    path = tmp_path / "prog.py"
    path.write_text(script)
    env = dict(os.environ, VRIR_CACHE_DIR=str(tmp_path / "cache"), VRIR_TIMING="1",
               PYTHONPATH=os.path.join(os.path.dirname(__file__), ".."))
    run = subprocess.run([sys.executable, str(path)], env=env, capture_output=True,
                         text=True)
    assert run.returncode == 0, run.stderr
    assert f"MLIR pipeline (vrir-to-{target})" in run.stderr, run.stderr
    assert "vrir-to-cpu" not in run.stderr
