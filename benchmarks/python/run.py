"""Python benchmarks: each example kernel of python/examples/ under plain
NumPy, Numba (@njit, and parallel=True with prange where the example has a
parallel form) and @vrir.jit (with bounds checks as compiled by default,
with every check kept (eliminate_checks=False), without checks
(boundscheck=False), and its parallel form), timed in the same run.

    .venv/bin/python benchmarks/python/run.py [--repeat 7] [--only jacobi2d,lu]
        [--scale 1.0] [--json out.json]

Times are medians of --repeat rounds after a warm-up call, each round
calling every variant once in turn (so a slow stretch of a shared machine
hits all variants alike); every call gets fresh copies of the arrays the
kernel writes (copying is not timed). First
call times (compile + one run) are shown separately: VRIR compiles into an
empty cache directory, so nothing is reused from disk.
"""
import argparse
import importlib
import json
import os
import statistics
import sys
import tempfile
import time
import types

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(HERE, "..", "..", "python", "examples")
ORDER = ["stencil2d", "jacobi2d", "heat3d", "gemm", "lu", "nbody", "julia",
         "pairwise", "csr_spmv"]


def rebind(fn, prange):
    """`fn` with the global `vrir` replaced by a module whose prange is
    `prange`: Numba cannot resolve vrir.prange, and serial variants of a
    prange kernel use the builtin range."""
    shim = types.ModuleType("vrir_shim")
    shim.prange = prange
    g = dict(fn.__globals__)
    g["vrir"] = shim
    return types.FunctionType(fn.__code__, g, fn.__name__, fn.__defaults__,
                              fn.__closure__)


def fresh(args, outputs):
    return [a.copy() if k in outputs else a for k, a in enumerate(args)]


def first_call(fn, args, outputs):
    call_args = fresh(args, outputs)
    t0 = time.perf_counter()
    fn(*call_args)
    return time.perf_counter() - t0, call_args


def interleaved_medians(fns, args, outputs, repeat):
    """Median time of each function over `repeat` rounds, every round
    calling each once in turn (alternating the order), so that a slow
    stretch of a shared machine hits every variant alike."""
    for fn in fns:  # a second call: VRIR kernels compile at -O3 (tiering)
        fn(*fresh(args, outputs))
    vrir = sys.modules.get("vrir")
    if vrir is not None:
        vrir.wait_for_compiles()
    times = [[] for _ in fns]
    for r in range(repeat):
        order = list(range(len(fns)))
        if r % 2:
            order.reverse()
        for k in order:
            call_args = fresh(args, outputs)
            t0 = time.perf_counter()
            fns[k](*call_args)
            times[k].append(time.perf_counter() - t0)
    return [statistics.median(t) for t in times]


def variants(mod, numba, vrir):
    """(name, callable, compiles) for each way of running the example."""
    kernel, par = mod.KERNEL, mod.PARALLEL
    serial = rebind(kernel, range)
    out = [("numpy", mod.numpy_version, False)]
    if numba is not None:
        out.append(("numba", numba.njit(rebind(kernel, range)), True))
        if par is not None:
            out.append(("numba_par", numba.njit(parallel=True)(rebind(par, numba.prange)), True))
    out.append(("vrir", vrir.jit(serial), True))
    out.append(("vrir_keep", vrir.jit(serial, eliminate_checks=False), True))
    out.append(("vrir_nocheck", vrir.jit(serial, boundscheck=False), True))
    if par is not None:
        out.append(("vrir_par", vrir.jit(par, boundscheck=False), True))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--only", default="")
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--json", default="")
    ap.add_argument("--no-numba", action="store_true")
    opts = ap.parse_args()

    os.environ["VRIR_CACHE_DIR"] = tempfile.mkdtemp(prefix="vrir-bench-cache-")
    sys.path.insert(0, EXAMPLES)
    import numpy as np
    import vrir
    numba = None
    if not opts.no_numba:
        import numba

    names = [n for n in opts.only.split(",") if n] or ORDER
    results = []
    for name in names:
        mod = importlib.import_module(name)
        size = max(1, int(mod.SIZES["bench"] * opts.scale))
        args = mod.make_inputs(size)
        row = {"kernel": name, "size": size}
        reference = None
        runs = variants(mod, numba, vrir)
        for vname, fn, compiles in runs:
            first, outs = first_call(fn, args, mod.OUTPUTS)
            got = [outs[k] for k in mod.OUTPUTS]
            if reference is None:
                reference = got
            else:  # every variant must compute what NumPy computes
                for g, w in zip(got, reference):
                    np.testing.assert_allclose(g, w, rtol=1e-8, atol=1e-10,
                                               err_msg=f"{name}/{vname}")
            if compiles:
                row[vname + "_first"] = first
            if vname == "vrir":
                # Static counts of the bounds-check passes.
                (stats,) = fn.stats().values()
                row["checks"] = {k: stats.get(k, 0) for k in
                                 ("checks", "proven", "repeated", "hoisted", "kept")}
        medians = interleaved_medians([fn for _, fn, _ in runs], args, mod.OUTPUTS,
                                      opts.repeat)
        for (vname, _, _), median in zip(runs, medians):
            row[vname] = median
            print(f"  {name:10s} {vname:13s} median {median * 1e3:9.2f} ms"
                  f"   first call {row.get(vname + '_first', 0) * 1e3:8.1f} ms", flush=True)
        results.append(row)

    def ms(row, key):
        return f"{row[key] * 1e3:.2f}" if key in row else "-"

    def checks(row):
        c = row.get("checks")
        return f"{c['kept']} / {c['hoisted']} / {c['checks']}" if c else "-"

    def ratio(row, key, base):
        if key not in row or base not in row:
            return "-"
        return f"{row[base] / row[key]:.2f}x"

    print()
    print(f"threads: {os.cpu_count()} CPUs; median of {opts.repeat}; times in ms")
    print()
    print("| kernel | size | NumPy | Numba | Numba par | VRIR | VRIR all checks | "
          "VRIR no checks | VRIR par | VRIR vs Numba | VRIR vs no checks | VRIR vs NumPy | "
          "VRIR par vs Numba par | first call VRIR / Numba (s) | checks: kept / hoisted / "
          "of |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        first = f"{r.get('vrir_first', 0):.2f} / {r.get('numba_first', 0):.2f}"
        print(f"| {r['kernel']} | {r['size']} | {ms(r, 'numpy')} | {ms(r, 'numba')} | "
              f"{ms(r, 'numba_par')} | {ms(r, 'vrir')} | {ms(r, 'vrir_keep')} | "
              f"{ms(r, 'vrir_nocheck')} | {ms(r, 'vrir_par')} | {ratio(r, 'vrir', 'numba')} | "
              f"{ratio(r, 'vrir', 'vrir_nocheck')} | {ratio(r, 'vrir', 'numpy')} | "
              f"{ratio(r, 'vrir_par', 'numba_par')} | {first} | {checks(r)} |")
    if opts.json:
        with open(opts.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
