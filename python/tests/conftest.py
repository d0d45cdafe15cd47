import os
import shutil
import sys
import tempfile

import numpy as np
import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))


def pytest_configure(config):
    """Kernels compile into a disk cache of this run's own (removed at the
    end), not the user's: a run starts cold, as on a fresh machine, and
    leaves nothing behind. Set VRIR_CACHE_DIR to keep one across runs.
    Workers of pytest-xdist inherit the controller's directory, so a kernel
    two workers need compiles once."""
    if os.environ.get("VRIR_CACHE_DIR"):
        return
    directory = tempfile.mkdtemp(prefix="vrir-test-cache-")
    os.environ["VRIR_CACHE_DIR"] = directory
    config._vrir_own_cache = directory


def pytest_sessionfinish(session):
    """Optimized compiles still running in the background (tiered
    compilation) finish before the cache directory goes (also in xdist's
    workers, which exit after the controller's last report)."""
    vrir = sys.modules.get("vrir")
    if vrir is not None:
        vrir.wait_for_compiles()


def pytest_unconfigure(config):
    directory = getattr(config, "_vrir_own_cache", None)
    if directory:
        shutil.rmtree(directory, ignore_errors=True)
        del os.environ["VRIR_CACHE_DIR"]


def variants2(a):
    """The same values as a C-contiguous, an F-contiguous and a strided view."""
    big = np.zeros((a.shape[0] * 2, a.shape[1] * 3), a.dtype)
    view = big[::2, ::3]
    view[...] = a
    return {"C": a.copy(order="C"), "F": np.asfortranarray(a), "strided": view,
            "negstrided": np.ascontiguousarray(a[::-1, ::-1])[::-1, ::-1]}


def variants1(a):
    big = np.zeros(a.shape[0] * 2, a.dtype)
    big[::2] = a
    rev = np.ascontiguousarray(a[::-1])[::-1]
    return {"C": a.copy(), "strided": big[::2], "negstrided": rev}


@pytest.fixture(params=["C", "F", "strided", "negstrided"])
def layout2(request):
    return lambda a: variants2(a)[request.param]


@pytest.fixture(params=["C", "strided", "negstrided"])
def layout1(request):
    return lambda a: variants1(a)[request.param]
