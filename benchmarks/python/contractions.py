"""np.einsum, np.tensordot and np.linalg.multi_dot under @vrir.jit against
NumPy (einsum as written, and with optimize=True, which may call BLAS)
in interleaved rounds of one process; medians in ms. Results are compared
with NumPy first. Numba compiles none of these functions.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/python/contractions.py [--repeat 21]
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from loops import interleaved_medians, selected, setup  # noqa: E402


def matmul(a, b):
    return np.einsum("ij,jk->ik", a, b)


def matmul_optimized(a, b):
    return np.einsum("ij,jk->ik", a, b, optimize=True)


def batched(a, b):
    return np.einsum("bij,bjk->bik", a, b)


def batched_optimized(a, b):
    return np.einsum("bij,bjk->bik", a, b, optimize=True)


def full(a, b):
    return np.einsum("ij,ij->", a, b)


def full_optimized(a, b):
    return np.einsum("ij,ij->", a, b, optimize=True)


def row_dots(a, b):
    return np.einsum("ij,ij->i", a, b)


def row_dots_optimized(a, b):
    return np.einsum("ij,ij->i", a, b, optimize=True)


def tensordot(a, b):
    return np.tensordot(a, b, axes=([1, 2], [0, 1]))


def chain(a, b):
    return np.linalg.multi_dot([a, b, a])


def main():
    opts = setup()
    import vrir

    rng = np.random.default_rng(0)
    cases = {
        "ij,jk->ik 300^2": (matmul, matmul_optimized, (rng.random((300, 300)),) * 2),
        "bij,bjk->bik 32x64x64": (batched, batched_optimized,
                                  (rng.random((32, 64, 64)), rng.random((32, 64, 64)))),
        "ij,ij-> 500^2": (full, full_optimized, (rng.random((500, 500)), rng.random((500, 500)))),
        "ij,ij->i 500^2": (row_dots, row_dots_optimized,
                           (rng.random((500, 500)), rng.random((500, 500)))),
        "tensordot 40x50x60 . 50x60x30": (tensordot, None,
                                          (rng.random((40, 50, 60)), rng.random((50, 60, 30)))),
        "multi_dot 200x50 . 50x200 . 200x50": (chain, None,
                                               (rng.random((200, 50)), rng.random((50, 200)))),
    }
    print("| kernel | NumPy | NumPy optimize=True | VRIR | VRIR vs NumPy | VRIR vs optimize=True |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, (fn, optimized, args) in selected(cases, opts).items():
        compiled = vrir.jit(fn)
        np.testing.assert_allclose(compiled(*args), fn(*args), rtol=1e-10, err_msg=name)
        variants = {"numpy": fn, "vrir": compiled}
        if optimized:
            variants["optimized"] = optimized
        m = interleaved_medians(variants, args, (), opts.repeat)
        opt = m.get("optimized")
        opt_text = f"{opt:.3f}" if opt else "-"
        opt_ratio = f"{opt / m['vrir']:.2f}x" if opt else "-"
        print(f"| {name} | {m['numpy']:.3f} | {opt_text} | {m['vrir']:.3f} | "
              f"{m['numpy'] / m['vrir']:.2f}x | {opt_ratio} |", flush=True)


if __name__ == "__main__":
    main()
