"""Region specialization (thesis chapter 6) on the loop kernels of
loops.py and a few stencils: each kernel under @vrir.jit and under
@vrir.jit(specialize=True), bounds checks on in both (the default), timed in
interleaved rounds in one process (medians), with the compile time of each
specialization, the calls that hit the region cache and the bounds checks
the specialised versions proved. Results are compared with the plain
Python function on small inputs first; the timing starts once the versions
compiling in the background are ready.

    [VRIR_SPECIALIZE=auto|all|alias] .venv/bin/python benchmarks/python/specialize.py [--repeat 11]
"""
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from loops import cases as loop_cases, fresh, interleaved_medians, selected, setup  # noqa: E402


def jacobi_steps(A, B, steps):
    n, m = A.shape[0], A.shape[1]
    for t in range(steps):
        for i in range(1, n - 1):
            for j in range(1, m - 1):
                B[i, j] = 0.2 * (A[i, j] + A[i - 1, j] + A[i + 1, j] + A[i, j - 1] + A[i, j + 1])
        for i in range(1, n - 1):
            for j in range(1, m - 1):
                A[i, j] = B[i, j]
    return A


def shifted_window(x, y, lo, hi, w):
    # Bounds from arguments: the generic version cannot prove x[i + w] in
    # bounds; with lo, hi and w critical values the specialised one can.
    for i in range(lo, hi):
        s = 0.0
        for k in range(w):
            s += x[i + k]
        y[i] = s / w
    return y


def heat3d(A, B, steps):
    n = A.shape[0]
    for t in range(steps):
        for i in range(1, n - 1):
            for j in range(1, n - 1):
                for k in range(1, n - 1):
                    B[i, j, k] = (0.125 * (A[i + 1, j, k] - 2.0 * A[i, j, k] + A[i - 1, j, k])
                                  + 0.125 * (A[i, j + 1, k] - 2.0 * A[i, j, k] + A[i, j - 1, k])
                                  + 0.125 * (A[i, j, k + 1] - 2.0 * A[i, j, k] + A[i, j, k - 1])
                                  + A[i, j, k])
        for i in range(1, n - 1):
            for j in range(1, n - 1):
                for k in range(1, n - 1):
                    A[i, j, k] = B[i, j, k]
    return A


def cases(scale, rng):
    s = lambda n: max(8, int(n * scale))  # noqa: E731
    result = loop_cases(scale, rng)
    result["jacobi2d"] = (jacobi_steps, (rng.random((s(600), s(600))),
                                         np.zeros((s(600), s(600))), 5), (0, 1))
    n = s(200000)
    result["window"] = (shifted_window, (rng.random(n + 64), np.zeros(n + 64), 0, n, 64), (1,))
    result["heat3d"] = (heat3d, (rng.random((s(80),) * 3), np.zeros((s(80),) * 3), 3), (0, 1))
    return result


def main():
    opts = setup()
    import vrir

    print("| kernel | generic ms | specialised ms | speedup | compile ms | "
          "calls / hits | checks proven (generic / specialised) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    small = cases(0.05, np.random.default_rng(1))
    speedups = []
    for name, (fn, args, outputs) in selected(cases(1.0, np.random.default_rng(0)),
                                              opts).items():
        generic, special = vrir.jit(fn), vrir.jit(specialize=True)(fn)
        _, sargs, souts = small[name]
        want = fn(*fresh(sargs, souts))
        for v in (generic, special):
            np.testing.assert_allclose(v(*fresh(sargs, souts)), want, rtol=1e-12,
                                       err_msg=name)
            v(*fresh(args, outputs))  # compile (and specialise), warm up
        # Steady state: versions compiling in the background are ready.
        vrir.wait_for_specializations()
        m = interleaved_medians({"generic": generic, "special": special}, args, outputs,
                                opts.repeat)
        regions = {key: value for key, value in vrir.region_stats().items()
                   if f"vrir_{fn.__name__}_" in key}
        calls = sum(r["calls"] for r in regions.values())
        hits = sum(r["hits"] for r in regions.values())
        compile_ms = sum(r["compile_ms"] for r in regions.values())
        compiles = max(1, sum(r["compiles"] for r in regions.values()))
        proven = sum(r["proven"] for r in regions.values())
        checks = sum(r["checks"] for r in regions.values())
        (gst,) = generic.stats().values()
        speedup = m["generic"] / m["special"]
        speedups.append(speedup)
        print(f"| {name} | {m['generic']:.2f} | {m['special']:.2f} | {speedup:.2f}x | "
              f"{compile_ms / compiles:.0f} | {calls} / {hits} | "
              f"{gst['proven'] + gst['repeated']} of {gst['checks']} / "
              f"{proven} of {checks} |", flush=True)
    geomean = math.exp(sum(map(math.log, speedups)) / len(speedups))
    print(f"\ngeomean speedup from specialization: {geomean:.2f}x")


if __name__ == "__main__":
    main()
