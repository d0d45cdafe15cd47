"""Reductions (sum, prod, min, max, mean: whole arrays or along axes, with
keepdims), argmax/argmin, cumsum/cumprod, var and std."""
from ..types import ArrT, bits, is_complex, is_unsigned, kind, sum_type
from .values import V


class Reductions:
    """Reductions and cumulative functions."""

    def cumulative_operand(self, name, a, axis):
        """The axis of np.argmax/argmin/cumsum/cumprod as a number in
        [0, rank), or None for the flattened array."""
        if not a.is_array:
            self.error(f"np.{name} needs an array")
        if is_complex(a.ty.elem):
            self.error(f"np.{name} of complex numbers is not supported")
        if axis is None or axis.kind == "none":
            return None
        (k,) = self.const_ints([axis], f"np.{name}'s axis")
        rank = a.ty.rank
        if not -rank <= k < rank:
            self.error(f"axis {k} is out of bounds for a {rank}-dimensional array")
        return k % rank

    @staticmethod
    def nested_loops(dims, first, body):
        """Template text: loops over `i<d>` for d in `dims` (outermost first;
        from first[d] where given, else 0) around the lines of `body`."""
        lines, indent = [], ""
        for d in dims:
            lines.append(f"{indent}for i{d} in range({first.get(d, 0)}, a.shape[{d}]):")
            indent += "    "
        return "\n".join(lines + [indent + line for line in body]) + "\n"

    def arg_extreme(self, name, a, axis, keepdims=None):
        """np.argmax/argmin: the first index of the extreme value, NaN
        counting as the extreme (as NumPy), over the flattened array or
        along an axis (any rank); `keepdims` keeps the reduced axes with
        size 1."""
        k = self.cumulative_operand(name, a, axis)
        keep = self.const_bool(keepdims, "keepdims", False)
        rank = a.ty.rank
        better = ">" if name == "argmax" else "<"
        empty = f"raise ValueError('attempt to get {name} of an empty sequence')"
        if k is None or rank == 1:
            ones = "(" + "1, " * rank + ")"
            zeros = ", ".join(["0"] * rank)
            kept = f"r = np.empty({ones}, np.int64)\nr[{zeros}] = best\n" if keep else "r = best\n"
            return self.inline(f"""
flat = a.reshape(-1)
if flat.shape[0] == 0:
    {empty}
best = 0
for k in range(1, flat.shape[0]):
    x = flat[k]
    y = flat[best]
    if x {better} y or (x != x and y == y):
        best = k
{kept}""", {"a": a}, "r")
        others = [d for d in range(rank) if d != k]
        shape = "(" + "".join("1, " if d == k else f"a.shape[{d}], "
                              for d in range(rank) if keep or d != k) + ")"
        at = ", ".join(("0" if d == k else f"i{d}") for d in range(rank) if keep or d != k)

        def element(j):
            return "a[" + ", ".join(j if d == k else f"i{d}" for d in range(rank)) + "]"
        loops = self.nested_loops(others, {}, [
            "best = 0",
            f"for j in range(1, a.shape[{k}]):",
            f"    x = {element('j')}",
            f"    y = {element('best')}",
            f"    if x {better} y or (x != x and y == y):",
            "        best = j",
            f"r[{at}] = best"])
        return self.inline(f"""
if a.shape[{k}] == 0:
    {empty}
r = np.empty({shape}, np.int64)
{loops}""", {"a": a}, "r")

    # The step of each cumulative function, from the previous result p and
    # the element x (np.maximum/minimum propagate NaN).
    ACCUMULATE_STEP = {"cumsum": "p + x", "cumprod": "p * x",
                       "maximum": "np.maximum(p, x)", "minimum": "np.minimum(p, x)"}

    def accumulate(self, name, a, axis):
        """np.cumsum/cumprod (and np.maximum/minimum.accumulate) over the
        flattened array (1-D result) or along an axis (the shape of `a`);
        cumsum/cumprod widen integers of less than 64 bits (and booleans)
        to int64 as NumPy."""
        k = self.cumulative_operand(name, a, axis)
        if name in ("cumsum", "cumprod") and sum_type(a.ty.elem) != a.ty.elem:
            a = self.cast(a, sum_type(a.ty.elem))
        if k is None:
            a, k = self.inline("f = a.reshape(-1)", {"a": a}, "f"), 0
        # out[..., j, ...] = step(out[..., j - 1, ...], a[..., j, ...]), the
        # loops in the array's order (the recurrence runs along the axis
        # whichever loop carries it).
        rank = a.ty.rank
        t = ArrT(a.ty.elem, rank)
        dims = [self.op(f"vrir.dim {a.ssa}, {d} : {a.ty.mlir()}", "index") for d in range(rank)]
        out = self.op(f"vrir.empty({', '.join(x.ssa for x in dims)}) : {t.mlir()}", t)
        first = ", ".join("0" if d == k else ":" for d in range(rank))

        def at(shift=""):
            return ", ".join(f"i{d}{shift if d == k else ''}" for d in range(rank))
        step = self.ACCUMULATE_STEP[name]
        loops = self.nested_loops(range(rank), {k: 1}, [
            f"p = out[{at(' - 1')}]",
            f"x = a[{at()}]",
            f"out[{at()}] = {step}"])
        return self.inline(f"""
if a.shape[{k}] > 0:
    out[{first}] = a[{first}]
{loops}""", {"a": a, "out": out}, "out")

    def call_np_argmax(self, e):
        return self.np_axis_fn("argmax", e, self.arg_extreme)

    def call_np_argmin(self, e):
        return self.np_axis_fn("argmin", e, self.arg_extreme)

    def call_np_cumsum(self, e):
        return self.np_axis_fn("cumsum", e, self.accumulate)

    def call_np_cumprod(self, e):
        return self.np_axis_fn("cumprod", e, self.accumulate)

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

    def np_axis_fn(self, name, e, impl):
        """np.argmax/argmin(a, axis=None, keepdims=False) and
        np.cumsum/cumprod(a, axis=None)."""
        arg_fn = name.startswith("arg")
        kws = ("axis", "keepdims") if arg_fn else ("axis",)
        args = self.call_args(e, 1, 2, kw=kws)
        kw = self.kwargs(e)
        axis = args[1] if len(args) > 1 else kw.get("axis")
        if arg_fn:
            return impl(name, args[0], axis, kw.get("keepdims"))
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
                if kind_ in ("sum", "prod") and sum_type(a.ty) != a.ty:
                    return self.cast(a, sum_type(a.ty))
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
        if kind_ in ("sum", "prod") and sum_type(elem) != elem:
            elem = sum_type(elem)
            a = self.cast(a, elem)
        if is_complex(elem) and kind_ in ("min", "max"):
            self.error(f"{kind_}() of complex numbers (they are not ordered)")
        if is_unsigned(elem) and kind_ in ("min", "max"):
            # vrir.reduce orders integers as signed: flipping the top bit maps
            # the unsigned order onto the signed one (and back)
            signed = elem[1:]
            top = self.const(-2 ** (bits(elem) - 1), signed)
            r = self.reduce(kind_, self.vbinary("xor", V(ArrT(signed, a.ty.rank, a.ty.layout),
                                                       a.ssa), top, signed), axis)
            if r.is_array:
                r = self.vbinary("xor", r, top, signed)
                return V(ArrT(elem, r.ty.rank, r.ty.layout), r.ssa)
            r = self.op(f"arith.xori {r.ssa}, {top.ssa} : {signed}", signed)
            return V(elem, r.ssa)
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
