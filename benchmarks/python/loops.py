"""Loop kernels of the kind bounds-check elimination is for (Seidel 2-D,
Floyd-Warshall, a 2-D loop over an array, growcut, CSR SpMV), written as
plain Python loops and timed under Numba (@njit) and @vrir.jit: by default,
with every check kept (eliminate_checks=False) and without checks
(boundscheck=False). Interleaved rounds, medians; results compared with the
plain Python function on small inputs first.

    .venv/bin/python benchmarks/python/loops.py [--repeat 11]
"""
import argparse
import os
import statistics
import sys
import tempfile
import time

import numpy as np


def seidel(A, steps):
    n = A.shape[0]
    for t in range(steps):
        for i in range(1, n - 1):
            for j in range(1, n - 1):
                A[i, j] = (A[i - 1, j - 1] + A[i - 1, j] + A[i - 1, j + 1]
                           + A[i, j - 1] + A[i, j] + A[i, j + 1]
                           + A[i + 1, j - 1] + A[i + 1, j] + A[i + 1, j + 1]) / 9.0
    return A


def floyd(D):
    n = D.shape[0]
    for k in range(n):
        for i in range(n):
            for j in range(n):
                if D[i, k] + D[k, j] < D[i, j]:
                    D[i, j] = D[i, k] + D[k, j]
    return D


def loop2d(A):
    s = 0.0
    for i in range(A.shape[0]):
        for j in range(A.shape[1]):
            s += A[i, j] * A[i, j]
    return s


def growcut(image, state, window):
    height, width = image.shape[0], image.shape[1]
    out = state.copy()
    for j in range(height):
        for i in range(width):
            winning = state[j, i]
            defense = state[j, i]
            for jj in range(max(j - window, 0), min(j + window + 1, height)):
                for ii in range(max(i - window, 0), min(i + window + 1, width)):
                    if ii == i and jj == j:
                        continue
                    d = image[j, i] - image[jj, ii]
                    attack = 1.0 - d * d
                    if attack > defense:
                        winning = state[jj, ii]
                        defense = attack
            out[j, i] = winning
    return out


def spmv(indptr, indices, data, x):
    n = len(indptr) - 1
    y = np.zeros(n)
    for i in range(n):
        s = 0.0
        for k in range(indptr[i], indptr[i + 1]):
            s += data[k] * x[indices[k]]
        y[i] = s
    return y


def csr(n, per_row, rng):
    indptr = np.arange(0, (n + 1) * per_row, per_row, dtype=np.int64)
    indices = rng.integers(0, n, n * per_row).astype(np.int64)
    return indptr, indices, rng.random(n * per_row), rng.random(n)


def cases(scale, rng):
    s = lambda n: max(4, int(n * scale))  # noqa: E731
    return {
        "seidel": (seidel, (rng.random((s(400), s(400))), 3), (0,)),
        "floyd": (floyd, (rng.random((s(200), s(200))),), (0,)),
        "loop2d": (loop2d, (rng.random((s(1000), s(1000))),), ()),
        "growcut": (growcut, (rng.random((s(200), s(200))), rng.random((s(200), s(200))), 1),
                    ()),
        "spmv": (spmv, csr(s(20000), 20, rng), ()),
    }


def fresh(args, outputs):
    return [a.copy() if k in outputs else a for k, a in enumerate(args)]


def wait_for_optimized_code():
    """Waits for the optimized compiles of VRIR kernels called twice (and
    for their regions' specializations) if VRIR is loaded."""
    vrir = sys.modules.get("vrir")
    if vrir is not None:
        vrir.wait_for_compiles()
        vrir.wait_for_specializations()


def interleaved_medians(variants, args, outputs, repeat):
    """Median ms per variant over `repeat` rounds, in alternating order,
    each run on fresh copies of the arrays it writes. Each variant is called
    once more first, and VRIR's optimized compiles (tiered compilation: a
    kernel called again compiles at -O3 in the background) are waited for."""
    for k in variants:
        variants[k](*fresh(args, outputs))
    wait_for_optimized_code()
    times = {k: [] for k in variants}
    for r in range(repeat):
        for k in (list(variants) if r % 2 == 0 else list(variants)[::-1]):
            a = fresh(args, outputs)
            t0 = time.perf_counter()
            variants[k](*a)
            times[k].append(time.perf_counter() - t0)
    return {k: statistics.median(t) * 1e3 for k, t in times.items()}


def selected(cases, opts):
    """The cases named by --only (all without it); an unknown name exits
    with the names there are."""
    names = [n for n in opts.only.split(",") if n]
    unknown = [n for n in names if n not in cases]
    if unknown:
        sys.exit(f"unknown kernel(s) {', '.join(unknown)}; have: {', '.join(cases)}")
    return {n: c for n, c in cases.items() if not names or n in names}


def setup():
    """Options (--repeat), a fresh VRIR disk cache, and the frontend on the
    path."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=11)
    ap.add_argument("--only", default="",
                    help="comma-separated kernel names: time only those")
    opts = ap.parse_args()
    os.environ["VRIR_CACHE_DIR"] = tempfile.mkdtemp(prefix="vrir-bench-cache-")
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                    "python"))
    return opts


def main():
    opts = setup()
    import numba
    import vrir

    rng = np.random.default_rng(0)
    print("| kernel | Numba | VRIR | VRIR all checks | VRIR no checks | VRIR vs Numba | "
          "VRIR vs no checks | checks: kept / hoisted / of |")
    print("|---|---|---|---|---|---|---|---|")
    small = cases(0.05, np.random.default_rng(1))
    for name, (fn, args, outputs) in selected(cases(1.0, rng), opts).items():
        variants = {"numba": numba.njit(fn), "vrir": vrir.jit(fn),
                    "keep": vrir.jit(eliminate_checks=False)(fn),
                    "nocheck": vrir.jit(boundscheck=False)(fn)}
        _, sargs, souts = small[name]
        want = fn(*fresh(sargs, souts))
        for vname, v in variants.items():
            np.testing.assert_allclose(v(*fresh(sargs, souts)), want, rtol=1e-12,
                                       err_msg=f"{name}/{vname}")
            v(*fresh(args, outputs))  # compile, warm up
        m = interleaved_medians(variants, args, outputs, opts.repeat)
        (st,) = variants["vrir"].stats().values()
        print(f"| {name} | {m['numba']:.2f} | {m['vrir']:.2f} | {m['keep']:.2f} | "
              f"{m['nocheck']:.2f} | {m['numba'] / m['vrir']:.2f}x | "
              f"{m['nocheck'] / m['vrir']:.2f}x | {st['kept']} / {st['hoisted']} / "
              f"{st['checks']} |", flush=True)


if __name__ == "__main__":
    main()
