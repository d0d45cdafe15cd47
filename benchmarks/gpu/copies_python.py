"""Copies on the device: a 2-D heat time-step loop that copies its array
every step (`old = u.copy()`, then a stencil of `old` into `u`), the same
Python function run by @vrir.jit (OpenCL, Vulkan) and CuPy.

    python3 benchmarks/gpu/copies_python.py [--n 4096] [--steps 10,40]
        [--impls vrir-opencl,vrir-vulkan,cupy] [--body heat|copy]
        [--repeat 5] [--check] [--json FILE]

VRIR makes such a copy on potential write (thesis, 7.3.2): it shares the
device buffer of `u` until the stencil's kernel writes `u`, which then
makes a device-to-device copy. Run it once with VRIR_GPU_COPY_ON_WRITE=0
in the environment (the runtime reads it once per process) to time copies
made at once on the host: each step then downloads `u` and uploads the
copy. The time per step is (median call time at S2 - median at S1) /
(S2 - S1), which removes the per-call upload of `u` and its download;
VRIR's counters are printed for the S1 calls. CuPy's copy is a
device-to-device copy. --body copy times the copy alone: each step's
kernel writes one element of `u` (so VRIR still copies the whole array on
the device), instead of the stencil. --check compares with NumPy on a
small size first.
"""
import argparse
import json
import os
import statistics
import sys
import time

import numpy as np

import vrir


def heat(u, steps):
    with vrir.gpu():
        for t in range(steps):
            old = u.copy()
            u[1:-1, 1:-1] = old[1:-1, 1:-1] + 0.1 * (
                old[:-2, 1:-1] + old[2:, 1:-1] + old[1:-1, :-2]
                + old[1:-1, 2:] - 4.0 * old[1:-1, 1:-1])
    return u


def copy(u, steps):
    with vrir.gpu():
        for t in range(steps):
            old = u.copy()
            u[:1, :1] = old[:1, :1] + 1.0
    return u


BODIES = {"heat": heat, "copy": copy}


def make_impl(name, body):
    """(run(u, steps) that returns when the work is done, array module,
    to_numpy)."""
    if name.startswith("vrir-"):
        return vrir.jit(body, target=name[len("vrir-"):]), np, lambda x: x
    import cupy

    def run(u, steps):
        body(u, steps)
        cupy.cuda.Device().synchronize()
    return run, cupy, cupy.asnumpy


def initial(n, xp):
    return xp.asarray(np.random.default_rng(1).random((n, n)))


def time_calls(run, u, steps, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run(u, steps)
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=4096)
    p.add_argument("--steps", default="10,40")
    p.add_argument("--impls", default="vrir-opencl,vrir-vulkan,cupy")
    p.add_argument("--body", choices=sorted(BODIES), default="heat")
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--check", action="store_true")
    p.add_argument("--json")
    args = p.parse_args()
    s1, s2 = (int(s) for s in args.steps.split(","))
    copy_on_write = os.environ.get("VRIR_GPU_COPY_ON_WRITE", "1") != "0"
    rows = []
    for name in args.impls.split(","):
        try:
            body = BODIES[args.body]
            run, xp, to_numpy = make_impl(name, body)
            if args.check:
                want = body(initial(37, np), 3)
                got = initial(37, xp)
                run(got, 3)
                np.testing.assert_allclose(to_numpy(got), want, rtol=1e-13)
            u = initial(args.n, xp)
            start = time.perf_counter()
            run(u, 1)  # compiles, warms up
            first_ms = (time.perf_counter() - start) * 1e3
            vrir.reset_stats()
            t1 = time_calls(run, u, s1, args.repeat)
            stats = vrir.stats() if name.startswith("vrir-") else {}
            t2 = time_calls(run, u, s2, args.repeat)
        except Exception as error:  # a missing module or device
            print(f"{name}: n/a ({type(error).__name__}: {error})",
                  flush=True)
            rows.append({"impl": name, "error": str(error)})
            continue
        per_step = (t2 - t1) / (s2 - s1)
        label = name + ("" if not name.startswith("vrir-") or copy_on_write
                        else " (copies at once)")
        row = {"impl": label, "body": args.body, "n": args.n, "s1": s1,
               "s2": s2,
               "first_call_ms": first_ms, "call_ms_s1": t1,
               "call_ms_s2": t2, "ms_per_step": per_step}
        if stats:
            row["gpu_stats_s1_calls"] = {
                k: stats[k] for k in ("kernels", "uploads", "downloads",
                                      "shared_copies", "device_copies")}
        rows.append(row)
        print(f"{label}: {per_step:.4f} ms/step, call with {s1} steps "
              f"{t1:.1f} ms" + (f", stats of {args.repeat} calls: "
                                f"{row['gpu_stats_s1_calls']}" if stats
                                else ""), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
