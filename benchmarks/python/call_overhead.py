"""Call overhead of @vrir.jit against Numba's @njit: the time of a call of a
kernel that does (almost) nothing, so that what is measured is the
dispatch (argument types, finding the compiled code), passing the
arguments and returning.

    .venv/bin/python benchmarks/python/call_overhead.py [--calls 20000]
        [--repeat 7] [--json out.json]

Each round times --calls calls of every variant in turn (alternating the
order); the table shows the median per call over --repeat rounds, in
microseconds, and VRIR's time over Numba's.
"""
import argparse
import json
import os
import statistics
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))


def no_arguments():
    return 0


def one_scalar(x):
    return x + 1.0


def three_arrays(a, b, c):
    c[0] = a[0] + b[0]


def three_arrays_sum(a, b, c):
    return a[0] + b[-1] + c[0]


def strided_and_scalars(a, n, alpha):
    a[0, 0] = alpha * n


def new_array(a):
    return a + 1.0


def returns_argument(a, b, c):
    c[0] = a[0] + b[0]
    return c


def returns_view(a):
    return a[1:]


def cases():
    small = [np.ones(16) for _ in range(3)]
    view = np.ones((8, 8))[::2, ::2]
    return [
        ("no arguments", no_arguments, ()),
        ("1 float", one_scalar, (1.5,)),
        ("3 arrays (1-D, C)", three_arrays, tuple(small)),
        ("3 arrays, float result", three_arrays_sum, tuple(small)),
        ("strided 2-D view, int, float", strided_and_scalars, (view, 3, 2.0)),
        ("returns a new 16-element array", new_array, (small[0],)),
        ("3 arrays, returns one of them", returns_argument, tuple(small)),
        ("returns a view of its argument", returns_view, (small[0],)),
    ]


def per_call(fn, args, calls):
    t0 = time.perf_counter()
    for _ in range(calls):
        fn(*args)
    return (time.perf_counter() - t0) / calls


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=20000)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--json", default="")
    opts = ap.parse_args()

    import numba
    import vrir

    rows = []
    print(f"{'kernel':32s} {'python':>8s} {'numba':>8s} {'vrir':>8s} {'vrir/numba':>10s}"
          "   (microseconds per call, median of rounds)")
    for name, fn, args in cases():
        variants = [("python", fn), ("numba", numba.njit(fn)), ("vrir", vrir.jit(fn))]
        for _, f in variants:
            f(*args)  # compile
            f(*args)  # VRIR: the optimized compile (tiering)
        vrir.wait_for_compiles()
        times = {v: [] for v, _ in variants}
        for r in range(opts.repeat):
            order = variants if r % 2 == 0 else variants[::-1]
            for v, f in order:
                times[v].append(per_call(f, args, opts.calls))
        med = {v: statistics.median(t) * 1e6 for v, t in times.items()}
        rows.append({"kernel": name, **{f"{v}_us": med[v] for v in med}})
        print(f"{name:32s} {med['python']:8.2f} {med['numba']:8.2f} {med['vrir']:8.2f} "
              f"{med['vrir'] / med['numba']:10.2f}")
    if opts.json:
        with open(opts.json, "w") as f:
            json.dump({"calls": opts.calls, "repeat": opts.repeat, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
