"""Tensor contractions: np.tensordot, np.einsum and np.linalg.multi_dot,
compiled from templates.
A contraction of two operands becomes transposes, reshapes and one matrix
product (batched over the indices both operands and the output share;
BLAS above its size threshold, a vectorised loop below), or one fused sum
of products when every index is summed; every other einsum (traces,
diagonals, sums over an index of one operand, three or more operands)
becomes a loop nest over the output's indices with the summed ones
inside. A subscript of size 1 in one operand broadcasts against any size
in the others, as in NumPy's einsum: a two-operand product checks at run
time that the sizes agree and takes the loop nest where they do not."""
import ast

from ..types import promote_strong
from .library import dtype_source


NARROW_INTEGERS = ("i8", "i16", "i32", "ui8", "ui16", "ui32")


def _product(terms):
    return " * ".join(terms) if terms else "1"


def _shape(terms):
    return "(" + "".join(f"{t}, " for t in terms) + ")"


def _indent(source):
    return "\n".join("    " + line for line in source.split("\n"))


class Contractions:
    """np.tensordot, np.einsum and np.linalg.multi_dot."""

    def contract(self, a, b, a_axes, b_axes, fn, a_batch=(), b_batch=()):
        """The sum over a's `a_axes` against b's `b_axes`, for each index of
        the batch axes `a_batch` (of a) and `b_batch` (of b), in the order
        batch axes, a's other axes, b's other axes (tensordot's without a
        batch)."""
        source = self.contract_source(a, b, a_axes, b_axes, fn, a_batch, b_batch)
        return self.template(source, {"a": a, "b": b})

    def contract_source(self, a, b, a_axes, b_axes, fn, a_batch=(), b_batch=()):
        """contract()'s template: operands `a` and `b`, result `r`."""
        a_batch, b_batch = list(a_batch), list(b_batch)
        free_a = [d for d in range(a.ty.rank) if d not in a_axes and d not in a_batch]
        free_b = [d for d in range(b.ty.rank) if d not in b_axes and d not in b_batch]
        lines = [f"if a.shape[{x}] != b.shape[{y}]:\n"
                 f"    raise ValueError(\"{fn}: shape-mismatch for sum\")"
                 for x, y in zip(a_axes + a_batch, b_axes + b_batch)]
        order_a = a_batch + free_a + list(a_axes)
        order_b = b_batch + list(b_axes) + free_b
        at = "a" if order_a == list(range(a.ty.rank)) else f"np.transpose(a, {_shape(order_a)})"
        bt = "b" if order_b == list(range(b.ty.rank)) else f"np.transpose(b, {_shape(order_b)})"
        shape = ([f"a.shape[{d}]" for d in a_batch + free_a]
                 + [f"b.shape[{d}]" for d in free_b])
        if not free_a and not free_b:
            # a sum of products for each batch index: one fused loop nest, no
            # products of 1 x k by k x 1
            summed = _shape(range(len(a_batch), a.ty.rank))
            elem = promote_strong(a.ty.elem, b.ty.elem)
            if a_axes and a_batch:
                total = f"np.sum({at} * {bt}, axis={summed})"
                # np.sum widens narrow integers; einsum keeps their type
                lines.append(f"r = {total}.astype({dtype_source(elem)})"
                             if elem in NARROW_INTEGERS else f"r = {total}")
            elif a_axes:
                # np.sum widens narrow integers; einsum keeps their type
                total = f"np.sum({at} * {bt})"
                lines.append(f"r = {dtype_source(elem)}({total})"
                             if elem in NARROW_INTEGERS else f"r = {total}")
            else:
                lines.append(f"r = {at} * {bt}")
            return "\n".join(lines)
        m = _product([f"a.shape[{d}]" for d in free_a])
        k = _product([f"a.shape[{d}]" for d in a_axes])
        n = _product([f"b.shape[{d}]" for d in free_b])
        if a_batch:
            batch = _product([f"a.shape[{d}]" for d in a_batch])
            product = f"({at}).reshape({batch}, {m}, {k}) @ ({bt}).reshape({batch}, {k}, {n})"
        else:
            product = f"({at}).reshape({m}, {k}) @ ({bt}).reshape({k}, {n})"
        lines.append(f"r = ({product}).reshape({_shape(shape)})")
        return "\n".join(lines)

    # ------------------------------------------------------- np.tensordot
    def call_np_tensordot(self, e):
        e = self.lists_as_tuples(e, 2, "axes")  # (([1, 0], [0, 1]))
        args, kw = self.array_args(e, "np.tensordot", 2, 3, kw=("axes",))
        a, b = args[0], args[1]
        axes = args[2] if len(args) > 2 else kw.get("axes")
        if axes is None:
            count = 2
        elif axes.kind == "tuple" and len(axes.items) == 2:
            count = None
            pair = []
            for side in axes.items:
                items = side.items if side.kind == "tuple" else [side]
                pair.append(self.const_ints(items, "np.tensordot axes"))
            a_axes, b_axes = pair
        else:
            counts = self.const_ints([axes], "np.tensordot axes")
            if len(counts) != 1:
                self.error("np.tensordot: axes must be an int or two sequences of axes")
            count = counts[0]
        if count is not None:
            if not 0 <= count <= min(a.ty.rank, b.ty.rank):
                self.error(f"np.tensordot: cannot sum over {count} axes of arrays of "
                           f"{a.ty.rank} and {b.ty.rank} dimensions")
            a_axes = list(range(a.ty.rank - count, a.ty.rank))
            b_axes = list(range(count))
        if len(a_axes) != len(b_axes):
            self.error("np.tensordot: the two lists of axes differ in length")
        for axes_of, rank in ((a_axes, a.ty.rank), (b_axes, b.ty.rank)):
            for i, x in enumerate(axes_of):
                if not -rank <= x < rank:
                    self.error(f"np.tensordot: axis {x} is out of bounds for a rank-{rank} array")
                axes_of[i] = x % rank
            if len(set(axes_of)) != len(axes_of):
                self.error("np.tensordot: an axis is repeated")
        self.contraction_types([a, b], "np.tensordot")
        return self.contract(a, b, a_axes, b_axes, "np.tensordot")

    def contraction_types(self, operands, fn):
        """The element type of a contraction of `operands` (arrays of
        numbers)."""
        elem = None
        for v in operands:
            self.one_array(v, fn)
            if v.ty.elem == "i1":
                self.error(f"{fn} of boolean arrays is not supported")
            elem = v.ty.elem if elem is None else promote_strong(elem, v.ty.elem)
        return elem

    # ---------------------------------------------------------- np.einsum
    def call_np_einsum(self, e):
        for k in e.keywords:
            # optimize only picks NumPy's contraction order: the result is the same
            if k.arg != "optimize":
                self.error(f"np.einsum: unsupported keyword argument '{k.arg}'")
        if len(e.args) < 2:
            self.error("np.einsum needs subscripts and at least one operand")
        spec = self.expr(e.args[0])
        if spec.kind != "str":
            self.error("np.einsum: the subscripts must be a constant string "
                       "(the interleaved operand/sublist form is not supported)")
        operands = [self.expr(x) for x in e.args[1:]]
        elem = self.contraction_types(operands, "np.einsum")
        inputs, output = self.parse_einsum(spec.obj, operands)
        # two operands and a plain contraction: a (batched) matrix product
        if len(operands) == 2:
            (ta, tb), out = inputs, output
            shared = set(ta) & set(tb)
            contracted = sorted(shared - set(out))
            batch = [c for c in out if c in shared]
            # batched sums of products (ij,ij->i) run faster as loops than as
            # an axis sum of a temporary product
            batched_dots = batch and contracted and set(ta) == set(tb)
            if (len(set(ta)) == len(ta) and len(set(tb)) == len(tb)
                    and all(c in out for c in set(ta) ^ set(tb)) and not batched_dots):
                a, b = operands
                product = self.contract_source(
                    a, b, [ta.index(c) for c in contracted], [tb.index(c) for c in contracted],
                    "np.einsum", [ta.index(c) for c in batch], [tb.index(c) for c in batch])
                got = batch + [c for c in ta if c not in shared] + \
                    [c for c in tb if c not in shared]
                if shared:
                    # NumPy broadcasts a subscript of size 1 against any
                    # other size: the matrix product when the sizes agree,
                    # else loops (giving the same order, so that the two
                    # results have one layout)
                    same = " and ".join(f"a.shape[{ta.index(c)}] == b.shape[{tb.index(c)}]"
                                        for c in sorted(shared))
                    loops = self.einsum_loop_source(["a", "b"], inputs, "".join(got), elem)
                    product = f"if {same}:\n{_indent(product)}\nelse:\n{_indent(loops)}"
                if got == list(out):
                    return self.template(product, {"a": a, "b": b})
                perm = _shape([got.index(c) for c in out])
                return self.template(f"{product}\nq = np.transpose(r, {perm})",
                                     {"a": a, "b": b}, result="q")
        names = [f"x{k}" for k in range(len(operands))]
        return self.template(self.einsum_loop_source(names, inputs, output, elem),
                             dict(zip(names, operands)))

    def parse_einsum(self, spec, operands):
        """The subscripts of each operand and of the output."""
        spec = spec.replace(" ", "")
        lhs, arrow, out = spec.partition("->")
        inputs = lhs.split(",")
        if len(inputs) != len(operands):
            self.error(f"np.einsum: {len(inputs)} operands in the subscripts "
                       f"'{spec}', {len(operands)} given")
        if "." in spec:
            inputs, out = self.expand_ellipsis(spec, inputs, out, arrow, operands)
            arrow = "->"
        for term, v in zip(inputs, operands):
            if not term.isalpha() and term:
                self.error(f"np.einsum: subscripts are letters, not '{term}'")
            if len(term) != v.ty.rank:
                self.error(f"np.einsum: '{term}' names {len(term)} dimensions of an "
                           f"array of {v.ty.rank}")
        if not arrow:
            letters = "".join(inputs)
            out = "".join(sorted(c for c in set(letters) if letters.count(c) == 1))
        if (out and not out.isalpha()) or len(set(out)) != len(out):
            self.error(f"np.einsum: bad output subscripts '{out}'")
        for c in out:
            if not any(c in term for term in inputs):
                self.error(f"np.einsum: output subscript '{c}' is not in the inputs")
        return inputs, out

    def expand_ellipsis(self, spec, inputs, out, arrow, operands):
        """Subscripts with each '...' replaced by letters of their own: the
        dimensions it covers in each operand (the operand's rank less its
        letters), aligned on the right across operands, as NumPy's
        broadcasting aligns them; the output gets them where its '...' is,
        or first when the output is implicit (sizes of 1 broadcast, as for
        every subscript: einsum_loop_source)."""
        def split(term):
            if term.count("...") > 1 or term.replace("...", "").count("."):
                self.error(f"np.einsum: bad subscripts '{term}' ('...' at most once)")
            return term.partition("...")
        spare = [c for c in "ZYXWVUTSRQPONMLKJIHGFEDCBAzyxwvutsrqponmlkjihgfedcba"
                 if c not in spec]
        covered = []
        for term, v in zip(inputs, operands):
            before, dots, after = split(term)
            covered.append(v.ty.rank - len(before) - len(after) if dots else 0)
            if covered[-1] < 0:
                self.error(f"np.einsum: '{term}' names more dimensions than an array of "
                           f"{v.ty.rank} has")
        width = max(covered)
        letters = "".join(reversed(spare[:width]))
        expanded = []
        for term, count in zip(inputs, covered):
            before, dots, after = split(term)
            expanded.append(before + (letters[width - count:] if dots else "") + after)
        if arrow:
            before, dots, after = split(out)
            if width and not dots:
                # NumPy does not sum over broadcast dimensions either
                self.error("np.einsum: the output needs '...' where the operands' '...' "
                           "cover dimensions")
            out = before + (letters if dots else "") + after
        else:
            counted = "".join(expanded)
            out = letters + "".join(sorted(c for c in set(counted) - set(letters)
                                           if counted.count(c) == 1))
        return expanded, out

    def einsum_loop_source(self, names, inputs, output, elem):
        """The general einsum as a template over the operands `names`: a
        loop nest over the output's subscripts, the summed ones inside. A
        subscript's size is broadcast across operands as NumPy's einsum
        does (sizes of 1 repeat); within one operand (a diagonal) its sizes
        must agree."""
        lines, extent, users = [], {}, {}
        for k, (x, term) in enumerate(zip(names, inputs)):
            for d, c in enumerate(term):
                here = f"{x}.shape[{d}]"
                if (x, c) in extent:
                    lines.append(f"if {here} != {extent[x, c]}:\n    raise ValueError("
                                 f"\"np.einsum: the dimensions of operand {k} for the "
                                 f"repeated subscript '{c}' differ\")")
                else:
                    extent[x, c] = here
                    users.setdefault(c, []).append(x)
        size, step = {}, {}
        for c, xs in users.items():
            if len(xs) == 1:
                size[c] = extent[xs[0], c]
                continue
            size[c] = f"n_{c}"
            lines.append(f"n_{c} = 1")
            for x in xs:
                e = extent[x, c]
                lines.append(f"if {e} != 1:\n    if n_{c} != 1 and n_{c} != {e}:\n"
                             f"        raise ValueError(\"np.einsum: operands could not be "
                             f"broadcast together (subscript '{c}')\")\n    n_{c} = {e}")
                # 0 where the operand's size is 1 (its one index repeats);
                # where it is 0 the loop over it runs no iteration
                lines.append(f"s_{x}_{c} = min({e} - 1, 1)")
                step[x, c] = f"s_{x}_{c}"
        summed = sorted(set("".join(inputs)) - set(output))
        dt = dtype_source(elem)

        def index(x, term):
            return ", ".join(f"i_{c} * {step[x, c]}" if (x, c) in step else f"i_{c}"
                             for c in term)
        factors = " * ".join(f"{x}[{index(x, term)}]" if term else x
                             for x, term in zip(names, inputs))
        if output:
            lines.append(f"r = np.zeros({_shape([size[c] for c in output])}, dtype={dt})")
            target = f"r[{', '.join(f'i_{c}' for c in output)}]"
        else:
            lines.append(f"r = {dt}(0)")
            target = "r"
        depth = 0
        for c in list(output) + summed:
            lines.append("    " * depth + f"for i_{c} in range({size[c]}):")
            depth += 1
        lines.append("    " * depth + f"{target} += {factors}")
        return "\n".join(lines)

    # -------------------------------------------------- np.linalg.multi_dot
    def call_linalg_multi_dot(self, e):
        """np.linalg.multi_dot([A, B, ...]) (a list or tuple written in the
        call: compiled code has no lists): for three, the cheaper of the
        two orders, chosen at run time as NumPy does; for more, left to
        right. The first and last may be vectors."""
        for k in e.keywords:
            self.error(f"np.linalg.multi_dot: unsupported keyword argument '{k.arg}'")
        if len(e.args) != 1 or not isinstance(e.args[0], (ast.List, ast.Tuple)):
            self.error("np.linalg.multi_dot takes the arrays as one list or tuple "
                       "written in the call")
        arrays = [self.expr(x) for x in e.args[0].elts]
        if len(arrays) < 2:
            self.error("np.linalg.multi_dot needs at least 2 arrays")
        self.contraction_types(arrays, "np.linalg.multi_dot")
        for k, v in enumerate(arrays):
            end = k in (0, len(arrays) - 1)
            if v.ty.rank != 2 and not (end and v.ty.rank == 1):
                self.error(f"np.linalg.multi_dot: array {k} has {v.ty.rank} dimensions "
                           "(2, or 1 for the first and the last)")
        names = {f"x{k}": v for k, v in enumerate(arrays)}
        if len(arrays) == 3:
            a, b, c = arrays
            p = "x0.shape[0]" if a.ty.rank == 2 else "1"
            s_ = "x2.shape[1]" if c.ty.rank == 2 else "1"
            source = f"""
                p = {p}
                q = x1.shape[0]
                t = x1.shape[1]
                s = {s_}
                if p * q * t + p * t * s <= q * t * s + p * q * s:
                    r = (x0 @ x1) @ x2
                else:
                    r = x0 @ (x1 @ x2)
            """
        else:
            source = "r = " + " @ ".join(names)
        return self.template(source, names)

