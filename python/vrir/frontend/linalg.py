"""Matrices: np.eye and np.identity, and np.linalg — cholesky, inv, solve,
det, eigh/eigvalsh, svd and qr as the dialect's LAPACK ops (vrir.cholesky,
vrir.inv, vrir.solve, vrir.det, vrir.eigh, vrir.svd, vrir.qr); norm as reductions
(and over singular values for ord 2, -2 and 'nuc'); pinv, matrix_rank,
cond and lstsq from the SVD, as NumPy computes them. Stacks of matrices
(rank > 2: the last two axes are the matrix) go through over_stack: a loop
nest over the leading axes that compiles the call on each matrix. Their run-time
failures (a matrix that is not square, not positive definite, singular,
or an iteration that does not converge) raise numpy.linalg.LinAlgError
(runtime.py)."""
import math

import numpy as np

from ..types import ArrT, is_complex, real_of
from .library import dtype_source
from .values import NOT_CONSTANT, V, literal_value


class LinearAlgebra:
    """np.eye, np.identity and np.linalg."""

    # ------------------------------------------------------------ np.eye
    def call_np_eye(self, e):
        """np.eye(N, M=None, k=0, dtype=float, order='C'): ones on the k-th
        diagonal."""
        args = self.call_args(e, 1, 3, kw=("M", "k", "dtype", "order"))
        kw = self.kwargs(e)
        n = args[0]
        m = args[1] if len(args) > 1 else kw.get("M")
        k = args[2] if len(args) > 2 else kw.get("k")
        if m is None or m.kind == "none":
            m = n
        if k is None:
            k = self.const(0, "i64")
        for v, what in ((n, "N"), (m, "M"), (k, "k")):
            if not v.is_scalar or v.ty not in ("i1", "i32", "i64"):
                self.error(f"np.eye: {what} must be an integer")
        return self.eye(n, m, k, self.dtype_kw(e, "f64", kw), self.order_kw(e))

    def call_np_identity(self, e):
        """np.identity(n, dtype=float)."""
        (n,) = self.call_args(e, 1, 1, kw=("dtype",))
        if not n.is_scalar or n.ty not in ("i1", "i32", "i64"):
            self.error("np.identity: n must be an integer")
        return self.eye(n, n, self.const(0, "i64"), self.dtype_kw(e, "f64"), "row_major")

    def eye(self, n, m, k, elem, layout):
        sizes = [self.index(n), self.index(m)]
        t = ArrT(elem, 2, layout)
        r = self.op(f"vrir.zeros({', '.join(sizes)}) : {t.mlir()}", t)
        # a negative N or M is NumPy's ValueError (vrir.zeros checks it)
        return self.inline("""
            for i in range(max(0, -k), min(n, m - k)):
                r[i, i + k] = 1
        """, {"n": n, "m": m, "k": k, "r": r}, "r")

    # ------------------------------------------------------- np.linalg
    def linalg_matrix(self, v, fn, name="a", stacks=False):
        """Checks that `v` is a matrix np.linalg.`fn` takes (or a stack of
        matrices, where `stacks`)."""
        if not v.is_array:
            self.error(f"np.linalg.{fn}: {name} must be an array")
        if is_complex(v.ty.elem):
            self.error(f"np.linalg.{fn} of a complex matrix is not supported")
        if v.ty.rank < 2:
            # NumPy's LinAlgError, known while compiling
            self.error(f"np.linalg.{fn}: {v.ty.rank}-dimensional array given; "
                       "the array must be at least two-dimensional")
        if v.ty.rank > 2 and not stacks:
            self.error(f"np.linalg.{fn} of a stack of matrices (rank {v.ty.rank}) is not "
                       "supported; call it on each matrix")

    def over_stack(self, fn, call, operands, results, values=None, vectors=()):
        """np.linalg.`fn` of stacks of matrices, as NumPy's gufuncs compute
        it: `call`, the expression of the function on one matrix (naming
        the `operands` and the scalar `values`), compiled once in a loop
        nest over the leading axes, where each operand is the 2-D view of
        its item (1-D for the names in `vectors`). The leading axes of the
        operands broadcast (aligned at the right, a length 1 repeated).
        `results` holds each result of one call as (element type, its shape
        as source on m, n, k = min(m, n) (the first operand's matrix) and
        the stacks, `stack_NAME`); each is written into an array of the
        leading shape followed by that shape. Returns that array, or a
        tuple of them."""
        leads = {name: v.ty.rank - (1 if name in vectors else 2) for name, v in operands.items()}
        depth = max(leads.values())
        first = next(iter(operands))
        lines = [f"m = stack_{first}.shape[-2]", f"n = stack_{first}.shape[-1]", "k = min(m, n)"]
        index = {name: [] for name in operands}
        for t in range(depth):
            # the operands with this leading axis, and its number in each
            having = [(name, t - depth + p) for name, p in leads.items() if t >= depth - p]
            (name0, axis0), rest = having[0], having[1:]
            lines.append(f"d{t} = stack_{name0}.shape[{axis0}]")
            for name, axis in rest:
                size = f"stack_{name}.shape[{axis}]"
                lines += [f"if d{t} == 1:", f"    d{t} = {size}",
                          f"elif {size} != 1 and {size} != d{t}:",
                          f"    raise ValueError(\"np.linalg.{fn}: the leading axes of the "
                          "operands could not be broadcast together\")"]
            for name, axis in having:
                # a broadcast length 1 is read at 0
                index[name].append(f"min(i{t}, stack_{name}.shape[{axis}] - 1)" if rest
                                   else f"i{t}")
        lead = "".join(f"d{t}, " for t in range(depth))
        for j, (elem, shape) in enumerate(results):
            lines.append(f"r{j} = np.empty(({lead}{shape}), dtype={dtype_source(elem)})")
        # an operand without leading axes is the same matrix in every call
        lines += [f"{name} = stack_{name}" for name in operands if not index[name]]
        indent = ""
        for t in range(depth):
            lines.append(f"{indent}for i{t} in range(d{t}):")
            indent += "    "
        lines += [f"{indent}{name} = stack_{name}[{', '.join(index[name])}]"
                  for name in operands if index[name]]
        here = ", ".join(f"i{t}" for t in range(depth))
        targets = ", ".join(f"r{j}[{here}]" for j in range(len(results)))
        lines.append(f"{indent}{targets} = {call}")
        bound = {f"stack_{name}": v for name, v in operands.items()}
        bound.update(values or {})
        names = tuple(f"r{j}" for j in range(len(results)))
        r = self.inline("\n".join(lines), bound, names if len(names) > 1 else names[0])
        return V(kind="tuple", items=r) if len(names) > 1 else r

    def each_matrix(self, e, fn, args, results, operands=1, vectors=()):
        """np.linalg.`fn` of stacks of matrices, called as `e` (its positional
        arguments evaluated: `args`, the first `operands` of them the
        stacks; `vectors`: the positions of stacks of vectors): over_stack
        of the same call on each matrix. Constants are passed as written
        (the function on one matrix checks them); other scalars as values."""
        stacks, values, parts = {}, {}, []
        given = [(None, v) for v in args] + list(self.kwargs(e).items())
        for j, (key, v) in enumerate(given):
            name, value = f"x{j}", literal_value(v)
            if j < operands:
                stacks[name], text = v, name
            elif v.is_array:
                what = key or f"argument {j + 1}"
                self.error(f"np.linalg.{fn} of a stack of matrices: {what} must be a scalar")
            elif value is NOT_CONSTANT or v.is_scalar and not v.weak:
                values[name], text = v, name  # keeps a NumPy scalar's type
            elif isinstance(value, float) and not math.isfinite(value):
                text = {math.inf: "np.inf", -math.inf: "-np.inf"}.get(value, "np.nan")
            else:
                text = repr(value)
            parts.append(text if key is None else f"{key}={text}")
        return self.over_stack(fn, f"np.linalg.{fn}({', '.join(parts)})", stacks, results,
                               values, {f"x{j}" for j in vectors})

    @staticmethod
    def linalg_elem(*arrays):
        """NumPy's linalg computes in float32 when every input is float32,
        else in float64 (integers and booleans included)."""
        return "f32" if all(a.ty.elem == "f32" for a in arrays) else "f64"

    def lapack_op(self, op, operands, elem, result):
        """`vrir.<op>` of `operands` (cast to `elem`) giving `result` (an
        ArrT or a scalar type)."""
        operands = [self.cast(a, elem) for a in operands]
        names = ", ".join(a.ssa for a in operands)
        types = ", ".join(a.ty.mlir() for a in operands)
        rtype = result.mlir() if isinstance(result, ArrT) else result
        return self.op(f"vrir.{op} {names} : {types} -> {rtype}", result)

    def lapack_results(self, op, operand, elem, results, attributes=""):
        """`vrir.<op>` of the matrix `operand` (cast to `elem`) with several
        results (ArrTs): their values, or the one value."""
        a = self.cast(operand, elem)
        r = self.fresh()
        self.def_lines[r] = (self.region, len(self.region.lines))
        count = len(results)
        types = ", ".join(t.mlir() for t in results)
        self.emit(f"{r}{':' + str(count) if count > 1 else ''} = vrir.{op} {a.ssa}"
                  f"{attributes} : {a.ty.mlir()} -> {types}")
        if count == 1:
            return V(results[0], r)
        return [V(t, f"{r}#{k}") for k, t in enumerate(results)]

    @staticmethod
    def machine_epsilon(elem):
        """NumPy's finfo(dtype).eps of the real type `elem`, as source."""
        return repr(float(np.finfo(np.float32 if elem == "f32" else np.float64).eps))

    @staticmethod
    def given(**values):
        """The values of a template that were given (not None)."""
        return {k: v for k, v in values.items() if v.kind != "none"}

    def symmetric_eigen(self, e, fn, vectors):
        """np.linalg.`fn`(a, UPLO='L') of a symmetric matrix (or a stack):
        the ascending eigenvalues, and the eigenvectors as columns where
        `vectors` (syevd)."""
        args = self.call_args(e, 1, 2, kw=("UPLO",))
        a = args[0]
        self.linalg_matrix(a, fn, stacks=True)
        uplo = args[1] if len(args) > 1 else self.kwargs(e).get("UPLO", V(kind="none"))
        value = literal_value(uplo)
        if value not in (None, "L", "U"):
            self.error(f"np.linalg.{fn}: UPLO must be 'L' or 'U'")
        elem = self.linalg_elem(a)
        count = 2 if vectors else 1
        if a.ty.rank > 2:
            return self.each_matrix(e, fn, args, [(elem, "n"), (elem, "n, n")][:count])
        # LAPACK reads the lower triangle: for 'U' that of the transpose
        lower = self.transpose(a) if value == "U" else a
        results = self.lapack_results("eigh", lower, elem,
                                      [ArrT(elem, 1), ArrT(elem, 2, "col_major")][:count])
        return V(kind="tuple", items=results) if vectors else results

    def call_linalg_eigh(self, e):
        """np.linalg.eigh(a, UPLO='L'): eigenvalues and eigenvectors (a
        tuple; NumPy's EighResult unpacks the same)."""
        return self.symmetric_eigen(e, "eigh", True)

    def call_linalg_eigvalsh(self, e):
        """np.linalg.eigvalsh(a, UPLO='L'): the eigenvalues alone."""
        return self.symmetric_eigen(e, "eigvalsh", False)

    def svd_values(self, a):
        elem = self.linalg_elem(a)
        if a.ty.rank > 2:
            return self.over_stack("svd", "np.linalg.svd(a, compute_uv=False)", {"a": a},
                                   [(elem, "k")])
        return self.lapack_results("svd", a, elem, [ArrT(elem, 1)])

    def call_linalg_svd(self, e):
        """np.linalg.svd(a, full_matrices=True, compute_uv=True,
        hermitian=False): (U, S, Vh), or S alone (gesdd; hermitian=True
        changes only the algorithm NumPy uses, not what is computed)."""
        args = self.call_args(e, 1, 4, kw=("full_matrices", "compute_uv", "hermitian"))
        kw = self.kwargs(e)
        a = args[0]
        self.linalg_matrix(a, "svd", stacks=True)
        flags = []
        for k, (name, default) in enumerate((("full_matrices", True), ("compute_uv", True),
                                             ("hermitian", False))):
            v = args[k + 1] if len(args) > k + 1 else kw.get(name)
            value = default if v is None else literal_value(v)
            if value not in (True, False, 0, 1):
                self.error(f"np.linalg.svd: {name} must be True or False (a constant)")
            flags.append(bool(value))
        full, compute_uv, _ = flags
        if not compute_uv:
            return self.svd_values(a)
        elem = self.linalg_elem(a)
        if a.ty.rank > 2:
            shapes = ("m, m", "k", "n, n") if full else ("m, k", "k", "k, n")
            return self.each_matrix(e, "svd", args, [(elem, shape) for shape in shapes])
        results = self.lapack_results(
            "svd", a, elem, [ArrT(elem, 2, "col_major"), ArrT(elem, 1), ArrT(elem, 2, "col_major")],
            " full_matrices" if full else "")
        return V(kind="tuple", items=results)

    def call_linalg_qr(self, e):
        """np.linalg.qr(a, mode='reduced'): (Q, R) for 'reduced' and
        'complete', R for 'r' (geqrf, orgqr)."""
        args = self.call_args(e, 1, 2, kw=("mode",))
        a = args[0]
        self.linalg_matrix(a, "qr", stacks=True)
        mode_v = args[1] if len(args) > 1 else self.kwargs(e).get("mode", V(kind="none"))
        mode = literal_value(mode_v)
        if mode is None:
            mode = "reduced"
        if mode not in ("reduced", "complete", "r"):
            self.error("np.linalg.qr: mode must be 'reduced', 'complete' or 'r' (a constant; "
                       "'raw' is not supported)")
        elem = self.linalg_elem(a)
        if a.ty.rank > 2:
            shapes = {"reduced": ("m, k", "k, n"), "complete": ("m, m", "m, n"), "r": ("k, n",)}
            return self.each_matrix(e, "qr", args, [(elem, shape) for shape in shapes[mode]])
        if mode == "r":
            return self.lapack_results("qr", a, elem, [ArrT(elem, 2)])
        q, r = self.lapack_results("qr", a, elem, [ArrT(elem, 2, "col_major"), ArrT(elem, 2)],
                                   " complete" if mode == "complete" else "")
        return V(kind="tuple", items=[q, r])

    def call_linalg_pinv(self, e):
        """np.linalg.pinv(a, rcond=None, hermitian=False, rtol=<unset>):
        NumPy's algorithm (reciprocals of the singular values above rcond
        times the largest)."""
        args = self.call_args(e, 1, 3, kw=("rcond", "hermitian", "rtol"))
        kw = self.kwargs(e)
        a = args[0]
        self.linalg_matrix(a, "pinv", stacks=True)
        rcond = args[1] if len(args) > 1 else kw.get("rcond", V(kind="none"))
        rtol = kw.get("rtol")
        if rcond.kind != "none" and rtol is not None:
            self.error("np.linalg.pinv: `rtol` and `rcond` can't be both set.")
        elem = self.linalg_elem(a)
        if a.ty.rank > 2:
            return self.each_matrix(e, "pinv", args, [(elem, "n, m")])
        eps = self.machine_epsilon(elem)
        if rcond.kind != "none":
            cut = "rcond"
        elif rtol is None:
            cut = "1e-15"
        elif rtol.kind == "none":
            cut = f"max(a.shape[0], a.shape[1]) * {eps}"
        else:
            cut, rcond = "rcond", rtol
        return self.inline(f"""
            u, s, vt = np.linalg.svd(a, full_matrices=False)
            r = np.zeros((a.shape[1], a.shape[0]), dtype=s.dtype)
            if s.shape[0] > 0:
                cutoff = {cut} * np.max(s)
                inv = np.where(s > cutoff, 1.0 / np.where(s > cutoff, s, 1.0), 0.0)
                r = vt.T @ (inv[:, None] * u.T)
        """, self.given(a=a, rcond=rcond), "r")

    def call_linalg_matrix_rank(self, e):
        """np.linalg.matrix_rank(A, tol=None, hermitian=False, rtol=None)."""
        args = self.call_args(e, 1, 3, kw=("tol", "hermitian", "rtol"))
        kw = self.kwargs(e)
        a = args[0]
        if not a.is_array:
            self.error("np.linalg.matrix_rank: A must be an array")
        if a.ty.rank < 2:
            return self.inline("r = int(np.any(a != 0))", {"a": a}, "r")
        self.linalg_matrix(a, "matrix_rank", "A", stacks=True)
        if a.ty.rank > 2:
            # NumPy's count_nonzero(..., axis=-1): intp
            return self.each_matrix(e, "matrix_rank", args, [("i64", "")])
        tol = args[1] if len(args) > 1 else kw.get("tol", V(kind="none"))
        rtol = kw.get("rtol", V(kind="none"))
        elem = self.linalg_elem(a)
        eps = self.machine_epsilon(elem)
        if tol.kind != "none":
            bound = "tol"
        elif rtol.kind != "none":
            bound = "np.max(s) * rtol"
        else:
            bound = f"np.max(s) * max(a.shape[0], a.shape[1]) * {eps}"
        return self.inline(f"""
            s = np.linalg.svd(a, compute_uv=False)
            r = 0
            if s.shape[0] > 0:
                r = int(np.count_nonzero(s > {bound}))
        """, self.given(a=a, tol=tol, rtol=rtol), "r")

    def call_linalg_cond(self, e):
        """np.linalg.cond(x, p=None): the 2-norm condition number (p None,
        2 or -2) from the singular values; other p as norm(x, p) *
        norm(inv(x), p)."""
        args = self.call_args(e, 1, 2, kw=("p",))
        x = args[0]
        p = args[1] if len(args) > 1 else self.kwargs(e).get("p", V(kind="none"))
        self.linalg_matrix(x, "cond", "x", stacks=True)
        if x.ty.rank > 2:
            return self.each_matrix(e, "cond", args, [(self.linalg_elem(x), "")])
        order = literal_value(p)
        if order in (None, 2):
            line = "r = s[0] / s[s.shape[0] - 1]"
        elif order == -2:
            line = "r = s[s.shape[0] - 1] / s[0]"
        elif order in ("fro", "nuc", 1, -1, math.inf, -math.inf):
            return self.inline(f"r = np.linalg.norm(x, {order!r}) * "
                               f"np.linalg.norm(np.linalg.inv(x), {order!r})"
                               .replace("inf", "np.inf"), {"x": x}, "r")
        else:
            self.error("np.linalg.cond: p must be None, 2, -2, 'fro', 'nuc', 1, -1, inf or -inf")
        return self.weak(self.inline(f"s = np.linalg.svd(x, compute_uv=False)\n{line}",
                                     {"x": x}, "r"), False)

    def call_linalg_lstsq(self, e):
        """np.linalg.lstsq(a, b, rcond=None): (x, residuals, rank, s) from
        the SVD, with NumPy's cutoff (rcond * the largest singular value;
        rcond None: eps * max(M, N)) and its residuals (squared 2-norms of
        b - a x per column when the rank is N < M, else empty)."""
        args = self.call_args(e, 2, 3, kw=("rcond",))
        a, b = args[0], args[1]
        rcond = args[2] if len(args) > 2 else self.kwargs(e).get("rcond", V(kind="none"))
        self.linalg_matrix(a, "lstsq")
        if not b.is_array or b.ty.rank not in (1, 2) or is_complex(b.ty.elem):
            self.error("np.linalg.lstsq: b must be a real array of rank 1 or 2")
        elem = self.linalg_elem(a, b)
        eps = self.machine_epsilon(elem)
        cut = "rcond" if rcond.kind != "none" else f"{eps} * max(a.shape[0], a.shape[1])"
        ftype = "np.float32" if elem == "f32" else "np.float64"
        return self.inline(f"""
            a2 = a.astype({ftype})
            b2 = b.astype({ftype}){"" if b.ty.rank == 2 else "[:, None]"}
            if b2.shape[0] != a2.shape[0]:
                raise ValueError("np.linalg.lstsq: Incompatible dimensions")
            u, s, vt = np.linalg.svd(a2, full_matrices=False)
            rank = np.int32(0)  # LAPACK's integer, as NumPy returns it
            inv = np.zeros(s.shape[0], dtype=s.dtype)
            if s.shape[0] > 0:
                cutoff = {cut} * np.max(s)
                rank = np.int32(np.count_nonzero(s > cutoff))
                inv = np.where(s > cutoff, 1.0 / np.where(s > cutoff, s, 1.0), 0.0)
            x2 = vt.T @ (inv[:, None] * (u.T @ b2))
            res = np.zeros(0, dtype=s.dtype)
            if rank == a2.shape[1] and a2.shape[0] > a2.shape[1]:
                d = b2 - a2 @ x2
                res = np.sum(d * d, axis=0)
            x = {"x2" if b.ty.rank == 2 else "x2[:, 0]"}
            r = (x, res, rank, s)
        """, self.given(a=a, b=b, rcond=rcond), "r")

    # ------------------------------ NumPy 2's array-API names in np.linalg
    def call_linalg_matmul(self, e):
        return self.call_np_matmul(e)

    def call_linalg_tensordot(self, e):
        return self.call_np_tensordot(e)

    def call_linalg_cross(self, e):
        return self.call_np_cross(e)

    def call_linalg_outer(self, e):
        """np.linalg.outer(x1, x2): np.outer of two vectors."""
        for v in self.call_args(e, 2, 2):
            if not v.is_array or v.ty.rank != 1:
                self.error("np.linalg.outer: x1 and x2 must be 1-dimensional arrays")
        return self.call_np_outer(e)

    def last_two_axes(self, e, fn, lo=1, hi=1, kw=()):
        args = self.call_args(e, lo, hi, kw=kw)
        x = args[0]
        if not x.is_array or x.ty.rank < 2:
            self.error(f"np.linalg.{fn}: x must be an array of at least two dimensions")
        return args

    def call_linalg_matrix_transpose(self, e):
        (x,) = self.last_two_axes(e, "matrix_transpose")
        return self.template("r = np.swapaxes(x, -1, -2)", {"x": x})

    def call_linalg_trace(self, e):
        """np.linalg.trace(x, offset=0): the trace of a matrix (of the last
        two axes; stacks of matrices are not supported)."""
        args = self.last_two_axes(e, "trace", 1, 2, kw=("offset",))
        x = args[0]
        if x.ty.rank != 2:
            self.error("np.linalg.trace of a stack of matrices is not supported")
        offset = args[1] if len(args) > 1 else self.kwargs(e).get("offset", self.const(0, "i64"))
        return self.template("r = np.trace(x, offset)", {"x": x, "offset": offset})

    def call_linalg_diagonal(self, e):
        """np.linalg.diagonal(x, offset=0): a matrix's diagonal (stacks of
        matrices are not supported)."""
        args = self.last_two_axes(e, "diagonal", 1, 2, kw=("offset",))
        x = args[0]
        if x.ty.rank != 2:
            self.error("np.linalg.diagonal of a stack of matrices is not supported")
        offset = args[1] if len(args) > 1 else self.kwargs(e).get("offset", self.const(0, "i64"))
        return self.diagonal(x, offset)

    def call_linalg_svdvals(self, e):
        (x,) = self.call_args(e, 1, 1)
        self.linalg_matrix(x, "svdvals", "x", stacks=True)
        return self.svd_values(x)

    def call_linalg_vecdot(self, e):
        """np.linalg.vecdot(x1, x2, axis=-1): sum(conj(x1) * x2) along axis
        (broadcast)."""
        args = self.call_args(e, 2, 2, kw=("axis",))
        x1, x2 = args
        for v in (x1, x2):
            if not v.is_array:
                self.error("np.linalg.vecdot: x1 and x2 must be arrays")
        axis = self.const_ints([self.kwargs(e).get("axis", self.const(-1, "i64"))],
                               "np.linalg.vecdot axis")[0]
        left = "np.conj(x1)" if is_complex(x1.ty.elem) else "x1"
        return self.template(f"r = np.sum({left} * x2, axis={axis})", {"x1": x1, "x2": x2})

    def call_linalg_vector_norm(self, e):
        """np.linalg.vector_norm(x, axis=None, keepdims=False, ord=2): over
        every element (axis None) or along one axis."""
        args = self.call_args(e, 1, 1, kw=("axis", "keepdims", "ord"))
        kw = self.kwargs(e)
        x = args[0]
        if not x.is_array:
            self.error("np.linalg.vector_norm: x must be an array")
        order = literal_value(kw.get("ord", self.const(2, "i64")))
        keepdims = literal_value(kw.get("keepdims", V(kind="none")))
        if keepdims not in (None, True, False):
            self.error("np.linalg.vector_norm: keepdims must be True or False")
        if order is NOT_CONSTANT or isinstance(order, str):
            self.error("np.linalg.vector_norm: ord must be a constant number")
        axis_v = kw.get("axis", V(kind="none"))
        if not (is_complex(x.ty.elem) or x.ty.elem in ("f32", "f64")):
            x = self.cast(x, "f64")
        if axis_v.kind == "none":
            if keepdims and x.ty.rank > 1:
                self.error("np.linalg.vector_norm: keepdims with axis=None is not supported")
            if x.ty.rank != 1:
                x = self.template("r = x.reshape(-1)", {"x": x})
            return self.vector_norm(x, order, 0, bool(keepdims))
        (axis,) = self.const_ints([axis_v], "np.linalg.vector_norm axis")
        if not -x.ty.rank <= axis < x.ty.rank:
            self.error(f"np.linalg.vector_norm: axis {axis} is out of bounds")
        return self.vector_norm(x, order, axis % x.ty.rank, bool(keepdims))

    def call_linalg_matrix_norm(self, e):
        """np.linalg.matrix_norm(x, keepdims=False, ord='fro') of a matrix or
        a stack (the last two axes)."""
        args = self.call_args(e, 1, 1, kw=("keepdims", "ord"))
        kw = self.kwargs(e)
        x = args[0]
        if not x.is_array or x.ty.rank < 2:
            self.error("np.linalg.matrix_norm: x must be a matrix or a stack of matrices")
        order = literal_value(kw.get("ord", V(kind="str", obj="fro")))
        keepdims = literal_value(kw.get("keepdims", V(kind="none")))
        if order is NOT_CONSTANT or keepdims not in (None, True, False):
            self.error("np.linalg.matrix_norm: ord and keepdims must be constants")
        if not (is_complex(x.ty.elem) or x.ty.elem in ("f32", "f64")):
            x = self.cast(x, "f64")
        return self.matrix_norm(x, order, [x.ty.rank - 2, x.ty.rank - 1], bool(keepdims))

    def call_linalg_matrix_power(self, e):
        """np.linalg.matrix_power(a, n): repeated squaring; a negative n
        powers the inverse (float matrices, or a constant n)."""
        args = self.call_args(e, 2, 2)
        a, n = args
        self.linalg_matrix(a, "matrix_power", stacks=True)
        if not n.is_scalar or n.ty not in ("i1", "i32", "i64"):
            self.error("np.linalg.matrix_power: n must be an integer")
        exponent = literal_value(n)
        floating = a.ty.elem in ("f32", "f64")
        if not floating and (exponent is NOT_CONSTANT or exponent is None):
            self.error("np.linalg.matrix_power of an integer matrix needs a constant n "
                       "(a negative one makes the result float)")
        if not floating and exponent < 0:
            a = self.cast(a, "f64")
        if a.ty.rank > 2:
            return self.each_matrix(e, "matrix_power", [a, n], [(a.ty.elem, "n, n")])
        # an integer matrix to a constant n >= 0 stays integer: no inverse
        inverse = ("if n < 0:\n                b = np.linalg.inv(a)"
                   if a.ty.elem in ("f32", "f64") else "")
        return self.template(f"""
            if a.shape[0] != a.shape[1]:
                raise ValueError("np.linalg.matrix_power: Last 2 dimensions of the array must be square")
            b = a
            {inverse}
            m = abs(n)
            r = np.eye(a.shape[0], dtype=b.dtype)
            while m > 0:
                if m % 2 == 1:
                    r = r @ b
                b = b @ b
                m //= 2
        """, {"a": a, "n": n})

    def call_linalg_cholesky(self, e):
        args = self.call_args(e, 1, 1, kw=("upper",))
        a = args[0]
        self.linalg_matrix(a, "cholesky", stacks=True)
        upper = literal_value(self.kwargs(e).get("upper", V(kind="none")))
        if upper not in (None, True, False):
            self.error("np.linalg.cholesky: upper must be True or False")
        elem = self.linalg_elem(a)
        if a.ty.rank > 2:
            return self.each_matrix(e, "cholesky", args, [(elem, "n, n")])
        # upper=True reads the upper triangle, as NumPy's: the lower one of
        # a^T, whose factor's transpose (a view of the new array) is U
        lower = self.lapack_op("cholesky", [self.transpose(a) if upper else a], elem,
                               ArrT(elem, 2))
        return self.transpose(lower) if upper else lower

    def call_linalg_inv(self, e):
        args = self.call_args(e, 1, 1)
        a = args[0]
        self.linalg_matrix(a, "inv", stacks=True)
        elem = self.linalg_elem(a)
        if a.ty.rank > 2:
            return self.each_matrix(e, "inv", args, [(elem, "n, n")])
        return self.lapack_op("inv", [a], elem, ArrT(elem, 2))

    def call_linalg_solve(self, e):
        args = self.call_args(e, 2, 2)
        a, b = args
        self.linalg_matrix(a, "solve", stacks=True)
        if not b.is_array:
            self.error("np.linalg.solve: b must be an array")
        if is_complex(b.ty.elem):
            self.error("np.linalg.solve of a complex right-hand side is not supported")
        elem = self.linalg_elem(a, b)
        if a.ty.rank > 2 or b.ty.rank > 2:
            # NumPy 2: b is one vector (broadcast) only when it is 1-D, else
            # a stack of matrices of right-hand sides
            if b.ty.rank == 1:
                return self.each_matrix(e, "solve", args, [(elem, "n")], 2, vectors=(1,))
            return self.each_matrix(e, "solve", args, [(elem, "n, stack_x1.shape[-1]")], 2)
        return self.lapack_op("solve", [a, b], elem, ArrT(elem, b.ty.rank))

    def call_linalg_det(self, e):
        args = self.call_args(e, 1, 1)
        a = args[0]
        self.linalg_matrix(a, "det", stacks=True)
        elem = self.linalg_elem(a)
        if a.ty.rank > 2:
            return self.each_matrix(e, "det", args, [(elem, "")])
        return self.weak(self.lapack_op("det", [a], elem, elem), False)

    def call_linalg_slogdet(self, e):
        """np.linalg.slogdet(a): (sign, log|det|) as a tuple (NumPy's
        SlogdetResult unpacks and indexes as one)."""
        args = self.call_args(e, 1, 1)
        a = args[0]
        self.linalg_matrix(a, "slogdet", stacks=True)
        elem = self.linalg_elem(a)
        if a.ty.rank > 2:
            return self.each_matrix(e, "slogdet", args, [(elem, ""), (elem, "")])
        a = self.cast(a, elem)
        r = self.fresh()
        self.def_lines[r] = (self.region, len(self.region.lines))
        self.emit(f"{r}:2 = vrir.slogdet {a.ssa} : {a.ty.mlir()} -> {elem}, {elem}")
        return V(kind="tuple", items=[self.weak(V(elem, f"{r}#{k}"), False) for k in range(2)])

    def call_linalg_norm(self, e):
        """np.linalg.norm(x, ord=None, axis=None, keepdims=False): vector
        norms (any ord) over all of a vector or along one axis; matrix norms
        of a matrix, or along two axes (each matrix of the stack the other
        axes make): 'fro', 1, -1, inf and -inf as reductions, 2, -2 and 'nuc'
        from the singular values."""
        args = self.call_args(e, 1, 3, kw=("ord", "axis", "keepdims"))
        kw = self.kwargs(e)
        x = args[0]
        ord_v = args[1] if len(args) > 1 else kw.get("ord", V(kind="none"))
        axis_v = args[2] if len(args) > 2 else kw.get("axis", V(kind="none"))
        keepdims = literal_value(kw.get("keepdims", V(kind="none")))
        if not x.is_array:
            self.error("np.linalg.norm: x must be an array")
        if keepdims not in (None, True, False):
            self.error("np.linalg.norm: keepdims must be True or False")
        order = literal_value(ord_v)
        if order is NOT_CONSTANT or (isinstance(order, str) and order not in ("fro", "nuc")):
            self.error("np.linalg.norm: ord must be a constant number, 'fro' or 'nuc'")
        if axis_v.kind == "tuple":
            axes = self.const_ints([axis_v], "norm axes")
        elif axis_v.kind == "none":
            axes = None
        else:
            axes = self.const_ints([axis_v], "norm axis")
        rank = x.ty.rank
        if axes is not None:
            axes = [a % rank if -rank <= a < rank else self.error(
                f"np.linalg.norm: axis {a} is out of bounds for a rank-{rank} array")
                for a in axes]
            if len(set(axes)) != len(axes) or len(axes) > 2:
                self.error("np.linalg.norm: axis is one axis or two different ones")
        # NumPy: integers are converted to float64 first
        if not (is_complex(x.ty.elem) or x.ty.elem in ("f32", "f64")):
            x = self.cast(x, "f64")
        keep = bool(keepdims)
        if axes is None and (order is None or rank == 1 and order == 2):
            # the 2-norm of the flattened array (Frobenius for a matrix)
            return self.norm_template("r = np.sqrt(np.sum(abs2(x), keepdims=KEEP))", x, keep)
        if axes is None:
            if rank == 1:
                axes = [0]
            elif rank == 2:
                axes = [0, 1]
            else:
                self.error("np.linalg.norm: ord needs a vector or a matrix (or axis=)")
        if len(axes) == 1:
            return self.vector_norm(x, order, axes[0], keep)
        return self.matrix_norm(x, order, axes, keep)

    def norm_template(self, line, x, keep, **names):
        """Compiles `line` (assigning r) with `abs2(x)` as |x|^2 (real and
        imaginary parts of complex numbers), KEEP as keepdims, REAL as the real
        dtype of x and `names` substituted."""
        sq = "(x.real * x.real + x.imag * x.imag)" if is_complex(x.ty.elem) else "(x * x)"
        src = line.replace("abs2(x)", sq).replace("KEEP", str(keep))
        for k, v in names.items():
            src = src.replace(k, str(v))
        src = src.replace("REAL", "np.float32" if real_of(x.ty.elem) == "f32" else "np.float64")
        r = self.inline(src, {"x": x}, "r")
        return self.weak(r, False) if r.is_scalar else r

    def vector_norm(self, x, order, axis, keep):
        if isinstance(order, str):
            self.error(f"np.linalg.norm: ord '{order}' is a matrix norm; a vector (one axis) "
                       "takes a number")
        if order is None or order == 2:
            line = "r = np.sqrt(np.sum(abs2(x), axis=AX, keepdims=KEEP))"
        elif order == math.inf:
            line = "r = np.max(np.abs(x), axis=AX, keepdims=KEEP)"
        elif order == -math.inf:
            line = "r = np.min(np.abs(x), axis=AX, keepdims=KEEP)"
        elif order == 0:
            line = "r = np.sum((x != 0).astype(REAL), axis=AX, keepdims=KEEP)"
        elif order == 1:
            line = "r = np.sum(np.abs(x), axis=AX, keepdims=KEEP)"
        else:
            p = float(order)
            line = f"r = np.sum(np.abs(x) ** {p!r}, axis=AX, keepdims=KEEP) ** {1.0 / p!r}"
        return self.norm_template(line, x, keep, AX=axis)

    def matrix_norm(self, x, order, axes, keep):
        row, col = axes
        if order in (None, "fro"):
            line = "r = np.sqrt(np.sum(abs2(x), axis=(ROW, COL), keepdims=KEEP))"
        elif order in (1, -1, math.inf, -math.inf):
            # the largest (smallest) sum of |x| along one axis, over the other
            along, over = (row, col) if order in (1, -1) else (col, row)
            pick = "np.max" if order > 0 else "np.min"
            if keep:
                line = (f"r = {pick}(np.sum(np.abs(x), axis={along}, keepdims=True), "
                        f"axis={over}, keepdims=True)")
            else:
                # `over` once `along` is gone
                after = over - 1 if over > along else over
                line = f"r = {pick}(np.sum(np.abs(x), axis={along}), axis={after})"
        elif order in (2, -2, "nuc") and not is_complex(x.ty.elem):
            # over the singular values of the matrix (of its transpose for
            # axes (1, 0): the same values)
            pick = {2: "np.max(s)", -2: "np.min(s)", "nuc": "np.sum(s)"}[order]
            if x.ty.rank > 2:
                # a stack of matrices: the two axes last, the others kept in order
                others = [a for a in range(x.ty.rank) if a not in axes]
                s = self.svd_values(self.transpose(x, others + [row, col]))
                r = self.inline("r = " + pick.replace("(s)", "(s, axis=-1)"), {"s": s}, "r")
                return self.expand_dims(r, sorted(axes)) if keep else r
            line = f"s = np.linalg.svd(x, compute_uv=False)\nr = {pick}"
            if keep:
                line = line.replace("r = ", "t = ") + "\nr = np.full((1, 1), t)"
            r = self.inline(line, {"x": x}, "r")
            return self.weak(r, False) if r.is_scalar else r
        else:
            self.error(f"np.linalg.norm: matrix norm ord={order!r} of complex matrices needs "
                       "complex singular values (not supported); use 'fro', 1, -1, inf or -inf")
        return self.norm_template(line, x, keep, ROW=row, COL=col)
