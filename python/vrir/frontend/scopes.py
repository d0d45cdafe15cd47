"""Variables and scopes: the region an emitter writes into, the scopes of
the function, of pfor bodies and gpu sections, the static arguments a
callee is specialised on; and the emitter's variables (vrir.alloca slots,
reads and writes, type fixed point on assignment, name lookup through the
function's globals and builtins, and the capture of outer variables by nested
scopes)."""
import ast
import builtins
import cmath
import math
import types
from dataclasses import dataclass

import numpy as np

from .. import constructs
from ..types import ELEM_TO_NP, ListT, TupT, mlir_type, promote_weak
from .numpy_table import PY_DTYPES
from .source import is_user_function
from .values import BUILTIN_TYPE, DTYPE_OBJECT, Restart, V


class Region:
    """The lines emitted into a function body, a pfor body, a gpu section or
    a vrir.map body: its allocas (first) and its other lines."""

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


class Variables:
    """Variable slots, assignment, name lookup and nested scopes."""

    def lookup_slot(self, name):
        return self.scope.slots.get(name)

    def new_slot(self, name, ty):
        s = self.fresh()
        self.region.allocas.append(
            f'{s} = vrir.alloca "{name}" : !vrir.var<{mlir_type(ty)}> {self.loc()}')
        self.scope.slots[name] = s
        return s

    def assign_name(self, name, v, node=None):
        if v.kind in ("tuple", "list"):
            self.check_list_binding(name, v)
        if v.kind == "tuple":
            ty = TupT(tuple(x.ty for x in v.items), self.is_static_list(v))
            if any(x.kind is not None for x in v.items):
                self.error("nested tuples or non-value tuple items cannot be stored")
        elif v.kind == "list":
            ty = v.ty
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
        if isinstance(ty, ListT):
            self.write_var(f"{name}.buf", v.items[0], ty.buffer())
            self.write_var(f"{name}.len", v.items[1], "i64")
            return
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
        if isinstance(ty, ListT):
            buf = self.read_var(f"{name}.buf", ty.buffer())
            if buf is None:
                return None
            length = self.weak(self.read_var(f"{name}.len", "i64"))
            return V(ty, kind="list", items=[buf, length], obj=name)
        if isinstance(ty, TupT):
            items = [self.read_var(f"{name}.{k}", t) for k, t in enumerate(ty.items)]
            if ty.is_list:  # the list's items, and the variable that holds it
                return V(ty, kind="tuple", items=items, obj=("list", name))
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
        first = f"{name}.0" if isinstance(ty, TupT) else f"{name}.buf" \
            if isinstance(ty, ListT) else name
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
                why = self.readonly_names.get(name)
                if why and v.ssa is not None:
                    self.readonly_values[v.ssa] = why
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

    def check_dtype_supported(self, obj, name, node=None):
        """A NumPy scalar type VRIR has no element type for (np.uint8,
        np.float16, ...) is a CompileError naming it."""
        if isinstance(obj, type) and issubclass(obj, np.generic) and obj not in PY_DTYPES \
                and not obj.__subclasses__():  # a concrete type, not np.integer ...
            self.error(f"{name} (dtype {np.dtype(obj).name}) is not supported in compiled code "
                       "(supported: float64, float32, int64, int32, int16, int8, bool, "
                       "complex128, complex64)", node)

    def wrap_object(self, obj, name, node):
        if obj is np:
            return V(kind="module", obj="np")
        if obj is math:
            return V(kind="module", obj="math")
        if obj is cmath:
            return V(kind="module", obj="cmath")
        if obj is np.linalg:
            return V(kind="module", obj="linalg")
        if constructs.is_vrir_module(obj):
            return V(kind="module", obj="vrir")
        if isinstance(obj, constructs.JitFunctionBase):
            return V(kind="jitfn", obj=obj)
        if constructs.is_vrir_function(obj):
            return V(kind="func", obj=("vrir", obj.__name__))  # prange, pfor, Domain, gpu...
        if isinstance(obj, type) and obj in PY_DTYPES:
            return V(kind="dtype", obj=PY_DTYPES[obj],
                     items=BUILTIN_TYPE if obj in (bool, int, float, complex) else None)
        self.check_dtype_supported(obj, name, node)
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
        if callable(obj) and getattr(obj, "__module__", "") == "numpy.linalg":
            return V(kind="func", obj=("linalg", obj.__name__))
        if isinstance(obj, types.FunctionType):
            if obj.__name__ == "<lambda>":
                self.error(f"'{name}' is a lambda: calls of lambdas are not supported in "
                           "compiled code (define the function with def)", node)
            if is_user_function(obj):
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
