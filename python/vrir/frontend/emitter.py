"""FunctionEmitter: one Python function (for one list of argument types) to
one MLIR func.func. Every Python variable is a `vrir.alloca` slot
(read/written with `vrir.read`/`vrir.write`) and control flow is a CFG of
`cf` branches; the backend pipeline (vr-run) runs mem2reg and
lift-cf-to-scf. Types are inferred while emitting: when a variable is
assigned a wider type than the one it was given, emission restarts with the
wider type (a small fixed point).

The class is put together from one class per subject (the modules beside
this one); this module holds its state and the basics of emission: SSA
names, blocks and branches, constants, run-time error checks, and the
function's signature and body."""
import ast
import re
import struct

import numpy as np

from ..errors import CompileError
from ..types import (ArrT, C128, NP_TO_ELEM, PYTHON_NUMBER_TYPES, bits, is_complex, is_unsigned,
                     mlir_type, real_of)
from .arrays import ArrayAccess
from .calls import Calls
from .elementwise import ElementwiseFunctions
from .contractions import Contractions
from .expressions import Expressions
from .inference import TypeInference
from .library import NumPyLibrary
from .histograms import Histograms
from .linalg import LinearAlgebra
from .lists import Lists
from .loops import Loops
from .numpy_arrays import ArrayFunctions
from .operators import Operators
from .reductions import Reductions
from .scopes import Region, Scope, StaticArg, Variables
from .sorting import Sorting
from .source import SourceAnalysis, lower_loop_else, source_of
from .statements import Statements
from .values import V


# operations whose result depends on the signedness of integer operands
SIGNED_OPS = re.compile(r"\b(vrir\.(cmp|cast|unary (?!neg\b|not\b)\w+|reduce (min|max)|binary (div|rem|min|max|pow))\b"
                        r"|arith\.(cmpi s|divsi|remsi|extsi|sitofp|fptosi|shrsi|maxsi|minsi"
                        r"|floordivsi|ceildivsi|index_cast )|math\.ipowi)")
UNSIGNED_TYPE = re.compile(r"(?<![\w%@^#$.])ui(8|16|32|64)\b")
NP_NAMES = {"ui8": "uint8", "ui16": "uint16", "ui32": "uint32", "ui64": "uint64"}


def f_hex(value, ty):
    if ty == "f32":
        return "0x%08X" % struct.unpack(">I", struct.pack(">f", value))[0]
    return "0x%016X" % struct.unpack(">Q", struct.pack(">d", value))[0]


# The ops whose result may share its operand's elements (vrir.reshape views
# contiguous arrays).
VIEW_OPS = ("vrir.permute ", "vrir.expand_dims ", "vrir.reshape ", "vrir.slice ",
            "vrir.part_view ")


class FunctionEmitter(SourceAnalysis, Variables, TypeInference, Statements,
                      Loops, Lists, Expressions, Operators, ArrayAccess,
                      Calls, ElementwiseFunctions, Reductions, ArrayFunctions,
                      LinearAlgebra, Contractions, NumPyLibrary, Sorting, Histograms):
    """Emits one function: the subjects' methods (see the bases) on the
    state set up here."""

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
        src, self.first_line, self.col_shift = source_of(self.pyfunc)
        tree = ast.parse(src)
        self.fdef = tree.body[0]
        if not isinstance(self.fdef, ast.FunctionDef):
            raise CompileError("@vrir.jit applies to functions")
        lower_loop_else(self.fdef)
        self.nssa = 0
        self.nlabel = 0
        self.statics = {}  # parameter -> StaticArg
        self.dyn_depth = 0  # nesting in run-time branches and loops
        self.region = Region()
        self.scope = Scope("function")
        self.terminated = False
        self.loops = []
        self.unreachable_returns = []  # after `raise` (Statements.stmt_Raise)
        self.cur = self.fdef
        self.def_lines = {}  # ssa -> index in region.lines of its op
        # SSA names of arrays that are read-only (.imag of a real array, the
        # arrays of a list) and the variables bound to one: why they are
        self.readonly_values, self.readonly_names = {}, {}
        # comprehensions whose lists are used at once (np.array([...]))
        self.temporary_lists = set()
        self.globals = dict(self.pyfunc.__globals__)
        if self.pyfunc.__closure__:
            for name, cell in zip(self.pyfunc.__code__.co_freevars,
                                  self.pyfunc.__closure__):
                try:
                    self.globals[name] = cell.cell_contents
                except ValueError:
                    pass

    def fresh(self):
        self.nssa += 1
        return f"%v{self.nssa}"

    def label(self):
        self.nlabel += 1
        return f"^bb{self.nlabel}"

    def emit(self, text):
        if "ui" in text:
            self.check_unsigned_op(text)
        self.region.lines.append(f"{text} {self.loc()}")

    def check_unsigned_op(self, text):
        """The safety net of the unsigned integers (VRIR's integers are
        signless; its library ops treat them as signed): an operation whose
        result depends on signedness must not reach an unsigned operand. The
        frontend emits the unsigned forms itself; any path that does not is
        a CompileError naming the construct, never a wrong answer."""
        m = SIGNED_OPS.search(text)
        if m and UNSIGNED_TYPE.search(text):
            name = UNSIGNED_TYPE.search(text).group(0)
            self.error(f"this operation on unsigned integers ({NP_NAMES[name]}: "
                       f"{m.group(0).strip()}) is not supported yet")

    def op(self, text, ty):
        """Emit `%r = text` and return V of type ty. A view of a read-only
        array is read-only, whichever construct (a method, a NumPy
        function, a template) made it."""
        r = self.fresh()
        self.def_lines[r] = (self.region, len(self.region.lines))
        self.emit(f"{r} = {text}")
        if text.startswith(VIEW_OPS) and self.readonly_values:
            why = self.readonly_values.get(re.search(r"%[\w$.]+", text).group())
            if why:
                self.readonly_values[r] = why
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
            n = int(value)
            if is_unsigned(ty) and n >= 2 ** (bits(ty) - 1):
                n -= 2 ** bits(ty)  # the same bits as a signless constant
            v = self.op(f"arith.constant {n} : {ty}", ty)
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

    def index(self, v):
        """An integer scalar as an `index` ssa."""
        v = self.to_int(v)
        cast = "index_castui" if is_unsigned(v.ty) else "index_cast"
        return self.op(f"arith.{cast} {v.ssa} : {v.ty} to index", "index").ssa

    def from_index(self, ssa):
        return self.op(f"arith.index_cast {ssa} : index to i64", "i64")

    def dim(self, a, k):
        return self.op(f"vrir.dim {a.ssa}, {k} : {a.ty.mlir()}", "index").ssa

    def to_strided(self, v):
        t = ArrT(v.ty.elem, v.ty.rank, "strided")
        return self.op(f"vrir.slice {v.ssa}[] : {v.ty.mlir()} -> {t.mlir()}", t)

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
        self.finish_unreachable_returns()
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

    def result_types(self):
        r = self.ret_types[0]
        return list(r) if r else []

    def returns_one_tuple(self):
        """Whether the one result is a tuple of one item (`return (x,)`)."""
        return len(self.result_types()) == 1 and bool(self.ret_types[2])

    def result_weakness(self):
        """Per result, whether every return gives a Python scalar."""
        w = self.ret_types[1]
        return list(w) if w else [False] * len(self.result_types())
