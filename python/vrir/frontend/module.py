"""One MLIR module: the entry function and the functions it calls (jit
functions and the program's plain Python helpers, each specialised on its
argument types), its run-time error messages, and build_module, the
frontend's entry point."""
import inspect
import sys

from ..errors import CompileError
from ..types import PYTHON_NUMBER_TYPES, signless_text
from .emitter import FunctionEmitter
from .values import Restart


class Helper:
    """A plain Python function called from compiled code: compiled like a
    jit function (specialised on the argument types at the call, into the
    same module), with the options of the kernel that calls it."""

    def __init__(self, fn, boundscheck):
        self.py_func = fn
        self.boundscheck = boundscheck
        self.__name__ = fn.__name__
        self.__qualname__ = fn.__qualname__


class ModuleBuilder:
    """One MLIR module: the entry function and the functions it calls (jit
    functions and plain Python helpers)."""

    def __init__(self):
        self.funcs = []  # MLIR text of each function
        self.specs = {}  # (id(pyfunc), argtypes) -> (symbol, result types)
        self.stack = []  # the functions being emitted, outermost first
        self.counter = 0
        self.messages = {}  # run-time error message -> global symbol
        self.helpers = {}  # (python function, boundscheck) -> Helper

    def helper(self, fn, boundscheck):
        key = (fn, boundscheck)
        h = self.helpers.get(key)
        if h is None:
            h = self.helpers[key] = Helper(fn, boundscheck)
        return h

    def check_recursion(self, jitfn, where=None):
        names = [f.__name__ for f in self.stack]
        for k, f in enumerate(self.stack):
            if f.py_func is jitfn.py_func:
                cycle = " -> ".join(names[k:] + [jitfn.__name__])
                at = f"{where}: " if where else ""
                raise CompileError(f"{at}recursive call of '{jitfn.__name__}' is not supported "
                                   f"in compiled code ({cycle})")

    def specialize(self, jitfn, argtypes, public, symbol=None, where=None, weak_params=None):
        """Compiles `jitfn` for `argtypes`; returns its symbol, result types,
        which results are weak (NEP 50: Python scalars) and whether its one
        result is a tuple of one item. `weak_params`
        names the scalar parameters that get Python scalars (all of them when
        None: a call from Python)."""
        key = (id(jitfn), tuple(argtypes),
               None if weak_params is None else frozenset(weak_params))
        if key in self.specs:
            return self.specs[key]
        self.check_recursion(jitfn, where)
        self.stack.append(jitfn)
        if symbol is None:
            self.counter += 1
            symbol = f"{jitfn.__name__}__{self.counter}"
        var_types, ret_types, var_weak = {}, [None, None, None], {}
        for attempt in range(40):
            fe = FunctionEmitter(self, jitfn, argtypes, symbol, public,
                                 var_types, ret_types, var_weak, weak_params)
            try:
                text = fe.emit_function()
                break
            except Restart:
                continue
        else:
            raise CompileError(f"type inference of {jitfn.__name__} did not converge")
        self.stack.pop()
        self.funcs.append(text)
        result = (symbol, fe.result_types(), fe.result_weakness(), fe.returns_one_tuple())
        self.specs[key] = result
        return result

    def message(self, text):
        """The symbol of an LLVM global holding the C string `text` (run-time
        error messages of the frontend's checks)."""
        name = self.messages.get(text)
        if name is None:
            name = self.messages[text] = f"__vrir_pymsg_{len(self.messages)}"
        return name

    def text(self):
        head = []
        if self.messages:
            head.append('llvm.func @vrir_rt_error(!llvm.ptr) attributes '
                        '{passthrough = ["noreturn", "cold"]}')
            for text, name in self.messages.items():
                data = text.encode() + b"\0"
                lit = "".join(chr(c) if 32 <= c < 127 and c not in (34, 92) else f"\\{c:02X}"
                              for c in data)
                head.append(f'llvm.mlir.global internal constant @{name}("{lit}") '
                            f'{{addr_space = 0 : i32}}')
        return signless_text("module {\n" + "".join(h + "\n" for h in head)
                             + "\n".join(self.funcs) + "}\n")


# The frontend recurses over the AST: an expression nested a few hundred
# deep (CPython compiles 1000 terms of `x + x + ...`) needs more than
# Python's default limit of 1000 frames.
COMPILE_RECURSION_LIMIT = 20000


def build_module(jitfn, argtypes, symbol, numpy_scalars=frozenset()):
    """The module text of `jitfn` for `argtypes`, its result types and
    whether its one result is a tuple of one item (`return (x,)`); the
    scalar arguments at the positions `numpy_scalars` are NumPy scalars
    (strong), the others Python numbers where their types allow."""
    mb = ModuleBuilder()
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, COMPILE_RECURSION_LIMIT))
    try:
        params = list(inspect.signature(jitfn.py_func).parameters)
        weak = None
        if numpy_scalars:
            weak = {p for k, (p, t) in enumerate(zip(params, argtypes))
                    if k not in numpy_scalars and t in PYTHON_NUMBER_TYPES}
        sym, rts, _, one_tuple = mb.specialize(jitfn, argtypes, public=True, symbol=symbol,
                                               weak_params=weak)
    except RecursionError:
        code = jitfn.py_func.__code__
        raise CompileError(f"{code.co_filename}:{code.co_firstlineno}: {jitfn.__name__} "
                           "nests expressions or statements too deeply to compile") from None
    finally:
        sys.setrecursionlimit(limit)
    return mb.text(), rts, one_tuple
