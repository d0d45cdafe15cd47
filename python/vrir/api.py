"""User-facing API: @jit and the parallel constructs (which also run as
plain Python when a function is not compiled)."""
import contextlib
import functools
import inspect
import itertools
import threading

from .errors import CompileError
from .types import arg_type


def prange(*args):
    """A parallel range: `for i in vrir.prange(n)` becomes a vrir.pfor."""
    return range(*args)


class Domain:
    """An n-dimensional iteration space: Domain(m, n) or Domain(range(..), ..)."""

    def __init__(self, *dims):
        self.ranges = [d if isinstance(d, range) else range(d) for d in dims]

    def __iter__(self):
        if len(self.ranges) == 1:
            return iter(self.ranges[0])
        return itertools.product(*self.ranges)


def pfor(domain, shared=()):
    """`for i, j in vrir.pfor(vrir.Domain(m, n), shared=[A, B])`."""
    return iter(domain)


@contextlib.contextmanager
def gpu():
    """`with vrir.gpu():` marks a vrir.gpu_section (runs on the CPU here)."""
    yield


class JitFunction:
    def __init__(self, fn, boundscheck=True):
        self.py_func = fn
        # False drops index checks (negative indices still wrap), as
        # Numba's boundscheck=False: an out-of-bounds access is then undefined.
        self.boundscheck = bool(boundscheck)
        self.__name__ = fn.__name__
        self.__doc__ = fn.__doc__
        self.__wrapped__ = fn
        self._sig = inspect.signature(fn)
        self._kernels = {}
        self._lock = threading.Lock()

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
        from .runtime import compile_kernel
        k = self._kernels.get(argtypes)
        if k is None:
            with self._lock:
                k = self._kernels.get(argtypes)
                if k is None:
                    k = compile_kernel(self, argtypes)
                    self._kernels[argtypes] = k
        return k

    def __call__(self, *args, **kwargs):
        values = self._bind(args, kwargs)
        sig = self.signature_of(values)
        return self.compile(sig)(values)

    @property
    def signatures(self):
        return list(self._kernels)

    def __repr__(self):
        return f"<vrir.jit {self.__name__}>"


def jit(fn=None, *, boundscheck=True):
    """`@vrir.jit` or `@vrir.jit(boundscheck=False)`."""
    if fn is None:
        return functools.partial(jit, boundscheck=boundscheck)
    if not inspect.isfunction(fn):
        raise TypeError("@vrir.jit applies to Python functions")
    return JitFunction(fn, boundscheck=boundscheck)
