"""What a call that brings a new shape to a specialised region costs: a
short stencil region (microseconds a call) called 20 times at each of 20
shapes, after its first version exists; the first call of each shape is
timed with every miss waiting for its compile and with misses compiled in
the background (the default), for versions with every fact (one compile
per shape) and chosen per region (the stencil needs no shapes: one
version). Each configuration runs in a fresh process; medians over
--repeat processes.

    .venv/bin/python benchmarks/python/specialize_latency.py [--repeat 3]
"""
import json
import os
import statistics
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from loops import setup  # noqa: E402


def stencil(A, B):
    for i in range(1, A.shape[0] - 1):
        for j in range(1, A.shape[1] - 1):
            B[i, j] = 0.25 * (A[i - 1, j] + A[i + 1, j] + A[i, j - 1] + A[i, j + 1])


def measure(mode, background):
    """One process: first-call times (seconds) of 20 new shapes, and the
    region's counters."""
    import time

    import vrir

    vrir.set_specialization(mode, background=background)
    kernel = vrir.jit(specialize=True)(stencil)
    rng = np.random.default_rng(0)
    kernel(rng.random((64, 64)), np.zeros((64, 64)))  # the first version
    firsts = []
    for n in range(40, 60):
        A, B = rng.random((n, n)), np.zeros((n, n))
        start = time.perf_counter()
        kernel(A, B)
        firsts.append(time.perf_counter() - start)
        expected = np.zeros((n, n))
        stencil(A, expected)
        np.testing.assert_array_equal(B, expected)
        for _ in range(20):
            kernel(A, B)
    vrir.wait_for_specializations()
    (stats,) = vrir.region_stats().values()
    return {"median": statistics.median(firsts), "total": sum(firsts),
            "compiles": stats["compiles"], "background": stats["background_compiles"],
            "generic": stats["generic"]}


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        mode, background = sys.argv[2], sys.argv[3] == "1"
        sys.argv = sys.argv[:1]
        setup()
        print(json.dumps(measure(mode, background)))
        return
    opts = setup()
    print("| versions | misses | first call of a new shape, median ms | 20 shapes, total ms "
          "| compiles | in the background | calls that ran generic |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for mode in ("all", "auto"):
        for background in (False, True):
            runs = []
            for _ in range(opts.repeat):
                out = subprocess.run(
                    [sys.executable, __file__, "--child", mode, str(int(background))],
                    check=True, capture_output=True, text=True).stdout
                runs.append(json.loads(out.strip().splitlines()[-1]))
            median = statistics.median(r["median"] for r in runs) * 1e3
            total = statistics.median(r["total"] for r in runs) * 1e3
            last = runs[-1]
            print(f"| {mode} | {'background' if background else 'wait'} | {median:.3f} | "
                  f"{total:.1f} | {last['compiles']} | {last['background']} | "
                  f"{last['generic']} |", flush=True)


if __name__ == "__main__":
    main()
