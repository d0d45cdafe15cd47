"""Element-wise functions: unary math on scalars and arrays, binary ufuncs
(and their outer/reduce/accumulate methods), float functions computed in a
vrir.map body (arctan2, hypot, sign, and the math dialect ones), np.clip,
the logical functions, complex numbers (real, imag, conj, phase, complex())
and np.where."""
from ..types import ArrT, C128, bits, is_complex, is_float, is_unsigned, kind, mlir_type, real_of
from .numpy_table import (BINARY_UFUNCS, COMPLEX_FNS, MAP_FLOAT_FNS, MATH_MAP_FNS,
                          UFUNC_ACCUMULATE, UFUNC_REDUCE, UNARY_FLOAT_FNS)
from .scopes import Region
from .values import V


class ElementwiseFunctions:
    """NumPy's, math's and cmath's element-wise functions."""

    def complex_part(self, part, v):
        """`v.real`, `v.imag`, `np.real(v)`, `np.imag(v)`. Of a complex array
        NumPy gives a view of one part of each element: writes through it
        reach `v`, and it sees later writes to `v`."""
        if not (v.is_array and is_complex(v.ty.elem)):
            return self.unary(part, v)
        t = ArrT(real_of(v.ty.elem), v.ty.rank, "strided")
        return self.op(f"vrir.part_view {part} {v.ssa} : {v.ty.mlir()} -> {t.mlir()}", t)

    # element-wise functions
    def unary(self, fn, v):
        if not (v.is_array or v.is_scalar):
            self.error(f"{fn}() of a {self.tyname(v)}")
        elem = v.ty.elem if v.is_array else v.ty
        if is_complex(elem):
            if fn not in COMPLEX_FNS | {"abs", "real", "imag", "conj"}:
                self.error(f"{fn}() is not defined on complex numbers")
        elif fn in ("real", "imag", "conj"):
            if fn == "imag":
                if v.is_array:
                    t = ArrT(elem, v.ty.rank)
                    sizes = [self.dim(v, k) for k in range(v.ty.rank)]
                    r = self.op(f"vrir.zeros({', '.join(sizes)}) : {t.mlir()}", t)
                    # NumPy's .imag of a real array is a read-only array
                    self.readonly_values[r.ssa] = "the .imag of a real array is read-only in NumPy"
                    return r
                return self.const(0, elem)
            if fn == "real":
                return v  # a real array's .real is the array itself (a view)
            return self.copy(v) if v.is_array else v
        elif fn in ("floor", "ceil", "trunc") and kind(elem) <= 1:
            # NumPy 2 keeps integers and booleans as they are
            return self.copy(v) if v.is_array else v
        elif fn in UNARY_FLOAT_FNS and not elem.startswith("f"):
            elem = self.int_float_type(elem, f"np.{fn}")
            v = self.cast(v, elem)
        if fn == "abs" and (elem == "i1" or is_unsigned(elem)):
            return self.copy(v) if v.is_array else v  # a new array, as NumPy's
        out = real_of(elem) if fn in ("abs", "real", "imag") else elem
        if v.is_array:
            t = ArrT(out, v.ty.rank)
            return self.op(f"vrir.unary {fn} {v.ssa} : {v.ty.mlir()} -> {t.mlir()}", t)
        return self.op(f"vrir.unary {fn} {v.ssa} : {elem} -> {out}", out)

    def unary_fn(self, mod, name, e):
        (a,) = self.call_args(e, 1, 1)
        fn = {"absolute": "abs", "fabs": "abs", "conjugate": "conj"}.get(name, name)
        if mod == "cmath":
            self.need_scalar(a)
            return self.weak(self.unary(fn, self.cast(a, C128)))
        if mod == "math":
            self.need_scalar(a)
            if is_complex(a.ty):
                self.error(f"math.{name}() of a complex number (use cmath.{name})")
            if name not in ("floor", "ceil", "trunc"):
                a = self.cast(a, "f64")  # a Python float, whatever the input
            r = self.weak(self.unary(fn, a))  # a Python float
            if name in ("floor", "ceil"):
                return self.cast(r, "i64")
            return r
        if fn in UNARY_FLOAT_FNS - {"floor", "ceil"} and (a.is_array or a.is_scalar) and \
                (a.ty.elem if a.is_array else a.ty) == "i1":
            self.error(f"np.{name}() of booleans: NumPy computes it in float16, which VRIR "
                       f"does not have; convert first (x.astype(np.float64), float(x))")
        return self.unary(fn, a)

    def binary_fn(self, fn, e):
        a, b = self.call_args(e, 2, 2)
        return self.binary_values(fn, a, b)

    def binary_values(self, fn, a, b):
        """np.minimum / np.maximum / np.power of two values."""
        self.check_operands(a, b, fn)
        elem = self.common_elem(a, b)
        if is_complex(elem):
            if fn == "pow":
                return self.binop("pow", a, b)
            self.error(f"np.{fn}imum of complex numbers is not supported")
        if fn == "pow" and elem == "i1":
            elem = "i8"  # NumPy's smallest integer
        a, b = self.cast(a, elem), self.cast(b, elem)
        if elem == "i1" and fn in ("min", "max"):
            # on booleans maximum is `or` and minimum is `and`
            return self.binop("or" if fn == "max" else "and", a, b)
        if not (a.is_array or b.is_array):
            if fn == "pow":
                return self.binop("pow", a, b)
            c = self.cmp_scalar("lt" if fn == "min" else "gt", b, a)
            if elem.startswith("f"):
                # propagate NaN like np.minimum / np.maximum
                return self.op(f"arith.{'minimumf' if fn == 'min' else 'maximumf'} {a.ssa}, {b.ssa} : {elem}", elem)
            return self.op(f"arith.select {c.ssa}, {b.ssa}, {a.ssa} : {elem}", elem)
        if is_unsigned(elem) and fn == "pow":
            return self.binop("pow", a, b)
        if is_unsigned(elem) and fn in ("min", "max"):
            return self.emap([a, b], elem, lambda v: self.binary_values(fn, v[0], v[1]))
        return self.vbinary(fn, a, b, elem)

    # --- element-wise functions built from scalar code (vrir.map)
    def emap(self, inputs, out, body):
        """An element-wise function: `body` emits the scalar code computing
        one result element (of type `out`) from one element of each input
        (scalar Vs). On scalars that is the result; with arrays among the
        inputs it is the body of a vrir.map (NumPy broadcasting, a new
        row-major array), which vrir-fuse-elementwise fuses with its
        neighbours. The body must not branch or raise."""
        if not any(x.is_array for x in inputs):
            return self.cast(body(inputs), out)
        rank = max(x.ty.rank for x in inputs if x.is_array)
        t = ArrT(out, rank)
        outer = (self.region, self.terminated)
        self.region = Region()
        args = [self.fresh() for _ in inputs]
        elems = [V(x.ty.elem if x.is_array else x.ty, a) for x, a in zip(inputs, args)]
        r = self.cast(body(elems), out)
        self.emit(f"vrir.yield {r.ssa} : {out}")
        region = self.region
        self.region, self.terminated = outer
        if region.allocas:
            raise AssertionError("a vrir.map body cannot allocate variables")
        res = self.fresh()
        ins = ", ".join(x.ssa for x in inputs)
        tys = ", ".join(mlir_type(x.ty) for x in inputs)
        bargs = ", ".join(f"{a}: {v.ty}" for a, v in zip(args, elems))
        self.raw(f"{res} = vrir.map {ins} : ({tys}) -> {t.mlir()} {{\n"
                 f"^bb0({bargs}):\n{self.region_text(region)}\n}} {self.loc()}")
        return V(t, res)

    def int_float_type(self, elem, what):
        """The float type NumPy computes a float function of integers in:
        float32 for 16-bit ones, float16 (which VRIR lacks) for 8-bit ones,
        float64 otherwise."""
        if kind(elem) == 1 and bits(elem) == 8:
            self.error(f"{what}() of 8-bit integers: NumPy computes it in float16, which "
                       "VRIR does not have; convert first (x.astype(np.float32))")
        return "f32" if kind(elem) == 1 and bits(elem) == 16 else "f64"

    def float_operands(self, name, *vals):
        """The operands of a float function (np.arctan2, np.hypot) in their
        common float type: integers and booleans compute in f64, as NumPy's."""
        for v in vals:
            if not (v.is_array or v.is_scalar):
                self.error(f"{name}() of a {self.tyname(v)}")
        a, b = vals
        elem = self.common_elem(a, b)
        if is_complex(elem):
            self.error(f"{name}() is not defined on complex numbers")
        if kind(elem) < 2:
            elem = self.int_float_type(elem, name)
        return elem, [self.cast(v, elem) for v in vals]

    def map_float_fn(self, mod, name, e):
        """np.arctan, np.log10, ... (MAP_FLOAT_FNS) and their math.*
        forms: a math op on each element (vrir.map) or on a scalar."""
        (a,) = self.call_args(e, 1, 1)
        what = f"{'numpy' if mod == 'np' else mod}.{name}"
        if not (a.is_array or a.is_scalar):
            self.error(f"{what}() of a {self.tyname(a)}")
        if mod == "math" and not a.is_scalar:
            self.error(f"{what}() of an array (use np.{name})")
        elem = a.ty.elem if a.is_array else a.ty
        if is_complex(elem):
            self.error(f"{what}() of complex numbers is not supported")
        op = (MAP_FLOAT_FNS if mod == "np" else MATH_MAP_FNS)[name]
        if op == "trunc" and kind(elem) <= 1:  # np.rint of integers is float64
            return self.copy(a) if a.is_array else a  # integers stay integers
        t = elem if is_float(elem) and mod == "np" else \
            self.int_float_type(elem, what) if mod == "np" else "f64"
        a = self.cast(a, t)
        return self.emap([a], t, lambda v: self.op(f"math.{op} {v[0].ssa} : {t}", t))

    def call_np_arctan2(self, e):
        y, x = self.call_args(e, 2, 2)
        elem, (y, x) = self.float_operands("np.arctan2", y, x)
        return self.emap([y, x], elem, lambda v: self.op(
            f"math.atan2 {v[0].ssa}, {v[1].ssa} : {elem}", elem))

    def call_math_atan2(self, e):
        y, x = self.call_args(e, 2, 2)
        for v in (y, x):
            self.need_scalar(v)
            if is_complex(v.ty):
                self.error("math.atan2() of a complex number")
        y, x = self.cast(y, "f64"), self.cast(x, "f64")
        return self.op(f"math.atan2 {y.ssa}, {x.ssa} : f64", "f64")

    def hypot_body(self, x, y, t):
        """hypot(x, y) without overflow or underflow: m * sqrt(1 + (n/m)**2)
        with m = max(|x|, |y|), n = min(|x|, |y|); inf if either is
        infinite (even with a NaN), NaN if either is NaN, 0 for (0, 0)."""
        ax = self.op(f"math.absf {x.ssa} : {t}", t)
        ay = self.op(f"math.absf {y.ssa} : {t}", t)
        m = self.op(f"arith.maximumf {ax.ssa}, {ay.ssa} : {t}", t)
        n = self.op(f"arith.minimumf {ax.ssa}, {ay.ssa} : {t}", t)
        z = self.const(0.0, t)
        one = self.const(1.0, t)
        inf = self.const(float("inf"), t)
        q = self.op(f"arith.divf {n.ssa}, {m.ssa} : {t}", t)
        q2 = self.op(f"arith.mulf {q.ssa}, {q.ssa} : {t}", t)
        s1 = self.op(f"arith.addf {one.ssa}, {q2.ssa} : {t}", t)
        sq = self.op(f"math.sqrt {s1.ssa} : {t}", t)
        r = self.op(f"arith.mulf {m.ssa}, {sq.ssa} : {t}", t)
        mz = self.op(f"arith.cmpf oeq, {m.ssa}, {z.ssa} : {t}", "i1")
        r = self.op(f"arith.select {mz.ssa}, {z.ssa}, {r.ssa} : {t}", t)
        xi = self.op(f"arith.cmpf oeq, {ax.ssa}, {inf.ssa} : {t}", "i1")
        yi = self.op(f"arith.cmpf oeq, {ay.ssa}, {inf.ssa} : {t}", "i1")
        anyi = self.op(f"arith.ori {xi.ssa}, {yi.ssa} : i1", "i1")
        return self.op(f"arith.select {anyi.ssa}, {inf.ssa}, {r.ssa} : {t}", t)

    def call_np_hypot(self, e):
        x, y = self.call_args(e, 2, 2)
        elem, (x, y) = self.float_operands("np.hypot", x, y)
        return self.emap([x, y], elem, lambda v: self.hypot_body(v[0], v[1], elem))

    def call_math_hypot(self, e):
        args = self.call_args(e, 2, 2)
        for v in args:
            self.need_scalar(v)
            if is_complex(v.ty):
                self.error("math.hypot() of a complex number")
        x, y = (self.cast(v, "f64") for v in args)
        return self.hypot_body(x, y, "f64")

    def sign_body(self, x, t):
        one, mone, z = self.const(1, t), self.const(-1, t), self.const(0, t)
        pos = self.cmp_scalar("gt", x, z)
        neg = self.cmp_scalar("lt", x, z)
        r = self.op(f"arith.select {neg.ssa}, {mone.ssa}, {z.ssa} : {t}", t)
        if is_float(t):  # NaN stays NaN
            nan = self.op(f"arith.cmpf uno, {x.ssa}, {x.ssa} : {t}", "i1")
            r = self.op(f"arith.select {nan.ssa}, {x.ssa}, {r.ssa} : {t}", t)
        return self.op(f"arith.select {pos.ssa}, {one.ssa}, {r.ssa} : {t}", t)

    def call_np_sign(self, e):
        (a,) = self.call_args(e, 1, 1)
        if not (a.is_array or a.is_scalar):
            self.error(f"np.sign() of a {self.tyname(a)}")
        elem = a.ty.elem if a.is_array else a.ty
        if elem == "i1":
            self.error("np.sign() is not defined on booleans (NumPy raises TypeError)")
        if is_complex(elem):
            self.error("np.sign() of complex numbers is not supported")
        r = self.emap([a], elem, lambda v: self.sign_body(v[0], elem))
        r.weak = a.weak and not a.is_array
        return r

    # --- np.clip, logical functions
    def call_np_clip(self, e):
        args = self.call_args(e, 1, 3, kw=("a_min", "a_max", "min", "max"))
        return self.clip(args[0], args[1:], e)

    def clip(self, a, bounds, e):
        kw = self.kwargs(e)
        bounds = list(bounds) + [None] * (2 - len(bounds))
        for k, names in enumerate((("a_min", "min"), ("a_max", "max"))):
            for n in names:
                if n in kw:
                    if bounds[k] is not None:
                        self.error(f"clip() got multiple values for '{n}'")
                    bounds[k] = kw[n]
        if not (a.is_array or a.is_scalar):
            self.error(f"clip() of a {self.tyname(a)}")
        lo, hi = (None if b is None or b.kind == "none" else b for b in bounds)
        for b in (lo, hi):
            if b is not None and not (b.is_array or b.is_scalar):
                self.error(f"clip() bounds must be numbers or arrays, got {self.tyname(b)}")
        for v in (a, lo, hi):
            if v is not None and is_complex(v.ty.elem if v.is_array else v.ty):
                self.error("clip() of complex numbers is not supported (they are not ordered)")
        r = a
        if lo is not None:
            r = self.binary_values("max", r, lo)
        if hi is not None:
            r = self.binary_values("min", r, hi)
        if r is a:
            r = self.copy(a) if a.is_array else a
        return r

    def to_bool(self, v, what):
        if not (v.is_array or v.is_scalar):
            self.error(f"{what}() of a {self.tyname(v)}")
        if v.is_array:
            if v.ty.elem == "i1":
                return v
            return self.compare("ne", v, self.pyconst(0))
        return self.truth(v)

    def logical(self, op, e):
        a, b = self.call_args(e, 2, 2)
        a, b = self.to_bool(a, f"np.logical_{op}"), self.to_bool(b, f"np.logical_{op}")
        if a.is_array or b.is_array:
            return self.vbinary(op, a, b, "i1")
        return self.op(f"arith.{op}i {a.ssa}, {b.ssa} : i1", "i1")

    def call_np_logical_and(self, e):
        return self.logical("and", e)

    def call_np_logical_or(self, e):
        return self.logical("or", e)

    def call_np_logical_xor(self, e):
        return self.logical("xor", e)

    def call_np_logical_not(self, e):
        (a,) = self.call_args(e, 1, 1)
        a = self.to_bool(a, "np.logical_not")
        if a.is_array:
            return self.op(f"vrir.unary not {a.ssa} : {a.ty.mlir()} -> {a.ty.mlir()}", a.ty)
        one = self.const(True, "i1")
        return self.op(f"arith.xori {a.ssa}, {one.ssa} : i1", "i1")

    def ufunc_values(self, name, a, b):
        how, op = BINARY_UFUNCS[name]
        if how == "op":
            return self.binop(op, a, b)
        if how == "cmp":
            return self.compare(op, a, b)
        return self.binary_values(op, a, b)

    def binary_ufunc(self, name, e):
        """np.add(a, b), np.less(a, b), ... as the operators, and with `out=`
        the result stored into that array (NumPy's same-kind casting), which
        is returned."""
        a, b = self.call_args(e, 2, 2, kw=("out",))
        r = self.ufunc_values(name, a, b)
        out = self.kwargs(e).get("out")
        if out is None or out.kind == "none":
            return r
        if not out.is_array:
            self.error(f"np.{name}: out= must be an array")
        if kind(r.ty.elem if r.is_array else r.ty) > kind(out.ty.elem):
            self.error(f"np.{name}: cannot store {r.ty.elem if r.is_array else r.ty} results "
                       f"in a {out.ty.elem} out= array (same-kind casting)")
        self.store_plan(out, [], r)
        return out

    def ufunc_method(self, name_at, e):
        """np.<ufunc>.outer(a, b) (the shape of a then of b), .reduce(a,
        axis=0) and .accumulate(a) (1-D) where NumPy's reductions and
        cumulative functions are those."""
        name, at = name_at
        if at == "outer":
            a, b = self.call_args(e, 2, 2)
            for v in (a, b):
                if not v.is_array:
                    self.error(f"np.{name}.outer takes two arrays")
            ra, rb = a.ty.rank, b.ty.rank
            return self.ufunc_values(name, self.expand_dims(a, list(range(ra, ra + rb))),
                                     self.expand_dims(b, list(range(ra))))
        table = UFUNC_REDUCE if at == "reduce" else UFUNC_ACCUMULATE
        if name not in table:
            self.error(f"np.{name}.{at} is not supported (only "
                       f"{', '.join('np.' + k for k in table)}.{at})")
        args = self.call_args(e, 1, 2, kw=("axis",))
        axis = args[1] if len(args) > 1 else self.kwargs(e).get("axis", self.const(0, "i64"))
        if at == "reduce":
            return self.reduce_axes(table[name], args[0], axis, None)
        if not args[0].is_array:
            self.error(f"np.{name}.accumulate takes an array")
        return self.accumulate(table[name], args[0], axis)

    def call_np_power(self, e):
        return self.binary_fn("pow", e)

    def call_math_pow(self, e):
        a, b = self.call_args(e, 2, 2)
        for x in (a, b):
            self.need_scalar(x)
            if is_complex(x.ty):
                self.error("math.pow() of a complex number (use **)")
        return self.binop("pow", self.cast(a, "f64"), self.cast(b, "f64"))

    def call_math_isnan(self, e):
        (a,) = self.call_args(e, 1, 1)
        self.need_scalar(a)
        if is_complex(a.ty):
            self.error("math.isnan() of a complex number (use cmath.isnan)")
        a = self.cast(a, "f64")
        return self.op(f"arith.cmpf uno, {a.ssa}, {a.ssa} : f64", "i1")

    # complex numbers
    def call_builtin_complex(self, e):
        args = self.call_args(e, 0, 2)
        for x in args:
            self.need_scalar(x)
        if not args:
            return self.const(0j, C128)
        if len(args) == 1:
            return self.cast(args[0], C128)
        re, im = args
        if is_complex(re.ty) or is_complex(im.ty):
            # complex(a, b) is a + b*1j for complex parts too
            j = self.const(1j, C128)
            return self.binop("add", self.cast(re, C128), self.binop("mul", self.cast(im, C128), j))
        re, im = self.cast(re, "f64"), self.cast(im, "f64")
        return self.op(f"complex.create {re.ssa}, {im.ssa} : {C128}", C128)

    def call_np_real(self, e):
        (a,) = self.call_args(e, 1, 1)
        return self.complex_part("real", a)

    def call_np_imag(self, e):
        (a,) = self.call_args(e, 1, 1)
        return self.complex_part("imag", a)

    def call_np_conj(self, e):
        (a,) = self.call_args(e, 1, 1)
        return self.unary("conj", a)

    call_np_conjugate = call_np_conj

    def call_cmath_phase(self, e):
        (a,) = self.call_args(e, 1, 1)
        self.need_scalar(a)
        a = self.cast(a, C128)
        re = self.unary("real", a)
        im = self.unary("imag", a)
        return self.op(f"math.atan2 {im.ssa}, {re.ssa} : f64", "f64")

    def call_cmath_isnan(self, e):
        (a,) = self.call_args(e, 1, 1)
        self.need_scalar(a)
        a = self.cast(a, C128)
        re, im = self.unary("real", a), self.unary("imag", a)
        x = self.op(f"arith.cmpf uno, {re.ssa}, {re.ssa} : f64", "i1")
        y = self.op(f"arith.cmpf uno, {im.ssa}, {im.ssa} : f64", "i1")
        return self.op(f"arith.ori {x.ssa}, {y.ssa} : i1", "i1")

    def call_np_where(self, e):
        args = self.call_args(e, 1, 3)
        if len(args) == 1:  # np.where(condition) is np.nonzero(condition)
            return self.nonzero(args[0])
        if len(args) == 2:
            self.error("np.where takes the condition alone, or with both x and y")
        c, a, b = args
        self.check_operands(a, b, "np.where")
        c = self.cast(c, "i1")
        elem = self.common_elem(a, b)
        a, b = self.cast(a, elem), self.cast(b, elem)
        vals = [x for x in (c, a, b) if x.is_array]
        if not vals:
            return self.op(f"arith.select {c.ssa}, {a.ssa}, {b.ssa} : {elem}", elem)
        t = ArrT(elem, max(x.ty.rank for x in vals))
        return self.op(f"vrir.select {c.ssa}, {a.ssa}, {b.ssa} : {mlir_type(c.ty)}, {mlir_type(a.ty)}, "
                       f"{mlir_type(b.ty)} -> {t.mlir()}", t)
