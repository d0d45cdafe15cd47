"""Calls: dispatch of a call to jit functions, program helpers (compiled
into the same module, specialised on their static arguments), dtypes,
array methods, NumPy/math/cmath functions and builtins; argument binding;
library functions written as Python templates and compiled in place
(inline); the builtins len, range, abs, int, float, bool, min, max, sum and
print; the vrir constructs used outside their statement."""
import ast
import inspect
import textwrap

import numpy as np

from ..errors import CompileError
from ..types import is_complex, kind, mlir_type
from .numpy_table import (BINARY_UFUNCS, COMPLEX_FNS, MAP_FLOAT_FNS, MATH_MAP_FNS, PY_DTYPES,
                          REDUCTIONS, UNARY_FLOAT_FNS)
from .scopes import STATIC_KINDS, StaticArg
from .source import assigned_names
from .statements import RAISABLE
from .values import BUILTIN_TYPE, DTYPE_OBJECT, V


# NumPy functions that take lists as sequences of arrays (or read them
# themselves), not as the array NumPy makes of a list
SEQUENCE_FUNCTIONS = ("array", "asarray", "concatenate", "stack", "hstack", "vstack", "row_stack",
                      "column_stack", "dstack", "block", "multi_dot", "meshgrid",
                      "broadcast_arrays")


class Calls:
    """Calls of functions, and the builtins."""

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
            converted = self.checked_float_to_int(args[0], fn.obj)
            if converted is None:
                converted = self.cast_value(args[0], fn.obj)
            # int(x) is a Python int, np.float32(x) a NumPy scalar
            return self.weak(converted, fn.items is BUILTIN_TYPE)
        if fn.kind == "method":
            if isinstance(fn.obj, tuple):  # ("list", name)
                return self.list_method(fn.obj[1], fn.items[0], e)
            return self.call_method(fn.obj, fn.items[0], e)
        if fn.kind != "func":
            self.error(f"cannot call a {self.tyname(fn)}")
        mod, name = fn.obj
        if mod in ("np", "linalg") and name not in SEQUENCE_FUNCTIONS:
            e = self.lists_as_arrays(e, f"{'np' if mod == 'np' else 'np.linalg'}.{name}")
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
                    "vrir": "vrir.", "linalg": "numpy.linalg."}[mod]
            self.error(f"call of {what}{name} is not supported in compiled code")
        return h(e)

    def call_args(self, e, lo, hi, kw=()):
        for k in e.keywords:
            if k.arg not in kw:
                self.error(f"unsupported keyword argument '{k.arg}'")
        if not lo <= len(e.args) <= hi:
            self.error(f"expected {lo}..{hi} arguments, got {len(e.args)}")
        return [self.expr(a) for a in e.args]

    @staticmethod
    def lists_as_tuples(e, position, keyword):
        """The call `e` with its argument at `position` (or its keyword
        argument `keyword`) read as tuples where it is written as (nested)
        lists: compiled code has no lists, but NumPy's sequence arguments
        (axes, pad widths) are often written so."""
        def convert(node):
            if not isinstance(node, (ast.List, ast.Tuple)):
                return node
            return ast.copy_location(
                ast.Tuple(elts=[convert(x) for x in node.elts], ctx=ast.Load()), node)
        args = [convert(a) if k == position else a for k, a in enumerate(e.args)]
        keywords = [ast.copy_location(ast.keyword(arg=k.arg, value=convert(k.value)), k)
                    if k.arg == keyword else k for k in e.keywords]
        return ast.copy_location(ast.Call(func=e.func, args=args, keywords=keywords), e)

    def kwargs(self, e):
        return {k.arg: self.expr(k.value) for k in e.keywords}

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
            assigned = assigned_names(jf.py_func)
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
            sym, rts, rweak, one_tuple = self.module.specialize(
                jf, types, public=False, where=self.where(e), weak_params=weak_params)
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
        if n == 1 and not one_tuple:
            return V(rts[0], r, weak=rweak[0])
        return V(kind="tuple", items=[V(t, f"{r}#{k}", weak=w)
                                      for k, (t, w) in enumerate(zip(rts, rweak))])

    # builtins
    def call_builtin_len(self, e):
        if e.keywords or len(e.args) != 1:
            self.error("len() takes one argument")
        a = self.list_operand(e.args[0])
        if a.kind == "list":
            return self.list_len(a)
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
        if a.ty == "ui64":  # beyond int64 it would wrap
            big = self.op(f"arith.cmpi slt, {a.ssa}, {self.const(0, 'i64').ssa} : i64", "i1")
            self.error_if(big, "OverflowError", "int() of a uint64 beyond int64 (VRIR's "
                          "integers are 64-bit)")
        return self.weak(self.cast_value(a, "i64"))

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
        if len(e.args) == 1 and not e.keywords:
            args = [self.list_operand(e.args[0])]
            if args[0].kind == "list" or self.is_static_list(args[0]):
                return self.list_extreme(which, args[0])
        else:
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
        if len(e.args) not in (1, 2) or any(k.arg != "start" for k in e.keywords) \
                or len(e.args) + len(e.keywords) > 2:
            self.error("sum() takes an iterable and a start")
        a = self.list_operand(e.args[0])
        start = e.args[1] if len(e.args) == 2 else e.keywords[0].value if e.keywords else None
        if a.kind in ("list", "tuple"):
            s = self.weak(self.const(0, "i64")) if start is None else self.expr(start)
            if a.kind == "list":
                return self.list_sum(a, s)
            for x in a.items:  # Python's sum: start + items[0] + ...
                s = self.binop("add", s, x)
            return s
        if start is not None:
            self.error("sum() with a start is supported for lists")
        if not a.is_array:
            self.error("sum() of a non-array")
        return self.reduce("sum", a, 0)

    def call_builtin_print(self, e):
        self.error("print() is not supported in compiled code")

    # library functions written as Python, compiled in place
    def inline(self, template, values, result):
        """Compiles the statements of `template` (Python source) where they
        are called, with the names in `values` bound to those values, `np`
        bound to NumPy and every other name but builtins renamed apart;
        returns the value of the template's variable `result` (a list of
        values for a tuple of names). Errors point at the user's call."""
        n = self.nssa
        self.nssa += 1
        tree = ast.parse(textwrap.dedent(template))
        # builtins and the exceptions `raise` takes keep their names
        kept = {"range", "len", "min", "max", "abs", "bool", "int", "float"} | set(RAISABLE)
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id == "np":
                # NumPy itself, whatever the user's module calls it
                node.id = "$numpy"
            elif isinstance(node, ast.Name) and node.id not in kept:
                node.id = f"$lib{n}_{node.id}"
            if hasattr(node, "lineno"):
                ast.copy_location(node, self.cur)
        self.globals["$numpy"] = np
        for name, v in values.items():
            self.assign_name(f"$lib{n}_{name}", v)
            if v.ssa is not None and v.ssa in self.readonly_values:
                # read-only inside too: a view the template returns stays so
                self.readonly_names[f"$lib{n}_{name}"] = self.readonly_values[v.ssa]
        self.suite(tree.body)
        if isinstance(result, tuple):
            return [self.load_name(f"$lib{n}_{r}", self.cur) for r in result]
        return self.load_name(f"$lib{n}_{result}", self.cur)

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
