"""Reductions (sum, prod, min, max, mean: whole arrays or along axes, with
keepdims), argmax/argmin, cumsum/cumprod, var and std."""
from ..types import ArrT, bits, is_complex, is_unsigned, kind, sum_type
from .values import V


class Reductions:
    """Reductions and cumulative functions."""

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
        if sum_type(elem) != elem:
            a, elem = self.cast(a, sum_type(elem)), sum_type(elem)
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
