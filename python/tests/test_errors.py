"""The three error kinds: CompileError (outside the subset, with file and
line), IndexError (out-of-bounds access, with the Python line) and TypeError
(wrong argument types); plus run-time shape errors."""
import inspect
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

import vrir

HERE = os.path.abspath(__file__)


def line_of(fn, text):
    lines, first = inspect.getsourcelines(fn.py_func)
    for k, l in enumerate(lines):
        if text in l:
            return first + k
    raise AssertionError(text)


# ---------------------------------------------------------------- CompileError
@vrir.jit
def uses_list(x):
    y = [1, "two", 3]
    return x


@vrir.jit
def uses_try(x):
    try:
        x = x + 1
    except Exception:
        pass
    return x


@vrir.jit
def uses_print(x):
    print(x)
    return x


@vrir.jit
def uses_unsupported_numpy(A):
    return np.linalg.eig(A)


@vrir.jit
def uses_lambda(x):
    f = lambda y: y + 1
    return f(x)


@vrir.jit
def changes_type(A):
    x = A
    x = 1.0
    return x


@vrir.jit
def iterates_tuple(A):
    s = 0.0
    for a, b in zip((A, A), A):
        s += a.sum()
    return s


@vrir.jit
def unshared_write(A, B):
    n = len(A)
    for i in vrir.pfor(vrir.Domain(n), shared=[A]):
        B[i] = A[i]


@vrir.jit
def break_in_prange(A):
    for i in vrir.prange(len(A)):
        if A[i] > 0:
            break


@vrir.jit
def missing_return(x):
    if x > 0:
        return 1


@vrir.jit
def uses_reshape(A):
    return A.reshape(2, 2, order="F")


@pytest.mark.parametrize("fn,args,construct,marker", [
    (uses_reshape, (np.ones(4),), "order='C' only", "A.reshape"),
    (uses_list, (1,), "list of str", "y = [1, \"two\", 3]"),
    (uses_try, (1,), "Try", "try:"),
    (uses_print, (1,), "print", "    print(x)"),
    (uses_unsupported_numpy, (np.eye(2),), "numpy.linalg.eig", "np.linalg.eig"),
    (uses_lambda, (1,), "Lambda", "f = lambda"),
    (changes_type, (np.ones(2),), "changes type", "x = 1.0"),
    (iterates_tuple, (np.ones(2),), "for loops iterate", "for a, b in zip((A, A), A)"),
    (unshared_write, (np.ones(2), np.ones(2)), "shared list", "for i in vrir.pfor"),
    (break_in_prange, (np.ones(2),), "break", "            break"),
    (missing_return, (1,), "without returning", "def missing_return"),
])
def test_compile_errors(fn, args, construct, marker):
    with pytest.raises(vrir.CompileError) as info:
        fn(*args)
    msg = str(info.value)
    assert construct in msg
    assert f"{HERE}:{line_of(fn, marker)}" in msg


# ---------------------------------------------------------------- IndexError
@vrir.jit
def oob_load(A, i):
    return A[i, 0]


@vrir.jit
def oob_store(v, n):
    for k in range(n):
        v[k] = 1.0


@vrir.jit
def oob_parallel(v):
    w = np.zeros(3)
    for i in vrir.prange(len(v)):
        w[i] = v[i]
    return w


def test_index_error_names_array_and_line():
    A = np.ones((3, 2))
    assert oob_load(A, -3) == 1.0  # negative indices wrap
    with pytest.raises(IndexError) as info:
        oob_load(A, 3)
    msg = str(info.value)
    assert "array 'A'" in msg
    assert f"{HERE}:{line_of(oob_load, 'return A[i, 0]')}" in msg
    assert "index 3, extent 3" in msg
    with pytest.raises(IndexError):
        oob_load(A, -4)


def test_index_error_in_loop_store():
    v = np.zeros(4)
    with pytest.raises(IndexError) as info:
        oob_store(v, 6)
    assert f"{HERE}:{line_of(oob_store, 'v[k] = 1.0')}" in str(info.value)
    assert list(v) == [1.0] * 4


def test_index_error_in_parallel_loop():
    with pytest.raises(IndexError) as info:
        oob_parallel(np.ones(5))
    assert f"{HERE}:{line_of(oob_parallel, 'w[i] = v[i]')}" in str(info.value)
    # the kernel still works afterwards
    np.testing.assert_array_equal(oob_parallel(np.ones(3)), np.ones(3))


@vrir.jit
def fail_at(done, every, work):
    for i in vrir.prange(done.shape[0]):
        if every > 0 and i % every == 0:
            t = np.zeros(-1 - i)  # raises: negative dimensions
            done[i] = t.size
        s = 0.0
        for j in range(work):
            s += j * 0.5
        done[i] = s + 1.0


@vrir.jit
def fail_bounds_at(done, every, work):
    n = done.shape[0]
    for i in vrir.prange(n):
        s = 0.0
        for j in range(work):
            s += j * 0.5
        done[i + (n if every > 0 and i % every == 0 else 0)] = s + 1.0


@pytest.mark.parametrize("kernel, error, match", [
    (fail_at, ValueError, "negative dimensions are not allowed"),
    (fail_bounds_at, IndexError, r"extent 6400 \(in a parallel loop\)"),
])
def test_error_in_parallel_iteration_stops_the_others(kernel, error, match):
    # The first iteration of every 100 fails (the CPU runs the 6400
    # iterations as 64 chunks of 100): whichever thread starts first, and
    # however late the others wake up, iterations stop once one has
    # failed, instead of all 6336 others running (20 us each). A worker
    # thread's error reaches the caller, once; before, it exited the
    # process.
    done = np.zeros(6400)
    with pytest.raises(error, match=match):
        kernel(done, 100, 40000)
    assert np.count_nonzero(done) < 640
    # the next call runs every iteration
    done = np.zeros(6400)
    kernel(done, 0, 10)
    assert np.count_nonzero(done) == 6400


def test_threads_failing_in_parallel_loops_get_their_own_errors():
    # The loop's status is per call: an error of another thread's call
    # (another extent) never appears in this one.
    failures = []

    def work(k):
        for _ in range(20):
            done = np.zeros(256 + k)
            try:
                fail_bounds_at(done, 50 if k % 2 else 0, 100)
                if k % 2:
                    failures.append((k, "no error"))
            except IndexError as e:
                if not k % 2 or f"extent {256 + k} (in a parallel" not in str(e):
                    failures.append((k, str(e)))

    fail_bounds_at(np.zeros(4), 0, 1)  # compiled before the threads start
    threads = [threading.Thread(target=work, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


INTERRUPTED = textwrap.dedent("""
    import sys, time
    import numpy as np, vrir

    @vrir.jit
    def nest(a, reps):
        s = 0.0
        for r in range(reps):
            for i in range(a.shape[0]):
                s += a[i]
        return s

    @vrir.jit
    def parallel(a, reps):
        for r in vrir.prange(reps):
            for i in range(a.shape[0]):
                a[i] += 1.0
        return a[0]

    @vrir.jit
    def forever(x):
        while x >= 0.0:
            x = x + 1.0
        return x

    a = np.ones(1000)
    if sys.argv[1] == "ignored":  # SIGINT ignored: the kernel runs to its end
        import signal
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    kernel = {"nest": nest, "parallel": parallel, "forever": forever,
              "ignored": nest}[sys.argv[1]]
    args = (-1.0,) if sys.argv[1] == "forever" else (a, 1)
    kernel(*args)  # compiled, and quick
    long_args = {"forever": (0.0,), "ignored": (a, 2 * 10**6)}.get(sys.argv[1], (a, 10**12))
    print("ready", flush=True)
    start = time.perf_counter()
    try:
        kernel(*long_args)
        print("finished")
    except KeyboardInterrupt:
        print("KeyboardInterrupt after %.1f s" % (time.perf_counter() - start))
    print("again", nest(np.ones(10), 2))
""")


def interrupted_run(tmp_path, kernel, delay):
    """The output, errors and exit status of INTERRUPTED running `kernel`,
    sent SIGINT `delay` seconds after it is ready."""
    path = tmp_path / "long.py"
    path.write_text(INTERRUPTED)
    env = dict(os.environ, PYTHONPATH=os.path.join(os.path.dirname(HERE), ".."))
    child = subprocess.Popen([sys.executable, str(path), kernel], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "ready"
        time.sleep(delay)
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=120)
    finally:
        child.kill()
    return out, err, child.returncode


@pytest.mark.parametrize("kernel", ["nest", "parallel", "forever"])
def test_ctrl_c_stops_a_running_kernel(tmp_path, kernel):
    # Each kernel would run for hours: SIGINT (Ctrl-C) stops it with
    # KeyboardInterrupt, in a loop nest, in a parallel loop and in a while
    # loop, and the process goes on.
    out, err, status = interrupted_run(tmp_path, kernel, 0.5)
    assert "KeyboardInterrupt after" in out, (out, err)
    assert "again 20.0" in out, (out, err)
    assert status == 0, err


def test_an_ignored_ctrl_c_leaves_a_kernel_running(tmp_path):
    out, err, status = interrupted_run(tmp_path, "ignored", 0.3)
    assert "finished" in out and "again 20.0" in out, (out, err)
    assert status == 0, err


@vrir.jit
def add(a, b):
    return a + b


def test_broadcast_mismatch_is_value_error():
    with pytest.raises(ValueError):
        add(np.ones(3), np.ones(4))


@vrir.jit
def allocate(n, m):
    A = np.zeros((n, m))
    A[0, 0] = 1.0
    return A


def test_allocation_past_memory_is_memory_error():
    # 8 TB: the system refuses it; the kernel raises instead of writing
    # through a null pointer.
    with pytest.raises(MemoryError, match="out of memory"):
        allocate(10**6, 10**6)
    # bytes beyond 64 bits would wrap to a small buffer: refused first
    with pytest.raises(ValueError, match="array too large"):
        allocate(2**32, 2**32)
    with pytest.raises(ValueError, match="negative dimensions"):
        allocate(-1, 3)
    assert allocate(2, 3).sum() == 1.0  # the kernel still works afterwards


# ---------------------------------------------------------------- TypeError
@pytest.mark.parametrize("bad", [
    np.ones(3, dtype=np.float16), np.zeros(3, dtype="datetime64[s]"), [1.0, 2.0], "text",
    np.float16(1.0), np.array(1.0), None])
def test_type_errors(bad):
    with pytest.raises(TypeError):
        add(bad, 1.0)


def test_wrong_number_of_arguments():
    with pytest.raises(TypeError):
        add(1.0)
    with pytest.raises(TypeError):
        add(1.0, 2.0, 3.0)


# ---------------------------------------------------------------- caches
def test_results_own_their_memory():
    import gc
    rs = [add(np.ones((50, 40)), float(k)) for k in range(20)]
    gc.collect()
    for k, r in enumerate(rs):
        assert r.flags.writeable and r[3, 7] == 1.0 + k
    del rs
    gc.collect()


def test_disk_cache_across_processes(tmp_path):
    script = textwrap.dedent("""
        import numpy as np, vrir, vrir.runtime as rt
        @vrir.jit
        def f(x, k):
            return x * k + 1
        assert (f(np.arange(3.0), 2.0) == np.array([1.0, 3.0, 5.0])).all()
        print(rt.COMPILE_COUNT)
    """)
    path = tmp_path / "prog.py"
    path.write_text(script)
    env = dict(os.environ, VRIR_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=os.path.join(os.path.dirname(HERE), ".."))
    runs = [subprocess.run([sys.executable, str(path)], env=env, capture_output=True,
                           text=True, check=True).stdout.strip() for _ in range(2)]
    assert runs == ["1", "0"]


def test_concurrent_compiles_share_the_disk_cache(tmp_path):
    """Processes compiling the same kernel into one disk cache at the same
    time each get a whole library (entries are written to a temporary file
    and renamed), and all of them compute the right result."""
    script = textwrap.dedent("""
        import numpy as np, vrir
        @vrir.jit
        def g(x):
            s = 0.0
            for i in range(x.shape[0]):
                s += x[i] * x[i]
            return s
        assert g(np.arange(100.0)) == 328350.0
        print("ok")
    """)
    path = tmp_path / "prog.py"
    path.write_text(script)
    env = dict(os.environ, VRIR_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=os.path.join(os.path.dirname(HERE), ".."))
    procs = [subprocess.Popen([sys.executable, str(path)], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(4)]
    outs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0] * 4, outs
    assert [o.strip() for o, _ in outs] == ["ok"] * 4
    # one library per kernel key, no temporaries left behind
    names = os.listdir(tmp_path / "cache")
    assert sum(n.endswith(".so") for n in names) == 1, names
    assert not any(n.startswith("tmp") for n in names), names


def test_deeply_nested_expression_compiles(tmp_path):
    """An expression nested as deep as CPython compiles (2000 terms of
    x + x + ..., beyond Python's default recursion limit for the frontend)
    compiles; it used to raise RecursionError."""
    path = tmp_path / "deep_expression.py"
    path.write_text("import vrir\n@vrir.jit\ndef f(x):\n    return "
                    + " + ".join(["x"] * 2000) + "\n")
    sys.path.insert(0, str(tmp_path))
    try:
        import deep_expression
    finally:
        sys.path.remove(str(tmp_path))
    assert deep_expression.f(1.5) == 3000.0
    assert sys.getrecursionlimit() < 20000  # restored after the compile


def test_compile_timing_report(tmp_path):
    """VRIR_TIMING=1: the compiler reports where a compile's time went, by
    phase and MLIR pass, on stderr."""
    script = textwrap.dedent("""
        import numpy as np, vrir
        @vrir.jit
        def f(x, k):
            return x * k + 1
        assert (f(np.arange(3.0), 2.0) == np.array([1.0, 3.0, 5.0])).all()
    """)
    path = tmp_path / "prog.py"
    path.write_text(script)
    env = dict(os.environ, VRIR_CACHE_DIR=str(tmp_path / "cache"), VRIR_TIMING="1",
               PYTHONPATH=os.path.join(os.path.dirname(HERE), ".."))
    run = subprocess.run([sys.executable, str(path)], env=env, capture_output=True,
                         text=True, check=True)
    for phase in ("parsing", "MLIR pipeline (vrir-to-cpu)", "ConvertVRIRToMemRef",
                  "translation to LLVM IR", "LLVM IR optimization",
                  "code generation (object file)", "linking the shared library"):
        assert phase in run.stderr, (phase, run.stderr)


def test_function_without_source_is_a_compile_error():
    namespace = {}
    exec("def f(x):\n    return x + 1\n", namespace)
    f = vrir.jit(namespace["f"])
    with pytest.raises(vrir.CompileError, match="cannot read the source of f"):
        f(1.0)


@vrir.jit
def orders_with_none(x):
    return x < None


def test_ordering_against_none_is_refused():
    # Python raises TypeError; a constant result would be a wrong answer.
    with pytest.raises(vrir.CompileError, match="unsupported comparison"):
        orders_with_none(1.0)
