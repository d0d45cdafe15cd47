#!/usr/bin/env python3
"""Differential fuzzer of VRIR's Python frontend (`@vrir.jit`).

Generates small random NumPy-style Python functions from a grammar of the
subset documented in python/README.md (or mutates the jit functions of
python/tests and python/examples), runs each both as plain Python/NumPy and
through `vrir.jit` (and, when the plain run raised no IndexError, through
`vrir.jit(boundscheck=False)`), and classifies the outcome. Every case runs
in a subprocess with a timeout, so crashes (signals, LLVM/MLIR assertion
aborts) and hangs are caught.

    .venv/bin/python python/tests/fuzz/fuzz_python_frontend.py --seed 1 \
        --count 500 --timeout 60 --out /tmp/vrir-fuzz \
        [--mode gen|mutate|both] [--jobs 2] [--seconds S] [--strict]

`--seconds S` stops starting cases after S seconds (`scripts/fuzz.sh` uses
it with a fixed seed: case i of seed s is the same program on every run);
`--strict` makes the exit status 1 when any outcome is not in GOOD or
NOTED below (what scripts/fuzz.sh and CI need).

Each case is a self-contained .py file (the frontend needs source files):
the function under test `f` (plus jit callees), and `make_args()`, which
builds the arguments (layouts included). Cases whose outcome is not `ok*`,
`unsupported` or `plain-invalid` are kept in `--out/<class>/`, with a .txt
holding the outcome; re-run one with

    .venv/bin/python python/tests/fuzz/fuzz_python_frontend.py --run-case CASE.py

Outcome classes (the parent prints counts per class):
  ok                 same values, dtypes, shapes and in-place updates
  ok-error           both raised the same error kind (IndexError, ValueError
                     for shapes, TypeError)
  unsupported        vrir.CompileError naming the case file and a line
  plain-invalid      the plain run raised an error (TypeError, ...) that the
                     contract has no counterpart for, and jit raised too
  skip-overflow      a Python int result outside int64 (unbounded Python ints
                     vs. i64 is inherent; not a bug)
  py-exc-divergence  the plain run raised ZeroDivisionError / ValueError
                     ("math domain error", "negative shift count") /
                     OverflowError and jit returned a value. NumPy-style
                     results (inf/nan) for these are treated as acceptable but
                     are reported, since the contract asks for Python's
                     behaviour; a crash (SIGFPE) is never acceptable.
  zero-division-rule jit raised ZeroDivisionError for an integer scalar
                     division by zero where NumPy (a NumPy integer scalar
                     operand) returned 0 with a RuntimeWarning: VRIR's
                     documented rule raises for every scalar
  negative-shift-rule jit raised Python's ValueError for a scalar shift by a
                     negative count where NumPy integer scalars give 0 (the
                     same documented rule)
  negative-power-rule jit raised ValueError for a Python int raised to a
                     negative int power where Python returned a float
                     (VRIR's documented rule: int ** int is an int, as for
                     NumPy integer scalars, which raise the same way)
  deviation-minmax   the builtin min()/max() of mixed types has the
                     arguments' promoted type (Python returns whichever
                     argument wins): the plain run with min/max promoting
                     the same way matches
  reduction-order    a prange/pfor reduction reassociated: the result has an
                     inf or nan where the serial order overflowed otherwise
  negative-base-power a float scalar power is nan (NumPy's float rule,
                     documented) where Python returned a complex number
  dot-scalar-blas    np.dot of an array and a scalar multiplies as IEEE does
                     (documented); NumPy scales through BLAS, whose scal by
                     0 gives +0.0 for -x, nan and inf: the plain run with
                     such a np.dot matches
  float32-ulp        values differ only within float32 precision (rtol 1e-6)
                     in a case with float32 data: float32 math functions
                     (VRIR's are correctly rounded where NumPy's SIMD ones
                     may be 1 ulp off), compared at f64 tolerance because
                     the value was stored into a float64 array
  deviation-widening a Python int came back as an equal float: a variable
                     has one static type, and one assigned an int and a
                     float is a float (documented, as in Numba), also where
                     only the int assignment ran
  empty-contents     values differ in a case that allocates with np.empty
                     (contents undefined in both runs; check by hand that the
                     difference is there)
  dtype-mismatch     values agree, dtype differs (not a documented case)
  wrong-answer       values/shape/type/in-place updates differ
  missing-error      plain raised IndexError/ValueError, jit returned a value
  spurious-error     plain succeeded, jit raised IndexError/ValueError/TypeError
  error-kind         both raised, but different contract kinds
  bad-message        CompileError without FILE:LINE of the case file
  backend-error      CompileError from the C++ compiler (verifier, lowering)
                     for input the frontend accepted
  internal-exception jit raised a non-contract exception (AttributeError,
                     KeyError, AssertionError, an accidental TypeError, ...)
  crash              the subprocess died (signal) or printed no result
  timeout            the subprocess exceeded --timeout

A float comparison uses rtol 1e-9 (f64, c128) / 1e-4 (f32, c64), NaNs equal
NaNs. The `-bcoff` suffix marks an outcome of the boundscheck=False run.
"""
import argparse
import ast
import base64
import collections
import copy
import importlib.util
import inspect
import io
import json
import math
import cmath
import os
import pickle
import random
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
import traceback
import warnings

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
PYDIR = os.path.dirname(os.path.dirname(HERE))  # python/
ROOT = os.path.dirname(PYDIR)

GOOD = {"ok", "ok-error", "unsupported", "plain-invalid", "skip-overflow"}
NOTED = {"py-exc-divergence", "zero-division-rule",
         "negative-shift-rule", "negative-power-rule", "deviation-minmax",
         "reduction-order", "negative-base-power", "float32-ulp", "dot-scalar-blas",
         "deviation-widening", "empty-contents"}

# ============================================================== case files
CASE_HEADER = '''\
# VRIR python-frontend fuzz case {name}
# run: python python/tests/fuzz/fuzz_python_frontend.py --run-case THIS_FILE
import math
import cmath
import numpy as np
import vrir


def _lay(a, how):
    """C, F, S (strided view of a bigger array), N (negative strides)."""
    a = np.asarray(a)
    if how == "C":
        return np.ascontiguousarray(a)
    if how == "F":
        return np.asfortranarray(a)
    if how == "S":
        big = np.zeros(tuple(2 * n for n in a.shape), a.dtype)
        v = big[tuple(slice(None, None, 2) for _ in a.shape)]
        v[...] = a
        return v
    rev = tuple(slice(None, None, -1) for _ in a.shape)
    return np.ascontiguousarray(a[rev])[rev]

'''

DT_SRC = {"f64": "np.float64", "f32": "np.float32", "i64": "np.int64", "i32": "np.int32",
          "i16": "np.int16", "i8": "np.int8", "u8": "np.uint8", "u16": "np.uint16",
          "u32": "np.uint32", "u64": "np.uint64",
          "b1": "np.bool_", "c128": "np.complex128", "c64": "np.complex64"}
DT_OF = {np.dtype(np.float64): "f64", np.dtype(np.float32): "f32", np.dtype(np.int64): "i64",
         np.dtype(np.int32): "i32", np.dtype(np.int16): "i16", np.dtype(np.int8): "i8",
         np.dtype(np.uint8): "u8", np.dtype(np.uint16): "u16", np.dtype(np.uint32): "u32",
         np.dtype(np.uint64): "u64",
         np.dtype(np.bool_): "b1", np.dtype(np.complex128): "c128",
         np.dtype(np.complex64): "c64"}


def num_src(x):
    if isinstance(x, (bool, np.bool_)):
        return repr(bool(x))
    if isinstance(x, (int, np.integer)):
        return repr(int(x))
    if isinstance(x, (float, np.floating)):
        x = float(x)
        if math.isnan(x):
            return "np.nan"
        if math.isinf(x):
            return "np.inf" if x > 0 else "-np.inf"
        return repr(x)
    x = complex(x)
    return f"complex({num_src(x.real)}, {num_src(x.imag)})"


def layout_of(a):
    if a.ndim == 0 or a.size <= 1:
        return "C"
    if a.flags.c_contiguous:
        return "C"
    if a.flags.f_contiguous:
        return "F"
    if all(s >= 0 for s in a.strides):
        return "S"
    return "N"


def value_src(v):
    """Source text that rebuilds the argument v (arrays with their layout)."""
    if isinstance(v, np.ndarray):
        dt = DT_OF.get(v.dtype)
        if dt is None:
            return ("np.frombuffer(base64.b64decode(%r), dtype=%r).reshape(%r).copy()"
                    % (base64.b64encode(np.ascontiguousarray(v).tobytes()).decode(), v.dtype.str,
                       v.shape))
        flat = ", ".join(num_src(x) for x in v.ravel().tolist())
        return (f"_lay(np.array([{flat}], dtype={DT_SRC[dt]}).reshape({v.shape!r}), "
                f"{layout_of(v)!r})")
    if isinstance(v, np.generic):
        return f"{DT_SRC.get(DT_OF.get(v.dtype), 'np.' + type(v).__name__)}({num_src(v)})"
    if isinstance(v, (bool, int, float, complex)):
        return num_src(v)
    return "pickle.loads(base64.b64decode(%r))" % base64.b64encode(pickle.dumps(v)).decode()


def write_case(path, name, funcs_src, entry, args, note=""):
    """funcs_src: source of the jit callees (decorated) and the entry function
    (undecorated; the runner wraps it)."""
    lines = [CASE_HEADER.format(name=name)]
    if note:
        lines.append("".join(f"# {l}\n" for l in note.splitlines()))
    lines.append("import base64\nimport pickle\n\n")
    lines.append(funcs_src.rstrip() + "\n\n\n")
    lines.append("def make_args():\n")
    lines.append("    return [\n")
    for a in args:
        lines.append(f"        {value_src(a)},\n")
    lines.append("    ]\n\n\n")
    lines.append(f"ENTRY = {entry!r}\n")
    with open(path, "w") as fh:
        fh.write("".join(lines))


# ============================================================== the child
def _sig(v):
    """What must agree for a value: ('T', items) / ('A', dtype, shape) / ('S', dtype)."""
    if isinstance(v, tuple):
        return ("T", tuple(_sig(x) for x in v))
    if isinstance(v, np.ndarray):
        return ("A", str(v.dtype), v.shape)
    if v is None:
        return ("N",)
    try:
        return ("S", str(np.asarray(v).dtype))
    except Exception:
        return ("?", type(v).__name__)


def _close(g, w, double_rtol=1e-9):
    g, w = np.asarray(g), np.asarray(w)
    if g.shape != w.shape:
        return False
    if w.dtype.kind in "biu" and g.dtype.kind in "biu":
        return bool(np.array_equal(g, w))
    single = np.float32 in (g.dtype.type, w.dtype.type) or np.complex64 in (g.dtype.type, w.dtype.type)
    rtol = 1e-4 if single else double_rtol
    try:
        with np.errstate(all="ignore"):
            return bool(np.allclose(g.astype(np.complex128), w.astype(np.complex128),
                                    rtol=rtol, atol=rtol, equal_nan=True))
    except Exception:
        return False


def compare(got, want, double_rtol=1e-9):
    """None when equal (floats: rtol 1e-4 in single precision, `double_rtol`
    in double), else ('dtype'|'value', text)."""
    if isinstance(want, tuple) or isinstance(got, tuple):
        if not (isinstance(want, tuple) and isinstance(got, tuple)) or len(got) != len(want):
            return ("value", f"tuple structure: got {type(got).__name__} "
                             f"{_sig(got)}, want {_sig(want)}")
        worst = None
        for k, (g, w) in enumerate(zip(got, want)):
            r = compare(g, w, double_rtol)
            if r is not None:
                r = (r[0], f"[{k}] {r[1]}")
                if r[0] == "value":
                    return r
                worst = worst or r
        return worst
    if want is None or got is None:
        if want is None and got is None:
            return None
        return ("value", f"got {got!r}, want {want!r}")
    if isinstance(want, np.ndarray) != isinstance(got, np.ndarray):
        return ("value", f"got {type(got).__name__} {got!r}, want {type(want).__name__} {want!r}")
    if isinstance(want, np.ndarray) and got.shape != want.shape:
        return ("value", f"shape: got {got.shape}, want {want.shape}")
    if not _close(got, want, double_rtol):
        return ("value", f"got {_short(got)}, want {_short(want)}")
    if _sig(got) != _sig(want):
        return ("dtype", f"got {_sig(got)}, want {_sig(want)}")
    return None


def _short(v):
    try:
        s = repr(v)
    except ValueError:  # an int beyond CPython's digit limit
        return f"<{type(v).__name__} too large to print>"
    return s if len(s) < 300 else s[:300] + "..."


def _exc_info(e):
    tb = traceback.extract_tb(e.__traceback__)
    inner = tb[-1] if tb else None
    in_vrir = bool(inner and os.sep + "vrir" + os.sep in inner.filename)
    deliberate = bool(inner and (inner.line or "").lstrip().startswith("raise"))
    return {"type": type(e).__name__, "msg": str(e)[:2000],
            "where": f"{inner.filename}:{inner.lineno}: {inner.line}" if inner else "",
            "in_vrir": in_vrir, "deliberate": deliberate,
            "tb": "".join(traceback.format_exception(type(e), e, e.__traceback__))[-3000:]}


class PlainTimeout(Exception):
    pass


def _alarm(signum, frame):
    raise PlainTimeout("the plain Python run took too long")


def _plain_run(mod, fn, args, limit=5.0):
    import signal
    import vrir
    saved = {}
    for k, v in list(vars(mod).items()):
        if isinstance(v, vrir.JitFunction):
            saved[k] = v
            setattr(mod, k, v.py_func)
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            old = signal.signal(signal.SIGALRM, _alarm)
            signal.setitimer(signal.ITIMER_REAL, limit)
            try:
                return fn(*args), None
            except Exception as e:
                return None, e
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, old)
    finally:
        for k, v in saved.items():
            setattr(mod, k, v)


def _int_overflow(v):
    if isinstance(v, tuple):
        return any(_int_overflow(x) for x in v)
    return isinstance(v, int) and not isinstance(v, bool) and not -2**63 <= v < 2**63


def _supported_arg(a):
    if isinstance(a, np.ndarray):
        return a.dtype in DT_OF and a.ndim >= 1
    if isinstance(a, np.generic):
        return a.dtype in DT_OF
    return isinstance(a, (bool, int, float, complex))


def _promoting(builtin):
    """Builtin min/max as VRIR types them: the arguments' NEP 50 result type
    (Python returns whichever argument wins, so its type depends on values)."""
    def f(*args, **kwargs):
        r = builtin(*args, **kwargs)
        values = args[0] if len(args) == 1 and isinstance(args[0], tuple) else args
        if kwargs or not all(isinstance(v, (bool, int, float, np.bool_, np.integer, np.floating))
                             for v in values):
            return r
        return np.asarray(r, dtype=np.result_type(*values))[()]
    return f


def _documented_deviation(mod, fn, got, args_j, case_path):
    """The class of a documented deviation that explains the jit result
    (which differs from the plain run's value or error), or None:
    deviation-minmax (builtin min/max of mixed types), reduction-order (a
    prange/pfor reduction reassociates: a float sum can overflow to a
    different inf, or to nan)."""
    import builtins
    if _matches_with_patched_builtins(mod, fn, got, args_j, {
            "max": _promoting(builtins.max), "min": _promoting(builtins.min)}):
        return "deviation-minmax"
    with open(case_path) as f:
        src = f.read()
    if ("prange" in src or "pfor" in src) and _has_nonfinite(got):
        return "reduction-order"
    if "np.dot" in src and _matches_with_patched_builtins(
            mod, fn, got, args_j, {"np": _NumPyWithIEEEScalarDot()}):
        return "dot-scalar-blas"
    plain, pexc = _plain_run(mod, fn, mod.make_args())
    if pexc is None and _nan_for_python_complex(got, plain):
        return "negative-base-power"
    if "float32" in src and pexc is None and compare(got, plain, 1e-6) is None:
        args = mod.make_args()
        _plain_run(mod, fn, args)
        if all(compare(x, y, 1e-6) is None for x, y in zip(args_j, args)
               if isinstance(y, np.ndarray)):
            return "float32-ulp"
    return None


class _NumPyWithIEEEScalarDot:
    """numpy, but np.dot with a scalar operand multiplies (NumPy scales
    through BLAS, whose scal by 0 gives +0.0 even for -x, nan and inf)."""

    def __getattr__(self, name):
        return getattr(np, name)

    @staticmethod
    def dot(a, b, *rest):
        if not rest and (np.ndim(a) == 0 or np.ndim(b) == 0):
            return np.multiply(np.asarray(a), np.asarray(b))[()] if np.ndim(a) == np.ndim(b) == 0 \
                else np.multiply(np.asarray(a), np.asarray(b))
        return np.dot(a, b, *rest)


def _differs_only_where(got, plain, explained):
    """Whether the results (a value or a tuple of values) differ only in
    components where `explained(got_component, plain_component)` holds, and
    in at least one."""
    if isinstance(plain, tuple) and isinstance(got, tuple) and len(got) == len(plain):
        pairs = list(zip(got, plain))
    else:
        pairs = [(got, plain)]
    found = False
    for g, w in pairs:
        if explained(g, w):
            found = True
        elif compare(g, w) is not None:
            return False
    return found


def _int_widened_to_float(got, plain):
    """Whether the results differ only where Python returned an int and
    VRIR an equal float (a variable widened from int to float)."""
    return _differs_only_where(got, plain, lambda g, w: type(w) is int and
                               isinstance(g, float) and g == w)


def _nan_for_python_complex(got, plain):
    """Whether the results differ only where Python returned a complex (a
    negative float to a non-integer power) and VRIR NumPy's float nan."""
    return _differs_only_where(got, plain, lambda g, w: type(w) is complex and
                               isinstance(g, float) and math.isnan(g))


def _matches_with_patched_builtins(mod, fn, got, args_j, patched):
    """Whether the plain function, rerun on fresh arguments with the module
    globals `patched` replaced, returns `got` and leaves the arrays as the
    jit run did."""
    args = mod.make_args()
    saved = {k: vars(mod).get(k) for k in patched}
    for k, v in patched.items():
        setattr(mod, k, v)
    try:
        alt, aexc = _plain_run(mod, fn, args)
    finally:
        for k, v in saved.items():
            if v is None:
                delattr(mod, k)
            else:
                setattr(mod, k, v)
    return aexc is None and compare(got, alt) is None and all(
        compare(x, y) is None for x, y in zip(args_j, args) if isinstance(y, np.ndarray))


def _has_nonfinite(x):
    if isinstance(x, tuple):
        return any(_has_nonfinite(v) for v in x)
    try:
        a = np.asarray(x)
        return a.dtype.kind in "fc" and not np.all(np.isfinite(a))
    except Exception:
        return False


def classify(case_path, mod, fn, jf, plain, pexc, args_j, args_p, label, bc):
    """The outcome of one jit run against the plain run."""
    import vrir
    out = {"run": label}
    try:
        got, jexc = jf(*args_j), None
    except vrir.CompileError as e:
        got, jexc = None, e
    except Exception as e:
        got, jexc = None, e
    if pexc is not None:
        out["plain_exc"] = f"{type(pexc).__name__}: {str(pexc)[:300]}"
    if jexc is not None:
        info = _exc_info(jexc)
        out["jit_exc"] = f"{info['type']}: {info['msg']}"
        out["jit_where"] = info["where"]
        out["jit_tb"] = info["tb"]
        if isinstance(jexc, vrir.CompileError):
            msg = str(jexc)
            base = os.path.basename(case_path)
            if "failed:" in msg and "MLIR kept in" in msg:
                out["cls"] = "backend-error"
            elif not re.search(re.escape(base) + r":\d+", msg):
                out["cls"] = "bad-message"
            elif pexc is not None:
                out["cls"] = "unsupported"
            else:
                out["cls"] = "unsupported"
            return out
        if type(jexc) is ZeroDivisionError and str(jexc) == "integer division or modulo by zero":
            # VRIR's rule: scalar integer division by zero raises, also on
            # NumPy integer scalars (where NumPy returns 0 and warns)
            if isinstance(pexc, ZeroDivisionError):
                out["cls"] = "ok-error"
            elif pexc is None:
                out["cls"] = "zero-division-rule"
            else:
                out["cls"] = "plain-invalid"
            return out
        if type(jexc) is ValueError and str(jexc) == "negative shift count" and pexc is None:
            # the same rule for a scalar shift by a negative count: Python's
            # ValueError, where NumPy integer scalars give 0
            out["cls"] = "negative-shift-rule"
            return out
        if type(jexc) is ValueError and "(VRIR: int ** int is an int" in str(jexc) \
                and pexc is None:
            out["cls"] = "negative-power-rule"
            return out
        if type(jexc) in (MemoryError, UnboundLocalError, OverflowError) \
                and isinstance(pexc, type(jexc)):
            out["cls"] = "ok-error"
            return out
        if info["in_vrir"] and info["deliberate"] and type(jexc) is type(pexc):
            # the runtime raised the plain run's exception (the function's
            # own `raise`, np.linalg's LinAlgError)
            out["cls"] = "ok-error"
            return out
        contract = isinstance(jexc, (IndexError, ValueError, TypeError)) and \
            type(jexc) in (IndexError, ValueError, TypeError) and \
            (not info["in_vrir"] or info["deliberate"])
        if not contract:
            out["cls"] = "internal-exception"
            return out
        if isinstance(jexc, TypeError) and not all(_supported_arg(a) for a in args_j):
            out["cls"] = "ok-error"  # TypeError for an unsupported argument type
            return out
        if pexc is None:
            out["cls"] = "spurious-error"
            return out
        kinds = (IndexError, ValueError, TypeError)
        pk = next((k for k in kinds if isinstance(pexc, k)), None)
        jk = next((k for k in kinds if isinstance(jexc, k)), None)
        if pk is not None and pk is jk:
            out["cls"] = "ok-error"
        elif pk is None:
            out["cls"] = "plain-invalid"
        else:
            out["cls"] = "error-kind"
        return out
    # jit returned
    out["got"] = _short(got)
    if pexc is not None:
        deviation = _documented_deviation(mod, fn, got, args_j, case_path)
        if isinstance(pexc, (ZeroDivisionError, OverflowError)) or (
                type(pexc) is ValueError and ("math domain" in str(pexc) or "shift" in str(pexc))):
            out["cls"] = "py-exc-divergence"
        elif deviation is not None:
            out["cls"] = deviation
        elif isinstance(pexc, (IndexError, ValueError)):
            out["cls"] = "missing-error"
        else:
            out["cls"] = "missing-error" if isinstance(pexc, TypeError) else "plain-invalid"
            if not isinstance(pexc, TypeError):
                out["cls"] = "wrong-answer"
        return out
    if _int_overflow(plain):
        out["cls"] = "skip-overflow"
        return out
    out["want"] = _short(plain)
    r = compare(got, plain)
    if r is None:
        for k, (x, y) in enumerate(zip(args_j, args_p)):
            if isinstance(y, np.ndarray):
                rr = compare(x, y)
                if rr is not None:
                    r = ("value", f"argument {k} after the call: {rr[1]}")
                    break
    if r is None:
        out["cls"] = "ok"
        return out
    out["diff"] = r[1]
    if r[0] == "dtype" and _int_widened_to_float(got, plain):
        out["cls"] = "deviation-widening"
        return out
    out["cls"] = _documented_deviation(mod, fn, got, args_j, case_path) or (
        "dtype-mismatch" if r[0] == "dtype" else "wrong-answer")
    if out["cls"] == "wrong-answer" and "np.empty" in inspect.getsource(fn):
        out["cls"] = "empty-contents"
    return out


def run_case(case_path, bcoff=True):
    sys.path.insert(0, PYDIR)
    import vrir
    name = "fzcase_" + re.sub(r"\W", "_", os.path.basename(case_path)[:-3])
    spec = importlib.util.spec_from_file_location(name, case_path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    results = []
    try:
        spec.loader.exec_module(mod)
    except vrir.CompileError as e:  # a declared signature compiled at import
        info = _exc_info(e)
        return [{"run": "import", "cls": "unsupported" if "failed:" not in str(e) else "backend-error",
                 "jit_exc": f"CompileError: {info['msg']}", "jit_tb": info["tb"]}]
    except Exception as e:
        info = _exc_info(e)
        cls = "internal-exception" if info["in_vrir"] and not info["deliberate"] else "plain-invalid"
        return [{"run": "import", "cls": cls, "jit_exc": f"{info['type']}: {info['msg']}",
                 "jit_tb": info["tb"]}]
    fn = getattr(mod, mod.ENTRY)
    if isinstance(fn, vrir.JitFunction):
        fn = fn.py_func
    args_p = mod.make_args()
    plain, pexc = _plain_run(mod, fn, args_p)
    if isinstance(pexc, PlainTimeout):
        return [{"run": "plain", "cls": "plain-invalid", "plain_exc": str(pexc)}]
    jf = vrir.jit(fn)
    results.append(classify(case_path, mod, fn, jf, plain, pexc, mod.make_args(), args_p, "jit", True))
    if bcoff and not isinstance(pexc, IndexError) and results[-1]["cls"] not in (
            "unsupported", "bad-message", "backend-error", "internal-exception"):
        jf2 = vrir.jit(fn, boundscheck=False)
        r = classify(case_path, mod, fn, jf2, plain, pexc, mod.make_args(), args_p, "bcoff", False)
        if r["cls"] not in GOOD | NOTED:
            r["cls"] += "-bcoff"
        results.append(r)
    return results


def child_main(case_path, bcoff):
    sys.setrecursionlimit(10000)
    res = run_case(case_path, bcoff)
    sys.stdout.flush()
    print("@@RESULT " + json.dumps(res), flush=True)


# ============================================================== generator
DTYPES = ["f64", "f64", "f32", "i64", "i64", "i32", "i16", "i8", "u8", "u16", "u32", "u64",
          "b1", "c128"]
NP_DT = {"f64": np.float64, "f32": np.float32, "i64": np.int64, "i32": np.int32,
         "i16": np.int16, "i8": np.int8, "u8": np.uint8, "u16": np.uint16, "u32": np.uint32,
         "u64": np.uint64, "b1": np.bool_,
         "c128": np.complex128, "c64": np.complex64}
FLOATS = [0.5, -1.5, 2.0, 0.0, 3.25, -0.75, 1.0, 4.0, -2.0, 0.125]
INTS = [0, 1, 2, 3, -1, -2, 5, 7, -3, 4]
UNARY_NP = ["sqrt", "exp", "log", "sin", "cos", "tan", "tanh", "floor", "ceil", "abs"]
MATH1 = ["sqrt", "exp", "log", "sin", "cos", "tan", "tanh", "floor", "ceil", "fabs"]
CMATH1 = ["sqrt", "exp", "log", "sin", "cos", "tanh"]
REDUCE = ["sum", "prod", "min", "max", "mean"]
BINOPS = ["+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "<<", ">>"]
CMPOPS = ["<", "<=", ">", ">=", "==", "!="]
EVAL_GLOBALS = {"np": np, "math": math, "cmath": cmath}


def _ok_value(v, depth=0):
    """Values the subset can hold (no lists, 0-d arrays, other dtypes...)."""
    if isinstance(v, tuple):
        return depth == 0 and 0 < len(v) <= 3 and all(_ok_value(x, 1) for x in v)
    if isinstance(v, np.ndarray):
        return v.ndim in (1, 2, 3) and v.dtype in DT_OF and v.size <= 400
    if isinstance(v, (bool, np.bool_)):
        return True
    if isinstance(v, (int, np.integer)):
        return type(v) in (int, np.int64, np.int32, np.int16, np.int8, np.uint8, np.uint16,
                           np.uint32, np.uint64) and -2**62 < int(v) < 2**62
    if isinstance(v, (float, complex, np.float64, np.float32, np.complex128, np.complex64)):
        return True
    return False


def tykey(v):
    """The frontend type of a value (for type-stable reassignments/returns)."""
    if isinstance(v, np.ndarray):
        return ("A", str(v.dtype), v.ndim)
    if isinstance(v, tuple):
        return ("T",) + tuple(tykey(x) for x in v)
    return ("S", str(np.asarray(v).dtype), type(v).__module__ == "numpy")


def _snapshot(env):
    return copy.deepcopy(env)


class Gen:
    def __init__(self, rng):
        self.r = rng
        self.nvar = 0
        self.loopvars = []
        self.helpers = []        # (name, plain function, param types) callable from f
        self.copyvars = set()     # variables that hold .T/.real/.imag (copies in jit)

    # ---------------------------------------------------------------- inputs
    def rand_elem(self, dt):
        r = self.r
        if dt == "b1":
            return r.random() < 0.5
        if dt in ("i64", "i32", "i16", "i8"):
            return r.choice(INTS + [r.randint(-9, 9)])
        if dt in ("u64", "u32", "u16", "u8"):
            return abs(r.choice(INTS + [r.randint(-9, 9)]))
        if dt in ("f64", "f32"):
            x = r.choice(FLOATS + [round(r.uniform(-5, 5), 3)])
            if r.random() < 0.01:
                x = r.choice([math.nan, math.inf, -math.inf])
            return x
        return complex(r.choice(FLOATS), r.choice(FLOATS))

    def rand_array(self):
        r = self.r
        dt = r.choice(DTYPES)
        rank = r.choice([1, 1, 1, 2, 2, 3])
        shape = tuple(r.choice([1, 2, 3, 3, 4, 5]) for _ in range(rank))
        if r.random() < 0.03:
            shape = shape[:-1] + (0,)
        a = np.array([self.rand_elem(dt) for _ in range(int(np.prod(shape)))],
                     dtype=NP_DT[dt]).reshape(shape)
        how = r.choice(["C", "C", "F", "S", "N"])
        return eval("_lay(a, how)", {"_lay": _lay_local, "a": a, "how": how})

    def rand_scalar(self):
        r = self.r
        k = r.choice(["int", "int", "float", "float", "bool", "complex", "np"])
        if k == "int":
            return r.choice(INTS + [r.randint(-20, 20)])
        if k == "float":
            return r.choice(FLOATS + [round(r.uniform(-5, 5), 2)])
        if k == "bool":
            return r.random() < 0.5
        if k == "complex":
            return complex(r.choice(FLOATS), r.choice(FLOATS))
        t = r.choice([np.float32, np.float64, np.int32, np.int64, np.int16, np.int8, np.uint8,
                      np.uint32, np.uint64, np.bool_, np.complex64])
        v = self.rand_elem(DT_OF[np.dtype(t)])
        return t(v)

    # ---------------------------------------------------------------- helpers
    def fresh(self, prefix="v"):
        self.nvar += 1
        return f"{prefix}{self.nvar}"

    def vars_where(self, env, pred):
        return [k for k, v in env.items() if not k.startswith("__") and pred(v)]

    def arrays(self, env, pred=lambda a: True):
        return self.vars_where(env, lambda v: isinstance(v, np.ndarray) and pred(v))

    def scalars(self, env):
        return self.vars_where(env, lambda v: not isinstance(v, (np.ndarray, tuple)) and _ok_value(v))

    def ints(self, env):
        return self.vars_where(env, lambda v: isinstance(v, (int, np.integer)) and not isinstance(v, bool))

    def idx(self, env, n):
        """An index expression for an extent n (mostly in bounds)."""
        r = self.r
        ints = self.ints(env)
        c = r.random()
        if c < 0.5 or not ints:
            if n == 0:
                return str(r.choice([0, -1]))
            k = r.randrange(-n, n)
            if r.random() < 0.04:
                k = r.choice([n, -n - 1])
            return str(k)
        v = r.choice(ints)
        if c < 0.8:
            return f"{v} % {max(n, 1)}" if r.random() < 0.7 else f"({v} + 1) % {max(n, 1)} - {r.randint(0, max(n, 1))}"
        return v

    def slice_src(self, env, n):
        r = self.r
        forms = [":", "::-1", "1:", ":-1", "::2", "-2:", "1::2", "-1::-1", "-1:0:-1",
                 "::-2", f"{r.randint(-n - 1, n)}:{r.randint(-n - 1, n + 1)}",
                 f"{r.randint(-n, n)}:{r.randint(-n - 1, n)}:{r.choice([-2, -1, 1, 2, 3])}"]
        ints = self.ints(env)
        if ints and r.random() < 0.2:
            forms.append(f"{r.choice(ints)}:")
            forms.append(f":{r.choice(ints)}:-1")
        return r.choice(forms)

    def leaf(self, env):
        r = self.r
        c = r.random()
        names = self.vars_where(env, _ok_value)
        if c < 0.55 and names:
            return r.choice(names)
        if c < 0.7:
            return repr(r.choice(INTS))
        if c < 0.85:
            return repr(r.choice(FLOATS))
        if c < 0.92:
            return r.choice(["True", "False"])
        return r.choice(["1j", "(2 - 1j)", "(-0.5 + 0.25j)", "complex(1.0, -2.0)"])

    def subscript(self, env):
        r = self.r
        arrs = self.arrays(env)
        if not arrs:
            return self.leaf(env)
        a = r.choice(arrs)
        A = env[a]
        c = r.random()
        if c < 0.45:  # full integer index
            return f"{a}[{', '.join(self.idx(env, n) for n in A.shape)}]"
        if c < 0.55 and A.ndim >= 2:  # chained
            return f"{a}[{self.idx(env, A.shape[0])}][{self.idx(env, A.shape[1])}]"
        if c < 0.85:  # slices, maybe mixed with ints
            parts = []
            for n in A.shape:
                parts.append(self.idx(env, n) if r.random() < 0.25 else self.slice_src(env, n))
            k = r.randint(1, A.ndim)
            return f"{a}[{', '.join(parts[:k])}]"
        # integer-array index
        iarr = self.arrays(env, lambda v: v.dtype in (np.int64, np.int32, np.int16, np.int8, np.uint8,
                                                     np.uint16, np.uint32, np.uint64)
                           and v.ndim == 1)
        n = A.shape[0]
        if iarr and r.random() < 0.5:
            return f"{a}[{r.choice(iarr)} % {max(n, 1)}]"
        return f"{a}[np.arange({r.randint(0, max(n, 1))})]" if r.random() < 0.5 else \
            f"{a}[np.arange({n}) * -1 - 1]" if n else f"{a}[np.arange(0)]"

    def expr(self, env, depth=2):
        r = self.r
        if depth <= 0 or r.random() < 0.2:
            return self.leaf(env) if r.random() < 0.6 else self.subscript(env)
        d = depth - 1
        c = r.random()
        arrs = self.arrays(env)
        if c < 0.25:
            op = r.choice(BINOPS[:7] * 3 + BINOPS[7:])
            return f"({self.expr(env, d)} {op} {self.expr(env, d)})"
        if c < 0.33:
            if r.random() < 0.15:
                return f"({self.expr(env, d)} {r.choice(CMPOPS)} {self.expr(env, d)} {r.choice(CMPOPS)} {self.expr(env, d)})"
            return f"({self.expr(env, d)} {r.choice(CMPOPS)} {self.expr(env, d)})"
        if c < 0.38:
            return f"({r.choice(['-', '+', '~', 'not '])}{self.expr(env, d)})"
        if c < 0.42:
            return f"({self.expr(env, d)} {r.choice(['and', 'or'])} {self.expr(env, d)})"
        if c < 0.45:
            return f"({self.expr(env, d)} if {self.expr(env, d)} else {self.expr(env, d)})"
        if c < 0.55:
            return f"np.{r.choice(UNARY_NP)}({self.expr(env, d)})"
        if c < 0.6:
            k = r.random()
            if k < 0.6:
                return f"math.{r.choice(MATH1)}({self.expr(env, d)})"
            if k < 0.8:
                return f"cmath.{r.choice(CMATH1)}({self.expr(env, d)})"
            return f"{r.choice(['abs', 'int', 'float', 'bool', 'complex'])}({self.expr(env, d)})"
        if c < 0.64:
            fn = r.choice(["np.maximum", "np.minimum", "np.power", "min", "max", "math.pow",
                           "complex", "np.where"])
            if fn == "np.where":
                return f"np.where({self.expr(env, d)}, {self.expr(env, d)}, {self.expr(env, d)})"
            return f"{fn}({self.expr(env, d)}, {self.expr(env, d)})"
        if c < 0.74 and arrs:
            a = r.choice(arrs)
            A = env[a]
            red = r.choice(REDUCE)
            k = r.random()
            ax = r.randrange(-A.ndim, A.ndim)
            if k < 0.3:
                return f"np.{red}({a})"
            if k < 0.55:
                return f"np.{red}({a}, axis={ax})"
            if k < 0.75:
                return f"{a}.{red}(axis={ax})"
            if k < 0.85:
                return f"{a}.{red}()"
            return f"np.{red}({self.expr(env, d)})"
        if c < 0.8 and arrs:
            a = r.choice(arrs)
            A = env[a]
            k = r.random()
            if k < 0.2:
                return f"{a}.shape[{r.randrange(-A.ndim, A.ndim)}]"
            if k < 0.3:
                return r.choice([f"len({a})", f"{a}.ndim", f"{a}.size"])
            if k < 0.45:
                return r.choice([f"{a}.T", f"np.transpose({a})", f"{a}.copy()", f"np.copy({a})"])
            if k < 0.55:
                return f"{a}.astype({r.choice(list(DT_SRC.values()) + ['float', 'int', 'bool', 'complex'])})"
            if k < 0.65:
                return r.choice([f"{a}.real", f"{a}.imag", f"np.real({a})", f"np.conj({a})", f"{a}.conj()"])
            b = r.choice(arrs)
            return r.choice([f"({a} @ {b})", f"np.dot({a}, {b})", f"np.dot({a}, {self.expr(env, d)})"])
        if c < 0.88:
            return self.creation(env)
        if c < 0.93 and self.helpers:
            name, _, nargs = r.choice(self.helpers)
            return f"{name}({', '.join(self.expr(env, d) for _ in range(nargs))})"
        return self.subscript(env)

    def shape_src(self, env):
        r = self.r
        arrs = self.arrays(env)
        if arrs and r.random() < 0.4:
            a = r.choice(arrs)
            return f"{a}.shape" if r.random() < 0.6 else f"({a}.shape[0], {r.randint(1, 3)})"
        dims = [str(r.randint(0 if r.random() < 0.03 else 1, 4)) for _ in range(r.choice([1, 1, 2, 3]))]
        ints = [v for v in self.ints(env) if 0 <= int(env[v]) <= 6]
        if ints and r.random() < 0.3:
            dims[0] = r.choice(ints)
        return dims[0] if len(dims) == 1 and r.random() < 0.5 else f"({', '.join(dims)},)"

    def creation(self, env):
        r = self.r
        arrs = self.arrays(env)
        k = r.random()
        dt = "" if r.random() < 0.5 else f", dtype={r.choice(list(DT_SRC.values()) + ['float', 'int', 'bool', 'complex'])}"
        order = "" if r.random() < 0.8 else f", order={r.choice(['C', 'F'])!r}"
        if k < 0.35:
            return f"np.{r.choice(['zeros', 'ones'])}({self.shape_src(env)}{dt}{order})"
        if k < 0.5:
            return f"np.full({self.shape_src(env)}, {self.leaf(env)}{dt})"
        if k < 0.7 and arrs:
            a = r.choice(arrs)
            if r.random() < 0.3:
                return f"np.full_like({a}, {self.leaf(env)}{dt})"
            return f"np.{r.choice(['zeros_like', 'ones_like'])}({a}{dt})"
        ints = [v for v in self.ints(env) if -10 <= int(env[v]) <= 50]
        n = r.choice(ints) if ints and r.random() < 0.5 else str(r.randint(0, 6))
        return r.choice([f"np.arange({n})", f"np.arange({r.randint(-3, 3)}, {n})",
                         f"np.arange({n}, {r.randint(-3, 3)}, -1)",
                         f"np.arange({r.choice(FLOATS)}, {r.randint(1, 5)}, {r.choice([0.5, 0.75, 1.5])})",
                         f"np.arange({r.randint(0, 9)}, 0, -{r.randint(1, 3)})"])

    # ---------------------------------------------------------------- evaluation
    def try_eval(self, src, env):
        if not _safe(src, env):
            return False, None
        with warnings.catch_warnings(), np.errstate(all="ignore"), _Deadline(0.5):
            warnings.simplefilter("error", DeprecationWarning)
            warnings.filterwarnings("ignore", category=RuntimeWarning)
            try:
                v = eval(src, EVAL_GLOBALS, dict(env))
            except Exception:
                return False, None
        return True, v

    def good_expr(self, env, pred=lambda v: True, tries=25, depth=None, allow_tuple=False):
        for _ in range(tries):
            src = self.expr(env, self.r.choice([1, 2, 2, 3]) if depth is None else depth)
            # documented deviations the generator avoids: ~ on a Python bool,
            # min/max mixing int and float
            ok, v = self.try_eval(src, env)
            if not ok:
                continue
            if isinstance(v, tuple) and not allow_tuple:
                continue
            if not _ok_value(v) or not pred(v):
                continue
            if _deviation_in(src, env):
                continue
            return src, v
        return None, None

    def exec_ok(self, src, env):
        if not _safe(src, env):
            return False
        with warnings.catch_warnings(), np.errstate(all="ignore"), _Deadline(1.0):
            warnings.simplefilter("ignore")
            try:
                exec(src, EVAL_GLOBALS, env)
            except Exception:
                return False
        return True

    # ---------------------------------------------------------------- statements
    def stmt(self, env, depth, in_loop, in_prange=False):
        r = self.r
        c = r.random()
        if in_prange:
            return self.prange_stmt(env)
        if c < 0.3:
            return self.assign_new(env)
        if c < 0.4:
            return self.reassign(env)
        if c < 0.55:
            return self.store(env)
        if c < 0.63:
            return self.augassign(env)
        if depth <= 0:
            return self.assign_new(env)
        if c < 0.73:
            return self.if_stmt(env, depth, in_loop)
        if c < 0.85:
            return self.for_stmt(env, depth)
        if c < 0.9:
            return self.while_stmt(env, depth)
        if c < 0.95:
            return self.prange_loop(env, depth)
        if in_loop and r.random() < 0.6:
            return [f"if {self.cond(env)}:", f"    {r.choice(['break', 'continue'])}"]
        return self.early_return(env)

    def cond(self, env):
        src, v = self.good_expr(env, lambda v: not isinstance(v, np.ndarray) and not isinstance(v, complex)
                                and not isinstance(v, np.complexfloating))
        return src or "True"

    def assign_new(self, env):
        src, v = self.good_expr(env)
        if src is None:
            return []
        name = self.fresh()
        if any(t in src for t in (".T", "transpose", ".real", ".imag", "np.real", "np.imag")):
            self.copyvars.add(name)
        return [f"{name} = {src}"]

    def reassign(self, env):
        names = [k for k in self.vars_where(env, _ok_value) if not k.startswith("i_")]
        if not names:
            return self.assign_new(env)
        name = self.r.choice(names)
        key = tykey(env[name])
        src, v = self.good_expr(env, lambda v: tykey(v) == key)
        if src is None:
            return []
        return [f"{name} = {src}"]

    def store(self, env):
        r = self.r
        arrs = [a for a in self.arrays(env) if a not in self.copyvars and env[a].size]
        if not arrs:
            return self.assign_new(env)
        a = r.choice(arrs)
        for _ in range(8):
            target = self.subscript({k: v for k, v in env.items() if k == a or not isinstance(v, np.ndarray)
                                     or v.dtype.kind in "iu"})
            if not target.startswith(a + "["):
                continue
            ok, tv = self.try_eval(target, env)
            if not ok:
                continue
            src, v = self.good_expr(env)
            if src is None:
                continue
            stmt = f"{target} = {src}"
            trial = _snapshot(env)
            if self.exec_ok(stmt, trial):
                return [stmt]
        return []

    def augassign(self, env):
        r = self.r
        names = [k for k in self.vars_where(env, _ok_value) if not k.startswith("i_")
                 and k not in self.copyvars]
        if not names:
            return []
        name = r.choice(names)
        target = name
        if isinstance(env[name], np.ndarray) and r.random() < 0.6 and env[name].size:
            t = self.subscript({k: v for k, v in env.items() if k == name or not isinstance(v, np.ndarray)})
            if t.startswith(name + "["):
                target = t
        for _ in range(6):
            op = r.choice(["+=", "-=", "*=", "/=", "//=", "%=", "**=", "&=", "|=", "^="])
            src, v = self.good_expr(env, depth=1)
            if src is None:
                continue
            stmt = f"{target} {op} {src}"
            trial = _snapshot(env)
            if not self.exec_ok(stmt, trial):
                continue
            if target == name and tykey(trial[name]) != tykey(env[name]):
                continue
            return [stmt]
        return []

    def body(self, env, depth, in_loop, n=None, in_prange=False):
        out = []
        for _ in range(n or self.r.randint(1, 3)):
            s = self.stmt(env, depth - 1, in_loop, in_prange)
            if not s:
                continue
            trial = _snapshot(env)
            if self.exec_ok("\n".join(_exec_form(s)), trial):
                env.clear()
                env.update(trial)
                out += s
        return out or ["pass"]

    def if_stmt(self, env, depth, in_loop):
        c = self.cond(env)
        lines = [f"if {c}:"]
        lines += ["    " + l for l in self.body(_snapshot(env), depth, in_loop)]
        if self.r.random() < 0.3:
            lines.append(f"elif {self.cond(env)}:")
            lines += ["    " + l for l in self.body(_snapshot(env), depth, in_loop)]
        if self.r.random() < 0.5:
            lines.append("else:")
            lines += ["    " + l for l in self.body(_snapshot(env), depth, in_loop)]
        return lines

    def range_src(self, env):
        r = self.r
        arrs = self.arrays(env)
        ints = [v for v in self.ints(env) if -3 <= int(env[v]) <= 8]
        n = None
        if arrs and r.random() < 0.5:
            a = r.choice(arrs)
            n = r.choice([f"len({a})", f"{a}.shape[{r.randrange(env[a].ndim)}]", f"{a}.size"])
        elif ints and r.random() < 0.5:
            n = r.choice(ints)
        else:
            n = str(r.randint(0, 6))
        k = r.random()
        if k < 0.5:
            return f"range({n})"
        if k < 0.7:
            return f"range({r.randint(-1, 2)}, {n})"
        if k < 0.85:
            return f"range({n} - 1, -1, -1)"
        return f"range({r.randint(0, 2)}, {n}, {r.choice([2, 3, -1, -2])})"

    def loop_var_env(self, env, var, rng_src):
        e = _snapshot(env)
        ok, rg = self.try_eval(rng_src, env)
        if not ok or not isinstance(rg, range):
            return None
        e[var] = rg[0] if len(rg) else 0
        return e

    def for_stmt(self, env, depth):
        var = self.fresh("i_")
        rng = self.range_src(env)
        e = self.loop_var_env(env, var, rng)
        if e is None:
            return []
        lines = [f"for {var} in {rng}:"]
        lines += ["    " + l for l in self.body(e, depth, True)]
        return lines

    def while_stmt(self, env, depth):
        var = self.fresh("w_")
        lim = self.r.randint(0, 5)
        e = _snapshot(env)
        e[var] = 0
        lines = [f"{var} = 0", f"while {var} < {lim}" + (f" and {self.cond(e)}:" if self.r.random() < 0.4 else ":")]
        e[var] = 0
        body = self.body(e, depth, True)
        lines += ["    " + l for l in body if l.strip() != "continue"]
        lines.append(f"    {var} += 1")
        return lines

    def prange_stmt(self, env):
        """Statements valid in a prange body: element stores at the loop index
        into shared arrays, and local temporaries."""
        r = self.r
        i = self.loopvars[-1]
        arrs = [a for a in self.arrays(env) if a not in self.copyvars and env[a].size]
        if r.random() < 0.3 or not arrs:
            src, v = self.good_expr(env, lambda v: not isinstance(v, np.ndarray))
            return [f"{self.fresh('t')} = {src}"] if src else []
        a = r.choice(arrs)
        A = env[a]
        idx = [f"{i} % {A.shape[0]}" if r.random() < 0.1 else i] + [self.idx(env, n) for n in A.shape[1:]]
        if r.random() < 0.3 and A.ndim > 1:
            idx = idx[:1]
        src, v = self.good_expr(env)
        if src is None:
            return []
        op = "=" if r.random() < 0.8 else r.choice(["+=", "*="])
        return [f"{a}[{', '.join(idx)}] {op} {src}"]

    def prange_loop(self, env, depth):
        r = self.r
        arrs = [a for a in self.arrays(env) if a not in self.copyvars and env[a].size]
        if not arrs:
            return []
        a = r.choice(arrs)
        var = self.fresh("i_")
        n = f"len({a})" if r.random() < 0.7 else f"{a}.shape[0] - 1"
        lo = "" if r.random() < 0.7 else "1, "
        e = _snapshot(env)
        e[var] = 0
        self.loopvars.append(var)
        try:
            body = self.body(e, depth, False, in_prange=True)
        finally:
            self.loopvars.pop()
        return [f"for {var} in vrir.prange({lo}{n}):"] + ["    " + l for l in body]

    def early_return(self, env):
        self.returns.append(_snapshot(env))
        k = len(self.returns) - 1
        return [f"if {self.cond(env)}:", f"    return __RET{k}__"]

    # ---------------------------------------------------------------- functions
    def function(self, name, params, env, nstmts, allow_helpers=True):
        self.returns = []
        lines = []
        for _ in range(nstmts):
            s = self.stmt(env, 2, False)
            if not s:
                continue
            trial = _snapshot(env)
            if self.exec_ok("\n".join(_exec_form(s)), trial):
                env.clear()
                env.update(trial)
                lines += s
        # the result
        r = self.r
        rets, vals = [], []
        if r.random() < 0.1:
            rets = None
        else:
            computed = [k for k in self.vars_where(env, _ok_value) if k not in params and not k.startswith("w_")]
            for _ in range(r.choice([1, 1, 2, 3])):
                if computed and r.random() < 0.5:
                    nm = r.choice(computed)
                    rets.append(nm), vals.append(env[nm])
                else:
                    src, v = self.good_expr(env)
                    if src is not None:
                        rets.append(src), vals.append(v)
            if not rets:
                rets = None
        if rets is None:
            final = "return"
            early = ["return"] * len(self.returns)
        else:
            final = "return " + ", ".join(rets)
            early = []
            for snap in self.returns:
                items = []
                for v in vals:
                    key = tykey(v)
                    src, _ = self.good_expr(snap, lambda w, key=key: tykey(w) == key, tries=30)
                    if src is None:
                        break
                    items.append(src)
                early.append("return " + ", ".join(items) if len(items) == len(vals) else None)
        out = []
        for l in lines:
            m = re.search(r"return __RET(\d+)__", l)
            if m:
                e = early[int(m.group(1))]
                l = l.replace(m.group(0), e if e else "pass")
            out.append(l)
        src = f"def {name}({', '.join(params)}):\n" + "".join(f"    {l}\n" for l in out) + f"    {final}\n"
        return src


class _Deadline:
    """Interrupts a generator evaluation that takes too long."""

    def __init__(self, secs):
        self.secs = secs

    def __enter__(self):
        import signal
        self.old = signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, self.secs)

    def __exit__(self, *exc):
        import signal
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, self.old)
        return False


def _safe(src, env):
    """No huge powers or shifts (Python ints are unbounded; CPython does not
    interrupt them)."""
    try:
        tree = ast.parse(src)
    except SyntaxError:
        return False
    for node in ast.walk(tree):
        rhs = None
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Pow, ast.LShift)):
            rhs = node.right
        elif isinstance(node, ast.AugAssign) and isinstance(node.op, (ast.Pow, ast.LShift)):
            rhs = node.value
        elif isinstance(node, ast.Call) and ast.unparse(node.func) in ("np.power", "math.pow", "pow") \
                and len(node.args) == 2:
            rhs = node.args[1]
        if rhs is None:
            continue
        if any(isinstance(n, ast.BinOp) and isinstance(n.op, (ast.Pow, ast.LShift))
               for n in ast.walk(rhs)):
            return False
        ok, v = _quiet_eval(ast.unparse(rhs), env)
        try:
            if ok and np.max(np.abs(np.asarray(v))) > 64:
                return False
        except Exception:
            return False
    return True


def _lay_local(a, how):
    ns = {}
    exec(CASE_HEADER.format(name=""), ns)
    return ns["_lay"](a, how)


def _exec_form(lines):
    """Statements as the generator executes them (returns become pass)."""
    return [re.sub(r"return .*$|return$", "pass", l) for l in lines]


def _deviation_in(src, env):
    """Documented deviations the generator does not produce: `~` on a Python
    bool, min/max of mixed int and float."""
    try:
        tree = ast.parse(src, mode="eval")
    except SyntaxError:
        return True
    for node in ast.walk(tree):
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert):
            ok, v = _quiet_eval(ast.unparse(node.operand), env)
            if ok and isinstance(v, bool):
                return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("min", "max"):
            kinds = set()
            for a in node.args:
                ok, v = _quiet_eval(ast.unparse(a), env)
                if ok:
                    kinds.add(np.asarray(v).dtype.kind)
            if len(kinds) > 1:
                return True
    return False


def _quiet_eval(src, env):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            return True, eval(src, EVAL_GLOBALS, dict(env))
        except Exception:
            return False, None


def generate_case(rng, path, name):
    g = Gen(rng)
    nparams = rng.randint(1, 4)
    args, params = [], []
    for k in range(nparams):
        if rng.random() < 0.6:
            args.append(g.rand_array())
            params.append(f"a{k}")
        else:
            args.append(g.rand_scalar())
            params.append(f"s{k}")
    funcs = []
    helper_env = {}
    if rng.random() < 0.25:
        # a jit callee with its own parameters
        hparams = params[: rng.randint(1, len(params))]
        henv = {p: copy.deepcopy(a) for p, a in zip(params, args) if p in hparams}
        hsrc = g.function("h0", hparams, henv, rng.randint(1, 3))
        ns = dict(EVAL_GLOBALS)
        try:
            exec(hsrc, ns)
            g.helpers.append(("h0", ns["h0"], len(hparams)))
            EVAL_GLOBALS["h0"] = ns["h0"]
            funcs.append("@vrir.jit\n" + hsrc)
        except Exception:
            pass
    env = {p: copy.deepcopy(a) for p, a in zip(params, args)}
    fsrc = g.function("f", params, env, rng.randint(2, 7))
    EVAL_GLOBALS.pop("h0", None)
    funcs.append(fsrc)
    write_case(path, name, "\n\n".join(funcs), "f", args)


# ============================================================== mutation
def _collect_corpus():
    """(module path, function name, ast.FunctionDef, module tree) for the
    jit functions of python/tests and the kernels of python/examples."""
    out = []
    for d in ("tests", "examples"):
        for fn in sorted(os.listdir(os.path.join(PYDIR, d))):
            if not fn.endswith(".py") or fn in ("conftest.py", "helpers.py", "test_fuzz_regressions.py"):
                continue
            p = os.path.join(PYDIR, d, fn)
            tree = ast.parse(open(p).read())
            for node in tree.body:
                if not isinstance(node, ast.FunctionDef):
                    continue
                jit = any("vrir.jit" in ast.unparse(dc) for dc in node.decorator_list)
                if d == "examples" and node.name not in ("main", "make_inputs", "numpy_version") \
                        and "numpy" not in node.name:
                    jit = True
                if jit:
                    out.append((p, node.name, node, tree))
    return out


def record_args(out_path, per_fn=3):
    """Runs the test suite and the examples once, recording the arguments of
    the first calls of each jit function (for the mutation mode)."""
    code = textwrap.dedent(f'''
        import os, sys, pickle, numpy as np
        sys.path.insert(0, {PYDIR!r}); sys.path.insert(0, {os.path.join(PYDIR, "tests")!r})
        sys.path.insert(0, {os.path.join(PYDIR, "examples")!r})
        import vrir, vrir.api as api
        rec = {{}}
        orig = api.JitFunction.__call__
        def call(self, *args, **kw):
            key = (self.py_func.__code__.co_filename, self.py_func.__name__)
            lst = rec.setdefault(key, [])
            if len(lst) < {per_fn} and not kw:
                try:
                    lst.append(pickle.dumps([a.copy() if isinstance(a, np.ndarray) and False else a for a in args]))
                except Exception:
                    pass
            return orig(self, *args, **kw)
        api.JitFunction.__call__ = call
        import pytest
        pytest.main(["-q", "-x", "-p", "no:cacheprovider", {os.path.join(PYDIR, "tests")!r},
                     "--ignore", {os.path.join(PYDIR, "tests", "test_fuzz_regressions.py")!r},
                     "-k", "not disk_cache"])
        pickle.dump(rec, open({out_path!r}, "wb"))
    ''')
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, timeout=1800,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


class Mutator(ast.NodeTransformer):
    OPS = [ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.BitAnd,
           ast.BitOr, ast.BitXor, ast.MatMult, ast.LShift, ast.RShift]
    CMPS = [ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Eq, ast.NotEq]

    def __init__(self, rng, names, p):
        self.r, self.names, self.p, self.done = rng, names, p, 0

    def hit(self):
        if self.r.random() < self.p:
            self.done += 1
            return True
        return False

    def visit_BinOp(self, n):
        self.generic_visit(n)
        if self.hit():
            n.op = self.r.choice(self.OPS)()
        return n

    def visit_AugAssign(self, n):
        self.generic_visit(n)
        if self.hit():
            n.op = self.r.choice(self.OPS[:10])()
        return n

    def visit_Compare(self, n):
        self.generic_visit(n)
        if self.hit():
            n.ops = [self.r.choice(self.CMPS)() for _ in n.ops]
        return n

    def visit_Constant(self, n):
        if isinstance(n.value, bool) or not isinstance(n.value, (int, float)):
            return n
        if self.hit():
            n.value = self.r.choice([0, 1, -1, 2, -2, n.value + 1, n.value - 1, -n.value, 0.5,
                                     n.value * 2, 10**10, -(2**63), 1e308])
            if isinstance(n.value, float) and self.r.random() < 0.5 and n.value == int(n.value) \
                    and abs(n.value) < 1e18:
                n.value = int(n.value)
        return n

    def visit_Name(self, n):
        if isinstance(n.ctx, ast.Load) and self.names and n.id in self.names and self.hit():
            n.id = self.r.choice(self.names)
        return n

    def visit_UnaryOp(self, n):
        self.generic_visit(n)
        if self.hit():
            return n.operand if self.r.random() < 0.5 else ast.UnaryOp(
                op=self.r.choice([ast.USub(), ast.Invert(), ast.Not()]), operand=n.operand)
        return n

    def visit_Slice(self, n):
        self.generic_visit(n)
        if self.hit():
            k = self.r.random()
            if k < 0.4:
                n.step = ast.UnaryOp(op=ast.USub(), operand=ast.Constant(1))
            elif k < 0.7:
                n.lower = ast.Constant(self.r.choice([-1, 0, 1, 100, -100]))
            else:
                n.upper = ast.Constant(self.r.choice([-1, 0, 1, 100, -100]))
        return n

    def visit_Subscript(self, n):
        self.generic_visit(n)
        if self.hit():
            k = self.r.random()
            if k < 0.3 and isinstance(n.slice, ast.Tuple) and len(n.slice.elts) > 1:
                n.slice.elts = n.slice.elts[:-1]
            elif k < 0.5 and isinstance(n.slice, ast.Tuple):
                n.slice.elts.reverse()
            elif k < 0.7:
                n.slice = ast.UnaryOp(op=ast.USub(), operand=n.slice) if not isinstance(n.slice, (ast.Slice, ast.Tuple)) else n.slice
            else:
                n.slice = ast.Tuple(elts=[n.slice, ast.Constant(0)], ctx=ast.Load()) \
                    if not isinstance(n.slice, ast.Tuple) else n.slice
        return n

    def visit_Call(self, n):
        self.generic_visit(n)
        if self.hit() and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name) \
                and n.func.value.id in ("np", "math"):
            pool = {"np": ["sum", "prod", "min", "max", "mean", "sqrt", "abs", "exp", "zeros", "ones",
                           "zeros_like", "arange", "dot", "transpose", "where", "maximum", "floor",
                           "copy", "full", "empty", "real", "conj", "power", "cumsum", "linalg"],
                    "math": ["sqrt", "floor", "ceil", "exp", "log", "fabs", "isnan", "pow"]}
            n.func.attr = self.r.choice(pool[n.func.value.id])
        elif self.hit() and n.args:
            k = self.r.random()
            if k < 0.5:
                n.args = n.args[:-1]
            else:
                n.args = n.args + [copy.deepcopy(self.r.choice(n.args))]
        return n


def _mutate_body(stmts, rng, p):
    """Drops / duplicates / swaps statements of a block (recursively)."""
    out = []
    for s in stmts:
        for field in ("body", "orelse"):
            if hasattr(s, field) and isinstance(getattr(s, field), list) and getattr(s, field):
                setattr(s, field, _mutate_body(getattr(s, field), rng, p))
        k = rng.random()
        if k < p:
            continue                     # drop
        out.append(s)
        if k < 2 * p:
            out.append(copy.deepcopy(s))  # duplicate
        elif k < 2.5 * p:
            out.append(ast.parse(rng.choice(["break", "continue", "return", "pass"])).body[0])
    if len(out) >= 2 and rng.random() < p * 2:
        i, j = rng.randrange(len(out)), rng.randrange(len(out))
        out[i], out[j] = out[j], out[i]
    return out or [ast.Pass()]


def _needed_globals(fnode, tree, fname):
    """Module-level defs / constants the function (transitively) refers to."""
    defs = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            defs[node.name] = node
        elif isinstance(node, ast.Assign) and all(isinstance(t, ast.Name) for t in node.targets):
            for t in node.targets:
                defs[t.id] = node
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for a in node.names:
                defs[(a.asname or a.name).split(".")[0]] = node
    need, order, todo = set(), [], [fnode]
    while todo:
        n = todo.pop()
        for sub in ast.walk(n):
            if isinstance(sub, ast.Name) and sub.id in defs and sub.id != fname and sub.id not in need:
                need.add(sub.id)
                todo.append(defs[sub.id])
    seen = set()
    for node in tree.body:
        for k, v in defs.items():
            if v is node and k in need and id(node) not in seen:
                seen.add(id(node))
                order.append(node)
    return order


def mutate_case(rng, corpus, recorded, path, name):
    for _ in range(20):
        p, fname, node, tree = rng.choice(corpus)
        arglists = recorded.get((p, fname))
        if arglists:
            args = pickle.loads(rng.choice(arglists))
            break
        if "examples" in p:
            mod = _load_example(p)
            if mod is not None:
                try:
                    args = list(mod.make_inputs(rng.choice([3, 4, 5, 6])))
                    nparams = len(node.args.args)
                    if len(args) < nparams:
                        args += [np.zeros_like(args[-1])] * (nparams - len(args))
                    args = args[:nparams]
                    break
                except Exception:
                    pass
    else:
        return False
    f = copy.deepcopy(node)
    f.decorator_list = []
    f.name = "f"
    local_names = sorted({n.id for n in ast.walk(f) if isinstance(n, ast.Name)} | {a.arg for a in f.args.args})
    pr = rng.choice([0.05, 0.1, 0.2])
    f.body = _mutate_body(f.body, rng, pr / 2)
    Mutator(rng, local_names, pr / 3).visit(f)
    ast.fix_missing_locations(f)
    parts = []
    for g in _needed_globals(node, tree, fname):
        if isinstance(g, (ast.Import, ast.ImportFrom)):
            txt = ast.unparse(g)
            if any(m in txt for m in ("helpers", "conftest", "pytest")):
                continue
            parts.append(txt)
        else:
            parts.append(ast.unparse(g))
    try:
        fsrc = ast.unparse(f)
        compile(fsrc, "x", "exec")
    except Exception:
        return False
    # a self-call (a recursion the mutation made) stays a call of f
    write_case(path, name, "\n\n".join(parts + [fsrc]), "f", args,
               note=f"mutated from {os.path.relpath(p, ROOT)}:{node.lineno} {fname}")
    return True


_examples = {}


def _load_example(p):
    if p not in _examples:
        try:
            sys.path.insert(0, PYDIR)
            spec = importlib.util.spec_from_file_location("ex_" + os.path.basename(p)[:-3], p)
            m = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(m)
            _examples[p] = m
        except Exception:
            _examples[p] = None
    return _examples[p]


# ============================================================== reduction
def _outcome_key(results):
    for res in results:
        if res["cls"] not in GOOD:
            key = res["cls"]
            if key == "crash":
                key += f":{res.get('signal')}"
            elif res.get("jit_exc"):
                key += ":" + res["jit_exc"].split(":")[0]
            return key
    return None


def _stmt_lists(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name in ("_lay", "make_args"):
            continue
        for field in ("body", "orelse"):
            lst = getattr(node, field, None)
            if isinstance(lst, list) and lst and isinstance(lst[0], ast.stmt) \
                    and not isinstance(node, ast.Module):
                yield node, field


def reduce_case(path, timeout, env, out_path=None):
    """Greedy statement deletion (and if/loop flattening) keeping the outcome
    class (and the signal of a crash). Writes <case>.min.py."""
    results, _ = run_one(path, timeout, env)
    target = _outcome_key(results)
    if target is None:
        print(f"{path}: no failure to reduce")
        return None
    src = open(path).read()
    out_path = out_path or path[:-3] + "_min.py"
    tries = 0
    changed = True
    while changed:
        changed = False
        tree = ast.parse(src)
        spots = []
        for node, field in _stmt_lists(tree):
            for k in range(len(getattr(node, field))):
                spots.append((node, field, k))
        for idx in range(len(spots) - 1, -1, -1):
            for variant in ("drop", "flatten"):
                t2 = ast.parse(src)
                sp = [(n, f, k) for n, f in _stmt_lists(t2) for k in range(len(getattr(n, f)))]
                if idx >= len(sp):
                    continue
                node, field, k = sp[idx]
                lst = getattr(node, field)
                st = lst[k]
                if variant == "drop":
                    new = lst[:k] + lst[k + 1:]
                elif isinstance(st, (ast.If, ast.With)) or (isinstance(st, ast.For) and variant == "flatten"
                                                             and isinstance(st.target, ast.Name)):
                    body = list(st.body) + list(getattr(st, "orelse", []))
                    if isinstance(st, ast.For):
                        first = ast.parse(f"{st.target.id} = 0").body[0]
                        body = [first] + body
                    new = lst[:k] + body + lst[k + 1:]
                else:
                    continue
                setattr(node, field, new or [ast.Pass()])
                cand = ast.unparse(ast.fix_missing_locations(t2))
                with open(out_path, "w") as fh:
                    fh.write(cand + "\n")
                tries += 1
                res, _ = run_one(out_path, timeout, env)
                if _outcome_key(res) == target:
                    src = cand + "\n"
                    changed = True
                    break
    with open(out_path, "w") as fh:
        fh.write(src)
    print(f"{path}: {target} reduced in {tries} runs -> {out_path}")
    return out_path


# ============================================================== the parent
def run_one(case, timeout, env):
    t0 = time.time()
    try:
        cp = subprocess.run([sys.executable, os.path.abspath(__file__), "--run-case", case],
                            capture_output=True, text=True, timeout=timeout, env=env, cwd=ROOT)
    except subprocess.TimeoutExpired as e:
        return [{"cls": "timeout", "stderr": (e.stderr or b"")[-2000:].decode(errors="replace")
                 if isinstance(e.stderr, bytes) else (e.stderr or "")[-2000:]}], time.time() - t0
    m = re.search(r"^@@RESULT (.*)$", cp.stdout, re.M)
    if cp.returncode != 0 or not m:
        sig = -cp.returncode if cp.returncode < 0 else None
        return [{"cls": "crash", "returncode": cp.returncode,
                 "signal": sig, "stderr": cp.stderr[-3000:], "stdout": cp.stdout[-1000:]}], time.time() - t0
    return json.loads(m.group(1)), time.time() - t0


def signature_of(res):
    """A coarse key grouping failures of one kind (for the summary)."""
    cls = res["cls"]
    txt = res.get("jit_exc") or res.get("diff") or res.get("stderr") or ""
    txt = re.sub(r"/[^\s:]*\.(py|mlir)", "FILE", txt)
    txt = re.sub(r"\d+", "N", txt)
    first = txt.strip().splitlines()[:1]
    if cls == "crash":
        lines = [l for l in (res.get("stderr") or "").splitlines()
                 if "Assertion" in l or "error" in l.lower() or "Fatal" in l]
        first = [re.sub(r"\d+", "N", lines[0])] if lines else [f"signal {res.get('signal')}"]
    return f"{cls}: {first[0][:160] if first else ''}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--out", default="/tmp/vrir-fuzz")
    ap.add_argument("--mode", choices=["gen", "mutate", "both"], default="both")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--keep-all", action="store_true", help="keep every case, not only failures")
    ap.add_argument("--run-case", help=argparse.SUPPRESS)
    ap.add_argument("--reduce", nargs="+", metavar="CASE",
                    help="minimize the given failing cases (statement deletion) and exit")
    ap.add_argument("--no-bcoff", action="store_true", help="skip the boundscheck=False run")
    ap.add_argument("--budget", "--seconds", type=float, default=0,
                    help="stop starting cases after this many seconds")
    ap.add_argument("--strict", action="store_true",
                    help="exit with status 1 if any outcome is outside GOOD and NOTED")
    a = ap.parse_args()
    if a.run_case:
        child_main(a.run_case, not a.no_bcoff)
        return
    if a.reduce:
        env = dict(os.environ, VRIR_CACHE_DIR=os.path.join(a.out, "cache"),
                   PYTHONPATH=PYDIR + os.pathsep + os.environ.get("PYTHONPATH", ""))
        for c in a.reduce:
            reduce_case(os.path.abspath(c), a.timeout, env)
        return
    os.makedirs(a.out, exist_ok=True)
    work = os.path.join(a.out, "work")
    os.makedirs(work, exist_ok=True)
    env = dict(os.environ, VRIR_CACHE_DIR=os.path.join(a.out, "cache"),
               PYTHONPATH=PYDIR + os.pathsep + os.environ.get("PYTHONPATH", ""))
    rng = random.Random(a.seed)
    corpus, recorded = [], {}
    if a.mode in ("mutate", "both"):
        corpus = _collect_corpus()
        rec = os.path.join(a.out, "recorded_args.pkl")
        if not os.path.exists(rec):
            print("recording the arguments of the test suite's jit calls ...", flush=True)
            record_args(rec)
        if os.path.exists(rec):
            recorded = pickle.load(open(rec, "rb"))
    counts = collections.Counter()
    groups = collections.defaultdict(list)
    log = open(os.path.join(a.out, "log.jsonl"), "a")
    t_start = time.time()

    def make(i):
        name = f"s{a.seed}_{i:05d}"
        path = os.path.join(work, f"case_{name}.py")
        mode = a.mode if a.mode != "both" else ("gen" if rng.random() < 0.65 else "mutate")
        crng = random.Random(f"{a.seed}-{i}")
        if mode == "mutate":
            if mutate_case(crng, corpus, recorded, path, name):
                return path, "mutate"
        generate_case(crng, path, name)
        return path, "gen"

    import concurrent.futures as cf
    pending = {}
    i = 0
    with cf.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        while i < a.count or pending:
            while i < a.count and len(pending) < a.jobs and not (a.budget and time.time() - t_start > a.budget):
                try:
                    path, mode = make(i)
                except Exception as e:
                    print(f"generator error on case {i}: {e!r}", file=sys.stderr)
                    i += 1
                    continue
                pending[ex.submit(run_one, path, a.timeout, env)] = (i, path, mode)
                i += 1
            if not pending:
                break
            done, _ = cf.wait(list(pending), return_when=cf.FIRST_COMPLETED)
            for fut in done:
                k, path, mode = pending.pop(fut)
                results, dt = fut.result()
                worst = None
                for res in results:
                    counts[res["cls"]] += 1
                    if res["cls"] not in GOOD and worst is None:
                        worst = res
                rec = {"case": path, "mode": mode, "secs": round(dt, 2), "results": results}
                log.write(json.dumps(rec) + "\n")
                log.flush()
                if worst is not None or a.keep_all:
                    cls = worst["cls"] if worst else results[0]["cls"]
                    d = os.path.join(a.out, cls)
                    os.makedirs(d, exist_ok=True)
                    dst = os.path.join(d, os.path.basename(path))
                    shutil.copy(path, dst)
                    with open(dst[:-3] + ".txt", "w") as fh:
                        fh.write(json.dumps(results, indent=1))
                    if worst is not None:
                        groups[signature_of(worst)].append(dst)
                os.unlink(path)
                n = sum(1 for _ in counts)
                if (k + 1) % 25 == 0:
                    print(f"[{k + 1}/{a.count} {time.time() - t_start:.0f}s] "
                          + ", ".join(f"{c}={v}" for c, v in sorted(counts.items())), flush=True)
    print("\n== outcomes (per run; a case has a jit and often a boundscheck=False run)")
    for c, v in sorted(counts.items(), key=lambda x: -x[1]):
        print(f"  {c:22s} {v}")
    print("\n== failure groups")
    for sig, paths in sorted(groups.items(), key=lambda x: -len(x[1])):
        print(f"  {len(paths):4d}  {sig}\n        e.g. {paths[0]}")
    with open(os.path.join(a.out, "summary.json"), "w") as fh:
        json.dump({"counts": counts, "groups": groups}, fh, indent=1)
    bad = {c: v for c, v in counts.items() if c not in GOOD | NOTED}
    print(f"\n{sum(counts.values())} runs of {i} cases in {time.time() - t_start:.0f}s; "
          f"failing outcomes: {bad or 'none'} (cases kept in {a.out})")
    if a.strict and bad:
        sys.exit(1)


if __name__ == "__main__":
    main()
