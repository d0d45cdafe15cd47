"""Expressions: dispatch by AST node, constants, names, tuples, unary and
boolean operators, conditional expressions, comparisons (chained, and
those decided while compiling such as `x is None` or `A.ndim == 2`), and
attributes (of modules, arrays, scalars and dtypes)."""
import ast
import cmath
import math
import types

import numpy as np

from ..types import ArrT, ELEM_TO_NP, is_complex, kind
from .numpy_table import BINARY_UFUNCS, PY_DTYPES
from .operators import ARITH_OPS, CMP_OPS
from .source import literal_truth
from .values import DTYPE_OBJECT, V


class Expressions:
    """The expression nodes (subscripts: arrays.py, calls: calls.py)."""

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

    def expr_BinOp(self, e):
        op = ARITH_OPS.get(type(e.op))
        if op is None:
            self.error(f"unsupported operator {type(e.op).__name__}")
        left, right = self.expr(e.left), self.expr(e.right)
        if left.kind == "list" or right.kind == "list" or self.is_static_list(left) \
                or self.is_static_list(right):
            return self.list_binop(op, left, right)
        return self.binop(op, left, right)

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

    def truth(self, v):
        if v.is_array:
            self.error("the truth value of an array is ambiguous")
        if v.kind == "none":
            return self.const(False, "i1")
        if v.kind == "list" or self.is_static_list(v):  # a list is true when not empty
            return self.cmp_scalar("ne", self.list_len(v), self.const(0, "i64"))
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
                         else literal_truth(values[0]))
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
        if a.kind == "tuple" and b.kind == "tuple" and isinstance(op, (ast.Eq, ast.NotEq)):
            return self.compare_tuples(op, a, b)
        r = self.static_compare(op, a, b)
        if r is not None:
            return r
        p = CMP_OPS.get(type(op))
        if p is None:
            self.error(f"unsupported comparison {type(op).__name__}")
        return self.compare(p, a, b)

    def compare_tuples(self, op, a, b):
        """`A.shape == B.shape` (or !=): equal lengths and equal items."""
        same = self.const(len(a.items) == len(b.items), "i1")
        if same.const:
            for x, y in zip(a.items, b.items):
                eq = self.compare_pair(ast.Eq(), x, y)
                if eq.const is not None and not eq.const:
                    same = eq
                    break
                if eq.const is None:
                    same = eq if same.const is not None else \
                        self.op(f"arith.andi {same.ssa}, {eq.ssa} : i1", "i1")
        if isinstance(op, ast.Eq):
            return same
        if same.const is not None:
            return self.const(not same.const, "i1")
        return self.op(f"arith.xori {same.ssa}, {self.const(True, 'i1').ssa} : i1", "i1")

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

    # --- attributes
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
                if at == "linalg":
                    return V(kind="module", obj="linalg")
                obj = getattr(np, at, None)
                if isinstance(obj, type) and obj in PY_DTYPES:
                    return V(kind="dtype", obj=PY_DTYPES[obj])
                if obj is None:
                    self.error(f"numpy has no attribute '{at}'")
                self.check_dtype_supported(obj, f"np.{at}")
                return V(kind="func", obj=("np", at))
            if mod in ("math", "cmath"):
                if at in ("pi", "e", "inf", "nan", "tau", "infj", "nanj"):
                    return self.pyconst(getattr(cmath if mod == "cmath" else math, at))
                return V(kind="func", obj=(mod, at))
            if mod == "vrir":
                return V(kind="func", obj=("vrir", at))
            if mod == "linalg":
                return V(kind="func", obj=("linalg", at))
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
                return self.derived(e.value, a, self.transpose(a))
            if at in ("real", "imag"):
                return self.derived(e.value, a, self.complex_part(at, a))
            if at in ("copy", "astype", "sum", "prod", "min", "max", "mean", "fill", "transpose",
                      "conj", "conjugate", "reshape", "clip", "argmax", "argmin", "cumsum",
                      "cumprod") or hasattr(self, f"method_{at}"):
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
        if base.kind == "list" or self.is_static_list(base):
            return V(kind="method", obj=("list", at), items=[base])
        if base.kind == "tuple" and at in ("count", "index"):
            self.error("tuple methods are not supported")
        if base.kind == "func" and base.obj[0] in ("np", "math", "cmath"):
            mod = {"np": "numpy"}.get(base.obj[0], base.obj[0])
            self.error(f"{mod}.{base.obj[1]}.{at} is not supported in compiled code")
        if base.kind == "jitfn":
            self.error(f"unsupported attribute '{at}' of a jit function")
        self.error(f"unsupported attribute '{at}' of {self.tyname(base)}")
