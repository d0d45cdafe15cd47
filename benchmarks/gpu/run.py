#!/usr/bin/env python3
"""VRIR on the GPU against hand-written CUDA C (benchmarks/gpu/README.md).

For each kernel of kernels.mlir and each VRIR GPU target, the per-step
device time is

    (median call time with S2 steps - median call time with S1 steps) / (S2 - S1)

from `vr-run --repeat R --time` (each call uploads the inputs, runs the
steps with the arrays resident on the device, downloads what it wrote; the
difference removes everything that happens once per call). The CUDA peers
(cuda/peers.cu) time their steps with cudaEvents. Same machine, same run.

    python3 benchmarks/gpu/run.py --smoke --targets opencl,vulkan   # any machine
    python3 benchmarks/gpu/run.py --sizes h100 --targets opencl,vulkan \\
        --json results.json                                         # on the GPU

Needs only the Python standard library (NumPy for --smoke, which checks
every kernel's results against NumPy on tiny inputs).
"""

import argparse
import datetime
import json
import math
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
KERNELS_FILE = os.path.join(HERE, "kernels.mlir")
DEFAULT_VR_RUN = os.path.join(REPO, "build", "bin", "vr-run")
DEFAULT_CUDA_BIN = os.path.join(HERE, "build", "peers")
CUDA_BUILD = os.path.join(HERE, "cuda", "build.sh")

GPU_TARGETS = ("opencl", "vulkan")

# ---------------------------------------------------------------------------
# Kernels: vr-run arguments, work per step, CUDA peer
# ---------------------------------------------------------------------------


def _sq(n):
    return "%dx%d" % (n, n)


class Kernel:
    def __init__(self, name, args, bytes_per_step, flops_per_step, peer,
                 size_label, rate="GB/s", note=""):
        self.name = name
        self.args = args                  # (n, steps) -> list of --arg values
        self.bytes_per_step = bytes_per_step  # n -> bytes
        self.flops_per_step = flops_per_step  # n -> flops
        self.peer = peer                  # CUDA peer kernel name
        self.size_label = size_label      # n -> text
        self.rate = rate                  # "GB/s" or "GFLOP/s"
        self.note = note


def _pow2_label(n, what):
    k = int(round(math.log2(n))) if n > 0 else 0
    return ("2^%d %s" % (k, what)) if n == 1 << k else ("%d %s" % (n, what))


KERNELS = [
    Kernel("triad",
           lambda n, s: ["a=rand:%d" % n, "b=rand:%d" % n, "c=rand:%d" % n,
                         "s=3.0", "steps=%d" % s],
           lambda n: 24.0 * n, lambda n: 2.0 * n, "triad",
           lambda n: _pow2_label(n, "f64")),
    Kernel("triad_checked",
           lambda n, s: ["a=rand:%d" % n, "b=rand:%d" % n, "c=rand:%d" % n,
                         "s=3.0", "steps=%d" % s],
           lambda n: 24.0 * n, lambda n: 2.0 * n, "triad",
           lambda n: _pow2_label(n, "f64"),
           note="triad with VRIR's default bounds checks"),
    Kernel("jacobi2d",
           lambda n, s: ["A=rand:" + _sq(n), "B=rand:" + _sq(n),
                         "steps=%d" % s],
           # Two sweeps per step; each reads A once and writes the interior.
           lambda n: 2 * 8.0 * (n * n + (n - 2) ** 2),
           lambda n: 2 * 5.0 * (n - 2) ** 2, "jacobi2d",
           lambda n: _sq(n) + " f64, 2 sweeps"),
    Kernel("sum",
           lambda n, s: ["x=rand:%d" % n, "steps=%d" % s],
           lambda n: 8.0 * n, lambda n: 1.0 * n, "sum",
           lambda n: _pow2_label(n, "f64")),
    Kernel("matmul",
           lambda n, s: ["A=rand:" + _sq(n), "B=rand:" + _sq(n),
                         "steps=%d" % s],
           lambda n: 24.0 * n * n, lambda n: 2.0 * n ** 3, "matmul",
           lambda n: _sq(n) + " f64", rate="GFLOP/s",
           note="vrir.matmul in a section; CUDA: 32x32 shared-memory tiles"),
    Kernel("sgemm",
           lambda n, s: ["A=rand:" + _sq(n), "B=rand:" + _sq(n),
                         "steps=%d" % s],
           lambda n: 12.0 * n * n, lambda n: 2.0 * n ** 3, "sgemm",
           lambda n: _sq(n) + " f32", rate="GFLOP/s",
           note="vrir.matmul on f32 in a section; CUDA: 32x32 shared-memory "
                "tiles"),
    Kernel("matmul_loops",
           lambda n, s: ["A=rand:" + _sq(n), "B=rand:" + _sq(n),
                         "C=zeros:" + _sq(n), "steps=%d" % s],
           lambda n: 24.0 * n * n, lambda n: 2.0 * n ** 3, "matmul",
           lambda n: _sq(n) + " f64", rate="GFLOP/s",
           note="pfor over C with a serial dot product; CUDA: tiled"),
    Kernel("scale_cm",
           lambda n, s: ["A=rand:" + _sq(n), "B=zeros:" + _sq(n),
                         "alpha=3.0", "steps=%d" % s],
           lambda n: 8.0 * n * n, lambda n: 1.0 * n * n, "scale_cm",
           lambda n: _sq(n) + " f32 col-major"),
]
KERNEL_BY_NAME = {k.name: k for k in KERNELS}

# Problem sizes and step counts (S1, S2) per size set. S2 - S1 is chosen so
# that the extra steps take ~0.5 s or more on an H100 at CUDA's speed, which
# keeps the noise of the per-call transfers (hundreds of ms for GiB arrays)
# small against the difference.
SIZES = {
    "h100": {
        "triad": (1 << 27, 10, 810),
        "triad_checked": (1 << 27, 10, 810),
        "jacobi2d": (8192, 10, 610),
        "sum": (1 << 27, 10, 1610),
        "matmul": (4096, 1, 5),
        "sgemm": (4096, 1, 11),
        "matmul_loops": (4096, 1, 5),
        "scale_cm": (8192, 10, 2010),
    },
    "small": {
        "triad": (1 << 22, 10, 210),
        "triad_checked": (1 << 22, 10, 210),
        "jacobi2d": (1024, 10, 210),
        "sum": (1 << 22, 10, 210),
        "matmul": (512, 2, 12),
        "sgemm": (512, 2, 12),
        "matmul_loops": (512, 2, 12),
        "scale_cm": (1024, 10, 210),
    },
    # Only to exercise the timing path in --smoke (numbers mean nothing).
    "smoke": {
        "triad": (4096, 1, 3),
        "triad_checked": (4096, 1, 3),
        "jacobi2d": (64, 1, 3),
        "sum": (4096, 1, 3),
        "matmul": (32, 1, 3),
        "sgemm": (32, 1, 3),
        "matmul_loops": (32, 1, 3),
        "scale_cm": (64, 1, 3),
    },
}

# CUDA-only reference rows (not peers of a VRIR kernel).
CUDA_REFERENCES = {
    "sum_device": ("sum", "sum without the per-step copy of the result to "
                          "the host"),
    "matmul_naive": ("matmul", "one thread per element, untiled (the shape "
                               "of VRIR's kernels)"),
    "matmul_cublas": ("matmul", "cuBLAS DGEMM"),
    "sgemm_cublas": ("sgemm", "cuBLAS SGEMM, default math mode (no TF32)"),
}

# ---------------------------------------------------------------------------
# Running vr-run
# ---------------------------------------------------------------------------

RUN_RE = re.compile(r"run: median ([0-9.eE+-]+) ms, min ([0-9.eE+-]+) ms "
                    r"over (\d+) runs")
COMPILE_RE = re.compile(r"^compile: ([0-9.]+) ms", re.M)
STATS_RE = re.compile(r"gpu stats: (.*)")
DEVICE_RE = re.compile(r"VRIR GPU: (OpenCL device .*|Vulkan device [^(]*)")


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def last_line(text):
    lines = text.strip().splitlines()
    return lines[-1] if lines else ""


def tail(text, lines=6):
    return "\n".join(text.strip().splitlines()[-lines:])


def vr_run(args, entry, target, arg_values, extra=(), timeout=900, env=None):
    """Runs vr-run; returns (returncode, stdout, stderr, seconds)."""
    cmd = [args.vr_run, args.kernels_file, "--entry", entry,
           "--target=%s" % target]
    for value in arg_values:
        cmd += ["--arg", value]
    cmd += list(extra)
    cmd += list(args.vr_run_flag or [])
    full_env = dict(os.environ)
    full_env.update(env or {})
    start = time.time()
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True,
                              timeout=timeout, env=full_env)
    except subprocess.TimeoutExpired:
        return (124, "", "timed out after %d s: %s" % (timeout, " ".join(cmd)),
                time.time() - start)
    except OSError as error:
        return 127, "", "cannot run %s: %s" % (args.vr_run, error), 0.0
    return proc.returncode, proc.stdout, proc.stderr, time.time() - start


def parse_stats(stderr):
    m = STATS_RE.search(stderr)
    if not m:
        return {}
    stats = {}
    for item in m.group(1).split():
        key, _, value = item.partition("=")
        try:
            stats[key] = float(value) if "." in value else int(value)
        except ValueError:
            pass
    return stats


def time_call(args, kernel, target, n, steps):
    """Median and min call time (ms) of `repeat` calls with `steps` steps."""
    rc, out, err, secs = vr_run(
        args, kernel.name, target, kernel.args(n, steps),
        ["--repeat", str(args.repeat), "--time", "--stats"],
        timeout=args.timeout, env={"VRIR_GPU_VERBOSE": "1"})
    if rc != 0:
        return {"error": "vr-run exit %d: %s" % (rc, tail(err))}
    m = RUN_RE.search(err)
    if not m:
        return {"error": "no timing line in vr-run output: " + tail(err)}
    result = {"median_ms": float(m.group(1)), "min_ms": float(m.group(2)),
              "runs": int(m.group(3)), "stats": parse_stats(err),
              "process_s": round(secs, 2)}
    c = COMPILE_RE.search(err)
    if c:
        result["compile_ms"] = float(c.group(1))
    d = DEVICE_RE.search(err)
    if d:
        result["device"] = d.group(1).strip()
    return result


def probe_target(args, target):
    """(None, device name) if `target` runs a tiny triad, else (error, None)."""
    rc, out, err, _ = vr_run(
        args, "triad", target,
        ["a=zeros:1000", "b=ones:1000", "c=ones:1000", "s=2.0", "steps=1"],
        timeout=300, env={"VRIR_GPU_VERBOSE": "1"})
    if rc != 0:
        return "vr-run exit %d: %s" % (rc, tail(err)), None
    d = DEVICE_RE.search(err)
    return None, (d.group(1).strip() if d else "?")


def measure_vrir(args, kernel, target, n, s1, s2):
    log("  %s on %s: n=%s, steps %d and %d, %d calls each"
        % (kernel.name, target, n, s1, s2, args.repeat))
    row = {"impl": "vrir", "target": target, "kernel": kernel.name, "n": n,
           "size": kernel.size_label(n), "s1": s1, "s2": s2,
           "repeat": args.repeat}
    t1 = time_call(args, kernel, target, n, s1)
    if "error" in t1:
        row["error"] = t1["error"]
        log("    n/a: " + t1["error"].replace("\n", "\n    "))
        return row
    t2 = time_call(args, kernel, target, n, s2)
    if "error" in t2:
        row["error"] = t2["error"]
        log("    n/a: " + t2["error"].replace("\n", "\n    "))
        return row
    row["s1_call"] = t1
    row["s2_call"] = t2
    row["device"] = t2.get("device", t1.get("device", "?"))
    row["call_ms_s1"] = t1["median_ms"]
    per_step = (t2["median_ms"] - t1["median_ms"]) / (s2 - s1)
    per_step_min = (t2["min_ms"] - t1["min_ms"]) / (s2 - s1)
    row["ms_per_step"] = per_step
    row["ms_per_step_min"] = per_step_min
    row["bytes_per_step"] = kernel.bytes_per_step(n)
    row["flops_per_step"] = kernel.flops_per_step(n)
    if per_step > 0:
        row["gb_per_s"] = row["bytes_per_step"] / (per_step * 1e6)
        row["gflop_per_s"] = row["flops_per_step"] / (per_step * 1e6)
    else:
        row["warning"] = ("the S2 calls were not slower than the S1 calls: "
                          "too few steps for this size (use --steps)")
    # Residency: the transfers of a call must not grow with the steps.
    u1 = t1["stats"].get("uploads")
    u2 = t2["stats"].get("uploads")
    if u1 is not None and u2 is not None and u2 != u1:
        row["warning_uploads"] = ("uploads grew with the step count (%s with "
                                  "%d steps, %s with %d): arrays did not stay "
                                  "on the device" % (u1, s1, u2, s2))
        log("    WARNING: " + row["warning_uploads"])
    log("    %.4f ms/step (min-based %.4f); call with %d steps %.1f ms; "
        "device: %s" % (per_step, per_step_min, s1, t1["median_ms"],
                        row["device"]))
    return row


# ---------------------------------------------------------------------------
# CUDA peers
# ---------------------------------------------------------------------------


def find_cuda_bin(args):
    if os.path.exists(args.cuda_bin):
        return args.cuda_bin, None
    nvcc = shutil.which("nvcc") or (
        "/usr/local/cuda/bin/nvcc"
        if os.path.exists("/usr/local/cuda/bin/nvcc") else None)
    if not nvcc or args.cuda_bin != DEFAULT_CUDA_BIN:
        return None, "no CUDA peer binary at %s (build it with %s)" % (
            args.cuda_bin, CUDA_BUILD)
    log("building the CUDA peers with %s" % nvcc)
    proc = subprocess.run(["sh", CUDA_BUILD, nvcc], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True)
    if proc.returncode != 0 or not os.path.exists(args.cuda_bin):
        return None, "building the CUDA peers failed: " + tail(proc.stdout)
    return args.cuda_bin, None


def run_cuda(args, plan):
    """Runs the peers of the planned kernels; returns (rows, error)."""
    binary, error = find_cuda_bin(args)
    if error:
        return [], error
    kernels, ns, steps = [], {}, {}
    for name, (n, s1, s2) in plan.items():
        peer = KERNEL_BY_NAME[name].peer
        if peer not in kernels:
            kernels.append(peer)
            ns[peer] = n
            steps[peer] = max(s2 - s1, 1)
    for ref, (base, _) in CUDA_REFERENCES.items():
        if base in kernels and ref not in kernels:
            if ref.endswith("_cublas") and args.no_cublas:
                continue
            kernels.append(ref)
            ns[ref] = ns[base]
            steps[ref] = steps[base]
    cmd = [binary, "--kernels", ",".join(kernels), "--reps",
           str(args.cuda_reps)]
    for k in kernels:
        cmd += ["--n", "%s=%d" % (k, ns[k]), "--steps", "%s=%d" % (k, steps[k])]
    if args.cublas_lib:
        cmd += ["--cublas-lib", args.cublas_lib]
    log("CUDA peers: " + " ".join(cmd))
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True,
                              timeout=args.timeout)
    except (OSError, subprocess.TimeoutExpired) as error:
        return [], "CUDA peers failed: %s" % error
    if proc.stderr.strip():
        log(proc.stderr.rstrip())
    rows = []
    for line in proc.stdout.splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                rows.append(json.loads(line))
            except ValueError:
                log("unparsable peer line: " + line)
    if proc.returncode != 0 and not rows:
        return [], "CUDA peers exit %d: %s" % (proc.returncode,
                                               tail(proc.stderr))
    return rows, None


# ---------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------


def fmt_ms(value):
    if value is None:
        return "n/a"
    if value >= 100:
        return "%.1f" % value
    if value >= 1:
        return "%.3f" % value
    return "%.4f" % value


def fmt_rate(value):
    if value is None:
        return "n/a"
    return "%.0f" % value if value >= 100 else "%.1f" % value


def rate_of(row, kernel):
    if not row or row.get("ms_per_step") is None or row["ms_per_step"] <= 0:
        return None
    if kernel.rate == "GFLOP/s":
        return row.get("flops_per_step", 0) / (row["ms_per_step"] * 1e6)
    return row.get("bytes_per_step", 0) / (row["ms_per_step"] * 1e6)


def print_table(results, targets, out=sys.stdout):
    vr = results["vrir"]
    cuda = {r["kernel"]: r for r in results["cuda"] if "ms_per_step" in r}
    heads = ["kernel", "size"]
    heads += ["VRIR-%s ms/step" % t for t in targets]
    heads += ["CUDA ms/step"]
    heads += ["CUDA/VRIR-%s" % t for t in targets]
    heads += ["rate VRIR-%s" % t for t in targets] + ["rate CUDA", "unit"]
    rows = []
    for name in results["plan"]:
        kernel = KERNEL_BY_NAME[name]
        n = results["plan"][name][0]
        peer = cuda.get(kernel.peer)
        line = [name, kernel.size_label(n)]
        per = {}
        for t in targets:
            r = vr.get(name, {}).get(t)
            ms = r.get("ms_per_step") if r and "error" not in r else None
            per[t] = (ms if ms and ms > 0 else None), r
            line.append(fmt_ms(ms) if ms is None or ms > 0
                        else "noisy (%.4f)" % ms)
        line.append(fmt_ms(peer["ms_per_step"]) if peer else "n/a")
        for t in targets:
            ms = per[t][0]
            line.append("%.2f" % (peer["ms_per_step"] / ms)
                        if peer and ms else "n/a")
        for t in targets:
            line.append(fmt_rate(rate_of(per[t][1], kernel)
                                 if per[t][0] else None))
        line.append(fmt_rate(rate_of(peer, kernel)) if peer else "n/a")
        line.append(kernel.rate)
        rows.append(line)
    _print_markdown(heads, rows, out)

    # Whole calls (S1 steps, transfers included) and residency counters.
    print("", file=out)
    heads = ["kernel", "target", "steps", "call ms (median)",
             "compile ms (vr-run)", "GPU compile ms", "kernels", "uploads",
             "downloads", "MB up", "MB down", "device"]
    rows = []
    for name in results["plan"]:
        for t in targets:
            r = vr.get(name, {}).get(t)
            if not r or "error" in r:
                continue
            c = r["s1_call"]
            st = c.get("stats", {})
            runs = max(c.get("runs", 1), 1)
            rows.append([name, t, str(r["s1"]), fmt_ms(c["median_ms"]),
                         "%.0f" % c.get("compile_ms", float("nan")),
                         "%.0f" % st.get("compile_ms", float("nan")),
                         "%.0f" % (st.get("kernels", 0) / runs),
                         "%.0f" % (st.get("uploads", 0) / runs),
                         "%.0f" % (st.get("downloads", 0) / runs),
                         "%.1f" % (st.get("bytes_uploaded", 0) / runs / 1e6),
                         "%.1f" % (st.get("bytes_downloaded", 0) / runs / 1e6),
                         r.get("device", "?")])
    if rows:
        print("Whole calls with S1 steps (upload, steps, download; GPU "
              "counters per call):", file=out)
        _print_markdown(heads, rows, out)

    refs = [r for r in results["cuda"] if r.get("kernel") in CUDA_REFERENCES]
    if refs:
        print("", file=out)
        print("CUDA references:", file=out)
        heads = ["kernel", "size", "ms/step", "rate", "unit", "what"]
        rows = []
        for r in refs:
            base = KERNEL_BY_NAME[CUDA_REFERENCES[r["kernel"]][0]]
            if "ms_per_step" not in r:
                rows.append([r["kernel"], "", "n/a", "", "",
                             r.get("skipped", "")])
                continue
            rows.append([r["kernel"], base.size_label(r.get("n", 0)),
                         fmt_ms(r["ms_per_step"]),
                         fmt_rate(rate_of(r, base)), base.rate,
                         CUDA_REFERENCES[r["kernel"]][1]])
        _print_markdown(heads, rows, out)

    for t in targets:
        err = results["targets"].get(t, {}).get("error")
        if err:
            print("\n%s: n/a (%s)" % (t, last_line(err)), file=out)
    errors = [(name, t, r["error"]) for name, per in vr.items()
              for t, r in per.items()
              if "error" in r and "error" not in results["targets"].get(t, {})]
    for name, t, err in errors:
        print("%s on %s: n/a: %s" % (name, t, last_line(err)),
              file=out)
    if results.get("cuda_error"):
        print("CUDA: n/a (%s)" % last_line(results["cuda_error"]),
              file=out)
    for name, per in vr.items():
        for t, r in per.items():
            for key in ("warning", "warning_uploads"):
                if key in r:
                    print("%s on %s: %s" % (name, t, r[key]), file=out)


def _print_markdown(heads, rows, out, text_columns=("kernel", "size",
                                                     "target", "device",
                                                     "what")):
    """A Markdown table: text columns left-aligned, numbers right-aligned."""
    widths = [max([len(h)] + [len(r[i]) for r in rows])
              for i, h in enumerate(heads)]
    left = [h in text_columns for h in heads]
    print("| " + " | ".join(h.ljust(w) for h, w in zip(heads, widths))
          + " |", file=out)
    print("|" + "|".join("-" * (w + 2) if l else "-" * (w + 1) + ":"
                         for w, l in zip(widths, left)) + "|", file=out)
    for r in rows:
        print("| " + " | ".join(c.ljust(w) if l else c.rjust(w)
                                for c, w, l in zip(r, widths, left))
              + " |", file=out)


# ---------------------------------------------------------------------------
# Smoke test: results against NumPy on tiny inputs
# ---------------------------------------------------------------------------


def smoke_checks(args, targets):
    """Runs every kernel on tiny inputs on cpu and each target; compares
    with NumPy. Returns the list of failures."""
    try:
        import numpy as np
    except ImportError:
        sys.exit("--smoke needs NumPy (%s has none)" % sys.executable)

    rng = np.random.default_rng(7)
    tmp = tempfile.mkdtemp(prefix="vrir-gpu-smoke-")
    failures = []

    def save(name, array):
        path = os.path.join(tmp, name + ".npy")
        np.save(path, array)
        return path

    def jacobi_ref(A, B, steps):
        A, B = A.copy(), B.copy()
        for _ in range(steps):
            for src, dst in ((A, B), (B, A)):
                s = src[1:-1, 1:-1] + src[1:-1, :-2]
                s = s + src[1:-1, 2:]
                s = s + src[2:, 1:-1]
                s = s + src[:-2, 1:-1]
                dst[1:-1, 1:-1] = s * 0.2
        return A, B

    n1 = 1000 + 7  # not a multiple of the work-group size
    b = rng.random(n1)
    c = rng.random(n1)
    jn = 37
    JA = rng.random((jn, jn))
    JB = rng.random((jn, jn))
    JA2, JB2 = jacobi_ref(JA, JB, 2)
    x = rng.random(n1)
    MA = rng.random((7, 5))
    MB = rng.random((5, 6))
    # Past one 64x64 tile of C both ways, with a partial last tile of k.
    SGA = rng.random((70, 33)).astype(np.float32)
    SGB = rng.random((33, 65)).astype(np.float32)
    SA = np.asfortranarray(rng.random((37, 29)).astype(np.float32))
    cases = [
        # (entry, args, outputs {label: expected}, scalar expected, rtol)
        ("triad", ["a=" + save("a", np.zeros(n1)), "b=" + save("b", b),
                   "c=" + save("c", c), "s=3.0", "steps=3"],
         {"a": b + 3.0 * c}, None, 1e-15),
        ("triad_checked", ["a=" + save("a", np.zeros(n1)),
                           "b=" + save("b", b), "c=" + save("c", c), "s=3.0",
                           "steps=3"],
         {"a": b + 3.0 * c}, None, 1e-15),
        ("jacobi2d", ["A=" + save("JA", JA), "B=" + save("JB", JB),
                      "steps=2"],
         {"A": JA2, "B": JB2}, None, 1e-15),
        ("sum", ["x=" + save("x", x), "steps=3"], {}, 3 * np.sum(x), 1e-13),
        ("matmul", ["A=" + save("MA", MA), "B=" + save("MB", MB), "steps=2"],
         {"": MA @ MB}, None, 1e-14),
        ("sgemm", ["A=" + save("SGA", SGA), "B=" + save("SGB", SGB),
                   "steps=2"],
         {"": SGA @ SGB}, None, 1e-5),
        ("matmul_loops", ["A=" + save("MA", MA), "B=" + save("MB", MB),
                          "C=" + save("MC", np.zeros((7, 6))), "steps=2"],
         {"C": MA @ MB}, None, 1e-14),
        ("scale_cm", ["A=" + save("SA", SA),
                      "B=" + save("SB", np.zeros_like(SA)), "alpha=3.0",
                      "steps=2"],
         {"B": np.float32(3.0) * SA}, None, 0.0),
    ]
    selected = set(args.kernels)
    report = []
    for target in ["cpu"] + list(targets):
        for entry, values, outputs, scalar, rtol in cases:
            if entry not in selected:
                continue
            extra = []
            files = {}
            for label in outputs:
                path = os.path.join(tmp, "out_%s_%s_%s.npy"
                                    % (entry, target, label or "result"))
                if os.path.exists(path):
                    os.remove(path)
                files[label] = path
                extra += ["--out", ("%s=%s" % (label, path)) if label
                          else path]
            # vr-run reads the input files; results go to other files.
            rc, out, err, _ = vr_run(args, entry, target, values, extra,
                                     timeout=600)
            what = "%s on %s" % (entry, target)
            if rc != 0:
                failures.append("%s: vr-run exit %d:\n%s" % (what, rc,
                                                             tail(err, 20)))
                report.append((what, "FAILED (exit %d)" % rc))
                continue
            worst = 0.0
            ok = True
            for label, want in outputs.items():
                got = np.load(files[label])
                if got.shape != want.shape:
                    ok = False
                    failures.append("%s: %s has shape %s, expected %s"
                                    % (what, label or "result", got.shape,
                                       want.shape))
                    continue
                scale = max(float(np.max(np.abs(want))), 1e-300)
                err_ = float(np.max(np.abs(got.astype(np.float64)
                                           - want.astype(np.float64))))
                rel = err_ / scale
                worst = max(worst, rel)
                if not rel <= rtol:
                    ok = False
                    failures.append("%s: %s differs from NumPy: max rel err "
                                    "%.3e > %.1e" % (what, label or "result",
                                                     rel, rtol))
            if scalar is not None:
                m = re.search(r"result 0: (\S+)", out)
                got = float(m.group(1)) if m else float("nan")
                rel = abs(got - scalar) / abs(scalar)
                worst = max(worst, rel)
                if not rel <= rtol:
                    ok = False
                    failures.append("%s: result %r, NumPy %r (rel err %.3e)"
                                    % (what, got, scalar, rel))
            report.append((what, ("ok" if ok else "FAILED")
                           + " (max rel err %.1e)" % worst))
    for what, status in report:
        print("  %-28s %s" % (what, status))
    shutil.rmtree(tmp, ignore_errors=True)
    return failures


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------


def parse_steps(values):
    steps = {}
    for v in values or []:
        name, _, rest = v.partition("=")
        s1, _, s2 = rest.partition(",")
        try:
            steps[name] = (int(s1), int(s2))
        except ValueError:
            sys.exit("--steps expects KERNEL=S1,S2, got %r" % v)
        if steps[name][1] <= steps[name][0]:
            sys.exit("--steps %s: S2 must be larger than S1" % v)
    return steps


def parse_sizes(values):
    sizes = {}
    for v in values or []:
        name, _, n = v.partition("=")
        try:
            sizes[name] = int(n)
        except ValueError:
            sys.exit("--n expects KERNEL=N, got %r" % v)
    return sizes


def main():
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--vr-run", default=os.environ.get("VR_RUN", DEFAULT_VR_RUN),
                   help="vr-run binary (default: build/bin/vr-run, or $VR_RUN)")
    p.add_argument("--kernels-file", default=KERNELS_FILE,
                   help="the VRIR module (default: kernels.mlir here)")
    p.add_argument("--cuda-bin", default=DEFAULT_CUDA_BIN,
                   help="CUDA peer binary (default: build/peers here; built "
                        "with cuda/build.sh when missing and nvcc exists)")
    p.add_argument("--cublas-lib", default="",
                   help="path of libcublas.so.* for matmul_cublas")
    p.add_argument("--no-cublas", action="store_true",
                   help="skip the cuBLAS DGEMM reference")
    p.add_argument("--no-cuda", action="store_true",
                   help="do not run the CUDA peers")
    p.add_argument("--targets", default="opencl,vulkan",
                   help="VRIR targets, comma-separated (opencl, vulkan, "
                        "cpu, opencl-spirv)")
    p.add_argument("--kernels", default=",".join(k.name for k in KERNELS),
                   help="kernels, comma-separated (default: all)")
    p.add_argument("--sizes", default="h100", choices=["small", "h100"],
                   help="problem sizes and step counts (default: h100)")
    p.add_argument("--n", action="append", metavar="KERNEL=N",
                   help="override a kernel's size")
    p.add_argument("--steps", action="append", metavar="KERNEL=S1,S2",
                   help="override a kernel's two step counts")
    p.add_argument("--repeat", type=int, default=5,
                   help="vr-run calls per step count (median; default 5)")
    p.add_argument("--cuda-reps", type=int, default=7,
                   help="timed repetitions of the CUDA peers (default 7)")
    p.add_argument("--timeout", type=int, default=1200,
                   help="seconds allowed per vr-run or peer process")
    p.add_argument("--vr-run-flag", action="append", metavar="FLAG",
                   help="pass FLAG to every vr-run call (repeatable), e.g. "
                        "--vr-run-flag=--gpu-matmul-tiling=128,128,8,16,16")
    p.add_argument("--json", help="write all results to this JSON file")
    p.add_argument("--smoke", action="store_true",
                   help="tiny sizes: check results against NumPy on cpu and "
                        "each target, then exercise the timing (no CUDA)")
    args = p.parse_args()

    targets = [t for t in args.targets.split(",") if t]
    args.kernels = [k for k in args.kernels.split(",") if k]
    for k in args.kernels:
        if k not in KERNEL_BY_NAME:
            sys.exit("unknown kernel %r (have: %s)"
                     % (k, ", ".join(KERNEL_BY_NAME)))
    if not os.path.exists(args.vr_run):
        sys.exit("no vr-run at %s (use --vr-run)" % args.vr_run)
    if args.repeat < 1:
        sys.exit("--repeat must be at least 1")

    sizes = "smoke" if args.smoke else args.sizes
    n_over = parse_sizes(args.n)
    s_over = parse_steps(args.steps)
    plan = {}
    for k in args.kernels:
        n, s1, s2 = SIZES[sizes][k]
        n = n_over.get(k, n)
        s1, s2 = s_over.get(k, (s1, s2))
        plan[k] = (n, s1, s2)

    results = {
        "date": datetime.datetime.now().isoformat(timespec="seconds"),
        "host": platform.node(), "vr_run": os.path.abspath(args.vr_run),
        "kernels_file": os.path.abspath(args.kernels_file),
        "sizes": sizes, "repeat": args.repeat, "targets": {},
        "plan": plan, "vrir": {}, "cuda": [], "method":
        "VRIR ms/step = (median call ms with S2 steps - median call ms with "
        "S1 steps) / (S2 - S1), vr-run --repeat R --time; CUDA: cudaEvents "
        "around S2-S1 steps after a warm-up, median of reps"}

    status = 0
    if args.smoke:
        if args.repeat == 5:
            args.repeat = 3
        print("Smoke test: results against NumPy (tiny inputs)")
        failures = smoke_checks(args, targets)
        results["smoke_failures"] = failures
        if failures:
            status = 1
            print("\nFAILURES:")
            for f in failures:
                print("- " + f.replace("\n", "\n  "))
        print("\nTiming path (smoke sizes; the numbers mean nothing):")

    for t in targets:
        error, device = probe_target(args, t)
        if error:
            results["targets"][t] = {"error": error}
            log("target %s: n/a: %s" % (t, error))
        else:
            results["targets"][t] = {"device": device}
            log("target %s: %s" % (t, device))
            if t != "cpu" and sizes == "h100" and re.search(
                    r"Portable Computing Language|llvmpipe|\(CPU", device):
                log("WARNING: %s runs on a CPU device (%s): set "
                    "VRIR_OPENCL_DEVICE / VRIR_VULKAN_DEVICE or register the "
                    "GPU's ICD" % (t, device))

    for name, (n, s1, s2) in plan.items():
        kernel = KERNEL_BY_NAME[name]
        results["vrir"][name] = {}
        for t in targets:
            if "error" in results["targets"][t]:
                results["vrir"][name][t] = {"error": "target unavailable: "
                                            + results["targets"][t]["error"]}
                continue
            results["vrir"][name][t] = measure_vrir(args, kernel, t, n, s1, s2)

    if not args.smoke and not args.no_cuda:
        rows, error = run_cuda(args, plan)
        results["cuda"] = rows
        if error:
            results["cuda_error"] = error
            log("CUDA: n/a: " + error)
        for r in rows:
            if r.get("check") == "FAILED":
                status = 1

    print("")
    print("VRIR GPU benchmark, %s, sizes=%s, vr-run --repeat %d"
          % (results["date"], sizes, args.repeat))
    for t in targets:
        info = results["targets"][t]
        if "device" in info:
            print("  %s: %s" % (t, info["device"]))
        else:
            print("  %s: n/a (%s)" % (t, last_line(info.get("error", ""))))
    devs = {r.get("device") for r in results["cuda"] if r.get("device")}
    if devs:
        print("  CUDA: %s" % ", ".join(sorted(devs)))
    print("  ms/step: VRIR (median(S2) - median(S1)) / (S2 - S1); CUDA "
          "cudaEvents; CUDA/VRIR >= 1 means VRIR is as fast")
    print("")
    print_table(results, targets)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1, sort_keys=True)
        print("\nwrote %s" % args.json)
    if args.smoke:
        print("\nsmoke: %s" % ("FAILED" if status else "passed"))
    return status


if __name__ == "__main__":
    sys.exit(main())
