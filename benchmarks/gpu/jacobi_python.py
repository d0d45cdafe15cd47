"""The NumPy-slicing Jacobi sweep on the GPU: the same Python function run
by @vrir.jit (OpenCL, Vulkan), CuPy and PyTorch (eager, torch.compile).

    python3 benchmarks/gpu/jacobi_python.py [--n 8192] [--steps 10,60]
        [--impls vrir-opencl,vrir-vulkan,cupy,torch,torch-compile]
        [--repeat 5] [--check] [--json FILE]

Each implementation runs `jacobi(A, B, steps)` (two sweeps per step, A->B
then B->A) on f64 n x n arrays with two step counts S1 < S2; the time per
sweep is (median call time at S2 - median at S1) / (2 (S2 - S1)), which
removes what happens once per call (VRIR: uploading the arrays at the
first launch and downloading them at the end; CuPy/PyTorch: nothing, their
arrays live on the device). VRIR's counters (vrir.stats()) are printed per
call: one upload and one download per array, whatever the step count.
--check compares every implementation with NumPy on a small size first.
"""
import argparse
import json
import statistics
import sys
import time

import numpy as np

import vrir


def jacobi(A, B, steps):
    for t in range(steps):
        with vrir.gpu():
            B[1:-1, 1:-1] = 0.2 * (A[1:-1, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:]
                                   + A[2:, 1:-1] + A[:-2, 1:-1])
            A[1:-1, 1:-1] = 0.2 * (B[1:-1, 1:-1] + B[1:-1, :-2] + B[1:-1, 2:]
                                   + B[2:, 1:-1] + B[:-2, 1:-1])


def inputs(n, xp):
    rng = np.random.default_rng(1)
    return xp.asarray(rng.random((n, n))), xp.asarray(rng.random((n, n)))


def make_impl(name):
    """(run(A, B, steps) that returns when the work is done, array module,
    to_numpy)."""
    if name.startswith("vrir-"):
        fn = vrir.jit(jacobi, target=name[len("vrir-"):])
        return fn, np, lambda x: x
    if name == "cupy":
        import cupy

        def run(A, B, steps):
            jacobi(A, B, steps)
            cupy.cuda.Device().synchronize()
        return run, cupy, cupy.asnumpy
    import torch
    xp = _TorchModule(torch)
    body = jacobi if name == "torch" else torch.compile(jacobi)

    def run(A, B, steps):
        body(A, B, steps)
        torch.cuda.synchronize()
    return run, xp, lambda x: x.cpu().numpy()


class _TorchModule:
    def __init__(self, torch):
        self.torch = torch

    def asarray(self, a):
        return self.torch.from_numpy(a).cuda()


def time_calls(run, A, B, steps, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run(A, B, steps)
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times), times


def check(impls):
    n = 37
    want_a, want_b = inputs(n, np)
    jacobi(want_a, want_b, 3)
    for name in impls:
        try:
            run, xp, to_numpy = make_impl(name)
            A, B = inputs(n, xp)
            run(A, B, 3)
        except Exception as error:  # a missing module or device
            print(f"check {name}: n/a ({type(error).__name__}: {error})",
                  flush=True)
            continue
        for got, want in ((A, want_a), (B, want_b)):
            np.testing.assert_allclose(to_numpy(got), want, rtol=1e-13)
        print(f"check {name}: ok (n={n}, 3 steps)", flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=8192)
    p.add_argument("--steps", default="10,60")
    p.add_argument("--impls",
                   default="vrir-opencl,vrir-vulkan,cupy,torch,torch-compile")
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--check", action="store_true")
    p.add_argument("--json")
    args = p.parse_args()
    s1, s2 = (int(s) for s in args.steps.split(","))
    impls = args.impls.split(",")
    if args.check:
        check(impls)
    rows = []
    for name in impls:
        try:
            run, xp, _ = make_impl(name)
            A, B = inputs(args.n, xp)
            start = time.perf_counter()
            run(A, B, 1)  # compiles (VRIR, torch.compile), warms up
            first_ms = (time.perf_counter() - start) * 1e3
            if name.startswith("vrir-"):
                vrir.reset_stats()
            t1, _ = time_calls(run, A, B, s1, args.repeat)
            stats = vrir.stats() if name.startswith("vrir-") else {}
            t2, _ = time_calls(run, A, B, s2, args.repeat)
        except Exception as error:  # a missing module or device
            print(f"{name}: n/a ({type(error).__name__}: {error})",
                  flush=True)
            rows.append({"impl": name, "error": str(error)})
            continue
        per_sweep = (t2 - t1) / (2 * (s2 - s1))
        bytes_per_sweep = 8.0 * (args.n ** 2 + (args.n - 2) ** 2)
        row = {"impl": name, "n": args.n, "s1": s1, "s2": s2,
               "first_call_ms": first_ms, "call_ms_s1": t1,
               "call_ms_s2": t2, "ms_per_sweep": per_sweep,
               "gb_per_s": bytes_per_sweep / (per_sweep * 1e6)
               if per_sweep > 0 else None}
        if stats:
            row["gpu_stats_s1_calls"] = stats
        rows.append(row)
        print(f"{name}: {per_sweep:.4f} ms/sweep, first call "
              f"{first_ms:.0f} ms, call with {s1} steps {t1:.1f} ms"
              + (f", stats of {args.repeat} calls: {row['gpu_stats_s1_calls']}"
                 if stats else ""), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
