"""Loop nests whose bodies use slice expressions (the linear-algebra kernels
of issue 14's collection: Cholesky, LU, SYRK, SYR2K, TRMM, a triangular
solve), written as NumPy users write them, timed under NumPy (the plain
function), Numba (@njit) and @vrir.jit with its defaults. Interleaved
rounds, medians; results compared with the plain function first. The
dot products of slices become reducing maps and the slice updates
store_maps (vrir-fuse-elementwise): one loop each, no temporary array.

    .venv/bin/python benchmarks/python/slice_loops.py [--repeat 11]
"""
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from loops import fresh, interleaved_medians, selected, setup  # noqa: E402


def cholesky(A):
    n = A.shape[0]
    for i in range(n):
        for j in range(i):
            A[i, j] -= np.dot(A[i, :j], A[j, :j])
            A[i, j] /= A[j, j]
        A[i, i] -= np.dot(A[i, :i], A[i, :i])
        A[i, i] = np.sqrt(A[i, i])
    return A


def lu(A):
    n = A.shape[0]
    for i in range(n):
        for j in range(i):
            A[i, j] -= A[i, :j] @ A[:j, j]
            A[i, j] /= A[j, j]
        for j in range(i, n):
            A[i, j] -= A[i, :i] @ A[:i, j]
    return A


def syrk(alpha, beta, C, A):
    for i in range(C.shape[0]):
        C[i, :i + 1] *= beta
        for k in range(A.shape[1]):
            C[i, :i + 1] += alpha * A[i, k] * A[:i + 1, k]
    return C


def syr2k(alpha, beta, C, A, B):
    for i in range(C.shape[0]):
        C[i, :i + 1] *= beta
        for k in range(A.shape[1]):
            C[i, :i + 1] += A[:i + 1, k] * alpha * B[i, k] + B[:i + 1, k] * alpha * A[i, k]
    return C


def trmm(alpha, A, B):
    for i in range(B.shape[0]):
        for j in range(B.shape[1]):
            B[i, j] += np.dot(A[i + 1:, i], B[i + 1:, j])
    B *= alpha
    return B


def trisolv(L, x, b):
    for i in range(x.shape[0]):
        x[i] = (b[i] - L[i, :i] @ x[:i]) / L[i, i]
    return x


def cases(n, rng):
    def spd():
        M = rng.random((n, n))
        return M @ M.T + n * np.eye(n)
    m = n * 5 // 6
    return {
        "cholesky": (cholesky, (spd(),), (0,)),
        "lu": (lu, (spd(),), (0,)),
        "syrk": (syrk, (1.5, 1.2, rng.random((n, n)), rng.random((n, m))), (2,)),
        "syr2k": (syr2k, (1.5, 1.2, rng.random((n, n)), rng.random((n, m)),
                          rng.random((n, m))), (2,)),
        "trmm": (trmm, (1.5, rng.random((n, n)), rng.random((n, n))), (2,)),
        "trisolv": (trisolv, (np.tril(rng.random((n, n))) + n * np.eye(n), np.zeros(n),
                              rng.random(n)), (1,)),
    }


def main():
    opts = setup()
    import numba
    import vrir

    print("| kernel | n | NumPy | Numba | VRIR | VRIR vs Numba | VRIR vs NumPy | "
          "first call VRIR / Numba (s) |")
    print("|---|---|---|---|---|---|---|---|")
    small = cases(24, np.random.default_rng(1))
    for name, (fn, args, outputs) in selected(cases(300, np.random.default_rng(0)),
                                              opts).items():
        variants = {"numpy": fn, "numba": numba.njit(fn), "vrir": vrir.jit(fn)}
        _, sargs, souts = small[name]
        want = fn(*fresh(sargs, souts))
        first = {}
        for vname, v in variants.items():
            t0 = time.perf_counter()
            got = v(*fresh(sargs, souts))  # compiles
            first[vname] = time.perf_counter() - t0
            np.testing.assert_allclose(got, want, rtol=1e-10, err_msg=f"{name}/{vname}")
            v(*fresh(args, outputs))  # warm up
        m = interleaved_medians(variants, args, outputs, opts.repeat)
        print(f"| {name} | 300 | {m['numpy']:.2f} | {m['numba']:.2f} | {m['vrir']:.2f} | "
              f"{m['numba'] / m['vrir']:.2f}x | {m['numpy'] / m['vrir']:.2f}x | "
              f"{first['vrir']:.2f} / {first['numba']:.2f} |", flush=True)


if __name__ == "__main__":
    main()
