"""Python lists in compiled code. A list of numbers of one type (or of
arrays of one rank and shape) built while running (a literal of numbers, a
comprehension, `append`/`extend` in loops) is a ListT: a buffer whose first
`len` rows are its items, reallocated at twice the size when full
(amortised O(1) appends). A list written out of arrays (`[w1, w2, w3]`) is
a fixed list of those arrays themselves, stored as a tuple's items are:
`for w in ws` unrolls, indices are constants. What Python lists can do
beyond these (mixed types, lists of lists, pop/insert, a second name for a
list that changes) is a CompileError naming the construct and the line."""
import ast
import copy
import sys
import types

from .. import constructs
from ..types import ArrT, ListArrT, ListT, kind, promote_weak
from .values import Restart, V

# list methods that change a list in place, and those compiled code refuses
MUTATORS = ("append", "extend")
REFUSED_METHODS = ("pop", "insert", "remove", "reverse", "sort", "clear", "index", "count")
# operations whose array result is new (no other name can see it)
FRESH_OPS = ("vrir.empty", "vrir.zeros", "vrir.binary", "vrir.unary", "vrir.map", "vrir.cast",
             "vrir.copy", "vrir.matmul", "vrir.matvec", "vrir.reduce", "vrir.cmp",
             "vrir.select", "vrir.gather")
READ_ONLY_ITEM = ("the arrays of a list built while running are read-only in compiled code "
                  "(they are rows of one buffer, which moves when the list grows, so a "
                  "name bound to an item would not see a change); build a new array or "
                  "a new list, or use a 2-D array")
SHARED_ARRAY = ("a list built while running holds copies of its arrays (rows of one "
                "buffer), so only new arrays (results of arithmetic or of NumPy functions) "
                "can be added to it: this one is a variable, a view or an argument, which "
                "Python's list would share; add a copy (x.copy())")


def renamed(node, names):
    """A copy of the AST `node` with the names in `names` renamed."""
    node = copy.deepcopy(node)
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and n.id in names:
            n.id = names[n.id]
    return node


class Lists:
    """List values, their methods, builtins and conversions to arrays."""

    # ------------------------------------------------------------ values
    @staticmethod
    def is_static_list(v):
        return v.kind == "tuple" and isinstance(v.obj, tuple) and v.obj[:1] == ("list",)

    def is_list_name(self, node):
        """Whether `node` names a list variable (built while running, or
        written out of arrays)."""
        if not isinstance(node, ast.Name):
            return False
        ty = self.var_types.get(node.id)
        return isinstance(ty, ListT) or getattr(ty, "is_list", False)

    def check_list_binding(self, name, v):
        """Python's lists are shared by every name bound to them; compiled
        code copies them, so a second name for a list is refused."""
        owner = v.obj[1] if self.is_static_list(v) else v.obj if v.kind == "list" else None
        if owner is not None and owner != name and not name.startswith("$"):
            held = f"the list '{owner}'" if not owner.startswith("$") else "a list another name holds"
            self.error(f"'{name} = ...' binds a second name to {held}: not supported in "
                       "compiled code (Python's lists are shared between their names); "
                       f"bind a copy (list(...))")

    def empty_list(self):
        return V(ListT(None, True), kind="list", items=[None, self.weak(self.const(0, "i64"))])

    def item_type(self, v, what):
        """The ListT of a list holding `v`."""
        if v.is_array:
            return ListT(ArrT(v.ty.elem, v.ty.rank))
        if v.is_scalar:
            return ListT(v.ty, bool(v.weak))
        if v.kind in ("list", "tuple"):
            self.error(f"{what}: lists of lists or of tuples are not supported in compiled "
                       "code (use a 2-D array)")
        self.error(f"{what}: a list of {self.tyname(v)} is not supported in compiled code")

    def unify_lists(self, a, b, what):
        if a.item is None:
            return b if b.item is not None else ListT(None, a.weak and b.weak)
        if b.item is None:
            return a
        mixed = f"{what}: a list mixing {a.item} and {b.item} items (compiled lists hold " \
                "items of one type: numbers of one kind, or arrays of one dtype and rank)"
        if isinstance(a.item, ArrT) or isinstance(b.item, ArrT):
            if a.item != b.item:
                self.error(mixed)
            return a
        ka, kb = kind(a.item), kind(b.item)
        if ka != kb and {ka, kb} != {1, 2}:
            self.error(mixed)  # only ints widen to floats, as a variable's do
        if a.weak != b.weak:  # NEP 50: a NumPy scalar's type wins
            strong, weak = (a.item, b.item) if b.weak else (b.item, a.item)
            return ListT(promote_weak(strong, weak), False)
        return ListT(self.unify(a.item, b.item, what), a.weak)

    def convert_list(self, v, ty, what):
        if v.kind != "list":
            self.error(f"{what}: cannot convert {self.tyname(v)} to a list")
        buf, n = v.items
        bt = ty.buffer()
        if buf is None:  # `[]`: room for nothing yet
            zeros = ", ".join([self.const(0, "index").ssa] * bt.rank)
            buf = self.op(f"vrir.empty({zeros}) : {bt.mlir()}", bt)
        elif buf.ty != bt:
            buf = self.convert(self.cast(buf, bt.elem), bt, what)
        return V(ty, kind="list", items=[buf, n], obj=v.obj)

    def list_of(self, values, what):
        """A new list of the numbers `values`."""
        ty = ListT(None, True)
        for v in values:
            ty = self.unify_lists(ty, self.item_type(v, what), what)
        bt = ty.buffer()
        size = self.const(len(values), "index").ssa
        buf = self.op(f"vrir.empty({size}) : {bt.mlir()}", bt)
        for k, v in enumerate(values):
            x = self.cast(v, ty.item)
            self.emit(f"vrir.store {x.ssa}, {buf.ssa}[{self.const(k, 'index').ssa}] : "
                      f"{bt.mlir()}[index]")
        return V(ty, kind="list", items=[buf, self.weak(self.const(len(values), "i64"))])

    def list_value(self, v, what):
        """The parts (buffer, length) of a list built while running."""
        v = self.convert_list(v, v.ty, what)
        return v.items

    def expr_List(self, e):
        if self.in_gpu_section():
            self.error("lists are not supported in gpu sections")
        if any(isinstance(x, ast.Starred) for x in e.elts):
            self.error("starred items in a list are not supported")
        if not e.elts:
            return self.empty_list()
        items = [self.expr(x) for x in e.elts]
        if all(v.is_array for v in items):
            return V(kind="tuple", items=items, obj=("list", None))
        if any(v.is_array for v in items) and all(v.is_array or v.is_scalar for v in items):
            self.error("a list mixing arrays and numbers is not supported in compiled code")
        return self.list_of(items, "list")

    # ------------------------------------------------------ comprehensions
    def expr_ListComp(self, e, temporary=False):
        """`[elt for t in it if c ...]` as the loops Python runs, appending to
        a new list; the targets are renamed apart (they are local to the
        comprehension). A `temporary` list is used at once (np.array(...),
        sum(...)): it may copy arrays that other names see."""
        if self.in_gpu_section():
            self.error("lists are not supported in gpu sections")
        n = self.nssa
        self.nssa += 1
        name = f"$lc{n}"
        names = {}
        loops = []
        for k, gen in enumerate(e.generators):
            if gen.is_async:
                self.error("async comprehensions are not supported")
            it = gen.iter if k == 0 else renamed(gen.iter, names)
            for t in ast.walk(gen.target):
                if isinstance(t, ast.Name):
                    names[t.id] = f"{name}_{t.id}"
            loops.append((renamed(gen.target, names), it, [renamed(c, names) for c in gen.ifs]))
        elt = renamed(e.elt, names)
        add = ast.Expr(ast.Call(ast.Attribute(ast.Name(name, ast.Load()), "append", ast.Load()),
                                [elt], []))
        body = [add]
        for target, it, ifs in reversed(loops):
            for c in reversed(ifs):
                body = [ast.If(c, body, [])]
            body = [ast.For(target, it, body, [])]
        loop = ast.fix_missing_locations(ast.copy_location(body[0], e))
        for node in ast.walk(loop):
            if not hasattr(node, "lineno") or node.lineno is None:
                ast.copy_location(node, e)
        if temporary and not self.calls_user_code(e.elt):
            self.temporary_lists.add(name)
        self.assign_name(name, self.empty_list())
        self.stmt(loop)
        v = self.load_name(name, e)
        return V(v.ty, kind="list", items=v.items, obj=None)  # a new list

    def calls_user_code(self, node):
        """Whether `node` calls functions of the program (which may change
        arrays) or NumPy functions with out=."""
        for n in ast.walk(node):
            if isinstance(n, ast.Call):
                if any(k.arg == "out" for k in n.keywords):
                    return True
                obj = self.static_object(n.func)
                if isinstance(obj, (constructs.JitFunctionBase, types.FunctionType)) or \
                        (obj is None and not isinstance(n.func, ast.Attribute)):
                    return True
        return False

    def expr_GeneratorExp(self, e):
        self.error("generator expressions are supported as the argument of sum(), min(), "
                   "max() and list() (or write a list comprehension)")

    def list_operand(self, node):
        """The value of `node`, where a comprehension or generator makes a
        list used at once."""
        if isinstance(node, (ast.ListComp, ast.GeneratorExp)):
            saved = self.cur
            self.cur = node
            try:
                return self.expr_ListComp(node, temporary=True)
            finally:
                self.cur = saved
        return self.expr(node)

    # ------------------------------------------------------ items and len
    def list_len(self, v):
        if self.is_static_list(v):
            return self.weak(self.const(len(v.items), "i64"))
        return v.items[1]

    def list_index(self, v, i):
        """The item at index `i` (an int; negative from the end)."""
        if not i.is_scalar or kind(i.ty) > 1:
            self.error(f"list indices must be integers or slices, not {self.tyname(i)}")
        if self.is_static_list(v):
            if i.const is None:
                self.error("a list written out of arrays is indexed by integer constants only "
                           "(its items are fixed while compiling)")
            if not -len(v.items) <= i.const < len(v.items):
                self.error("list index out of range")
            return v.items[i.const]
        buf, n = self.list_value(v, "list index")
        r = self.template("""
            k = i
            if k < 0:
                k = k + n
            if k < 0 or k >= n:
                raise IndexError("list index out of range")
            r = b[k]
        """, {"b": buf, "n": n, "i": self.cast(i, "i64")})
        if r.is_array:
            self.readonly_values[r.ssa] = READ_ONLY_ITEM
            return r
        return self.weak(r, v.ty.weak)

    def unpack_list(self, v, count):
        """`x, y = lst`: ValueError as Python's for another length."""
        if self.is_static_list(v):
            return v
        n = self.list_len(v)
        wrong = self.cmp_scalar("ne", n, self.const(count, "i64"))
        self.error_if(wrong, "ValueError", f"the list does not unpack into {count} targets")
        return V(kind="tuple", items=[self.list_index(v, self.weak(self.const(k, "i64")))
                                      for k in range(count)])

    def list_subscript(self, v, e):
        if isinstance(e.slice, ast.Slice):
            if self.is_static_list(v):
                self.error("slices of a list written out of arrays are not supported")
            buf, n = self.list_value(v, "list slice")
            view = self.template("r = b[:n]", {"b": buf, "n": n})
            part = self.copy(self.load_plan(view, self.index_plan(view, e.slice)))
            return V(v.ty, kind="list", items=[self.convert(part, v.ty.buffer()),
                                              self.weak(self.from_index(self.dim(part, 0)))])
        return self.list_index(v, self.expr(e.slice))

    def list_store(self, t, value, op=None):
        """`lst[i] = value` (or `lst[i] op= value`, with `value` the right
        operand) for a list variable `lst`."""
        name = t.value.id
        if isinstance(t.slice, ast.Slice):
            self.error("assignment to a slice of a list is not supported")
        v = self.mutable_list(name, t.value)
        if v.kind == "list" and isinstance(v.ty.item, ArrT):
            # A name bound to the item (or a view of it) before the list grew
            # would keep the old row, where Python shares the array.
            self.error(f"changing an item of the list '{name}' of arrays: {READ_ONLY_ITEM}")
        i = self.expr(t.slice)
        if op is not None:
            cur = self.list_index(v, i)
            if cur.is_array:  # in place, as ndarray's op= does: the item itself
                self.update_in_place(cur, self.binop(op, cur, value), t)
                return
            value = self.binop(op, cur, value)
        if self.is_static_list(v):
            self.list_index(v, i)
            items = list(v.items)
            items[i.const] = value
            self.assign_name(name, V(kind="tuple", items=items, obj=("list", name)), t)
            return
        self.widen_list(name, v, value, "list item assignment")
        value = self.list_item_value(name, value)
        buf, n = self.list_value(v, "list item assignment")
        rest = "".join(f" or x.shape[{d}] != b.shape[{d + 1}]" for d in range(buf.ty.rank - 1))
        self.inline(f"""
            k = i
            if k < 0:
                k = k + n
            if k < 0 or k >= n:
                raise IndexError("list assignment index out of range")
            if False{rest}:
                raise ValueError("a list of arrays built while running holds arrays of one shape in compiled code")
            b[k] = x
        """, {"b": buf, "n": n, "i": self.cast(self.to_int(i), "i64"), "x": value}, "b")

    # ------------------------------------------------- changing a list
    def mutable_list(self, name, node):
        """The value of the list variable `name`, which a statement changes."""
        if name in self.scope.values:
            self.error(f"the list '{name}' is defined outside the parallel loop or gpu "
                       "section that changes it: not supported")
        return self.load_name(name, node)

    def widen_list(self, name, v, value, what):
        """The list variable's type, widened to hold `value` (emission
        restarts when it changes)."""
        if self.is_static_list(v):
            self.error(f"'{name}' is a list written out of arrays, whose items are fixed "
                       "while compiling: it cannot grow (build it with [] and append, or "
                       "use a new list)")
        ty = self.unify_lists(v.ty, self.item_type(value, what), what)
        if ty != self.var_types[name]:
            self.var_types[name] = ty
            raise Restart()
        return ty

    def list_item_value(self, name, value):
        """`value` as an item of the list variable `name`: a number of its
        type, or an array no other name sees."""
        ty = self.var_types[name]
        if value.is_array:
            if name not in self.temporary_lists and not self.is_fresh_array(value):
                self.error(SHARED_ARRAY)
            return value
        return self.cast(value, ty.item)

    def is_fresh_array(self, v):
        found = self.def_lines.get(v.ssa)
        if found is not None:
            region, at = found
            line = region.lines[at]
        else:  # ops written raw (vrir.map)
            line = next((x for x in reversed(self.region.lines)
                         if x.startswith(f"{v.ssa} = ")), None)
        return line is not None and line.split(" = ", 1)[1].split(" ", 1)[0] in FRESH_OPS

    def list_statement(self, call):
        """`lst.append(x)`, `lst.extend(xs)` on a list variable (True when
        `call` is one of these)."""
        f = call.func
        if not (isinstance(f, ast.Attribute) and self.is_list_name(f.value)):
            return False
        name = f.value.id
        if f.attr not in MUTATORS:
            return False  # the expression reports it
        if call.keywords or len(call.args) != 1:
            self.error(f"list.{f.attr}() takes one argument")
        v = self.mutable_list(name, f.value)
        if f.attr == "append":
            self.list_append(name, v, self.expr(call.args[0]))
        else:
            self.list_extend(name, v, self.list_operand(call.args[0]))
        return True

    def list_append(self, name, v, x):
        ty = self.widen_list(name, v, x, "list.append")
        x = self.list_item_value(name, x)
        buf, n = self.list_value(v, "list.append")
        if x.is_array:
            dims = "".join(f"x.shape[{d}], " for d in range(x.ty.rank))
            other = " or ".join(f"x.shape[{d}] != b.shape[{d + 1}]" for d in range(x.ty.rank))
            source = f"""
                if n > 0 and ({other}):
                    raise ValueError("a list of arrays built while running holds arrays of one shape in compiled code")
                if n == b.shape[0] or n == 0:
                    g = np.empty((2 * n + 8, {dims}), dtype=b.dtype)
                    if n > 0:
                        g[:n] = b[:n]
                    b = g
                b[n] = x
                n = n + 1
            """
        else:
            source = """
                if n == b.shape[0]:
                    g = np.empty(2 * n + 8, dtype=b.dtype)
                    g[:n] = b[:n]
                    b = g
                b[n] = x
                n = n + 1
            """
        buf, n = self.inline(source, {"b": buf, "n": n, "x": x}, ("b", "n"))
        self.write_var(name, V(ty, kind="list", items=[buf, n]), ty)

    def list_extend(self, name, v, src):
        """`lst.extend(src)` (and `lst += src`) with the numbers of a list or
        of a 1-D array."""
        if self.is_static_list(v):
            self.widen_list(name, v, src, "list.extend")  # refused
        if self.is_static_list(src) or (src.kind == "list" and isinstance(src.ty.item, ArrT)) \
                or (src.is_array and src.ty.rank > 1):
            self.error("extending a list with arrays is not supported (Python's list would "
                       "share them); append copies")
        if src.is_array:
            ty, items = ListT(src.ty.elem), src
        elif src.kind == "list":
            ty = src.ty
            buf, m = self.list_value(src, "list.extend")
            items = self.template("r = b[:m]", {"b": buf, "m": m})
        else:
            self.error(f"list.extend() of a {self.tyname(src)}")
        new = self.unify_lists(v.ty, ty, "list.extend")
        if new != self.var_types[name]:
            self.var_types[name] = new
            raise Restart()
        buf, n = self.list_value(v, "list.extend")
        buf, n = self.inline("""
            m = s.shape[0]
            if n + m > b.shape[0]:
                g = np.empty(2 * (n + m) + 8, dtype=b.dtype)
                g[:n] = b[:n]
                b = g
            b[n:n + m] = s
            n = n + m
        """, {"b": buf, "n": n, "s": self.cast(items, new.item or "f64")}, ("b", "n"))
        self.write_var(name, V(new, kind="list", items=[buf, n]), new)

    def list_binop(self, op, a, b):
        """`a + b` of lists (a new list) and `lst * k` (repeated)."""
        if self.is_static_list(a) or self.is_static_list(b):
            return self.static_list_binop(op, a, b)
        if op == "mul":
            lst, k = (a, b) if a.kind == "list" else (b, a)
            if lst.kind != "list" or not k.is_scalar or kind(k.ty) > 1:
                self.error("a list is repeated by an integer (lst * k)")
            if isinstance(lst.ty.item, ArrT):
                self.error("repeating a list of arrays is not supported (Python's list would "
                           "hold the same arrays several times)")
            buf, n = self.list_value(lst, "list repetition")
            r = self.template("r = np.tile(b[:n], max(k, 0))",
                              {"b": buf, "n": n, "k": self.cast(k, "i64")})
            return V(lst.ty, kind="list", items=[r, self.weak(self.from_index(self.dim(r, 0)))])
        if op == "add" and a.kind == "list" and b.kind == "list":
            if isinstance(a.ty.item, ArrT) or isinstance(b.ty.item, ArrT):
                self.error("joining lists of arrays with + is not supported (Python's list "
                           "would share their arrays)")
            ty = self.unify_lists(a.ty, b.ty, "list concatenation")
            x, n = self.list_value(a, "list concatenation")
            y, m = self.list_value(b, "list concatenation")
            item = ty.item or "f64"
            r = self.template("r = np.concatenate((x[:n], y[:m]))",
                              {"x": self.cast(x, item), "n": n, "y": self.cast(y, item), "m": m})
            total = self.weak(self.binop("add", n, m))
            return V(ty, kind="list", items=[self.convert(r, ty.buffer()), total])
        self.error(f"unsupported operation on a list ({op}): lists support + (another list) "
                   "and * (an integer); for arithmetic on the items use np.array(lst)")

    def static_list_binop(self, op, a, b):
        """`+` and `*` (by a constant) of lists written out of arrays: a new
        list of the same arrays, as Python's."""
        if op == "add" and self.is_static_list(a) and self.is_static_list(b):
            return V(kind="tuple", items=a.items + b.items, obj=("list", None))
        if op == "mul":
            lst, k = (a, b) if self.is_static_list(a) else (b, a)
            if k.is_scalar and kind(k.ty) <= 1 and k.const is not None:
                return V(kind="tuple", items=lst.items * max(int(k.const), 0),
                         obj=("list", None))
            self.error("repeating a list of arrays takes an integer constant (its items are "
                       "fixed while compiling)")
        self.error(f"unsupported operation on a list of arrays written out ({op})")

    # ------------------------------------------------- lists as arrays
    def list_array(self, v, what="np.array"):
        """A new array of the items of the list `v` (stacked arrays for a
        list of arrays), as np.array(v) makes."""
        if self.is_static_list(v):
            return self.join_values(v.items, None, "stack")
        buf, n = self.list_value(v, what)
        return self.template("r = b[:n].copy()", {"b": buf, "n": n})

    def lists_as_arrays(self, e, fn):
        """The call `e` of the NumPy function `fn` with its list arguments
        (list variables and comprehensions) as the arrays NumPy makes of
        them; lists written in the call are left to the function."""
        def convert(node):
            if not (self.is_list_name(node) or isinstance(node, ast.ListComp)):
                return node
            v = self.list_operand(node)
            if v.kind != "list" and not self.is_static_list(v):
                return node
            temp = f"$listarray{self.nssa}"
            self.nssa += 1
            self.assign_name(temp, self.list_array(v, fn))
            return ast.copy_location(ast.Name(temp, ast.Load()), node)
        args = [convert(a) for a in e.args]
        keywords = [ast.copy_location(ast.keyword(arg=k.arg, value=convert(k.value)), k)
                    for k in e.keywords]
        return ast.copy_location(ast.Call(func=e.func, args=args, keywords=keywords), e)

    # ------------------------------------------------------------ builtins
    def list_sum(self, v, start):
        buf, n = self.list_value(v, "sum()")
        values = {"b": buf, "n": n, "s0": start}
        if isinstance(v.ty.item, ArrT):
            r = self.inline("""
                if n == 0:
                    raise ValueError("sum() of an empty list of arrays is not supported in compiled code")
                s = s0 + b[0]
                for k in range(1, n):
                    s = s + b[k]
            """, values, "s")
            return r
        if v.ty.weak and v.ty.item == "f64" and sys.version_info >= (3, 12):
            # Python 3.12's sum() of floats: Neumaier's compensated sum (from
            # the first item added to an int start)
            first = "k == 0" if kind(start.ty) <= 1 else "False"
            r = self.inline(f"""
                s = s0 + 0.0
                c = 0.0
                for k in range(n):
                    x = float(b[k])
                    if {first}:
                        s = s0 + x
                    else:
                        t = s + x
                        if abs(s) >= abs(x):
                            c = c + ((s - t) + x)
                        else:
                            c = c + ((x - t) + s)
                        s = t
                if c != 0.0 and c - c == 0.0:
                    s = s + c
            """, values, "s")
        else:
            r = self.inline("""
                s = s0
                for k in range(n):
                    s = s + b[k]
            """, values, "s")
        return self.weak(r, v.ty.weak and bool(start.weak))

    def list_extreme(self, which, v):
        """Python's min()/max() of a list: the first of the least (greatest)
        items, compared as Python compares them."""
        if isinstance(v.ty.item, ArrT) or self.is_static_list(v):
            self.error(f"{which}() of a list of arrays (Python compares arrays, whose truth is "
                       "ambiguous)")
        buf, n = self.list_value(v, f"{which}()")
        empty = f"{which}() arg is an empty sequence" if sys.version_info < (3, 12) else \
            f"{which}() iterable argument is empty"
        r = self.inline(f"""
            if n == 0:
                raise ValueError("{empty}")
            r = b[0]
            for k in range(1, n):
                if b[k] {'<' if which == 'min' else '>'} r:
                    r = b[k]
        """, {"b": buf, "n": n}, "r")
        return self.weak(r, v.ty.weak)

    def call_builtin_list(self, e):
        """list(x): a copy of a list, the items of a 1-D array, of range(...)
        or of a generator."""
        if e.keywords or len(e.args) > 1:
            self.error("list() takes one iterable")
        if not e.args:
            return self.empty_list()
        node = e.args[0]
        if isinstance(node, ast.Call) and self.static_object(node.func) is range:
            node = ast.copy_location(ast.ListComp(
                ast.Name("$i", ast.Load()),
                [ast.comprehension(ast.Name("$i", ast.Store()), node, [], 0)]), node)
        v = self.list_operand(node)
        if v.kind == "list":
            if v.obj is None:
                return v
            buf, n = self.list_value(v, "list()")
            return V(v.ty, kind="list", items=[self.template("r = b[:n].copy()",
                                                             {"b": buf, "n": n}), n])
        if self.is_static_list(v) or v.kind == "tuple":
            if any(not x.is_array for x in v.items):
                return self.list_of(v.items, "list()")
            return V(kind="tuple", items=list(v.items), obj=("list", None))
        if v.is_array:
            if v.ty.rank != 1:
                self.error("list() of an array of 2 or more dimensions (a list of views of "
                           "its rows) is not supported; use the array, or list(A.copy()) rows")
            r = self.copy(v)
            return V(ListT(v.ty.elem), kind="list",
                     items=[r, self.weak(self.from_index(self.dim(r, 0)))])
        self.error(f"list() of a {self.tyname(v)}")

    def list_method(self, name, v, e):
        if name in MUTATORS:
            self.error(f"list.{name}() is supported as a statement on a list variable "
                       f"(lst.{name}(x)), not inside an expression")
        if name == "copy":
            self.call_args(e, 0, 0)
            if self.is_static_list(v):
                return V(kind="tuple", items=list(v.items), obj=("list", None))
            buf, n = self.list_value(v, "list.copy()")
            return V(v.ty, kind="list", items=[self.template("r = b[:n].copy()",
                                                             {"b": buf, "n": n}), n])
        self.error(f"list.{name}() is not supported in compiled code (supported: append, "
                   "extend, copy, len, indexing, iteration, sum, min, max, np.array)")

    # ------------------------------------------------------------ returns
    def returned_list(self, v):
        """A list returned to Python: the array of its items, which the
        runtime makes a Python list of (ListArrT)."""
        if not self.public:
            self.error("returning a list from a function called by compiled code is not "
                       "supported (return np.array(lst))")
        if self.is_static_list(v):
            self.error("returning a list written out of arrays is not supported (return a "
                       "tuple, or np.array(lst))")
        r = self.list_array(v, "return")
        t = ListArrT(r.ty.elem, r.ty.rank, "row_major", weak=bool(v.ty.weak))
        return V(t, self.convert(r, ArrT(r.ty.elem, r.ty.rank)).ssa)

    def check_unchanged_in(self, body, name, what):
        """A loop over the list `name` must not change it (Python's loop
        would see the change)."""
        for node in (n for st in body for n in ast.walk(st)):
            changed = False
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                    isinstance(node.func.value, ast.Name) and node.func.value.id == name and \
                    node.func.attr in MUTATORS + REFUSED_METHODS:
                changed = True
            targets = node.targets if isinstance(node, ast.Assign) else \
                [node.target] if isinstance(node, ast.AugAssign) else []
            for t in targets:
                if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and \
                        t.value.id == name or isinstance(node, ast.AugAssign) and \
                        isinstance(t, ast.Name) and t.id == name:
                    changed = True
            if changed:
                self.error(f"changing the list '{name}' inside {what} over it is not "
                           "supported", node)
