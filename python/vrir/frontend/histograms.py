"""Counting into bins: np.histogram (equal-width bins from a number of bins
and a range, or explicit bin edges; weights, density) and np.bincount,
written as templates (Calls.inline) that compute NumPy's bin of each
element in one pass, with NumPy's rules for the range, the edges and the
last bin (closed on the right)."""
from ..types import is_complex, kind
from .library import dtype_source


class Histograms:
    """np.histogram and np.bincount."""

    def call_np_histogram(self, e):
        """np.histogram(a, bins=10, range=None, density=None, weights=None):
        (counts, bin edges). With a number of bins the edges are
        np.linspace over the range (a's minimum and maximum by default,
        widened by 0.5 each way when they are equal) in a's float type
        (float64 for integers), and each element's bin is computed as NumPy
        computes it (scaled offset, then corrected against the edges); with
        an array of increasing edges it is counted (up to 64 edges) or
        searched for among the edges of its cell in a table over the
        edges' span (a bisection over all edges where the ends are
        infinite, equal or too far apart). Elements
        outside the range, and NaNs, are not counted."""
        args, kw = self.array_args(e, "np.histogram", 1, 5,
                                   kw=("bins", "range", "density", "weights"))
        a = args[0]
        names = ("bins", "range", "density", "weights")
        given = dict(kw)
        for name, value in zip(names, args[1:]):
            if name in given:
                self.error(f"np.histogram() got multiple values for argument '{name}'")
            given[name] = value
        if is_complex(a.ty.elem):
            self.error("np.histogram of complex numbers is not supported")
        bins = given.get("bins")
        value_range = given.get("range")
        weights = given.get("weights")
        density = self.const_bool(None if given.get("density") is None or
                                  given["density"].kind == "none" else given["density"],
                                  "np.histogram: density", False)
        values = {"a": a}
        if weights is not None and weights.kind != "none":
            if not weights.is_array or weights.ty.rank != a.ty.rank or \
                    is_complex(weights.ty.elem):
                self.error("np.histogram: weights must be a real array of a's shape")
            values["w"] = weights
            weighted = True
        else:
            weighted = False
        # the element type of the counts: NumPy's intp, or the weights'
        count_type = dtype_source(weights.ty.elem) if weighted else "np.int64"
        add = "w_flat[t]" if weighted else "1"
        head = "flat = a.reshape(-1)\n"
        if weighted:
            head += ("if w.shape != a.shape:\n"
                     "    raise ValueError(\"weights should have the same shape as a.\")\n"
                     "w_flat = w.reshape(-1)\n"
                     "acc = np.zeros(nbins, np.float64)\n")
        else:
            head += "acc = np.zeros(nbins, np.int64)\n"
        finish = f"h = acc.astype({count_type})\n" if weighted else "h = acc\n"
        if density:
            finish += "hd = h / np.diff(edges).astype(np.float64) / h.sum()\n"
        result = "r = (hd, edges)\n" if density else "r = (h, edges)\n"

        if bins is not None and bins.is_array:
            if bins.ty.rank != 1 or is_complex(bins.ty.elem):
                self.error("np.histogram: bins must be a number of bins or a 1-D array of edges")
            values["edges"] = bins
            # x in bin j (the last edge <= x; the last bin is closed)
            count_one = ["if x >= edges[0] and x <= last:",
                         "    if j == nbins:",
                         "        j = nbins - 1",
                         "    acc[j] += ADD"]
            source = """
nedges = edges.shape[0]
if nedges == 0:
    raise ValueError("`bins` must have at least one edge")
for k in range(nedges - 1):
    if edges[k] > edges[k + 1]:
        raise ValueError("`bins` must increase monotonically, when an array")
nbins = nedges - 1
""" + head + """
if nbins > 0 and nedges <= 64:
    last = edges[nbins]
    for t in range(flat.shape[0]):
        x = flat[t]
        # the edges after the first that are <= x, counted: a loop the
        # compiler vectorizes
        j = 0
        for k in range(1, nedges):
            j += 1 if edges[k] <= x else 0
""" + _block(count_one, 8) + """
elif nbins > 0:
    last = edges[nbins]
    first = edges[0]
    lo = np.float64(first)
    width = np.float64(last) - lo
    if width > 0.0 and width < np.inf:
        # A table over equal cells of [first, last]: the cell of a value v
        # is cell(v) = min(int((v - first) * scale), cells - 1), which never
        # decreases as v grows. So the edges whose cell is below x's are
        # <= x, and those whose cell is above it are > x: the last edge
        # <= x is among the edges of x's own cell, start[c] to start[c + 1].
        # With up to 32 cells a bin (a table of at most 1 MiB, unless there
        # are more bins) most cells hold no edge, so the search below
        # rarely runs (NumPy sorts the data instead).
        cells = min(32 * nbins, max(2 * nbins, 1 << 17))
        scale = np.float64(cells) / width
        start = np.empty(cells + 1, np.int64)
        k = 0
        for c in range(cells + 1):
            while k < nedges and min(int((np.float64(edges[k]) - lo) * scale), cells - 1) < c:
                k += 1
            start[c] = k
        for t in range(flat.shape[0]):
            x = flat[t]
            if x >= first and x <= last:
                c = min(int((np.float64(x) - lo) * scale), cells - 1)
                below = start[c]
                n = start[c + 1] - below
                while n > 0:
                    half = n // 2
                    if edges[below + half] <= x:
                        below += half + 1
                        n -= half + 1
                    else:
                        n = half
                # the last edge <= x (the last bin is closed)
                j = below - 1
                if j == nbins:
                    j = nbins - 1
                acc[j] += ADD
    else:
        # infinite or equal ends: no cells
        for t in range(flat.shape[0]):
            x = flat[t]
            # the last edge <= x, by a bisection of a fixed number of steps
            j = 0
            n = nedges
            while n > 1:
                half = n // 2
                j += half * int(edges[j + half] <= x)
                n -= half
""" + _block(count_one, 12) + "\n" + finish
            return self.template(source + result, values, "r", ADD=add)

        if bins is None or bins.kind == "none":
            values["nbins_in"] = self.const(10, "i64")
        elif bins.is_scalar and kind(bins.ty) == 1:
            values["nbins_in"] = bins
        elif bins.kind == "str":
            self.error("np.histogram: bins given by an estimator name ('auto', 'fd', ...) "
                       "are not supported; give a number of bins or the edges")
        else:
            self.error("np.histogram: bins must be an integer or a 1-D array of edges")
        edge_type = dtype_source(a.ty.elem if kind(a.ty.elem) == 2 else "f64")
        # NumPy takes the ends of the range as given (Python numbers: the
        # edges computed in float64, then converted) or as a's minimum and
        # maximum (then in a's float type); the bins are then found in the
        # edges' type.
        if value_range is not None and value_range.kind != "none":
            if value_range.kind != "tuple" or len(value_range.items) != 2 or \
                    not all(v.is_scalar and kind(v.ty) <= 2 for v in value_range.items):
                self.error("np.histogram: range must be a tuple (min, max) of two numbers")
            values["range_lo"], values["range_hi"] = value_range.items
            bounds = """
lo = np.float64(range_lo)
hi = np.float64(range_hi)
if lo > hi:
    raise ValueError("max must be larger than min in range parameter.")
if not (np.isfinite(lo) and np.isfinite(hi)):
    raise ValueError("supplied range of histogram is not finite")
"""
        else:
            bounds = """
if flat.shape[0] == 0:
    lo = ET(0)
    hi = ET(1)
else:
    lo = ET(np.min(flat))
    hi = ET(np.max(flat))
    if not (np.isfinite(lo) and np.isfinite(hi)):
        raise ValueError("autodetected range of histogram is not finite")
"""
        source = """
nbins = nbins_in
if nbins < 1:
    raise ValueError("`bins` must be positive, when an integer")
""" + head + bounds + """
if lo == hi:
    lo = lo - 0.5
    hi = hi + 0.5
edges = np.linspace(lo, hi, nbins + 1).astype(ET)
first = ET(lo)
last = ET(hi)
# NumPy divides by the width; a guess of the bin within one of the
# right one is enough, as the edges correct it
per_width = ET(nbins) / ET(hi - lo)
for t in range(flat.shape[0]):
    x = ET(flat[t])
    if x >= first and x <= last:
        j = int((x - first) * per_width)
        if j == nbins:
            j -= 1
        if x < edges[j]:
            j -= 1
        elif j != nbins - 1 and x >= edges[j + 1]:
            j += 1
        acc[j] += ADD
""" + finish
        return self.template(source + result, values, "r", ET=edge_type, ADD=add)

    def call_np_bincount(self, e):
        """np.bincount(x, weights=None, minlength=0): the number of times
        each value 0, 1, ... occurs in the 1-D integer array x (int64), or
        the sum of the weights at those positions (float64)."""
        args, kw = self.array_args(e, "np.bincount", 1, 3, kw=("weights", "minlength"))
        x = args[0]
        weights = args[1] if len(args) > 1 else kw.get("weights")
        minlength = args[2] if len(args) > 2 else kw.get("minlength")
        if x.ty.rank != 1 or kind(x.ty.elem) != 1 or x.ty.elem == "ui64":
            # (NumPy casts x to intp "safely": not from uint64)
            self.error("np.bincount takes a 1-D array of integers (not uint64)")
        values = {"x": x, "minlength": minlength if minlength is not None and
                  minlength.kind != "none" else self.const(0, "i64")}
        if not (values["minlength"].is_scalar and kind(values["minlength"].ty) == 1):
            self.error("np.bincount: minlength must be an integer")
        weighted = weights is not None and weights.kind != "none"
        if weighted:
            if not weights.is_array or weights.ty.rank != 1 or is_complex(weights.ty.elem):
                self.error("np.bincount: weights must be a real 1-D array")
            values["w"] = weights
        return self.template(f"""
if minlength < 0:
    raise ValueError("'minlength' must not be negative")
n = x.shape[0]
{"if w.shape[0] != n:" if weighted else "if False:"}
    raise ValueError("The weights and list don't have the same length.")
size = minlength
smallest = 0
for t in range(n):
    size = max(size, np.int64(x[t]) + 1)
    smallest = min(smallest, np.int64(x[t]))
if smallest < 0:
    raise ValueError("'list' argument must have no negative elements")
r = np.zeros(size, {"np.float64" if weighted else "np.int64"})
for t in range(n):
    r[x[t]] += {"np.float64(w[t])" if weighted else "1"}
""", values)


def _block(lines, spaces):
    """Template lines indented by `spaces`, as text."""
    return "\n".join(" " * spaces + line for line in lines)
