"""NumPy's array functions and methods: creation (zeros, ones, empty, full,
their _like forms, arange, linspace, meshgrid), shapes (reshape, transpose,
expand_dims, flip, roll, concatenate, stack), products (dot, matmul, outer),
copies, np.issubdtype, and the array methods (A.sum(), A.astype(), ...)."""
import ast

from ..types import ArrT, is_complex, is_unsigned, kind, promote_strong
from .arrays import NONE
from .numpy_table import ABSTRACT_DTYPES, REDUCTIONS
from .values import V


class ArrayFunctions:
    """NumPy's array functions and the array methods."""

    # --- np.flip, np.linspace
    def call_np_flip(self, e):
        args = self.call_args(e, 1, 2, kw=("axis",))
        a = args[0]
        axis = args[1] if len(args) > 1 else self.kwargs(e).get("axis")
        if not a.is_array:
            self.error("np.flip needs an array")
        rank = a.ty.rank
        if axis is None or axis.kind == "none":
            axes = list(range(rank))
        else:
            axes = []
            for x in self.const_ints([axis], "np.flip axes"):
                if not -rank <= x < rank:
                    self.error(f"axis {x} is out of bounds for a {rank}-dimensional array")
                axes.append(x % rank)
            if len(set(axes)) != len(axes):
                self.error("repeated axis in np.flip")
        return self.flip(a, axes, e)

    def flip(self, a, axes, e):
        """A view of `a` with the dimensions `axes` reversed (negative
        strides), as NumPy's flip."""
        rev = ast.Slice(lower=None, upper=None,
                        step=ast.copy_location(ast.Constant(-1), e))
        plan = [("range", self.slice_range(a, k, rev if k in axes else ast.Slice()))
                for k in range(a.ty.rank)]
        return self.load_plan(a, plan)

    def call_np_fliplr(self, e):
        (a,) = self.call_args(e, 1, 1)
        if not a.is_array or a.ty.rank < 2:
            self.error("np.fliplr needs an array of 2 or more dimensions")
        return self.flip(a, [1], e)

    def call_np_flipud(self, e):
        (a,) = self.call_args(e, 1, 1)
        if not a.is_array:
            self.error("np.flipud needs an array")
        return self.flip(a, [0], e)

    def const_bool(self, v, what, default):
        if v is None:
            return default
        if not v.is_scalar or v.const is None or kind(v.ty) > 1:
            self.error(f"{what} must be a constant True or False")
        return bool(v.const)

    def call_np_linspace(self, e):
        args = self.call_args(e, 2, 3, kw=("num", "endpoint", "retstep", "dtype", "axis"))
        kw = self.kwargs(e)
        start, stop = args[0], args[1]
        num = args[2] if len(args) > 2 else kw.get("num")
        if num is None:
            num = self.pyconst(50)
        for v in (start, stop):
            if v.is_array:
                self.error("np.linspace with array start or stop is not supported")
            self.need_scalar(v)
            if is_complex(v.ty):
                self.error("np.linspace of complex numbers is not supported")
        if not num.is_scalar or kind(num.ty) != 1:
            self.error("np.linspace: num must be an integer")
        endpoint = self.const_bool(kw.get("endpoint"), "np.linspace's endpoint", True)
        retstep = self.const_bool(kw.get("retstep"), "np.linspace's retstep", False)
        axis = kw.get("axis")
        if axis is not None and axis.const != 0:
            self.error("np.linspace supports axis=0 only")
        dt = self.common_elem(start, stop)
        if kind(dt) < 2:
            dt = "f64"
        elem = self.dtype_kw(e, dt, kw)
        if is_complex(elem):
            self.error("np.linspace to a complex dtype is not supported")
        num = self.cast(num, "i64")
        if num.const is None or num.const < 0:
            z = self.const(0, "i64")
            self.error_if(self.cmp_scalar("lt", num, z), "ValueError",
                          "Number of samples must be non-negative.")
        start, stop = self.cast(start, dt), self.cast(stop, dt)
        one = self.const(1, "i64")
        div = self.op(f"arith.subi {num.ssa}, {one.ssa} : i64", "i64") if endpoint else num
        divf = self.cast(div, dt)
        delta = self.op(f"arith.subf {stop.ssa}, {start.ssa} : {dt}", dt)
        step = self.op(f"arith.divf {delta.ssa}, {divf.ssa} : {dt}", dt)
        zi, zf = self.const(0, "i64"), self.const(0.0, dt)
        pos = self.op(f"arith.cmpi sgt, {div.ssa}, {zi.ssa} : i64", "i1")
        nan = self.const(float("nan"), dt)
        step = self.op(f"arith.select {pos.ssa}, {step.ssa}, {nan.ssa} : {dt}", dt)
        # NumPy: y = arange(num) * step + start; with a zero step (denormal
        # deltas) y = arange(num) / div * delta + start; with no step
        # (num <= 1 with the endpoint) y = arange(num) * delta + start
        szero = self.op(f"arith.cmpf oeq, {step.ssa}, {zf.ssa} : {dt}", "i1")
        mult = self.op(f"arith.select {pos.ssa}, {step.ssa}, {delta.ssa} : {dt}", dt)
        last = self.op(f"arith.subi {num.ssa}, {one.ssa} : i64", "i64")
        ni = self.index(num)
        def element(ki):
            kf = self.cast(ki, dt)
            a1 = self.op(f"arith.mulf {kf.ssa}, {mult.ssa} : {dt}", dt)
            q = self.op(f"arith.divf {kf.ssa}, {divf.ssa} : {dt}", dt)
            a2 = self.op(f"arith.mulf {q.ssa}, {delta.ssa} : {dt}", dt)
            val = self.op(f"arith.select {szero.ssa}, {a2.ssa}, {a1.ssa} : {dt}", dt)
            val = self.op(f"arith.addf {val.ssa}, {start.ssa} : {dt}", dt)
            if endpoint:  # y[-1] = stop when num > 1
                is_last = self.op(f"arith.cmpi eq, {ki.ssa}, {last.ssa} : i64", "i1")
                more = self.op(f"arith.cmpi sgt, {num.ssa}, {one.ssa} : i64", "i1")
                put = self.op(f"arith.andi {is_last.ssa}, {more.ssa} : i1", "i1")
                val = self.op(f"arith.select {put.ssa}, {stop.ssa}, {val.ssa} : {dt}", dt)
            if kind(elem) == 1:  # integer dtypes: floor, then convert
                val = self.op(f"math.floor {val.ssa} : {dt}", dt)
            return val

        r = self.fill_1d(ni, elem, element)
        if retstep:
            return V(kind="tuple", items=[r, step])
        return r

    def call_np_dot(self, e):
        a, b = self.call_args(e, 2, 2)
        if a.is_scalar or b.is_scalar:
            # np.dot makes arrays of its operands: a Python number is not
            # weak there (np.dot(a32, 2.0) is float64)
            return self.binop("mul", self.weak(a, False), self.weak(b, False))
        if a.is_array and b.is_array and max(a.ty.rank, b.ty.rank) > 2:
            # np.dot contracts a's last axis with b's second-to-last and
            # keeps all the others (shape (4, 2, 2) for (4, 1) and (2, 1, 2)):
            # not @'s batching
            self.error("np.dot of an array with more than 2 dimensions is not supported "
                       "(use @ / np.matmul, which batches, or np.tensordot's rule by hand)")
        return self.matmul(a, b)

    def call_np_matmul(self, e):
        a, b = self.call_args(e, 2, 2)
        if a.is_scalar or b.is_scalar:
            self.error("np.matmul of a scalar (NumPy raises ValueError; use *)")
        return self.matmul(a, b)

    def call_np_transpose(self, e):
        args = self.call_args(e, 1, 2, kw=("axes",))
        a = args[0]
        if not a.is_array:
            self.error("np.transpose of a non-array")
        axes = args[1] if len(args) > 1 else self.kwargs(e).get("axes")
        if axes is None or axes.kind == "none":
            return self.transpose(a)
        return self.transpose(a, self.const_ints([axes], "transpose axes"))

    def call_np_reshape(self, e):
        args = self.call_args(e, 1, 2, kw=("order", "shape", "newshape"))
        kw = self.kwargs(e)
        shape = args[1] if len(args) > 1 else kw.get("shape", kw.get("newshape"))
        if shape is None:
            self.error("np.reshape needs a shape")
        if not args[0].is_array:
            self.error("np.reshape of a non-array")
        return self.reshape(args[0], shape, e)

    def call_np_expand_dims(self, e):
        args = self.call_args(e, 1, 2, kw=("axis",))
        a = args[0]
        axis = args[1] if len(args) > 1 else self.kwargs(e).get("axis")
        if not a.is_array or axis is None:
            self.error("np.expand_dims needs an array and an axis")
        axes = self.const_ints([axis], "expand_dims axes")
        rank = a.ty.rank + len(axes)
        for x in axes:
            if not -rank <= x < rank:
                self.error(f"axis {x} is out of bounds for the {rank}-dimensional result")
        positions = sorted(x % rank for x in axes)
        if len(set(positions)) != len(positions):
            self.error("repeated axis in expand_dims")
        return self.expand_dims(a, positions)

    def call_np_roll(self, e):
        """np.roll(a, shift, axis=None): a new array (np.empty_like's layout)
        with the elements shifted along `axis` (along the flattened array
        without one); tuples of shifts and axes roll along each in turn."""
        args = self.call_args(e, 2, 3, kw=("axis",))
        a, shift = args[0], args[1]
        axis = args[2] if len(args) > 2 else self.kwargs(e).get("axis")
        if not a.is_array:
            self.error("np.roll needs an array")
        shifts = shift.items if shift.kind == "tuple" else [shift]
        for s in shifts:
            if not s.is_scalar or kind(s.ty) >= 2:
                self.error("np.roll: shifts are integers")
        if axis is None or axis.kind == "none":
            if len(shifts) != 1:
                self.error("np.roll: several shifts need an axis for each")
            flat = self.inline("r = a.reshape(-1)", {"a": a}, "r")
            rolled = self.roll_axis(flat, shifts[0], 0)
            return self.inline("r = f.reshape(a.shape)", {"f": rolled, "a": a}, "r")
        axes = self.const_ints([axis], "np.roll axes")
        if len(shifts) != len(axes) and 1 not in (len(shifts), len(axes)):
            self.error("np.roll: shift and axis must have the same length")
        n = max(len(shifts), len(axes))
        shifts, axes = shifts * (n // len(shifts)), axes * (n // len(axes))
        r = a
        for s, k in zip(shifts, axes):
            if not -a.ty.rank <= k < a.ty.rank:
                self.error(f"np.roll: axis {k} is out of bounds for a rank-{a.ty.rank} array")
            r = self.roll_axis(r, s, k % a.ty.rank)
        return r if r is not a else self.copy(a)

    def roll_axis(self, a, shift, axis):
        before = ":, " * axis
        return self.inline(f"""
            r = np.empty_like(a)
            n = a.shape[{axis}]
            if n > 0:
                s = shift % n
                r[{before}s:] = a[{before}:n - s]
                r[{before}:s] = a[{before}n - s:]
        """, {"a": a, "shift": shift}, "r")

    def call_np_copy(self, e):
        (a,) = self.call_args(e, 1, 1)
        return self.copy(a)

    def call_np_outer(self, e):
        a, b = self.call_args(e, 2, 2)
        for v in (a, b):
            if not v.is_array:
                self.error("np.outer takes two arrays")
        # NumPy flattens both operands.
        return self.inline("r = a.reshape(-1)[:, None] * b.reshape(-1)[None, :]",
                           {"a": a, "b": b}, "r")

    def call_np_meshgrid(self, e):
        """np.meshgrid(x1, ..., xn, indexing='xy'|'ij'): new arrays (copies,
        as NumPy's default copy=True) of the flattened inputs broadcast
        along their own axis; 'xy' swaps the first two axes."""
        arrays = self.call_args(e, 1, 8, kw=("indexing",))
        indexing = self.kwargs(e).get("indexing")
        ij = indexing is not None and indexing.kind == "str" and indexing.obj == "ij"
        if indexing is not None and not ij and not (indexing.kind == "str" and
                                                      indexing.obj == "xy"):
            self.error("np.meshgrid: indexing is 'xy' or 'ij'")
        if not all(v.is_array for v in arrays):
            self.error("np.meshgrid takes arrays")
        n = len(arrays)
        flat = [self.inline("r = a.reshape(-1)", {"a": v}, "r") for v in arrays]
        # the output axis of input i
        axis_of = list(range(n))
        if not ij and n >= 2:
            axis_of[0], axis_of[1] = 1, 0
        sizes = [None] * n
        for i, v in enumerate(flat):
            sizes[axis_of[i]] = self.dim(v, 0)
        outs = []
        for i, v in enumerate(flat):
            t = ArrT(v.ty.elem, n)
            out = self.op(f"vrir.empty({', '.join(sizes)}) : {t.mlir()}", t)
            view = ", ".join(":" if d == axis_of[i] else "None" for d in range(n))
            self.inline(f"out[{', '.join([':'] * n)}] = v[{view}]", {"out": out, "v": v}, "out")
            outs.append(out)
        return V(kind="tuple", items=outs)

    def call_np_concatenate(self, e):
        return self.join_arrays(e, "concatenate")

    def call_np_stack(self, e):
        return self.join_arrays(e, "stack")

    def join_arrays(self, e, name):
        """np.concatenate(arrays, axis=0) and np.stack(arrays, axis=0) of a
        tuple or list of arrays: a new array of their common dtype, each
        input copied into its slice; shapes that do not fit raise NumPy's
        ValueError at run time. A list built while running is one array
        already (join_list)."""
        if len(e.args) < 1:
            self.error(f"np.{name} takes a tuple or list of arrays")
        for k in e.keywords:
            if k.arg != "axis":
                self.error(f"unsupported keyword argument '{k.arg}'")
        if isinstance(e.args[0], (ast.Tuple, ast.List)):
            arrays = [self.expr(x) for x in e.args[0].elts]
        else:
            seq = self.list_operand(e.args[0])
            arrays = seq.items if seq.kind == "tuple" else None
        axis_v = self.expr(e.args[1]) if len(e.args) > 1 else self.kwargs(e).get("axis")
        if arrays is None:
            if seq.kind != "list":
                self.error(f"np.{name} takes a tuple or list of arrays")
            return self.join_list(seq, axis_v, name)
        return self.join_values(arrays, axis_v, name)

    def join_values(self, arrays, axis_v, name):
        if not arrays or not all(v.is_array for v in arrays):
            self.error(f"np.{name} takes one or more arrays")
        rank = arrays[0].ty.rank
        if any(v.ty.rank != rank for v in arrays):
            self.error(f"np.{name}: all the input arrays must have the same number of dimensions")
        out_rank = rank + (name == "stack")
        axis = 0 if axis_v is None else self.const_ints([axis_v], "axis")[0]
        if not -out_rank <= axis < out_rank:
            self.error(f"axis {axis} is out of bounds for a {out_rank}-dimensional result")
        axis %= out_rank
        elem = arrays[0].ty.elem
        for v in arrays[1:]:
            elem = promote_strong(elem, v.ty.elem)
        if name == "stack":
            arrays = [self.expand_dims(v, [axis]) for v in arrays]
        first = arrays[0]
        # The other dimensions must agree (store_slice would broadcast).
        message = (f"np.{name}: all the input array dimensions except for the "
                   "concatenation axis must match exactly" if name == "concatenate"
                   else "np.stack: all input arrays must have the same shape")
        for v in arrays[1:]:
            self.require_same_dims(v, first, [d for d in range(out_rank)
                                              if d != axis or name == "stack"],
                                   "ValueError", lambda d: message)
        sizes = [self.dim(first, d) for d in range(out_rank)]
        total = self.from_index(sizes[axis])
        for v in arrays[1:]:
            total = self.binop("add", total, self.from_index(self.dim(v, axis)))
        sizes[axis] = self.index(total)
        t = ArrT(elem, out_rank)
        out = self.op(f"vrir.empty({', '.join(sizes)}) : {t.mlir()}", t)
        values = {"out": out}
        lines = ["at = 0"]
        for i, v in enumerate(arrays):
            values[f"x{i}"] = v
            lines.append(f"n = x{i}.shape[{axis}]")
            lines.append(f"out[{':, ' * axis}at:at + n] = x{i}")
            lines.append("at = at + n")
        return self.inline("\n".join(lines), values, "out")

    def join_list(self, v, axis_v, name):
        """np.stack / np.concatenate of a list built while running: the
        array of its items (rows), its first axis moved to `axis` (and
        merged with the next one, for concatenate)."""
        rank = v.ty.item.rank if isinstance(v.ty.item, ArrT) else 0
        if name == "concatenate" and rank == 0:
            self.error("np.concatenate: zero-dimensional arrays cannot be concatenated")
        out_rank = rank + (name == "stack")
        axis = 0 if axis_v is None else self.const_ints([axis_v], "axis")[0]
        if not -out_rank <= axis < out_rank:
            self.error(f"axis {axis} is out of bounds for a {out_rank}-dimensional result")
        axis %= out_rank
        buf, n = self.list_value(v, f"np.{name}")
        dims = "".join(f"t.shape[{d}], " if d != axis else f"t.shape[{d}] * t.shape[{d + 1}], "
                       for d in range(out_rank + 1) if d != axis + 1)
        merge = f"r = t.reshape(({dims}))" if name == "concatenate" else "r = t"
        return self.template(f"""
            if n == 0:
                raise ValueError("need at least one array to {name}")
            t = np.moveaxis(b[:n], 0, {axis}).copy()
            {merge}
        """, {"b": buf, "n": n})

    def call_method(self, name, a, e):
        method = getattr(self, f"method_{name}", None)
        if method is not None:  # the library modules' methods (library.py, sorting.py)
            return method(a, e)
        if name in ("conj", "conjugate"):
            self.call_args(e, 0, 0)
            if a.is_array and not is_complex(a.ty.elem):
                return a  # NumPy's ndarray.conj() of a real array is the array itself
            return self.unary("conj", a)
        if name == "copy":
            self.call_args(e, 0, 0)
            return self.copy(a)
        if name == "transpose":
            args = self.call_args(e, 0, 32)
            if not args or (len(args) == 1 and args[0].kind == "none"):
                return self.transpose(a)
            return self.transpose(a, self.const_ints(args, "transpose axes"))
        if name == "reshape":
            args = self.call_args(e, 1, 32, kw=("order",))
            shape = args[0] if len(args) == 1 else V(kind="tuple", items=args)
            return self.reshape(a, shape, e)
        if name == "astype":
            (dt,) = self.call_args(e, 1, 1)
            if dt.kind != "dtype":
                self.error("astype() needs a dtype such as np.float32")
            if dt.obj == a.ty.elem:
                return self.copy(a)
            return self.cast(a, dt.obj)
        if name == "fill":
            (v,) = self.call_args(e, 1, 1)
            self.store_plan(a, [], v)
            return V(kind="none")
        if name == "clip":
            args = self.call_args(e, 0, 2, kw=("min", "max", "a_min", "a_max"))
            return self.clip(a, args, e)
        if name in ("argmax", "argmin"):
            args = self.call_args(e, 0, 1, kw=("axis", "keepdims"))
            kw = self.kwargs(e)
            return self.arg_extreme(name, a, args[0] if args else kw.get("axis"),
                                    kw.get("keepdims"))
        if name in ("cumsum", "cumprod"):
            args = self.call_args(e, 0, 1, kw=("axis",))
            return self.accumulate(name, a, args[0] if args else self.kwargs(e).get("axis"))
        args = self.call_args(e, 0, 1, kw=("axis", "keepdims"))
        kw = self.kwargs(e)
        axis = args[0] if args else kw.get("axis")
        return self.reduce_axes(REDUCTIONS[name], a, axis, kw.get("keepdims"))

    # creation
    def shape_of(self, v):
        if v.kind == "tuple":
            items = v.items
        else:
            items = [v]
        out = []
        for x in items:
            if not x.is_scalar or kind(x.ty) >= 2:
                self.error("array shapes are integers or tuples of integers")
            out.append(self.index(x))
        return out

    def dtype_kw(self, e, default, kw=None):
        """The dtype= keyword of call `e` (`kw`: its keywords already
        evaluated, so that they are not evaluated twice)."""
        if kw is None:
            kw = self.kwargs(e)
        dt = kw.get("dtype")
        if dt is None or dt.kind == "none":
            return default
        if dt.kind != "dtype":
            self.error("dtype must be one of float, int, bool, np.float64, np.float32, np.int64, np.int32, np.bool_")
        return dt.obj

    def order_kw(self, e):
        o = self.kwargs(e).get("order")
        if o is None:
            return "row_major"
        if o.kind == "str" and o.obj in ("C", "F"):
            return "row_major" if o.obj == "C" else "col_major"
        self.error("order must be 'C' or 'F'")

    def alloc(self, which, e):
        args = self.call_args(e, 1, 2, kw=("dtype", "order"))
        elem = self.dtype_kw(e, "f64")
        if len(args) == 2:
            if args[1].kind != "dtype":
                self.error("the second argument must be a dtype")
            elem = args[1].obj
        sizes = self.shape_of(args[0])
        t = ArrT(elem, len(sizes), self.order_kw(e))
        if not sizes:
            self.error("0-dimensional arrays are not supported")
        return self.op(f"vrir.{which}({', '.join(sizes)}) : {t.mlir()}", t)

    def call_np_zeros(self, e):
        return self.alloc("zeros", e)

    def call_np_ones(self, e):
        return self.alloc("ones", e)

    def call_np_empty(self, e):
        return self.alloc("empty", e)

    def alloc_like(self, which, e, fill=None):
        args = self.call_args(e, 1, 2, kw=("dtype",))
        a = args[0]
        if not a.is_array:
            self.error(f"np.{which}_like needs an array")
        elem = self.dtype_kw(e, a.ty.elem)
        if len(args) == 2 and args[1].kind != "none":
            # np.zeros_like(A, dtype): NumPy's TypeError for anything else
            if args[1].kind != "dtype":
                self.error(f"np.{which}_like's second argument is the dtype")
            elem = args[1].obj
        layout = "col_major" if a.ty.layout == "col_major" else "row_major"
        t = ArrT(elem, a.ty.rank, layout)
        sizes = [self.dim(a, k) for k in range(a.ty.rank)]
        r = self.op(f"vrir.{which}({', '.join(sizes)}) : {t.mlir()}", t)
        if fill is not None:
            self.store_plan(r, [], fill)
        return r

    def call_np_zeros_like(self, e):
        return self.alloc_like("zeros", e)

    def call_np_ones_like(self, e):
        return self.alloc_like("ones", e)

    def call_np_empty_like(self, e):
        return self.alloc_like("empty", e)

    def call_np_full(self, e):
        args = self.call_args(e, 2, 2, kw=("dtype", "order"))
        v = args[1]
        self.need_scalar(v)
        elem = self.dtype_kw(e, v.ty)
        sizes = self.shape_of(args[0])
        t = ArrT(elem, len(sizes), self.order_kw(e))
        r = self.op(f"vrir.empty({', '.join(sizes)}) : {t.mlir()}", t)
        self.store_plan(r, [], v)
        return r

    def call_np_full_like(self, e):
        args = self.call_args(e, 2, 2, kw=("dtype",))
        a, v = args
        self.need_scalar(v)
        e2 = ast.Call(func=e.func, args=e.args[:1], keywords=e.keywords)
        return self.alloc_like("empty", e2, fill=v)

    def call_np_arange(self, e):
        args = self.call_args(e, 1, 3, kw=("dtype",))
        for a in args:
            self.need_scalar(a)
            if is_complex(a.ty):
                self.error("np.arange of complex numbers is not supported")
        isf = any(a.ty.startswith("f") for a in args)
        w = "f64" if isf else "i64"
        args = [self.cast(a, w) for a in args]
        if len(args) == 1:
            start, stop, step = self.const(0, w), args[0], self.const(1, w)
        elif len(args) == 2:
            start, stop, step = args[0], args[1], self.const(1, w)
        else:
            start, stop, step = args
        elem = self.dtype_kw(e, w)
        self.error_if_zero(step, "ZeroDivisionError", "division by zero")
        # n = max(0, ceil((stop - start) / step))
        d = self.op(f"arith.sub{'f' if isf else 'i'} {stop.ssa}, {start.ssa} : {w}", w)
        if isf:
            q = self.op(f"arith.divf {d.ssa}, {step.ssa} : f64", "f64")
            c = self.op(f"math.ceil {q.ssa} : f64", "f64")
            n = self.cast(c, "i64")
        else:
            q = self.op(f"arith.ceildivsi {d.ssa}, {step.ssa} : i64", "i64")
            n = q
        z = self.const(0, "i64")
        n = self.op(f"arith.maxsi {n.ssa}, {z.ssa} : i64", "i64")
        ni = self.index(n)
        def element(ki):
            kw = self.cast(ki, w)
            m = self.op(f"arith.mul{'f' if isf else 'i'} {kw.ssa}, {step.ssa} : {w}", w)
            return self.op(f"arith.add{'f' if isf else 'i'} {start.ssa}, {m.ssa} : {w}", w)

        return self.fill_1d(ni, elem, element)

    def fill_1d(self, ni, elem, element):
        """A new 1-D array of `ni` (index SSA name) elements of type `elem`;
        element k is `element(k)` (k an i64 value), converted to `elem`."""
        t = ArrT(elem, 1)
        r = self.op(f"vrir.empty({ni}) : {t.mlir()}", t)
        c0 = self.op("arith.constant 0 : index", "index")
        c1 = self.op("arith.constant 1 : index", "index")
        k = self.fresh()
        self.raw(f"scf.for {k} = {c0.ssa} to {ni} step {c1.ssa} {{")
        ki = self.op(f"arith.index_cast {k} : index to i64", "i64")
        val = self.cast(element(ki), elem)
        self.emit(f"vrir.store {val.ssa}, {r.ssa}[{k}] flags [{NONE}] : {t.mlir()}[index]")
        self.raw("}")
        return r

    def call_np_issubdtype(self, e):
        a, b = self.call_args(e, 2, 2)
        if a.kind != "dtype":
            self.error("np.issubdtype needs a dtype (such as A.dtype) first")
        if b.kind == "dtype":
            return self.const(a.obj == b.obj, "i1")
        if b.kind == "func" and b.obj[0] == "np" and b.obj[1] in ABSTRACT_DTYPES:
            k = "u" if is_unsigned(a.obj) else kind(a.obj)
            return self.const(k in ABSTRACT_DTYPES[b.obj[1]], "i1")
        self.error("np.issubdtype's second argument must be a dtype or one of "
                   + ", ".join(f"np.{n}" for n in ABSTRACT_DTYPES))
