"""Sorting and searching: np.sort, np.argsort, np.unique, np.searchsorted,
np.median, np.percentile, np.quantile, np.nonzero, np.flatnonzero,
np.argwhere, np.interp and the array methods A.sort(), A.argsort(),
A.nonzero(), written as Python templates compiled in place (Calls.inline).

Sorting is a stable bottom-up merge sort (insertion sort of runs of 16,
then merges between two scratch buffers), so argsort gives ties in index
order (NumPy's kind='stable'). NaN sorts last, as in NumPy: the lane is
copied into the buffer with its NaNs moved, in order, behind the other
values, which alone are merged with a plain `<`."""
import re

from ..types import ArrT, is_complex, kind
from .values import V, literal_value

RUN = 16  # the length of the runs sorted by insertion

NP_DTYPES = {"f64": "np.float64", "f32": "np.float32", "i64": "np.int64", "i32": "np.int32",
             "i16": "np.int16", "i8": "np.int8", "i1": "np.bool_", "complex<f64>": "np.complex128",
             "complex<f32>": "np.complex64"}


def _indent(text, n):
    pad = " " * n
    return "\n".join(pad + l if l.strip() else l for l in text.split("\n"))


def complex_less(a, b):
    """NumPy's order of complex numbers (npysort's CLT): by real, then
    imaginary part, with R + Rj < R + nanj < nan + Rj < nan + nanj."""
    ar, ai, br, bi = f"{a}.real", f"{a}.imag", f"{b}.real", f"{b}.imag"
    same = f"({ar} == {br} or ({ar} != {ar} and {br} != {br}))"
    return (f"(({ar} < {br} and ({ai} == {ai} or {bi} != {bi}))"
            f" or ({ar} > {br} and {bi} != {bi} and {ai} == {ai})"
            f" or ({same} and ({ai} < {bi} or ({bi} != {bi} and {ai} == {ai})))"
            f" or (not ({ar} < {br}) and not ({ar} > {br}) and not {same} and {br} != {br}))")


def sort_text(floating, idx, lane, n="n", less=None):
    """Statements that copy the 1-D `lane` (length `n`) into the buffers
    x (keys) and, when `idx`, ix (their indices), then sort them; the
    buffers x, y (and ix, iy) must exist with length >= n. After them x
    (ix) holds the sorted lane, NaNs last; m is the number of non-NaN
    values. A template that includes these statements must not use their
    names for values of other types: x, y, ix, iy, m, k, i, j, s, e, v, vi,
    w, lo, mid, hi, t, ti, xl, xr, cm, il."""
    lines = []
    if floating:
        lines += [
            "m = 0",
            f"for i in range({n}):",
            f"    v = {lane}[i]",
            "    if v == v:",
            "        x[m] = v",
            "        ix[m] = i  #I",
            "        m += 1",
            "k = m",
            f"for i in range({n}):",
            f"    v = {lane}[i]",
            "    if v != v:",
            "        x[k] = v",
            "        y[k] = v",
            "        ix[k] = i  #I",
            "        iy[k] = i  #I",
            "        k += 1",
        ]
    else:
        lines += [
            f"m = {n}",
            f"for i in range({n}):",
            f"    x[i] = {lane}[i]",
            "    ix[i] = i  #I",
        ]
    lines += [
        f"for s in range(0, m, {RUN}):",
        f"    e = min(s + {RUN}, m)",
        "    for i in range(s + 1, e):",
        "        v = x[i]",
        "        vi = ix[i]  #I",
        "        j = i - 1",
        "        while j >= s and v < x[j]:",
        "            x[j + 1] = x[j]",
        "            ix[j + 1] = ix[j]  #I",
        "            j -= 1",
        "        x[j + 1] = v",
        "        ix[j + 1] = vi  #I",
        f"w = {RUN}",
        "while w < m:",
        "    for lo in range(0, m, 2 * w):",
        "        mid = min(lo + w, m)",
        "        hi = min(lo + 2 * w, m)",
        "        i = lo",
        "        j = mid",
        "        k = lo",
        "        while i < mid and j < hi:",
        # without branches (min is a select), for real keys
        "            xl = x[i]  #R",
        "            xr = x[j]  #R",
        "            cm = int(xr < xl)  #R",
        "            y[k] = min(xl, xr)  #R",
        "            il = ix[i]  #R#I",
        "            iy[k] = il + cm * (ix[j] - il)  #R#I",
        "            j += cm  #R",
        "            i += 1 - cm  #R",
        "            k += 1  #R",
        # with a branch, for complex keys (`less`)
        "            if x[j] < x[i]:  #B",
        "                y[k] = x[j]  #B",
        "                iy[k] = ix[j]  #B#I",
        "                j += 1  #B",
        "            else:  #B",
        "                y[k] = x[i]  #B",
        "                iy[k] = ix[i]  #B#I",
        "                i += 1  #B",
        "            k += 1  #B",
        "        while i < mid:",
        "            y[k] = x[i]",
        "            iy[k] = ix[i]  #I",
        "            i += 1",
        "            k += 1",
        "        while j < hi:",
        "            y[k] = x[j]",
        "            iy[k] = ix[j]  #I",
        "            j += 1",
        "            k += 1",
        "    t = x",
        "    x = y",
        "    y = t",
        "    ti = ix  #I",
        "    ix = iy  #I",
        "    iy = ti  #I",
        "    w *= 2",
    ]
    out = []
    for l in lines:
        if less is not None:
            l = l.replace("v < x[j]", less("v", "x[j]")).replace("x[j] < x[i]",
                                                                  less("x[j]", "x[i]"))
        if l.endswith("#I"):
            if not idx:
                continue
            l = l[:-2].rstrip()
        if l.endswith("#R") or l.endswith("#B"):
            if (less is None) != l.endswith("#R"):
                continue
            l = l[:-2].rstrip()
        out.append(l)
    return "\n".join(out)


def lane_loops(rank, axis, body, shape="a.shape"):
    """`body` run once per lane along `axis` of a rank-`rank` array: LANE(X)
    in it is the 1-D view of X along the axis, OUT(X) the element of X (of
    rank-1) at the lane's other indices."""
    others = [d for d in range(rank) if d != axis]
    idx = {d: f"i{d}" for d in others}
    lane = ", ".join(":" if d == axis else idx[d] for d in range(rank))
    out_ix = ", ".join(idx[d] for d in others)
    text = body
    head = []
    for depth, d in enumerate(others):
        head.append(" " * (4 * depth) + f"for {idx[d]} in range({shape}[{d}]):")
    text = re.sub(r"LANE\((\w+)\)", (lambda m: f"{m.group(1)}[{lane}]") if rank > 1
                  else (lambda m: m.group(1)), text)
    text = re.sub(r"OUT\((\w+)\)", lambda m: f"{m.group(1)}[{out_ix}]", text)
    text = re.sub(r"OUTQ\((\w+)\)", lambda m: f"{m.group(1)}[jq, {out_ix}]", text)
    return "\n".join(head + [_indent(text, 4 * len(others))])


class Sorting:
    """Sorting, searching and order statistics."""

    # ------------------------------------------------------------ helpers
    def sort_operand(self, a, fn, complex_ok=False):
        if not a.is_array:
            self.error(f"np.{fn} needs an array")
        if is_complex(a.ty.elem) and not complex_ok:
            self.error(f"np.{fn} of a complex array is not supported (NumPy orders complex "
                       "numbers by real, then imaginary part; sort the real parts)")
        if a.ty.rank == 0:
            self.error(f"np.{fn} of a 0-d array is not supported")

    def axis_arg(self, a, v, fn, default=-1):
        """The axis (an int, or None) of a constant argument."""
        lit = default if v is None else literal_value(v)
        if lit is None:
            return None
        if isinstance(lit, bool) or not isinstance(lit, int):
            self.error(f"np.{fn}: axis must be a constant integer or None")
        if not -a.ty.rank <= lit < a.ty.rank:
            self.error(f"np.{fn}: axis {lit} is out of bounds for array of dimension {a.ty.rank}")
        return lit % a.ty.rank

    def key_dtype(self, a):
        # bool keys are sorted as integers (False < True)
        return "np.int64" if a.ty.elem == "i1" else NP_DTYPES.get(a.ty.elem, "a.dtype")

    def buffers(self, a, idx, n="n"):
        key = self.key_dtype(a)
        text = f"x = np.empty({n}, {key})\ny = np.empty({n}, {key})\n"
        if idx:
            text += f"ix = np.empty({n}, np.int64)\niy = np.empty({n}, np.int64)\n"
        return text

    def sort_into(self, a, axis, idx, target):
        """Sorted values (idx False) or indices (idx True) of `a` along
        `axis` (None: flattened) written into the array `target` (a new
        array, or `a` itself for A.sort())."""
        floating = a.ty.elem in ("f32", "f64")
        less = complex_less if is_complex(a.ty.elem) else None
        if axis is None:
            body = sort_text(floating, idx, "f", less=less)
            copy = "r[i] = ix[i]" if idx else "r[i] = x[i]"
            src = (f"f = a.reshape(-1)\nn = f.shape[0]\n{self.buffers(a, idx)}{body}\n"
                   f"for i in range(n):\n    {copy}\n")
            return self.inline(src, {"a": a, "r": target}, "r")
        rank = a.ty.rank
        copy = "LANE(r)[i] = ix[i]" if idx else "LANE(r)[i] = x[i]"
        body = sort_text(floating, idx, "LANE(a)", less=less) + f"\nfor i in range(n):\n    {copy}"
        src = (f"n = a.shape[{axis}]\n{self.buffers(a, idx)}"
               + lane_loops(rank, axis, body) + "\n")
        return self.inline(src, {"a": a, "r": target}, "r")

    def new_array(self, shape_of, elem, rank=None, flat=False):
        if flat:
            n = self.op(f"vrir.numel {shape_of.ssa} : {shape_of.ty.mlir()}", "index").ssa
            sizes = [n]
        else:
            sizes = [self.dim(shape_of, k) for k in range(shape_of.ty.rank)]
        t = ArrT(elem, len(sizes))
        return self.op(f"vrir.empty({', '.join(sizes)}) : {t.mlir()}", t)

    # ------------------------------------------------------------ sort
    def call_np_sort(self, e):
        """np.sort(a, axis=-1): a sorted copy (axis=None: of the flattened
        array)."""
        args = self.call_args(e, 1, 2, kw=("axis", "kind"))
        kw = self.kwargs(e)
        a = args[0]
        self.sort_operand(a, "sort", complex_ok=True)
        axis = self.axis_arg(a, args[1] if len(args) > 1 else kw.get("axis"), "sort")
        self.kind_arg(kw, "sort")
        if axis is None:
            return self.sort_into(a, None, False, self.new_array(a, a.ty.elem, flat=True))
        r = self.copy(a)
        return self.sort_into(r, axis, False, r)

    def kind_arg(self, kw, fn):
        k = kw.get("kind")
        if k is not None and literal_value(k) not in (None, "quicksort", "mergesort", "heapsort",
                                                 "stable"):
            self.error(f"np.{fn}: kind must be 'quicksort', 'mergesort', 'heapsort' or 'stable'")

    def method_sort(self, a, e):
        """A.sort(axis=-1): sorts A in place; returns None."""
        args = self.call_args(e, 0, 1, kw=("axis", "kind"))
        kw = self.kwargs(e)
        self.sort_operand(a, "sort", complex_ok=True)
        axis = self.axis_arg(a, args[0] if args else kw.get("axis"), "sort")
        self.kind_arg(kw, "sort")
        if axis is None:
            self.error("A.sort(): axis=None is not supported by NumPy's method (use np.sort)")
        self.sort_into(a, axis, False, a)
        return V(kind="none")

    def call_np_argsort(self, e):
        """np.argsort(a, axis=-1): int64 indices of a stable sort."""
        args = self.call_args(e, 1, 2, kw=("axis", "kind"))
        kw = self.kwargs(e)
        a = args[0]
        self.sort_operand(a, "argsort", complex_ok=True)
        self.kind_arg(kw, "argsort")
        axis = self.axis_arg(a, args[1] if len(args) > 1 else kw.get("axis"), "argsort")
        return self.argsort(a, axis)

    def argsort(self, a, axis):
        if axis is None:
            return self.sort_into(a, None, True, self.new_array(a, "i64", flat=True))
        return self.sort_into(a, axis, True, self.new_array(a, "i64"))

    def method_argsort(self, a, e):
        args = self.call_args(e, 0, 1, kw=("axis", "kind"))
        kw = self.kwargs(e)
        self.sort_operand(a, "argsort", complex_ok=True)
        self.kind_arg(kw, "argsort")
        axis = self.axis_arg(a, args[0] if args else kw.get("axis"), "argsort")
        return self.argsort(a, axis)

    # ------------------------------------------------------------ searchsorted
    def call_np_digitize(self, e):
        """np.digitize(x, bins, right=False): the index of each x's bin,
        through searchsorted as NumPy (bins increasing, or decreasing,
        else ValueError)."""
        args = self.call_args(e, 2, 3, kw=("right",))
        x, bins = args[0], args[1]
        right = self.const_bool(args[2] if len(args) > 2 else self.kwargs(e).get("right"),
                                "right", False)
        if not bins.is_array or bins.ty.rank != 1 or kind(bins.ty.elem) >= 3:
            self.error("np.digitize: bins must be a 1-D array of real numbers")
        if not (x.is_array or x.is_scalar) or is_complex(x.ty.elem if x.is_array else x.ty):
            self.error("np.digitize: x must be a real number or array")
        side = "left" if right else "right"
        return self.inline(f"""
            up = True
            down = True
            for k in range(bins.shape[0] - 1):
                if bins[k + 1] < bins[k]:
                    up = False
                if bins[k + 1] > bins[k]:
                    down = False
            if not up and not down:
                raise ValueError("bins must be monotonically increasing or decreasing")
            if up:
                r = np.searchsorted(bins, x, side='{side}')
            else:
                r = bins.shape[0] - np.searchsorted(bins[::-1], x, side='{side}')
        """, {"x": x, "bins": bins}, "r")

    def call_np_searchsorted(self, e):
        """np.searchsorted(a, v, side='left'|'right', sorter=None): binary
        search of v (a scalar, or an array: an int64 array of its shape) in
        the sorted 1-D a (or a[sorter]), with NumPy's order (NaN last)."""
        args = self.call_args(e, 2, 4, kw=("side", "sorter"))
        a, v = args[0], args[1]
        sorter = args[3] if len(args) > 3 else self.kwargs(e).get("sorter")
        if sorter is not None and sorter.kind == "none":
            sorter = None
        if sorter is not None and not (sorter.is_array and sorter.ty.rank == 1
                                       and sorter.ty.elem in ("i64", "i32", "i16", "i8")):
            self.error("np.searchsorted: sorter must be a 1-D integer array")
        side = literal_value(args[2] if len(args) > 2 else self.kwargs(e).get("side"))
        if side is None:
            side = "left"
        if side not in ("left", "right"):
            self.error("np.searchsorted: side must be 'left' or 'right'")
        if not a.is_array or a.ty.rank != 1:
            self.error("np.searchsorted: a must be a 1-D array")
        if not (v.is_array or v.is_scalar):
            self.error("np.searchsorted: v must be a number or an array")
        if is_complex(a.ty.elem) or is_complex(v.ty.elem if v.is_array else v.ty):
            self.error("np.searchsorted of complex numbers is not supported")
        if a.ty.elem == "i1":
            a = self.cast(a, "i64")
        if (v.ty.elem if v.is_array else v.ty) == "i1":
            v = self.cast(v, "i64")
        floating = "f" in (a.ty.elem + (v.ty.elem if v.is_array else v.ty))
        if floating:  # NaN last: p < q or (q is NaN and p is not)
            less = "(p < q or (q != q and p == p))"
        else:
            less = "p < q"
        at = "a[sorter[mid]]" if sorter is not None else "a[mid]"
        if side == "left":
            test = f"p = {at}\n        q = w\n        go = {less}"
        else:
            test = f"p = w\n        q = {at}\n        go = not {less}"
        check = ""
        if sorter is not None:
            check = ("if sorter.shape[0] != a.shape[0]:\n"
                     "    raise ValueError(\"sorter.size must equal a.size\")\n")
        search = f"""
lo = 0
hi = a.shape[0]
while lo < hi:
    mid = (lo + hi) // 2
    if True:
        {test}
    if go:
        lo = mid + 1
    else:
        hi = mid
"""
        vals = {"a": a, "v": v}
        if sorter is not None:
            vals["sorter"] = sorter
        if v.is_scalar:
            return self.inline(f"{check}w = v\n{search}\nr = lo\n", vals, "r")
        src = (check + "f = v.reshape(-1)\nrf = np.empty(f.shape[0], np.int64)\n"
               "for t in range(f.shape[0]):\n    w = f[t]\n" + _indent(search, 4)
               + "\n    rf[t] = lo\nr = rf.reshape(v.shape)\n")
        return self.inline(src, vals, "r")

    # ------------------------------------------------------------ nonzero
    def nonzero_text(self, rank, what):
        """Counts the nonzero elements of `a` (cnt), allocates and fills
        `what`: 'tuple' (r0, r1, ...), 'argwhere' (r of shape (cnt, rank))."""
        idx = [f"i{d}" for d in range(rank)]
        head = [" " * (4 * d) + f"for i{d} in range(a.shape[{d}]):" for d in range(rank)]
        pad = " " * (4 * rank)
        el = f"a[{', '.join(idx)}]"
        lines = ["cnt = 0"] + head + [f"{pad}if {el} != 0:", f"{pad}    cnt += 1"]
        if what == "tuple":
            lines += [f"r{d} = np.empty(cnt, np.int64)" for d in range(rank)]
            store = [f"{pad}    r{d}[k] = i{d}" for d in range(rank)]
        else:
            lines += [f"r = np.empty((cnt, {rank}), np.int64)"]
            store = [f"{pad}    r[k, {d}] = i{d}" for d in range(rank)]
        lines += ["k = 0"] + head + [f"{pad}if {el} != 0:"] + store + [f"{pad}    k += 1"]
        return "\n".join(lines) + "\n"

    def nonzero_operand(self, a, fn):
        if not a.is_array:
            self.error(f"np.{fn} needs an array")
        if a.ty.rank == 0:
            self.error(f"np.{fn} of a 0-d array is not supported (NumPy 2 refuses it)")

    def nonzero(self, a):
        self.nonzero_operand(a, "nonzero")
        rank = a.ty.rank
        src = self.nonzero_text(rank, "tuple")
        src += f"res = ({', '.join(f'r{d}' for d in range(rank))},)\n"
        return self.inline(src, {"a": a}, "res")

    def call_np_nonzero(self, e):
        """np.nonzero(a): a tuple of int64 index arrays, one per axis, in C
        order."""
        (a,) = self.call_args(e, 1, 1)
        return self.nonzero(a)

    def method_nonzero(self, a, e):
        self.call_args(e, 0, 0)
        return self.nonzero(a)

    def call_np_flatnonzero(self, e):
        (a,) = self.call_args(e, 1, 1)
        self.nonzero_operand(a, "flatnonzero")
        f = self.inline("f = a.reshape(-1)", {"a": a}, "f")
        return self.inline(self.nonzero_text(1, "tuple"), {"a": f}, "r0")

    def call_np_argwhere(self, e):
        """np.argwhere(a): the indices of the nonzero elements, (N, a.ndim)."""
        (a,) = self.call_args(e, 1, 1)
        self.nonzero_operand(a, "argwhere")
        return self.inline(self.nonzero_text(a.ty.rank, "argwhere"), {"a": a}, "r")

    # ------------------------------------------------------------ unique
    def call_np_unique(self, e):
        """np.unique(a, return_index=False, return_inverse=False,
        return_counts=False, equal_nan=True): the sorted unique values of the
        flattened array (NaNs as one), first indices, the inverse (of a's
        shape, as NumPy 2) and counts."""
        args = self.call_args(e, 1, 4, kw=("return_index", "return_inverse", "return_counts",
                                           "equal_nan", "axis"))
        kw = self.kwargs(e)
        a = args[0]
        self.sort_operand(a, "unique")
        names = ("return_index", "return_inverse", "return_counts")
        flags = {}
        for k, name in enumerate(names):
            lit = literal_value(args[k + 1] if len(args) > k + 1 else kw.get(name))
            if lit not in (None, True, False):
                self.error(f"np.unique: {name} must be True or False (a constant)")
            flags[name] = bool(lit)
        if literal_value(kw.get("equal_nan")) not in (None, True):
            self.error("np.unique: only equal_nan=True (the default) is supported")
        if literal_value(kw.get("axis")) is not None:
            self.error("np.unique: only axis=None (the default) is supported")
        floating = a.ty.elem in ("f32", "f64")
        idx = flags["return_index"] or flags["return_inverse"]
        # a new value: differs from the previous one, which is not NaN (NaNs
        # are last, and equal here)
        new = "x[i] != x[i - 1] and x[i - 1] == x[i - 1]" if floating else "x[i] != x[i - 1]"
        dt = NP_DTYPES.get(a.ty.elem, "a.dtype")
        src = f"""
f = a.reshape(-1)
n = f.shape[0]
{self.buffers(a, idx)}{sort_text(floating, idx, "f")}
g = min(n, 1)
for i in range(1, n):
    if {new}:
        g += 1
u = np.empty(g, {dt})
ri = np.empty(g, np.int64)
rc = np.zeros(g, np.int64)
rv = np.empty(n, np.int64)
k = 0
for i in range(n):
    if i > 0:
        if {new}:
            k += 1
    if i == 0 or rc[k] == 0:
        u[k] = x[i]
        ri[k] = ix[i]  #I
    rc[k] += 1
    rv[ix[i]] = k  #I
rs = rv.reshape(a.shape)  #I
"""
        lines = []
        for l in src.split("\n"):
            if l.endswith("#I"):
                if not idx:
                    continue
                l = l[:-2].rstrip()
            lines.append(l)
        items = ["u"] + [var for name, var in (("return_index", "ri"), ("return_inverse", "rs"),
                                               ("return_counts", "rc")) if flags[name]]
        lines.append(f"res = ({', '.join(items)},)" if len(items) > 1 else "res = u")
        return self.inline("\n".join(lines), {"a": a}, "res")

    # ------------------------------------------------------------ order statistics
    def call_np_median(self, e):
        """np.median(a, axis=None): the middle value (mean of the two middle
        ones) of the flattened array or along an axis; NaN if a lane holds
        NaN, as NumPy."""
        args = self.call_args(e, 1, 2, kw=("axis",))
        a = args[0]
        return self.order_stat(a, None, args[1] if len(args) > 1 else self.kwargs(e).get("axis"),
                               "median")

    def call_np_percentile(self, e):
        """np.percentile(a, q, axis=None, method='linear')."""
        return self.quantile_call(e, "percentile")

    def call_np_quantile(self, e):
        """np.quantile(a, q, axis=None, method='linear')."""
        return self.quantile_call(e, "quantile")

    def quantile_call(self, e, fn):
        args = self.call_args(e, 2, 3, kw=("axis", "method"))
        kw = self.kwargs(e)
        if literal_value(kw.get("method")) not in (None, "linear"):
            self.error(f"np.{fn}: only method='linear' (the default) is supported")
        a, q = args[0], args[1]
        if not (q.is_scalar or (q.is_array and q.ty.rank <= 1)):
            self.error(f"np.{fn}: q must be a number or a 1-D array")
        if is_complex(q.ty.elem if q.is_array else q.ty):
            self.error(f"np.{fn}: q must be real")
        return self.order_stat(a, q, args[2] if len(args) > 2 else kw.get("axis"), fn)

    def order_stat(self, a, q, axis_v, fn):
        self.sort_operand(a, fn)
        if q is not None and a.ty.elem == "i1":
            self.error(f"np.{fn} of a boolean array is not supported (NumPy cannot subtract "
                       "booleans)")
        axis = self.axis_arg(a, axis_v, fn, default=None)
        # NumPy's result type: that of a's float type with q's (a Python number is weak)
        q_ty = None if q is None or (q.is_scalar and q.weak) else (
            q.ty.elem if q.is_array else q.ty)
        odt = "np.float32" if a.ty.elem == "f32" and q_ty in (None, "f32") else "np.float64"
        floating = a.ty.elem in ("f32", "f64")
        if fn == "median":
            stat = """
if n == 0:
    rr = np.nan
elif m < n:
    rr = np.nan
elif n % 2 == 1:
    rr = np.float64(ODT(x[n // 2]))
else:
    rr = np.float64((ODT(x[n // 2 - 1]) + ODT(x[n // 2])) / 2)
res = ODT(rr)
"""
        else:
            scale = " / 100" if fn == "percentile" else ""
            stat = f"""
qq = QV{scale}
if n == 0:
    raise IndexError("index -1 is out of bounds for axis 0 with size 0")
if m < n:
    rr = np.nan
else:
    vi = (n - 1) * qq
    if vi >= n - 1:
        rr = np.float64(x[n - 1])
    elif vi < 0:
        rr = np.float64(x[0])
    else:
        lo = int(np.floor(vi))
        gm = vi - lo
        pa = np.float64(x[lo])
        pb = np.float64(x[lo + 1])
        df = pb - pa
        if gm >= 0.5:
            rr = pb - df * (1 - gm)
        else:
            rr = pa + df * gm
res = ODT(rr)
"""
        stat = stat.replace("ODT", odt)
        qarray = q is not None and q.is_array
        if q is not None:
            bound = "100" if fn == "percentile" else "1"
            what = "Percentiles" if fn == "percentile" else "Quantiles"
            check = (f"if not (qc >= 0 and qc <= {bound}):\n"
                     f"    raise ValueError(\"{what} must be in the range [0, {bound}]\")\n")
            pre = ("for jq in range(q.shape[0]):\n    qc = q[jq]\n" + _indent(check, 4)
                   if qarray else f"qc = q\n{check}")
            pre += "nq = q.shape[0]\n" if qarray else ""
        else:
            pre = ""
        flat = axis is None or a.ty.rank == 1
        lane = "f" if flat else "LANE(a)"
        body = sort_text(floating, False, lane)
        if qarray:
            body += "\nfor jq in range(nq):\n" + _indent(stat.replace("QV", "q[jq]"), 4)
            body += "\n    OUTQ(r) = res" if not flat else "\n    r[jq] = res"
        else:
            body += "\n" + stat.replace("QV", "q")
            body += "\nOUT(r) = res" if not flat else "\nr = res"
        if flat:
            src = (f"{pre}f = a.reshape(-1)\nn = f.shape[0]\n{self.buffers(a, False)}"
                   + (f"r = np.empty(nq, {odt})\n" if qarray else "") + body + "\n")
        else:
            rest = [f"a.shape[{d}]" for d in range(a.ty.rank) if d != axis]
            shape = (["nq"] if qarray else []) + rest
            src = (f"{pre}n = a.shape[{axis}]\n{self.buffers(a, False)}"
                   f"r = np.empty(({', '.join(shape)},), {odt})\n"
                   + lane_loops(a.ty.rank, axis, body) + "\n")
        vals = {"a": a}
        if q is not None:
            vals["q"] = q
        return self.inline(src, vals, "r")

    # ------------------------------------------------------------ interp
    def call_np_interp(self, e):
        """np.interp(x, xp, fp, left=None, right=None): piecewise-linear
        interpolation (float64) of the increasing xp, fp at x (a number or
        an array), NumPy's values at and beyond the ends."""
        args = self.call_args(e, 3, 5, kw=("left", "right"))
        kw = self.kwargs(e)
        x, xp, fp = args[:3]
        left = args[3] if len(args) > 3 else kw.get("left")
        right = args[4] if len(args) > 4 else kw.get("right")
        for v, name in ((xp, "xp"), (fp, "fp")):
            if not v.is_array or v.ty.rank != 1:
                self.error(f"np.interp: {name} must be a 1-D array")
            if is_complex(v.ty.elem):
                self.error(f"np.interp: complex {name} is not supported")
        if not (x.is_array or x.is_scalar) or is_complex(x.ty.elem if x.is_array else x.ty):
            self.error("np.interp: x must be a real number or array")
        vals = {"xp": self.cast(xp, "f64"), "fp": self.cast(fp, "f64"), "x": x}
        ends = ""
        for v, name, default in ((left, "lv", "fp[0]"), (right, "rv", "fp[nxp - 1]")):
            if v is None or v.kind == "none":
                ends += f"{name} = np.float64({default})\n"
            else:
                if not v.is_scalar or is_complex(v.ty):
                    self.error("np.interp: left and right must be real numbers")
                vals[name + "_in"] = v
                ends += f"{name} = np.float64({name}_in)\n"
        one = """
if nxp == 1:
    if xv < xp[0]:
        res = lv
    elif xv > xp[0]:
        res = rv
    else:
        res = fp[0]
elif xv != xv:
    res = np.nan
elif xv > xp[nxp - 1]:
    res = rv
elif xv < xp[0]:
    res = lv
else:
    lo = 0
    hi = nxp
    while lo < hi:
        mid = (lo + hi) // 2
        if xp[mid] <= xv:
            lo = mid + 1
        else:
            hi = mid
    j = lo - 1
    if j >= nxp - 1:
        res = fp[nxp - 1]
    elif xp[j] == xv:
        res = fp[j]
    else:
        sl = (fp[j + 1] - fp[j]) / (xp[j + 1] - xp[j])
        res = sl * (xv - xp[j]) + fp[j]
        if res != res:
            res = sl * (xv - xp[j + 1]) + fp[j + 1]
            if res != res and fp[j] == fp[j + 1]:
                res = fp[j]
"""
        head = f"""
nxp = xp.shape[0]
if nxp == 0:
    raise ValueError("array of sample points is empty")
if fp.shape[0] != nxp:
    raise ValueError("fp and xp are not of the same length.")
{ends}"""
        if x.is_scalar:
            src = head + "xv = np.float64(x)\n" + one + "r = res\n"
        else:
            src = (head + "f = x.reshape(-1)\nrf = np.empty(f.shape[0], np.float64)\n"
                   "for t in range(f.shape[0]):\n    xv = np.float64(f[t])\n" + _indent(one, 4)
                   + "\n    rf[t] = res\nr = rf.reshape(x.shape)\n")
        return self.inline(src, vals, "r")
