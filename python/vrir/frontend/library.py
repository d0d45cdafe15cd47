"""NumPy functions and array methods written as Python templates that the
frontend compiles in place (Calls.inline): element-wise predicates
(isnan, isinf, isfinite, isclose), logical reductions (any, all,
count_nonzero, allclose, array_equal), differences, rounding, diagonals and
triangles (diag, diagonal, trace, tril, triu, their indices), small products (cross,
inner, vdot, kron), averages (average, ptp, the NaN-ignoring reductions,
cov, corrcoef), shapes (ravel, flatten, squeeze, swapaxes, moveaxis),
tiling and stacking (tile, repeat, hstack, vstack, column_stack, append), np.array
of literal lists, np.take, np.convolve, np.logspace, np.trapezoid,
np.polyval, np.nan_to_num and a few element-wise functions (square, exp2,
deg2rad, rad2deg, sinc, fmax, fmin).

A `call_np_<name>` method handles np.<name>(...), a `method_<name>` method
the array method A.<name>(...)."""
import ast
import math

from ..types import ArrT, ELEM_TO_NP, is_complex, kind, promote_strong


def dtype_source(elem):
    """NumPy's name of an element type, for templates (np.float64, ...)."""
    return f"np.{ELEM_TO_NP[elem].name}" if ELEM_TO_NP[elem].name != "bool" else "np.bool_"


class NumPyLibrary:
    """NumPy functions compiled from templates."""

    # ------------------------------------------------------------ helpers
    def template(self, source, values, result="r", **text):
        """inline() of `source` with the `text` substitutions (constant
        axes, dtypes, ...); a scalar result is a NumPy scalar."""
        for key, value in text.items():
            source = source.replace(key, str(value))
        r = self.inline(source, values, result)
        return self.weak(r, False) if r.is_scalar else r

    def one_array(self, v, fn):
        if not v.is_array:
            self.error(f"{fn} needs an array")
        return v

    def axis_source(self, v, fn, rank=None):
        """A constant axis (or tuple of axes, or None) as template text."""
        if v is None or v.kind == "none":
            return "None"
        items = v.items if v.kind == "tuple" else [v]
        axes = self.const_ints(items, f"{fn} axes")
        if rank is not None:
            for x in axes:
                if not -rank <= x < rank:
                    self.error(f"{fn}: axis {x} is out of bounds for a rank-{rank} array")
        if v.kind == "tuple":
            return "(" + "".join(f"{x}, " for x in axes) + ")"
        return str(axes[0])

    def array_args(self, e, fn, lo, hi, kw=()):
        """The arguments of `fn`, the first `lo` of which must be arrays, and
        the keyword values."""
        args = self.call_args(e, lo, hi, kw=kw)
        for v in args[:lo]:
            self.one_array(v, fn)
        return args, self.kwargs(e)

    # --------------------------------------------- element-wise predicates
    def predicate(self, e, source, fn):
        (x,) = self.call_args(e, 1, 1)
        if not (x.is_array or x.is_scalar):
            self.error(f"np.{fn} needs a number or an array")
        return self.template(source, {"x": x})

    def call_np_isnan(self, e):
        return self.predicate(e, "r = x != x", "isnan")

    def call_np_isinf(self, e):
        return self.predicate(e, "r = np.abs(x) == np.inf", "isinf")

    def call_np_isfinite(self, e):
        # x - x is 0 for every finite number and NaN for inf and NaN
        return self.predicate(e, "r = (x - x) == 0", "isfinite")

    def call_np_isclose(self, e):
        args, kw = self.array_args(e, "np.isclose", 0, 4, kw=("rtol", "atol", "equal_nan"))
        return self.closeness(args, kw, "r = close", "np.isclose")

    def call_np_allclose(self, e):
        args, kw = self.array_args(e, "np.allclose", 0, 4, kw=("rtol", "atol", "equal_nan"))
        r = self.closeness(args, kw, "r = bool(np.all(close))", "np.allclose")
        return self.weak(r)  # a Python bool

    def closeness(self, args, kw, last, fn):
        """NumPy's |a - b| <= atol + rtol * |b| where b is finite, or a == b
        (and both NaN with equal_nan)."""
        if len(args) < 2:
            self.error(f"{fn} needs two operands")
        a, b = args[0], args[1]
        rtol = args[2] if len(args) > 2 else kw.get("rtol", self.pyconst(1e-05))
        atol = args[3] if len(args) > 3 else kw.get("atol", self.pyconst(1e-08))
        equal_nan = self.const_bool(kw.get("equal_nan"), "equal_nan", False)
        both_nan = " | ((a != a) & (b != b))" if equal_nan else ""
        return self.template(f"""
            close = (((np.abs(a - b) <= atol + rtol * np.abs(b)) & ((b - b) == 0))
                     | (a == b){both_nan})
            {last}
        """, {"a": a, "b": b, "rtol": rtol, "atol": atol})

    def call_np_array_equal(self, e):
        args, kw = self.array_args(e, "np.array_equal", 2, 2, kw=("equal_nan",))
        a, b = args
        if a.ty.rank != b.ty.rank:
            return self.weak(self.const(False, "i1"))
        equal_nan = self.const_bool(kw.get("equal_nan"), "equal_nan", False)
        same = "(a == b) | ((a != a) & (b != b))" if equal_nan else "a == b"
        return self.weak(self.template(f"""
            r = False
            if a.shape == b.shape:
                r = bool(np.all({same}))
        """, {"a": a, "b": b}))

    # ------------------------------------------------- logical reductions
    def logical_reduction(self, a, axis, keepdims, which):
        test = {"any": "np.sum(a != 0, axis=AX, keepdims=KEEP) > 0",
                "all": "np.sum(a == 0, axis=AX, keepdims=KEEP) == 0",
                "count_nonzero": "np.sum(a != 0, axis=AX, keepdims=KEEP)"}[which]
        if not a.is_array:
            self.error(f"np.{which} needs an array")
        r = self.template("r = " + test, {"a": a},
                          AX=self.axis_source(axis, f"np.{which}", a.ty.rank),
                          KEEP=self.const_bool(keepdims, "keepdims", False))
        # np.count_nonzero over everything is a Python int
        return self.weak(r) if which == "count_nonzero" and r.is_scalar else r

    def logical_call(self, e, which):
        args, kw = self.array_args(e, f"np.{which}", 1, 2, kw=("axis", "keepdims"))
        return self.logical_reduction(args[0], args[1] if len(args) > 1 else kw.get("axis"),
                                      kw.get("keepdims"), which)

    def logical_method(self, a, e, which):
        args = self.call_args(e, 0, 1, kw=("axis", "keepdims"))
        kw = self.kwargs(e)
        return self.logical_reduction(a, args[0] if args else kw.get("axis"),
                                      kw.get("keepdims"), which)

    def call_np_any(self, e):
        return self.logical_call(e, "any")

    def call_np_all(self, e):
        return self.logical_call(e, "all")

    def call_np_count_nonzero(self, e):
        return self.logical_call(e, "count_nonzero")

    def method_any(self, a, e):
        return self.logical_method(a, e, "any")

    def method_all(self, a, e):
        return self.logical_method(a, e, "all")

    # ---------------------------------------------------- differences
    def call_np_diff(self, e):
        """np.diff(a, n=1, axis=-1): n-th differences (!= for booleans)."""
        args, kw = self.array_args(e, "np.diff", 1, 3, kw=("n", "axis"))
        a = args[0]
        n = args[1] if len(args) > 1 else kw.get("n", self.pyconst(1))
        axis = args[2] if len(args) > 2 else kw.get("axis", self.pyconst(-1))
        (count,) = self.const_ints([n], "np.diff n")
        if count < 0:
            self.error("np.diff: order must be non-negative")
        k = int(self.axis_source(axis, "np.diff", a.ty.rank)) % a.ty.rank
        before = ":, " * k
        op = "!=" if a.ty.elem == "i1" else "-"
        lines, prev = [], "a"
        for i in range(count):
            lines.append(f"d{i} = {prev}[{before}1:] {op} {prev}[{before}:-1]")
            prev = f"d{i}"
        if count == 0:
            return a
        return self.template("\n".join(lines), {"a": a}, prev)

    def call_np_trapezoid(self, e):
        """np.trapezoid(y, x=None, dx=1.0, axis=-1): the trapezoidal rule
        along `axis`, with NumPy's expression (d * (y[1:] + y[:-1]) / 2.0
        summed); x a 1-D array of the axis's sample points or of y's shape."""
        args, kw = self.array_args(e, "np.trapezoid", 1, 4, kw=("x", "dx", "axis"))
        y = args[0]
        x = args[1] if len(args) > 1 else kw.get("x")
        dx = args[2] if len(args) > 2 else kw.get("dx", self.pyconst(1.0))
        axis = args[3] if len(args) > 3 else kw.get("axis", self.pyconst(-1))
        k = int(self.axis_source(axis, "np.trapezoid", y.ty.rank)) % y.ty.rank
        before = ":, " * k
        values = {"y": y}
        if x is not None and x.kind != "none":
            if not x.is_array or x.ty.rank not in (1, y.ty.rank):
                self.error("np.trapezoid: x must be a 1-D array or have the shape of y")
            values["x"] = x
            if x.ty.rank == 1:
                # along the axis, with new axes for the dimensions after it
                d = "(x[1:] - x[:-1])" + (f"[:{', None' * (y.ty.rank - 1 - k)}]"
                                          if k < y.ty.rank - 1 else "")
            else:
                d = f"(x[{before}1:] - x[{before}:-1])"
        else:
            if not dx.is_scalar:
                self.error("np.trapezoid: dx must be a number")
            values["dx"] = dx
            d = "dx"
        return self.template(
            f"r = np.sum({d} * (y[{before}1:] + y[{before}:-1]) / 2.0, axis={k})", values)

    def call_np_polyval(self, e):
        """np.polyval(p, x): the polynomial with coefficients p (highest
        power first) at x, by Horner's rule as NumPy (0 * x + p[0], ...)."""
        p, x = self.call_args(e, 2, 2)
        if not p.is_array or p.ty.rank != 1:
            self.error("np.polyval: p must be a 1-D array of coefficients")
        if not (x.is_array or x.is_scalar):
            self.error("np.polyval: x must be a number or an array")
        return self.template("""
            r = x * 0 + p[0]
            for k in range(1, p.shape[0]):
                r = r * x + p[k]
        """, {"p": p, "x": x})

    def call_np_nan_to_num(self, e):
        """np.nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
        NaN, inf and -inf replaced (by default by 0 and the type's largest
        and smallest finite numbers), in a new array (copy=False as well)."""
        args, kw = self.array_args(e, "np.nan_to_num", 0, 5,
                                   kw=("copy", "nan", "posinf", "neginf"))
        x = args[0]
        if not (x.is_array or x.is_scalar):
            self.error("np.nan_to_num needs a number or an array")
        elem = x.ty.elem if x.is_array else x.ty
        if is_complex(elem):
            self.error("np.nan_to_num of complex numbers is not supported")
        if kind(elem) <= 1:  # integers and booleans have neither
            return self.template("r = x.copy()", {"x": x}) if x.is_array else x
        big = "3.4028234663852886e38" if elem == "f32" else "1.7976931348623157e308"
        names = ("nan", "posinf", "neginf")
        given = dict(zip(names, args[2:]))
        given.update({k: v for k, v in kw.items() if k in names})
        values = {"x": x}
        text = {}
        for name, default in zip(names, ("0.0", big, "-" + big)):
            v = given.get(name)
            if v is None or v.kind == "none":
                text[name] = default
            else:
                if not v.is_scalar or is_complex(v.ty):
                    self.error(f"np.nan_to_num: {name} must be a real number")
                values[name] = v
                text[name] = name
        return self.template(
            f"r = np.where(x != x, {text['nan']}, np.where(x == np.inf, {text['posinf']}, "
            f"np.where(x == -np.inf, {text['neginf']}, x)))", values)

    # ------------------------------------------------------- rounding
    def rounded(self, a, decimals):
        (d,) = self.const_ints([decimals], "decimals")
        elem = a.ty.elem if a.is_array else a.ty
        if is_complex(elem):
            self.error("np.round of complex numbers is not supported")
        if kind(elem) <= 1:
            if d < 0:
                self.error("np.round of integers to negative decimals is not supported")
            return self.copy(a) if a.is_array else a
        # NumPy's algorithm: rint(x * 10**d) / 10**d (x / 10**-d for d < 0)
        if d >= 0:
            source = f"r = np.rint(x * {10.0 ** d!r}) / {10.0 ** d!r}" if d else "r = np.rint(x)"
        else:
            source = f"r = np.rint(x / {10.0 ** -d!r}) * {10.0 ** -d!r}"
        return self.template(source, {"x": a})

    def call_np_round(self, e):
        args = self.call_args(e, 1, 2, kw=("decimals",))
        x = args[0]
        if not (x.is_array or x.is_scalar):
            self.error("np.round needs a number or an array")
        return self.rounded(x, args[1] if len(args) > 1 else
                            self.kwargs(e).get("decimals", self.pyconst(0)))

    call_np_around = call_np_round

    def method_round(self, a, e):
        args = self.call_args(e, 0, 1, kw=("decimals",))
        return self.rounded(a, args[0] if args else
                            self.kwargs(e).get("decimals", self.pyconst(0)))

    # ------------------------------------------ diagonals and triangles
    def call_np_diag(self, e):
        """np.diag(v, k=0): the matrix with v on its k-th diagonal, or the
        k-th diagonal (a copy) of a matrix."""
        args, kw = self.array_args(e, "np.diag", 1, 2, kw=("k",))
        v = args[0]
        k = args[1] if len(args) > 1 else kw.get("k", self.pyconst(0))
        if v.ty.rank == 1:
            return self.template("""
                m = v.shape[0]
                n = m + abs(k)
                r = np.zeros((n, n), dtype=v.dtype)
                for i in range(m):
                    r[i + max(-k, 0), i + max(k, 0)] = v[i]
            """, {"v": v, "k": k})
        if v.ty.rank != 2:
            self.error("np.diag: input must be 1- or 2-d")
        return self.diagonal(v, k)

    def diagonal(self, a, k):
        return self.template("""
            rows = a.shape[0] - max(-k, 0)
            cols = a.shape[1] - max(k, 0)
            m = max(0, min(rows, cols))
            r = np.empty(m, dtype=a.dtype)
            for i in range(m):
                r[i] = a[i + max(-k, 0), i + max(k, 0)]
        """, {"a": a, "k": k})

    def method_diagonal(self, a, e):
        args = self.call_args(e, 0, 1, kw=("offset",))
        if a.ty.rank != 2:
            self.error("diagonal() of an array that is not a matrix is not supported")
        return self.diagonal(a, args[0] if args else
                             self.kwargs(e).get("offset", self.pyconst(0)))

    def call_np_trace(self, e):
        args, kw = self.array_args(e, "np.trace", 1, 2, kw=("offset",))
        return self.trace(args[0], args[1] if len(args) > 1 else
                          kw.get("offset", self.pyconst(0)))

    def method_trace(self, a, e):
        args = self.call_args(e, 0, 1, kw=("offset",))
        return self.trace(a, args[0] if args else self.kwargs(e).get("offset", self.pyconst(0)))

    def trace(self, a, k):
        if a.ty.rank != 2:
            self.error("np.trace of an array that is not a matrix is not supported")
        return self.template("r = np.sum(d)", {"d": self.diagonal(a, k)})

    def triangle(self, e, which):
        args, kw = self.array_args(e, f"np.{which}", 1, 2, kw=("k",))
        m = args[0]
        if m.ty.rank != 2:
            self.error(f"np.{which} of an array that is not a matrix is not supported")
        k = args[1] if len(args) > 1 else kw.get("k", self.pyconst(0))
        # tril keeps j <= i + k, triu keeps j >= i + k
        zero = "range(max(0, i + k + 1), m.shape[1])" if which == "tril" else \
            "range(0, max(0, min(m.shape[1], i + k)))"
        return self.template(f"""
            r = m.copy()
            for i in range(m.shape[0]):
                for j in {zero}:
                    r[i, j] = 0
        """, {"m": m, "k": k})

    def triangle_indices(self, e, which):
        """np.tril_indices / np.triu_indices(n, k=0, m=None): the row and
        column indices of the triangle of an n x m matrix, in C order."""
        args = self.call_args(e, 1, 3, kw=("k", "m"))
        kw = self.kwargs(e)
        n = args[0]
        k = args[1] if len(args) > 1 else kw.get("k", self.pyconst(0))
        m = args[2] if len(args) > 2 else kw.get("m")
        values = {"n": n, "k": k}
        for name, v in (("n", n), ("k", k), ("m", m)):
            if v is not None and v.kind != "none" and \
                    not (v.is_scalar and kind(v.ty) == 1):
                self.error(f"np.{which}_indices: {name} must be an integer")
        if m is not None and m.kind != "none":
            values["m"] = m
            cols = "m"
        else:
            cols = "n"
        keep = "j <= i + k" if which == "tril" else "j >= i + k"
        return self.inline(f"""
            count = 0
            for i in range(n):
                for j in range({cols}):
                    if {keep}:
                        count += 1
            rows = np.empty(count, np.int64)
            columns = np.empty(count, np.int64)
            t = 0
            for i in range(n):
                for j in range({cols}):
                    if {keep}:
                        rows[t] = i
                        columns[t] = j
                        t += 1
            res = (rows, columns)
        """, values, "res")

    def call_np_tril_indices(self, e):
        return self.triangle_indices(e, "tril")

    def call_np_triu_indices(self, e):
        return self.triangle_indices(e, "triu")

    def call_np_diag_indices(self, e):
        """np.diag_indices(n, ndim=2): ndim copies of arange(n)."""
        args = self.call_args(e, 1, 2, kw=("ndim",))
        ndim = args[1] if len(args) > 1 else self.kwargs(e).get("ndim", self.pyconst(2))
        (count,) = self.const_ints([ndim], "np.diag_indices ndim")
        n = args[0]
        if not (n.is_scalar and kind(n.ty) == 1):
            self.error("np.diag_indices: n must be an integer")
        return self.inline("d = np.arange(n)\nres = (" + "d, " * count + ")", {"n": n}, "res")

    def call_np_tril(self, e):
        return self.triangle(e, "tril")

    def call_np_triu(self, e):
        return self.triangle(e, "triu")

    # ------------------------------------------------- small products
    def call_np_cross(self, e):
        (a, b), _ = self.array_args(e, "np.cross", 2, 2)
        if a.ty.rank != 1 or b.ty.rank != 1:
            self.error("np.cross of arrays that are not vectors is not supported")
        return self.template("""
            if a.shape[0] != 3 or b.shape[0] != 3:
                raise ValueError("np.cross: vectors of 3 components are supported")
            r = a * 0 + b * 0
            r[0] = a[1] * b[2] - a[2] * b[1]
            r[1] = a[2] * b[0] - a[0] * b[2]
            r[2] = a[0] * b[1] - a[1] * b[0]
        """, {"a": a, "b": b})

    def call_np_inner(self, e):
        (a, b), _ = self.array_args(e, "np.inner", 2, 2)
        if a.ty.rank > 2 or b.ty.rank > 2:
            self.error("np.inner of arrays of more than 2 dimensions is not supported")
        # the product over both last axes
        return self.template("r = a @ b.T" if b.ty.rank == 2 else "r = a @ b", {"a": a, "b": b})

    def call_np_vdot(self, e):
        (a, b), _ = self.array_args(e, "np.vdot", 2, 2)
        return self.template("r = np.dot(np.conj(a.reshape(-1)), b.reshape(-1))",
                             {"a": a, "b": b})

    def call_np_kron(self, e):
        (a, b), _ = self.array_args(e, "np.kron", 2, 2)
        if a.ty.rank != b.ty.rank or a.ty.rank not in (1, 2):
            self.error("np.kron of two vectors or two matrices is supported")
        if a.ty.rank == 1:
            return self.template("r = (a[:, None] * b[None, :]).reshape(-1)", {"a": a, "b": b})
        return self.template("""
            p = a[:, None, :, None] * b[None, :, None, :]
            r = p.reshape(a.shape[0] * b.shape[0], a.shape[1] * b.shape[1])
        """, {"a": a, "b": b})

    def method_dot(self, a, e):
        (b,) = self.call_args(e, 1, 1)
        if b.is_scalar:
            return self.binop("mul", a, self.weak(b, False))
        return self.matmul(a, b)

    # ------------------------------------------------------- averages
    def call_np_average(self, e):
        args, kw = self.array_args(e, "np.average", 1, 3, kw=("axis", "weights"))
        a = args[0]
        axis = args[1] if len(args) > 1 else kw.get("axis")
        w = args[2] if len(args) > 2 else kw.get("weights")
        ax = self.axis_source(axis, "np.average", a.ty.rank)
        if w is None or w.kind == "none":
            return self.template(f"r = np.mean(a, axis={ax})", {"a": a})
        if not w.is_array or w.ty.rank != a.ty.rank:
            self.error("np.average: weights of the shape of a are supported")
        return self.template(f"""
            if w.shape != a.shape:
                raise ValueError("np.average: weights differ in shape from a")
            r = np.sum(a * w, axis={ax}) / np.sum(w, axis={ax})
        """, {"a": a, "w": w})

    def call_np_ptp(self, e):
        args, kw = self.array_args(e, "np.ptp", 1, 2, kw=("axis",))
        a = args[0]
        ax = self.axis_source(args[1] if len(args) > 1 else kw.get("axis"), "np.ptp",
                              a.ty.rank)
        return self.template(f"r = np.max(a, axis={ax}) - np.min(a, axis={ax})", {"a": a})

    def nan_reduction(self, e, which):
        args, kw = self.array_args(e, f"np.{which}", 1, 2, kw=("axis", "keepdims"))
        a = args[0]
        ax = self.axis_source(args[1] if len(args) > 1 else kw.get("axis"), f"np.{which}",
                              a.ty.rank)
        keep = self.const_bool(kw.get("keepdims"), "keepdims", False)
        plain = {"nansum": "sum", "nanprod": "prod", "nanmax": "max", "nanmin": "min",
                 "nanmean": "mean"}[which]
        if kind(a.ty.elem) <= 1:  # no NaN in integers
            return self.template(f"r = np.{plain}(a, axis={ax}, keepdims={keep})", {"a": a})
        if is_complex(a.ty.elem) and which in ("nanmax", "nanmin"):
            self.error(f"np.{which} of complex numbers is not supported")
        source = {
            "nansum": "r = np.sum(np.where(a != a, 0, a), axis=AX, keepdims=KEEP)",
            "nanprod": "r = np.prod(np.where(a != a, 1, a), axis=AX, keepdims=KEEP)",
            "nanmean": ("r = np.sum(np.where(a != a, 0, a), axis=AX, keepdims=KEEP)"
                        " / np.sum(a == a, axis=AX, keepdims=KEEP)"),
            # all-NaN slices give NaN, as NumPy (which also warns)
            "nanmax": ("m = np.max(np.where(a != a, -np.inf, a), axis=AX, keepdims=KEEP)\n"
                       "r = np.where(np.sum(a == a, axis=AX, keepdims=KEEP) == 0, np.nan, m)"),
            "nanmin": ("m = np.min(np.where(a != a, np.inf, a), axis=AX, keepdims=KEEP)\n"
                       "r = np.where(np.sum(a == a, axis=AX, keepdims=KEEP) == 0, np.nan, m)"),
        }[which]
        return self.template(source, {"a": a}, AX=ax, KEEP=keep)

    def call_np_nansum(self, e):
        return self.nan_reduction(e, "nansum")

    def call_np_nanprod(self, e):
        return self.nan_reduction(e, "nanprod")

    def call_np_nanmax(self, e):
        return self.nan_reduction(e, "nanmax")

    def call_np_nanmin(self, e):
        return self.nan_reduction(e, "nanmin")

    def call_np_nanmean(self, e):
        return self.nan_reduction(e, "nanmean")

    def covariance(self, e, fn):
        """np.cov(m, y=None, rowvar=True, bias=False, ddof=None) and
        np.corrcoef(x, y=None, rowvar=True): float64 (complex input is
        refused). One variable gives a float (NumPy: a 0-d array)."""
        kws = ("rowvar", "bias", "ddof") if fn == "cov" else ("rowvar",)
        args, kw = self.array_args(e, f"np.{fn}", 1, 2, kw=("y",) + kws)
        m = args[0]
        y = args[1] if len(args) > 1 else kw.get("y")
        y = None if y is None or y.kind == "none" else self.one_array(y, f"np.{fn}")
        for v in (m, y):
            if v is not None and (v.ty.rank > 2 or is_complex(v.ty.elem)):
                self.error(f"np.{fn} of real vectors or matrices is supported")
        rowvar = self.const_bool(kw.get("rowvar"), "rowvar", True)
        bias = self.const_bool(kw.get("bias"), "bias", False)
        ddof = kw.get("ddof")
        ddof = self.pyconst(0 if bias else 1) if ddof is None or ddof.kind == "none" else ddof
        values = {"m": self.cast(m, "f64"), "ddof": ddof}
        rows = ["x = m.reshape(1, -1)" if m.ty.rank == 1 else
                ("x = m" if rowvar else "x = m.T")]
        if y is not None:
            values["y"] = self.cast(y, "f64")
            rows.append("z = y.reshape(1, -1)" if y.ty.rank == 1 else
                        ("z = y" if rowvar else "z = y.T"))
            rows.append("x2 = np.concatenate((x, z), axis=0)")
        else:
            rows.append("x2 = x")
        scalar = m.ty.rank == 1 and y is None
        lines = rows + [
            "n = x2.shape[1]",
            "fact = max(n - ddof, 0)",  # NumPy warns and divides by 0
            "d = x2 - np.mean(x2, axis=1, keepdims=True)",
            "c = (d @ d.T) * (1.0 / fact)",
        ]
        if not scalar and m.ty.rank == 2:
            lines += ["if x2.shape[0] == 1:",
                      f'    raise ValueError("np.{fn} of one variable in a matrix gives a '
                      '0-d array in NumPy, which compiled code does not have: pass the '
                      'variable as a vector")']
        if fn == "corrcoef":
            lines += ["s = np.sqrt(np.diag(c))",
                      "c2 = np.clip(c / s[:, None] / s[None, :], -1.0, 1.0)"]
            result = "c2"
        else:
            result = "c"
        if scalar:
            lines.append(f"r = {result}[0, 0]")
        else:
            lines.append(f"r = {result}")
        return self.template("\n".join(lines), values)

    def call_np_cov(self, e):
        return self.covariance(e, "cov")

    def call_np_corrcoef(self, e):
        return self.covariance(e, "corrcoef")

    # --------------------------------------------------------- shapes
    def call_np_ravel(self, e):
        (a,), _ = self.array_args(e, "np.ravel", 1, 1)
        return self.template("r = a.reshape(-1)", {"a": a})

    def method_ravel(self, a, e):
        self.call_args(e, 0, 0)
        return self.template("r = a.reshape(-1)", {"a": a})

    def method_flatten(self, a, e):
        self.call_args(e, 0, 0)
        return self.template("r = a.reshape(-1).copy()", {"a": a})

    def squeeze(self, a, axis):
        if axis is None or axis.kind == "none":
            self.error("np.squeeze without axis= is not supported (the rank of the result "
                       "must be known while compiling); name the axes of size 1")
        items = axis.items if axis.kind == "tuple" else [axis]
        axes = sorted({x % a.ty.rank for x in self.const_ints(items, "squeeze axes")})
        lines = []
        for k in axes:
            lines += [f"if a.shape[{k}] != 1:",
                      '    raise ValueError("cannot select an axis to squeeze out which has '
                      'size not equal to one")']
        shape = "".join(f"a.shape[{k}], " for k in range(a.ty.rank) if k not in axes)
        lines.append(f"r = a.reshape(({shape}))")
        return self.template("\n".join(lines), {"a": a})

    def call_np_squeeze(self, e):
        args, kw = self.array_args(e, "np.squeeze", 1, 2, kw=("axis",))
        return self.squeeze(args[0], args[1] if len(args) > 1 else kw.get("axis"))

    def method_squeeze(self, a, e):
        args = self.call_args(e, 0, 1, kw=("axis",))
        return self.squeeze(a, args[0] if args else self.kwargs(e).get("axis"))

    def swapped(self, a, i, j, fn):
        (x, y) = self.const_ints([i, j], f"{fn} axes")
        rank = a.ty.rank
        for k in (x, y):
            if not -rank <= k < rank:
                self.error(f"{fn}: axis {k} is out of bounds for a rank-{rank} array")
        perm = list(range(rank))
        perm[x % rank], perm[y % rank] = perm[y % rank], perm[x % rank]
        return self.transpose(a, perm)

    def call_np_swapaxes(self, e):
        (a, i, j), _ = self.array_args(e, "np.swapaxes", 1, 3)
        return self.swapped(a, i, j, "np.swapaxes")

    def method_swapaxes(self, a, e):
        i, j = self.call_args(e, 2, 2)
        return self.swapped(a, i, j, "swapaxes")

    def call_np_moveaxis(self, e):
        (a, src, dst), _ = self.array_args(e, "np.moveaxis", 1, 3)
        rank = a.ty.rank
        (s, d) = self.const_ints([src, dst], "np.moveaxis axes")
        for k in (s, d):
            if not -rank <= k < rank:
                self.error(f"np.moveaxis: axis {k} is out of bounds for a rank-{rank} array")
        perm = [k for k in range(rank) if k != s % rank]
        perm.insert(d % rank, s % rank)
        return self.transpose(a, perm)

    # ---------------------------------------------- tiling and stacking
    def call_np_tile(self, e):
        (a, reps), _ = self.array_args(e, "np.tile", 1, 2)
        counts = self.const_ints([reps], "np.tile repetitions") if reps.kind == "tuple" \
            else None
        if a.ty.rank == 1 and counts is None:
            return self.template("""
                if reps < 0:
                    raise ValueError("negative dimensions are not allowed")
                n = a.shape[0]
                r = np.empty(n * reps, dtype=a.dtype)
                for t in range(reps):
                    r[t * n:(t + 1) * n] = a
            """, {"a": a, "reps": reps})
        if a.ty.rank == 2:
            # one count repeats the columns; two: the rows, then the columns
            if counts is not None and len(counts) != 2:
                self.error("np.tile of a matrix takes one or two repetition counts")
            if counts is not None and min(counts) < 0:
                self.error("np.tile: negative dimensions are not allowed")
            values = {"a": a, "reps": reps} if counts is None else {"a": a}
            rr = "1" if counts is None else str(counts[0])
            rc = "reps" if counts is None else str(counts[1])
            return self.template(f"""
                if {rc} < 0:
                    raise ValueError("negative dimensions are not allowed")
                m = a.shape[0]
                n = a.shape[1]
                r = np.empty((m * {rr}, n * {rc}), dtype=a.dtype)
                for s in range({rr}):
                    for t in range({rc}):
                        r[s * m:(s + 1) * m, t * n:(t + 1) * n] = a
            """, values)
        self.error("np.tile of a vector by a count, or of a matrix by one or two counts, "
                   "is supported")

    def repeated(self, a, repeats, axis):
        if not repeats.is_scalar or kind(repeats.ty) > 1:
            self.error("np.repeat: repeats must be an integer (arrays of counts are not "
                       "supported)")
        if axis is None or axis.kind == "none":
            return self.template("""
                if reps < 0:
                    raise ValueError("negative dimensions are not allowed")
                f = a.reshape(-1)
                r = np.empty(f.shape[0] * reps, dtype=a.dtype)
                for i in range(f.shape[0]):
                    for j in range(reps):
                        r[i * reps + j] = f[i]
            """, {"a": a, "reps": repeats})
        k = int(self.axis_source(axis, "np.repeat", a.ty.rank)) % a.ty.rank
        if a.ty.rank != 2:
            self.error("np.repeat along an axis of an array that is not a matrix is not "
                       "supported")
        if k == 0:
            body = "r[i * reps + j, :] = a[i, :]"
            shape, count = "(a.shape[0] * reps, a.shape[1])", "a.shape[0]"
        else:
            body = "r[:, i * reps + j] = a[:, i]"
            shape, count = "(a.shape[0], a.shape[1] * reps)", "a.shape[1]"
        return self.template(f"""
            if reps < 0:
                raise ValueError("negative dimensions are not allowed")
            r = np.empty({shape}, dtype=a.dtype)
            for i in range({count}):
                for j in range(reps):
                    {body}
        """, {"a": a, "reps": repeats})

    def call_np_repeat(self, e):
        args, kw = self.array_args(e, "np.repeat", 1, 3, kw=("axis",))
        return self.repeated(args[0], args[1] if len(args) > 1 else self.error(
            "np.repeat needs repeats"), args[2] if len(args) > 2 else kw.get("axis"))

    def method_repeat(self, a, e):
        args = self.call_args(e, 1, 2, kw=("axis",))
        return self.repeated(a, args[0], args[1] if len(args) > 1 else
                             self.kwargs(e).get("axis"))

    def sequence(self, e, fn):
        """The arrays of a tuple or list written out (np.hstack((a, b)))."""
        (tup,) = self.call_args(e, 1, 1)
        if tup.kind != "tuple" or not tup.items:
            self.error(f"{fn} takes a tuple or list of arrays written out")
        for v in tup.items:
            self.one_array(v, fn)
        names = {f"x{i}": v for i, v in enumerate(tup.items)}
        return names, ", ".join(names) + ("," if len(names) == 1 else "")

    def call_np_hstack(self, e):
        names, listed = self.sequence(e, "np.hstack")
        axis = 0 if all(v.ty.rank == 1 for v in names.values()) else 1
        return self.template(f"r = np.concatenate(({listed}), axis={axis})", names)

    def call_np_vstack(self, e):
        names, listed = self.sequence(e, "np.vstack")
        rows = {k: (self.template("r = v.reshape(1, -1)", {"v": v}) if v.ty.rank == 1 else v)
                for k, v in names.items()}
        return self.template(f"r = np.concatenate(({listed}), axis=0)", rows)

    call_np_row_stack = call_np_vstack

    def call_np_column_stack(self, e):
        names, listed = self.sequence(e, "np.column_stack")
        cols = {k: (self.template("r = v.reshape(-1, 1)", {"v": v}) if v.ty.rank == 1 else v)
                for k, v in names.items()}
        return self.template(f"r = np.concatenate(({listed}), axis=1)", cols)

    def call_np_append(self, e):
        args, kw = self.array_args(e, "np.append", 1, 3, kw=("axis",))
        arr = args[0]
        values = args[1] if len(args) > 1 else self.error("np.append needs values")
        axis = args[2] if len(args) > 2 else kw.get("axis")
        if values.is_scalar:
            values = self.template("r = np.full(1, v)", {"v": values})
        if axis is None or axis.kind == "none":
            return self.template("r = np.concatenate((a.reshape(-1), v.reshape(-1)))",
                                 {"a": arr, "v": values})
        ax = self.axis_source(axis, "np.append", arr.ty.rank)
        return self.template(f"r = np.concatenate((a, v), axis={ax})", {"a": arr, "v": values})

    # ------------------------------------------------- np.array, np.take
    def call_np_array(self, e):
        return self.array_of(e, copy=True)

    def call_np_asarray(self, e):
        return self.array_of(e, copy=False)

    def array_of(self, e, copy):
        """np.array / np.asarray of an array (a copy / itself, or converted
        to dtype=) or of a literal list of numbers (or of equal-length lists
        of numbers: a matrix)."""
        fn = "np.array" if copy else "np.asarray"
        if len(e.args) != 1:
            self.error(f"{fn} takes one object (and dtype=)")
        for k in e.keywords:
            if k.arg not in ("dtype", "copy", "order"):
                self.error(f"unsupported keyword argument '{k.arg}'")
        kw = self.kwargs(e)
        node = e.args[0]
        if isinstance(node, (ast.List, ast.Tuple)):
            return self.literal_array(node, kw, fn)
        a = self.list_operand(node)
        if a.kind == "list" or self.is_static_list(a):
            a = self.list_array(a, fn)
            copy = False  # a new array already
        if not a.is_array:
            self.error(f"{fn} of a scalar (a 0-dimensional array) is not supported")
        elem = self.dtype_kw(e, a.ty.elem, kw)
        if elem != a.ty.elem:
            return self.cast(a, elem)
        return self.copy(a) if copy else a

    def literal_array(self, node, kw, fn):
        rows = node.elts
        nested = rows and all(isinstance(x, (ast.List, ast.Tuple)) for x in rows)
        if nested:
            widths = {len(x.elts) for x in rows}
            if len(widths) != 1:
                self.error(f"{fn} of rows of different lengths (a ragged array) is not "
                           "supported")
            items = [[self.expr(x) for x in row.elts] for row in rows]
        elif any(isinstance(x, (ast.List, ast.Tuple)) for x in rows):
            self.error(f"{fn} of a list mixing numbers and lists")
        else:
            items = [[self.expr(x) for x in rows]]
        flat = [v for row in items for v in row]
        if flat and not nested and all(v.is_array for v in flat):
            # NumPy stacks arrays of one shape (and refuses others)
            r = self.join_values(flat, None, "stack")
            elem = self.dtype_kw(None, r.ty.elem, kw)
            return r if elem == r.ty.elem else self.cast(r, elem)
        for v in flat:
            if not v.is_scalar:
                self.error(f"{fn} of a list of something else than numbers is not supported "
                           "(use np.stack for arrays)")
        elem = "f64"
        if flat:
            elem = flat[0].ty
            for v in flat[1:]:
                elem = promote_strong(elem, v.ty)
        elem = self.dtype_kw(None, elem, kw)
        shape = (len(rows), len(items[0])) if nested else (len(rows),)
        t = ArrT(elem, len(shape))
        sizes = [self.const(n, "index").ssa for n in shape]
        r = self.op(f"vrir.empty({', '.join(sizes)}) : {t.mlir()}", t)
        for i, row in enumerate(items):
            for j, v in enumerate(row):
                at = [self.const(i, "index").ssa, self.const(j, "index").ssa] if nested \
                    else [self.const(j, "index").ssa]
                x = self.cast(v, elem)
                self.emit(f"vrir.store {x.ssa}, {r.ssa}[{', '.join(at)}] : "
                          f"{t.mlir()}[{', '.join(['index'] * len(at))}]")
        return r

    def call_np_take(self, e):
        args, kw = self.array_args(e, "np.take", 1, 3, kw=("axis",))
        a = args[0]
        idx = args[1] if len(args) > 1 else self.error("np.take needs indices")
        axis = args[2] if len(args) > 2 else kw.get("axis")
        return self.taken(a, idx, axis)

    def method_take(self, a, e):
        args = self.call_args(e, 1, 2, kw=("axis",))
        return self.taken(a, args[0], args[1] if len(args) > 1 else self.kwargs(e).get("axis"))

    def taken(self, a, idx, axis):
        if axis is None or axis.kind == "none":
            return self.template("r = a.reshape(-1)[i]", {"a": a, "i": idx})
        k = int(self.axis_source(axis, "np.take", a.ty.rank)) % a.ty.rank
        if not idx.is_array or idx.ty.rank != 1:
            self.error("np.take along an axis takes a vector of indices")
        before = ":, " * k
        shape = "".join("i.shape[0], " if d == k else f"a.shape[{d}], "
                        for d in range(a.ty.rank))
        return self.template(f"""
            r = np.empty(({shape}), dtype=a.dtype)
            for j in range(i.shape[0]):
                r[{before}j] = a[{before}i[j]]
        """, {"a": a, "i": idx})

    # ---------------------------------------------------- np.convolve
    def call_np_convolve(self, e):
        args, kw = self.array_args(e, "np.convolve", 2, 3, kw=("mode",))
        a, v = args[0], args[1]
        mode = args[2] if len(args) > 2 else kw.get("mode")
        mode = "full" if mode is None else mode.obj if mode.kind == "str" else None
        if mode not in ("full", "same", "valid"):
            self.error("np.convolve: mode is 'full', 'same' or 'valid'")
        if a.ty.rank != 1 or v.ty.rank != 1:
            self.error("np.convolve takes two vectors")
        elem = promote_strong(a.ty.elem, v.ty.elem)
        if elem == "i1":
            self.error("np.convolve of booleans is not supported")
        first = {"full": "0", "same": "(m - 1) // 2", "valid": "m - 1"}[mode]
        length = {"full": "n + m - 1", "same": "n", "valid": "n - m + 1"}[mode]
        return self.template(f"""
            if x.shape[0] == 0 or y.shape[0] == 0:
                raise ValueError("v cannot be empty")
            # the longer operand slides under the shorter one, as NumPy
            if x.shape[0] >= y.shape[0]:
                p = x
                q = y
            else:
                p = y
                q = x
            n = p.shape[0]
            m = q.shape[0]
            r = np.zeros({length}, dtype=DT)
            for o in range({length}):
                t = o + {first}
                s = r[o]
                for k in range(max(0, t - m + 1), min(n, t + 1)):
                    s += p[k] * q[t - k]
                r[o] = s
        """, {"x": self.cast(a, elem), "y": self.cast(v, elem)}, DT=dtype_source(elem))

    # ------------------------------------------- element-wise functions
    def elementwise(self, e, fn, source):
        (x,) = self.call_args(e, 1, 1)
        if not (x.is_array or x.is_scalar):
            self.error(f"np.{fn} needs a number or an array")
        return self.template(source, {"x": x})

    def call_np_square(self, e):
        return self.elementwise(e, "square", "r = x * x")

    def call_np_exp2(self, e):
        return self.elementwise(e, "exp2", "r = 2.0 ** x")

    def call_np_deg2rad(self, e):
        return self.elementwise(e, "deg2rad", f"r = x * {math.pi / 180.0!r}")

    call_np_radians = call_np_deg2rad

    def call_np_rad2deg(self, e):
        return self.elementwise(e, "rad2deg", f"r = x * {180.0 / math.pi!r}")

    call_np_degrees = call_np_rad2deg

    def call_np_sinc(self, e):
        # NumPy's: y = pi * where(x == 0, 1e-20, x); sin(y) / y
        return self.elementwise(e, "sinc", f"""
            y = {math.pi!r} * np.where(x == 0, 1.0e-20, x)
            r = np.sin(y) / y""")

    def fnan(self, e, which):
        a, b = self.call_args(e, 2, 2)
        pick = "np.maximum" if which == "fmax" else "np.minimum"
        return self.template(f"r = np.where(a != a, b, np.where(b != b, a, {pick}(a, b)))",
                             {"a": a, "b": b})

    def call_np_fmax(self, e):
        return self.fnan(e, "fmax")

    def call_np_fmin(self, e):
        return self.fnan(e, "fmin")

    def call_np_logspace(self, e):
        args = self.call_args(e, 2, 3, kw=("num", "base", "endpoint"))
        kw = self.kwargs(e)
        num = args[2] if len(args) > 2 else kw.get("num", self.pyconst(50))
        base = kw.get("base", self.pyconst(10.0))
        endpoint = self.const_bool(kw.get("endpoint"), "endpoint", True)
        return self.template(f"r = base ** np.linspace(start, stop, num, endpoint={endpoint})",
                             {"start": args[0], "stop": args[1], "num": num, "base": base})

    # ------------------------------------------------------------ np.pad
    def call_np_pad(self, e):
        """np.pad(a, pad_width, mode="constant", constant_values=0), modes
        "constant" and "edge"; pad_width an int, (before, after), or one
        such pair per axis (lists written in the call are read as tuples)."""
        e = self.lists_as_tuples(e, 1, "pad_width")
        args = self.call_args(e, 2, 3, kw=("mode", "constant_values"))
        kw = self.kwargs(e)
        a, width = self.one_array(args[0], "np.pad"), args[1]
        mode = args[2] if len(args) > 2 else kw.get("mode")
        mode = "constant" if mode is None else mode.obj if mode.kind == "str" else None
        if mode not in ("constant", "edge"):
            self.error("np.pad: mode must be the constant 'constant' or 'edge'")
        rank = a.ty.rank

        def scalars(v):
            items = v.items if v.kind == "tuple" else [v]
            for x in items:
                if not x.is_scalar or kind(x.ty) != 1 and x.ty != "i1":
                    self.error("np.pad: pad_width must be integers: an int, (before, after) "
                               "or one (before, after) per axis")
            return items
        if width.kind != "tuple":
            pairs = [scalars(width) * 2] * rank
        elif all(x.kind != "tuple" for x in width.items):
            flat = scalars(width)
            if len(flat) not in (1, 2):
                self.error("np.pad: pad_width of one axis is (before, after)")
            pairs = [flat * 2 if len(flat) == 1 else flat] * rank
        else:
            pairs = [scalars(x) for x in width.items]
            if len(pairs) == 1:
                pairs = pairs * rank
            if len(pairs) != rank or any(len(p) not in (1, 2) for p in pairs):
                self.error(f"np.pad: pad_width needs one (before, after) per axis of a "
                           f"rank-{rank} array")
            pairs = [p * 2 if len(p) == 1 else p for p in pairs]
        values = {"a": a}
        for d, (before, after) in enumerate(pairs):
            values[f"b{d}"], values[f"e{d}"] = before, after
        fill = kw.get("constant_values")
        if fill is not None:
            if mode != "constant" or not fill.is_scalar:
                self.error("np.pad: constant_values must be one number, with mode='constant'")
            values["fill"] = fill
        dt = dtype_source(a.ty.elem)
        widths = " or ".join(f"b{d} < 0 or e{d} < 0" for d in range(rank))
        shape = "".join(f"a.shape[{d}] + b{d} + e{d}, " for d in range(rank))
        inner = ", ".join(f"b{d}:b{d} + a.shape[{d}]" for d in range(rank))
        lines = [f"if {widths}:",
                 "    raise ValueError(\"index can't contain negative values\")",
                 f"r = np.full(({shape}), {'fill' if fill is not None else 0}, dtype={dt})",
                 f"r[{inner}] = a"]
        if mode == "edge":
            for d in range(rank):
                def at(s):
                    return ", ".join(s if k == d else ":" for k in range(rank))
                n = f"a.shape[{d}]"
                lines += [f"if {n} == 0 and (b{d} > 0 or e{d} > 0):",
                          "    raise ValueError(\"can't extend empty axis using modes other "
                          "than 'constant' or 'empty'\")",
                          f"if b{d} > 0:",
                          f"    r[{at(f'0:b{d}')}] = r[{at(f'b{d}:b{d} + 1')}]",
                          f"if e{d} > 0:",
                          f"    r[{at(f'b{d} + {n}:')}] = r[{at(f'b{d} + {n} - 1:b{d} + {n}')}]"]
        return self.template("\n".join(lines), values)
