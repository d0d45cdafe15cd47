import os
import shutil
import sys
import tempfile

import numpy as np
import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))


def _is_controller(config):
    return not hasattr(config, "workerinput")


def _sanitizer_logs():
    """The files the sanitizers wrote their reports to (a sanitized build's
    ctest sets VRIR_SANITIZER_LOGS and the sanitizers' log_path)."""
    directory = os.environ.get("VRIR_SANITIZER_LOGS")
    if not directory or not os.path.isdir(directory):
        return []
    return sorted(os.path.join(directory, name) for name in os.listdir(directory))


def _sanitizer_reports():
    """The text of each log that reports an error; warnings (a refused
    allocation, which tests of out-of-memory errors cause) are not."""
    reports = []
    for path in _sanitizer_logs():
        with open(path, errors="replace") as f:
            text = f.read()
        if "ERROR:" in text or "runtime error:" in text:
            reports.append((path, text))
    return reports


def pytest_configure(config):
    """Kernels compile into a disk cache of this run's own (removed at the
    end), not the user's: a run starts cold, as on a fresh machine, and
    leaves nothing behind. Set VRIR_CACHE_DIR to keep one across runs.
    Workers of pytest-xdist inherit the controller's directory, so a kernel
    two workers need compiles once."""
    if _is_controller(config):
        for path in _sanitizer_logs():  # an earlier run's
            os.remove(path)
        if os.environ.get("VRIR_SANITIZER_LOGS"):
            os.makedirs(os.environ["VRIR_SANITIZER_LOGS"], exist_ok=True)
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
    if _is_controller(session.config) and _sanitizer_reports():
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter, config):
    """Prints every sanitizer report of the run (of a worker that died of
    one, too: its standard error was pytest's capture)."""
    if not _is_controller(config):
        return
    for path, text in _sanitizer_reports():
        terminalreporter.section(f"sanitizer report {os.path.basename(path)}", red=True)
        terminalreporter.write(text if len(text) < 20000 else text[:20000] + "\n[...]\n")


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
