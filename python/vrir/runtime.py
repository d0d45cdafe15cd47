"""Compiling through vr-run and calling the shared library with ctypes.

Arguments are passed without copies: an array's descriptor points at its
NumPy buffer. The call goes through `vrir_rt_try` with a small C thunk
(compiled once per C signature and cached) that unpacks a context struct
and calls `_mlir_ciface_<fn>`: a VRIR bounds error longjmps back into
`vrir_rt_try`, so no Python frame may lie between the two.
"""
import ctypes
import hashlib
import os
import subprocess
import tempfile
import weakref

import numpy as np

from . import cache
from .errors import CompileError
from .types import ArrT, ELEM_TO_NP

FRONTEND_VERSION = "0.1.0-1"
COMPILE_COUNT = 0  # vr-run invocations in this process (tests use it)


def build_dir():
    d = os.environ.get("VRIR_BUILD_DIR")
    if d:
        return d
    return os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..", "build"))


def vr_run():
    return os.path.join(build_dir(), "bin", "vr-run")


_runtime = None


def runtime_lib():
    global _runtime
    if _runtime is None:
        path = os.path.join(build_dir(), "lib", "libvrir_runtime.so")
        if not os.path.exists(path):
            raise CompileError(f"cannot find the VRIR runtime at {path} (set VRIR_BUILD_DIR)")
        lib = ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
        lib.vrir_rt_try.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
        lib.vrir_rt_try.restype = ctypes.c_int
        lib.vrir_rt_last_error.restype = ctypes.c_char_p
        lib.vrir_rt_free.argtypes = [ctypes.c_void_p]
        lib.vrir_rt_free.restype = None
        _runtime = lib
    return _runtime


# ---------------------------------------------------------------- ctypes types
C_SCALAR = {"f64": ctypes.c_double, "f32": ctypes.c_float, "i64": ctypes.c_int64,
            "i32": ctypes.c_int32, "i1": ctypes.c_uint8}
C_TEXT = {"f64": "double", "f32": "float", "i64": "int64_t", "i32": "int32_t",
          "i1": "uint8_t"}
C_PARAM = dict(C_TEXT, i1="_Bool")

_desc_cache = {}


def descriptor(rank):
    d = _desc_cache.get(rank)
    if d is None:
        fields = [("allocated", ctypes.c_void_p), ("aligned", ctypes.c_void_p),
                  ("offset", ctypes.c_int64)]
        if rank:
            fields += [("sizes", ctypes.c_int64 * rank), ("strides", ctypes.c_int64 * rank)]
        d = type(f"Desc{rank}", (ctypes.Structure,), {"_fields_": fields})
        _desc_cache[rank] = d
    return d


def c_desc(rank):
    if rank:
        return f"struct {{ void *allocated, *aligned; int64_t offset, sizes[{rank}], strides[{rank}]; }}"
    return "struct { void *allocated, *aligned; int64_t offset; }"


def thunk_source(argtypes, rtypes):
    lines = ["#include <stdint.h>", "#include <stdbool.h>"]
    fields, params, call_args = [], [], []
    ret = "void"
    ctypes_fields = []
    if len(rtypes) >= 2:
        rf = []
        for k, t in enumerate(rtypes):
            rf.append(f"{c_desc(t.rank) if isinstance(t, ArrT) else C_TEXT[t]} r{k};")
        fields.append("struct { " + " ".join(rf) + " } res;")
        params.append("void *")
        call_args.append("&c->res")
    elif len(rtypes) == 1 and isinstance(rtypes[0], ArrT):
        fields.append(f"{c_desc(rtypes[0].rank)} res;")
        params.append("void *")
        call_args.append("&c->res")
    elif len(rtypes) == 1:
        fields.append(f"{C_TEXT[rtypes[0]]} res;")
        ret = C_TEXT[rtypes[0]]
    for k, t in enumerate(argtypes):
        if isinstance(t, ArrT):
            fields.append(f"{c_desc(t.rank)} a{k};")
            params.append("void *")
            call_args.append(f"&c->a{k}")
        else:
            fields.append(f"{C_TEXT[t]} a{k};")
            params.append(C_PARAM[t])
            call_args.append(f"c->a{k}")
    fields.append("void *fn;")
    lines.append("struct Ctx { " + " ".join(fields) + " };")
    lines.append(f"typedef {ret} (*Fn)({', '.join(params) or 'void'});")
    body = f"((Fn)c->fn)({', '.join(call_args)})"
    if len(rtypes) == 1 and not isinstance(rtypes[0], ArrT):
        body = f"c->res = {body}"
        if rtypes[0] == "i1":
            body += " & 1"
    lines.append(f"void vrir_thunk(void *p) {{ struct Ctx *c = p; {body}; }}")
    return "\n".join(lines) + "\n"


def ctx_struct(argtypes, rtypes):
    fields = []
    if len(rtypes) >= 2:
        rf = [(f"r{k}", descriptor(t.rank) if isinstance(t, ArrT) else C_SCALAR[t])
              for k, t in enumerate(rtypes)]
        R = type("Results", (ctypes.Structure,), {"_fields_": rf})
        fields.append(("res", R))
    elif len(rtypes) == 1:
        t = rtypes[0]
        fields.append(("res", descriptor(t.rank) if isinstance(t, ArrT) else C_SCALAR[t]))
    for k, t in enumerate(argtypes):
        fields.append((f"a{k}", descriptor(t.rank) if isinstance(t, ArrT) else C_SCALAR[t]))
    fields.append(("fn", ctypes.c_void_p))
    return type("Ctx", (ctypes.Structure,), {"_fields_": fields})


def c_compiler():
    for cc in ("clang-22", "cc", "gcc"):
        for d in os.environ.get("PATH", "").split(os.pathsep):
            if os.access(os.path.join(d, cc), os.X_OK):
                return os.path.join(d, cc)
    raise CompileError("no C compiler (clang-22 or cc) found to build the call thunk")


# ---------------------------------------------------------------- compilation
class _Owner:
    """Keeps a result buffer alive; frees it with vrir_rt_free on collection."""

    def __init__(self, ptr, nbytes, allocated, typestr):
        self.__array_interface__ = {"data": (ptr, False), "shape": (nbytes,),
                                    "typestr": "|u1", "version": 3}
        weakref.finalize(self, runtime_lib().vrir_rt_free, allocated)


def _to_numpy(desc, t, inputs, owners):
    rank = t.rank
    dtype = ELEM_TO_NP[t.elem]
    item = dtype.itemsize
    shape = tuple(desc.sizes[k] for k in range(rank))
    strides = tuple(desc.strides[k] * item for k in range(rank))
    alloc = desc.allocated
    base = desc.aligned + desc.offset * item if desc.aligned else 0
    size = int(np.prod(shape))
    if alloc in inputs:  # aliases an argument: never free it, copy
        if size == 0:
            return np.empty(shape, dtype)
        owner_arr = np.lib.stride_tricks.as_strided(
            np.frombuffer((ctypes.c_char * item).from_address(base), dtype=dtype), shape, strides)
        return owner_arr.copy()
    if size == 0 or not alloc:
        if alloc:
            runtime_lib().vrir_rt_free(alloc)
        return np.empty(shape, dtype)
    # the span of bytes the view touches, starting at the lowest address
    lo = sum(min(0, (n - 1) * s) for n, s in zip(shape, strides))
    hi = sum(max(0, (n - 1) * s) for n, s in zip(shape, strides)) + item
    if alloc in owners:  # several results share one buffer: free it once
        owner, start = owners[alloc]
        if base + lo < start or base + hi > start + owner.nbytes:
            raise RuntimeError("vrir: results share a buffer in an unexpected way")
        return np.ndarray(shape, dtype, buffer=owner, offset=base - start, strides=strides)
    owner = np.asarray(_Owner(base + lo, hi - lo, alloc, "|u1"))
    owners[alloc] = (owner, base + lo)
    return np.ndarray(shape, dtype, buffer=owner, offset=-lo, strides=strides)


def _scalar_out(v, t):
    if t == "f64":
        return float(v)
    if t == "i64":
        return int(v)
    if t == "i1":
        return bool(v & 1)
    return ELEM_TO_NP[t].type(v)


class Kernel:
    def __init__(self, name, argtypes, rtypes, so_path, thunk_path, symbol, mlir_path):
        self.name, self.argtypes, self.rtypes = name, argtypes, rtypes
        self.mlir_path = mlir_path
        self.lib = ctypes.CDLL(so_path)
        self.thunk = ctypes.CDLL(thunk_path)
        self.fn = ctypes.cast(getattr(self.lib, f"_mlir_ciface_{symbol}"), ctypes.c_void_p).value
        self.thunk_fn = ctypes.cast(self.thunk.vrir_thunk, ctypes.c_void_p).value
        self.Ctx = ctx_struct(argtypes, rtypes)

    def __call__(self, values):
        rt = runtime_lib()
        ctx = self.Ctx()
        ctx.fn = self.fn
        inputs = set()
        for k, (v, t) in enumerate(zip(values, self.argtypes)):
            if isinstance(t, ArrT):
                d = getattr(ctx, f"a{k}")
                ptr = v.ctypes.data
                d.allocated = d.aligned = ptr
                inputs.add(ptr)
                d.offset = 0
                item = v.itemsize
                if t.layout == "strided":
                    strides = [s // item for s in v.strides]
                else:  # canonical contiguous strides (NumPy may differ on size-1 dims)
                    strides, acc = [0] * v.ndim, 1
                    order = range(v.ndim - 1, -1, -1) if t.layout == "row_major" else range(v.ndim)
                    for i in order:
                        strides[i] = acc
                        acc *= v.shape[i]
                for i in range(v.ndim):
                    d.sizes[i] = v.shape[i]
                    d.strides[i] = strides[i]
            else:
                setattr(ctx, f"a{k}", bool(v) if t == "i1" else v)
        status = rt.vrir_rt_try(self.thunk_fn, ctypes.byref(ctx))
        if status != 0:
            msg = rt.vrir_rt_last_error().decode(errors="replace")
            if msg.startswith("index out of bounds"):
                raise IndexError(msg)
            raise ValueError(msg)
        r = self.rtypes
        owners = {}
        if not r:
            return None
        if len(r) == 1:
            return self._out(ctx.res, r[0], inputs, owners)
        return tuple(self._out(getattr(ctx.res, f"r{k}"), t, inputs, owners)
                     for k, t in enumerate(r))

    def _out(self, v, t, inputs, owners):
        if isinstance(t, ArrT):
            return _to_numpy(v, t, inputs, owners)
        return _scalar_out(v, t)


def _run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def compile_kernel(jitfn, argtypes):
    from .frontend import build_module
    sig_text = jitfn.py_func.__qualname__ + ":" + ",".join(map(str, argtypes))
    symbol = "vrir_" + "".join(c if c.isalnum() else "_" for c in jitfn.__name__) + "_" + \
        hashlib.sha1(sig_text.encode()).hexdigest()[:10]
    text, rtypes = build_module(jitfn, argtypes, symbol)
    tool = vr_run()
    if not os.path.exists(tool):
        raise CompileError(f"cannot find vr-run at {tool} (set VRIR_BUILD_DIR)")
    st = os.stat(tool)
    key = hashlib.sha256((FRONTEND_VERSION + f"{st.st_size}:{st.st_mtime_ns}\n" + text).encode()).hexdigest()[:32]
    d = cache.cache_dir()
    so = os.path.join(d, key + ".so")
    mlir = os.path.join(d, key + ".mlir")
    if not os.path.exists(so):
        cache.atomic_write(mlir, text.encode())
        with tempfile.TemporaryDirectory(dir=d) as tmp:
            out = os.path.join(tmp, "k.so")
            global COMPILE_COUNT
            COMPILE_COUNT += 1
            p = _run([tool, mlir, "--entry", symbol, "--emit-shared", out])
            if p.returncode != 0:
                msg = (p.stderr or p.stdout).strip()
                raise CompileError(f"compiling {jitfn.__name__} failed:\n{msg}\n(MLIR kept in {mlir})")
            os.replace(out, so)
    csrc = thunk_source(argtypes, rtypes)
    tkey = hashlib.sha256(csrc.encode()).hexdigest()[:32]
    thunk = os.path.join(d, "thunk_" + tkey + ".so")
    if not os.path.exists(thunk):
        with tempfile.TemporaryDirectory(dir=d) as tmp:
            c = os.path.join(tmp, "t.c")
            with open(c, "w") as f:
                f.write(csrc)
            out = os.path.join(tmp, "t.so")
            p = _run([c_compiler(), "-O1", "-shared", "-fPIC", c, "-o", out])
            if p.returncode != 0:
                raise CompileError("building the call thunk failed:\n" + p.stderr)
            os.replace(out, thunk)
    return Kernel(jitfn.__name__, argtypes, rtypes, so, thunk, symbol, mlir)
