"""Python AST -> VRIR MLIR text.

Every Python variable is a `vrir.alloca` slot (read/written with
`vrir.read`/`vrir.write`) and control flow is a CFG of `cf` branches; the
backend pipeline (vr-run) runs mem2reg and lift-cf-to-scf. Types are inferred
while emitting: when a variable is assigned a wider type than the one it was
given, emission restarts with the wider type (a small fixed point).
"""
import ast
import builtins
import cmath
import inspect
import math
import os
import struct
import sys
import textwrap
import types
from dataclasses import dataclass

import numpy as np

from .errors import CompileError
from .types import (ArrT, TupT, SCALARS, PYTHON_NUMBER_TYPES, NP_TO_ELEM, ELEM_TO_NP,
                    C64, C128, mlir_type, kind, bits, promote_strong, promote_weak, is_float, is_complex,
                    real_of)

NEG = "#vrir.index<lower|upper|negative>"
# boundscheck=False: Python's negative indices still wrap (as in Numba), but
# nothing is checked.
NEG_UNCHECKED = "#vrir.index<negative>"
NONE = "#vrir.index<none>"


class Restart(Exception):
    pass


class V:
    """A compile-time value: a runtime SSA value (scalar/array), a tuple,
    or a reference to a module/function/dtype."""

    __slots__ = ("ty", "ssa", "const", "items", "kind", "obj", "weak")

    def __init__(self, ty=None, ssa=None, const=None, items=None, kind=None,
                 obj=None, weak=False):
        self.ty, self.ssa, self.const, self.items = ty, ssa, const, items
        self.kind, self.obj, self.weak = kind, obj, weak

    @property
    def is_array(self):
        return isinstance(self.ty, ArrT)

    @property
    def is_scalar(self):
        return self.kind is None and self.ty in SCALARS


def f_hex(value, ty):
    if ty == "f32":
        return "0x%08X" % struct.unpack(">I", struct.pack(">f", value))[0]
    return "0x%016X" % struct.unpack(">Q", struct.pack(">d", value))[0]


PY_DTYPES = {float: "f64", int: "i64", bool: "i1", complex: C128,
             np.float64: "f64", np.float32: "f32", np.int64: "i64",
             np.int32: "i32", np.bool_: "i1", np.double: "f64",
             np.complex128: C128, np.complex64: C64}

def reduction_identity(kind_, ty):
    """The start of each iteration's private copy of a reduction variable:
    -0.0 for a float sum (the sum of negative zeros is -0.0), 0, 1, or the
    extreme value of `ty` for min and max."""
    is_float = ty in ("f32", "f64")
    if kind_ == "sum":
        return -0.0 if is_float else 0
    if kind_ == "prod":
        return 1.0 if is_float else 1
    big = math.inf if is_float else (2 ** 31 - 1 if ty == "i32" else 2 ** 63 - 1)
    return big if kind_ == "min" else (-big if is_float else -big - 1)


ARITH_OPS = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul",
             ast.Div: "truediv", ast.FloorDiv: "floordiv", ast.Mod: "mod",
             ast.Pow: "pow", ast.BitAnd: "and", ast.BitOr: "or",
             ast.BitXor: "xor", ast.LShift: "shl", ast.RShift: "shr",
             ast.MatMult: "matmul"}
# NumPy's binary ufuncs written as operators: name -> ("op", binop name) or
# ("cmp", comparison) or ("fn", np.minimum-like binary_values name).
BINARY_UFUNCS = {
    "add": ("op", "add"), "subtract": ("op", "sub"), "multiply": ("op", "mul"),
    "divide": ("op", "truediv"), "true_divide": ("op", "truediv"),
    "floor_divide": ("op", "floordiv"), "remainder": ("op", "mod"), "mod": ("op", "mod"),
    "bitwise_and": ("op", "and"), "bitwise_or": ("op", "or"), "bitwise_xor": ("op", "xor"),
    "equal": ("cmp", "eq"), "not_equal": ("cmp", "ne"), "less": ("cmp", "lt"),
    "less_equal": ("cmp", "le"), "greater": ("cmp", "gt"), "greater_equal": ("cmp", "ge"),
    "power": ("fn", "pow"), "maximum": ("fn", "max"), "minimum": ("fn", "min"),
}
# ufunc.reduce / ufunc.accumulate as the reductions and cumulative functions.
UFUNC_REDUCE = {"add": "sum", "multiply": "prod", "maximum": "max", "minimum": "min"}
UFUNC_ACCUMULATE = {"add": "cumsum", "multiply": "cumprod"}

CMP_OPS = {ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge",
           ast.Eq: "eq", ast.NotEq: "ne"}
CMPI = {"lt": "slt", "le": "sle", "gt": "sgt", "ge": "sge", "eq": "eq",
        "ne": "ne"}
CMPF = {"lt": "olt", "le": "ole", "gt": "ogt", "ge": "oge", "eq": "oeq",
        "ne": "une"}
UNARY_FLOAT_FNS = {"sqrt", "exp", "log", "sin", "cos", "tan", "tanh",
                   "floor", "ceil"}
# defined on complex numbers too (cmath and NumPy)
COMPLEX_FNS = {"sqrt", "exp", "log", "sin", "cos", "tan", "tanh"}
# float functions of one argument computed by a `math` dialect op in a
# vrir.map body (NumPy name -> op); math.* names them without the "arc"
MAP_FLOAT_FNS = {"arctan": "atan", "arcsin": "asin", "arccos": "acos", "sinh": "sinh",
                 "cosh": "cosh", "arcsinh": "asinh", "arccosh": "acosh", "arctanh": "atanh",
                 "log10": "log10", "log2": "log2", "log1p": "log1p", "expm1": "expm1",
                 "cbrt": "cbrt", "trunc": "trunc", "rint": "roundeven"}
MATH_MAP_FNS = {"atan": "atan", "asin": "asin", "acos": "acos", "sinh": "sinh",
                "cosh": "cosh", "asinh": "asinh", "acosh": "acosh", "atanh": "atanh",
                "log10": "log10", "log2": "log2", "log1p": "log1p", "expm1": "expm1",
                "cbrt": "cbrt"}
REDUCTIONS = {"sum": "sum", "prod": "prod", "min": "min", "max": "max",
              "amin": "min", "amax": "max", "mean": "mean"}


# V.items of the dtype of an array (A.dtype, not callable) as opposed to a
# scalar type (np.float64, A.dtype.type)
DTYPE_OBJECT = ("dtype object",)
# V.items of Python's own bool, int, float and complex: called on an array
# they take its single element (NumPy's size-1 conversion), not cast it
BUILTIN_TYPE = ("builtin type",)

# np.issubdtype's abstract types: the kinds (types.kind) they contain
ABSTRACT_DTYPES = {"generic": (0, 1, 2, 3), "number": (1, 2, 3), "integer": (1,),
                   "signedinteger": (1,), "inexact": (2, 3), "floating": (2,),
                   "complexfloating": (3,), "bool": (0,), "bool_": (0,)}


class Region:
    def __init__(self):
        self.allocas = []
        self.lines = []


class Scope:
    """Variables of the function or of a pfor body / gpu section."""

    def __init__(self, kind, parent=None):
        self.kind = kind  # function | pfor | gpu
        self.parent = parent
        self.slots = {}  # name -> ssa of the slot (in this scope's region)
        self.values = {}  # name -> V captured from outside (read-only)
        self.shared = set()


@dataclass(frozen=True)
class StaticArg:
    """An argument known while compiling, which the callee is specialised
    on instead of receiving it: None, a dtype, a string, or an integer or
    bool constant of a parameter the callee never assigns (so that
    `axis=axis`, `if out is None:` or `dtype=dtype` work in helpers)."""
    kind: object  # None for a constant number, else one of STATIC_KINDS
    obj: object = None
    ty: object = None
    const: object = None
    weak: bool = False
    dtype_object: bool = False

    def __str__(self):
        if self.kind is None:
            return repr(self.const)
        if self.kind == "none":
            return "None"
        if self.kind == "dtype":
            return f"the dtype {ELEM_TO_NP[self.obj].name}"
        if self.kind in ("pyfn", "jitfn"):
            return f"the function {self.obj.__name__}"
        if self.kind == "func":
            return f"the function {'.'.join(self.obj)}"
        return repr(self.obj)


# values passed to helpers by specialisation: None, dtypes, strings and
# functions (plain helpers, jit functions, NumPy / math functions)
STATIC_KINDS = ("none", "dtype", "str", "pyfn", "jitfn", "func")


def _assigned_names(fn):
    """The names a function's body assigns (parameters it rebinds)."""
    names = _ASSIGNED.get(fn)
    if names is None:
        src, _, _ = _source_of(fn)
        names = set()
        for n in ast.walk(ast.parse(src).body[0]):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                names.add(n.id)
        _ASSIGNED[fn] = names
    return names


_ASSIGNED = {}


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
        """Compiles `jitfn` for `argtypes`; returns its symbol, result types
        and which results are weak (NEP 50: Python scalars). `weak_params`
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
        var_types, ret_types, var_weak = {}, [None, None], {}
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
        result = (symbol, fe.result_types(), fe.result_weakness())
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
        return "module {\n" + "".join(h + "\n" for h in head) + "\n".join(self.funcs) + "}\n"


def _library_dirs():
    import sysconfig
    dirs = set()
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        try:
            d = sysconfig.get_paths().get(key)
        except Exception:
            d = None
        if d:
            dirs.add(os.path.realpath(d))
    return tuple(sorted(dirs))


_LIBRARY_DIRS = None


def _is_user_function(fn):
    """Whether a plain Python function is part of the program (compiled when
    compiled code calls it) rather than of the standard library, NumPy or an
    installed package."""
    global _LIBRARY_DIRS
    mod = (getattr(fn, "__module__", None) or "").split(".", 1)[0]
    if mod in ("numpy", "vrir", "math", "cmath", "builtins"):
        return False
    if _LIBRARY_DIRS is None:
        _LIBRARY_DIRS = _library_dirs()
    f = os.path.realpath(fn.__code__.co_filename)
    return not any(f.startswith(d + os.sep) for d in _LIBRARY_DIRS)


def _source_of(fn):
    try:
        lines, first = inspect.getsourcelines(fn)
    except (OSError, TypeError) as error:
        raise CompileError(
            f"cannot read the source of {fn.__qualname__} (@vrir.jit needs "
            f"functions defined in a file, not at an interactive prompt or "
            f"from standard input): {error}") from None
    src = "".join(lines)
    dedented = textwrap.dedent(src)
    # columns shift by the removed indentation
    shift = len(lines[0]) - len(lines[0].lstrip())
    return dedented, first, shift


def _literal_truth(node):
    """The truth of a number literal such as `-0.5 + 0.25j`, else None."""
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    return bool(value) if isinstance(value, (int, float, complex)) else None


class FunctionEmitter:
    def __init__(self, module, jitfn, argtypes, symbol, public, var_types,
                 ret_types, var_weak, weak_params):
        self.module = module
        self.jitfn = jitfn
        self.pyfunc = jitfn.py_func
        self.argtypes = list(argtypes)
        self.symbol = symbol
        self.public = public
        self.var_types = var_types
        # NEP 50: per variable, whether every value assigned to it is a
        # Python scalar ("weak": it takes the type of a NumPy operand); kept
        # across restarts, like var_types
        self.var_weak = var_weak
        self.weak_params = weak_params
        self.ret_types = ret_types  # [None, None] until the first return; list
        self.filename = self.pyfunc.__code__.co_filename
        src, self.first_line, self.col_shift = _source_of(self.pyfunc)
        tree = ast.parse(src)
        self.fdef = tree.body[0]
        if not isinstance(self.fdef, ast.FunctionDef):
            raise CompileError("@vrir.jit applies to functions")
        self.nssa = 0
        self.nlabel = 0
        self.statics = {}  # parameter -> StaticArg
        self.dyn_depth = 0  # nesting in run-time branches and loops
        self.region = Region()
        self.scope = Scope("function")
        self.terminated = False
        self.loops = []
        self.cur = self.fdef
        self.def_lines = {}  # ssa -> index in region.lines of its op
        # SSA names of arrays NumPy makes read-only (.imag of a real array)
        # and the variables bound to one
        self.readonly_values, self.readonly_names = set(), set()
        self.globals = dict(self.pyfunc.__globals__)
        if self.pyfunc.__closure__:
            for name, cell in zip(self.pyfunc.__code__.co_freevars,
                                  self.pyfunc.__closure__):
                try:
                    self.globals[name] = cell.cell_contents
                except ValueError:
                    pass

    # ------------------------------------------------------------ helpers
    def loc(self, node=None, name=None):
        node = node or self.cur
        line = getattr(node, "lineno", 1) + self.first_line - 1
        col = getattr(node, "col_offset", 0) + 1 + self.col_shift
        f = self.filename.replace("\\", "\\\\").replace('"', '\\"')
        if name:
            return f'loc("{name}"("{f}":{line}:{col}))'
        return f'loc("{f}":{line}:{col})'

    def where(self, node=None):
        node = node or self.cur
        line = getattr(node, "lineno", 1) + self.first_line - 1
        return f"{self.filename}:{line}"

    def error(self, msg, node=None):
        raise CompileError(f"{self.where(node)}: {msg}")

    def fresh(self):
        self.nssa += 1
        return f"%v{self.nssa}"

    def label(self):
        self.nlabel += 1
        return f"^bb{self.nlabel}"

    def emit(self, text):
        self.region.lines.append(f"{text} {self.loc()}")

    def op(self, text, ty):
        """Emit `%r = text` and return V of type ty."""
        r = self.fresh()
        self.def_lines[r] = (self.region, len(self.region.lines))
        self.emit(f"{r} = {text}")
        return V(ty, r)

    def raw(self, text):
        self.region.lines.append(text)

    def start_block(self, lab):
        self.raw(f"{lab}:")
        self.terminated = False

    def br(self, lab):
        self.emit(f"cf.br {lab}")
        self.terminated = True

    def cond_br(self, c, a, b):
        self.emit(f"cf.cond_br {c.ssa}, {a}, {b}")
        self.terminated = True

    def error_if(self, cond, exc, msg):
        """At run time, raise the Python exception `exc` (a name that
        runtime.py maps) with `msg` when the i1 `cond` holds. In a parallel
        loop on the CPU the error stops the loop and is raised once after
        it (vrir-parallel-error-scopes); GPU kernels cannot raise (the check
        is left out there)."""
        if self.in_gpu_section():
            return
        if cond.const is not None:
            if not cond.const:
                return
        name = self.module.message(f"{exc}: {msg}")
        err, ok = self.label(), self.label()
        self.cond_br(cond, err, ok)
        self.start_block(err)
        p = self.op(f"llvm.mlir.addressof @{name} : !llvm.ptr", "ptr")
        self.emit(f"llvm.call @vrir_rt_error({p.ssa}) : (!llvm.ptr) -> ()")
        self.br(ok)
        self.start_block(ok)

    def in_gpu_section(self):
        scope = self.scope
        while scope is not None:
            if scope.kind == "gpu":
                return True
            scope = scope.parent
        return False

    def error_if_zero(self, v, exc, msg):
        if v.const is not None and v.const != 0:
            return
        z = self.const(0, v.ty)
        self.error_if(self.cmp_scalar("eq", v, z), exc, msg)

    def const(self, value, ty):
        if ty == "i1":
            v = self.op(f"arith.constant {'true' if value else 'false'}", "i1")
            v.const = bool(value)
            return v
        if is_complex(ty):
            value = complex(value)
            part = real_of(ty)
            v = self.op(f"complex.constant [{f_hex(value.real, part)} : {part}, "
                        f"{f_hex(value.imag, part)} : {part}] : {ty}", ty)
            v.const = value
            return v
        if ty in ("f32", "f64"):
            v = self.op(f"arith.constant {f_hex(float(value), ty)} : {ty}", ty)
        else:
            v = self.op(f"arith.constant {int(value)} : {ty}", ty)
        v.const = value
        return v

    def pyconst(self, value):
        if isinstance(value, (bool, np.bool_)):
            v = self.const(bool(value), "i1")
        elif isinstance(value, (int, np.integer)) and not isinstance(value, np.generic):
            self.check_int64(int(value), "the integer constant")
            v = self.const(int(value), "i64")
        elif isinstance(value, float) and not isinstance(value, np.generic):
            v = self.const(value, "f64")
        elif isinstance(value, complex) and not isinstance(value, np.generic):
            v = self.const(value, C128)
        elif isinstance(value, np.generic) and value.dtype in NP_TO_ELEM:
            v = self.const(value.item(), NP_TO_ELEM[value.dtype])
            v.const = value.item()
            return v
        else:
            return None
        v.weak = True
        return v

    def check_int64(self, value, what):
        """A Python int known while compiling must be an int64: Python's
        value beyond it would silently wrap at run time."""
        if not -2**63 <= value < 2**63:
            self.error(f"{what} {value} does not fit in int64 (VRIR's integers are 64-bit)")

    def index(self, v):
        """An integer scalar as an `index` ssa."""
        v = self.to_int(v)
        return self.op(f"arith.index_cast {v.ssa} : {v.ty} to index", "index").ssa

    def from_index(self, ssa):
        return self.op(f"arith.index_cast {ssa} : index to i64", "i64")

    def to_int(self, v):
        if not v.is_scalar:
            self.error("expected an integer")
        if v.ty in ("i64", "i32"):
            return v
        if v.ty == "i1":
            return self.cast(v, "i64")
        self.error(f"expected an integer, got a {'complex' if is_complex(v.ty) else 'float'} number")

    @staticmethod
    def weak(v, weak=True):
        """`v` as a Python scalar (NEP 50's weak scalars: len(), shapes, loop
        counters, int(), math.*), or with weak=False as a NumPy scalar (a
        copy: `v` may be a variable's value)."""
        if not v.is_scalar or v.weak == weak:
            return v
        return V(v.ty, v.ssa, const=v.const, weak=weak)

    def cast(self, v, elem):
        """Scalar or array element-type conversion."""
        if v.is_array:
            if v.ty.elem == elem:
                return v
            t = ArrT(elem, v.ty.rank, "row_major")
            return self.op(f"vrir.cast {v.ssa} : {v.ty.mlir()} to {t.mlir()}", t)
        if v.ty == elem:
            return v
        if v.ty not in SCALARS:
            self.error(f"cannot convert {self.tyname(v)} to {elem}")
        if v.const is not None and kind(elem) >= 2 and kind(v.ty) <= kind(elem) \
                and not (kind(v.ty) == 1 and abs(v.const) >= 2**53):
            # a constant of the wider type directly (int/float -> float/complex)
            r = self.const(complex(v.const) if is_complex(elem) else float(v.const), elem)
            r.weak = v.weak
            return r
        if elem == "i1" and v.const is not None:
            # known while compiling (`x if -0.75 else y` takes one branch)
            return self.const(bool(v.const), "i1")
        if elem == "i1" and not is_complex(v.ty):
            z = self.const(0, v.ty)
            return self.cmp_scalar("ne", v, z)
        r = self.op(f"vrir.cast {v.ssa} : {v.ty} to {elem}", elem)
        r.weak = v.weak
        return r

    def tyname(self, v):
        if v.kind == "tuple":
            return "tuple"
        if v.kind in ("pyfn", "jitfn", "func"):
            return "function"
        if v.kind:
            return v.kind
        return str(v.ty)

    def dim(self, a, k):
        return self.op(f"vrir.dim {a.ssa}, {k} : {a.ty.mlir()}", "index").ssa

    def to_strided(self, v):
        t = ArrT(v.ty.elem, v.ty.rank, "strided")
        return self.op(f"vrir.slice {v.ssa}[] : {v.ty.mlir()} -> {t.mlir()}", t)

    def convert(self, v, ty, what="value"):
        """Convert v to exactly type ty (assignments, returns, calls)."""
        if isinstance(ty, TupT):
            if v.kind != "tuple" or len(v.items) != len(ty.items):
                self.error(f"{what}: expected a tuple of {len(ty.items)}")
            return V(ty, kind="tuple", items=[self.convert(x, t, what) for x, t in zip(v.items, ty.items)])
        if isinstance(ty, ArrT):
            if not v.is_array or v.ty.elem != ty.elem or v.ty.rank != ty.rank:
                self.error(f"{what}: cannot convert {self.tyname(v)} to {ty}")
            if v.ty == ty:
                return v
            if ty.layout == "strided":
                return self.to_strided(v)
            return self.op(f"vrir.copy {v.ssa} : {v.ty.mlir()} to {ty.mlir()}", ty)
        if not v.is_scalar:
            self.error(f"{what}: cannot convert {self.tyname(v)} to {ty}")
        return self.cast(v, ty)

    def unify(self, a, b, what):
        if a == b:
            return a
        if isinstance(a, str) and isinstance(b, str) and a in SCALARS and b in SCALARS:
            return promote_strong(a, b)
        if isinstance(a, ArrT) and isinstance(b, ArrT) and a.elem == b.elem and a.rank == b.rank:
            return ArrT(a.elem, a.rank, "strided")
        if isinstance(a, TupT) and isinstance(b, TupT) and len(a.items) == len(b.items):
            return TupT(tuple(self.unify(x, y, what) for x, y in zip(a.items, b.items)))
        self.error(f"{what} changes type from {a} to {b}; VRIR variables have one type")

    # ------------------------------------------------------------ variables
    def lookup_slot(self, name):
        return self.scope.slots.get(name)

    def new_slot(self, name, ty):
        s = self.fresh()
        self.region.allocas.append(
            f'{s} = vrir.alloca "{name}" : !vrir.var<{mlir_type(ty)}> {self.loc()}')
        self.scope.slots[name] = s
        return s

    def assign_name(self, name, v, node=None):
        if v.kind == "tuple":
            ty = TupT(tuple(x.ty for x in v.items))
            if any(x.kind is not None for x in v.items):
                self.error("nested tuples or non-value tuple items cannot be stored")
        elif v.kind is not None:
            self.error(f"cannot assign a {v.kind} to a variable")
        else:
            ty = v.ty
        if name in self.statics and self.dyn_depth and self.lookup_slot(name) is None:
            self.error(f"parameter '{name}' is {self.statics[name]} while compiling and is "
                       "rebound inside a loop or a branch taken at run time; assign it where "
                       "the condition is known while compiling (such as 'if out is None:' at "
                       "the top of the function), or use another variable")
        if name in self.scope.shared:
            self.error(f"cannot assign the variable '{name}': the enclosing pfor "
                       "shares it, and shared variables cannot be rebound")
        weak = v.kind is None and v.is_scalar and bool(v.weak)
        was_weak = self.var_weak.get(name)
        weak_changed = False
        if was_weak is None:
            self.var_weak[name] = weak
        elif was_weak and not weak:
            self.var_weak[name] = False
            weak_changed = True  # reads so far took it as weak
        old = self.var_types.get(name)
        if old is None:
            self.var_types[name] = ty
        else:
            if old != ty and was_weak is not None and was_weak != weak \
                    and isinstance(old, str) and isinstance(ty, str):
                # NEP 50: the NumPy scalar's type wins over a Python
                # scalar's of the same or a lower kind
                new = promote_weak(ty, old) if was_weak else promote_weak(old, ty)
            else:
                new = self.unify(old, ty, f"variable '{name}'")
            if new != old:
                self.var_types[name] = new
                raise Restart()
            ty = old
        if weak_changed:
            raise Restart()
        v = self.convert(v, ty, f"assignment to '{name}'")
        if v.is_array:
            self.name_value(v, name)
        self.write_var(name, v, ty)

    def name_value(self, v, name):
        found = self.def_lines.get(v.ssa)
        if found is None:
            return
        region, i = found
        line = region.lines[i]
        if line.endswith(")") and ' loc("' in line and '"(' not in line.rsplit(" loc(", 1)[1]:
            head, tail = line.rsplit(" loc(", 1)
            region.lines[i] = f'{head} loc("{name}"({tail})'

    def write_var(self, name, v, ty):
        if isinstance(ty, TupT):
            for k, (x, t) in enumerate(zip(v.items, ty.items)):
                self.write_var(f"{name}.{k}", x, t)
            return
        slot = self.lookup_slot(name)
        if slot is None:
            slot = self.new_slot(name, ty)
        self.scope.values.pop(name, None)
        self.emit(f"vrir.write {v.ssa}, {slot} : !vrir.var<{mlir_type(ty)}>")
        base = name.split(".", 1)[0]
        if base in getattr(self, "maybe_unbound", ()) and not name.startswith("$") \
                and not name.endswith((".1", ".2", ".3")) and self.scope.kind == "function":
            t = self.const(True, "i1")
            self.write_var(f"$def.{base}", t, "i1")

    def read_var(self, name, ty):
        if isinstance(ty, TupT):
            items = [self.read_var(f"{name}.{k}", t) for k, t in enumerate(ty.items)]
            return V(ty, kind="tuple", items=items)
        slot = self.lookup_slot(name)
        if slot is None:
            return None
        return self.op(f"vrir.read {slot} : !vrir.var<{mlir_type(ty)}>", ty)

    def read_temporary(self, name):
        """The value of a frontend temporary ($ifexp..., $boolop...): weak
        when every value assigned to it is."""
        v = self.read_var(name, self.var_types[name])
        return self.weak(v, self.var_weak.get(name, False))

    def has_var(self, name):
        ty = self.var_types.get(name)
        if ty is None:
            return False
        if name in self.scope.values:
            return True
        first = name if not isinstance(ty, TupT) else f"{name}.0"
        return first in self.scope.slots

    def load_name(self, name, node, check=True):
        if name in self.scope.values:
            return self.scope.values[name]
        st = self.statics.get(name)
        if st is not None and self.lookup_slot(name) is None:
            if st.kind is None:
                v = self.const(st.const, st.ty)
                v.weak = st.weak
                return v
            return V(kind=st.kind, obj=st.obj, items=DTYPE_OBJECT if st.dtype_object else None)
        ty = self.var_types.get(name)
        if ty is not None:
            if check and name in self.maybe_unbound and self.scope.kind == "function" \
                    and self.lookup_slot(f"$def.{name}"):
                f = self.read_var(f"$def.{name}", "i1")
                one = self.const(True, "i1")
                nf = self.op(f"arith.xori {f.ssa}, {one.ssa} : i1", "i1")
                self.error_if(nf, "UnboundLocalError",
                              f"cannot access local variable '{name}' where it is not "
                              "associated with a value")
            v = self.read_var(name, ty)
            if v is not None:
                return self.weak(v, self.var_weak.get(name, False))
        if name in self.local_names:
            self.error(f"variable '{name}' is used before it is assigned", node)
        return self.global_value(name, node)

    def global_value(self, name, node):
        if name in self.globals:
            obj = self.globals[name]
        elif hasattr(builtins, name):
            obj = getattr(builtins, name)
        else:
            self.error(f"name '{name}' is not defined", node)
        return self.wrap_object(obj, name, node)

    def wrap_object(self, obj, name, node):
        from . import api
        import vrir as vrir_pkg
        if obj is np:
            return V(kind="module", obj="np")
        if obj is math:
            return V(kind="module", obj="math")
        if obj is cmath:
            return V(kind="module", obj="cmath")
        if obj is vrir_pkg or obj is api:
            return V(kind="module", obj="vrir")
        if isinstance(obj, api.JitFunction):
            return V(kind="jitfn", obj=obj)
        if callable(obj) and getattr(obj, "__module__", None) == api.__name__:
            return V(kind="func", obj=("vrir", obj.__name__))  # prange, pfor, Domain, gpu...
        if isinstance(obj, type) and obj in PY_DTYPES:
            return V(kind="dtype", obj=PY_DTYPES[obj],
                     items=BUILTIN_TYPE if obj in (bool, int, float, complex) else None)
        if obj is None:
            return V(kind="none")
        if isinstance(obj, (bool, int, float, complex, np.generic)):
            v = self.pyconst(obj)
            if v is not None:
                return v
        if isinstance(obj, str):
            return V(kind="str", obj=obj)
        if callable(obj) and getattr(obj, "__module__", None) == "builtins" and hasattr(builtins, getattr(obj, "__name__", "")):
            return V(kind="func", obj=("builtin", obj.__name__))
        if callable(obj) and getattr(obj, "__module__", "") in ("numpy", "math", "cmath"):
            mod = {"numpy": "np"}.get(obj.__module__, obj.__module__)
            return V(kind="func", obj=(mod, obj.__name__))
        if isinstance(obj, np.ufunc):
            return V(kind="func", obj=("np", obj.__name__))
        if isinstance(obj, types.FunctionType):
            if obj.__name__ == "<lambda>":
                self.error(f"'{name}' is a lambda: calls of lambdas are not supported in "
                           "compiled code (define the function with def)", node)
            if _is_user_function(obj):
                return V(kind="pyfn", obj=obj)
            self.error(f"call of {obj.__module__}.{obj.__qualname__} is not supported in "
                       "compiled code (only functions of the program itself are compiled)", node)
        if isinstance(obj, tuple):
            return V(kind="tuple", items=[self.wrap_object(x, name, node) for x in obj])
        if isinstance(obj, types.ModuleType):
            # any other module: its attributes resolve like globals
            return V(kind="module", obj=obj)
        self.error(f"global '{name}' of type {type(obj).__name__} is not supported "
                   "in compiled code", node)

    # ------------------------------------------------------------ function
    def emit_function(self):
        fd = self.fdef
        a = fd.args
        if a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs:
            self.error("*args, **kwargs and keyword-only parameters are not supported", fd)
        params = [p.arg for p in a.args]
        if len(params) != len(self.argtypes):
            raise TypeError(f"{fd.name}() takes {len(params)} arguments, got {len(self.argtypes)}")
        self.local_names = set()
        for n in ast.walk(fd):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                self.local_names.add(n.id)
            if isinstance(n, (ast.Global, ast.Nonlocal)):
                self.error("global/nonlocal statements are not supported", n)
        self.local_names.update(params)
        self.maybe_unbound = set()
        self.unbound_reads(fd.body, set(params))
        sig = []
        for k, (p, t) in enumerate(zip(params, self.argtypes)):
            if isinstance(t, StaticArg):
                self.statics[p] = t
                continue
            self.cur = a.args[k]
            ssa = f"%arg{k}"
            sig.append(f"{ssa}: {mlir_type(t)} {self.loc(a.args[k], name=p)}")
            self.var_types.setdefault(p, t)
            if isinstance(t, str):
                # From Python, only a Python number's type can be one (a
                # float32 comes from NumPy; np.float64 passes as a float)
                self.var_weak.setdefault(
                    p, p in self.weak_params if self.weak_params is not None
                    else t in PYTHON_NUMBER_TYPES)
            vt = self.var_types[p]
            self.cur = fd
            self.write_var(p, self.convert(V(t, ssa), vt), vt)
        self.cur = fd
        for name in sorted(self.maybe_unbound):
            f = self.const(False, "i1")
            self.write_var(f"$def.{name}", f, "i1")
        self.suite(fd.body)
        if not self.terminated:
            if self.ret_types[0] not in (None, ()):
                self.error(f"function '{fd.name}' can reach its end without returning "
                           "a value (add a return on every path)", fd)
            self.ret_types[0] = ()
            self.emit("func.return")
        rts = self.result_types()
        res = ""
        if rts:
            res = " -> (" + ", ".join(mlir_type(t) for t in rts) + ")"
        attrs = ' attributes {llvm.emit_c_interface}' if self.public else ""
        vis = "" if self.public else "private "
        body = self.region.allocas + self.region.lines
        return (f"func.func {vis}@{self.symbol}({', '.join(sig)}){res}{attrs} {{\n"
                + "\n".join("  " + l if not l.startswith("^") else l for l in body)
                + f"\n}} {self.loc(fd)}\n")

    def unbound_reads(self, stmts, d):
        """Definite assignment (Python's UnboundLocalError): adds to
        self.maybe_unbound the locals some read of which may come before any
        assignment; those get a run-time flag. Returns the names assigned on
        every path through `stmts` (None when no path gets past them)."""
        def loads(node):
            if node is None:
                return
            for n in ast.walk(node):
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) \
                        and n.id in self.local_names and n.id not in d:
                    self.maybe_unbound.add(n.id)

        def stores(t):
            for n in ast.walk(t):
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                    d.add(n.id)
                elif isinstance(n, ast.Subscript):
                    loads(n)
        d = set(d)
        for st in stmts:
            if isinstance(st, ast.Assign):
                loads(st.value)
                for t in st.targets:
                    stores(t)
            elif isinstance(st, ast.AnnAssign):
                loads(st.value)
                if st.value is not None:
                    stores(st.target)
            elif isinstance(st, ast.AugAssign):
                loads(st.value)
                if isinstance(st.target, ast.Name):
                    if st.target.id not in d:
                        self.maybe_unbound.add(st.target.id)
                    d.add(st.target.id)
                else:
                    loads(st.target)
            elif isinstance(st, ast.If):
                loads(st.test)
                a = self.unbound_reads(st.body, d)
                b = self.unbound_reads(st.orelse, d)
                if a is None and b is None:
                    return None
                d = b if a is None else a if b is None else a & b
            elif isinstance(st, (ast.For, ast.While)):
                loads(st.iter if isinstance(st, ast.For) else st.test)
                inner = set(d)
                if isinstance(st, ast.For):
                    for n in ast.walk(st.target):
                        if isinstance(n, ast.Name):
                            inner.add(n.id)
                self.unbound_reads(st.body, inner)
                self.unbound_reads(st.orelse, d)
            elif isinstance(st, ast.With):
                for it in st.items:
                    loads(it.context_expr)
                r = self.unbound_reads(st.body, d)
                if r is None:
                    return None
                d = r
            elif isinstance(st, (ast.Return, ast.Raise)):
                loads(getattr(st, "value", None) or getattr(st, "exc", None))
                return None
            elif isinstance(st, (ast.Break, ast.Continue)):
                return None
            else:
                loads(st)
        return d

    def result_types(self):
        r = self.ret_types[0]
        return list(r) if r else []

    def result_weakness(self):
        """Per result, whether every return gives a Python scalar."""
        w = self.ret_types[1]
        return list(w) if w else [False] * len(self.result_types())

    # ------------------------------------------------------------ statements
    def suite(self, stmts):
        k = 0
        while k < len(stmts):
            if self.terminated:
                break
            s = stmts[k]
            marker = self.gpu_marker(s)
            if marker == "gpu_end":
                self.error("vrir.gpu_end() without a vrir.gpu_begin() before it in the same block", s)
            if marker == "gpu_begin":
                end = next((j for j in range(k + 1, len(stmts))
                            if self.gpu_marker(stmts[j]) in ("gpu_begin", "gpu_end")), None)
                if end is None:
                    self.error("vrir.gpu_begin() without a vrir.gpu_end() after it in the same block", s)
                if self.gpu_marker(stmts[end]) == "gpu_begin":
                    self.error("gpu sections do not nest: vrir.gpu_begin() before the vrir.gpu_end() "
                               f"of the section opened at line {self.where(s).rsplit(':', 1)[1]}", stmts[end])
                saved = self.cur
                self.cur = s
                try:
                    self.gpu_section(stmts[k + 1:end])
                finally:
                    self.cur = saved
                k = end + 1
                continue
            self.stmt(s)
            k += 1

    def static_object(self, node):
        """The Python object a global name or attribute chain names, without
        emitting code (None for local variables and anything else)."""
        if isinstance(node, ast.Name):
            if node.id in self.local_names:
                return None
            if node.id in self.globals:
                return self.globals[node.id]
            return getattr(builtins, node.id, None)
        if isinstance(node, ast.Attribute):
            base = self.static_object(node.value)
            if base is None or not inspect.ismodule(base):
                return None
            return getattr(base, node.attr, None)
        return None

    def gpu_marker(self, s):
        """'gpu_begin' / 'gpu_end' for a `vrir.gpu_begin()` / `vrir.gpu_end()`
        statement, else None."""
        from . import api
        if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Call)):
            return None
        obj = self.static_object(s.value.func)
        for name in ("gpu_begin", "gpu_end"):
            if obj is getattr(api, name):
                if s.value.args or s.value.keywords:
                    self.error(f"vrir.{name}() takes no arguments", s)
                return name
        return None

    def stmt(self, s):
        saved = self.cur
        self.cur = s
        try:
            meth = getattr(self, "stmt_" + type(s).__name__, None)
            if meth is None:
                self.error(f"unsupported statement '{type(s).__name__}'")
            meth(s)
        finally:
            self.cur = saved

    def stmt_Pass(self, s):
        pass

    def stmt_Expr(self, s):
        if isinstance(s.value, ast.Constant):
            return  # docstring
        self.expr(s.value)

    def stmt_Assign(self, s):
        v = self.expr(s.value)
        for t in s.targets:
            self.assign(t, v)

    def stmt_AnnAssign(self, s):
        if s.value is None:
            return
        self.assign(s.target, self.expr(s.value))

    def check_writable(self, target, base):
        """ValueError as NumPy's, while compiling, for a write into an array
        NumPy makes read-only (flow-insensitively: a variable bound to one
        anywhere before counts)."""
        if base.ssa in self.readonly_values or (
                isinstance(target, ast.Name) and target.id in self.readonly_names):
            self.error("assignment destination is read-only (the .imag of a real "
                       "array is read-only in NumPy)")

    def assign(self, t, v):
        self.cur = t
        if isinstance(t, ast.Name):
            if v.ssa is not None and v.ssa in self.readonly_values:
                self.readonly_names.add(t.id)
            else:
                self.readonly_names.discard(t.id)
            self.assign_name(t.id, v, t)
        elif isinstance(t, (ast.Tuple, ast.List)):
            if v.kind != "tuple":
                self.error("only tuples can be unpacked")
            if len(v.items) != len(t.elts):
                self.error(f"cannot unpack {len(v.items)} values into {len(t.elts)} targets")
            for tt, vv in zip(t.elts, v.items):
                self.assign(tt, vv)
        elif isinstance(t, ast.Subscript):
            base = self.expr(t.value)
            if not base.is_array:
                self.error("item assignment on a non-array")
            self.check_writable(t.value, base)
            plan = self.index_plan(base, t.slice)
            self.store_plan(base, plan, v)
        elif isinstance(t, ast.Attribute):
            part = self.part_target(t)
            self.store_plan(part, [], v)
        else:
            self.error(f"unsupported assignment target {type(t).__name__}")

    def part_target(self, t):
        """The array an assignment to `A.real` or `A.imag` writes: NumPy
        writes the parts of a complex array in place, and a real array's
        `.real` is the array itself."""
        if t.attr not in ("real", "imag"):
            self.error(f"assignment to attribute '{t.attr}' is not supported")
        base = self.expr(t.value)
        if not base.is_array:
            self.error(f"assignment to attribute '{t.attr}' of a {self.tyname(base)}")
        if t.attr == "imag" and not is_complex(base.ty.elem):
            self.error("array does not have imaginary part to set (NumPy's TypeError)")
        self.check_writable(t.value, base)
        return self.complex_part(t.attr, base)

    def stmt_AugAssign(self, s):
        op = ARITH_OPS.get(type(s.op))
        if op is None:
            self.error(f"unsupported operator {type(s.op).__name__}")
        t = s.target
        if isinstance(t, ast.Name):
            cur = self.load_name(t.id, t)
            new = self.binop(op, cur, self.expr(s.value))
            if cur.is_array:
                self.update_in_place(cur, new, t, check_writable=True)
            else:
                self.assign_name(t.id, new, t)
        elif isinstance(t, ast.Subscript):
            base = self.expr(t.value)
            if not base.is_array:
                self.error("item assignment on a non-array")
            self.check_writable(t.value, base)
            plan = self.index_plan(base, t.slice)
            cur = self.load_plan(base, plan)
            rhs = self.expr(s.value)
            self.store_plan(base, plan, self.binop(op, cur, rhs))
        elif isinstance(t, ast.Attribute):
            part = self.part_target(t)
            self.update_in_place(part, self.binop(op, part, self.expr(s.value)), t)
        else:
            self.error("unsupported augmented assignment target")

    def update_in_place(self, array, new, t, check_writable=False):
        """`t op= value` on an array, with `new` = array op value: NumPy
        updates the array in place (every alias sees it), with same-kind
        casting: an integer array cannot take floats."""
        if kind(new.ty.elem) > kind(array.ty.elem):
            self.error(f"cannot update a {array.ty.elem} array in place "
                       f"with {new.ty.elem} values", t)
        if check_writable:
            self.check_writable(t, array)
        self.store_plan(array, [], new)

    def stmt_If(self, s):
        c = self.condition(s.test)
        if c.const is not None:
            # A condition known while compiling (A.ndim == 2, A.dtype ==
            # np.float32, x is None, a global flag): only the branch taken
            # is compiled, as only it runs.
            self.suite(s.body if c.const else s.orelse)
            return
        then_l, join_l = self.label(), self.label()
        else_l = self.label() if s.orelse else join_l
        self.cond_br(c, then_l, else_l)
        reached = not s.orelse
        self.dyn_depth += 1
        self.start_block(then_l)
        self.suite(s.body)
        if not self.terminated:
            self.br(join_l)
            reached = True
        if s.orelse:
            self.start_block(else_l)
            self.suite(s.orelse)
            if not self.terminated:
                self.br(join_l)
                reached = True
        self.dyn_depth -= 1
        if reached:
            self.start_block(join_l)
        else:
            self.terminated = True

    def stmt_While(self, s):
        if s.orelse:
            self.error("while ... else is not supported")
        self.dyn_depth += 1
        try:
            self.while_loop(s)
        finally:
            self.dyn_depth -= 1

    def while_loop(self, s):
        head, body, exit_ = self.label(), self.label(), self.label()
        self.br(head)
        self.start_block(head)
        state = {"exit": False}
        test = s.test
        if isinstance(test, ast.Constant) and test.value is True:
            self.br(body)
        else:
            c = self.condition(test)
            self.cond_br(c, body, exit_)
            state["exit"] = True
        self.start_block(body)
        self.loops.append((head, exit_, state))
        self.suite(s.body)
        self.loops.pop()
        if not self.terminated:
            self.br(head)
        if state["exit"]:
            self.start_block(exit_)
        else:
            self.terminated = True

    def stmt_Break(self, s):
        if not self.loops:
            self.error("'break' outside a loop (or inside a parallel loop)")
        self.loops[-1][2]["exit"] = True
        self.br(self.loops[-1][1])

    def stmt_Continue(self, s):
        if not self.loops:
            self.error("'continue' outside a loop (or inside a parallel loop)")
        self.loops[-1][2]["continued"] = True
        self.br(self.loops[-1][0])

    def stmt_Return(self, s):
        if self.scope.kind != "function":
            self.error("'return' inside a parallel loop or gpu section")
        if s.value is None:
            vals = []
        else:
            v = self.expr(s.value)
            if v.kind == "none":
                vals = []
            elif v.kind == "tuple":
                vals = v.items
            else:
                vals = [v]
        for x in vals:
            if x.kind is not None:
                self.error(f"cannot return a {x.kind}")
        tys = tuple(x.ty for x in vals)
        old = self.ret_types[0]
        if old is None:
            self.ret_types[0] = tys
        elif old != tys:
            if len(old) != len(tys):
                self.error("all return statements must return the same number of values")
            new = tuple(self.unify(a, b, "the return value") for a, b in zip(old, tys))
            if new != old:
                self.ret_types[0] = new
                raise Restart()
        tys = self.ret_types[0]
        weak = tuple(bool(x.weak) and not x.is_array for x in vals)
        self.ret_types[1] = weak if self.ret_types[1] is None else \
            tuple(a and b for a, b in zip(self.ret_types[1], weak))
        conv = [self.convert(x, t, "return value") for x, t in zip(vals, tys)]
        if conv:
            self.emit("func.return " + ", ".join(c.ssa for c in conv) + " : "
                      + ", ".join(mlir_type(t) for t in tys))
        else:
            self.emit("func.return")
        self.terminated = True

    # --- for loops
    def stmt_For(self, s):
        self.dyn_depth += 1
        try:
            self.for_loop(s)
        finally:
            self.dyn_depth -= 1

    def for_loop(self, s):
        if s.orelse:
            self.error("for ... else is not supported")
        it = s.iter
        if isinstance(it, ast.Call):
            fn = self.expr(it.func)
            if fn.kind == "func" and fn.obj == ("builtin", "range"):
                return self.for_range(s, it)
            if fn.kind == "func" and fn.obj in (("vrir", "prange"), ("vrir", "pfor")):
                return self.for_parallel(s, it, fn.obj[1])
            if fn.kind == "func" and fn.obj in (("builtin", "enumerate"), ("builtin", "zip")):
                return self.for_over_arrays(s, fn.obj[1], it)
        return self.for_over_arrays(s, None, it)

    def for_over_arrays(self, s, form, it):
        """`for x in A`, `for i, x in enumerate(A[, start])` and `for x, y in
        zip(A, B, ...)` over arrays, as NumPy iterates them (the first axis:
        elements of a 1-D array, row views of a larger one): a counted loop
        over arrays evaluated once, before it, reading item k of each."""
        usage = ("for loops iterate over range(...), vrir.prange(...), vrir.pfor(...), "
                 "an array, enumerate(array[, start]) or zip(arrays...)")
        start = None
        if form is None:
            sources, targets = [it], [s.target]
        else:
            if form == "enumerate":
                kw = {k.arg: k.value for k in it.keywords}
                if len(it.args) + len(kw) not in (1, 2) or set(kw) - {"start"} or not it.args:
                    self.error("enumerate() takes an array and an optional start")
                start = it.args[1] if len(it.args) == 2 else kw.get("start")
                sources = it.args[:1]
            else:
                if it.keywords or not it.args:
                    self.error("zip() takes arrays (no keywords)")
                sources = it.args
            want = len(sources) + (form == "enumerate")
            if not isinstance(s.target, ast.Tuple) or len(s.target.elts) != want:
                self.error(f"the loop target of {form}() must be {want} names")
            targets = s.target.elts[1:] if form == "enumerate" else s.target.elts
        n = self.nssa
        self.nssa += 1
        held = []
        for j, src in enumerate(sources):
            name = f"$iter{n}_{j}"
            self.stmt(ast.copy_location(
                ast.Assign(targets=[ast.Name(name, ast.Store())], value=src), s))
            if not isinstance(self.var_types.get(name), ArrT):
                self.error(usage)
            held.append(name)
        counter = f"$item{n}"

        def loc(node):
            return ast.fix_missing_locations(ast.copy_location(node, s))

        def length(name):
            return ast.Call(ast.Name("len", ast.Load()), [ast.Name(name, ast.Load())], [])
        count = length(held[0]) if len(held) == 1 else \
            ast.Call(ast.Name("min", ast.Load()), [length(h) for h in held], [])
        prologue = [loc(ast.Assign(targets=[t], value=ast.Subscript(
            ast.Name(h, ast.Load()), ast.Name(counter, ast.Load()), ast.Load())))
            for t, h in zip(targets, held)]
        if form == "enumerate":
            index = ast.Name(counter, ast.Load()) if start is None else \
                ast.BinOp(ast.Name(counter, ast.Load()), ast.Add(), start)
            prologue.insert(0, loc(ast.Assign(targets=[s.target.elts[0]], value=index)))
        loop = loc(ast.For(target=ast.Name(counter, ast.Store()),
                           iter=ast.Call(ast.Name("range", ast.Load()), [count], []),
                           body=prologue + s.body, orelse=[]))
        return self.for_range(loop, loop.iter)

    def range_args(self, call):
        if call.keywords:
            self.error("range() takes no keyword arguments")
        args = [self.to_int(self.expr(a)) for a in call.args]
        args = [self.cast(a, "i64") for a in args]
        if len(args) == 1:
            return self.const(0, "i64"), args[0], self.const(1, "i64")
        if len(args) == 2:
            return args[0], args[1], self.const(1, "i64")
        if len(args) == 3:
            if args[2].const == 0:
                self.error("range() step must not be zero")
            self.error_if_zero(args[2], "ValueError", "range() arg 3 must not be zero")
            if self.in_gpu_section() and args[2].const is None:
                # A kernel cannot raise: there a zero step is an empty range
                # (a division by it, for the trip count, traps on CPUs).
                start, stop, step = args
                zero = self.cmp_scalar("eq", step, self.const(0, "i64"))
                one = self.const(1, "i64")
                stop = self.op(f"arith.select {zero.ssa}, {start.ssa}, {stop.ssa} : i64", "i64")
                step = self.op(f"arith.select {zero.ssa}, {one.ssa}, {step.ssa} : i64", "i64")
                return start, stop, step
            return args
        self.error("range() takes 1 to 3 arguments")

    def for_range(self, s, call):
        start, stop, step = self.range_args(call)
        if not isinstance(s.target, ast.Name):
            self.error("the target of a for loop over range() must be a name")
        if step.const not in (1, -1):
            return self.for_range_count(s, start, stop, step)
        self.nssa += 1
        ctr = self.new_slot(f"$ctr{self.nssa}", "i64")
        self.emit(f"vrir.write {start.ssa}, {ctr} : !vrir.var<i64>")
        head, body, latch, exit_ = self.label(), self.label(), self.label(), self.label()
        self.br(head)
        self.start_block(head)
        v = self.op(f"vrir.read {ctr} : !vrir.var<i64>", "i64")
        if step.const is not None:
            c = self.op(f"arith.cmpi {'slt' if step.const > 0 else 'sgt'}, {v.ssa}, {stop.ssa} : i64", "i1")
        else:
            up = self.op(f"arith.cmpi slt, {v.ssa}, {stop.ssa} : i64", "i1")
            down = self.op(f"arith.cmpi sgt, {v.ssa}, {stop.ssa} : i64", "i1")
            z = self.const(0, "i64")
            pos = self.op(f"arith.cmpi sgt, {step.ssa}, {z.ssa} : i64", "i1")
            c = self.op(f"arith.select {pos.ssa}, {up.ssa}, {down.ssa} : i1", "i1")
        self.cond_br(c, body, exit_)
        self.start_block(body)
        self.range_loop_rest(s, v, ctr, step, head, latch, exit_)

    def range_loop_rest(self, s, v, ctr, increment, head, latch, exit_):
        """The rest of a range loop from its body block: binds the target to
        `v`, emits the body, and the latch adding `increment` to the counter
        slot `ctr`."""
        self.cur = s.target
        v.weak = True  # a Python int
        self.assign_name(s.target.id, v, s.target)
        self.cur = s
        state = {"exit": True}
        self.loops.append((latch, exit_, state))
        self.suite(s.body)
        self.loops.pop()
        # A body that always returns or breaks (`if True: return` folds to
        # that) leaves the latch unreachable: no block for it, as the CFG
        # to scf lifting takes no unreachable blocks.
        latch_reached = not self.terminated or state.get("continued", False)
        if not self.terminated:
            self.br(latch)
        if latch_reached:
            self.start_block(latch)
            count = self.op(f"vrir.read {ctr} : !vrir.var<i64>", "i64")
            count = self.op(f"arith.addi {count.ssa}, {increment.ssa} : i64", "i64")
            self.emit(f"vrir.write {count.ssa}, {ctr} : !vrir.var<i64>")
            self.br(head)
        self.start_block(exit_)

    def for_range_count(self, s, start, stop, step):
        """range() with a step other than +-1: a loop over the trip count
        (as Python computes it, in unsigned arithmetic), so that the
        induction variable never overflows."""
        z = self.const(0, "i64")
        one = self.const(1, "i64")
        pos = self.op(f"arith.cmpi sgt, {step.ssa}, {z.ssa} : i64", "i1")
        lo = self.op(f"arith.select {pos.ssa}, {start.ssa}, {stop.ssa} : i64", "i64")
        hi = self.op(f"arith.select {pos.ssa}, {stop.ssa}, {start.ssa} : i64", "i64")
        nonempty = self.op(f"arith.cmpi slt, {lo.ssa}, {hi.ssa} : i64", "i1")
        span = self.op(f"arith.subi {hi.ssa}, {lo.ssa} : i64", "i64")
        nstep = self.op(f"arith.subi {z.ssa}, {step.ssa} : i64", "i64")
        mag = self.op(f"arith.select {pos.ssa}, {step.ssa}, {nstep.ssa} : i64", "i64")
        span1 = self.op(f"arith.subi {span.ssa}, {one.ssa} : i64", "i64")
        q = self.op(f"arith.divui {span1.ssa}, {mag.ssa} : i64", "i64")
        q1 = self.op(f"arith.addi {q.ssa}, {one.ssa} : i64", "i64")
        n = self.op(f"arith.select {nonempty.ssa}, {q1.ssa}, {z.ssa} : i64", "i64")
        self.nssa += 1
        ctr = self.new_slot(f"$ctr{self.nssa}", "i64")
        self.emit(f"vrir.write {z.ssa}, {ctr} : !vrir.var<i64>")
        head, body, latch, exit_ = self.label(), self.label(), self.label(), self.label()
        self.br(head)
        self.start_block(head)
        k = self.op(f"vrir.read {ctr} : !vrir.var<i64>", "i64")
        c = self.op(f"arith.cmpi ult, {k.ssa}, {n.ssa} : i64", "i1")
        self.cond_br(c, body, exit_)
        self.start_block(body)
        m = self.op(f"arith.muli {k.ssa}, {step.ssa} : i64", "i64")
        v = self.op(f"arith.addi {start.ssa}, {m.ssa} : i64", "i64")
        self.range_loop_rest(s, v, ctr, one, head, latch, exit_)

    def names_in(self, stmts):
        loads, stores, index_stores = set(), set(), set()
        for st in stmts:
            for n in ast.walk(st):
                if isinstance(n, ast.Name):
                    (stores if isinstance(n.ctx, ast.Store) else loads).add(n.id)
                if isinstance(n, (ast.Assign, ast.AugAssign)):
                    targets = n.targets if isinstance(n, ast.Assign) else [n.target]
                    for t in targets:
                        for tt in ast.walk(t):
                            if isinstance(tt, ast.Subscript):
                                b = tt.value
                                while isinstance(b, ast.Subscript):
                                    b = b.value
                                if isinstance(b, ast.Name):
                                    index_stores.add(b.id)
        return loads, stores, index_stores

    def enter_nested(self, kind, stmts, shared_names=None):
        """Capture outer variables before a pfor body / gpu section."""
        loads, stores, index_stores = self.names_in(stmts)
        captured = {}
        for name in sorted(loads | stores):
            if self.has_var(name):
                captured[name] = self.load_name(name, self.cur, check=name in loads)
        return captured, stores, index_stores

    def push_scope(self, kind, captured, stores, shared):
        outer = (self.region, self.scope, self.terminated, self.loops)
        self.region = Region()
        scope = Scope(kind, self.scope)
        self.scope = scope
        self.terminated = False
        self.loops = []
        scope.shared = set(shared)
        for name, v in captured.items():
            if name in stores:
                self.write_var(name, v, self.var_types[name])
            else:
                scope.values[name] = v
        return outer

    def pop_scope(self, outer):
        region = self.region
        self.region, self.scope, self.terminated, self.loops = outer
        return region

    def region_text(self, region, indent="    "):
        body = region.allocas + region.lines
        return "\n".join(indent + l if not l.startswith("^") else l for l in body)

    def for_parallel(self, s, call, form):
        if form == "prange":
            start, stop, step = self.range_args(call)
            r = self.op(f"vrir.range {self.index(start)} to {self.index(stop)} step {self.index(step)}", "range")
            space, space_ty, ndims = r.ssa, "!vrir.range", 1
            shared_names = None
        else:
            if not call.args or len(call.args) != 1:
                self.error("vrir.pfor(domain, shared=[...]) takes one domain")
            dom = call.args[0]
            if isinstance(dom, ast.Call) and isinstance(self.expr(dom.func), V) and self.expr(dom.func).obj == ("vrir", "Domain"):
                ranges = []
                for d in dom.args:
                    if isinstance(d, ast.Call) and self.expr(d.func).obj == ("builtin", "range"):
                        a, b, c = self.range_args(d)
                    else:
                        a, b, c = self.const(0, "i64"), self.cast(self.to_int(self.expr(d)), "i64"), self.const(1, "i64")
                    ranges.append(self.op(f"vrir.range {self.index(a)} to {self.index(b)} step {self.index(c)}", "range").ssa)
                if not ranges:
                    self.error("vrir.Domain needs at least one dimension")
            else:
                self.error("vrir.pfor's first argument must be vrir.Domain(...)")
            ndims = len(ranges)
            space_ty = f"!vrir.domain<{ndims}>"
            space = self.op(f"vrir.domain {', '.join(ranges)} : {space_ty}", "domain").ssa
            shared_names = []
            for kw in call.keywords:
                if kw.arg != "shared" or not isinstance(kw.value, (ast.List, ast.Tuple)):
                    self.error("vrir.pfor takes shared=[names...]")
                for e in kw.value.elts:
                    if not isinstance(e, ast.Name):
                        self.error("the shared list holds variable names")
                    shared_names.append(e.id)
        tgt = s.target
        if ndims == 1 and isinstance(tgt, ast.Name):
            tnames = [tgt.id]
        elif isinstance(tgt, ast.Tuple) and all(isinstance(e, ast.Name) for e in tgt.elts) and len(tgt.elts) == ndims:
            tnames = [e.id for e in tgt.elts]
        else:
            self.error(f"the loop target must be {ndims} name(s)")
        captured, stores, index_stores = self.enter_nested("pfor", s.body)
        for n in tnames:
            captured.pop(n, None)
        # Variables defined before the loop and updated in it are reductions
        # (s += e, s = max(s, e), ...): each iteration updates a private
        # copy that starts from the identity, and the loop combines them.
        reductions = []  # (name, kind, type, initial value)
        for n in sorted(stores - set(tnames)):
            if n in captured:
                kind_, ty = self.reduction_kind(n, s.body)
                reductions.append((n, kind_, ty, self.convert(captured.pop(n), ty,
                                                              f"reduction '{n}'")))
        if shared_names is None:  # prange: arrays used and not rebound are shared
            shared_names = [n for n, v in captured.items() if v.is_array and n not in stores]
        for n in shared_names:
            if n not in captured:
                if self.has_var(n) or n in self.local_names:
                    continue
                self.error(f"shared variable '{n}' is not defined before the loop")
            if n in stores:
                self.error(f"cannot assign the variable '{n}': the enclosing pfor shares it, "
                           "and shared variables cannot be rebound (thesis 4.5.1)")
        for n in index_stores:
            if n in captured and n not in shared_names and captured[n].is_array:
                self.error(f"the array '{n}' is written by index inside a pfor but is not "
                           "in its shared list (thesis 4.5.1)")
        shared_vals = [captured[n] for n in shared_names if n in captured and captured[n].kind is None]
        ivs = [self.fresh() for _ in tnames]
        outer = self.push_scope("pfor", captured, stores, shared_names)
        for n, iv in zip(tnames, ivs):
            self.assign_name(n, self.weak(self.from_index(iv)))
        for n, kind_, ty, _ in reductions:
            self.write_var(n, self.const(reduction_identity(kind_, ty), ty), ty)
        self.suite(s.body)
        reduced_types = ", ".join(ty for _, _, ty, _ in reductions)
        if not self.terminated:
            parts = [self.read_var(n, ty).ssa for n, _, ty, _ in reductions]
            self.emit("scf.yield" + (f" {', '.join(parts)} : {reduced_types}" if parts else ""))
        region = self.pop_scope(outer)
        sh = ""
        if shared_vals:
            sh = (" shared(" + ", ".join(v.ssa for v in shared_vals) + " : "
                  + ", ".join(mlir_type(v.ty) for v in shared_vals) + ")")
        if not reductions:
            self.raw(f"vrir.pfor ({', '.join(ivs)}) in {space} : {space_ty}{sh} {{\n"
                     f"  scf.execute_region {{\n{self.region_text(region)}\n  }} {self.loc()}\n"
                     f"}} {self.loc()}")
            return
        res, part = self.fresh(), self.fresh()
        count = f":{len(reductions)}" if len(reductions) > 1 else ""
        red = ", ".join(f"{k} {init.ssa} : {ty}" for _, k, ty, init in reductions)
        parts = ", ".join(f"{part}#{i}" if count else part for i in range(len(reductions)))
        self.raw(f"{res}{count} = vrir.pfor ({', '.join(ivs)}) in {space} : {space_ty}{sh} "
                 f"reduce({red}) {{\n"
                 f"  {part}{count} = scf.execute_region -> ({reduced_types}) {{\n"
                 f"{self.region_text(region)}\n  }} {self.loc()}\n"
                 f"  vrir.yield {parts} : {reduced_types} {self.loc()}\n"
                 f"}} {self.loc()}")
        for i, (n, _, ty, _) in enumerate(reductions):
            self.write_var(n, V(ty, ssa=f"{res}#{i}" if count else res), ty)

    def reduction_kind(self, name, body):
        """How a parallel loop's body updates `name`, a variable defined
        before the loop: the reduction kind ("sum", "prod", "min" or "max")
        and the variable's type; any other use is a CompileError."""
        forms = ("only reductions update a variable defined before a parallel loop: "
                 f"{name} += e, {name} -= e, {name} *= e, {name} = {name} + e, "
                 f"{name} = min({name}, e), {name} = max({name}, e) (or np.minimum/np.maximum), "
                 f"with e not using '{name}'")
        ty = self.var_types.get(name)
        if not isinstance(ty, str) or ty not in ("f64", "f32", "i64", "i32"):
            self.error(f"assignment to '{name}' inside a parallel loop: a reduction variable "
                       f"must be an integer or float scalar, not {ty}")

        def uses(e):
            return any(isinstance(x, ast.Name) and x.id == name for x in ast.walk(e))

        def is_name(e):
            return isinstance(e, ast.Name) and e.id == name

        # Every store of `name` must be one of the update forms; each
        # Assign form reads `name` once, as its operand.
        kinds, operand_reads, updates = set(), 0, 0
        for st in body:
            for node in ast.walk(st):
                k = None
                if isinstance(node, ast.AugAssign) and is_name(node.target):
                    k = {ast.Add: "sum", ast.Sub: "sum", ast.Mult: "prod"}.get(type(node.op))
                    if k is None or uses(node.value):
                        self.error(forms, node)
                elif (isinstance(node, ast.Assign) and len(node.targets) == 1 and
                      is_name(node.targets[0])) or (isinstance(node, ast.AnnAssign) and
                                                    is_name(node.target) and node.value):
                    v = node.value
                    if isinstance(v, ast.BinOp) and isinstance(v.op, (ast.Add, ast.Mult)) and \
                            (is_name(v.left) and not uses(v.right) or
                             is_name(v.right) and not uses(v.left)):
                        k = "sum" if isinstance(v.op, ast.Add) else "prod"
                    elif isinstance(v, ast.BinOp) and isinstance(v.op, ast.Sub) and \
                            is_name(v.left) and not uses(v.right):
                        k = "sum"
                    elif isinstance(v, ast.Call) and len(v.args) == 2 and not v.keywords and \
                            sum(map(is_name, v.args)) == 1 and sum(map(uses, v.args)) == 1:
                        fn = self.expr(v.func)
                        k = {("builtin", "min"): "min", ("builtin", "max"): "max",
                             ("np", "minimum"): "min", ("np", "maximum"): "max"}.get(
                                 fn.obj if fn.kind == "func" else None)
                    if k is None:
                        self.error(forms, node)
                    operand_reads += 1
                if k is not None:
                    kinds.add(k)
                    updates += 1
        stores = sum(isinstance(x, ast.Name) and x.id == name and isinstance(x.ctx, ast.Store)
                     for st in body for x in ast.walk(st))
        if stores != updates:
            self.error(forms)
        reads = sum(isinstance(x, ast.Name) and x.id == name and isinstance(x.ctx, ast.Load)
                    for st in body for x in ast.walk(st))
        if reads != operand_reads:
            self.error(f"'{name}' is a reduction of the parallel loop (it is updated in it), "
                       "so the loop cannot read it except in its updates: each iteration "
                       "sees only its own part")
        if len(kinds) != 1:
            self.error(f"the reduction '{name}' mixes {' and '.join(sorted(kinds))} updates; "
                       "a reduction variable takes one kind of update")
        return kinds.pop(), ty

    def stmt_With(self, s):
        if len(s.items) != 1 or s.items[0].optional_vars is not None:
            self.error("only 'with vrir.gpu():' is supported")
        ce = s.items[0].context_expr
        ok = isinstance(ce, ast.Call) and not ce.args and self.expr(ce.func).obj == ("vrir", "gpu")
        if not ok:
            self.error("only 'with vrir.gpu():' is supported")
        self.gpu_section(s.body)

    def gpu_section(self, body):
        """A `vrir.gpu_section` of the statements `body` (a `with vrir.gpu():`
        block or the statements between `vrir.gpu_begin()` and `vrir.gpu_end()`)."""
        if self.scope.kind != "function":
            self.error("gpu sections do not nest and cannot be inside a pfor")
        captured, stores, _ = self.enter_nested("gpu", body)
        outer = self.push_scope("gpu", captured, stores, [])
        self.suite(body)
        if self.terminated:
            self.error("a gpu section cannot be left by break, continue or return")
        outs = []
        for name in sorted(stores):
            ty = self.var_types.get(name)
            if ty is None or isinstance(ty, TupT):
                continue
            if self.lookup_slot(name):
                outs.append((name, ty, self.read_var(name, ty)))
        if outs:
            self.emit("scf.yield " + ", ".join(v.ssa for _, _, v in outs) + " : "
                      + ", ".join(mlir_type(t) for _, t, _ in outs))
        else:
            self.emit("scf.yield")
        region = self.pop_scope(outer)
        tys = ", ".join(mlir_type(t) for _, t, _ in outs)
        if outs:
            r = self.fresh()
            e = self.fresh()
            n = len(outs)
            res = f"{r}:{n} = " if n > 1 else f"{r} = "
            eres = f"{e}:{n} = " if n > 1 else f"{e} = "
            yv = ", ".join(f"{e}#{k}" if n > 1 else e for k in range(n))
            self.raw(f"{res}vrir.gpu_section -> ({tys}) {{\n"
                     f"  {eres}scf.execute_region -> ({tys}) {{\n{self.region_text(region)}\n  }} {self.loc()}\n"
                     f"  vrir.yield {yv} : {tys}\n}} {self.loc()}")
            for k, (name, ty, _) in enumerate(outs):
                ssa = f"{r}#{k}" if n > 1 else r
                self.write_var(name, V(ty, ssa), ty)
        else:
            self.raw(f"vrir.gpu_section {{\n  scf.execute_region {{\n{self.region_text(region)}\n  }} {self.loc()}\n}} {self.loc()}")

    # ------------------------------------------------------------ expressions
    def expr(self, e):
        saved = self.cur
        self.cur = e
        try:
            meth = getattr(self, "expr_" + type(e).__name__, None)
            if meth is None:
                self.error(f"unsupported expression '{type(e).__name__}'")
            return meth(e)
        finally:
            self.cur = saved

    def expr_Constant(self, e):
        if e.value is None:
            return V(kind="none")
        if isinstance(e.value, str):
            return V(kind="str", obj=e.value)
        v = self.pyconst(e.value)
        if v is None:
            self.error(f"unsupported constant {e.value!r}")
        return v

    def expr_Name(self, e):
        return self.load_name(e.id, e)

    def expr_Tuple(self, e):
        return V(kind="tuple", items=[self.expr(x) for x in e.elts])

    def expr_List(self, e):
        self.error("lists are not supported (use NumPy arrays or tuples)")

    def expr_BinOp(self, e):
        op = ARITH_OPS.get(type(e.op))
        if op is None:
            self.error(f"unsupported operator {type(e.op).__name__}")
        return self.binop(op, self.expr(e.left), self.expr(e.right))

    def expr_UnaryOp(self, e):
        if isinstance(e.op, ast.USub) and isinstance(e.operand, ast.Constant) \
                and type(e.operand.value) is int and e.operand.value == 2**63:
            return self.pyconst(-2**63)  # the literal -9223372036854775808
        if isinstance(e.op, ast.Not) and isinstance(e.operand, ast.BoolOp):
            v = self.condition(e.operand)
        else:
            v = self.expr(e.operand)
        if isinstance(e.op, ast.UAdd):
            if v.is_array and v.ty.elem == "i1":
                self.error("'+' of a boolean array (NumPy raises TypeError)")
            if not v.is_array and v.kind is None and v.ty == "i1":
                if not v.weak:
                    self.error("'+' of an np.bool_ (NumPy raises TypeError)")
                return self.cast(v, "i64")  # +True is the int 1
            # +A is a new array in NumPy (np.positive), not A itself
            return self.copy(v) if v.is_array else v
        if isinstance(e.op, ast.Not):
            if v.is_array:
                self.error("'not' on an array is ambiguous (use ~ or np.logical_not)")
            t = self.truth(v)
            if t.const is not None:
                return self.weak(self.const(not t.const, "i1"))  # a bool
            one = self.const(True, "i1")
            return self.weak(self.op(f"arith.xori {t.ssa}, {one.ssa} : i1", "i1"))  # a bool
        if isinstance(e.op, ast.USub):
            if v.is_array:
                if v.ty.elem == "i1":
                    self.error("negating a boolean array is not supported")
                return self.op(f"vrir.unary neg {v.ssa} : {v.ty.mlir()} -> {ArrT(v.ty.elem, v.ty.rank).mlir()}",
                               ArrT(v.ty.elem, v.ty.rank))
            self.need_scalar(v)
            if v.ty == "i1":
                if not v.weak:
                    self.error("'-' of an np.bool_ (NumPy raises TypeError; use ~ or not)")
                v = self.cast(v, "i64")
            if is_complex(v.ty):
                r = self.op(f"vrir.unary neg {v.ssa} : {v.ty} -> {v.ty}", v.ty)
            elif v.ty.startswith("f"):
                r = self.op(f"arith.negf {v.ssa} : {v.ty}", v.ty)
            else:
                z = self.const(0, v.ty)
                r = self.op(f"arith.subi {z.ssa}, {v.ssa} : {v.ty}", v.ty)
            r.weak = v.weak
            if v.const is not None:
                if not is_complex(v.ty) and not isinstance(v.const, float):
                    self.check_int64(-v.const, "the constant")
                r.const = -v.const
            return r
        if isinstance(e.op, ast.Invert):
            if v.is_array:
                if kind(v.ty.elem) >= 2:
                    self.error("~ on a float or complex array")
                return self.op(f"vrir.unary not {v.ssa} : {v.ty.mlir()} -> {ArrT(v.ty.elem, v.ty.rank).mlir()}",
                               ArrT(v.ty.elem, v.ty.rank))
            self.need_scalar(v)
            if kind(v.ty) >= 2:
                self.error("~ on a float or complex number")
            m = self.const(-1 if v.ty != "i1" else True, v.ty)
            return self.weak(self.op(f"arith.xori {v.ssa}, {m.ssa} : {v.ty}", v.ty), v.weak)
        self.error("unsupported unary operator")

    def need_scalar(self, v):
        if not v.is_scalar:
            self.error(f"expected a number, got {self.tyname(v)}")

    def truth(self, v):
        if v.is_array:
            self.error("the truth value of an array is ambiguous")
        if v.kind == "none":
            return self.const(False, "i1")
        self.need_scalar(v)
        return self.cast(v, "i1")

    def condition(self, e):
        """The truth value (i1) of a test: of an `if`, `while`, conditional
        expression or `not`, where only the truth of `and`/`or` counts."""
        if isinstance(e, ast.BoolOp):
            return self.expr_BoolOp(e, truth_only=True)
        return self.truth(self.expr(e))

    def expr_BoolOp(self, e, truth_only=False):
        # short-circuit; the value is the deciding operand, as in Python (a
        # temporary variable), so the operands must have one type unless
        # only the truth counts
        name = f"$boolop{e.lineno}_{e.col_offset}"
        is_and = isinstance(e.op, ast.And)
        keyword = "and" if is_and else "or"
        values = list(e.values)
        first = None
        while values:
            # leading operands known while compiling (A.ndim == 2 and ...,
            # 0.5 or x) decide, or drop out, without compiling what Python
            # skips
            first = self.expr(values[0])
            truth = None
            if first.kind is None and not first.is_array:
                truth = (bool(first.const) if first.const is not None
                         else _literal_truth(values[0]))
            if len(values) == 1 or truth is None:
                break
            if truth != is_and:
                return self.truth(first) if truth_only else first
            values.pop(0)
        if len(values) == 1:
            return self.truth(first) if truth_only else first
        end = self.label()
        for k, val in enumerate(values):
            v = first if k == 0 else self.expr(val)
            if v.is_array:
                self.error("the truth value of an array is ambiguous")
            if v.kind is not None:
                self.error(f"'{keyword}' of a {self.tyname(v)}")
            t = self.truth(v)
            if truth_only:
                v = t
            else:
                self.check_same_value_type(f"'{keyword}'", first, v)
            self.assign_name(name, v)
            if k + 1 < len(values):
                nxt = self.label()
                if is_and:
                    self.cond_br(t, nxt, end)
                else:
                    self.cond_br(t, end, nxt)
                self.start_block(nxt)
        self.br(end)
        self.start_block(end)
        return self.read_temporary(name)

    def check_same_value_type(self, what, a, b):
        """The value of `and`/`or` and of `x if c else y` is one of two
        operands chosen when it runs: its type is static, so they must agree
        (widening int to float would change Python's result type)."""
        if a.kind is not None or b.kind is not None:
            return  # tuples, None ...: assign_name decides
        same = a.ty == b.ty if not (a.is_array and b.is_array) else \
            (a.ty.elem, a.ty.rank) == (b.ty.elem, b.ty.rank)
        if not same:
            self.error(f"{what} of values of different types ({self.tyname(a)} and "
                       f"{self.tyname(b)}): its value is one of them, chosen when it "
                       f"runs; convert them to one type")

    def expr_IfExp(self, e):
        c = self.condition(e.test)
        if c.const is not None:
            # known while compiling: only the branch taken (A.ndim == 2)
            return self.expr(e.body if c.const else e.orelse)
        name = f"$ifexp{e.lineno}_{e.col_offset}"
        a_l, b_l, end = self.label(), self.label(), self.label()
        self.cond_br(c, a_l, b_l)
        self.start_block(a_l)
        body = self.expr(e.body)
        self.assign_name(name, body)
        self.br(end)
        self.start_block(b_l)
        orelse = self.expr(e.orelse)
        self.check_same_value_type("a conditional expression (x if c else y)", body, orelse)
        self.assign_name(name, orelse)
        self.br(end)
        self.start_block(end)
        return self.read_temporary(name)

    def static_compare(self, op, a, b):
        """A comparison known while compiling (of dtypes, strings, None, or
        integer constants such as A.ndim): a constant i1, else None."""
        if isinstance(op, (ast.Is, ast.IsNot)):
            if a.kind == "none" or b.kind == "none":
                same = a.kind == "none" and b.kind == "none"
            elif a.kind == "dtype" and b.kind == "dtype":
                same = a.obj == b.obj and a.items is b.items
            else:
                self.error("'is' compares with None only")
            return self.const(same == isinstance(op, ast.Is), "i1")
        if type(op) not in (ast.Eq, ast.NotEq):
            # Ordering is for numbers: Python raises TypeError for None.
            if a.kind is not None or b.kind is not None:
                self.error(f"unsupported comparison of {self.tyname(a)} and {self.tyname(b)}")
        eq = None
        if a.kind == "dtype" and b.kind == "dtype":
            eq = a.obj == b.obj
        elif a.kind == "str" and b.kind == "str":
            eq = a.obj == b.obj
        elif {a.kind, b.kind} == {"dtype", "str"}:  # A.dtype == "float32"
            d, t = (a, b) if a.kind == "dtype" else (b, a)
            try:
                eq = ELEM_TO_NP[d.obj] == np.dtype(t.obj)
            except TypeError:
                self.error(f"{t.obj!r} is not a NumPy dtype")
        elif a.kind == "none" or b.kind == "none":
            eq = a.kind == b.kind
        elif (a.is_scalar and b.is_scalar and a.const is not None and b.const is not None
              and kind(a.ty) <= 1 and kind(b.ty) <= 1):
            x, y = int(a.const), int(b.const)
            r = {ast.Eq: x == y, ast.NotEq: x != y, ast.Lt: x < y, ast.LtE: x <= y,
                 ast.Gt: x > y, ast.GtE: x >= y}.get(type(op))
            if r is None:
                return None
            return self.const(r, "i1")
        elif a.kind is not None or b.kind is not None:
            self.error(f"unsupported comparison of {self.tyname(a)} and {self.tyname(b)}")
        if eq is not None and (a.is_array or b.is_array):
            self.error("comparison of an array with None")
        if eq is None:
            return None
        return self.const(eq == isinstance(op, ast.Eq), "i1")

    def compare_pair(self, op, a, b):
        r = self.static_compare(op, a, b)
        if r is not None:
            return r
        p = CMP_OPS.get(type(op))
        if p is None:
            self.error(f"unsupported comparison {type(op).__name__}")
        return self.compare(p, a, b)

    def expr_Compare(self, e):
        left = self.expr(e.left)
        if len(e.ops) == 1:
            return self.compare_pair(e.ops[0], left, self.expr(e.comparators[0]))
        # a < b < c is `a < b and b < c` with b evaluated once: a false part
        # skips the rest (which may index out of bounds, as Python never runs it)
        name = f"$compare{e.lineno}_{e.col_offset}"
        end = None
        for k, (op, comparator) in enumerate(zip(e.ops, e.comparators)):
            right = self.expr(comparator)
            r = self.compare_pair(op, left, right)
            if r.is_array:
                # Python joins the parts with `and`, the truth value of an
                # array: ambiguous (ValueError) unless it has one element.
                self.error("a chained comparison with arrays (a < b < c) takes the "
                           "truth value of an array; write (a < b) & (b < c)")
            last = k + 1 == len(e.ops)
            if r.const is not None and r.const and not last:
                left = right
                continue
            if (last or r.const is not None) and end is None:
                return r  # the last part, or a part known to be false, decides
            if end is None:
                end = self.label()
            self.assign_name(name, r)
            if last or r.const is not None:
                break
            nxt = self.label()
            self.cond_br(r, nxt, end)
            self.start_block(nxt)
            left = right
        self.br(end)
        self.start_block(end)
        return self.read_temporary(name)

    # --- typing of operations
    def common_elem(self, a, b):
        if a.is_array and b.is_array:
            return promote_strong(a.ty.elem, b.ty.elem)
        # NEP 50: a NumPy scalar (an element, a reduction, np.float32(x))
        # promotes with an array as an array would; a Python scalar takes
        # the array's type unless its kind is higher
        if a.is_array:
            return promote_weak(a.ty.elem, b.ty) if b.weak else promote_strong(a.ty.elem, b.ty)
        if b.is_array:
            return promote_weak(b.ty.elem, a.ty) if a.weak else promote_strong(b.ty.elem, a.ty)
        if a.weak and not b.weak:
            return promote_weak(b.ty, a.ty)
        if b.weak and not a.weak:
            return promote_weak(a.ty, b.ty)
        return promote_strong(a.ty, b.ty)

    def check_operands(self, a, b, what):
        for v in (a, b):
            if not (v.is_array or v.is_scalar):
                self.error(f"unsupported operand {self.tyname(v)} for {what}")

    def result_arr(self, a, b, elem):
        rank = max(x.ty.rank for x in (a, b) if x.is_array)
        return ArrT(elem, rank, "row_major")

    def vbinary(self, fn, a, b, elem):
        if a.is_array or b.is_array:
            t = self.result_arr(a, b, elem)
        else:
            t = elem
        return self.op(f"vrir.binary {fn} {a.ssa}, {b.ssa} : {mlir_type(a.ty)}, {mlir_type(b.ty)} -> {mlir_type(t)}", t)

    def compare(self, p, a, b):
        self.check_operands(a, b, "comparison")
        elem = self.common_elem(a, b)
        if is_complex(elem) and p not in ("eq", "ne"):
            self.error("complex numbers are not ordered (only == and != compare them)")
        a, b = self.cast(a, elem), self.cast(b, elem)
        if a.is_array or b.is_array:
            t = self.result_arr(a, b, "i1")
            return self.op(f"vrir.cmp {p} {a.ssa}, {b.ssa} : {mlir_type(a.ty)}, {mlir_type(b.ty)} -> {t.mlir()}", t)
        # Python numbers compare to a Python bool, NumPy scalars to np.bool_
        return self.weak(self.cmp_scalar(p, a, b), a.weak and b.weak)

    def cmp_scalar(self, p, a, b):
        if is_complex(a.ty):
            return self.op(f"vrir.cmp {p} {a.ssa}, {b.ssa} : {a.ty}, {b.ty} -> i1", "i1")
        if a.ty.startswith("f"):
            return self.op(f"arith.cmpf {CMPF[p]}, {a.ssa}, {b.ssa} : {a.ty}", "i1")
        if a.ty == "i1" and p not in ("eq", "ne"):
            a, b = self.cast(a, "i64"), self.cast(b, "i64")
        return self.op(f"arith.cmpi {CMPI[p]}, {a.ssa}, {b.ssa} : {a.ty}", "i1")

    def binop(self, op, a, b):
        if op == "matmul":
            return self.matmul(a, b)
        self.check_operands(a, b, f"operator {op}")
        arr = a.is_array or b.is_array
        elem = self.common_elem(a, b)
        weak = a.weak and b.weak
        if op in ("and", "or", "xor", "shl", "shr"):
            if kind(elem) >= 2:
                self.error(f"bitwise operator on {'floats' if is_float(elem) else 'complex numbers'}")
            if op in ("shl", "shr"):
                if arr:
                    self.error("shifts on arrays are not supported")
                if elem == "i1":
                    elem = "i64"
            a, b = self.cast(a, elem), self.cast(b, elem)
            if arr:
                return self.vbinary(op, a, b, elem)
            if op in ("shl", "shr"):
                if b.const is None or b.const < 0:
                    z = self.const(0, elem)
                    self.error_if(self.cmp_scalar("lt", b, z), "ValueError", "negative shift count")
                if op == "shr" and (b.const is None or b.const >= bits(elem)):
                    top = self.const(bits(elem) - 1, elem)
                    b = self.op(f"arith.minsi {b.ssa}, {top.ssa} : {elem}", elem)
            name = {"and": "andi", "or": "ori", "xor": "xori", "shl": "shli", "shr": "shrsi"}[op]
            r = self.op(f"arith.{name} {a.ssa}, {b.ssa} : {elem}", elem)
            r.weak = weak
            return r
        if elem == "i1" and (arr or not weak):
            # NumPy (arrays, np.bool_): on booleans + is `or`, * is `and`;
            # - is a TypeError. Python bools are ints.
            if op in ("add", "mul"):
                a, b = self.cast(a, elem), self.cast(b, elem)
                return self.vbinary("or" if op == "add" else "and", a, b, elem)
            if op == "sub":
                self.error("'-' of boolean arrays or NumPy booleans (NumPy raises "
                           "TypeError; use ^ or np.logical_xor)")
        if elem == "i1":  # arithmetic on Python bools is integer arithmetic
            elem = "i64"
        if is_complex(elem):
            return self.complex_binop(op, a, b, elem, arr, weak)
        if op == "truediv":
            if not elem.startswith("f"):
                elem = "f64"
            a, b = self.cast(a, elem), self.cast(b, elem)
            if arr:
                return self.vbinary("div", a, b, elem)
            r = self.op(f"arith.divf {a.ssa}, {b.ssa} : {elem}", elem)
            r.weak = weak
            return r
        if op == "pow" and not elem.startswith("f"):
            if arr and b.is_scalar and not (b.const is not None and b.const >= 0):
                # NumPy's loop raises at the first element: not for an
                # empty array
                z = self.const(0, b.ty)
                negative = self.cmp_scalar("lt", self.cast(b, elem), self.cast(z, elem))
                nonempty = self.is_nonempty(a)
                self.error_if(self.op(f"arith.andi {negative.ssa}, {nonempty.ssa} : i1", "i1"),
                              "ValueError", "Integers to negative integer powers are not allowed.")
            elif b.is_array and b.ty.elem != "i1":
                # Each negative element raises (NumPy's loop): the error
                # comes before any element is written, where a non-empty
                # result uses every exponent
                negatives = self.reduce("sum", self.compare("lt", b, self.const(0, b.ty.elem)),
                                        None)
                some = self.cmp_scalar("gt", negatives, self.const(0, "i64"))
                if a.is_array:
                    nonempty = self.is_nonempty(a)
                    some = self.op(f"arith.andi {some.ssa}, {nonempty.ssa} : i1", "i1")
                self.error_if(some, "ValueError",
                              "Integers to negative integer powers are not allowed.")
            elif not arr and b.const is not None and b.const < 0:
                elem = "f64"  # Python: int ** negative constant is a float
            elif not arr and b.const is None:
                # int ** int is an int, exact beyond 2**53 (types are static:
                # Python's float for a negative exponent would make it one
                # always); a negative exponent raises, NumPy's rule for its
                # integer scalars
                z = self.const(0, b.ty)
                self.error_if(self.cmp_scalar("lt", self.cast(b, elem), self.cast(z, elem)),
                              "ValueError", "Integers to negative integer powers are not "
                              "allowed (VRIR: int ** int is an int; write float(x) ** n)")
        a, b = self.cast(a, elem), self.cast(b, elem)
        isf = elem.startswith("f")
        if arr:
            if op in ("add", "sub", "mul", "pow"):
                return self.vbinary(op, a, b, elem)
            if op == "floordiv":
                if isf:
                    # NumPy's npy_floor_divide on each element (floor(a / b)
                    # is off by one: 1.0 // 0.1 is 9.0)
                    return self.emap([a, b], elem,
                                     lambda v: self.float_floordiv(v[0], v[1], elem))
                q = self.vbinary("div", a, b, elem)
                r = self.vbinary("rem", a, b, elem)
                adj = self.needs_adjust(r, b, elem)
                adj = self.cast(adj, elem)
                return self.vbinary("sub", q, adj, elem)
            if op == "mod" and isf:
                return self.emap([a, b], elem, lambda v: self.float_mod(v[0], v[1], elem))
            if op == "mod":
                r = self.vbinary("rem", a, b, elem)
                adj = self.needs_adjust(r, b, elem)
                rb = self.vbinary("add", r, b, elem)
                t = rb.ty
                return self.op(f"vrir.select {adj.ssa}, {rb.ssa}, {r.ssa} : {adj.ty.mlir()}, {t.mlir()}, {r.ty.mlir()} -> {t.mlir()}", t)
        # scalars
        if op in ("add", "sub", "mul"):
            r = self.op(f"arith.{op}{'f' if isf else 'i'} {a.ssa}, {b.ssa} : {elem}", elem)
        elif op == "pow":
            if isf:
                r = self.op(f"math.powf {a.ssa}, {b.ssa} : {elem}", elem)
            else:
                r = self.op(f"math.ipowi {a.ssa}, {b.ssa} : {elem}", elem)
        elif op == "floordiv":
            if isf:
                r = self.float_floordiv(a, b, elem)
            else:
                r = self.int_floordiv_mod("floordiv", a, b, elem)
        elif op == "mod":
            if isf:
                r = self.float_mod(a, b, elem)
            else:
                r = self.int_floordiv_mod("mod", a, b, elem)
        else:
            self.error(f"unsupported operator {op}")
        r.weak = weak
        if not isf and a.const is not None and b.const is not None \
                and not isinstance(a.const, complex) and not isinstance(b.const, complex):
            # integer constants fold (A.shape[1 - axis] with a constant axis)
            x, y = int(a.const), int(b.const)
            val = {"add": lambda: x + y, "sub": lambda: x - y, "mul": lambda: x * y,
                   "floordiv": lambda: x // y if y else None,
                   "mod": lambda: x % y if y else None}.get(op, lambda: None)()
            if val is not None and elem == "i64":
                self.check_int64(val, "the constant")
            if val is not None and -2**(bits(elem) - 1) <= val < 2**(bits(elem) - 1):
                r.const = val
        return r

    def float_mod(self, a, b, t):
        """Python's and NumPy's float remainder: the sign of the divisor, a
        zero remainder included (-2.0 % 0.125 is 0.0, where fmod gives
        -0.0)."""
        rm = self.op(f"arith.remf {a.ssa}, {b.ssa} : {t}", t)
        adj = self.needs_adjust(rm, b, t)
        rb = self.op(f"arith.addf {rm.ssa}, {b.ssa} : {t}", t)
        r = self.op(f"arith.select {adj.ssa}, {rb.ssa}, {rm.ssa} : {t}", t)
        z = self.const(0.0, t)
        signed_zero = self.op(f"math.copysign {z.ssa}, {b.ssa} : {t}", t)
        is_zero = self.op(f"arith.cmpf oeq, {r.ssa}, {z.ssa} : {t}", "i1")
        return self.op(f"arith.select {is_zero.ssa}, {signed_zero.ssa}, {r.ssa} : {t}", t)

    def float_floordiv(self, a, b, t):
        """CPython's float floor division (float_divmod): exact near the
        integers and right for infinite divisors (-5.0 // inf == -1.0). A
        zero divisor gives NumPy's a / b (±inf, or nan for 0 // 0), VRIR's
        rule for float division by zero."""
        mod = self.op(f"arith.remf {a.ssa}, {b.ssa} : {t}", t)
        num = self.op(f"arith.subf {a.ssa}, {mod.ssa} : {t}", t)
        div = self.op(f"arith.divf {num.ssa}, {b.ssa} : {t}", t)
        z = self.const(0.0, t)
        one = self.const(1.0, t)
        half = self.const(0.5, t)
        nz = self.op(f"arith.cmpf une, {mod.ssa}, {z.ssa} : {t}", "i1")
        bneg = self.op(f"arith.cmpf olt, {b.ssa}, {z.ssa} : {t}", "i1")
        mneg = self.op(f"arith.cmpf olt, {mod.ssa}, {z.ssa} : {t}", "i1")
        diff = self.op(f"arith.xori {bneg.ssa}, {mneg.ssa} : i1", "i1")
        adj = self.op(f"arith.andi {nz.ssa}, {diff.ssa} : i1", "i1")
        dm1 = self.op(f"arith.subf {div.ssa}, {one.ssa} : {t}", t)
        div = self.op(f"arith.select {adj.ssa}, {dm1.ssa}, {div.ssa} : {t}", t)
        fl = self.op(f"math.floor {div.ssa} : {t}", t)
        fr = self.op(f"arith.subf {div.ssa}, {fl.ssa} : {t}", t)
        up = self.op(f"arith.cmpf ogt, {fr.ssa}, {half.ssa} : {t}", "i1")
        fl1 = self.op(f"arith.addf {fl.ssa}, {one.ssa} : {t}", t)
        fl = self.op(f"arith.select {up.ssa}, {fl1.ssa}, {fl.ssa} : {t}", t)
        q = self.op(f"arith.divf {a.ssa}, {b.ssa} : {t}", t)
        zs = self.op(f"math.copysign {z.ssa}, {q.ssa} : {t}", t)
        dnz = self.op(f"arith.cmpf une, {div.ssa}, {z.ssa} : {t}", "i1")
        r = self.op(f"arith.select {dnz.ssa}, {fl.ssa}, {zs.ssa} : {t}", t)
        bz = self.op(f"arith.cmpf oeq, {b.ssa}, {z.ssa} : {t}", "i1")
        return self.op(f"arith.select {bz.ssa}, {q.ssa}, {r.ssa} : {t}", t)

    def complex_binop(self, op, a, b, elem, arr, weak):
        if op in ("floordiv", "mod"):
            self.error(f"operator {'//' if op == 'floordiv' else '%'} is not defined on complex numbers")
        if op == "pow" and isinstance(b.const, (int, float)) and not isinstance(b.const, bool) \
                and float(b.const).is_integer() and abs(b.const) <= 64 and b.const != 0:
            # small integer powers by repeated squaring (exact like NumPy's)
            n = int(b.const)
            base = self.cast(a, elem)
            if n == 1:
                return self.copy(base) if arr and base.ssa == a.ssa else base
            r = None
            sq = base
            k = abs(n)
            while k:
                if k & 1:
                    r = sq if r is None else self.vbinary("mul", r, sq, elem)
                k >>= 1
                if k:
                    sq = self.vbinary("mul", sq, sq, elem)
            if n < 0:
                one = self.const(1, elem)
                r = self.vbinary("div", one, r, elem)
            r.weak = weak and not arr
            return r
        fn = {"add": "add", "sub": "sub", "mul": "mul", "truediv": "div", "pow": "pow"}[op]
        r = self.vbinary(fn, self.cast(a, elem), self.cast(b, elem), elem)
        r.weak = weak and not arr
        return r

    def is_nonempty(self, array):
        """An i1: whether `array` has any element."""
        n = self.from_index(self.op(f"vrir.numel {array.ssa} : {array.ty.mlir()}", "index").ssa)
        return self.cmp_scalar("ne", n, self.const(0, "i64"))

    def int_floordiv_mod(self, op, a, b, elem):
        """Scalar integer // and %. VRIR's rule for a zero divisor is
        Python's, ZeroDivisionError, also for NumPy integer scalars (where
        NumPy returns 0 with a RuntimeWarning; arrays give NumPy's 0). MIN //
        -1 wraps to MIN, as in NumPy, rather than reach arith.divsi, where it
        is undefined."""
        self.error_if_zero(b, "ZeroDivisionError", "integer division or modulo by zero")
        # A GPU section cannot raise: there a zero divisor gives NumPy's
        # array result, 0, rather than reach arith.divsi (a trap on CPUs).
        is_zero = None
        if self.in_gpu_section() and b.const in (None, 0):
            is_zero = self.cmp_scalar("eq", b, self.const(0, elem))
        if b.const is not None and b.const not in (-1, 0):
            divisor, is_minus_one = b, None
        else:
            one, minus_one = self.const(1, elem), self.const(-1, elem)
            is_minus_one = self.cmp_scalar("eq", b, minus_one)
            unsafe = is_minus_one if is_zero is None else \
                self.op(f"arith.ori {is_minus_one.ssa}, {is_zero.ssa} : i1", "i1")
            divisor = self.op(f"arith.select {unsafe.ssa}, {one.ssa}, {b.ssa} : {elem}", elem)
        q = self.op(f"arith.divsi {a.ssa}, {divisor.ssa} : {elem}", elem)
        rm = self.op(f"arith.remsi {a.ssa}, {divisor.ssa} : {elem}", elem)
        adj = self.needs_adjust(rm, divisor, elem)
        if op == "floordiv":
            adj = self.cast(adj, elem)
            r = self.op(f"arith.subi {q.ssa}, {adj.ssa} : {elem}", elem)
        else:
            rb = self.op(f"arith.addi {rm.ssa}, {divisor.ssa} : {elem}", elem)
            r = self.op(f"arith.select {adj.ssa}, {rb.ssa}, {rm.ssa} : {elem}", elem)
        if is_minus_one is None:
            return r
        # x // -1 is -x (wrapping), x % -1 is 0
        zero = self.const(0, elem)
        special = self.op(f"arith.subi {zero.ssa}, {a.ssa} : {elem}", elem) \
            if op == "floordiv" else zero
        r = self.op(f"arith.select {is_minus_one.ssa}, {special.ssa}, {r.ssa} : {elem}", elem)
        if is_zero is None:
            return r
        return self.op(f"arith.select {is_zero.ssa}, {zero.ssa}, {r.ssa} : {elem}", elem)

    def needs_adjust(self, r, b, elem):
        """(r != 0) and ((r < 0) != (b < 0)): floor-division correction."""
        z = self.const(0, elem)
        nz = self.compare("ne", r, z)
        rn = self.compare("lt", r, z)
        bn = self.compare("lt", b, z)
        if nz.is_array or bn.is_array:
            d = self.vbinary("xor", rn, bn, "i1") if True else None
            return self.vbinary("and", nz, d, "i1")
        d = self.op(f"arith.xori {rn.ssa}, {bn.ssa} : i1", "i1")
        return self.op(f"arith.andi {nz.ssa}, {d.ssa} : i1", "i1")

    def matmul(self, a, b):
        if not (a.is_array and b.is_array):
            self.error("@ / np.dot need arrays (np.dot of scalars: use *)")
        elem = promote_strong(a.ty.elem, b.ty.elem)
        if elem == "i1":
            # NumPy's boolean product is `or` of `and`s: a nonzero count
            return self.cast(self.matmul(self.cast(a, "i64"), self.cast(b, "i64")), "i1")
        a, b = self.cast(a, elem), self.cast(b, elem)
        ra, rb = a.ty.rank, b.ty.rank
        if ra == 1 and rb == 1:
            p = self.vbinary("mul", a, b, elem)
            return self.op(f"vrir.reduce sum {p.ssa} : {p.ty.mlir()} -> {elem}", elem)
        if ra == 2 and rb == 2:
            t = ArrT(elem, 2)
            return self.op(f"vrir.matmul {a.ssa}, {b.ssa} : {a.ty.mlir()}, {b.ty.mlir()} -> {t.mlir()}", t)
        if ra == 2 and rb == 1:
            t = ArrT(elem, 1)
            return self.op(f"vrir.matvec {a.ssa}, {b.ssa} : {a.ty.mlir()}, {b.ty.mlir()} -> {t.mlir()}", t)
        if ra == 1 and rb == 2:
            bt = self.transpose(b)
            t = ArrT(elem, 1)
            return self.op(f"vrir.matvec {bt.ssa}, {a.ssa} : {bt.ty.mlir()}, {a.ty.mlir()} -> {t.mlir()}", t)
        return self.batched_matmul(a, b, elem)

    def batched_matmul(self, a, b, elem):
        """@ with an operand of rank 3 or more: a stack of matrices (or
        vectors) multiplied item by item over the leading (batch)
        dimensions, which the other operand has too or lacks (a matrix or a
        vector, used for every item). Batch dimensions broadcast as NumPy's:
        equal, or 1 in one operand (that item is used all along)."""
        ra, rb = a.ty.rank, b.ty.rank
        if ra > 2 and rb > 2 and ra != rb:
            self.error(f"matrix product of rank {ra} and rank {rb} arrays: stacks of "
                       "different ranks are not supported")
        batch_of = a if ra > 2 else b
        nbatch = batch_of.ty.rank - 2
        sizes = [self.dim(batch_of, d) for d in range(nbatch)]
        if ra > 2 and rb > 2:
            one = self.const(1, "index").ssa
            for d in range(nbatch):
                da, db = self.dim(a, d), self.dim(b, d)
                differ = self.op(f"arith.cmpi ne, {da}, {db} : index", "i1")
                a_one = self.op(f"arith.cmpi eq, {da}, {one} : index", "i1")
                b_one = self.op(f"arith.cmpi eq, {db}, {one} : index", "i1")
                either = self.op(f"arith.ori {a_one.ssa}, {b_one.ssa} : i1", "i1")
                keep = self.op(f"arith.xori {either.ssa}, {self.const(True, 'i1').ssa} : i1",
                               "i1")
                bad = self.op(f"arith.andi {differ.ssa}, {keep.ssa} : i1", "i1")
                self.error_if(bad, "ValueError",
                              f"matmul: batch dimension {d} of the operands cannot be "
                              "broadcast together (sizes differ and neither is 1)")
                sizes[d] = self.op(f"arith.select {a_one.ssa}, {db}, {da} : index",
                                   "index").ssa
        if ra >= 2:
            sizes.append(self.dim(a, ra - 2))
        if rb >= 2:
            sizes.append(self.dim(b, rb - 1))
        t = ArrT(elem, len(sizes))
        out = self.op(f"vrir.empty({', '.join(sizes)}) : {t.mlir()}", t)

        def item(name, rank):
            # i % size is i, or 0 along a broadcast dimension of size 1
            if rank <= 2:
                return name
            return f"{name}[{', '.join(f'i{d} % {name}.shape[{d}]' for d in range(nbatch))}]"
        return self.inline(self.loop_nest_source(
            "out", nbatch, [f"out[ix] = {item('a', ra)} @ {item('b', rb)}"]),
            {"a": a, "b": b, "out": out}, "out")

    def transpose(self, a, axes=None):
        """A.T / np.transpose(A, axes): a view with permuted dimensions."""
        rank = a.ty.rank
        if axes is None:
            perm = list(range(rank))[::-1]
        else:
            if len(axes) != rank:
                self.error(f"axes don't match array: {len(axes)} axes for a "
                           f"{rank}-dimensional array")
            perm = []
            for x in axes:
                if not isinstance(x, int) or not -rank <= x < rank:
                    self.error(f"axis {x} is out of bounds for a {rank}-dimensional array")
                perm.append(x % rank)
            if len(set(perm)) != rank:
                self.error("repeated axis in transpose")
        if perm == list(range(rank)):
            return a  # the same elements in the same places
        layout = ("col_major" if a.ty.layout == "row_major" and perm == [1, 0]
                  else "strided")
        t = ArrT(a.ty.elem, rank, layout)
        return self.op(f"vrir.permute {a.ssa} [{', '.join(map(str, perm))}] : "
                       f"{a.ty.mlir()} -> {t.mlir()}", t)

    def const_ints(self, args, what):
        """Python ints from constant scalars or one constant tuple (axes)."""
        if len(args) == 1 and args[0].kind == "tuple":
            args = args[0].items
        out = []
        for x in args:
            if x.const is None or not isinstance(x.const, int) or isinstance(x.const, bool):
                self.error(f"{what} must be integer constants")
            out.append(x.const)
        return out

    def expand_dims(self, a, positions):
        """A view of `a` with new dimensions of size 1 at result `positions`."""
        if not positions:
            return a
        t = ArrT(a.ty.elem, a.ty.rank + len(positions), a.ty.layout)
        return self.op(f"vrir.expand_dims {a.ssa} [{', '.join(map(str, positions))}] : "
                       f"{a.ty.mlir()} -> {t.mlir()}", t)

    def reshape(self, a, shape, e):
        """A.reshape(shape), order='C': a view of a row-major array; other
        layouts are viewed or copied at run time (vrir.reshape)."""
        order = self.kwargs(e).get("order")
        if order is not None and not (order.kind == "str" and order.obj == "C"):
            self.error("reshape supports order='C' only")
        items = shape.items if shape.kind == "tuple" else [shape]
        if not items:
            self.error("reshape to a 0-d array is not supported")
        unknown = 0
        for x in items:
            if not x.is_scalar or kind(x.ty) not in (0, 1) or x.ty == "i1":
                self.error("reshape sizes must be integers")
            if x.const is not None and x.const < 0:
                unknown += 1
        if unknown > 1:
            self.error("can only specify one unknown dimension (-1) in reshape")
        # NumPy takes any negative size as the unknown one (vrir.reshape's
        # is -1).
        minus_one = self.const(-1, "index").ssa
        zero = self.const(0, "index").ssa
        sizes = []
        for x in items:
            size = self.index(x)
            if x.const is None or x.const < 0:
                below = self.op(f"arith.cmpi slt, {size}, {zero} : index", "i1")
                size = self.op(f"arith.select {below.ssa}, {minus_one}, {size} : index",
                               "index").ssa
            sizes.append(size)
        t = ArrT(a.ty.elem, len(items),
                 "row_major" if a.ty.layout == "row_major" else "strided")
        return self.op(f"vrir.reshape {a.ssa}({', '.join(sizes)}) : "
                       f"{a.ty.mlir()} -> {t.mlir()}", t)

    # --- attributes, subscripts
    def expr_Attribute(self, e):
        base = self.expr(e.value)
        at = e.attr
        if base.kind == "module":
            mod = base.obj
            if mod == "np":
                consts = {"pi": np.pi, "e": np.e, "inf": np.inf, "nan": np.nan}
                if at in consts:
                    return self.pyconst(consts[at])
                if at == "newaxis":
                    return V(kind="none")
                obj = getattr(np, at, None)
                if isinstance(obj, type) and obj in PY_DTYPES:
                    return V(kind="dtype", obj=PY_DTYPES[obj])
                if obj is None:
                    self.error(f"numpy has no attribute '{at}'")
                return V(kind="func", obj=("np", at))
            if mod in ("math", "cmath"):
                if at in ("pi", "e", "inf", "nan", "tau", "infj", "nanj"):
                    return self.pyconst(getattr(cmath if mod == "cmath" else math, at))
                return V(kind="func", obj=(mod, at))
            if mod == "vrir":
                return V(kind="func", obj=("vrir", at))
            if isinstance(mod, types.ModuleType):
                if not hasattr(mod, at):
                    self.error(f"module {mod.__name__} has no attribute '{at}'")
                return self.wrap_object(getattr(mod, at), f"{mod.__name__}.{at}", e)
        if base.kind == "func" and base.obj[0] == "np" and base.obj[1] in BINARY_UFUNCS \
                and at in ("outer", "reduce", "accumulate"):
            return V(kind="func", obj=("ufunc", (base.obj[1], at)))
        if base.is_array:
            a = base
            if at == "shape":
                return V(kind="tuple", items=[self.weak(self.from_index(self.dim(a, k)))
                                              for k in range(a.ty.rank)])
            if at == "ndim":
                v = self.const(a.ty.rank, "i64")
                v.weak = True
                return v
            if at == "size":
                n = self.op(f"vrir.numel {a.ssa} : {a.ty.mlir()}", "index")
                return self.weak(self.from_index(n.ssa))
            if at == "dtype":
                return V(kind="dtype", obj=a.ty.elem, items=DTYPE_OBJECT)
            if at == "itemsize":
                v = self.const(ELEM_TO_NP[a.ty.elem].itemsize, "i64")
                v.weak = True
                return v
            if at == "nbytes":
                n = self.op(f"vrir.numel {a.ssa} : {a.ty.mlir()}", "index")
                size = self.const(ELEM_TO_NP[a.ty.elem].itemsize, "i64")
                return self.binop("mul", self.from_index(n.ssa), size)
            if at == "T":
                return self.transpose(a)
            if at in ("real", "imag"):
                return self.complex_part(at, a)
            if at in ("copy", "astype", "sum", "prod", "min", "max", "mean", "fill", "transpose",
                      "conj", "conjugate", "reshape", "clip", "argmax", "argmin", "cumsum",
                      "cumprod"):
                return V(kind="method", obj=at, items=[a])
            self.error(f"unsupported array attribute '{at}'")
        if base.is_scalar:
            if at in ("real", "imag"):
                return self.unary(at, base)
            if at == "conjugate":
                return V(kind="method", obj=at, items=[base])
        if base.kind == "dtype":
            # attributes of a dtype (A.dtype.type, np.float32.itemsize ...)
            np_dt = ELEM_TO_NP[base.obj]
            if at == "type":
                return V(kind="dtype", obj=base.obj)
            if at == "itemsize":
                v = self.const(np_dt.itemsize, "i64")
                v.weak = True
                return v
            if at == "kind":
                return V(kind="str", obj=np_dt.kind)
            if at == "name":
                return V(kind="str", obj=np_dt.name)
            self.error(f"unsupported dtype attribute '{at}'")
        if base.kind == "tuple" and at in ("count", "index"):
            self.error("tuple methods are not supported")
        if base.kind == "func" and base.obj[0] in ("np", "math", "cmath"):
            mod = {"np": "numpy"}.get(base.obj[0], base.obj[0])
            self.error(f"{mod}.{base.obj[1]}.{at} is not supported in compiled code")
        if base.kind == "jitfn":
            self.error(f"unsupported attribute '{at}' of a jit function")
        self.error(f"unsupported attribute '{at}' of {self.tyname(base)}")

    def expr_Subscript(self, e):
        base = self.expr(e.value)
        if base.kind == "tuple":
            idx = self.expr(e.slice) if not isinstance(e.slice, ast.Slice) else None
            if idx is None or idx.const is None or not isinstance(idx.const, int):
                self.error("tuples can only be indexed by integer constants")
            k = idx.const
            if not -len(base.items) <= k < len(base.items):
                self.error("tuple index out of range")
            return base.items[k]
        if not base.is_array:
            self.error(f"cannot index a {self.tyname(base)}")
        plan = self.index_plan(base, e.slice)
        return self.load_plan(base, plan)

    def index_plan(self, a, sl):
        """[(kind, value)] per index: ('int', V) or ('range', ssa) or
        ('gather', V); with np.newaxis / None also ('newaxis', None), and
        bare `:` then become ('full', ssa)."""
        items = sl.elts if isinstance(sl, ast.Tuple) else [sl]
        plan = []
        trivial = []  # positions of bare `:` in plan
        k = 0  # the dimension of `a` the next index selects in
        for it in items:
            if isinstance(it, ast.Constant) and it.value is Ellipsis:
                self.error("Ellipsis (...) in indices is not supported")
            v = None if isinstance(it, ast.Slice) else self.expr(it)
            if v is not None and v.kind == "none":
                plan.append(("newaxis", None))
                continue
            if k >= a.ty.rank:
                self.error(f"too many indices for a {a.ty.rank}-dimensional array")
            if isinstance(it, ast.Slice):
                if it.lower is None and it.upper is None and it.step is None:
                    trivial.append(len(plan))
                plan.append(("range", self.slice_range(a, k, it)))
                k += 1
            else:
                k += 1
                if v.is_array:
                    if v.ty.elem == "i1":
                        if len(items) != 1 or v.ty.rank != a.ty.rank:
                            self.error("boolean mask indexing is supported as A[mask] with a "
                                       "mask of A's number of dimensions only")
                        plan.append(("mask", v))
                        k = a.ty.rank
                        continue
                    if len(items) != 1 or v.ty.rank != 1:
                        self.error("integer-array indexing is supported as A[idx] with a 1-D index array only")
                    plan.append(("gather", v))
                    continue
                self.need_scalar(v)
                if kind(v.ty) >= 2:
                    self.error("array indices must be integers")
                if v.ty == "i1":
                    self.error("boolean scalar indices are not supported")
                plan.append(("int", v))
        if any(kd == "newaxis" for kd, _ in plan):
            for j in trivial:
                plan[j] = ("full", plan[j][1])
        return plan

    def slice_range(self, a, k, s):
        step = self.cast(self.to_int(self.expr(s.step)), "i64") if s.step is not None else self.const(1, "i64")
        if step.const == 0:
            self.error("slice step cannot be zero")
        known = step.const is not None
        def pick(pos_val, neg_val):
            if known:
                return pos_val() if step.const > 0 else neg_val()
            p, n = pos_val(), neg_val()
            z = self.const(0, "i64")
            c = self.op(f"arith.cmpi sgt, {step.ssa}, {z.ssa} : i64", "i1")
            return self.op(f"arith.select {c.ssa}, {p.ssa}, {n.ssa} : i64", "i64")
        if s.lower is not None:
            start = self.cast(self.to_int(self.expr(s.lower)), "i64")
        else:
            start = pick(lambda: self.const(0, "i64"), lambda: self.const(-1, "i64"))
        if s.upper is not None:
            stop = self.cast(self.to_int(self.expr(s.upper)), "i64")
        else:
            def neg_stop():
                n = self.from_index(self.dim(a, k))
                m = self.const(-1, "i64")
                return self.op(f"arith.subi {m.ssa}, {n.ssa} : i64", "i64")
            stop = pick(lambda: self.from_index(self.dim(a, k)), neg_stop)
        return self.op(f"vrir.range {self.index(start)} to {self.index(stop)} step {self.index(step)}", "range").ssa

    def index_flags(self, bare=False):
        """The flags of one index; `bare` without the `#vrir.index` prefix."""
        flags = NEG if self.jitfn.boundscheck else NEG_UNCHECKED
        return flags[len("#vrir.index"):] if bare else flags

    def plan_operands(self, plan):
        ssas = ", ".join(v.ssa if kd != "range" else v for kd, v in plan)
        tys = ", ".join(v.ty if kd == "int" else "!vrir.range" for kd, v in plan)
        flags = "flags [" + ", ".join([self.index_flags()] * len(plan)) + "]"
        return ssas, tys, flags

    def newaxis_view(self, a, plan):
        """The view `a[plan]` of a subscript with np.newaxis / None: the
        selection without them, then vrir.expand_dims."""
        if any(kd == "gather" for kd, _ in plan):
            self.error("np.newaxis / None next to an integer-array index is not supported")
        rest = [(kd, v) for kd, v in plan if kd != "newaxis"]
        if sum(1 for kd, _ in rest if kd == "int") == a.ty.rank:
            self.error("np.newaxis / None with an integer index for every "
                       "dimension (a 0-d view) is not supported")
        positions, out = [], 0
        for kd, _ in plan:
            if kd == "newaxis":
                positions.append(out)
            if kd != "int":
                out += 1
        if all(kd == "full" for kd, _ in rest):
            view = a  # bare `:` only: no slice needed
        else:
            view = self.load_plan(a, [("range" if kd == "full" else kd, v) for kd, v in rest])
        return self.expand_dims(view, positions)

    def load_plan(self, a, plan):
        if plan and plan[0][0] == "mask":
            return self.mask_read(a, plan[0][1])
        if any(kd == "newaxis" for kd, _ in plan):
            return self.newaxis_view(a, plan)
        if plan and plan[0][0] == "gather":
            idx = self.cast(plan[0][1], "i64")
            t = ArrT(a.ty.elem, a.ty.rank)
            return self.op(f"vrir.gather {a.ssa}[{idx.ssa}] flags {self.index_flags(bare=True)} : "
                           f"{a.ty.mlir()}[{idx.ty.mlir()}] -> {t.mlir()}", t)
        ssas, tys, flags = self.plan_operands(plan)
        nint = sum(1 for kd, _ in plan if kd == "int")
        if nint == a.ty.rank:
            return self.op(f"vrir.load {a.ssa}[{ssas}] {flags} : {a.ty.mlir()}[{tys}]", a.ty.elem)
        t = ArrT(a.ty.elem, a.ty.rank - nint, "strided")
        return self.op(f"vrir.slice {a.ssa}[{ssas}] {flags} : {a.ty.mlir()}[{tys}] -> {t.mlir()}", t)

    def store_plan(self, a, plan, v):
        if not (v.is_array or v.is_scalar):
            self.error(f"cannot store a {self.tyname(v)} into an array")
        if is_complex(v.ty.elem if v.is_array else v.ty) and not is_complex(a.ty.elem):
            self.error("cannot store complex numbers into a real array "
                       "(take .real or make the array complex)")
        # NumPy converts a float scalar stored into an integer array as
        # int() does: NaN and values out of range raise. Through an index
        # array or a mask it casts, except a Python float (np.float64).
        fancy = any(kd in ("gather", "mask") for kd, _ in plan)
        if not (fancy and v.is_scalar and v.ty == "f32"):
            self.check_float_to_int(v, a.ty.elem)
        v = self.cast(v, a.ty.elem)
        if plan and plan[0][0] == "mask":
            return self.mask_write(a, plan[0][1], v)
        if any(kd == "newaxis" for kd, _ in plan):
            # A[:, None] = v assigns to the view (broadcasting v to it).
            self.store_plan(self.newaxis_view(a, plan), [], v)
            return
        if plan and plan[0][0] == "gather":
            idx = self.cast(plan[0][1], "i64")
            # the selection A[idx] has the rank of A (idx is 1-D)
            if v.is_array and v.ty.rank > a.ty.rank:
                self.error(f"cannot assign an array of rank {v.ty.rank} to the rank-"
                           f"{a.ty.rank} selection of an index array (NumPy cannot "
                           "broadcast it either)")
            self.emit(f"vrir.scatter {v.ssa}, {a.ssa}[{idx.ssa}] flags {self.index_flags(bare=True)} : "
                      f"{mlir_type(v.ty)}, {a.ty.mlir()}[{idx.ty.mlir()}]")
            return
        nint = sum(1 for kd, _ in plan if kd == "int")
        extra = v.ty.rank - (a.ty.rank - nint) if v.is_array else 0
        if extra > 0 and nint < a.ty.rank:
            # NumPy drops leading dimensions of size 1 of the value
            one = self.const(1, "i64")
            for k in range(extra):
                size = self.from_index(self.dim(v, k))
                self.error_if(self.cmp_scalar("ne", size, one), "ValueError",
                              "could not broadcast the input array into the selection")
            zero = self.const(0, "i64")
            v = self.load_plan(v, [("int", zero)] * extra +
                               [("range", self.slice_range(v, k, ast.Slice()))
                                for k in range(extra, v.ty.rank)])
        ssas, tys, flags = self.plan_operands(plan)
        if nint == a.ty.rank:
            if v.is_array:
                self.error("cannot assign an array to a single element")
            self.emit(f"vrir.store {v.ssa}, {a.ssa}[{ssas}] {flags} : {a.ty.mlir()}[{tys}]")
            return
        if not plan:
            self.emit(f"vrir.store_slice {v.ssa}, {a.ssa}[] : {mlir_type(v.ty)}, {a.ty.mlir()}")
            return
        self.emit(f"vrir.store_slice {v.ssa}, {a.ssa}[{ssas}] {flags} : {mlir_type(v.ty)}, {a.ty.mlir()}[{tys}]")

    # --- calls
    def expr_Call(self, e):
        fn = self.expr(e.func)
        if fn.kind == "jitfn":
            return self.call_jit(fn.obj, e)
        if fn.kind == "pyfn":
            return self.call_jit(self.module.helper(fn.obj, self.jitfn.boundscheck), e)
        if fn.kind == "dtype":
            if fn.items is DTYPE_OBJECT:
                self.error("a dtype object is not callable (use A.dtype.type(x) or "
                           "x.astype(A.dtype))")
            if is_complex(fn.obj):  # complex(re, im), np.complex64(re, im)
                return self.weak(self.cast(self.call_builtin_complex(e), fn.obj),
                                 fn.items is BUILTIN_TYPE)
            args = self.call_args(e, 1, 1)
            if fn.items is BUILTIN_TYPE and args[0].is_array:
                args[0] = self.single_element(args[0], fn.obj)
            self.check_float_to_int(args[0], fn.obj)
            # int(x) is a Python int, np.float32(x) a NumPy scalar
            return self.weak(self.cast_value(args[0], fn.obj), fn.items is BUILTIN_TYPE)
        if fn.kind == "method":
            return self.call_method(fn.obj, fn.items[0], e)
        if fn.kind != "func":
            self.error(f"cannot call a {self.tyname(fn)}")
        mod, name = fn.obj
        r = self.call_function(mod, name, e)
        if mod in ("math", "cmath"):
            return self.weak(r)  # Python numbers
        if mod == "np" and name not in ("size", "ndim", "shape"):
            return self.weak(r, False)  # NumPy scalars (np.floor(3) too)
        return r

    def call_function(self, mod, name, e):
        h = getattr(self, f"call_{mod}_{name}", None)
        if mod == "ufunc":
            return self.ufunc_method(name, e)
        if mod == "np" and name in BINARY_UFUNCS:
            return self.binary_ufunc(name, e)
        if h is None:
            if mod == "np" and name in REDUCTIONS:
                return self.np_reduce(REDUCTIONS[name], e)
            if mod in ("np", "math") and name in UNARY_FLOAT_FNS | {"abs", "absolute", "fabs"}:
                return self.unary_fn(mod, name, e)
            if mod == "cmath" and name in COMPLEX_FNS:
                return self.unary_fn(mod, name, e)
            if (mod == "np" and name in MAP_FLOAT_FNS) or (mod == "math" and name in MATH_MAP_FNS):
                return self.map_float_fn(mod, name, e)
            what = {"np": "numpy.", "math": "math.", "cmath": "cmath.", "builtin": "",
                    "vrir": "vrir."}[mod]
            self.error(f"call of {what}{name} is not supported in compiled code")
        return h(e)

    def call_args(self, e, lo, hi, kw=()):
        for k in e.keywords:
            if k.arg not in kw:
                self.error(f"unsupported keyword argument '{k.arg}'")
        if not lo <= len(e.args) <= hi:
            self.error(f"expected {lo}..{hi} arguments, got {len(e.args)}")
        return [self.expr(a) for a in e.args]

    def kwargs(self, e):
        return {k.arg: self.expr(k.value) for k in e.keywords}

    def cast_value(self, v, elem):
        if v.is_array:
            return self.cast(v, elem)
        self.need_scalar(v)
        if is_complex(v.ty) and not is_complex(elem) and elem != "i1":
            self.error(f"cannot convert a complex number to {elem} (take .real or abs())")
        if elem == "i64" and v.ty.startswith("f"):
            return self.cast(v, elem)  # truncation toward zero, like int()
        return self.cast(v, elem)

    def bind_call(self, jf, e):
        """The arguments of a call of a jit function or helper, bound to its
        parameters as Python does (positional, keywords, defaults)."""
        fn = jf.py_func
        name = jf.__name__
        sig = inspect.signature(fn)
        params = list(sig.parameters.values())
        for p in params:
            if p.kind is not inspect.Parameter.POSITIONAL_OR_KEYWORD:
                self.error(f"cannot call '{name}' from compiled code: *args, **kwargs, keyword-only "
                           "and positional-only parameters are not supported")
        if len(e.args) > len(params):
            self.error(f"{name}() takes {len(params)} positional arguments but "
                       f"{len(e.args)} were given")
        for a in e.args:
            if isinstance(a, ast.Starred):
                self.error("*args in calls is not supported")
        bound = {}
        for k in e.keywords:
            if k.arg is None:
                self.error("**kwargs in calls is not supported")
            if k.arg not in sig.parameters:
                self.error(f"{name}() got an unexpected keyword argument '{k.arg}'")
            if k.arg in bound or k.arg in [p.name for p in params[:len(e.args)]]:
                self.error(f"{name}() got multiple values for argument '{k.arg}'")
            bound[k.arg] = None
        # evaluated in source order, as Python does
        for p, a in zip(params, e.args):
            bound[p.name] = self.expr(a)
        for k in e.keywords:
            bound[k.arg] = self.expr(k.value)
        args = []
        for p in params:
            if p.name in bound:
                args.append(bound[p.name])
            elif p.default is not inspect.Parameter.empty:
                d = p.default
                v = None
                if d is None or isinstance(d, (str, bool, int, float, complex, np.generic)) \
                        or (isinstance(d, type) and d in PY_DTYPES):
                    v = self.wrap_object(d, p.name, e)
                if v is None:
                    self.error(f"{name}(): the default value of parameter '{p.name}' "
                               f"({type(d).__name__}) is not supported in compiled code; pass "
                               "the argument")
                args.append(v)
            else:
                self.error(f"{name}() missing required argument '{p.name}'")
        for a, p in zip(args, params):
            if not (a.is_array or a.is_scalar or a.kind in STATIC_KINDS):
                self.error(f"cannot pass a {self.tyname(a)} to '{name}' (parameter '{p.name}'): "
                           "functions called from compiled code take arrays, numbers, dtypes, "
                           "strings, None and functions")
        return [p.name for p in params], args

    def call_jit(self, jf, e):
        params, vals = self.bind_call(jf, e)
        self.module.check_recursion(jf, self.where(e))
        try:
            assigned = _assigned_names(jf.py_func)
        except CompileError as err:
            self.error(f"cannot compile '{jf.__name__}': {err}")
        types, args, weak_params = [], [], set()
        for p, a in zip(params, vals):
            if a.is_scalar and a.weak:
                weak_params.add(p)
            if a.kind is not None:
                types.append(StaticArg(a.kind, obj=a.obj, dtype_object=a.items is DTYPE_OBJECT))
            elif a.is_scalar and a.const is not None and kind(a.ty) <= 1 and p not in assigned:
                types.append(StaticArg(None, ty=a.ty, const=a.const, weak=a.weak))
            else:
                types.append(a.ty)
                args.append(a)
        try:
            sym, rts, rweak = self.module.specialize(jf, types, public=False,
                                                     where=self.where(e), weak_params=weak_params)
        except CompileError as err:
            raise CompileError(f"{err}\n  (in '{jf.__name__}', called at {self.where(e)})") from None
        argtxt = ", ".join(a.ssa for a in args)
        sig = "(" + ", ".join(mlir_type(a.ty) for a in args) + ") -> (" + ", ".join(mlir_type(t) for t in rts) + ")"
        if not rts:
            self.emit(f"func.call @{sym}({argtxt}) : {sig}")
            return V(kind="none")
        r = self.fresh()
        n = len(rts)
        self.emit(f"{r}{':' + str(n) if n > 1 else ''} = func.call @{sym}({argtxt}) : {sig}")
        if n == 1:
            return V(rts[0], r, weak=rweak[0])
        return V(kind="tuple", items=[V(t, f"{r}#{k}", weak=w)
                                      for k, (t, w) in enumerate(zip(rts, rweak))])

    # builtins
    def call_builtin_len(self, e):
        (a,) = self.call_args(e, 1, 1)
        if a.kind == "tuple":
            v = self.const(len(a.items), "i64")
            v.weak = True
            return v
        if not a.is_array:
            self.error("len() of a non-array")
        return self.weak(self.from_index(self.dim(a, 0)))

    def call_builtin_range(self, e):
        self.error("range() is only supported as the iterable of a for loop")

    def call_builtin_abs(self, e):
        (a,) = self.call_args(e, 1, 1)
        if a.is_scalar and a.ty == "i1" and a.weak:
            # abs() of a Python bool is an int (abs(True) == 1)
            return self.weak(self.cast_value(a, "i64"))
        return self.weak(self.unary("abs", a), a.weak)  # abs(int) is an int

    def call_builtin_int(self, e):
        (a,) = self.call_args(e, 1, 1)
        self.need_scalar(a)
        return self.weak(self.cast_value(a, "i64"))

    def check_float_to_int(self, a, to):
        """int(x) of a float scalar: NaN and values out of range raise."""
        if not (a.is_scalar and a.ty in ("f32", "f64") and to in ("i32", "i64")):
            return
        if a.const is not None and abs(a.const) < 2.0 ** (bits(to) - 1):
            return  # NaN fails the test: checked below
        nan = self.op(f"arith.cmpf uno, {a.ssa}, {a.ssa} : {a.ty}", "i1")
        self.error_if(nan, "ValueError", "cannot convert float NaN to integer")
        mag = self.op(f"math.absf {a.ssa} : {a.ty}", a.ty)
        limit = self.const(2.0 ** (bits(to) - 1), a.ty)
        big = self.op(f"arith.cmpf oge, {mag.ssa}, {limit.ssa} : {a.ty}", "i1")
        self.error_if(big, "OverflowError",
                      f"cannot convert float infinity or a float beyond {to} to integer")

    def call_builtin_float(self, e):
        (a,) = self.call_args(e, 1, 1)
        self.need_scalar(a)
        return self.weak(self.cast_value(a, "f64"))

    def call_builtin_bool(self, e):
        (a,) = self.call_args(e, 1, 1)
        if a.is_array:
            a = self.single_element(a, "i1")
        return self.truth(a)

    def single_element(self, a, to):
        """The element of a size-1 array, for bool()/int()/float()/complex()
        of an array; any other size raises as NumPy does."""
        n = self.from_index(self.op(f"vrir.numel {a.ssa} : {a.ty.mlir()}", "index").ssa)
        one = self.const(1, "i64")
        if to == "i1":
            self.error_if(self.cmp_scalar("ne", n, one), "ValueError",
                          "The truth value of an array with more than one element "
                          "is ambiguous. Use a.any() or a.all()")
        else:
            self.error_if(self.cmp_scalar("ne", n, one), "TypeError",
                          "only length-1 arrays can be converted to Python scalars")
        zero = self.const(0, "i64")
        return self.load_plan(a, [("int", zero)] * a.ty.rank)

    def minmax(self, which, e):
        args = self.call_args(e, 1, 16)
        if len(args) == 1:
            if args[0].is_array:
                return self.reduce(which, args[0], None)
            if args[0].kind == "tuple":
                args = args[0].items
            else:
                self.error(f"{which}() of a single scalar")
        r = args[0]
        for b in args[1:]:
            self.check_operands(r, b, which)
            if r.is_array or b.is_array:
                self.error(f"builtin {which}() of arrays (use np.{which}imum)")
            elem = self.common_elem(r, b)
            if is_complex(elem):
                self.error(f"{which}() of complex numbers (they are not ordered)")
            x, y = self.cast(r, elem), self.cast(b, elem)
            c = self.cmp_scalar("lt" if which == "min" else "gt", y, x)
            r = self.op(f"arith.select {c.ssa}, {y.ssa}, {x.ssa} : {elem}", elem)
        return r

    def call_builtin_min(self, e):
        return self.minmax("min", e)

    def call_builtin_max(self, e):
        return self.minmax("max", e)

    def call_builtin_sum(self, e):
        (a,) = self.call_args(e, 1, 1)
        if not a.is_array:
            self.error("sum() of a non-array")
        return self.reduce("sum", a, 0)

    def call_builtin_print(self, e):
        self.error("print() is not supported in compiled code")

    def complex_part(self, part, v):
        """`v.real`, `v.imag`, `np.real(v)`, `np.imag(v)`. Of a complex array
        NumPy gives a view of one part of each element: writes through it
        reach `v`, and it sees later writes to `v`."""
        if not (v.is_array and is_complex(v.ty.elem)):
            return self.unary(part, v)
        t = ArrT(real_of(v.ty.elem), v.ty.rank, "strided")
        return self.op(f"vrir.part_view {part} {v.ssa} : {v.ty.mlir()} -> {t.mlir()}", t)

    # element-wise functions
    def unary(self, fn, v):
        if not (v.is_array or v.is_scalar):
            self.error(f"{fn}() of a {self.tyname(v)}")
        elem = v.ty.elem if v.is_array else v.ty
        if is_complex(elem):
            if fn not in COMPLEX_FNS | {"abs", "real", "imag", "conj"}:
                self.error(f"{fn}() is not defined on complex numbers")
        elif fn in ("real", "imag", "conj"):
            if fn == "imag":
                if v.is_array:
                    t = ArrT(elem, v.ty.rank)
                    sizes = [self.dim(v, k) for k in range(v.ty.rank)]
                    r = self.op(f"vrir.zeros({', '.join(sizes)}) : {t.mlir()}", t)
                    # NumPy's .imag of a real array is a read-only array
                    self.readonly_values.add(r.ssa)
                    return r
                return self.const(0, elem)
            if fn == "real":
                return v  # a real array's .real is the array itself (a view)
            return self.copy(v) if v.is_array else v
        elif fn in ("floor", "ceil", "trunc") and kind(elem) <= 1:
            # NumPy 2 keeps integers and booleans as they are
            return self.copy(v) if v.is_array else v
        elif fn in UNARY_FLOAT_FNS and not elem.startswith("f"):
            v = self.cast(v, "f64")
            elem = "f64"
        if fn == "abs" and elem == "i1":
            return self.copy(v) if v.is_array else v  # a new array, as NumPy's
        out = real_of(elem) if fn in ("abs", "real", "imag") else elem
        if v.is_array:
            t = ArrT(out, v.ty.rank)
            return self.op(f"vrir.unary {fn} {v.ssa} : {v.ty.mlir()} -> {t.mlir()}", t)
        return self.op(f"vrir.unary {fn} {v.ssa} : {elem} -> {out}", out)

    def unary_fn(self, mod, name, e):
        (a,) = self.call_args(e, 1, 1)
        fn = {"absolute": "abs", "fabs": "abs", "conjugate": "conj"}.get(name, name)
        if mod == "cmath":
            self.need_scalar(a)
            return self.weak(self.unary(fn, self.cast(a, C128)))
        if mod == "math":
            self.need_scalar(a)
            if is_complex(a.ty):
                self.error(f"math.{name}() of a complex number (use cmath.{name})")
            if name not in ("floor", "ceil", "trunc"):
                a = self.cast(a, "f64")  # a Python float, whatever the input
            r = self.weak(self.unary(fn, a))  # a Python float
            if name in ("floor", "ceil"):
                return self.cast(r, "i64")
            return r
        if fn in UNARY_FLOAT_FNS - {"floor", "ceil"} and (a.is_array or a.is_scalar) and \
                (a.ty.elem if a.is_array else a.ty) == "i1":
            self.error(f"np.{name}() of booleans: NumPy computes it in float16, which VRIR "
                       f"does not have; convert first (x.astype(np.float64), float(x))")
        return self.unary(fn, a)

    def binary_fn(self, fn, e):
        a, b = self.call_args(e, 2, 2)
        return self.binary_values(fn, a, b)

    def binary_values(self, fn, a, b):
        """np.minimum / np.maximum / np.power of two values."""
        self.check_operands(a, b, fn)
        elem = self.common_elem(a, b)
        if is_complex(elem):
            if fn == "pow":
                return self.binop("pow", a, b)
            self.error(f"np.{fn}imum of complex numbers is not supported")
        if fn == "pow" and elem == "i1":
            elem = "i64"
        a, b = self.cast(a, elem), self.cast(b, elem)
        if elem == "i1" and fn in ("min", "max"):
            # on booleans maximum is `or` and minimum is `and`
            return self.binop("or" if fn == "max" else "and", a, b)
        if not (a.is_array or b.is_array):
            if fn == "pow":
                return self.binop("pow", a, b)
            c = self.cmp_scalar("lt" if fn == "min" else "gt", b, a)
            if elem.startswith("f"):
                # propagate NaN like np.minimum / np.maximum
                return self.op(f"arith.{'minimumf' if fn == 'min' else 'maximumf'} {a.ssa}, {b.ssa} : {elem}", elem)
            return self.op(f"arith.select {c.ssa}, {b.ssa}, {a.ssa} : {elem}", elem)
        return self.vbinary(fn, a, b, elem)

    # --- element-wise functions built from scalar code (vrir.map)
    def emap(self, inputs, out, body):
        """An element-wise function: `body` emits the scalar code computing
        one result element (of type `out`) from one element of each input
        (scalar Vs). On scalars that is the result; with arrays among the
        inputs it is the body of a vrir.map (NumPy broadcasting, a new
        row-major array), which vrir-fuse-elementwise fuses with its
        neighbours. The body must not branch or raise."""
        if not any(x.is_array for x in inputs):
            return self.cast(body(inputs), out)
        rank = max(x.ty.rank for x in inputs if x.is_array)
        t = ArrT(out, rank)
        outer = (self.region, self.terminated)
        self.region = Region()
        args = [self.fresh() for _ in inputs]
        elems = [V(x.ty.elem if x.is_array else x.ty, a) for x, a in zip(inputs, args)]
        r = self.cast(body(elems), out)
        self.emit(f"vrir.yield {r.ssa} : {out}")
        region = self.region
        self.region, self.terminated = outer
        if region.allocas:
            raise AssertionError("a vrir.map body cannot allocate variables")
        res = self.fresh()
        ins = ", ".join(x.ssa for x in inputs)
        tys = ", ".join(mlir_type(x.ty) for x in inputs)
        bargs = ", ".join(f"{a}: {v.ty}" for a, v in zip(args, elems))
        self.raw(f"{res} = vrir.map {ins} : ({tys}) -> {t.mlir()} {{\n"
                 f"^bb0({bargs}):\n{self.region_text(region)}\n}} {self.loc()}")
        return V(t, res)

    def float_operands(self, name, *vals):
        """The operands of a float function (np.arctan2, np.hypot) in their
        common float type: integers and booleans compute in f64, as NumPy's."""
        for v in vals:
            if not (v.is_array or v.is_scalar):
                self.error(f"{name}() of a {self.tyname(v)}")
        a, b = vals
        elem = self.common_elem(a, b)
        if is_complex(elem):
            self.error(f"{name}() is not defined on complex numbers")
        if kind(elem) < 2:
            elem = "f64"
        return elem, [self.cast(v, elem) for v in vals]

    def map_float_fn(self, mod, name, e):
        """np.arctan, np.log10, ... (MAP_FLOAT_FNS) and their math.*
        forms: a math op on each element (vrir.map) or on a scalar."""
        (a,) = self.call_args(e, 1, 1)
        what = f"{'numpy' if mod == 'np' else mod}.{name}"
        if not (a.is_array or a.is_scalar):
            self.error(f"{what}() of a {self.tyname(a)}")
        if mod == "math" and not a.is_scalar:
            self.error(f"{what}() of an array (use np.{name})")
        elem = a.ty.elem if a.is_array else a.ty
        if is_complex(elem):
            self.error(f"{what}() of complex numbers is not supported")
        op = (MAP_FLOAT_FNS if mod == "np" else MATH_MAP_FNS)[name]
        if op == "trunc" and kind(elem) <= 1:  # np.rint of integers is float64
            return self.copy(a) if a.is_array else a  # integers stay integers
        t = elem if is_float(elem) and mod == "np" else "f64"
        a = self.cast(a, t)
        return self.emap([a], t, lambda v: self.op(f"math.{op} {v[0].ssa} : {t}", t))

    def call_np_arctan2(self, e):
        y, x = self.call_args(e, 2, 2)
        elem, (y, x) = self.float_operands("np.arctan2", y, x)
        return self.emap([y, x], elem, lambda v: self.op(
            f"math.atan2 {v[0].ssa}, {v[1].ssa} : {elem}", elem))

    def call_math_atan2(self, e):
        y, x = self.call_args(e, 2, 2)
        for v in (y, x):
            self.need_scalar(v)
            if is_complex(v.ty):
                self.error("math.atan2() of a complex number")
        y, x = self.cast(y, "f64"), self.cast(x, "f64")
        return self.op(f"math.atan2 {y.ssa}, {x.ssa} : f64", "f64")

    def hypot_body(self, x, y, t):
        """hypot(x, y) without overflow or underflow: m * sqrt(1 + (n/m)**2)
        with m = max(|x|, |y|), n = min(|x|, |y|); inf if either is
        infinite (even with a NaN), NaN if either is NaN, 0 for (0, 0)."""
        ax = self.op(f"math.absf {x.ssa} : {t}", t)
        ay = self.op(f"math.absf {y.ssa} : {t}", t)
        m = self.op(f"arith.maximumf {ax.ssa}, {ay.ssa} : {t}", t)
        n = self.op(f"arith.minimumf {ax.ssa}, {ay.ssa} : {t}", t)
        z = self.const(0.0, t)
        one = self.const(1.0, t)
        inf = self.const(float("inf"), t)
        q = self.op(f"arith.divf {n.ssa}, {m.ssa} : {t}", t)
        q2 = self.op(f"arith.mulf {q.ssa}, {q.ssa} : {t}", t)
        s1 = self.op(f"arith.addf {one.ssa}, {q2.ssa} : {t}", t)
        sq = self.op(f"math.sqrt {s1.ssa} : {t}", t)
        r = self.op(f"arith.mulf {m.ssa}, {sq.ssa} : {t}", t)
        mz = self.op(f"arith.cmpf oeq, {m.ssa}, {z.ssa} : {t}", "i1")
        r = self.op(f"arith.select {mz.ssa}, {z.ssa}, {r.ssa} : {t}", t)
        xi = self.op(f"arith.cmpf oeq, {ax.ssa}, {inf.ssa} : {t}", "i1")
        yi = self.op(f"arith.cmpf oeq, {ay.ssa}, {inf.ssa} : {t}", "i1")
        anyi = self.op(f"arith.ori {xi.ssa}, {yi.ssa} : i1", "i1")
        return self.op(f"arith.select {anyi.ssa}, {inf.ssa}, {r.ssa} : {t}", t)

    def call_np_hypot(self, e):
        x, y = self.call_args(e, 2, 2)
        elem, (x, y) = self.float_operands("np.hypot", x, y)
        return self.emap([x, y], elem, lambda v: self.hypot_body(v[0], v[1], elem))

    def call_math_hypot(self, e):
        args = self.call_args(e, 2, 2)
        for v in args:
            self.need_scalar(v)
            if is_complex(v.ty):
                self.error("math.hypot() of a complex number")
        x, y = (self.cast(v, "f64") for v in args)
        return self.hypot_body(x, y, "f64")

    def sign_body(self, x, t):
        one, mone, z = self.const(1, t), self.const(-1, t), self.const(0, t)
        pos = self.cmp_scalar("gt", x, z)
        neg = self.cmp_scalar("lt", x, z)
        r = self.op(f"arith.select {neg.ssa}, {mone.ssa}, {z.ssa} : {t}", t)
        if is_float(t):  # NaN stays NaN
            nan = self.op(f"arith.cmpf uno, {x.ssa}, {x.ssa} : {t}", "i1")
            r = self.op(f"arith.select {nan.ssa}, {x.ssa}, {r.ssa} : {t}", t)
        return self.op(f"arith.select {pos.ssa}, {one.ssa}, {r.ssa} : {t}", t)

    def call_np_sign(self, e):
        (a,) = self.call_args(e, 1, 1)
        if not (a.is_array or a.is_scalar):
            self.error(f"np.sign() of a {self.tyname(a)}")
        elem = a.ty.elem if a.is_array else a.ty
        if elem == "i1":
            self.error("np.sign() is not defined on booleans (NumPy raises TypeError)")
        if is_complex(elem):
            self.error("np.sign() of complex numbers is not supported")
        r = self.emap([a], elem, lambda v: self.sign_body(v[0], elem))
        r.weak = a.weak and not a.is_array
        return r

    # --- np.clip, logical functions
    def call_np_clip(self, e):
        args = self.call_args(e, 1, 3, kw=("a_min", "a_max", "min", "max"))
        return self.clip(args[0], args[1:], e)

    def clip(self, a, bounds, e):
        kw = self.kwargs(e)
        bounds = list(bounds) + [None] * (2 - len(bounds))
        for k, names in enumerate((("a_min", "min"), ("a_max", "max"))):
            for n in names:
                if n in kw:
                    if bounds[k] is not None:
                        self.error(f"clip() got multiple values for '{n}'")
                    bounds[k] = kw[n]
        if not (a.is_array or a.is_scalar):
            self.error(f"clip() of a {self.tyname(a)}")
        lo, hi = (None if b is None or b.kind == "none" else b for b in bounds)
        for b in (lo, hi):
            if b is not None and not (b.is_array or b.is_scalar):
                self.error(f"clip() bounds must be numbers or arrays, got {self.tyname(b)}")
        for v in (a, lo, hi):
            if v is not None and is_complex(v.ty.elem if v.is_array else v.ty):
                self.error("clip() of complex numbers is not supported (they are not ordered)")
        r = a
        if lo is not None:
            r = self.binary_values("max", r, lo)
        if hi is not None:
            r = self.binary_values("min", r, hi)
        if r is a:
            r = self.copy(a) if a.is_array else a
        return r

    def to_bool(self, v, what):
        if not (v.is_array or v.is_scalar):
            self.error(f"{what}() of a {self.tyname(v)}")
        if v.is_array:
            if v.ty.elem == "i1":
                return v
            return self.compare("ne", v, self.pyconst(0))
        return self.truth(v)

    def logical(self, op, e):
        a, b = self.call_args(e, 2, 2)
        a, b = self.to_bool(a, f"np.logical_{op}"), self.to_bool(b, f"np.logical_{op}")
        if a.is_array or b.is_array:
            return self.vbinary(op, a, b, "i1")
        return self.op(f"arith.{op}i {a.ssa}, {b.ssa} : i1", "i1")

    def call_np_logical_and(self, e):
        return self.logical("and", e)

    def call_np_logical_or(self, e):
        return self.logical("or", e)

    def call_np_logical_xor(self, e):
        return self.logical("xor", e)

    def call_np_logical_not(self, e):
        (a,) = self.call_args(e, 1, 1)
        a = self.to_bool(a, "np.logical_not")
        if a.is_array:
            return self.op(f"vrir.unary not {a.ssa} : {a.ty.mlir()} -> {a.ty.mlir()}", a.ty)
        one = self.const(True, "i1")
        return self.op(f"arith.xori {a.ssa}, {one.ssa} : i1", "i1")

    # --- np.flip, np.linspace
    def call_np_flip(self, e):
        args = self.call_args(e, 1, 2, kw=("axis",))
        a = args[0]
        axis = args[1] if len(args) > 1 else self.kwargs(e).get("axis")
        if not a.is_array:
            self.error("np.flip needs an array")
        rank = a.ty.rank
        if axis is None or axis.kind == "none":
            axes = list(range(rank))
        else:
            axes = []
            for x in self.const_ints([axis], "np.flip axes"):
                if not -rank <= x < rank:
                    self.error(f"axis {x} is out of bounds for a {rank}-dimensional array")
                axes.append(x % rank)
            if len(set(axes)) != len(axes):
                self.error("repeated axis in np.flip")
        return self.flip(a, axes, e)

    def flip(self, a, axes, e):
        """A view of `a` with the dimensions `axes` reversed (negative
        strides), as NumPy's flip."""
        rev = ast.Slice(lower=None, upper=None,
                        step=ast.copy_location(ast.Constant(-1), e))
        plan = [("range", self.slice_range(a, k, rev if k in axes else ast.Slice()))
                for k in range(a.ty.rank)]
        return self.load_plan(a, plan)

    def call_np_fliplr(self, e):
        (a,) = self.call_args(e, 1, 1)
        if not a.is_array or a.ty.rank < 2:
            self.error("np.fliplr needs an array of 2 or more dimensions")
        return self.flip(a, [1], e)

    def call_np_flipud(self, e):
        (a,) = self.call_args(e, 1, 1)
        if not a.is_array:
            self.error("np.flipud needs an array")
        return self.flip(a, [0], e)

    def const_bool(self, v, what, default):
        if v is None:
            return default
        if not v.is_scalar or v.const is None or kind(v.ty) > 1:
            self.error(f"{what} must be a constant True or False")
        return bool(v.const)

    def call_np_linspace(self, e):
        args = self.call_args(e, 2, 3, kw=("num", "endpoint", "retstep", "dtype", "axis"))
        kw = self.kwargs(e)
        start, stop = args[0], args[1]
        num = args[2] if len(args) > 2 else kw.get("num")
        if num is None:
            num = self.pyconst(50)
        for v in (start, stop):
            if v.is_array:
                self.error("np.linspace with array start or stop is not supported")
            self.need_scalar(v)
            if is_complex(v.ty):
                self.error("np.linspace of complex numbers is not supported")
        if not num.is_scalar or kind(num.ty) != 1:
            self.error("np.linspace: num must be an integer")
        endpoint = self.const_bool(kw.get("endpoint"), "np.linspace's endpoint", True)
        retstep = self.const_bool(kw.get("retstep"), "np.linspace's retstep", False)
        axis = kw.get("axis")
        if axis is not None and axis.const != 0:
            self.error("np.linspace supports axis=0 only")
        dt = self.common_elem(start, stop)
        if kind(dt) < 2:
            dt = "f64"
        elem = self.dtype_kw(e, dt, kw)
        if is_complex(elem):
            self.error("np.linspace to a complex dtype is not supported")
        num = self.cast(num, "i64")
        if num.const is None or num.const < 0:
            z = self.const(0, "i64")
            self.error_if(self.cmp_scalar("lt", num, z), "ValueError",
                          "Number of samples must be non-negative.")
        start, stop = self.cast(start, dt), self.cast(stop, dt)
        one = self.const(1, "i64")
        div = self.op(f"arith.subi {num.ssa}, {one.ssa} : i64", "i64") if endpoint else num
        divf = self.cast(div, dt)
        delta = self.op(f"arith.subf {stop.ssa}, {start.ssa} : {dt}", dt)
        step = self.op(f"arith.divf {delta.ssa}, {divf.ssa} : {dt}", dt)
        zi, zf = self.const(0, "i64"), self.const(0.0, dt)
        pos = self.op(f"arith.cmpi sgt, {div.ssa}, {zi.ssa} : i64", "i1")
        nan = self.const(float("nan"), dt)
        step = self.op(f"arith.select {pos.ssa}, {step.ssa}, {nan.ssa} : {dt}", dt)
        # NumPy: y = arange(num) * step + start; with a zero step (denormal
        # deltas) y = arange(num) / div * delta + start; with no step
        # (num <= 1 with the endpoint) y = arange(num) * delta + start
        szero = self.op(f"arith.cmpf oeq, {step.ssa}, {zf.ssa} : {dt}", "i1")
        mult = self.op(f"arith.select {pos.ssa}, {step.ssa}, {delta.ssa} : {dt}", dt)
        last = self.op(f"arith.subi {num.ssa}, {one.ssa} : i64", "i64")
        ni = self.index(num)
        def element(ki):
            kf = self.cast(ki, dt)
            a1 = self.op(f"arith.mulf {kf.ssa}, {mult.ssa} : {dt}", dt)
            q = self.op(f"arith.divf {kf.ssa}, {divf.ssa} : {dt}", dt)
            a2 = self.op(f"arith.mulf {q.ssa}, {delta.ssa} : {dt}", dt)
            val = self.op(f"arith.select {szero.ssa}, {a2.ssa}, {a1.ssa} : {dt}", dt)
            val = self.op(f"arith.addf {val.ssa}, {start.ssa} : {dt}", dt)
            if endpoint:  # y[-1] = stop when num > 1
                is_last = self.op(f"arith.cmpi eq, {ki.ssa}, {last.ssa} : i64", "i1")
                more = self.op(f"arith.cmpi sgt, {num.ssa}, {one.ssa} : i64", "i1")
                put = self.op(f"arith.andi {is_last.ssa}, {more.ssa} : i1", "i1")
                val = self.op(f"arith.select {put.ssa}, {stop.ssa}, {val.ssa} : {dt}", dt)
            if kind(elem) == 1:  # integer dtypes: floor, then convert
                val = self.op(f"math.floor {val.ssa} : {dt}", dt)
            return val

        r = self.fill_1d(ni, elem, element)
        if retstep:
            return V(kind="tuple", items=[r, step])
        return r

    def ufunc_values(self, name, a, b):
        how, op = BINARY_UFUNCS[name]
        if how == "op":
            return self.binop(op, a, b)
        if how == "cmp":
            return self.compare(op, a, b)
        return self.binary_values(op, a, b)

    def binary_ufunc(self, name, e):
        """np.add(a, b), np.less(a, b), ... as the operators, and with `out=`
        the result stored into that array (NumPy's same-kind casting), which
        is returned."""
        a, b = self.call_args(e, 2, 2, kw=("out",))
        r = self.ufunc_values(name, a, b)
        out = self.kwargs(e).get("out")
        if out is None or out.kind == "none":
            return r
        if not out.is_array:
            self.error(f"np.{name}: out= must be an array")
        if kind(r.ty.elem if r.is_array else r.ty) > kind(out.ty.elem):
            self.error(f"np.{name}: cannot store {r.ty.elem if r.is_array else r.ty} results "
                       f"in a {out.ty.elem} out= array (same-kind casting)")
        self.store_plan(out, [], r)
        return out

    def ufunc_method(self, name_at, e):
        """np.<ufunc>.outer(a, b) (the shape of a then of b), .reduce(a,
        axis=0) and .accumulate(a) (1-D) where NumPy's reductions and
        cumulative functions are those."""
        name, at = name_at
        if at == "outer":
            a, b = self.call_args(e, 2, 2)
            for v in (a, b):
                if not v.is_array:
                    self.error(f"np.{name}.outer takes two arrays")
            ra, rb = a.ty.rank, b.ty.rank
            return self.ufunc_values(name, self.expand_dims(a, list(range(ra, ra + rb))),
                                     self.expand_dims(b, list(range(ra))))
        table = UFUNC_REDUCE if at == "reduce" else UFUNC_ACCUMULATE
        if name not in table:
            self.error(f"np.{name}.{at} is not supported (only "
                       f"{', '.join('np.' + k for k in table)}.{at})")
        args = self.call_args(e, 1, 2, kw=("axis",))
        axis = args[1] if len(args) > 1 else self.kwargs(e).get("axis", self.const(0, "i64"))
        if at == "reduce":
            return self.reduce_axes(table[name], args[0], axis, None)
        if not args[0].is_array or args[0].ty.rank != 1:
            self.error(f"np.{name}.accumulate takes a 1-D array here")
        return self.accumulate(table[name], args[0], axis)

    def call_np_power(self, e):
        return self.binary_fn("pow", e)

    def call_math_pow(self, e):
        a, b = self.call_args(e, 2, 2)
        for x in (a, b):
            self.need_scalar(x)
            if is_complex(x.ty):
                self.error("math.pow() of a complex number (use **)")
        return self.binop("pow", self.cast(a, "f64"), self.cast(b, "f64"))

    def call_math_isnan(self, e):
        (a,) = self.call_args(e, 1, 1)
        self.need_scalar(a)
        if is_complex(a.ty):
            self.error("math.isnan() of a complex number (use cmath.isnan)")
        a = self.cast(a, "f64")
        return self.op(f"arith.cmpf uno, {a.ssa}, {a.ssa} : f64", "i1")

    # complex numbers
    def call_builtin_complex(self, e):
        args = self.call_args(e, 0, 2)
        for x in args:
            self.need_scalar(x)
        if not args:
            return self.const(0j, C128)
        if len(args) == 1:
            return self.cast(args[0], C128)
        re, im = args
        if is_complex(re.ty) or is_complex(im.ty):
            # complex(a, b) is a + b*1j for complex parts too
            j = self.const(1j, C128)
            return self.binop("add", self.cast(re, C128), self.binop("mul", self.cast(im, C128), j))
        re, im = self.cast(re, "f64"), self.cast(im, "f64")
        return self.op(f"complex.create {re.ssa}, {im.ssa} : {C128}", C128)

    def call_np_real(self, e):
        (a,) = self.call_args(e, 1, 1)
        return self.complex_part("real", a)

    def call_np_imag(self, e):
        (a,) = self.call_args(e, 1, 1)
        return self.complex_part("imag", a)

    def call_np_conj(self, e):
        (a,) = self.call_args(e, 1, 1)
        return self.unary("conj", a)

    call_np_conjugate = call_np_conj

    def call_cmath_phase(self, e):
        (a,) = self.call_args(e, 1, 1)
        self.need_scalar(a)
        a = self.cast(a, C128)
        re = self.unary("real", a)
        im = self.unary("imag", a)
        return self.op(f"math.atan2 {im.ssa}, {re.ssa} : f64", "f64")

    def call_cmath_isnan(self, e):
        (a,) = self.call_args(e, 1, 1)
        self.need_scalar(a)
        a = self.cast(a, C128)
        re, im = self.unary("real", a), self.unary("imag", a)
        x = self.op(f"arith.cmpf uno, {re.ssa}, {re.ssa} : f64", "i1")
        y = self.op(f"arith.cmpf uno, {im.ssa}, {im.ssa} : f64", "i1")
        return self.op(f"arith.ori {x.ssa}, {y.ssa} : i1", "i1")

    def call_np_where(self, e):
        c, a, b = self.call_args(e, 3, 3)
        self.check_operands(a, b, "np.where")
        c = self.cast(c, "i1")
        elem = self.common_elem(a, b)
        a, b = self.cast(a, elem), self.cast(b, elem)
        vals = [x for x in (c, a, b) if x.is_array]
        if not vals:
            return self.op(f"arith.select {c.ssa}, {a.ssa}, {b.ssa} : {elem}", elem)
        t = ArrT(elem, max(x.ty.rank for x in vals))
        return self.op(f"vrir.select {c.ssa}, {a.ssa}, {b.ssa} : {mlir_type(c.ty)}, {mlir_type(a.ty)}, "
                       f"{mlir_type(b.ty)} -> {t.mlir()}", t)

    def call_np_dot(self, e):
        a, b = self.call_args(e, 2, 2)
        if a.is_scalar or b.is_scalar:
            # np.dot makes arrays of its operands: a Python number is not
            # weak there (np.dot(a32, 2.0) is float64)
            return self.binop("mul", self.weak(a, False), self.weak(b, False))
        if a.is_array and b.is_array and max(a.ty.rank, b.ty.rank) > 2:
            # np.dot contracts a's last axis with b's second-to-last and
            # keeps all the others (shape (4, 2, 2) for (4, 1) and (2, 1, 2)):
            # not @'s batching
            self.error("np.dot of an array with more than 2 dimensions is not supported "
                       "(use @ / np.matmul, which batches, or np.tensordot's rule by hand)")
        return self.matmul(a, b)

    def call_np_matmul(self, e):
        a, b = self.call_args(e, 2, 2)
        if a.is_scalar or b.is_scalar:
            self.error("np.matmul of a scalar (NumPy raises ValueError; use *)")
        return self.matmul(a, b)

    def call_np_transpose(self, e):
        args = self.call_args(e, 1, 2, kw=("axes",))
        a = args[0]
        if not a.is_array:
            self.error("np.transpose of a non-array")
        axes = args[1] if len(args) > 1 else self.kwargs(e).get("axes")
        if axes is None or axes.kind == "none":
            return self.transpose(a)
        return self.transpose(a, self.const_ints([axes], "transpose axes"))

    def call_np_reshape(self, e):
        args = self.call_args(e, 1, 2, kw=("order", "shape", "newshape"))
        kw = self.kwargs(e)
        shape = args[1] if len(args) > 1 else kw.get("shape", kw.get("newshape"))
        if shape is None:
            self.error("np.reshape needs a shape")
        if not args[0].is_array:
            self.error("np.reshape of a non-array")
        return self.reshape(args[0], shape, e)

    def call_np_expand_dims(self, e):
        args = self.call_args(e, 1, 2, kw=("axis",))
        a = args[0]
        axis = args[1] if len(args) > 1 else self.kwargs(e).get("axis")
        if not a.is_array or axis is None:
            self.error("np.expand_dims needs an array and an axis")
        axes = self.const_ints([axis], "expand_dims axes")
        rank = a.ty.rank + len(axes)
        for x in axes:
            if not -rank <= x < rank:
                self.error(f"axis {x} is out of bounds for the {rank}-dimensional result")
        positions = sorted(x % rank for x in axes)
        if len(set(positions)) != len(positions):
            self.error("repeated axis in expand_dims")
        return self.expand_dims(a, positions)

    def call_np_copy(self, e):
        (a,) = self.call_args(e, 1, 1)
        return self.copy(a)

    def copy(self, a):
        if not a.is_array:
            self.error("copy of a non-array")
        t = ArrT(a.ty.elem, a.ty.rank)
        return self.op(f"vrir.copy {a.ssa} : {a.ty.mlir()} to {t.mlir()}", t)

    # library functions written as Python, compiled in place
    def inline(self, template, values, result):
        """Compiles the statements of `template` (Python source) where they
        are called, with the names in `values` bound to those values and
        every other name but builtins renamed apart; returns the value of
        the template's variable `result`. Errors point at the user's call."""
        n = self.nssa
        self.nssa += 1
        tree = ast.parse(textwrap.dedent(template))
        kept = {"range", "len", "min", "max"}
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id not in kept:
                node.id = f"$lib{n}_{node.id}"
            if hasattr(node, "lineno"):
                ast.copy_location(node, self.cur)
        for name, v in values.items():
            self.assign_name(f"$lib{n}_{name}", v)
        self.suite(tree.body)
        return self.load_name(f"$lib{n}_{result}", self.cur)

    # boolean masks: A[mask] reads the selected elements in C order into a
    # new 1-D array; A[mask] = v writes them (v a scalar or one value each)
    @staticmethod
    def loop_nest_source(array, rank, body):
        """Template source of loops over the first `rank` dimensions of the
        template variable `array` (counters i0, i1, ..., C order) around the
        lines `body`, in which `ix` stands for the index tuple."""
        lines = [f"{'    ' * d}for i{d} in range({array}.shape[{d}]):" for d in range(rank)]
        ix = ", ".join(f"i{d}" for d in range(rank))
        lines += ["    " * rank + line.replace("ix", ix) for line in body]
        return "\n".join(lines)

    def require_same_dims(self, a, b, dims, exc, message):
        """At run time, raise `exc` with `message(d)` for the first dimension
        d of `dims` where arrays `a` and `b` differ."""
        for d in dims:
            bad = self.op(f"arith.cmpi ne, {self.dim(a, d)}, {self.dim(b, d)} : index", "i1")
            self.error_if(bad, exc, message(d))

    def mask_count(self, a, m):
        self.require_same_dims(m, a, range(a.ty.rank), "IndexError",
                               lambda d: f"boolean index did not match indexed array along "
                               f"axis {d}")
        return self.inline("count = 0\n" + self.loop_nest_source(
            "m", a.ty.rank, ["if m[ix]:", "    count += 1"]), {"m": m}, "count")

    def mask_read(self, a, m):
        count = self.mask_count(a, m)
        t = ArrT(a.ty.elem, 1)
        out = self.op(f"vrir.empty({self.index(count)}) : {t.mlir()}", t)
        return self.inline("k = 0\n" + self.loop_nest_source(
            "m", a.ty.rank, ["if m[ix]:", "    out[k] = a[ix]", "    k += 1"]),
            {"a": a, "m": m, "out": out}, "out")

    def mask_write(self, a, m, v):
        if v.is_array:
            if v.ty.rank != 1:
                self.error("A[mask] = values takes a scalar or a 1-D array of values")
            count = self.mask_count(a, m)
            n = self.from_index(self.dim(v, 0))
            bad = self.op(f"arith.cmpi ne, {count.ssa}, {n.ssa} : i64", "i1")
            self.error_if(bad, "ValueError", "NumPy boolean array indexing assignment cannot "
                          "assign the values: their number differs from the mask's count of "
                          "True elements")
            body = ["if m[ix]:", "    a[ix] = v[k]", "    k += 1"]
        else:
            self.mask_count(a, m)  # the shape checks
            body = ["if m[ix]:", "    a[ix] = v"]
        self.inline("k = 0\n" + self.loop_nest_source("m", a.ty.rank, body),
                    {"a": a, "m": m, "v": v}, "k")
        return None

    def flat_only(self, name, a, axis):
        if not a.is_array:
            self.error(f"np.{name} needs an array")
        if is_complex(a.ty.elem):
            self.error(f"np.{name} of complex numbers is not supported")
        if axis is not None and axis.kind != "none" and not (
                a.ty.rank == 1 and axis.const in (0, -1)):
            self.error(f"np.{name} with an axis of a {a.ty.rank}-dimensional array is not "
                       "supported yet (only axis=None, over the flattened array)")

    def arg_extreme(self, name, a, axis):
        """np.argmax/argmin over the flattened array: the first index of the
        extreme value, NaN counting as the extreme (as NumPy)."""
        self.flat_only(name, a, axis)
        n = self.op(f"vrir.numel {a.ssa} : {a.ty.mlir()}", "index")
        empty = self.op(f"arith.cmpi eq, {n.ssa}, {self.index(self.const(0, 'i64'))} : index",
                        "i1")
        self.error_if(empty, "ValueError", f"attempt to get {name} of an empty sequence")
        better = ">" if name == "argmax" else "<"
        return self.inline(f"""
            flat = a.reshape(-1)
            best = 0
            for k in range(1, flat.shape[0]):
                x = flat[k]
                y = flat[best]
                if x {better} y or (x != x and y == y):
                    best = k
            """, {"a": a}, "best")

    def accumulate(self, name, a, axis):
        """np.cumsum/cumprod over the flattened array (1-D result), integers
        of less than 64 bits (and booleans) widened to int64 as NumPy."""
        self.flat_only(name, a, axis)
        elem = a.ty.elem
        if elem in ("i1", "i32"):
            a, elem = self.cast(a, "i64"), "i64"
        n = self.op(f"vrir.numel {a.ssa} : {a.ty.mlir()}", "index")
        t = ArrT(elem, 1)
        out = self.op(f"vrir.empty({n.ssa}) : {t.mlir()}", t)
        op = "+" if name == "cumsum" else "*"
        return self.inline(f"""
            flat = a.reshape(-1)
            acc = start
            for k in range(flat.shape[0]):
                acc = acc {op} flat[k]
                out[k] = acc
            """, {"a": a, "out": out, "start": self.const(0 if op == "+" else 1, elem)}, "out")

    def call_np_argmax(self, e):
        return self.np_flat_fn("argmax", e, self.arg_extreme)

    def call_np_argmin(self, e):
        return self.np_flat_fn("argmin", e, self.arg_extreme)

    def call_np_cumsum(self, e):
        return self.np_flat_fn("cumsum", e, self.accumulate)

    def call_np_cumprod(self, e):
        return self.np_flat_fn("cumprod", e, self.accumulate)

    def call_np_outer(self, e):
        a, b = self.call_args(e, 2, 2)
        for v in (a, b):
            if not v.is_array:
                self.error("np.outer takes two arrays")
        # NumPy flattens both operands.
        return self.inline("r = a.reshape(-1)[:, None] * b.reshape(-1)[None, :]",
                           {"a": a, "b": b}, "r")

    def call_np_var(self, e):
        return self.variance(e, "var")

    def call_np_std(self, e):
        return self.variance(e, "std")

    def variance(self, e, name):
        """np.var/np.std(a, axis=None|int|tuple, ddof=0, keepdims=False):
        the mean of squared deviations from the mean (over N - ddof)."""
        args = self.call_args(e, 1, 2, kw=("axis", "ddof", "keepdims"))
        kw = self.kwargs(e)
        a = args[0]
        if not a.is_array:
            self.error(f"np.{name} needs an array")
        if is_complex(a.ty.elem):
            self.error(f"np.{name} of complex numbers is not supported")
        axis = args[1] if len(args) > 1 else kw.get("axis")
        if axis is None or axis.kind == "none":
            axis_text = "None"
        else:
            items = axis.items if axis.kind == "tuple" else [axis]
            axis_text = "(" + "".join(f"{x}, " for x in self.const_ints(items, "axes")) + ")"
        ddof = kw.get("ddof") or self.const(0, "i64")
        keep = self.const_bool(kw.get("keepdims"), "keepdims", False)
        root = "r = r ** 0.5\n" if name == "std" else ""
        return self.inline(f"""
            m = a.mean(axis={axis_text}, keepdims=True)
            d = a - m
            r = (d * d).sum(axis={axis_text}, keepdims={keep}) / (a.size // m.size - ddof)
            {root}""", {"a": a, "ddof": ddof}, "r")

    def call_np_meshgrid(self, e):
        """np.meshgrid(x1, ..., xn, indexing='xy'|'ij'): new arrays (copies,
        as NumPy's default copy=True) of the flattened inputs broadcast
        along their own axis; 'xy' swaps the first two axes."""
        arrays = self.call_args(e, 1, 8, kw=("indexing",))
        indexing = self.kwargs(e).get("indexing")
        ij = indexing is not None and indexing.kind == "str" and indexing.obj == "ij"
        if indexing is not None and not ij and not (indexing.kind == "str" and
                                                      indexing.obj == "xy"):
            self.error("np.meshgrid: indexing is 'xy' or 'ij'")
        if not all(v.is_array for v in arrays):
            self.error("np.meshgrid takes arrays")
        n = len(arrays)
        flat = [self.inline("r = a.reshape(-1)", {"a": v}, "r") for v in arrays]
        # the output axis of input i
        axis_of = list(range(n))
        if not ij and n >= 2:
            axis_of[0], axis_of[1] = 1, 0
        sizes = [None] * n
        for i, v in enumerate(flat):
            sizes[axis_of[i]] = self.dim(v, 0)
        outs = []
        for i, v in enumerate(flat):
            t = ArrT(v.ty.elem, n)
            out = self.op(f"vrir.empty({', '.join(sizes)}) : {t.mlir()}", t)
            view = ", ".join(":" if d == axis_of[i] else "None" for d in range(n))
            self.inline(f"out[{', '.join([':'] * n)}] = v[{view}]", {"out": out, "v": v}, "out")
            outs.append(out)
        return V(kind="tuple", items=outs)

    def call_np_concatenate(self, e):
        return self.join_arrays(e, "concatenate")

    def call_np_stack(self, e):
        return self.join_arrays(e, "stack")

    def join_arrays(self, e, name):
        """np.concatenate(arrays, axis=0) and np.stack(arrays, axis=0) of a
        tuple or list of arrays: a new array of their common dtype, each
        input copied into its slice; shapes that do not fit raise NumPy's
        ValueError at run time."""
        if len(e.args) < 1 or not isinstance(e.args[0], (ast.Tuple, ast.List)):
            self.error(f"np.{name} takes a tuple or list of arrays written out")
        for k in e.keywords:
            if k.arg != "axis":
                self.error(f"unsupported keyword argument '{k.arg}'")
        arrays = [self.expr(x) for x in e.args[0].elts]
        axis_v = self.expr(e.args[1]) if len(e.args) > 1 else self.kwargs(e).get("axis")
        if not arrays or not all(v.is_array for v in arrays):
            self.error(f"np.{name} takes one or more arrays")
        rank = arrays[0].ty.rank
        if any(v.ty.rank != rank for v in arrays):
            self.error(f"np.{name}: all the input arrays must have the same number of dimensions")
        out_rank = rank + (name == "stack")
        axis = 0 if axis_v is None else self.const_ints([axis_v], "axis")[0]
        if not -out_rank <= axis < out_rank:
            self.error(f"axis {axis} is out of bounds for a {out_rank}-dimensional result")
        axis %= out_rank
        elem = arrays[0].ty.elem
        for v in arrays[1:]:
            elem = promote_strong(elem, v.ty.elem)
        if name == "stack":
            arrays = [self.expand_dims(v, [axis]) for v in arrays]
        first = arrays[0]
        # The other dimensions must agree (store_slice would broadcast).
        message = (f"np.{name}: all the input array dimensions except for the "
                   "concatenation axis must match exactly" if name == "concatenate"
                   else "np.stack: all input arrays must have the same shape")
        for v in arrays[1:]:
            self.require_same_dims(v, first, [d for d in range(out_rank)
                                              if d != axis or name == "stack"],
                                   "ValueError", lambda d: message)
        sizes = [self.dim(first, d) for d in range(out_rank)]
        total = self.from_index(sizes[axis])
        for v in arrays[1:]:
            total = self.binop("add", total, self.from_index(self.dim(v, axis)))
        sizes[axis] = self.index(total)
        t = ArrT(elem, out_rank)
        out = self.op(f"vrir.empty({', '.join(sizes)}) : {t.mlir()}", t)
        values = {"out": out}
        lines = ["at = 0"]
        for i, v in enumerate(arrays):
            values[f"x{i}"] = v
            lines.append(f"n = x{i}.shape[{axis}]")
            lines.append(f"out[{':, ' * axis}at:at + n] = x{i}")
            lines.append("at = at + n")
        return self.inline("\n".join(lines), values, "out")

    def np_flat_fn(self, name, e, impl):
        args = self.call_args(e, 1, 2, kw=("axis",))
        axis = args[1] if len(args) > 1 else self.kwargs(e).get("axis")
        return impl(name, args[0], axis)

    # reductions
    def np_reduce(self, kind_, e):
        a = self.call_args(e, 1, 2, kw=("axis", "keepdims"))
        kw = self.kwargs(e)
        axis = a[1] if len(a) > 1 else kw.get("axis")
        return self.reduce_axes(kind_, a[0], axis, kw.get("keepdims"))

    def reduce_axes(self, kind_, a, axis, keepdims):
        """NumPy's reductions with `axis` an integer, a tuple of integers or
        None, and `keepdims`: one reduction per axis (the highest first, so
        the others keep their numbers), the reduced axes then put back with
        size 1 when `keepdims` is True."""
        keep = self.const_bool(keepdims, "keepdims", False)
        if not a.is_array or (axis is not None and axis.kind != "tuple" and not keep):
            return self.reduce(kind_, a, axis)
        rank = a.ty.rank
        if axis is None or axis.kind == "none":
            axes = list(range(rank))
        else:
            items = axis.items if axis.kind == "tuple" else [axis]
            axes = []
            for x in self.const_ints(items, "reduction axes"):
                if not -rank <= x < rank:
                    self.error(f"axis {x} is out of bounds for a {rank}-dimensional array")
                axes.append(x % rank)
            if len(set(axes)) != len(axes):
                self.error("duplicate value in 'axis'")
        if sorted(axes) == list(range(rank)):
            r = self.reduce(kind_, a, None)
        elif kind_ == "mean":
            r = self.reduce_axes("sum", a if kind(a.ty.elem) >= 2 else self.cast(a, "f64"),
                                 V(kind="tuple", items=[self.const(x, "i64") for x in axes]),
                                 None)
            n = self.const(1, "i64")
            for x in axes:
                n = self.binop("mul", n, self.from_index(self.dim(a, x)))
            r = self.binop("truediv", r, self.cast(n, r.ty.elem))
        else:
            r = a
            for x in sorted(axes, reverse=True):
                r = self.reduce(kind_, r, x)
        if not keep:
            return r
        if not r.is_array:
            one = self.op("arith.constant 1 : index", "index")
            t = ArrT(r.ty, rank)
            full = self.op(f"vrir.empty({', '.join([one.ssa] * rank)}) : {t.mlir()}", t)
            self.store_plan(full, [], r)
            return full
        return self.expand_dims(r, sorted(axes))

    def reduce(self, kind_, a, axis):
        if not a.is_array:
            if a.is_scalar:
                # NumPy's result types, as for arrays: sums and products of
                # booleans and int32 are int64, means of integers float64
                if kind_ == "mean":
                    return self.cast(a, a.ty if kind(a.ty) >= 2 else "f64")
                if kind_ in ("sum", "prod") and a.ty in ("i1", "i32"):
                    return self.cast(a, "i64")
                return a
            self.error(f"{kind_}() of a {self.tyname(a)}")
        if isinstance(axis, V):
            if axis.kind == "none":
                axis = None
            elif axis.const is None or not isinstance(axis.const, int) or isinstance(axis.const, bool):
                self.error("axis must be an integer constant")
            else:
                axis = axis.const
        if axis is not None:
            if not -a.ty.rank <= axis < a.ty.rank:
                self.error(f"axis {axis} is out of bounds for a {a.ty.rank}-dimensional array")
            axis %= a.ty.rank
        elem = a.ty.elem
        if kind_ in ("sum", "prod") and elem in ("i1", "i32"):
            a = self.cast(a, "i64")
            elem = "i64"
        if is_complex(elem) and kind_ in ("min", "max"):
            self.error(f"{kind_}() of complex numbers (they are not ordered)")
        if elem == "i1" and kind_ in ("min", "max"):
            # the max of booleans is any(), the min all(): reduce as integers
            return self.cast(self.reduce(kind_, self.cast(a, "i32"), axis), "i1")
        if kind_ == "mean":
            if kind(elem) < 2:
                a = self.cast(a, "f64")
                elem = "f64"
            s = self.reduce("sum", a, axis)
            if axis is None:
                n = self.op(f"vrir.numel {a.ssa} : {a.ty.mlir()}", "index")
            else:
                n = V("index", self.dim(a, axis))
            nf = self.cast(self.from_index(n.ssa), elem)
            return self.binop("truediv", s, nf)
        if axis is None or a.ty.rank == 1:
            ax = f" axis {axis}" if axis is not None else ""
            return self.op(f"vrir.reduce {kind_} {a.ssa}{ax} : {a.ty.mlir()} -> {elem}", elem)
        t = ArrT(elem, a.ty.rank - 1)
        return self.op(f"vrir.reduce {kind_} {a.ssa} axis {axis} : {a.ty.mlir()} -> {t.mlir()}", t)

    def call_method(self, name, a, e):
        if name in ("conj", "conjugate"):
            self.call_args(e, 0, 0)
            if a.is_array and not is_complex(a.ty.elem):
                return a  # NumPy's ndarray.conj() of a real array is the array itself
            return self.unary("conj", a)
        if name == "copy":
            self.call_args(e, 0, 0)
            return self.copy(a)
        if name == "transpose":
            args = self.call_args(e, 0, 32)
            if not args or (len(args) == 1 and args[0].kind == "none"):
                return self.transpose(a)
            return self.transpose(a, self.const_ints(args, "transpose axes"))
        if name == "reshape":
            args = self.call_args(e, 1, 32, kw=("order",))
            shape = args[0] if len(args) == 1 else V(kind="tuple", items=args)
            return self.reshape(a, shape, e)
        if name == "astype":
            (dt,) = self.call_args(e, 1, 1)
            if dt.kind != "dtype":
                self.error("astype() needs a dtype such as np.float32")
            if dt.obj == a.ty.elem:
                return self.copy(a)
            return self.cast(a, dt.obj)
        if name == "fill":
            (v,) = self.call_args(e, 1, 1)
            self.store_plan(a, [], v)
            return V(kind="none")
        if name == "clip":
            args = self.call_args(e, 0, 2, kw=("min", "max", "a_min", "a_max"))
            return self.clip(a, args, e)
        if name in ("argmax", "argmin", "cumsum", "cumprod"):
            args = self.call_args(e, 0, 1, kw=("axis",))
            axis = args[0] if args else self.kwargs(e).get("axis")
            return (self.arg_extreme if name.startswith("arg") else self.accumulate)(
                name, a, axis)
        args = self.call_args(e, 0, 1, kw=("axis", "keepdims"))
        kw = self.kwargs(e)
        axis = args[0] if args else kw.get("axis")
        return self.reduce_axes(REDUCTIONS[name], a, axis, kw.get("keepdims"))

    # creation
    def shape_of(self, v):
        if v.kind == "tuple":
            items = v.items
        else:
            items = [v]
        out = []
        for x in items:
            if not x.is_scalar or kind(x.ty) >= 2:
                self.error("array shapes are integers or tuples of integers")
            out.append(self.index(x))
        return out

    def dtype_kw(self, e, default, kw=None):
        """The dtype= keyword of call `e` (`kw`: its keywords already
        evaluated, so that they are not evaluated twice)."""
        if kw is None:
            kw = self.kwargs(e)
        dt = kw.get("dtype")
        if dt is None or dt.kind == "none":
            return default
        if dt.kind != "dtype":
            self.error("dtype must be one of float, int, bool, np.float64, np.float32, np.int64, np.int32, np.bool_")
        return dt.obj

    def order_kw(self, e):
        o = self.kwargs(e).get("order")
        if o is None:
            return "row_major"
        if o.kind == "str" and o.obj in ("C", "F"):
            return "row_major" if o.obj == "C" else "col_major"
        self.error("order must be 'C' or 'F'")

    def alloc(self, which, e):
        args = self.call_args(e, 1, 2, kw=("dtype", "order"))
        elem = self.dtype_kw(e, "f64")
        if len(args) == 2:
            if args[1].kind != "dtype":
                self.error("the second argument must be a dtype")
            elem = args[1].obj
        sizes = self.shape_of(args[0])
        t = ArrT(elem, len(sizes), self.order_kw(e))
        if not sizes:
            self.error("0-dimensional arrays are not supported")
        return self.op(f"vrir.{which}({', '.join(sizes)}) : {t.mlir()}", t)

    def call_np_zeros(self, e):
        return self.alloc("zeros", e)

    def call_np_ones(self, e):
        return self.alloc("ones", e)

    def call_np_empty(self, e):
        return self.alloc("empty", e)

    def alloc_like(self, which, e, fill=None):
        args = self.call_args(e, 1, 2, kw=("dtype",))
        a = args[0]
        if not a.is_array:
            self.error(f"np.{which}_like needs an array")
        elem = self.dtype_kw(e, a.ty.elem)
        if len(args) == 2 and args[1].kind != "none":
            # np.zeros_like(A, dtype): NumPy's TypeError for anything else
            if args[1].kind != "dtype":
                self.error(f"np.{which}_like's second argument is the dtype")
            elem = args[1].obj
        layout = "col_major" if a.ty.layout == "col_major" else "row_major"
        t = ArrT(elem, a.ty.rank, layout)
        sizes = [self.dim(a, k) for k in range(a.ty.rank)]
        r = self.op(f"vrir.{which}({', '.join(sizes)}) : {t.mlir()}", t)
        if fill is not None:
            self.store_plan(r, [], fill)
        return r

    def call_np_zeros_like(self, e):
        return self.alloc_like("zeros", e)

    def call_np_ones_like(self, e):
        return self.alloc_like("ones", e)

    def call_np_empty_like(self, e):
        return self.alloc_like("empty", e)

    def call_np_full(self, e):
        args = self.call_args(e, 2, 2, kw=("dtype", "order"))
        v = args[1]
        self.need_scalar(v)
        elem = self.dtype_kw(e, v.ty)
        sizes = self.shape_of(args[0])
        t = ArrT(elem, len(sizes), self.order_kw(e))
        r = self.op(f"vrir.empty({', '.join(sizes)}) : {t.mlir()}", t)
        self.store_plan(r, [], v)
        return r

    def call_np_full_like(self, e):
        args = self.call_args(e, 2, 2, kw=("dtype",))
        a, v = args
        self.need_scalar(v)
        e2 = ast.Call(func=e.func, args=e.args[:1], keywords=e.keywords)
        return self.alloc_like("empty", e2, fill=v)

    def call_np_arange(self, e):
        args = self.call_args(e, 1, 3, kw=("dtype",))
        for a in args:
            self.need_scalar(a)
            if is_complex(a.ty):
                self.error("np.arange of complex numbers is not supported")
        isf = any(a.ty.startswith("f") for a in args)
        w = "f64" if isf else "i64"
        args = [self.cast(a, w) for a in args]
        if len(args) == 1:
            start, stop, step = self.const(0, w), args[0], self.const(1, w)
        elif len(args) == 2:
            start, stop, step = args[0], args[1], self.const(1, w)
        else:
            start, stop, step = args
        elem = self.dtype_kw(e, w)
        self.error_if_zero(step, "ZeroDivisionError", "division by zero")
        # n = max(0, ceil((stop - start) / step))
        d = self.op(f"arith.sub{'f' if isf else 'i'} {stop.ssa}, {start.ssa} : {w}", w)
        if isf:
            q = self.op(f"arith.divf {d.ssa}, {step.ssa} : f64", "f64")
            c = self.op(f"math.ceil {q.ssa} : f64", "f64")
            n = self.cast(c, "i64")
        else:
            q = self.op(f"arith.ceildivsi {d.ssa}, {step.ssa} : i64", "i64")
            n = q
        z = self.const(0, "i64")
        n = self.op(f"arith.maxsi {n.ssa}, {z.ssa} : i64", "i64")
        ni = self.index(n)
        def element(ki):
            kw = self.cast(ki, w)
            m = self.op(f"arith.mul{'f' if isf else 'i'} {kw.ssa}, {step.ssa} : {w}", w)
            return self.op(f"arith.add{'f' if isf else 'i'} {start.ssa}, {m.ssa} : {w}", w)

        return self.fill_1d(ni, elem, element)

    def fill_1d(self, ni, elem, element):
        """A new 1-D array of `ni` (index SSA name) elements of type `elem`;
        element k is `element(k)` (k an i64 value), converted to `elem`."""
        t = ArrT(elem, 1)
        r = self.op(f"vrir.empty({ni}) : {t.mlir()}", t)
        c0 = self.op("arith.constant 0 : index", "index")
        c1 = self.op("arith.constant 1 : index", "index")
        k = self.fresh()
        self.raw(f"scf.for {k} = {c0.ssa} to {ni} step {c1.ssa} {{")
        ki = self.op(f"arith.index_cast {k} : index to i64", "i64")
        val = self.cast(element(ki), elem)
        self.emit(f"vrir.store {val.ssa}, {r.ssa}[{k}] flags [{NONE}] : {t.mlir()}[index]")
        self.raw("}")
        return r

    def call_np_issubdtype(self, e):
        a, b = self.call_args(e, 2, 2)
        if a.kind != "dtype":
            self.error("np.issubdtype needs a dtype (such as A.dtype) first")
        if b.kind == "dtype":
            return self.const(a.obj == b.obj, "i1")
        if b.kind == "func" and b.obj[0] == "np" and b.obj[1] in ABSTRACT_DTYPES:
            return self.const(kind(a.obj) in ABSTRACT_DTYPES[b.obj[1]], "i1")
        self.error("np.issubdtype's second argument must be a dtype or one of "
                   + ", ".join(f"np.{n}" for n in ABSTRACT_DTYPES))

    # vrir constructs used outside their statement
    def call_vrir_prange(self, e):
        self.error("vrir.prange(...) is only supported as the iterable of a for loop")

    def call_vrir_pfor(self, e):
        self.error("vrir.pfor(...) is only supported as the iterable of a for loop")

    def call_vrir_gpu(self, e):
        self.error("vrir.gpu() is only supported as 'with vrir.gpu():'")

    def call_vrir_gpu_begin(self, e):
        self.error("vrir.gpu_begin() is only supported as a statement of its own")

    call_vrir_gpu_end = call_vrir_gpu_begin


# The frontend recurses over the AST: an expression nested a few hundred
# deep (CPython compiles 1000 terms of `x + x + ...`) needs more than
# Python's default limit of 1000 frames.
COMPILE_RECURSION_LIMIT = 20000


def build_module(jitfn, argtypes, symbol, numpy_scalars=frozenset()):
    """The module text of `jitfn` for `argtypes`, and its result types; the
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
        sym, rts, _ = mb.specialize(jitfn, argtypes, public=True, symbol=symbol,
                                    weak_params=weak)
    except RecursionError:
        code = jitfn.py_func.__code__
        raise CompileError(f"{code.co_filename}:{code.co_firstlineno}: {jitfn.__name__} "
                           "nests expressions or statements too deeply to compile") from None
    finally:
        sys.setrecursionlimit(limit)
    return mb.text(), rts
