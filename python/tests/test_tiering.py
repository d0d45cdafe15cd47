"""Tiered compilation: a kernel's first compile is quick (scalar code),
a kernel called again is compiled at full optimization in the background
and its calls switch to that code; both give NumPy's values, the disk cache
keeps the optimized library for the next process, and exits and forks
during a background compile are safe."""
import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest
import vrir
from vrir import runtime, tiering

from test_gpu_targets import _available as gpu_available


def axpy_body(a, X, Y):
    for i in range(X.shape[0]):
        Y[i] = a * X[i] + Y[i] / 7.0


def fresh_axpy(gpu_section=False, **options):
    """A jit function of its own (its own cache key: this run's disk cache
    holds no library of it yet); with `gpu_section`, its loop is one."""
    if gpu_section:
        def axpy(a, X, Y):
            with vrir.gpu():
                for i in vrir.prange(X.shape[0]):
                    Y[i] = a * X[i] + Y[i] / 7.0
    else:
        def axpy(a, X, Y):
            for i in range(X.shape[0]):
                Y[i] = a * X[i] + Y[i] / 7.0
    fresh_axpy.count += 1
    axpy.__qualname__ = f"axpy_{fresh_axpy.count}_{os.getpid()}"
    axpy.__name__ = axpy.__qualname__
    return vrir.jit(**options)(axpy)


fresh_axpy.count = 0


def _kernel_of(fn):
    (kernel,) = fn._kernels.values()
    return kernel


def _run_subprocess(tmp_path, script, cache=None):
    path = tmp_path / "prog.py"
    path.write_text(textwrap.dedent(script))
    env = dict(os.environ, VRIR_CACHE_DIR=str(cache or tmp_path / "cache"),
               PYTHONPATH=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    env.pop("VRIR_TIERED", None)
    return subprocess.run([sys.executable, str(path)], env=env, capture_output=True,
                          text=True, timeout=300)


def test_quick_first_then_optimized_with_the_same_values():
    axpy = fresh_axpy()
    rng = np.random.default_rng(0)
    X, Y0 = rng.random(1001), rng.random(1001)
    expected = 2.5 * X + Y0 / 7.0
    first = Y0.copy()
    axpy(2.5, X, first)
    kernel = _kernel_of(axpy)
    assert not kernel.optimized
    (stats,) = axpy.stats().values()
    assert stats["optimized"] is False
    vrir.wait_for_compiles()  # those other tests of this process queued
    before = tiering.TIER_UP_COUNT
    second = Y0.copy()
    axpy(2.5, X, second)  # a second call: the optimized compile is queued
    vrir.wait_for_compiles()
    assert kernel.optimized
    assert tiering.TIER_UP_COUNT == before + 1
    third = Y0.copy()
    axpy(2.5, X, third)
    (stats,) = axpy.stats().values()
    assert stats["optimized"] is True
    np.testing.assert_allclose(first, expected, rtol=1e-15)
    # No fast-math: the optimized (vectorized) code computes the same bits.
    assert np.array_equal(first, second) and np.array_equal(first, third)


def test_a_kernel_called_once_is_not_compiled_again():
    axpy = fresh_axpy()
    vrir.wait_for_compiles()
    before = tiering.TIER_UP_COUNT
    axpy(1.0, np.ones(8), np.zeros(8))
    vrir.wait_for_compiles()
    assert tiering.TIER_UP_COUNT == before
    assert not _kernel_of(axpy).optimized


def test_tiering_switched_off_compiles_optimized_code_at_once():
    vrir.set_tiered_compilation(False)
    try:
        axpy = fresh_axpy()
        Y = np.zeros(5)
        axpy(2.0, np.arange(5.0), Y)
        assert _kernel_of(axpy).optimized
        np.testing.assert_array_equal(Y, 2.0 * np.arange(5.0))
    finally:
        vrir.set_tiered_compilation(True)


def test_many_kernels_queue_and_every_one_keeps_numpy_values():
    # Several kernels (each of other types) tier up one after the other
    # while the caller keeps calling them.
    axpy = fresh_axpy()
    cases = [np.arange(n, dtype=dt) for n, dt in
             ((7, np.float64), (9, np.float32), (11, np.int64), (13, np.int32))]
    for _ in range(3):
        for X in cases:
            Y = np.ones_like(X)
            axpy(X.dtype.type(3), X, Y)
            Z = np.ones_like(X)
            axpy_body(X.dtype.type(3), X, Z)
            np.testing.assert_allclose(Y, Z, rtol=1e-6)
    vrir.wait_for_compiles()
    assert all(kernel.optimized for kernel in axpy._kernels.values())


def test_a_failed_optimized_compile_keeps_the_quick_code(monkeypatch):
    axpy = fresh_axpy()
    Y = np.zeros(4)
    axpy(1.0, np.ones(4), Y)
    real = runtime._build_library

    def failing(name, so, **build):
        if build["opt_level"] >= 2:
            raise vrir.CompileError("injected failure")
        return real(name, so, **build)

    monkeypatch.setattr(runtime, "_build_library", failing)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        axpy(1.0, np.ones(4), Y)
        vrir.wait_for_compiles()
    assert any("injected failure" in str(w.message) for w in caught)
    kernel = _kernel_of(axpy)
    assert not kernel.optimized and kernel._tier_up is None  # it stops trying
    axpy(1.0, np.ones(4), Y)
    Z = np.zeros(4)
    for _ in range(3):
        axpy_body(1.0, np.ones(4), Z)
    np.testing.assert_array_equal(Y, Z)


def test_the_next_process_loads_the_optimized_library(tmp_path):
    script = """
        import numpy as np, vrir
        from vrir import runtime
        @vrir.jit
        def axpy(a, X, Y):
            for i in range(X.shape[0]):
                Y[i] = a * X[i] + Y[i]
        Y = np.zeros(6)
        axpy(2.0, np.ones(6), Y)
        axpy(2.0, np.ones(6), Y)
        vrir.wait_for_compiles()  # an exit drops the compiles not started
        (kernel,) = axpy._kernels.values()
        print(runtime.COMPILE_COUNT, kernel.optimized, Y[0])
    """
    first = _run_subprocess(tmp_path, script)
    assert first.returncode == 0, first.stderr
    assert first.stdout.split() == ["1", "True", "4.0"]
    second = _run_subprocess(tmp_path, script)
    assert second.returncode == 0, second.stderr
    assert second.stdout.split() == ["0", "True", "4.0"]


def test_exit_and_fork_during_an_optimized_compile(tmp_path):
    run = _run_subprocess(tmp_path, """
        import os, numpy as np, vrir
        @vrir.jit
        def scale(A, B):
            for i in range(A.shape[0]):
                B[i] = A[i] * 2.0
        B = np.zeros(5)
        scale(np.ones(5), B)
        scale(np.ones(5), B)  # queues the optimized compile
        pid = os.fork()       # waits for it if it is running
        if pid == 0:
            C = np.zeros(9)
            scale(np.ones(9), C)
            vrir.wait_for_compiles()
            scale(np.ones(9), C)
            os._exit(0 if (C == 2.0).all() else 3)
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0
        D = np.zeros(3)
        @vrir.jit
        def other(A, B):
            for i in range(A.shape[0]):
                B[i] = A[i] + 1.0
        other(np.ones(3), D)
        other(np.ones(3), D)  # the process ends while this one compiles
        print((B == 2.0).all() and (D == 2.0).all())
    """)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "True"
    assert "optimized compile" not in run.stderr, run.stderr


@pytest.mark.parametrize("target", ["opencl", "vulkan"])
def test_gpu_kernels_are_tiered_and_the_device_compiles_once(target):
    # The host code of a module for a GPU target tiers up as a CPU kernel's
    # does; its kernels are the same text in both tiers, so the device
    # program compiled for the first call serves the optimized one too.
    if not gpu_available(target):
        pytest.skip(f"no {target} device (scripts/setup.sh installs PoCL and lavapipe)")
    axpy = fresh_axpy(gpu_section=True, target=target)
    X, Y0 = np.arange(4.0), np.ones(4)
    first = Y0.copy()
    before = vrir.stats()
    axpy(2.0, X, first)
    kernel = _kernel_of(axpy)
    assert not kernel.optimized
    assert vrir.stats()["kernels"] == before["kernels"] + 1
    # The device program may come from the runtime's disk cache.
    compiles = vrir.stats()["compiles"] + vrir.stats()["disk_cache_hits"]
    assert compiles == before["compiles"] + before["disk_cache_hits"] + 1
    vrir.wait_for_compiles()
    second = Y0.copy()
    axpy(2.0, X, second)
    vrir.wait_for_compiles()
    assert kernel.optimized
    third = Y0.copy()
    axpy(2.0, X, third)
    assert vrir.stats()["kernels"] == before["kernels"] + 3
    assert vrir.stats()["compiles"] + vrir.stats()["disk_cache_hits"] == compiles
    expected = Y0.copy()
    axpy_body(2.0, X, expected)
    np.testing.assert_array_equal(first, expected)
    assert np.array_equal(second, first) and np.array_equal(third, first)
