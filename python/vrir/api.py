"""User-facing API: @jit, its options and signatures, and the compilation
target (the parallel constructs, which also run as plain Python when a
function is not compiled, are in constructs.py)."""
import inspect
import os
import threading

import numpy as np

from .constructs import JitFunctionBase
from .errors import CompileError
from . import runtime
from .runtime import compile_kernel
from .types import (ArrT, ScalarSpec, ELEM_TO_NP, arg_type, describe_value,
                    is_complex, kind, parse_signature, spec_str, to_type)


# ---------------------------------------------------------------- targets
TARGETS = ("cpu", "vulkan", "opencl", "opencl-spirv")
BUILT_TARGETS = ("cpu", "vulkan", "opencl", "opencl-spirv")


def _check_target_name(name):
    if name not in TARGETS:
        raise ValueError(f"vrir: unknown target {name!r} (one of {', '.join(TARGETS)})")
    return name


class Config:
    """Global settings: `vrir.config.target` is the target of functions
    whose decorator names none ("cpu", "vulkan" or "opencl")."""

    def __init__(self):
        self._target = "cpu"

    @property
    def target(self):
        return self._target

    @target.setter
    def target(self, name):
        self._target = _check_target_name(name)

    def __repr__(self):
        return f"vrir.Config(target={self._target!r})"


config = Config()


def set_target(name):
    """Sets `vrir.config.target`; returns the previous target."""
    old = config.target
    config.target = name
    return old


# ---------------------------------------------------------------- signatures
def _signature_types(sig, what):
    """A declared signature (a string, or a tuple/list of type objects) as a
    tuple of frontend types."""
    try:
        if isinstance(sig, str):
            return parse_signature(sig)
        if isinstance(sig, (tuple, list)):
            return tuple(to_type(t) for t in sig)
        return (to_type(sig),)
    except TypeError as e:
        raise TypeError(f"{what}: {e}") from None


def _is_vrir_annotation(a):
    if isinstance(a, (ScalarSpec, ArrT)):
        return True
    if isinstance(a, str):
        try:
            parse_signature(a)
        except TypeError:
            return False
        return a.strip() not in ("float", "int", "bool", "complex")
    return False


def _annotated_signature(fn, params):
    """The argument types from parameter annotations in the thesis's style
    (`def f(A: vrir.f64[:, ::1], n: vrir.i64)`), or None when no annotation
    is a VRIR type."""
    ann = {k: v for k, v in getattr(fn, "__annotations__", {}).items() if k != "return"}
    if not any(_is_vrir_annotation(a) for a in ann.values()):
        return None
    types = []
    for p in params:
        if p not in ann:
            raise TypeError(f"@vrir.jit {fn.__name__}: parameter '{p}' has no type annotation "
                            "(annotate every parameter, or none)")
        try:
            types.append(to_type(ann[p]))
        except TypeError as e:
            raise TypeError(f"@vrir.jit {fn.__name__}: parameter '{p}': {e}") from None
    return tuple(types)


def _fits(value, declared):
    """Whether an argument can be passed as `declared` (a declared
    signature's type), and the value to pass."""
    if isinstance(declared, ArrT):
        if not isinstance(value, np.ndarray):
            return False, None
        try:
            t = arg_type(value)
        except TypeError:
            return False, None
        if t.elem != declared.elem or t.rank != declared.rank:
            return False, None
        ok = (declared.layout == "strided" or t.layout == declared.layout
              or (declared.layout == "row_major" and value.flags.c_contiguous)
              or (declared.layout == "col_major" and value.flags.f_contiguous))
        return ok, value
    target = ELEM_TO_NP[declared]
    if isinstance(value, np.generic):
        if not np.can_cast(value.dtype, target, "safe"):
            return False, None
    elif isinstance(value, bool):
        pass
    elif isinstance(value, int):
        if kind(declared) == 0:
            return False, None
        if kind(declared) == 1:
            info = np.iinfo(target)
            if not info.min <= value <= info.max:
                return False, None
    elif isinstance(value, float):
        if kind(declared) < 2:
            return False, None
    elif isinstance(value, complex):
        if not is_complex(declared):
            return False, None
    else:
        return False, None
    if declared == "i1":
        return True, bool(value)
    if is_complex(declared):
        return True, complex(value)
    return True, (float(value) if kind(declared) == 2 else int(value))


# ---------------------------------------------------------------- jit
class JitFunction(JitFunctionBase):
    def __init__(self, fn, boundscheck=True, target=None, signatures=None,
                 eliminate_checks=True, specialize=None):
        self.py_func = fn
        # Region specialization (thesis chapter 6): the loop nests and array
        # expressions of the function are compiled again at run time for the
        # shapes, values and aliasing of the arrays they get.
        # VRIR_JIT_SPECIALIZE=1 in the environment makes it the default.
        if specialize is None:
            specialize = os.environ.get("VRIR_JIT_SPECIALIZE", "0") not in ("", "0")
        self.specialize = bool(specialize)
        # False keeps every check (the compiler otherwise removes those it
        # proves never fail): for comparisons and for testing the proofs.
        self.eliminate_checks = bool(eliminate_checks)
        # False drops index checks (negative indices still wrap), as
        # Numba's boundscheck=False: an out-of-bounds access is then undefined.
        self.boundscheck = bool(boundscheck)
        self.target = None if target is None else _check_target_name(target)
        self.__name__ = fn.__name__
        self.__qualname__ = fn.__qualname__
        self.__doc__ = fn.__doc__
        self.__module__ = fn.__module__
        self.__wrapped__ = fn
        self._sig = inspect.signature(fn)
        self._kernels = {}
        # (target, signature_key(*args)) -> kernel, for calls whose
        # arguments need no binding.
        self._by_key = {}
        self._lock = threading.Lock()
        params = list(self._sig.parameters)
        # Calls passing exactly these positionally need no binding.
        self._positional = len(params) if all(
            p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
            for p in self._sig.parameters.values()) else -1
        if signatures is None:
            ann = _annotated_signature(fn, params)
            signatures = None if ann is None else [ann]
        else:
            what = f"@vrir.jit {fn.__name__}"
            signatures = [_signature_types(s, what) for s in signatures]
        # Declared signatures compile now; a call with other argument types
        # is a TypeError (no lazy compilation for them).
        self.declared = signatures
        if signatures is not None:
            for types in signatures:
                if len(types) != len(params):
                    raise TypeError(f"@vrir.jit {fn.__name__}: the signature "
                                    f"({', '.join(map(spec_str, types))}) has {len(types)} "
                                    f"types for {len(params)} parameters")
            for types in signatures:
                self.compile(types)

    @property
    def effective_target(self):
        return self.target or config.target

    def _check_target(self):
        t = self.effective_target
        if t not in BUILT_TARGETS:
            raise CompileError(
                f"{self.__name__}: the {t} backend is not built yet; the available targets are "
                f"{', '.join(repr(b) for b in BUILT_TARGETS)} ('cpu' runs vrir.gpu() sections "
                f"on the CPU). Use target='cpu' or vrir.set_target('cpu').")

    def _bind(self, args, kwargs):
        try:
            bound = self._sig.bind(*args, **kwargs)
        except TypeError as e:
            raise TypeError(f"{self.__name__}(): {e}") from None
        bound.apply_defaults()
        return list(bound.arguments.values())

    def signature_of(self, args):
        return tuple(arg_type(a) for a in args)

    def compile(self, argtypes):
        self._check_target()
        argtypes = tuple(argtypes)
        target = self.effective_target
        k = self._kernels.get((target, argtypes))
        if k is None:
            with self._lock:
                k = self._kernels.get((target, argtypes))
                if k is None:
                    k = compile_kernel(self, argtypes, target)
                    self._kernels[(target, argtypes)] = k
        return k

    def _dispatch_declared(self, values):
        for types in self.declared:
            passed = []
            for v, t in zip(values, types):
                ok, pv = _fits(v, t)
                if not ok:
                    break
                passed.append(pv)
            else:
                return self.compile(types), passed
        got = ", ".join(spec_str(arg_type(v)) if _describable(v) else describe_value(v)
                        for v in values)
        have = "; ".join("(" + ", ".join(map(spec_str, ts)) + ")" for ts in self.declared)
        raise TypeError(f"{self.__name__}(): no declared signature matches the argument types "
                        f"({got}); declared: {have}")

    def __call__(self, *args, **kwargs):
        # The common call: positional arguments whose types were seen
        # before, found by a key computed in C.
        if not kwargs and self.declared is None:
            kernel = self._by_key.get((self.target or config.target,
                                       runtime.signature_key(*args)))
            if kernel is not None:
                return kernel(args)
        values = args if not kwargs and len(args) == self._positional \
            else self._bind(args, kwargs)
        if self.declared is not None:
            kernel, values = self._dispatch_declared(values)
            return kernel(values)
        sig = tuple(arg_type(a) for a in values)
        target = self.target or config.target
        kernel = self._kernels.get((target, sig))
        if kernel is None:
            kernel = self.compile(sig)
        if not kwargs and len(args) == self._positional:
            key = runtime.signature_key(*args)
            if key is not None:
                self._by_key[(target, key)] = kernel
        return kernel(values)

    def stats(self):
        """Per compiled specialization (target, argument types), what the
        compiler reported: bounds checks seen, proven never to fail, found
        repeated, hoisted out of loops and kept, and the compile time."""
        return {key: kernel.stats() for key, kernel in self._kernels.items()}

    @property
    def signatures(self):
        # The argument types compiled for, on any target.
        return list(dict.fromkeys(types for _, types in self._kernels))

    def __repr__(self):
        return f"<vrir.jit {self.__name__}>"


def _describable(v):
    try:
        arg_type(v)
        return True
    except TypeError:
        return False


def jit(signature_or_function=None, *, boundscheck=True, target=None, eliminate_checks=True,
        specialize=None):
    """`@vrir.jit`, `@vrir.jit(boundscheck=False, target="cpu")`, or
    ahead of time for declared argument types: `@vrir.jit("f64[:, ::1], i64")`,
    a list of such signatures, or a tuple of type objects
    (`@vrir.jit((vrir.f64[:, :], vrir.i64))`). Parameter annotations with VRIR
    types (`def f(A: vrir.f64[:, ::1], n: vrir.i64)`) declare a signature too.
    `specialize=True` turns region specialization on: each loop nest or
    group of array operations is compiled again, on its first call with new
    shapes, values or aliasing of its arrays, for exactly those
    (`vrir.region_stats()` says what it did); VRIR_JIT_SPECIALIZE=1 in the
    environment makes that the default."""
    if target is not None:
        _check_target_name(target)
    sig = signature_or_function
    if inspect.isfunction(sig):
        return JitFunction(sig, boundscheck=boundscheck, target=target,
                           eliminate_checks=eliminate_checks, specialize=specialize)
    if sig is None:
        sigs = None
    elif isinstance(sig, list):
        sigs = sig
    elif isinstance(sig, (str, tuple)):
        sigs = [sig]
    elif callable(sig):
        raise TypeError("@vrir.jit applies to Python functions")
    else:
        raise TypeError(f"@vrir.jit: expected a function, a signature string, a tuple of "
                        f"types or a list of signatures, got {type(sig).__name__}")

    if sigs is not None:  # parse now: a bad signature fails at the decorator
        sigs = [_signature_types(s, "@vrir.jit") for s in sigs]

    def decorate(fn):
        if not inspect.isfunction(fn):
            raise TypeError("@vrir.jit applies to Python functions")
        return JitFunction(fn, boundscheck=boundscheck, target=target, signatures=sigs,
                           eliminate_checks=eliminate_checks, specialize=specialize)
    return decorate
