"""Reductions in parallel loops (`s += ...` in a prange) under VRIR and
Numba (parallel=True), each measured in its own process: the two use
different OpenMP runtimes, and threads of one spinning after its parallel
region take the cores from the other when both run in one process (VRIR
measured 0.4-0.5x of Numba that way, 1.0x apart). Medians of 15 runs.

    .venv/bin/python benchmarks/python/prange_reductions.py
"""
import os
import statistics
import subprocess
import sys
import time

import numpy as np


def measure(which):
    a = np.random.default_rng(0).random(10_000_000)
    A = np.random.default_rng(1).random((2000, 2000))
    if which == "vrir":
        sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))
        import vrir
        src = {"sumsq": "def f(a):\n s = 0.0\n for i in vrir.prange(a.shape[0]):\n  s += a[i] * a[i]\n return s\n",
               "rowmax": "def f(A):\n best = -np.inf\n for i in vrir.prange(A.shape[0]):\n  r = 0.0\n"
                         "  for j in range(A.shape[1]):\n   r += abs(A[i, j])\n  best = max(best, r)\n return best\n"}
        jit = vrir.jit
        ns = {"vrir": vrir, "np": np}
    else:
        import numba
        src = {"sumsq": "def f(a):\n s = 0.0\n for i in numba.prange(a.shape[0]):\n  s += a[i] * a[i]\n return s\n",
               "rowmax": "def f(A):\n best = -np.inf\n for i in numba.prange(A.shape[0]):\n  r = 0.0\n"
                         "  for j in range(A.shape[1]):\n   r += abs(A[i, j])\n  best = max(best, r)\n return best\n"}
        jit = numba.njit(parallel=True)
        ns = {"numba": numba, "np": np}
    out = {}
    for name, args, want in (("sumsq", (a,), (a * a).sum()),
                             ("rowmax", (A,), np.abs(A).sum(axis=1).max())):
        # A file, so that the frontends can read the source.
        path = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"prange_{which}_{name}.py")
        with open(path, "w") as fh:
            fh.write("import numpy as np\n" + ("import vrir\n" if which == "vrir" else "import numba\n")
                     + src[name])
        code = compile(open(path).read(), path, "exec")
        exec(code, ns)
        f = jit(ns["f"])
        got = f(*args)
        assert abs(got - want) <= 1e-9 * abs(want), (which, name, got, want)
        f(*args)  # a second call: VRIR kernels compile at -O3 (tiering)
        if which == "vrir":
            vrir.wait_for_compiles()
        times = []
        for _ in range(15):
            t0 = time.perf_counter()
            f(*args)
            times.append(time.perf_counter() - t0)
        out[name] = statistics.median(times) * 1e3
    return out


def main():
    if len(sys.argv) == 2:
        print(measure(sys.argv[1]))
        return
    results = {w: eval(subprocess.run([sys.executable, __file__, w], check=True,
                                      capture_output=True, text=True).stdout)
               for w in ("numba", "vrir")}
    print("| kernel | Numba prange ms | VRIR prange ms | VRIR vs Numba |")
    print("|---|---|---|---|")
    for name in ("sumsq", "rowmax"):
        n, v = results["numba"][name], results["vrir"][name]
        print(f"| {name} | {n:.2f} | {v:.2f} | {n / v:.2f}x |")


if __name__ == "__main__":
    main()
