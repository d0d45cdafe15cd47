"""Sorting and searching: np.sort, np.argsort, np.unique, np.searchsorted,
np.median, np.percentile, np.quantile, np.nonzero, np.flatnonzero,
np.argwhere, np.interp and the array methods A.sort(), A.argsort(),
A.nonzero(), written as Python templates compiled in place (Calls.inline).

Sorting is a stable bottom-up merge sort (insertion sort of runs of 16,
then merges between two scratch buffers), so argsort gives ties in index
order (NumPy's kind='stable'). NaN sorts last, as in NumPy: the lane is
copied into the buffer with its NaNs moved, in order, behind the other
values, which alone are merged with a plain `<`."""
from ..types import ArrT, is_complex
from .values import V

RUN = 16  # the length of the runs sorted by insertion

NP_DTYPES = {"f64": "np.float64", "f32": "np.float32", "i64": "np.int64", "i32": "np.int32",
             "i16": "np.int16", "i8": "np.int8", "i1": "np.bool_"}


def _literal(v):
    if v is None:
        return None
    if v.kind == "none":
        return None
    if v.kind == "str":
        return v.obj
    if v.is_scalar and v.const is not None:
        return v.const
    return _literal


def _indent(text, n):
    pad = " " * n
    return "\n".join(pad + l if l.strip() else l for l in text.split("\n"))


def sort_text(floating, idx, lane, n="n"):
    """Statements that copy the 1-D `lane` (length `n`) into the buffers
    x (keys) and, when `idx`, ix (their indices), then sort them; the
    buffers x, y (and ix, iy) must exist with length >= n. After them x
    (ix) holds the sorted lane, NaNs last; m is the number of non-NaN
    values."""
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
        "            if x[j] < x[i]:",
        "                y[k] = x[j]",
        "                iy[k] = ix[j]  #I",
        "                j += 1",
        "            else:",
        "                y[k] = x[i]",
        "                iy[k] = ix[i]  #I",
        "                i += 1",
        "            k += 1",
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
        if l.endswith("#I"):
            if not idx:
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
    import re
    text = re.sub(r"LANE\((\w+)\)", (lambda m: f"{m.group(1)}[{lane}]") if rank > 1
                  else (lambda m: m.group(1)), text)
    text = re.sub(r"OUT\((\w+)\)", lambda m: f"{m.group(1)}[{out_ix}]", text)
    return "\n".join(head + [_indent(text, 4 * len(others))])


class Sorting:
    """Sorting, searching and order statistics."""

    # ------------------------------------------------------------ helpers
    def sort_operand(self, a, fn):
        if not a.is_array:
            self.error(f"np.{fn} needs an array")
        if is_complex(a.ty.elem):
            self.error(f"np.{fn} of a complex array is not supported (NumPy orders complex "
                       "numbers by real, then imaginary part; sort the real parts)")
        if a.ty.rank == 0:
            self.error(f"np.{fn} of a 0-d array is not supported")

    def axis_arg(self, a, v, fn, default=-1):
        """The axis (an int, or None) of a constant argument."""
        lit = default if v is None else _literal(v)
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
        if axis is None:
            body = sort_text(floating, idx, "f")
            copy = "r[i] = ix[i]" if idx else "r[i] = x[i]"
            src = (f"f = a.reshape(-1)\nn = f.shape[0]\n{self.buffers(a, idx)}{body}\n"
                   f"for i in range(n):\n    {copy}\n")
            return self.inline(src, {"a": a, "r": target}, "r")
        rank = a.ty.rank
        copy = "LANE(r)[i] = ix[i]" if idx else "LANE(r)[i] = x[i]"
        body = sort_text(floating, idx, "LANE(a)") + f"\nfor i in range(n):\n    {copy}"
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
        self.sort_operand(a, "sort")
        axis = self.axis_arg(a, args[1] if len(args) > 1 else kw.get("axis"), "sort")
        self.kind_arg(kw, "sort")
        if axis is None:
            return self.sort_into(a, None, False, self.new_array(a, a.ty.elem, flat=True))
        r = self.copy(a)
        return self.sort_into(r, axis, False, r)

    def kind_arg(self, kw, fn):
        k = kw.get("kind")
        if k is not None and _literal(k) not in (None, "quicksort", "mergesort", "heapsort",
                                                 "stable"):
            self.error(f"np.{fn}: kind must be 'quicksort', 'mergesort', 'heapsort' or 'stable'")

    def method_sort(self, a, e):
        """A.sort(axis=-1): sorts A in place; returns None."""
        args = self.call_args(e, 0, 1, kw=("axis", "kind"))
        kw = self.kwargs(e)
        self.sort_operand(a, "sort")
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
        self.sort_operand(a, "argsort")
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
        self.sort_operand(a, "argsort")
        self.kind_arg(kw, "argsort")
        axis = self.axis_arg(a, args[0] if args else kw.get("axis"), "argsort")
        return self.argsort(a, axis)
