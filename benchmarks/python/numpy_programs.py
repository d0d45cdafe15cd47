"""Whole-array NumPy programs of the kinds in issue 14's collection (deep
learning layers, statistics, linear algebra through np.linalg, an n-body
step written with broadcasting, a logistic-regression fit), timed under
NumPy (the plain function), Numba (@njit, where it compiles the function:
"-" otherwise) and @vrir.jit with its defaults. Interleaved rounds,
medians; every variant's result is compared with NumPy's first; first
calls (compile + one run) on the small inputs, VRIR's into an empty cache.

    .venv/bin/python benchmarks/python/numpy_programs.py [--repeat 11] [--only NAME,...]
"""
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from loops import fresh, interleaved_medians, selected, setup  # noqa: E402


def relu(x):
    return np.maximum(x, 0.0)


def mlp(x, w1, b1, w2, b2):
    """Two dense layers; the activation is a helper of this module."""
    return relu(x @ w1 + b1) @ w2 + b2


def softmax(x):
    e = np.exp(x - np.max(x, axis=1, keepdims=True))
    return e / np.sum(e, axis=1, keepdims=True)


def layernorm(x, gamma, beta):
    mu = np.mean(x, axis=1, keepdims=True)
    var = np.var(x, axis=1, keepdims=True)
    return (x - mu) / np.sqrt(var + 1e-5) * gamma + beta


def attention(q, k, v):
    scores = q @ k.T / np.sqrt(q.shape[1])
    e = np.exp(scores - np.max(scores, axis=1, keepdims=True))
    return (e / np.sum(e, axis=1, keepdims=True)) @ v


def conv2d(image, kernel):
    kh, kw = kernel.shape[0], kernel.shape[1]
    out = np.zeros((image.shape[0] - kh + 1, image.shape[1] - kw + 1))
    for i in range(out.shape[0]):
        for j in range(out.shape[1]):
            out[i, j] = np.sum(image[i:i + kh, j:j + kw] * kernel)
    return out


def get_acc(pos, mass, G, softening):
    """The n-body accelerations of issue 14's collection: pairwise
    differences by broadcasting, ** -1.5, products with the masses."""
    x, y, z = pos[:, 0:1], pos[:, 1:2], pos[:, 2:3]
    dx, dy, dz = x.T - x, y.T - y, z.T - z
    inv_r3 = (dx ** 2 + dy ** 2 + dz ** 2 + softening ** 2)
    inv_r3[inv_r3 > 0] = inv_r3[inv_r3 > 0] ** -1.5
    ax = G * (dx * inv_r3) @ mass
    ay = G * (dy * inv_r3) @ mass
    az = G * (dz * inv_r3) @ mass
    return np.hstack((ax, ay, az))


def logistic_fit(X, y, steps, lr):
    w = np.zeros(X.shape[1])
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(X @ w)))
        w -= lr * (X.T @ (p - y)) / X.shape[0]
    return w


def kmeans_step(X, C):
    d = ((X[:, None, :] - C[None, :, :]) ** 2).sum(axis=2)
    labels = np.empty(X.shape[0], dtype=np.int64)
    for i in range(X.shape[0]):
        labels[i] = np.argmin(d[i])
    new = np.zeros_like(C)
    counts = np.zeros(C.shape[0])
    for i in range(X.shape[0]):
        new[labels[i]] += X[i]
        counts[labels[i]] += 1.0
    return new / np.maximum(counts, 1.0)[:, None]


def gaussian_solve(A, b):
    """Normal equations through np.linalg: Cholesky, two solves."""
    L = np.linalg.cholesky(A.T @ A + np.eye(A.shape[1]))
    z = np.linalg.solve(L, A.T @ b)
    return np.linalg.solve(L.T, z)


def standardize(X):
    """Columns to zero mean and unit norm, then their correlations."""
    Z = X - np.mean(X, axis=0)
    Z = Z / np.linalg.norm(Z, axis=0)
    return np.corrcoef(Z, rowvar=False)


def rolling_mean(x, w):
    c = np.cumsum(x)
    out = np.empty(x.shape[0] - w + 1)
    out[0] = c[w - 1] / w
    out[1:] = (c[w:] - c[:-w]) / w
    return out


def black_scholes(S, K, T, r, sigma):
    d1 = (np.log(S / K) + (r + 0.5 * sigma * sigma) * T) / (sigma * np.sqrt(T))
    d2 = d1 - sigma * np.sqrt(T)
    return S * cnd(d1) - K * np.exp(-r * T) * cnd(d2)


def intensity_histogram(img, bins):
    """Counts of an image's values in equal bins, and the cumulative
    distribution (histogram equalization's first step)."""
    counts, edges = np.histogram(img, bins)
    cdf = np.cumsum(counts) / img.size
    return cdf


def quantile_histogram(x, edges):
    """Counts in given bins (here 500 quantile edges: narrow where the data
    is dense), normalized."""
    counts, _ = np.histogram(x, edges)
    return counts / x.shape[0]


def label_counts(labels, weights, k):
    """Per-label counts and weight sums (np.bincount)."""
    return np.bincount(labels, minlength=k) + np.bincount(labels, weights, k)


def cnd(d):
    """The normal CDF by Abramowitz and Stegun's polynomial (26.2.17)."""
    k = 1.0 / (1.0 + 0.2316419 * np.abs(d))
    poly = k * (0.319381530 + k * (-0.356563782 + k * (1.781477937
                + k * (-1.821255978 + k * 1.330274429))))
    w = 1.0 - 0.3989422804014327 * np.exp(-0.5 * d * d) * poly
    return np.where(d < 0, 1.0 - w, w)


def cases(scale, rng):
    n = max(int(1000 * scale), 8)
    m = max(int(256 * scale), 4)
    pos = rng.random((max(int(300 * scale), 4), 3))
    A = rng.random((n, m))
    return {
        "mlp": (mlp, (rng.random((n, m)) - 0.5, rng.random((m, m)) - 0.5, rng.random(m),
                      rng.random((m, 10)) - 0.5, rng.random(10)), ()),
        "softmax": (softmax, (rng.random((n, m)) * 10,), ()),
        "layernorm": (layernorm, (rng.random((n, m)), rng.random(m), rng.random(m)), ()),
        "attention": (attention, (rng.random((n // 2, 64)), rng.random((n // 2, 64)),
                                  rng.random((n // 2, 64))), ()),
        "conv2d": (conv2d, (rng.random((n // 4, n // 4)), rng.random((5, 5))), ()),
        "nbody_acc": (get_acc, (pos, rng.random((pos.shape[0], 1)), 1.0, 0.1), ()),
        "logistic": (logistic_fit, (rng.random((n, 32)) - 0.5,
                                    (rng.random(n) > 0.5).astype(np.float64), 20, 0.1), ()),
        "kmeans_step": (kmeans_step, (rng.random((n, 8)), rng.random((16, 8))), ()),
        "normal_eqs": (gaussian_solve, (A, rng.random(n)), ()),
        "standardize": (standardize, (rng.random((n, 32)),), ()),
        "rolling_mean": (rolling_mean, (rng.random(n * 100), 50), ()),
        "black_scholes": (black_scholes, (rng.random(n * 100) * 50 + 50,
                                          rng.random(n * 100) * 50 + 50,
                                          rng.random(n * 100) + 0.1, 0.02, 0.3), ()),
        "histogram": (intensity_histogram, (rng.normal(size=(n, 100)), 64), ()),
        "histogram_edges": (quantile_histogram,
                            (rng.normal(size=n * 100),
                             np.quantile(rng.normal(size=n * 100), np.linspace(0, 1, 501))), ()),
        "bincount": (label_counts, (rng.integers(0, 32, n * 100), rng.random(n * 100), 32),
                     ()),
    }


def main():
    opts = setup()
    import numba
    import vrir

    chosen = selected(cases(1.0, np.random.default_rng(0)), opts)
    print("| kernel | NumPy ms | Numba ms | VRIR ms | VRIR vs NumPy | VRIR vs Numba | "
          "first call VRIR / Numba (s) |")
    print("|---|---|---|---|---|---|---|")
    small = cases(0.02, np.random.default_rng(1))
    for name, (fn, args, outputs) in chosen.items():
        variants = {"numpy": fn, "numba": numba.njit(fn), "vrir": vrir.jit(fn)}
        _, sargs, souts = small[name]
        want = fn(*fresh(sargs, souts))
        first = {}
        for vname in list(variants):
            t0 = time.perf_counter()
            try:
                got = variants[vname](*fresh(sargs, souts))  # compiles
            except Exception as e:  # Numba's typing errors
                if vname != "numba":
                    raise
                print(f"  {name}: Numba cannot compile it ({type(e).__name__})",
                      file=sys.stderr)
                del variants[vname]
                continue
            first[vname] = time.perf_counter() - t0
            np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12,
                                       err_msg=f"{name}/{vname}")
            variants[vname](*fresh(args, outputs))  # warm up
        m = interleaved_medians(variants, args, outputs, opts.repeat)
        numba_ms = f"{m['numba']:.2f}" if "numba" in m else "-"
        vs_numba = f"{m['numba'] / m['vrir']:.2f}x" if "numba" in m else "-"
        numba_first = f"{first['numba']:.2f}" if "numba" in first else "-"
        print(f"| {name} | {m['numpy']:.2f} | {numba_ms} | {m['vrir']:.2f} | "
              f"{m['numpy'] / m['vrir']:.2f}x | {vs_numba} | "
              f"{first['vrir']:.2f} / {numba_first} |", flush=True)


if __name__ == "__main__":
    main()
