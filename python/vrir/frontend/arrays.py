"""Array indexing: subscripts as index plans (integers, slices, index
arrays, boolean masks, np.newaxis) loaded or stored with NumPy's
broadcasting and checks; views (transpose, expand_dims, reshape); copies;
masks (A[mask] reads and writes); np.mgrid[...] and np.ogrid[...]."""
import ast

from ..types import ArrT, bits, is_complex, is_unsigned, kind, mlir_type
from .values import V


NEG = "#vrir.index<lower|upper|negative>"
# boundscheck=False: Python's negative indices still wrap (as in Numba), but
# nothing is checked.
NEG_UNCHECKED = "#vrir.index<negative>"
NONE = "#vrir.index<none>"


class ArrayAccess:
    """Subscripts, views and masks."""

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

    def expr_Subscript(self, e):
        base = self.expr(e.value)
        if base.kind == "list" or self.is_static_list(base):
            return self.list_subscript(base, e)
        if base.kind == "tuple":
            idx = self.expr(e.slice) if not isinstance(e.slice, ast.Slice) else None
            if idx is None or idx.const is None or not isinstance(idx.const, int):
                self.error("tuples can only be indexed by integer constants")
            k = idx.const
            if not -len(base.items) <= k < len(base.items):
                self.error("tuple index out of range")
            return base.items[k]
        if base.kind == "func" and base.obj in (("np", "mgrid"), ("np", "ogrid")):
            return self.index_grid(base.obj[1], e.slice)
        if not base.is_array:
            self.error(f"cannot index a {self.tyname(base)}")
        plan = self.index_plan(base, e.slice)
        return self.derived(e.value, base, self.load_plan(base, plan))

    def derived(self, node, base, r):
        """`r`, an array computed from `base` (the value of `node`: a view or
        a copy of part of it): read-only where `base` is (a copy too,
        conservatively)."""
        why = self.readonly_reason(node, base)
        if why and r.is_array and r.ssa is not None:
            self.readonly_values[r.ssa] = why
        return r

    def index_grid(self, which, sl):
        """np.mgrid[s0, s1, ...] (one array of shape (k, n0, n1, ...): the
        coordinates along each axis) and np.ogrid[...] (a tuple of k arrays
        that broadcast against each other). A slice start:stop:step is
        np.arange(start, stop, step), or with an imaginary step n*1j
        np.linspace(start, stop, n); all are converted to their common type
        (float64 if any bound or step is a float, else int64)."""
        slices = sl.elts if isinstance(sl, ast.Tuple) else [sl]
        vectors = []
        for s in slices:
            if not isinstance(s, ast.Slice):
                self.error(f"np.{which}[...] takes slices start:stop:step")
            if s.upper is None:
                self.error(f"np.{which}[...]: a slice needs its stop")
            start = self.expr(s.lower) if s.lower is not None else self.const(0, "i64")
            stop = self.expr(s.upper)
            step = self.expr(s.step) if s.step is not None else self.const(1, "i64")
            for v in (start, stop, step):
                self.need_scalar(v)
            if is_complex(step.ty):
                if step.const is None:
                    self.error(f"np.{which}[...]: a number of points (n*1j) must be a constant")
                count = self.const(int(abs(step.const)), "i64")
                vectors.append(self.inline("r = np.linspace(start, stop, count)",
                                           {"start": start, "stop": stop, "count": count}, "r"))
            else:
                vectors.append(self.inline("r = np.arange(start, stop, step)",
                                           {"start": start, "stop": stop, "step": step}, "r"))
        elem = "f64" if any(v.ty.elem != "i64" for v in vectors) else "i64"
        vectors = [self.cast(v, elem) for v in vectors]
        k = len(vectors)
        if k == 1:
            return vectors[0]
        names = {f"v{d}": v for d, v in enumerate(vectors)}
        coords = ", ".join(f"v{d}" for d in range(k))
        if which == "ogrid":
            items = []
            for d in range(k):
                shape = ", ".join("-1" if i == d else "1" for i in range(k))
                items.append(self.inline(f"r = v.reshape(({shape}))", {"v": vectors[d]}, "r"))
            return V(kind="tuple", items=items)
        grids = ", ".join(f"g{d}" for d in range(k))
        return self.inline(f"{grids} = np.meshgrid({coords}, indexing='ij')\n"
                           f"r = np.stack(({grids},))", names, "r")

    def index_plan(self, a, sl):
        """[(kind, value)] per index: ('int', V) or ('range', ssa) or
        ('gather', V); with np.newaxis / None also ('newaxis', None), and
        bare `:` then become ('full', ssa). A boolean mask makes the plan
        [('mask', (pos, mask, axis, view_plan, first))] (see mask_plan)."""
        items = sl.elts if isinstance(sl, ast.Tuple) else [sl]
        # Values first: a mask selects as many dimensions as it has, which
        # `...` must know.
        values = [None if isinstance(it, ast.Slice) or self.is_ellipsis(it) else self.expr(it)
                  for it in items]
        if len(values) == 1 and values[0] is not None and values[0].kind == "tuple":
            # A[t] for a tuple t of indices is A[t[0], t[1], ...]
            # (A[np.triu_indices(n)])
            values = list(values[0].items)
            items = [ast.copy_location(ast.Name(id="$index", ctx=ast.Load()), items[0])
                     for _ in values]
        items, values = self.expand_index_ellipsis(a, items, values)
        arrays = [j for j, v in enumerate(values)
                  if v is not None and v.is_array and v.ty.elem != "i1"]
        if len(arrays) == 1 and arrays[0] > 0 and values[arrays[0]].ty.rank == 1 and \
                len(items) <= a.ty.rank and \
                all(self.is_bare_slice(it) for j, it in enumerate(items) if j != arrays[0]):
            # A[:, idx]: the gather of a view with the indexed dimension first
            return [("gather_at", (arrays[0], values[arrays[0]]))]
        if len(items) > 1 and arrays:
            return [("points", self.points_plan(a, items, values))]
        plan = []
        trivial = []  # positions of bare `:` in plan
        mask = None  # (position in plan, user's axis, mask)
        k = 0  # the dimension of `a` the next index selects in
        for it, v in zip(items, values):
            if v is not None and v.kind == "none":
                plan.append(("newaxis", None))
                continue
            if k >= a.ty.rank:
                self.error(f"too many indices for a {a.ty.rank}-dimensional array")
            if isinstance(it, ast.Slice):
                if self.is_bare_slice(it):
                    trivial.append(len(plan))
                plan.append(("range", self.slice_range(a, k, it)))
                k += 1
            elif v.is_array and v.ty.elem == "i1":
                if mask is not None:
                    self.error("only one boolean mask per subscript is supported")
                if k + v.ty.rank > a.ty.rank:
                    self.error(f"too many indices for a {a.ty.rank}-dimensional array")
                # The view the mask selects from keeps its dimensions whole.
                mask = (len(plan), k, v)
                for d in range(k, k + v.ty.rank):
                    trivial.append(len(plan))
                    plan.append(("range", self.slice_range(a, d, ast.Slice())))
                k += v.ty.rank
            else:
                k += 1
                if v.is_array:
                    if len(items) != 1 or v.ty.rank != 1:
                        self.error("integer-array indexing is supported as A[idx] with a 1-D index array only")
                    plan.append(("gather", v))
                    continue
                self.need_scalar(v)
                if kind(v.ty) >= 2:
                    self.error("array indices must be integers")
                if v.ty == "i1":
                    self.error("boolean scalar indices are not supported")
                if bits(v.ty) < 32 or is_unsigned(v.ty):  # indices are i32, i64 or index
                    if v.ty == "ui64" and v.const is None:
                        # beyond int64 it would wrap to a negative index
                        big = self.op(f"arith.cmpi slt, {v.ssa}, {self.const(0, 'i64').ssa} "
                                      ": i64", "i1")
                        self.error_if(big, "IndexError", "index out of bounds (uint64)")
                    v = self.cast(v, "i64")
                plan.append(("int", v))
        if mask is not None:
            return [("mask", self.mask_plan(plan, trivial, *mask))]
        if any(kd == "newaxis" for kd, _ in plan):
            for j in trivial:
                plan[j] = ("full", plan[j][1])
        return plan

    def gather(self, a, idx):
        """A[idx] for a 1-D integer array idx: the selected rows of A."""
        idx = self.cast(idx, "i64")
        t = ArrT(a.ty.elem, a.ty.rank)
        return self.op(f"vrir.gather {a.ssa}[{idx.ssa}] flags {self.index_flags(bare=True)} : "
                       f"{a.ty.mlir()}[{idx.ty.mlir()}] -> {t.mlir()}", t)

    def scatter(self, a, idx, v):
        """A[idx] = v for a 1-D integer array idx."""
        idx = self.cast(idx, "i64")
        # the selection A[idx] has the rank of A (idx is 1-D)
        if v.is_array and v.ty.rank > a.ty.rank:
            self.error(f"cannot assign an array of rank {v.ty.rank} to the rank-"
                       f"{a.ty.rank} selection of an index array (NumPy cannot "
                       "broadcast it either)")
        self.emit(f"vrir.scatter {v.ssa}, {a.ssa}[{idx.ssa}] flags {self.index_flags(bare=True)} : "
                  f"{mlir_type(v.ty)}, {a.ty.mlir()}[{idx.ty.mlir()}]")

    def points_plan(self, a, items, values):
        """A[i0, i1, ...] with 1-D integer index arrays (and integers, which
        broadcast) for the leading dimensions, then bare `:`s: the indices
        of the selected points, which pick A[i0[t], i1[t], ...] for each t."""
        def is_point_index(v):
            return v is not None and ((v.is_array and v.ty.rank == 1) or v.is_scalar) and \
                kind(v.ty.elem if v.is_array else v.ty) == 1

        k = 0
        while k < len(items) and is_point_index(values[k]):
            k += 1
        if k > a.ty.rank:
            self.error(f"too many indices for a {a.ty.rank}-dimensional array")
        if any(v.is_array for v in values[:k]) and \
                all(self.is_bare_slice(it) for it in items[k:]):
            return values[:k]
        self.error("integer-array indexing is supported as A[idx], A[:, ..., idx] (one "
                   "1-D integer array after bare `:`s), or A[i0, i1, ...] with 1-D integer "
                   "arrays and integers for the leading dimensions (then bare `:`)")

    def points_source(self, a, indices, body, prelude=()):
        """Template source: the length check of the index arrays among
        `indices` (named i0, i1, ...), the lines `prelude`, then the loop
        over the points around `body`, in which `point` stands for A's
        index of point t."""
        arrays = [j for j, v in enumerate(indices) if v.is_array]
        lines = [f"n = i{arrays[0]}.shape[0]"]
        for j in arrays[1:]:
            lines += [f"if i{j}.shape[0] != n:",
                      "    raise IndexError(\"shape mismatch: indexing arrays could not be "
                      "broadcast together\")"]
        point = ", ".join(f"i{j}[t]" if v.is_array else f"i{j}"
                          for j, v in enumerate(indices))
        lines += list(prelude)
        lines.append("for t in range(n):")
        lines += ["    " + line.replace("point", point) for line in body]
        return "\n".join(lines)

    def points_read(self, a, indices):
        """A[i0, i1, ...]: a new array of shape (n,) + A.shape[k:]."""
        k = len(indices)
        shape = ", ".join(["n"] + [f"A.shape[{d}]" for d in range(k, a.ty.rank)])
        source = self.points_source(a, indices, ["out[t] = A[point]"],
                                    [f"out = np.empty(({shape},), A.dtype)"])
        values = {"A": a, **{f"i{j}": v for j, v in enumerate(indices)}}
        return self.inline(source, values, "out")

    def points_write(self, a, indices, v):
        """A[i0, i1, ...] = v: v a scalar, one value (sub-array) per point,
        or one sub-array for all of them; the last write to a point wins."""
        trailing = a.ty.rank - len(indices)
        values = {"A": a, "v": v, **{f"i{j}": x for j, x in enumerate(indices)}}
        if v.is_array and v.ty.rank == trailing + 1:
            body = ["A[point] = v[t]"]
            check = ["if v.shape[0] != n:",
                     "    raise ValueError(\"shape mismatch: value array could not be "
                     "broadcast to indexing result\")"]
        elif v.is_array and v.ty.rank > trailing:
            self.error(f"A[i0, i1, ...] = values takes a scalar, {trailing + 1}-D values (one "
                       f"per point) or values of at most {trailing} dimensions for all")
        else:
            body, check = ["A[point] = v"], []
        self.inline(self.points_source(a, indices, body, check), values, "n")

    def mask_plan(self, plan, trivial, start, axis, m):
        """A boolean mask with other indices: (pos, m, axis, view_plan,
        first). The integers and slices select a view first (`view_plan`,
        None when they are all bare `:`), in which the mask's dimensions
        start at `pos`; `axis` is where they start in the user's array. As
        in NumPy, integers count as advanced indices next to a mask: when
        a slice separates one from the mask, the selection's dimension
        comes first (`first`), else where the mask was."""
        if any(kd in ("gather", "newaxis") for kd, _ in plan):
            self.error("a boolean mask next to an integer-array index or np.newaxis "
                       "is not supported")
        own = range(start, start + m.ty.rank)
        advanced = [j for j, (kd, _) in enumerate(plan) if kd == "int" or j in own]
        first = any(plan[j][0] == "range" and j not in own
                    for j in range(advanced[0], advanced[-1] + 1))
        pos = sum(1 for j in range(start) if plan[j][0] != "int")
        whole = all(kd == "range" and j in trivial for j, (kd, _) in enumerate(plan))
        return pos, m, axis, None if whole else plan, first

    @staticmethod
    def is_bare_slice(item):
        return isinstance(item, ast.Slice) and item.lower is None and \
            item.upper is None and item.step is None

    @staticmethod
    def is_ellipsis(item):
        return isinstance(item, ast.Constant) and item.value is Ellipsis

    def expand_index_ellipsis(self, a, items, values):
        """The indices and their values with `...` replaced by the bare `:`s
        of the dimensions the others leave (NumPy's rule; None and
        np.newaxis select none, a mask as many as it has)."""
        where = [j for j, it in enumerate(items) if self.is_ellipsis(it)]
        if not where:
            return items, values
        if len(where) > 1:
            self.error("an index can only have a single ellipsis ('...')")
        selecting = 0
        for it, v in zip(items, values):
            if self.is_ellipsis(it) or (v is not None and v.kind == "none"):
                continue
            selecting += v.ty.rank if v is not None and v.is_array and v.ty.elem == "i1" else 1
        if selecting > a.ty.rank:
            self.error(f"too many indices for a {a.ty.rank}-dimensional array")
        j = where[0]
        fill = [ast.copy_location(ast.Slice(), items[j]) for _ in range(a.ty.rank - selecting)]
        return items[:j] + fill + items[j + 1:], values[:j] + [None] * len(fill) + values[j + 1:]

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
            # The mask's dimensions first, then the selection's back where
            # the mask was: A[:, m] is (A.T[m]).T (both no-ops for A[m]).
            pos, m, axis, view_plan, first = plan[0][1]
            if view_plan is not None:
                a = self.load_plan(a, view_plan)
            r = self.mask_read(self.transpose(a, self.mask_first(a, pos, m)), m, axis)
            if first:
                return r
            return self.transpose(r, list(range(1, pos + 1)) + [0] +
                                  list(range(pos + 1, r.ty.rank)))
        if any(kd == "newaxis" for kd, _ in plan):
            return self.newaxis_view(a, plan)
        if plan and plan[0][0] == "points":
            return self.points_read(a, plan[0][1])
        if plan and plan[0][0] == "gather_at":
            # A[:, idx] is (A.T[idx]).T, as for masks
            pos, idx = plan[0][1]
            r = self.gather(self.transpose(a, self.mask_first(a, pos, idx)), idx)
            return self.transpose(r, list(range(1, pos + 1)) + [0] +
                                  list(range(pos + 1, r.ty.rank)))
        if plan and plan[0][0] == "gather":
            return self.gather(a, plan[0][1])
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
        fancy = any(kd in ("gather", "gather_at", "mask", "points") for kd, _ in plan)
        if not (fancy and v.is_scalar and v.ty == "f32"):
            self.check_float_to_int(v, a.ty.elem)
        v = self.cast(v, a.ty.elem)
        if plan and plan[0][0] == "mask":
            pos, m, axis, view_plan, first = plan[0][1]
            if view_plan is not None:
                a = self.load_plan(a, view_plan)
            if pos == 0 or first:
                # the selection's order is the mask-first view's
                return self.mask_write(self.transpose(a, self.mask_first(a, pos, m)), m, v,
                                       axis)
            # In the order of the mask-first view: the selection's dimension
            # leads, the dimensions before the mask follow.
            selection_rank = a.ty.rank - m.ty.rank + 1
            trailing = a.ty.rank - pos - m.ty.rank
            if v.is_array and v.ty.rank == selection_rank:
                v = self.transpose(v, [pos] + list(range(pos)) +
                                   list(range(pos + 1, selection_rank)))
            elif v.is_array and v.ty.rank > trailing:
                self.error(f"A[..., mask, ...] = values takes a scalar, values of the "
                           f"selection's {selection_rank} dimensions, or values of its "
                           f"last {trailing} (broadcast)")
            return self.mask_write(self.transpose(a, self.mask_first(a, pos, m)), m, v, axis)
        if any(kd == "newaxis" for kd, _ in plan):
            # A[:, None] = v assigns to the view (broadcasting v to it).
            self.store_plan(self.newaxis_view(a, plan), [], v)
            return
        if plan and plan[0][0] == "points":
            return self.points_write(a, plan[0][1], v)
        if plan and plan[0][0] == "gather_at":
            pos, idx = plan[0][1]
            trailing = a.ty.rank - pos - 1
            if v.is_array and v.ty.rank == a.ty.rank:
                # into the order of the view with the indexed dimension first
                v = self.transpose(v, self.mask_first(v, pos, idx))
            elif v.is_array and v.ty.rank > trailing:
                self.error(f"A[:, ..., idx, ...] = values takes a scalar, values of the "
                           f"selection's {a.ty.rank} dimensions, or values of its last "
                           f"{trailing} (broadcast)")
            return self.scatter(self.transpose(a, self.mask_first(a, pos, idx)), idx, v)
        if plan and plan[0][0] == "gather":
            return self.scatter(a, plan[0][1], v)
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

    def copy(self, a):
        if not a.is_array:
            self.error("copy of a non-array")
        t = ArrT(a.ty.elem, a.ty.rank)
        return self.op(f"vrir.copy {a.ssa} : {a.ty.mlir()} to {t.mlir()}", t)

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

    @staticmethod
    def mask_first(a, pos, m):
        """The axes of `a` with the mask's (from `pos`) first."""
        r = m.ty.rank
        return list(range(pos, pos + r)) + list(range(pos)) + list(range(pos + r, a.ty.rank))

    def mask_count(self, a, m, axis0=0):
        """The number of True elements of mask `m` of `a` (over `a`'s
        leading m.rank dimensions, which must be m's; `axis0` is where they
        are in the user's array, for the message)."""
        self.require_same_dims(m, a, range(m.ty.rank), "IndexError",
                               lambda d: f"boolean index did not match indexed array along "
                               f"axis {d + axis0}")
        return self.inline("count = 0\n" + self.loop_nest_source(
            "m", m.ty.rank, ["if m[ix]:", "    count += 1"]), {"m": m}, "count")

    def mask_read(self, a, m, axis0=0):
        """A[mask]: the selected elements (or, for a mask of fewer
        dimensions, the selected sub-arrays) in C order, in a new array of
        shape (count,) + A.shape[mask.ndim:]."""
        count = self.mask_count(a, m, axis0)
        t = ArrT(a.ty.elem, 1 + a.ty.rank - m.ty.rank)
        sizes = [self.index(count)] + [self.dim(a, d) for d in range(m.ty.rank, a.ty.rank)]
        out = self.op(f"vrir.empty({', '.join(sizes)}) : {t.mlir()}", t)
        return self.inline("k = 0\n" + self.loop_nest_source(
            "m", m.ty.rank, ["if m[ix]:", "    out[k] = a[ix]", "    k += 1"]),
            {"a": a, "m": m, "out": out}, "out")

    def mask_write(self, a, m, v, axis0=0):
        """A[mask] = v: v a scalar, or one value (sub-array) per True
        element of the mask, or, for a mask of fewer dimensions, one
        sub-array for all of them (NumPy's broadcasting of v)."""
        item_rank = a.ty.rank - m.ty.rank
        if v.is_array and v.ty.rank == item_rank + 1:
            count = self.mask_count(a, m, axis0)
            n = self.from_index(self.dim(v, 0))
            bad = self.op(f"arith.cmpi ne, {count.ssa}, {n.ssa} : i64", "i1")
            self.error_if(bad, "ValueError", "NumPy boolean array indexing assignment cannot "
                          "assign the values: their number differs from the mask's count of "
                          "True elements")
            body = ["if m[ix]:", "    a[ix] = v[k]", "    k += 1"]
        elif v.is_array and v.ty.rank > item_rank:
            self.error(f"A[mask] = values takes a scalar, {item_rank + 1}-D values (one per "
                       f"selected element{'' if item_rank == 0 else ' row'})"
                       + (f" or a {item_rank}-D value for all of them" if item_rank else ""))
        else:
            self.mask_count(a, m, axis0)  # the shape checks
            body = ["if m[ix]:", "    a[ix] = v"]
        self.inline("k = 0\n" + self.loop_nest_source("m", m.ty.rank, body),
                    {"a": a, "m": m, "v": v}, "k")
        return None
