"""Tiered compilation of CPU kernels.

A kernel's first compile is quick: LLVM -O1 without unrolling or
vectorization, and fast instruction selection and register allocation,
about half the time of the full compile (the MLIR pipeline is the same).
A kernel called a second time is compiled again at -O3, with vectorization,
by one worker thread, and its calls switch to that code when it is ready;
the disk cache keeps both, and a process that finds the optimized library
there never runs the quick one. Both compute the same values: VRIR code
has no fast-math flags, so optimization changes no floating-point result.

The worker is a daemon thread; at exit the queue is dropped and the compile
in flight finishes (LLVM must not be torn down under it), and a fork waits
for the compile in flight, so that the child inherits no lock held by a
thread it does not have (the child's worker starts again with the queue).

VRIR_TIERED=0 in the environment, or set_tiered_compilation(False), makes
every compile the optimized one.
"""
import atexit
import collections
import os
import threading

_enabled = os.environ.get("VRIR_TIERED", "1") not in ("", "0")

_lock = threading.Condition()
_queue = collections.deque()
_worker = None
_busy = False
_closing = False
TIER_UP_COUNT = 0  # optimized compiles finished in this process (tests use it)


def enabled():
    return _enabled


def set_tiered_compilation(enabled=True):
    """Whether kernels compile quickly first and at full optimization once
    they are called again (the default), or at full optimization at once.
    Kernels compiled already keep their tier."""
    global _enabled
    _enabled = bool(enabled)


def schedule(job):
    """Runs `job()` on the worker thread after the jobs queued before it."""
    global _worker
    with _lock:
        if _closing:
            return
        _queue.append(job)
        if _worker is None:
            _worker = threading.Thread(target=_work, name="vrir-tier-up", daemon=True)
            _worker.start()
        _lock.notify_all()


def _work():
    global _busy, TIER_UP_COUNT
    while True:
        with _lock:
            while not _queue:
                _lock.wait()
            job = _queue.popleft()
            _busy = True
        try:
            job()
        finally:
            with _lock:
                _busy = False
                TIER_UP_COUNT += 1
                _lock.notify_all()


def wait_for_compiles():
    """Blocks until every kernel queued for its optimized compile has it
    (benchmarks call it before timing)."""
    with _lock:
        while _queue or _busy:
            _lock.wait()


@atexit.register
def _shutdown():
    global _closing
    with _lock:
        _closing = True
        _queue.clear()
        while _busy:
            _lock.wait()


def _before_fork():
    _lock.acquire()
    while _busy:
        _lock.wait()
    # Held across the fork: the worker cannot start a compile meanwhile.


def _after_fork_in_parent():
    _lock.release()


def _after_fork_in_child():
    global _lock, _worker
    _lock = threading.Condition()
    _worker = None
    if _queue and not _closing:
        job = _queue.popleft()
        schedule(job)


os.register_at_fork(before=_before_fork, after_in_parent=_after_fork_in_parent,
                    after_in_child=_after_fork_in_child)
