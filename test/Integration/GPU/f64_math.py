# RUN: %if vulkan %{ %python %s %t/vulkan --target=vulkan %}
"""Accuracy of f64 math functions in GPU kernels (Inputs/f64_math.mlir).

Each function runs through vr-run on many inputs: wide ranges, tiny and
huge values, subnormal arguments and results, near-overflow, the
boundaries of the algorithms' intervals, the worst case of the reduction
by pi/2, and the special values (+-0, +-inf, NaN, domain errors). Results
are compared with long double references: NumPy's long double functions
(the C library's `l` functions), erf and erfc by series and continued
fraction in long double. The error, in units in the last place (ulp) of
the exact result, must stay within each function's bound; special values
and exactly representable results (log2(2^k), 3.0**20, ...) must match
NumPy's float64 results bit for bit (NaN for NaN).

On Vulkan the functions are the expansions of vrir-gpu-expand-f64-math
(fdlibm's algorithms). --target=cpu runs the C library's instead, a check
of this test's references by hand, not in the lit suite: the bound is 2
ulp there, and glibc exceeds it at a few points (erfc near 2, cos and tan
of Kahan and McDonald's worst case of the reduction by pi/2); expm1,
log1p, cbrt and fpowi are left out, which upstream MLIR lowers on the CPU
to exp(x) - 1, log(1 + x), a polynomial and repeated multiplication.

Usage: f64_math.py WORKDIR [--target=TARGET] [--scale=N]
(--scale=N draws N times as many random inputs, to measure.)
"""

import math
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "Inputs", "f64_math.mlir")
LD = np.longdouble
SCALE = next((int(a.split("=", 1)[1]) for a in sys.argv
              if a.startswith("--scale=")), 1)
rng = np.random.default_rng(20240611)
# References overflow, divide by zero and take NaN arguments on purpose.
np.seterr(all="ignore")


def uniform(low, high, count):
    return rng.uniform(low, high, count * SCALE)


def logspace(low, high, count):
    """Values over [2^low, 2^high], log-uniform, random mantissas."""
    return np.exp2(uniform(low, high, count))


def both_signs(values):
    values = np.asarray(values, dtype=np.float64)
    return np.concatenate([values, -values])


def around(values, ulps=3):
    """values and their neighbours up to ulps away."""
    values = np.asarray(values, dtype=np.float64)
    out, up, down = [values], values, values
    for _ in range(ulps):
        up, down = np.nextafter(up, np.inf), np.nextafter(down, -np.inf)
        out += [up, down]
    return np.concatenate(out)


def cat(*parts):
    return np.concatenate([np.asarray(p, dtype=np.float64).ravel()
                           for p in parts])


SPECIAL = np.array([0.0, -0.0, np.inf, -np.inf, np.nan])
SUBNORMAL = cat([5e-324, 1e-323, 2.225073858507201e-308], logspace(-1074, -1022, 300))
POWERS_OF_TWO = np.ldexp(1.0, np.arange(-1074, 1024))

# erf and erfc in long double: erf by exp(-x^2) * sum 2^n x^(2n+1) /
# (1*3*...*(2n+1)) (positive terms), erfc by the continued fraction
# exp(-x^2)/sqrt(pi) / (x + (1/2)/(x + 1/(x + (3/2)/(x + ...)))).
SQRT_PI = np.sqrt(LD("3.14159265358979323846264338327950288"))


def erf_series(x):
    term, total = x.copy(), x.copy()
    for n in range(1, 400):
        term = term * 2 * x * x / (2 * n + 1)
        total += term
    return 2 / SQRT_PI * np.exp(-x * x) * total


def erfc_fraction(x):
    k = x.copy()
    for n in range(4000, 0, -1):
        k = x + LD(n) / 2 / k
    return np.exp(-x * x) / SQRT_PI / k


def ref_erf(x):
    ax = np.abs(x)
    with np.errstate(all="ignore"):
        result = np.where(ax < 3, erf_series(np.minimum(ax, 3)),
                          1 - erfc_fraction(np.maximum(ax, 3)))
    return np.copysign(result, x)


def ref_erfc(x):
    ax = np.abs(x)
    with np.errstate(all="ignore"):
        result = np.where(ax < 1, 1 - erf_series(np.minimum(ax, 1)),
                          erfc_fraction(np.maximum(ax, 1)))
    return np.where(x < 0, 2 - result, result)


def vectorized(fn):
    return lambda x: np.array([fn(v) for v in x], dtype=np.float64)


def long_double(fn):
    return lambda *args: fn(*[np.asarray(a).astype(LD) for a in args])


class Op:
    """A function of Inputs/f64_math.mlir (@math_NAME) and what to expect.

    reference: long double results of the arguments (as long double);
    exact: NumPy's float64 function, for special values; inputs: arrays of
    arguments; max_ulp: the bound; specials: arrays of arguments where the
    special values (a +-0, +-inf or NaN argument or result) must match bit
    for bit and the others the bound; exacts: arguments whose results are
    representable, to match bit for bit."""

    def __init__(self, name, reference, exact, inputs, max_ulp, specials=(),
                 exacts=(), names=("x",)):
        self.name, self.reference, self.exact = name, reference, exact
        self.inputs, self.max_ulp = inputs, max_ulp
        self.specials, self.exacts, self.names = specials, exacts, names


def unary(name, reference, exact, values, max_ulp, specials=(), exacts=()):
    return Op(name, reference, exact, [cat(values)], max_ulp,
              [cat(SPECIAL, specials)], [cat(exacts)] if len(exacts) else [])


TRIG = cat(
    uniform(-10, 10, 4000), uniform(-1e6, 1e6, 4000),
    both_signs(logspace(-60, 20, 2000)),
    # Near multiples of pi/2: cancellation in the reduction.
    around(np.arange(1, 2000) * (np.pi / 2), 2),
    around(np.arange(1, 2000) * np.pi, 2),
    both_signs([np.pi / 4, np.pi / 2, np.pi, 0.6744, 0.3, 0.78125, 2 ** -27,
                1e-300, 1e22, 1e300, 1.7976931348623157e308]),
    # Beyond 2^20*pi/2 (Payne-Hanek), all magnitudes, and the double
    # nearest to a multiple of pi/2 (6381956970095103 * 2^797, found by
    # Kahan and McDonald) with its neighbours.
    both_signs(logspace(20, 1023.9, 4000)),
    both_signs(around([6381956970095103 * 2.0 ** 797])),
    both_signs(np.ldexp(0.75, np.arange(21, 1024))))

EXP = cat(uniform(-745.2, 709.8, 4000), uniform(-5, 5, 2000),
          both_signs(logspace(-80, 0, 2000)), uniform(-745.2, -708, 1000),
          around([709.782712893384, -745.1332191019411, -708.3964185322641,
                  0.34657359027997264, -0.34657359027997264,
                  1.0397207708399179]))
POSITIVE = cat(np.exp(uniform(-744, 709, 4000)), SUBNORMAL,
               1 + both_signs(logspace(-52, -1, 2000)), uniform(0.5, 2, 2000),
               around([np.sqrt(2), np.sqrt(0.5), 1.0]), POWERS_OF_TWO,
               10.0 ** np.arange(-300, 300), 1.7976931348623157e308)
LOG1P = cat(-1 + logspace(-53, -1, 1000), uniform(-1, 1, 3000),
            both_signs(logspace(-80, -1, 2000)), np.exp(uniform(-5, 709, 2000)),
            around([0.41421356237309503, -0.2928932188134524]),
            1.7976931348623157e308, -0.9999999999999999)
UNIT = cat(uniform(-1, 1, 4000), both_signs(1 - logspace(-53, -1, 1500)),
           both_signs(logspace(-80, -1, 1500)),
           around([0.5, -0.5, 0.975, -0.975, 1.0, -1.0]))
WIDE = cat(both_signs(logspace(-1074, 1023, 4000)), uniform(-10, 10, 2000),
           both_signs(around([0.4375, 0.6875, 1.1875, 2.4375, 2.0, 2 ** 28,
                              2 ** 66], 2)))
HYPERBOLIC = cat(uniform(-711, 711, 3000), uniform(-25, 25, 2000),
                 both_signs(logspace(-60, 1, 2000)),
                 both_signs(around([22.0, 1.0, 0.34657359027997264,
                                    709.782712893384, 710.4758600739439])))
ERF = cat(uniform(-7, 7, 4000), uniform(-30, 30, 1000),
          both_signs(logspace(-1074, -1, 1500)),
          both_signs(around([0.84375, 1.25, 1 / 0.35, 6.0, 28.0, 0.25, 26.5,
                             27.2], 2)))

OPS = [
    unary("exp", long_double(np.exp), np.exp, EXP, 1,
          [1000, -1000, 710, -746], [0.0]),
    unary("exp2", long_double(np.exp2), np.exp2,
          cat(uniform(-1075, 1024, 3000), uniform(-3, 3, 2000),
              both_signs(logspace(-80, 0, 1000)), np.arange(-1080, 1030) + 0.5),
          1, [2000, -2000, 1024, -1075.5], np.arange(-1074, 1024)),
    unary("expm1", long_double(np.expm1), np.expm1,
          cat(uniform(-40, 709.7, 3000), uniform(-2, 2, 3000),
              both_signs(logspace(-80, 0, 2000)),
              around(both_signs([0.34657359027997264, 1.0397207708399179,
                                 13.862943611198906, 38.816242111356935]))),
          1, [1000, -1000, 710, -50], [0.0]),
    unary("log", long_double(np.log), np.log, POSITIVE, 1,
          [-1.0, -1e-300, -5e-324], [1.0]),
    unary("log2", long_double(np.log2), np.log2, POSITIVE, 1, [-1.0, -5e-324],
          POWERS_OF_TWO),
    unary("log10", long_double(np.log10), np.log10, POSITIVE, 1, [-1.0],
          10.0 ** np.arange(23)),
    unary("log1p", long_double(np.log1p), np.log1p, LOG1P, 1,
          [-1.0, -2.0], [0.0]),
    unary("sin", long_double(np.sin), np.sin, TRIG, 1),
    unary("cos", long_double(np.cos), np.cos, TRIG, 1, [], [0.0]),
    unary("tan", long_double(np.tan), np.tan, TRIG, 1),
    unary("sinh", long_double(np.sinh), np.sinh, HYPERBOLIC, 2, [1000, -1000]),
    unary("cosh", long_double(np.cosh), np.cosh, HYPERBOLIC, 2, [1000, -1000],
          [0.0]),
    unary("tanh", long_double(np.tanh), np.tanh, HYPERBOLIC, 3,
          [1000, -1000, 30, -30]),
    unary("asin", long_double(np.arcsin), np.arcsin, UNIT, 1, [2.0, -2.0]),
    unary("acos", long_double(np.arccos), np.arccos, UNIT, 1, [2.0, -2.0],
          [1.0]),
    unary("atan", long_double(np.arctan), np.arctan, WIDE, 1),
    unary("asinh", long_double(np.arcsinh), np.arcsinh, WIDE, 3),
    unary("acosh", long_double(np.arccosh), np.arccosh,
          cat(1 + logspace(-52, 1, 2000), logspace(0, 1023, 3000),
              uniform(1, 3, 2000), around([2.0, 2 ** 28], 2)),
          3, [0.5, -1.0], [1.0]),
    unary("atanh", long_double(np.arctanh), np.arctanh, UNIT, 3, [2.0, -2.0]),
    unary("erf", lambda x: ref_erf(x.astype(LD)), vectorized(math.erf),
          ERF, 1),
    unary("erfc", lambda x: ref_erfc(x.astype(LD)),
          vectorized(math.erfc), ERF, 3),
    # Not NumPy's float64 cbrt for the exact cubes: on some machines it
    # gives cbrt(-27) = -3.0000000000000004.
    unary("cbrt", long_double(np.cbrt),
          lambda x: long_double(np.cbrt)(x).astype(np.float64),
          cat(both_signs(logspace(-1074, 1023, 4000)), uniform(-10, 10, 2000),
              both_signs(SUBNORMAL)),
          1, [], [8.0, -27.0, 0.125, 2.0 ** -600, 2.0 ** 999]),
]

# atan2(y, x): all quadrants and magnitudes; a grid of special and
# ordinary values.
GRID = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 2.5, -2.5,
                 1e-300, -1e300, 5e-324])
grid_y, grid_x = [a.ravel() for a in np.meshgrid(GRID, GRID)]
atan2_y = cat(both_signs(logspace(-600, 600, 2000)), uniform(-10, 10, 3000))
atan2_x = cat(both_signs(logspace(-600, 600, 2000))[::-1], uniform(-10, 10, 3000))
OPS.append(Op("atan2", long_double(np.arctan2), np.arctan2, [atan2_y, atan2_x],
              2, [grid_y, grid_x], names=("y", "x")))


def pow_inputs():
    """(x, y) pairs: results over the whole range, bases near 1 with huge
    exponents (|y| > 2^31), negative bases with integer exponents,
    results near overflow and subnormal ones."""
    xs, ys = [], []

    def add(x, y):
        x, y = np.broadcast_arrays(np.asarray(x, float), np.asarray(y, float))
        xs.append(x.ravel())
        ys.append(y.ravel())

    base = np.exp(uniform(-700, 700, 6000))
    add(base, uniform(-1, 1, 6000) * 700 / np.abs(np.log(base)))
    near_one = 1 + both_signs(logspace(-52, -25, 1000))
    add(near_one, uniform(-700, 700, 2000) / np.log(near_one))
    add(1 + both_signs(logspace(-53, -20, 1000)),
        both_signs(logspace(20, 60, 1000)))
    count = 1000 * SCALE
    add(-np.exp(uniform(-20, 20, 1000)), rng.integers(-60, 60, count))
    add(2.0, uniform(1023.9, 1024.1, 500))
    add(2.0, uniform(-1075.1, -1021, 500))
    base = uniform(0.5, 0.99, 1000)
    add(base, uniform(-1074, -1022, 1000) / np.log2(base))
    add(uniform(0, 4, 2000), uniform(-40, 40, 2000))
    return [np.concatenate(xs), np.concatenate(ys)]


PGRID = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -0.5,
                  2.0, -2.0, 3.0, -3.0, 2.5, -2.5, 1e300, -1e300, 0.25,
                  1e-300])
pgrid_x, pgrid_y = [a.ravel() for a in np.meshgrid(PGRID, PGRID)]
int_base = rng.integers(2, 30, 500).astype(np.float64)
int_exponent = np.floor(rng.uniform(0, 1, 500) * 53 / np.log2(int_base))
OPS.append(Op("powf", long_double(np.power), np.power, pow_inputs(), 1,
              [pgrid_x, pgrid_y],
              [cat(int_base, -int_base), cat(int_exponent, int_exponent)],
              names=("x", "y")))

fpowi_x = cat(uniform(-3, 3, 3000), np.exp(uniform(-30, 30, 2000)))
fpowi_k = rng.integers(-200, 200, fpowi_x.size)
OPS.append(Op("fpowi", lambda x, k: np.power(x.astype(LD), k.astype(LD)),
              lambda x, k: np.power(x, k.astype(np.float64)),
              [fpowi_x, fpowi_k], 1,
              [np.repeat([0.0, -0.0, np.inf, -np.inf, np.nan, -2.0, 2.0, -1.0,
                          1.0], 9), np.tile(np.arange(-4, 5), 9)],
              [np.array([3.0, -3.0, 2.0, -2.0, 10.0]),
               np.array([20, 21, -10, 1023, 22])],
              names=("x", "k")))

# On the CPU, upstream lowers these without the C library (see above).
NOT_ON_CPU = {"expm1", "log1p", "cbrt", "fpowi"}


def run(op, args, workdir, tag, target, outputs=1):
    command = ["vr-run", SOURCE, "--entry", "math_" + op]
    for name, value in zip(("x",) if op == "sincos" else OP_NAMES[op], args):
        path = os.path.join(workdir, f"{op}-{tag}-{name}.npy")
        np.save(path, np.ascontiguousarray(value))
        command += ["--arg", f"{name}={path}"]
    paths = [os.path.join(workdir, f"{op}-{tag}-result{i}.npy")
             for i in range(outputs)]
    for path in paths:
        command += ["--out", path]
    if target != "cpu":
        command.append(f"--target={target}")
    completed = subprocess.run(command, capture_output=True, text=True)
    if completed.returncode != 0:
        sys.exit(f"{op}: vr-run failed ({completed.returncode}):\n"
                 f"{' '.join(command)}\n{completed.stderr}")
    return [np.load(path) for path in paths]


OP_NAMES = {op.name: op.names for op in OPS}


def ulp_error(got, ref):
    """|got - ref| in ulps of the double nearest to ref."""
    with np.errstate(all="ignore"):
        spacing = np.spacing(np.abs(ref.astype(np.float64))).astype(LD)
        return np.abs(got.astype(LD) - ref) / spacing


def same_bits(got, want):
    return (np.isnan(got) & np.isnan(want)) | (
        (got == want) & (np.signbit(got) == np.signbit(want)))


def describe(args, i):
    return ", ".join(repr(float(a[i])) for a in args)


def check_values(label, args, got, ref, max_ulp, failures):
    """The ulp bound where the result is finite, exact infinities, zeros
    and NaN elsewhere; the largest error."""
    with np.errstate(all="ignore"):
        ref64 = ref.astype(np.float64)
    finite = np.isfinite(ref64)
    err = np.where(finite, ulp_error(got, ref), 0)
    worst = int(np.argmax(err))
    if err[worst] > max_ulp:
        failures.append(f"{label}: error {float(err[worst]):.3g} ulp > "
                        f"{max_ulp} at ({describe(args, worst)}): got "
                        f"{got[worst]!r}, want {float(ref[worst])!r}")
    wrong = ~finite & ~same_bits(got, ref64)
    for i in np.flatnonzero(wrong)[:5]:
        failures.append(f"{label}: at ({describe(args, i)}) got {got[i]!r}, "
                        f"want {ref64[i]!r}")
    return float(err[worst]), worst


def check_op(op, workdir, target, max_ulp, failures, report):
    label = f"{op.name} on {target}"
    got = run(op.name, op.inputs, workdir, "values", target)[0]
    err, worst = check_values(label, op.inputs, got, op.reference(*op.inputs),
                              max_ulp, failures)
    report.append(f"{op.name:6s} {got.size:7d} inputs: max error {err:.3f} "
                  f"ulp at ({describe(op.inputs, worst)})")
    # Special values bit for bit, the other points of a grid within the
    # bound.
    if op.specials:
        got = run(op.name, op.specials, workdir, "special", target)[0]
        with np.errstate(all="ignore"):
            want = op.exact(*op.specials)
            ref = op.reference(*op.specials)
        special = ~np.isfinite(want) | (want == 0)
        for a in op.specials:
            if a.dtype.kind == "f":
                special |= ~np.isfinite(a) | (a == 0)
        err = np.where(special, 0, ulp_error(got, ref))
        bad = (special & ~same_bits(got, want)) | (err > max_ulp)
        for i in np.flatnonzero(bad)[:5]:
            failures.append(f"{label}: special case ({describe(op.specials, i)}):"
                            f" got {got[i]!r}, want {want[i]!r}")
    if op.exacts:
        got = run(op.name, op.exacts, workdir, "exact", target)[0]
        want = op.exact(*op.exacts)
        for i in np.flatnonzero(~same_bits(got, want))[:5]:
            failures.append(f"{label}: exact case ({describe(op.exacts, i)}): "
                            f"got {got[i]!r}, want {want[i]!r}")


def check_sincos(workdir, target, failures):
    x = cat(TRIG, SPECIAL)
    sine, cosine = run("sincos", [x], workdir, "values", target, outputs=2)
    for name, got, fn in (("sin", sine, np.sin), ("cos", cosine, np.cos)):
        with np.errstate(all="ignore"):
            check_values(f"sincos ({name}) on {target}", [x], got,
                         fn(x.astype(LD)), 1, failures)


def main():
    workdir = sys.argv[1]
    target = next((a.split("=", 1)[1] for a in sys.argv[2:]
                   if a.startswith("--target=")), "cpu")
    os.makedirs(workdir, exist_ok=True)
    failures, report = [], []
    for op in OPS:
        if target == "cpu" and op.name in NOT_ON_CPU:
            continue
        max_ulp = max(op.max_ulp, 2) if target == "cpu" else op.max_ulp
        check_op(op, workdir, target, max_ulp, failures, report)
    check_sincos(workdir, target, failures)
    print("\n".join(report))
    if failures:
        sys.exit("\n".join(failures))
    print(f"ok: {target}")


if __name__ == "__main__":
    main()
