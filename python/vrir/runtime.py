"""Compiling through the compiler's C API (compiler.py) and calling the
shared library with ctypes.

Arguments are passed without copies: an array's descriptor points at its
NumPy buffer. A call goes through `vrir._call` (lib/Bindings/Python, in C):
it writes the arguments into a context struct laid out as `ctx_struct`
describes and calls the packed entry point `_mlir__mlir_ciface_<fn>(void
**args)` that the compiler adds to the library through `vrir_rt_try`: a
VRIR bounds error longjmps back into `vrir_rt_try`, so no Python frame may
lie between the two.
"""
import ctypes
import hashlib
import importlib.machinery
import importlib.util
import json
import os
import shutil
import tempfile
import time
import warnings
import weakref

import numpy as np

from . import cache, compiler, tiering
from .errors import CompileError
from .frontend import build_module
from .types import ArrT, ELEM_TO_NP, C64, C128, ListArrT, NumPyScalarArg

# The Python exceptions of run-time errors whose message starts with their
# name: the frontend's checks, and `raise` and `assert` in compiled code.
RAISED_AGAIN = (ZeroDivisionError, OverflowError, UnboundLocalError, ValueError, IndexError,
                TypeError, KeyboardInterrupt, ArithmeticError, AssertionError, Exception,
                FloatingPointError, KeyError, LookupError, NotImplementedError, RuntimeError)

# The messages of the dialect's LAPACK ops that NumPy raises as LinAlgError.
LINALG_ERRORS = tuple(f"{op}: {what}" for op in ("cholesky", "inv", "solve", "det", "slogdet",
                                                    "eigh", "svd")
                      for what in ("matrix is not square", "matrix is not positive definite",
                                   "singular matrix", "eigenvalues did not converge",
                                   "SVD did not converge"))

FRONTEND_VERSION = "0.1.0-2"
COMPILE_COUNT = 0  # compilations in this process (tests use it)


def build_dir():
    return compiler.build_dir()


_runtime = None

def runtime_lib():
    global _runtime
    if _runtime is None:
        path = os.path.join(build_dir(), "lib", "libvrir_runtime.so")
        if not os.path.exists(path):
            raise CompileError(f"cannot find the VRIR runtime at {path} (set VRIR_BUILD_DIR)")
        compiler.choose_openblas_core()
        lib = ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
        lib.vrir_rt_try.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
        lib.vrir_rt_try.restype = ctypes.c_int
        # Ctrl-C stops a kernel called from the main thread (its loops poll a
        # flag that SIGINT sets), then reaches Python's handler as usual.
        lib.vrir_rt_try_interruptible.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
        lib.vrir_rt_try_interruptible.restype = ctypes.c_int
        lib.vrir_rt_last_error.restype = ctypes.c_char_p
        lib.vrir_rt_free.argtypes = [ctypes.c_void_p]
        lib.vrir_rt_free.restype = None
        _runtime = lib
    return _runtime


_call_module = None


def call_module():
    """vrir._call, the C extension that calls kernels (built with the
    runtime into <build>/lib)."""
    global _call_module
    if _call_module is None:
        runtime_lib()  # it links against the runtime
        lib = os.path.join(build_dir(), "lib")
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = os.path.join(lib, "_call" + suffix)
            if os.path.exists(path):
                break
        else:
            raise CompileError(f"cannot find vrir._call in {lib}: build VRIR with the "
                               "Python headers installed (Debian: python3-dev)")
        spec = importlib.util.spec_from_file_location("vrir._call", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _call_module = module
        # Later calls go straight to C.
        globals()["signature_key"] = module.signature_key
    return _call_module


def signature_key(*args):
    """Bytes naming the frontend types of `args` (equal keys, equal types),
    or None when an argument needs `arg_type` to say what it is."""
    return call_module().signature_key(*args)


class _GpuStats(ctypes.Structure):
    # vrir_gpu_stats of include/VRIR/Runtime/VRIRGPURuntime.h
    _fields_ = [("kernels", ctypes.c_int64), ("uploads", ctypes.c_int64),
                ("downloads", ctypes.c_int64), ("bytes_uploaded", ctypes.c_int64),
                ("bytes_downloaded", ctypes.c_int64), ("compiles", ctypes.c_int64),
                ("compile_seconds", ctypes.c_double), ("waits", ctypes.c_int64),
                ("disk_cache_hits", ctypes.c_int64), ("evictions", ctypes.c_int64),
                ("fallbacks", ctypes.c_int64), ("wait_seconds", ctypes.c_double),
                ("shared_copies", ctypes.c_int64), ("device_copies", ctypes.c_int64)]


class _RegionStats(ctypes.Structure):
    # vrir_rt_region_stats of include/VRIR/Runtime/VRIRRegions.h
    _fields_ = [("name", ctypes.c_char_p), ("calls", ctypes.c_uint64),
                ("hits", ctypes.c_uint64), ("misses", ctypes.c_uint64),
                ("generic", ctypes.c_uint64), ("compile_failures", ctypes.c_uint64),
                ("compile_ms", ctypes.c_double), ("checks", ctypes.c_uint64),
                ("proven", ctypes.c_uint64), ("cached", ctypes.c_uint64),
                ("compiles", ctypes.c_uint64), ("facts", ctypes.c_int),
                ("background_compiles", ctypes.c_uint64), ("run_ms", ctypes.c_double)]


# VRIR_RT_SPECIALIZE_* of VRIRRegions.h
_SPECIALIZATION_MODES = {"off": 0, "all": 1, "alias": 2, "auto": 3}
_FACTS_NAMES = {1: "all", 2: "alias"}


def set_specialization(mode, cache_size=0, background=None):
    """What specialised regions are compiled for, process-wide: "auto"
    (chosen per region on its first call, the default), "all" (shapes,
    strides, critical values and aliasing), "alias" (aliasing only: one
    version per overlap pattern) or "off" (generic versions); if
    `cache_size` > 0, how many versions each region keeps; and if
    `background` is given, whether a region that runs for less than a
    compile takes runs its generic version while a new version compiles in
    a background thread (the default, VRIR_SPECIALIZE_BACKGROUND=0 turns it
    off) or waits for it."""
    if mode not in _SPECIALIZATION_MODES:
        raise ValueError(f"specialization mode must be one of "
                         f"{', '.join(_SPECIALIZATION_MODES)}, not {mode!r}")
    lib = runtime_lib()
    lib.vrir_rt_set_specialization.argtypes = [ctypes.c_int, ctypes.c_int]
    lib.vrir_rt_set_specialization.restype = None
    lib.vrir_rt_set_specialization(_SPECIALIZATION_MODES[mode], int(cache_size))
    if background is not None:
        lib.vrir_rt_set_background_compiles.argtypes = [ctypes.c_int]
        lib.vrir_rt_set_background_compiles.restype = None
        lib.vrir_rt_set_background_compiles(1 if background else 0)


def wait_for_specializations():
    """Returns when no region version is compiling in the background."""
    lib = runtime_lib()
    lib.vrir_rt_region_wait.restype = None
    lib.vrir_rt_region_wait()


def region_stats():
    """Per specialised region called in this process (by its function's
    name): calls, cache hits and misses, calls that ran the generic version,
    failed compiles, compile time, bounds checks of the specialised versions
    and those proven never to fail, versions cached now, compiles, what
    the versions are compiled for ("all" facts, "alias" only, None before
    the first), compiles started in the background (background_compiles)
    and the latest call's run time (run_ms)."""
    lib = runtime_lib()
    lib.vrir_rt_region_count.restype = ctypes.c_int
    lib.vrir_rt_region_get_stats.argtypes = [ctypes.c_int, ctypes.POINTER(_RegionStats)]
    lib.vrir_rt_region_get_stats.restype = ctypes.c_int
    result = {}
    for index in range(lib.vrir_rt_region_count()):
        stats = _RegionStats()
        if lib.vrir_rt_region_get_stats(index, ctypes.byref(stats)) == 0:
            entry = {name: getattr(stats, name) for name, _ in _RegionStats._fields_[1:]}
            entry["facts"] = _FACTS_NAMES.get(entry["facts"])
            result[stats.name.decode()] = entry
    return result


def reset_region_stats():
    runtime_lib().vrir_rt_region_reset_stats()


_gpu_runtime = None


def gpu_runtime_lib():
    """libvrir_gpu_runtime.so (loaded once; it loads no driver by itself)."""
    global _gpu_runtime
    if _gpu_runtime is None:
        runtime_lib()  # the GPU runtime links against it
        path = os.path.join(build_dir(), "lib", "libvrir_gpu_runtime.so")
        if not os.path.exists(path):
            raise CompileError(f"cannot find the VRIR GPU runtime at {path} (set VRIR_BUILD_DIR)")
        lib = ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
        lib.vrir_gpu_get_stats.argtypes = [ctypes.POINTER(_GpuStats)]
        lib.vrir_gpu_get_stats.restype = None
        lib.vrir_gpu_reset_stats.argtypes = []
        lib.vrir_gpu_reset_stats.restype = None
        _gpu_runtime = lib
    return _gpu_runtime


def gpu_stats():
    stats = _GpuStats()
    gpu_runtime_lib().vrir_gpu_get_stats(ctypes.byref(stats))
    return {name: getattr(stats, name) for name, _ in _GpuStats._fields_}


def reset_gpu_stats():
    gpu_runtime_lib().vrir_gpu_reset_stats()


# ---------------------------------------------------------------- ctypes types
class CComplex128(ctypes.Structure):
    _fields_ = [("re", ctypes.c_double), ("im", ctypes.c_double)]


class CComplex64(ctypes.Structure):
    _fields_ = [("re", ctypes.c_float), ("im", ctypes.c_float)]


# An MLIR complex<f64> is the LLVM struct {double, double}, laid out like
# C's `double _Complex`. The packed entry point reads arguments through
# pointers, so no C calling convention is involved; a single complex result
# comes back through a pointer, like an array (see slot_plan).
C_SCALAR = {"f64": ctypes.c_double, "f32": ctypes.c_float, "i64": ctypes.c_int64,
            "i32": ctypes.c_int32, "i16": ctypes.c_int16, "i8": ctypes.c_int8,
            "ui64": ctypes.c_uint64, "ui32": ctypes.c_uint32, "ui16": ctypes.c_uint16,
            "ui8": ctypes.c_uint8,
            "i1": ctypes.c_uint8, C128: CComplex128,
            C64: CComplex64}

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
    return type("Ctx", (ctypes.Structure,), {"_fields_": fields})


def slot_plan(Ctx, argtypes):
    """The `void **args` of the packed entry point `_mlir__mlir_ciface_<fn>`
    (MLIR ExecutionEngine's convention) over a Ctx, as (field offset,
    through a cell) per slot: a slot per argument of the C interface points
    at the value, except that arrays (passed as descriptor pointers) and
    results returned through a pointer (C structs: an array, a complex
    number, several results) are pointers themselves, so their slot points
    at a cell holding the field's address. A scalar result's slot comes
    last and points at `res`."""
    fields = dict(Ctx._fields_)
    plan = []
    by_pointer = "res" in fields and issubclass(fields["res"], ctypes.Structure)
    if by_pointer:
        plan.append((Ctx.res.offset, True))
    plan += [(getattr(Ctx, f"a{k}").offset, isinstance(t, ArrT))
             for k, t in enumerate(argtypes)]
    if "res" in fields and not by_pointer:
        plan.append((Ctx.res.offset, False))
    return plan


def argument_fields(Ctx, argtypes, kinds):
    """(offset, kind, rank, layout, NumPy type number) per argument field
    of a Ctx, for vrir._call.Caller (`kinds`: its FIELD_KINDS)."""
    layouts = {"row_major": 0, "col_major": 1, "strided": 2}
    fields = []
    for k, t in enumerate(argtypes):
        offset = getattr(Ctx, f"a{k}").offset
        if isinstance(t, ArrT):
            fields.append((offset, kinds["array"], t.rank, layouts[t.layout],
                           np.dtype(ELEM_TO_NP[t.elem]).num))
        else:
            fields.append((offset, kinds[t], 0, 0, 0))
    return fields


def result_kind(rtypes):
    """How vrir._call.Caller returns the result: 0 none, 1 a float, 2 an
    int, 3 a bool, 5 one array (a view of an argument too; for an array
    that is empty or unallocated, the bytes of the context block), 4 the
    bytes of the context block (everything else)."""
    if not rtypes:
        return 0
    if len(rtypes) == 1 and rtypes[0] in ("f64", "i64", "i1"):
        return {"f64": 1, "i64": 2, "i1": 3}[rtypes[0]]
    if len(rtypes) == 1 and isinstance(rtypes[0], ArrT):
        return 5
    return 4


def kernel_error(msg):
    """The Python exception of a run-time error message of a kernel."""
    if msg.startswith("index out of bounds"):
        return IndexError(msg)
    if msg.startswith("out of memory"):
        return MemoryError(msg)
    if msg.startswith(LINALG_ERRORS):
        return np.linalg.LinAlgError(msg)
    # the frontend's run-time checks name the Python exception
    for exc in RAISED_AGAIN:
        if msg.startswith(exc.__name__ + ": "):
            return exc(msg[len(exc.__name__) + 2:])
    return ValueError(msg)


# ---------------------------------------------------------------- compilation
class _Owner:
    """Keeps a result buffer alive; frees it with vrir_rt_free on collection."""

    def __init__(self, ptr, nbytes, allocated, typestr):
        self.__array_interface__ = {"data": (ptr, False), "shape": (nbytes,),
                                    "typestr": "|u1", "version": 3}
        weakref.finalize(self, runtime_lib().vrir_rt_free, allocated)


def _geometry(desc, t):
    dtype = ELEM_TO_NP[t.elem]
    item = dtype.itemsize
    shape = tuple(desc.sizes[k] for k in range(t.rank))
    strides = tuple(desc.strides[k] * item for k in range(t.rank))
    base = desc.aligned + desc.offset * item if desc.aligned else 0
    size = int(np.prod(shape))
    # the span of bytes the view touches, starting at the lowest address
    lo = sum(min(0, (n - 1) * s) for n, s in zip(shape, strides))
    hi = sum(max(0, (n - 1) * s) for n, s in zip(shape, strides)) + item
    return dtype, item, shape, strides, base, size, lo, hi


class _ViewOf:
    """The memory of a view that a kernel returned of its argument `base`,
    which it keeps alive."""

    def __init__(self, base, data, shape, strides, dtype):
        self.base = base
        self.__array_interface__ = {"data": (data, not base.flags.writeable),
                                    "shape": shape, "strides": strides,
                                    "typestr": dtype.str, "version": 3}


def _view_of(argument, data, shape, strides, dtype):
    """A kernel's result that is a view of `argument` (NumPy's semantics of
    `return a[1:]`): the argument itself if it is all of it, else a view
    whose writes reach it."""
    if (data == argument.__array_interface__["data"][0] and shape == argument.shape
            and strides == argument.strides and dtype == argument.dtype):
        return argument
    return np.asarray(_ViewOf(argument, data, shape, strides, dtype))


def _arrays_out(items, inputs):
    """NumPy arrays for the array results `items` [(desc, type)]; `inputs`
    maps the data pointers of the array arguments to them. Results
    whose buffers come from one allocation (the same array returned twice,
    several views of one local array) become views of one owner, which
    frees the allocation once, when the last of them dies; an allocation
    that only empty results use is freed at once (once). Results that
    are views of an argument (their allocation is its data) are views of
    it."""
    spans = {}  # allocated -> [lo, hi] over the non-empty results using it
    allocs = set()
    for desc, t in items:
        alloc = desc.allocated
        if not alloc or alloc in inputs:
            continue
        allocs.add(alloc)
        dtype, item, shape, strides, base, size, lo, hi = _geometry(desc, t)
        if size == 0:
            continue
        span = spans.setdefault(alloc, [base + lo, base + hi])
        span[0] = min(span[0], base + lo)
        span[1] = max(span[1], base + hi)
    for alloc in allocs - set(spans):
        runtime_lib().vrir_rt_free(alloc)
    owners = {alloc: np.asarray(_Owner(lo, hi - lo, alloc, "|u1"))
              for alloc, (lo, hi) in spans.items()}
    out = []
    for desc, t in items:
        alloc = desc.allocated
        dtype, item, shape, strides, base, size, lo, hi = _geometry(desc, t)
        if size == 0:
            out.append(np.empty(shape, dtype))
        elif alloc in inputs:  # a view of an argument: never free it
            out.append(_view_of(inputs[alloc], base, shape, strides, dtype))
        elif not alloc:
            out.append(np.empty(shape, dtype))
        else:
            start = spans[alloc][0]
            out.append(np.ndarray(shape, dtype, buffer=owners[alloc], offset=base - start,
                                  strides=strides))
    return out


def _list_out(a, t):
    """The Python list a kernel returns as the array of its items: Python
    numbers where its items were, else NumPy scalars or arrays (rows)."""
    return a.tolist() if t.weak and a.ndim == 1 else list(a)


def _lists_out(result, rtypes):
    if len(rtypes) == 1:
        return _list_out(result, rtypes[0])
    return tuple(_list_out(r, t) if isinstance(t, ListArrT) else r
                 for r, t in zip(result, rtypes))


def _scalar_out(v, t):
    if t == C128:
        return complex(v.re, v.im)
    if t == C64:
        return np.complex64(complex(v.re, v.im))
    if t == "f64":
        return float(v)
    if t == "i64":
        return int(v)
    if t == "i1":
        return bool(v & 1)
    return ELEM_TO_NP[t].type(v)


class Kernel:
    def __init__(self, name, argtypes, rtypes, so_path, symbol, mlir_path, report_path=None,
                 tier_up=None, one_tuple=False):
        self.name, self.argtypes, self.rtypes = name, argtypes, rtypes
        #: The function returns a tuple of one item (`return (x,)`).
        self._one_tuple = one_tuple
        self.symbol = symbol
        self.mlir_path = mlir_path
        self.report_path = report_path
        self.Ctx = ctx_struct(argtypes, rtypes)
        call = call_module()
        self._kernel_error = call.KernelError
        self._result_kind = result_kind(rtypes)
        self._has_array_results = any(isinstance(t, ArrT) for t in rtypes)
        self._list_results = any(isinstance(t, ListArrT) for t in rtypes)
        self._libraries = []
        self._load(so_path)
        # Quick code owed its optimized compile (tiering), else None.
        self._tier_up = tier_up
        self._calls = 0
        #: False while the kernel runs quickly compiled code (tiering).
        self.optimized = tier_up is None

    def _load(self, so_path):
        """Calls go to the entry point of the library `so_path` from now on
        (the libraries loaded before stay loaded: a call may be running)."""
        lib = ctypes.CDLL(so_path)
        entry = ctypes.cast(getattr(lib, f"_mlir__mlir_ciface_{self.symbol}"),
                            ctypes.c_void_p).value
        call = call_module()
        rtypes = self.rtypes
        array_result = (rtypes[0].rank, np.dtype(ELEM_TO_NP[rtypes[0].elem]).num) \
            if self._result_kind == 5 else ()
        caller = call.Caller(
            entry, ctypes.sizeof(self.Ctx),
            argument_fields(self.Ctx, self.argtypes, call.FIELD_KINDS),
            slot_plan(self.Ctx, self.argtypes), self._result_kind,
            self.Ctx.res.offset if rtypes else 0, *array_result)
        self._libraries.append(lib)
        self.lib = lib
        self._caller = caller

    def stats(self):
        """What the compiler reported for this specialization: bounds checks
        (`checks` = proven + repeated + hoisted + kept) and the compile time
        of the call that built it (a kernel from the disk cache keeps the
        numbers of the process that compiled it), and whether the code that
        runs is the optimized one (tiered compilation)."""
        try:
            with open(self.report_path) as f:
                report = json.load(f)
        except (OSError, TypeError, ValueError):
            report = {}
        report["optimized"] = self.optimized
        return report

    def __call__(self, values):
        result = self._call(values)
        if self._list_results:
            result = _lists_out(result, self.rtypes)
        return (result,) if self._one_tuple else result

    def _call(self, values):
        if self._tier_up is not None:
            self._calls += 1
            if self._calls >= 2:
                self._tier_up.request(self)
        try:
            result = self._caller(values)
        except self._kernel_error as e:
            raise kernel_error(str(e)) from None
        if self._result_kind < 4 or type(result) is not bytes:
            return result
        ctx = self.Ctx.from_buffer_copy(result)
        r = self.rtypes
        if len(r) == 1 and not self._has_array_results:
            return _scalar_out(ctx.res, r[0])
        inputs = {}
        for v, t in zip(values, self.argtypes):
            if isinstance(t, ArrT):
                inputs.setdefault(v.__array_interface__["data"][0], v)
        vals = [ctx.res] if len(r) == 1 else [getattr(ctx.res, f"r{k}") for k in range(len(r))]
        arrays = iter(_arrays_out([(v, t) for v, t in zip(vals, r) if isinstance(t, ArrT)],
                                  inputs))
        out = [next(arrays) if isinstance(t, ArrT) else _scalar_out(v, t)
               for v, t in zip(vals, r)]
        return out[0] if len(r) == 1 else tuple(out)


def compile_kernel(jitfn, argtypes, target="cpu"):
    global COMPILE_COUNT
    sig_text = jitfn.py_func.__qualname__ + ":" + ",".join(map(str, argtypes))
    symbol = "vrir_" + "".join(c if c.isalnum() else "_" for c in jitfn.__name__) + "_" + \
        hashlib.sha1(sig_text.encode()).hexdigest()[:10]
    # NumPy scalars of Python number types compile apart (NEP 50: strong);
    # the kernel receives their element types
    numpy_scalars = frozenset(k for k, t in enumerate(argtypes) if isinstance(t, NumPyScalarArg))
    argtypes = tuple(t.elem if isinstance(t, NumPyScalarArg) else t for t in argtypes)
    text, rtypes, one_tuple = build_module(jitfn, argtypes, symbol, numpy_scalars)
    eliminate = getattr(jitfn, "eliminate_checks", True)
    specialize = getattr(jitfn, "specialize", False)
    key = hashlib.sha256((FRONTEND_VERSION + compiler.identity() + "\n" + target + "\n" +
                          ("" if eliminate else "keep-checks\n") +
                          ("specialize\n" if specialize else "") + text).encode()).hexdigest()[:32]
    d = cache.cache_dir()
    so = os.path.join(d, key + ".so")
    mlir = os.path.join(d, key + ".mlir")
    report = os.path.join(d, key + ".json")
    build = dict(text=text, symbol=symbol, mlir=mlir, report=report, target=target,
                 eliminate_checks=eliminate, specialize=specialize)
    # Tiered (kernels without region specialization, whose regions compile
    # again anyway): a first compile is quick, and the optimized one follows
    # in the background once the kernel is called again. For GPU targets the
    # quick tier is the host code; the kernels are the same text in both
    # tiers, so the device compiles them once.
    tiered = tiering.enabled() and not specialize
    tier_up = None
    if not os.path.exists(so) and tiered:
        quick = os.path.join(d, key + ".quick.so")
        if not os.path.exists(quick):
            COMPILE_COUNT += 1
            _build_library(jitfn.__name__, quick, opt_level=1, **build)
        tier_up = _TierUp(so, build)
        so = quick
    elif not os.path.exists(so):
        COMPILE_COUNT += 1
        _build_library(jitfn.__name__, so, opt_level=3, **build)
    if specialize:
        # Also for a kernel from the disk cache: its regions' dispatchers
        # compile through this process's compiler.
        compiler.install_specializer()
    return Kernel(jitfn.__name__, argtypes, rtypes, so, symbol, mlir, report, tier_up,
                  one_tuple)


def _build_library(name, so, text, symbol, mlir, report, target, eliminate_checks,
                   specialize, opt_level):
    """Compiles `text` into the shared library `so` (written whole, or not at
    all), keeping the MLIR at `mlir` and the compiler's report at `report`."""
    d = os.path.dirname(so)
    cache.atomic_write(mlir, text.encode())
    # Not a TemporaryDirectory: its finalizer runs at interpreter exit, before
    # tiering's exit handler waits for the background compile writing here.
    tmp = tempfile.mkdtemp(dir=d)
    try:
        out = os.path.join(tmp, "k.so")
        t0 = time.perf_counter()
        try:
            counts = compiler.compile_to_shared_library(
                text, symbol, out, source_name=mlir, target=target,
                eliminate_checks=eliminate_checks, specialize=specialize,
                opt_level=opt_level)
        except CompileError as e:
            raise CompileError(f"compiling {name} failed:\n{e}\n(MLIR kept in {mlir})") from None
        counts["compile_seconds"] = time.perf_counter() - t0
        counts["optimized"] = opt_level >= 2
        cache.atomic_write(report, json.dumps(counts).encode())
        os.replace(out, so)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


class _TierUp:
    """The optimized compile a quickly compiled kernel is owed: queued on its
    second call, swapped in by the worker when it is ready."""

    def __init__(self, so, build):
        self.so, self.build = so, build
        self.queued = False

    def request(self, kernel):
        if self.queued:
            return
        self.queued = True
        tiering.schedule(lambda: self.run(kernel))

    def run(self, kernel):
        try:
            if not os.path.exists(self.so):
                _build_library(kernel.name, self.so, opt_level=3, **self.build)
            kernel._load(self.so)
            kernel.optimized = True
        except Exception as e:  # noqa: BLE001 - a compiler bug must not stop the program
            warnings.warn(f"VRIR: the optimized compile of {kernel.name} failed; it keeps "
                          f"running its quickly compiled code:\n{e}", RuntimeWarning)
        kernel._tier_up = None
