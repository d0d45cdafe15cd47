"""Region specialization (thesis chapter 6) through @vrir.jit(specialize=True):
each region is compiled again for the shapes, critical values and aliasing
of its arguments on the first call that brings new ones (or for the
aliasing only: chosen per region by default, set process-wide by
vrir.set_specialization), the versions are cached (least recently used out,
5 per region), and every version gives the generic version's results: with
arrays passed twice, with overlapping views, with shapes that change
between calls, and with accesses out of bounds."""
import numpy as np
import pytest

import vrir


@pytest.fixture
def all_facts():
    """Versions compiled for every fact, each miss waiting for its compile
    (the tests of one compile per shape)."""
    vrir.set_specialization("all", background=False)
    yield
    vrir.set_specialization("auto", background=True)


def _stats_of(fn):
    """The region counters of `fn`'s compiled kernels (summed)."""
    symbols = {kernel.symbol + "_region" for kernel in fn._kernels.values()}
    total = {}
    for name, entry in vrir.region_stats().items():
        if any(name.startswith(symbol) for symbol in symbols):
            for key, value in entry.items():
                if key == "facts":
                    total.setdefault("facts", set()).add(value)
                else:
                    total[key] = total.get(key, 0) + value
    return total


def stencil(A, B):
    for i in range(1, A.shape[0] - 1):
        for j in range(1, A.shape[1] - 1):
            B[i, j] = 0.25 * (A[i - 1, j] + A[i + 1, j] + A[i, j - 1] + A[i, j + 1])


stencil_specialised = vrir.jit(specialize=True)(stencil)


def _check_stencil(A, B=None):
    """Runs the specialised stencil on A (into B, zeros by default) and
    compares with the plain Python function."""
    B = np.zeros(A.shape) if B is None else B
    expected = np.zeros(A.shape)
    stencil(A, expected)
    stencil_specialised(A, B)
    np.testing.assert_allclose(B, expected)


def test_one_compile_per_shape(all_facts):
    rng = np.random.default_rng(0)
    vrir.reset_region_stats()
    for shape in [(6, 7), (6, 7), (9, 4), (6, 7), (9, 4)]:
        _check_stencil(rng.random(shape))
    stats = _stats_of(stencil_specialised)
    assert stats["calls"] == 5
    assert stats["misses"] == 2
    assert stats["hits"] == 3
    assert stats["generic"] == 0
    # The specialised versions prove every check against the shapes.
    assert stats["checks"] > 0 and stats["proven"] == stats["checks"]


def recurrence(A, B):
    # B[i] depends on A[i - 1]: wrong if A and B are the same array and the
    # compiler assumed they cannot be.
    for i in range(1, A.shape[0]):
        B[i] = A[i - 1] * 0.5 + 1.0


recurrence_specialised = vrir.jit(specialize=True)(recurrence)


def test_same_array_twice(all_facts):
    X = np.random.default_rng(1).random(257)
    expected = X.copy()
    recurrence(expected, expected)
    recurrence_specialised(X, X)
    np.testing.assert_array_equal(X, expected)
    # Separate arrays of that shape: another version, with noalias.
    vrir.reset_region_stats()
    A, B = np.random.default_rng(2).random(257), np.zeros(257)
    expected = B.copy()
    recurrence(A, expected)
    recurrence_specialised(A, B)
    np.testing.assert_array_equal(B, expected)
    assert _stats_of(recurrence_specialised)["misses"] == 1


def test_overlapping_views():
    X = np.random.default_rng(3).random(300)
    Y = X.copy()
    recurrence(Y[1:], Y[:-1])
    recurrence_specialised(X[1:], X[:-1])
    np.testing.assert_array_equal(X, Y)
    X = np.random.default_rng(4).random(300)
    Y = X.copy()
    recurrence(Y[:-1], Y[1:])
    recurrence_specialised(X[:-1], X[1:])
    np.testing.assert_array_equal(X, Y)


@vrir.jit(specialize=True)
def grow_steps(n):
    total = 0.0
    for step in range(1, n):
        A = np.ones(step)
        for i in range(A.shape[0]):
            total += A[i] * step
    return total


def test_shapes_change_between_calls_and_cache_is_bounded(all_facts):
    vrir.reset_region_stats()
    for n in range(2, 12):
        _check_stencil(np.random.default_rng(n).random((n, n)))
    stats = _stats_of(stencil_specialised)
    assert stats["misses"] == 10
    assert stats["cached"] == 5
    assert grow_steps(6) == sum(step * step for step in range(1, 6))


@vrir.jit(specialize=True)
def shifted_sum(A, n, k):
    s = 0.0
    for i in range(n):
        s += A[i + k]
    return s


def test_out_of_bounds_still_raises():
    A = np.arange(10.0)
    assert shifted_sum(A, 8, 2) == sum(range(2, 10))
    # n and k are critical values: a new version, whose check fails.
    with pytest.raises(IndexError, match=r"array 'A'.*index 10, extent 10"):
        shifted_sum(A, 9, 2)


def test_generic_when_switched_off():
    # VRIR_SPECIALIZE=0 is read once per process; the runtime switch is the
    # same mechanism.
    vrir.reset_region_stats()
    vrir.set_specialization("off")
    try:
        _check_stencil(np.random.default_rng(5).random((5, 5)))
        stats = _stats_of(stencil_specialised)
        assert stats["generic"] == 1 and stats["misses"] == 0
    finally:
        vrir.set_specialization("auto")


def test_bad_mode():
    with pytest.raises(ValueError, match="one of off, all, alias, auto"):
        vrir.set_specialization("shapes")


@vrir.jit(specialize=True)
def window_sums(x, y, lo, hi, w):
    # x[i + k] is provable only with lo, hi and w known.
    for i in range(lo, hi):
        s = 0.0
        for k in range(w):
            s += x[i + k]
        y[i] = s


def test_per_region_choice():
    # The default: the stencil's checks need no shapes (every check proven
    # or hoisted before its loop with aliasing only), so its shapes share a
    # version; the window's stay in its loops without lo, hi and w, so it
    # gets a version per set of values, with every check proven.
    vrir.reset_region_stats()
    rng = np.random.default_rng(8)
    for shape in [(6, 7), (9, 4), (12, 12)]:
        _check_stencil(rng.random(shape))
    stats = _stats_of(stencil_specialised)
    assert stats["facts"] == {"alias"}
    assert stats["misses"] == 1 and stats["compiles"] == 1
    x = rng.random(40)
    for lo, hi, w in [(0, 30, 8), (0, 30, 8), (5, 20, 3)]:
        y, expected = np.zeros(40), np.zeros(40)
        window_sums.py_func(x, expected, lo, hi, w)
        window_sums(x, y, lo, hi, w)
        np.testing.assert_allclose(y, expected)
    # The last miss may have compiled in the background (the region runs
    # for microseconds).
    vrir.wait_for_specializations()
    stats = _stats_of(window_sums)
    assert stats["facts"] == {"all"}
    # Aliasing only tried on the first call, then one compile per values.
    assert stats["misses"] == 2 and stats["compiles"] == 3
    assert stats["proven"] == stats["checks"]
    with pytest.raises(IndexError, match=r"array 'x'.*index 40, extent 40"):
        window_sums(x, np.zeros(40), 30, 35, 10)


@vrir.jit(specialize=True)
def scaled_rows(A, B, factor):
    for i in range(A.shape[0]):
        for j in range(A.shape[1]):
            B[i, j] = A[i, j] * factor


def test_background_compiles():
    # A region that runs for microseconds: after its first miss (which
    # waits), a new shape runs the generic version while the version for it
    # compiles in the background; the next call of that shape runs it.
    vrir.set_specialization("all")
    try:
        vrir.reset_region_stats()
        rng = np.random.default_rng(9)
        for shape in [(4, 5), (4, 5), (7, 3)]:
            A = rng.random(shape)
            B = np.zeros(shape)
            scaled_rows(A, B, 2.5)
            np.testing.assert_array_equal(B, A * 2.5)
        stats = _stats_of(scaled_rows)
        assert stats["background_compiles"] == 1 and stats["generic"] == 1
        assert 0 < stats["run_ms"] < 5
        vrir.wait_for_specializations()
        A = rng.random((7, 3))
        B = np.zeros((7, 3))
        scaled_rows(A, B, -1.0)
        np.testing.assert_array_equal(B, -A)
        stats = _stats_of(scaled_rows)
        assert stats["misses"] == 2 and stats["hits"] == 2
        assert stats["compiles"] == 2 and stats["generic"] == 1
        # Waiting instead: the miss runs the new version at once.
        vrir.set_specialization("all", background=False)
        scaled_rows(rng.random((2, 9)), np.zeros((2, 9)), 1.0)
        stats = _stats_of(scaled_rows)
        assert stats["background_compiles"] == 1 and stats["generic"] == 1
    finally:
        vrir.set_specialization("auto", background=True)


def test_aliasing_only_mode():
    # VRIR_SPECIALIZE=alias: one version per overlap pattern, whatever the
    # shapes, with noalias where it holds and the extents left to the run:
    # results and bounds errors as before.
    vrir.set_specialization("alias", background=False)
    try:
        vrir.reset_region_stats()
        rng = np.random.default_rng(7)
        for shape in [(6, 7), (9, 4), (12, 12), (3, 3)]:
            _check_stencil(rng.random(shape))
        stats = _stats_of(stencil_specialised)
        # (No miss at all if the per-region choice made that version.)
        assert stats["misses"] <= 1 and stats["calls"] == 4
        assert stats["generic"] == 0 and stats["facts"] == {"alias"}
        # Separate arrays, then the same array twice and overlapping views:
        # two overlap patterns, right results in each.
        vrir.reset_region_stats()
        A, B = rng.random(300), np.zeros(300)
        expected = B.copy()
        recurrence(A, expected)
        recurrence_specialised(A, B)
        np.testing.assert_array_equal(B, expected)
        X = rng.random(300)
        Y = X.copy()
        recurrence(Y, Y)
        recurrence_specialised(X, X)
        np.testing.assert_array_equal(X, Y)
        X = rng.random(300)
        Y = X.copy()
        recurrence(Y[1:], Y[:-1])
        recurrence_specialised(X[1:], X[:-1])
        np.testing.assert_array_equal(X, Y)
        # Two patterns (fewer misses if earlier tests compiled them).
        stats = _stats_of(recurrence_specialised)
        assert stats["misses"] <= 2 and stats["generic"] == 0
        with pytest.raises(IndexError, match=r"array 'A'.*index 10, extent 10"):
            shifted_sum(np.arange(10.0), 9, 2)
    finally:
        vrir.set_specialization("auto", background=True)


def test_negative_strides():
    # Arrays with negative strides (reversed views): their strides are
    # facts too, constants in the specialised code.
    rng = np.random.default_rng(6)
    for shape in [(5, 6), (7, 3)]:
        A = np.ascontiguousarray(rng.random(shape)[::-1, ::-1])[::-1, ::-1]
        _check_stencil(A, np.zeros(shape)[::-1])


@vrir.jit(specialize=True)
def matvec_and_vecmat(A, v, w):
    return np.dot(A, v), np.dot(w, A)


def test_reversed_vector_packed_for_blas():
    # A reversed view is packed before BLAS reads it; with its size known,
    # LLVM unrolled the copy and, trusting memref-to-LLVM's `nuw` on
    # index * stride, read the first element four times
    # (vrir-allow-negative-strides).
    rng = np.random.default_rng(7)
    A, v, w = rng.random((3, 4)), rng.random(4), rng.random(3)
    x = np.r_[v, v[:2]]
    reversed_view = np.ascontiguousarray(x[::-1])[::-1][:4]
    Av, wA = matvec_and_vecmat(A, reversed_view, w)
    np.testing.assert_allclose(Av, A @ v)
    np.testing.assert_allclose(wA, w @ A)


def test_exit_while_compiling_in_the_background(tmp_path):
    # The process ends while a version compiles in the background: the exit
    # waits for that compile (LLVM is torn down after) and succeeds. Also
    # after a fork, the child compiles with a worker of its own.
    import os
    import subprocess
    import sys
    import textwrap
    script = textwrap.dedent("""
        import os, numpy as np, vrir
        @vrir.jit(specialize=True)
        def scale(A, B):
            for i in range(A.shape[0]):
                B[i] = A[i] * 2.0
        vrir.set_specialization("all")
        scale(np.ones(5), np.zeros(5))
        scale(np.ones(5), np.zeros(5))
        B = np.zeros(7)
        scale(np.ones(7), B)
        (stats,) = vrir.region_stats().values()
        assert stats["background_compiles"] == 1, stats
        pid = os.fork()
        if pid == 0:
            C = np.zeros(9)
            scale(np.ones(9), C)
            vrir.wait_for_specializations()
            scale(np.ones(9), C)
            (stats,) = vrir.region_stats().values()
            os._exit(0 if (C == 2.0).all() and stats["hits"] >= 1 else 3)
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0
        print((B == 2.0).all())
    """)
    path = tmp_path / "prog.py"
    path.write_text(script)
    env = dict(os.environ, VRIR_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    run = subprocess.run([sys.executable, str(path)], env=env, capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "True"
