"""For loops: over range(), over arrays (`for x in A`, enumerate, zip), and
the parallel loops vrir.prange and vrir.pfor with their shared arrays and
reductions."""
import ast
import math

from ..types import ArrT, ListT, TupT, int_range, mlir_type
from .values import V


def reduction_identity(kind_, ty):
    """The start of each iteration's private copy of a reduction variable:
    -0.0 for a float sum (the sum of negative zeros is -0.0), 0, 1, or the
    extreme value of `ty` for min and max."""
    is_float = ty in ("f32", "f64")
    if kind_ == "sum":
        return -0.0 if is_float else 0
    if kind_ == "prod":
        return 1.0 if is_float else 1
    big = math.inf if is_float else int_range(ty)[1]
    return big if kind_ == "min" else (-big if is_float else -big - 1)


class Loops:
    """Sequential and parallel for loops."""

    def stmt_For(self, s):
        self.dyn_depth += 1
        try:
            self.for_loop(s)
        finally:
            self.dyn_depth -= 1

    def for_loop(self, s):
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
                 "an array, a list, a tuple, enumerate(array or list[, start]) or "
                 "zip(arrays or lists...)")
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
            ty = self.var_types.get(name)
            if isinstance(ty, TupT) and len(sources) == 1:
                if isinstance(src, ast.Name):
                    self.check_unchanged_in(s.body, src.id, "a for loop")
                return self.for_unrolled(s, self.load_name(name, s).items, targets[0], start)
            if isinstance(ty, ListT) and isinstance(src, ast.Name):
                self.check_unchanged_in(s.body, src.id, "a for loop")
            if not isinstance(ty, (ArrT, ListT)):
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

    def for_unrolled(self, s, items, target, start):
        """`for x in items` (and enumerate) over a tuple or a list written
        out of arrays: the body once per item, as the items are known
        while compiling."""
        exit_ = self.label()
        state = {"exit": False}
        for k, item in enumerate(items):
            following = self.label()
            if start is not None or target is not s.target:
                index = self.weak(self.const(k, "i64"))
                if start is not None:
                    index = self.binop("add", index, self.expr(start))
                self.assign(s.target.elts[0], index)
            self.assign(target, item)
            self.cur = s
            state["continued"] = False
            self.loops.append((following, exit_, state))
            self.suite(s.body)
            self.loops.pop()
            if not self.terminated:
                self.br(following)
            elif not state["continued"]:
                break  # the items after are never reached
            self.start_block(following)
        else:
            self.br(exit_)
            self.start_block(exit_)
            return
        if state["exit"]:
            self.start_block(exit_)
        else:
            self.terminated = True

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
        if not isinstance(ty, str) or ty not in ("f64", "f32", "i64", "i32", "i16", "i8", "ui64",
                                                 "ui32", "ui16", "ui8"):
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
        k = kinds.pop()
        if k in ("min", "max") and ty.startswith("ui"):
            self.error(f"a {k} reduction of an unsigned integer ('{name}') in a parallel loop "
                       "is not supported (reduce a signed or float variable)")
        return k, ty
