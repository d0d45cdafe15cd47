"""Statements other than for loops: blocks (and the vrir.gpu_begin()/
gpu_end() sections in them), assignments (to names, tuples, subscripts and
the parts of complex arrays, in-place updates of arrays), if, while, break,
continue, return, and `with vrir.gpu():` sections."""
import ast

from ..types import ArrT, TupT, is_complex, kind, mlir_type
from .operators import ARITH_OPS
from .values import Restart, V

# The exceptions `raise` may name: runtime.py raises them again in Python.
RAISABLE = ("ArithmeticError", "AssertionError", "Exception", "FloatingPointError",
            "IndexError", "KeyError", "LookupError", "NotImplementedError", "OverflowError",
            "RuntimeError", "TypeError", "ValueError", "ZeroDivisionError")


class Statements:
    """The statement nodes except for loops (loops.py)."""

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

    def stmt_Raise(self, s):
        """`raise E` / `raise E("constant message")` for the exceptions
        runtime.py raises again in Python (RAISABLE). At function level the
        rest of the block is dead; in a parallel loop the error is recorded
        and raised after the loop (vrir-parallel-error-scopes)."""
        if s.exc is None:
            self.error("a bare 'raise' (re-raising) is not supported")
        exc, msg = self.exception_of(s.exc)
        if self.scope.kind != "function":
            self.error_if(self.const(True, "i1"), exc, msg)
            return
        name = self.module.message(f"{exc}: {msg}")
        p = self.op(f"llvm.mlir.addressof @{name} : !llvm.ptr", "ptr")
        self.emit(f"llvm.call @vrir_rt_error({p.ssa}) : (!llvm.ptr) -> ()")
        # Never reached (vrir_rt_error does not return): a return whose
        # values are written once the function's result types are known.
        self.unreachable_returns.append((self.region, len(self.region.lines), self.loc()))
        self.raw("")
        self.terminated = True

    def stmt_Assert(self, s):
        """`assert test, "message"`: AssertionError when the test fails."""
        msg = ""
        if s.msg is not None:
            if not (isinstance(s.msg, ast.Constant) and isinstance(s.msg.value, str)):
                self.error("the message of an assert must be a constant string")
            msg = s.msg.value
        failed = self.op(f"arith.xori {self.condition(s.test).ssa}, "
                         f"{self.const(True, 'i1').ssa} : i1", "i1")
        self.error_if(failed, "AssertionError", msg)

    def exception_of(self, e):
        """The name and message of a raised exception: a class of RAISABLE,
        called with no argument or one constant string."""
        call = e if isinstance(e, ast.Call) else None
        cls = call.func if call else e
        if not (isinstance(cls, ast.Name) and cls.id in RAISABLE):
            self.error("raise supports the built-in exceptions "
                       f"{', '.join(sorted(RAISABLE))}")
        msg = ""
        if call:
            if call.keywords or len(call.args) > 1:
                self.error(f"{cls.id}(...) takes one message")
            if call.args:
                arg = call.args[0]
                if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
                    self.error("the message of a raised exception must be a constant string")
                msg = arg.value
        return cls.id, msg

    def finish_unreachable_returns(self):
        """Writes the returns after `raise`: zeros (never used) of the
        function's result types."""
        types = self.result_types()
        for region, at, loc in self.unreachable_returns:
            zero = self.fresh()
            lines, values = [f"{zero} = arith.constant 0 : index {loc}"], []
            for t in types:
                r = self.fresh()
                if isinstance(t, ArrT):
                    zeros = ", ".join([zero] * t.rank)
                    new = ArrT(t.elem, t.rank, "row_major" if t.layout == "strided"
                               else t.layout)
                    made = self.fresh() if t.layout == "strided" else r
                    lines.append(f"{made} = vrir.empty({zeros}) : {new.mlir()} {loc}")
                    if t.layout == "strided":  # a view (vrir.empty makes contiguous arrays)
                        lines.append(f"{r} = vrir.slice {made}[] : {new.mlir()} -> "
                                     f"{t.mlir()} {loc}")
                elif is_complex(t):
                    lines.append(f"{r} = complex.constant [0.0, 0.0] : {t} {loc}")
                elif kind(t) == 2:
                    lines.append(f"{r} = arith.constant 0.0 : {t} {loc}")
                else:
                    lines.append(f"{r} = arith.constant 0 : {t} {loc}")
                values.append(r)
            ret = "func.return"
            if values:
                ret += f" {', '.join(values)} : {', '.join(mlir_type(t) for t in types)}"
            region.lines[at] = "\n  ".join(lines + [f"{ret} {loc}"])

    def stmt_Pass(self, s):
        pass

    def stmt_Expr(self, s):
        if isinstance(s.value, ast.Constant):
            return  # docstring
        if isinstance(s.value, ast.Call) and self.list_statement(s.value):
            return
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
        why = self.readonly_reason(target, base)
        if why:
            self.error(f"assignment destination is read-only ({why})")

    def readonly_reason(self, node, v):
        """Why the array `v` (the value of `node`) is read-only, or None."""
        return (v.ssa is not None and self.readonly_values.get(v.ssa)) or (
            isinstance(node, ast.Name) and self.readonly_names.get(node.id)) or None

    def assign(self, t, v):
        self.cur = t
        if isinstance(t, ast.Name):
            if v.ssa is not None and v.ssa in self.readonly_values:
                self.readonly_names[t.id] = self.readonly_values[v.ssa]
            else:
                self.readonly_names.pop(t.id, None)
            self.assign_name(t.id, v, t)
        elif isinstance(t, (ast.Tuple, ast.List)):
            if v.is_array:
                v = self.unpack_array(v, t.elts)
            if v.kind == "list" or self.is_static_list(v):
                v = self.unpack_list(v, len(t.elts))
            if v.kind != "tuple":
                self.error("only tuples, lists and arrays can be unpacked")
            if len(v.items) != len(t.elts):
                self.error(f"cannot unpack {len(v.items)} values into {len(t.elts)} targets")
            for tt, vv in zip(t.elts, v.items):
                self.assign(tt, vv)
        elif isinstance(t, ast.Subscript):
            if self.is_list_name(t.value):
                return self.list_store(t, v)
            base = self.expr(t.value)
            if not base.is_array:
                self.error(f"item assignment on a {self.tyname(base)}")
            self.check_writable(t.value, base)
            plan = self.index_plan(base, t.slice)
            self.store_plan(base, plan, v)
        elif isinstance(t, ast.Attribute):
            part = self.part_target(t)
            self.store_plan(part, [], v)
        else:
            self.error(f"unsupported assignment target {type(t).__name__}")

    def unpack_array(self, a, targets):
        """`x, y = A` unpacks A as Python unpacks a sequence: its first axis
        must have as many items as there are targets (ValueError at run time
        otherwise), and each target gets A[k]: an element of a vector, a
        view of a higher-rank array."""
        if any(isinstance(x, ast.Starred) for x in targets):
            self.error("starred unpacking of an array is not supported")
        n = len(targets)
        length, count = self.dim(a, 0), self.const(n, "index").ssa
        for pred, what in (("sgt", "too many"), ("slt", "not enough")):
            wrong = self.op(f"arith.cmpi {pred}, {length}, {count} : index", "i1")
            self.error_if(wrong, "ValueError",
                          f"{what} values to unpack (expected {n}) from the array's first axis")
        items = []
        for k in range(n):
            index = ast.copy_location(ast.Constant(value=k), self.cur)
            items.append(self.load_plan(a, self.index_plan(a, index)))
        return V(kind="tuple", items=items)

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
        if isinstance(t, ast.Name) and self.is_list_name(t):
            if op != "add":
                self.error(f"the augmented assignment {type(s.op).__name__} of a list is not "
                           "supported (lst += other extends it)")
            lst, other = self.mutable_list(t.id, t), self.list_operand(s.value)
            if other.kind != "list":
                # NumPy's operator wins: `lst += array` adds element-wise
                self.error(f"'{t.id} += ...' of a {self.tyname(other)} is not supported "
                           f"(Python extends a list by a list only; use {t.id}.extend(...))")
            return self.list_extend(t.id, lst, other)
        if isinstance(t, ast.Subscript) and self.is_list_name(t.value):
            return self.list_store(t, self.expr(s.value), op)
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
        is_tuple = False
        if s.value is None:
            vals = []
        else:
            v = self.expr(s.value)
            if v.kind == "none":
                vals = []
            elif v.kind == "tuple" and not self.is_static_list(v):
                vals = v.items
                is_tuple = True
            else:
                vals = [v]
        vals = [self.returned_list(x) if x.kind == "list" or self.is_static_list(x) else x
                for x in vals]
        for x in vals:
            if x.kind is not None:
                self.error(f"cannot return a {x.kind}")
        tys = tuple(x.ty for x in vals)
        if len(vals) == 1:
            # `return (x,)` gives a tuple of one item, `return x` the item
            if self.ret_types[2] is not None and self.ret_types[2] != is_tuple:
                self.error("all return statements must return a tuple of one item, "
                           "or all the item itself")
            self.ret_types[2] = is_tuple
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
