"""The constructs of compiled code (vrir.prange, vrir.pfor, vrir.Domain,
vrir.gpu, vrir.gpu_begin, vrir.gpu_end), which also run as plain Python
when a function is not compiled, and the base class of @vrir.jit functions:
what the frontend recognises in a compiled function's globals. They are
here, below api (which imports the runtime, which imports the frontend), so
that the frontend imports neither api nor the runtime."""
import contextlib
import itertools
import sys
import types

PACKAGE = __name__.rpartition(".")[0]
API_MODULE = PACKAGE + ".api"


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
    """`with vrir.gpu():` marks a vrir.gpu_section."""
    yield


def gpu_begin():
    """`vrir.gpu_begin()` ... `vrir.gpu_end()` (statements of one block)
    mark the statements between them as a vrir.gpu_section, like
    `with vrir.gpu():` (the thesis's PyRaptor markers)."""


def gpu_end():
    """Ends the section that `vrir.gpu_begin()` opened."""


class JitFunctionBase:
    """The base class of api.JitFunction: compiled code that calls an
    instance calls the compiled function."""


def is_vrir_module(obj):
    """Whether `obj` is the vrir package or its api module (compiled code
    names the constructs `vrir.prange` ...)."""
    return isinstance(obj, types.ModuleType) and (
        obj is sys.modules.get(PACKAGE) or obj is sys.modules.get(API_MODULE))


def is_vrir_function(obj):
    """Whether `obj` is a callable of the API: a construct of this module,
    or a name of api (which compiled code cannot call)."""
    return callable(obj) and getattr(obj, "__module__", None) in (API_MODULE, __name__)
