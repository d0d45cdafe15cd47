"""First calls of every kernel of benchmarks/python (the examples of
run.py, loops.py, slice_loops.py, numpy_programs.py): compile + one run
on small inputs into an empty disk cache, median of --rounds rounds (each
round in a fresh process with a fresh cache), with tiered compilation (the
default: a quick -O1 first compile) and, with --compare, without it
(VRIR_TIERED=0: -O3 at once). Also the time of the quick code against the
optimized code on medium inputs (median of 7 calls each), so the price of a
first call that runs long is on the table too.

    .venv/bin/python benchmarks/python/first_calls.py [--rounds 3] [--compare]
        [--json out.json]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")


def kernels():
    """name -> (function, small args, medium args, outputs)."""
    import numpy as np
    sys.path.insert(0, HERE)
    sys.path.insert(0, os.path.join(ROOT, "python", "examples"))
    import loops
    import numpy_programs
    import run
    import slice_loops
    out = {}
    for name in run.ORDER:
        mod = __import__(name)
        out[name] = (mod.KERNEL, mod.make_inputs(mod.SIZES["test"]),
                     mod.make_inputs(mod.SIZES["bench"] // 2), mod.OUTPUTS)
    for small, medium in ((loops.cases(0.05, np.random.default_rng(1)),
                           loops.cases(1.0, np.random.default_rng(0))),
                          (slice_loops.cases(16, np.random.default_rng(1)),
                           slice_loops.cases(300, np.random.default_rng(0))),
                          (numpy_programs.cases(0.02, np.random.default_rng(1)),
                           numpy_programs.cases(1.0, np.random.default_rng(0)))):
        for name, (fn, args, outputs) in small.items():
            key = name if name not in out else name + "_slices"  # lu twice
            out[key] = (fn, args, medium[name][1], outputs)
    return out


def fresh(args, outputs):
    return [a.copy() if k in outputs else a for k, a in enumerate(args)]


def one_round(with_speed):
    """Runs in a child process: first call of each kernel; with_speed also
    times the quick and the optimized code on the medium inputs."""
    os.environ["VRIR_CACHE_DIR"] = tempfile.mkdtemp(prefix="vrir-first-calls-")
    sys.path.insert(0, os.path.join(ROOT, "python"))
    import vrir
    result = {}
    for name, (fn, small, medium, outputs) in kernels().items():
        jitted = vrir.jit(fn)
        t0 = time.perf_counter()
        jitted(*fresh(small, outputs))
        row = {"first": time.perf_counter() - t0}
        if with_speed:
            def median_of_calls():
                times = []
                for _ in range(7):
                    a = fresh(medium, outputs)
                    t0 = time.perf_counter()
                    jitted(*a)
                    times.append(time.perf_counter() - t0)
                return statistics.median(times)
            (kernel,) = [k for k in jitted._kernels.values()]
            if not kernel.optimized:
                # The quick code alone: its tier-up held back meanwhile.
                owed, kernel._tier_up = kernel._tier_up, None
                row["quick"] = median_of_calls()
                kernel._tier_up = owed
                jitted(*fresh(medium, outputs))  # a call again: -O3 queued
            vrir.wait_for_compiles()
            row["optimized"] = median_of_calls()
        result[name] = row
    return result


def rounds(n, tiered, with_speed):
    env = dict(os.environ, VRIR_TIERED="1" if tiered else "0")
    runs = []
    for _ in range(n):
        out = subprocess.run([sys.executable, __file__, "--child",
                              "speed" if with_speed else "first"],
                             env=env, capture_output=True, text=True, check=True)
        runs.append(json.loads(out.stdout))
    return runs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--compare", action="store_true")
    ap.add_argument("--json", default="")
    ap.add_argument("--child", default="")
    opts = ap.parse_args()
    if opts.child:
        print(json.dumps(one_round(opts.child == "speed")))
        return
    tiered = rounds(opts.rounds, True, False) + rounds(1, True, True)
    untiered = rounds(opts.rounds, False, False) if opts.compare else []
    names = list(tiered[0])
    table = []
    print(f"threads: {os.cpu_count()} CPUs; first calls: median of {opts.rounds + 1} "
          "processes; times of calls: median of 7 calls, one process")
    print("| kernel | first call, tiered (ms) | first call, -O3 at once (ms) | "
          "quick code (ms) | optimized code (ms) | quick / optimized |")
    print("|---|---|---|---|---|---|")
    for name in names:
        first = statistics.median(r[name]["first"] for r in tiered) * 1e3
        once = (statistics.median(r[name]["first"] for r in untiered) * 1e3
                if untiered else None)
        speed = tiered[-1][name]
        quick, optimized = speed.get("quick"), speed["optimized"]
        table.append({"kernel": name, "first_ms": first, "first_untiered_ms": once,
                      "quick_ms": quick and quick * 1e3, "optimized_ms": optimized * 1e3})
        print(f"| {name} | {first:.0f} | {'-' if once is None else f'{once:.0f}'} | "
              f"{'-' if quick is None else f'{quick * 1e3:.3f}'} | {optimized * 1e3:.3f} | "
              f"{'-' if quick is None else f'{quick / optimized:.1f}x'} |", flush=True)
    slowest = max(table, key=lambda r: r["first_ms"])
    print(f"slowest first call: {slowest['kernel']} {slowest['first_ms']:.0f} ms")
    if opts.json:
        with open(opts.json, "w") as f:
            json.dump(table, f, indent=1)


if __name__ == "__main__":
    main()
