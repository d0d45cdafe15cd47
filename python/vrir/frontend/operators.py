"""Python's arithmetic, bitwise and comparison operators on scalars and
arrays (NumPy broadcasting), with Python's and NumPy's semantics of //, %,
** and shifts, complex arithmetic, and @ (matrix products, batched over
leading dimensions)."""
import ast

from ..types import (ArrT, bits, int_range, is_complex, is_float, is_unsigned, kind, mlir_type,
                     promote_strong)


ARITH_OPS = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul",
             ast.Div: "truediv", ast.FloorDiv: "floordiv", ast.Mod: "mod",
             ast.Pow: "pow", ast.BitAnd: "and", ast.BitOr: "or",
             ast.BitXor: "xor", ast.LShift: "shl", ast.RShift: "shr",
             ast.MatMult: "matmul"}
CMP_OPS = {ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge",
           ast.Eq: "eq", ast.NotEq: "ne"}
CMPI = {"lt": "slt", "le": "sle", "gt": "sgt", "ge": "sge", "eq": "eq",
        "ne": "ne"}
CMPU = {"lt": "ult", "le": "ule", "gt": "ugt", "ge": "uge", "eq": "eq", "ne": "ne"}
FLIP = {"lt": "gt", "le": "ge", "gt": "lt", "ge": "le", "eq": "eq", "ne": "ne"}
CMPF = {"lt": "olt", "le": "ole", "gt": "ogt", "ge": "oge", "eq": "oeq",
        "ne": "une"}


class Operators:
    """Binary operators and comparisons."""

    def vbinary(self, fn, a, b, elem):
        if a.is_array or b.is_array:
            t = self.result_arr(a, b, elem)
        else:
            t = elem
        return self.op(f"vrir.binary {fn} {a.ssa}, {b.ssa} : {mlir_type(a.ty)}, {mlir_type(b.ty)} -> {mlir_type(t)}", t)

    def compare(self, p, a, b):
        self.check_operands(a, b, "comparison")
        elem = self.common_elem(a, b)
        if is_complex(elem) and p not in ("eq", "ne"):
            self.error("complex numbers are not ordered (only == and != compare them)")
        if self.weak_int_exceeds(a, b, elem):
            elem = "i64"  # compared by value, as NumPy 2 does
        if elem == "ui64" and (a.weak or b.weak) and (a.ty == "i64" or b.ty == "i64"):
            # a Python int with uint64, by value: a negative one is below all
            strong, w, q = (a, b, p) if b.weak else (b, a, FLIP[p])
            if w.const is None:
                self.error("comparison of uint64 values with a Python int known only when "
                           "running (convert it: np.uint64(n) or np.int64(n))")
            if w.const < 0:
                always = q in ("gt", "ge", "ne")
                return self.compare("ge" if always else "lt", strong, self.const(0, "ui64"))
        a, b = self.cast(a, elem), self.cast(b, elem)
        if is_unsigned(elem) and (a.is_array or b.is_array):
            return self.emap([a, b], "i1", lambda v: self.cmp_scalar(p, v[0], v[1]))
        if a.is_array or b.is_array:
            t = self.result_arr(a, b, "i1")
            return self.op(f"vrir.cmp {p} {a.ssa}, {b.ssa} : {mlir_type(a.ty)}, {mlir_type(b.ty)} -> {t.mlir()}", t)
        # Python numbers compare to a Python bool, NumPy scalars to np.bool_
        return self.weak(self.cmp_scalar(p, a, b), a.weak and b.weak)

    def cmp_scalar(self, p, a, b):
        if is_complex(a.ty):
            return self.op(f"vrir.cmp {p} {a.ssa}, {b.ssa} : {a.ty}, {b.ty} -> i1", "i1")
        if a.ty.startswith("f"):
            return self.op(f"arith.cmpf {CMPF[p]}, {a.ssa}, {b.ssa} : {a.ty}", "i1")
        if a.ty == "i1" and p not in ("eq", "ne"):
            a, b = self.cast(a, "i64"), self.cast(b, "i64")
        pred = (CMPU if is_unsigned(a.ty) else CMPI)[p]
        return self.op(f"arith.cmpi {pred}, {a.ssa}, {b.ssa} : {a.ty}", "i1")

    def binop(self, op, a, b):
        if op == "matmul":
            return self.matmul(a, b)
        self.check_operands(a, b, f"operator {op}")
        arr = a.is_array or b.is_array
        elem = self.common_elem(a, b)
        weak = a.weak and b.weak
        if op in ("and", "or", "xor", "shl", "shr"):
            if kind(elem) >= 2:
                self.error(f"bitwise operator on {'floats' if is_float(elem) else 'complex numbers'}")
            if op in ("shl", "shr"):
                if arr:
                    self.error("shifts on arrays are not supported")
                if elem == "i1":  # NumPy's booleans shift as int8, Python's as ints
                    elem = "i64" if weak else "i8"
            a, b = self.cast(a, elem), self.cast(b, elem)
            if arr:
                return self.vbinary(op, a, b, elem)
            big = None
            if op in ("shl", "shr"):
                if b.const is None or b.const < 0:
                    z = self.const(0, elem)
                    self.error_if(self.cmp_scalar("lt", b, z), "ValueError", "negative shift count")
                if is_unsigned(elem) or op == "shl":
                    if b.const is None or b.const >= bits(elem):
                        # NumPy: 0 past the width (arith's shifts are poison there)
                        top = self.const(bits(elem), elem)
                        big = self.op(f"arith.cmpi uge, {b.ssa}, {top.ssa} : {elem}", "i1")
                elif b.const is None or b.const >= bits(elem):
                    top = self.const(bits(elem) - 1, elem)
                    b = self.op(f"arith.minsi {b.ssa}, {top.ssa} : {elem}", elem)
            name = {"and": "andi", "or": "ori", "xor": "xori", "shl": "shli",
                    "shr": "shrui" if is_unsigned(elem) else "shrsi"}[op]
            if big is not None:
                r = self.op(f"arith.{name} {a.ssa}, {b.ssa} : {elem}", elem)
                z = self.const(0, elem)
                r = self.op(f"arith.select {big.ssa}, {z.ssa}, {r.ssa} : {elem}", elem)
                r.weak = weak
                return r
            r = self.op(f"arith.{name} {a.ssa}, {b.ssa} : {elem}", elem)
            r.weak = weak
            return r
        if elem == "i1" and (arr or not weak):
            # NumPy (arrays, np.bool_): on booleans + is `or`, * is `and`;
            # - is a TypeError. Python bools are ints.
            if op in ("add", "mul"):
                a, b = self.cast(a, elem), self.cast(b, elem)
                return self.vbinary("or" if op == "add" else "and", a, b, elem)
            if op == "sub":
                self.error("'-' of boolean arrays or NumPy booleans (NumPy raises "
                           "TypeError; use ^ or np.logical_xor)")
        if elem == "i1":
            # arithmetic on Python bools is integer arithmetic; NumPy's
            # booleans (**, //, %) compute in int8, its smallest integer
            elem = "i64" if weak and not arr else "i8"
        if is_complex(elem):
            return self.complex_binop(op, a, b, elem, arr, weak)
        if op == "truediv":
            if not elem.startswith("f"):
                elem = "f64"
            a, b = self.cast(a, elem), self.cast(b, elem)
            if arr:
                return self.vbinary("div", a, b, elem)
            r = self.op(f"arith.divf {a.ssa}, {b.ssa} : {elem}", elem)
            r.weak = weak
            return r
        if op == "pow" and is_unsigned(elem):
            # no negative exponents: square-and-multiply, wrapping as NumPy's
            a, b = self.cast(a, elem), self.cast(b, elem)
            if arr:
                return self.emap([a, b], elem, lambda v: self.unsigned_pow(v[0], v[1], elem))
            r = self.unsigned_pow(a, b, elem)
            r.weak = weak
            return r
        if op == "pow" and not elem.startswith("f"):
            if arr and b.is_scalar and not (b.const is not None and b.const >= 0):
                # NumPy's loop raises at the first element: not for an
                # empty array
                z = self.const(0, b.ty)
                negative = self.cmp_scalar("lt", self.cast(b, elem), self.cast(z, elem))
                nonempty = self.is_nonempty(a)
                self.error_if(self.op(f"arith.andi {negative.ssa}, {nonempty.ssa} : i1", "i1"),
                              "ValueError", "Integers to negative integer powers are not allowed.")
            elif b.is_array and b.ty.elem != "i1":
                # Each negative element raises (NumPy's loop): the error
                # comes before any element is written, where a non-empty
                # result uses every exponent
                negatives = self.reduce("sum", self.compare("lt", b, self.const(0, b.ty.elem)),
                                        None)
                some = self.cmp_scalar("gt", negatives, self.const(0, "i64"))
                if a.is_array:
                    nonempty = self.is_nonempty(a)
                    some = self.op(f"arith.andi {some.ssa}, {nonempty.ssa} : i1", "i1")
                self.error_if(some, "ValueError",
                              "Integers to negative integer powers are not allowed.")
            elif not arr and b.const is not None and b.const < 0:
                elem = "f64"  # Python: int ** negative constant is a float
            elif not arr and b.const is None:
                # int ** int is an int, exact beyond 2**53 (types are static:
                # Python's float for a negative exponent would make it one
                # always); a negative exponent raises, NumPy's rule for its
                # integer scalars
                z = self.const(0, b.ty)
                self.error_if(self.cmp_scalar("lt", self.cast(b, elem), self.cast(z, elem)),
                              "ValueError", "Integers to negative integer powers are not "
                              "allowed (VRIR: int ** int is an int; write float(x) ** n)")
        a, b = self.cast(a, elem), self.cast(b, elem)
        isf = elem.startswith("f")
        if arr:
            if op in ("add", "sub", "mul", "pow"):
                return self.vbinary(op, a, b, elem)
            if op == "floordiv":
                if isf:
                    # NumPy's npy_floor_divide on each element (floor(a / b)
                    # is off by one: 1.0 // 0.1 is 9.0)
                    return self.emap([a, b], elem,
                                     lambda v: self.float_floordiv(v[0], v[1], elem))
                if is_unsigned(elem):
                    return self.emap([a, b], elem,
                                     lambda v: self.unsigned_divrem("divui", v[0], v[1], elem))
                q = self.vbinary("div", a, b, elem)
                r = self.vbinary("rem", a, b, elem)
                adj = self.needs_adjust(r, b, elem)
                adj = self.cast(adj, elem)
                return self.vbinary("sub", q, adj, elem)
            if op == "mod" and isf:
                return self.emap([a, b], elem, lambda v: self.float_mod(v[0], v[1], elem))
            if op == "mod" and is_unsigned(elem):
                return self.emap([a, b], elem,
                                 lambda v: self.unsigned_divrem("remui", v[0], v[1], elem))
            if op == "mod":
                r = self.vbinary("rem", a, b, elem)
                adj = self.needs_adjust(r, b, elem)
                rb = self.vbinary("add", r, b, elem)
                t = rb.ty
                return self.op(f"vrir.select {adj.ssa}, {rb.ssa}, {r.ssa} : {adj.ty.mlir()}, {t.mlir()}, {r.ty.mlir()} -> {t.mlir()}", t)
        # scalars
        if op in ("add", "sub", "mul"):
            r = self.op(f"arith.{op}{'f' if isf else 'i'} {a.ssa}, {b.ssa} : {elem}", elem)
        elif op == "pow":
            if isf:
                r = self.op(f"math.powf {a.ssa}, {b.ssa} : {elem}", elem)
            else:
                r = self.op(f"math.ipowi {a.ssa}, {b.ssa} : {elem}", elem)
        elif op == "floordiv":
            if isf:
                r = self.float_floordiv(a, b, elem)
            else:
                r = self.int_floordiv_mod("floordiv", a, b, elem)
        elif op == "mod":
            if isf:
                r = self.float_mod(a, b, elem)
            else:
                r = self.int_floordiv_mod("mod", a, b, elem)
        else:
            self.error(f"unsupported operator {op}")
        r.weak = weak
        if not isf and a.const is not None and b.const is not None \
                and not isinstance(a.const, complex) and not isinstance(b.const, complex):
            # integer constants fold (A.shape[1 - axis] with a constant axis)
            x, y = int(a.const), int(b.const)
            val = {"add": lambda: x + y, "sub": lambda: x - y, "mul": lambda: x * y,
                   "floordiv": lambda: x // y if y else None,
                   "mod": lambda: x % y if y else None}.get(op, lambda: None)()
            if val is not None and elem == "i64":
                self.check_int64(val, "the constant")
            if val is not None and int_range(elem)[0] <= val <= int_range(elem)[1]:
                r.const = val
        return r

    def float_mod(self, a, b, t):
        """Python's and NumPy's float remainder: the sign of the divisor, a
        zero remainder included (-2.0 % 0.125 is 0.0, where fmod gives
        -0.0)."""
        rm = self.op(f"arith.remf {a.ssa}, {b.ssa} : {t}", t)
        adj = self.needs_adjust(rm, b, t)
        rb = self.op(f"arith.addf {rm.ssa}, {b.ssa} : {t}", t)
        r = self.op(f"arith.select {adj.ssa}, {rb.ssa}, {rm.ssa} : {t}", t)
        z = self.const(0.0, t)
        signed_zero = self.op(f"math.copysign {z.ssa}, {b.ssa} : {t}", t)
        is_zero = self.op(f"arith.cmpf oeq, {r.ssa}, {z.ssa} : {t}", "i1")
        return self.op(f"arith.select {is_zero.ssa}, {signed_zero.ssa}, {r.ssa} : {t}", t)

    def float_floordiv(self, a, b, t):
        """CPython's float floor division (float_divmod): exact near the
        integers and right for infinite divisors (-5.0 // inf == -1.0). A
        zero divisor gives NumPy's a / b (±inf, or nan for 0 // 0), VRIR's
        rule for float division by zero."""
        mod = self.op(f"arith.remf {a.ssa}, {b.ssa} : {t}", t)
        num = self.op(f"arith.subf {a.ssa}, {mod.ssa} : {t}", t)
        div = self.op(f"arith.divf {num.ssa}, {b.ssa} : {t}", t)
        z = self.const(0.0, t)
        one = self.const(1.0, t)
        half = self.const(0.5, t)
        nz = self.op(f"arith.cmpf une, {mod.ssa}, {z.ssa} : {t}", "i1")
        bneg = self.op(f"arith.cmpf olt, {b.ssa}, {z.ssa} : {t}", "i1")
        mneg = self.op(f"arith.cmpf olt, {mod.ssa}, {z.ssa} : {t}", "i1")
        diff = self.op(f"arith.xori {bneg.ssa}, {mneg.ssa} : i1", "i1")
        adj = self.op(f"arith.andi {nz.ssa}, {diff.ssa} : i1", "i1")
        dm1 = self.op(f"arith.subf {div.ssa}, {one.ssa} : {t}", t)
        div = self.op(f"arith.select {adj.ssa}, {dm1.ssa}, {div.ssa} : {t}", t)
        fl = self.op(f"math.floor {div.ssa} : {t}", t)
        fr = self.op(f"arith.subf {div.ssa}, {fl.ssa} : {t}", t)
        up = self.op(f"arith.cmpf ogt, {fr.ssa}, {half.ssa} : {t}", "i1")
        fl1 = self.op(f"arith.addf {fl.ssa}, {one.ssa} : {t}", t)
        fl = self.op(f"arith.select {up.ssa}, {fl1.ssa}, {fl.ssa} : {t}", t)
        q = self.op(f"arith.divf {a.ssa}, {b.ssa} : {t}", t)
        zs = self.op(f"math.copysign {z.ssa}, {q.ssa} : {t}", t)
        dnz = self.op(f"arith.cmpf une, {div.ssa}, {z.ssa} : {t}", "i1")
        r = self.op(f"arith.select {dnz.ssa}, {fl.ssa}, {zs.ssa} : {t}", t)
        bz = self.op(f"arith.cmpf oeq, {b.ssa}, {z.ssa} : {t}", "i1")
        return self.op(f"arith.select {bz.ssa}, {q.ssa}, {r.ssa} : {t}", t)

    def complex_binop(self, op, a, b, elem, arr, weak):
        if op in ("floordiv", "mod"):
            self.error(f"operator {'//' if op == 'floordiv' else '%'} is not defined on complex numbers")
        if op == "pow" and isinstance(b.const, (int, float)) and not isinstance(b.const, bool) \
                and float(b.const).is_integer() and abs(b.const) <= 64 and b.const != 0:
            # small integer powers by repeated squaring (exact like NumPy's)
            n = int(b.const)
            base = self.cast(a, elem)
            if n == 1:
                return self.copy(base) if arr and base.ssa == a.ssa else base
            r = None
            sq = base
            k = abs(n)
            while k:
                if k & 1:
                    r = sq if r is None else self.vbinary("mul", r, sq, elem)
                k >>= 1
                if k:
                    sq = self.vbinary("mul", sq, sq, elem)
            if n < 0:
                one = self.const(1, elem)
                r = self.vbinary("div", one, r, elem)
            r.weak = weak and not arr
            return r
        fn = {"add": "add", "sub": "sub", "mul": "mul", "truediv": "div", "pow": "pow"}[op]
        r = self.vbinary(fn, self.cast(a, elem), self.cast(b, elem), elem)
        r.weak = weak and not arr
        return r

    def is_nonempty(self, array):
        """An i1: whether `array` has any element."""
        n = self.from_index(self.op(f"vrir.numel {array.ssa} : {array.ty.mlir()}", "index").ssa)
        return self.cmp_scalar("ne", n, self.const(0, "i64"))

    def int_floordiv_mod(self, op, a, b, elem):
        """Scalar integer // and %. VRIR's rule for a zero divisor is
        Python's, ZeroDivisionError, also for NumPy integer scalars (where
        NumPy returns 0 with a RuntimeWarning; arrays give NumPy's 0). MIN //
        -1 wraps to MIN, as in NumPy, rather than reach arith.divsi, where it
        is undefined. 8- and 16-bit integers, signed and unsigned, are divided
        as i32 (exact; no target has narrower division instructions)."""
        if is_unsigned(elem) and bits(elem) >= 32:
            # plain unsigned division (no negative operands to floor)
            self.error_if_zero(b, "ZeroDivisionError", "integer division or modulo by zero")
            return self.unsigned_divrem("divui" if op == "floordiv" else "remui", a, b, elem)
        if bits(elem) < 32:
            wa, wb = self.cast(a, "i32"), self.cast(b, "i32")
            if b.const is not None:
                wb.const = b.const
            r = self.int_floordiv_mod(op, wa, wb, "i32")
            return self.op(f"arith.trunci {r.ssa} : i32 to {elem}", elem)
        self.error_if_zero(b, "ZeroDivisionError", "integer division or modulo by zero")
        # A GPU section cannot raise: there a zero divisor gives NumPy's
        # array result, 0, rather than reach arith.divsi (a trap on CPUs).
        is_zero = None
        if self.in_gpu_section() and b.const in (None, 0):
            is_zero = self.cmp_scalar("eq", b, self.const(0, elem))
        if b.const is not None and b.const not in (-1, 0):
            divisor, is_minus_one = b, None
        else:
            one, minus_one = self.const(1, elem), self.const(-1, elem)
            is_minus_one = self.cmp_scalar("eq", b, minus_one)
            unsafe = is_minus_one if is_zero is None else \
                self.op(f"arith.ori {is_minus_one.ssa}, {is_zero.ssa} : i1", "i1")
            divisor = self.op(f"arith.select {unsafe.ssa}, {one.ssa}, {b.ssa} : {elem}", elem)
        q = self.op(f"arith.divsi {a.ssa}, {divisor.ssa} : {elem}", elem)
        rm = self.op(f"arith.remsi {a.ssa}, {divisor.ssa} : {elem}", elem)
        adj = self.needs_adjust(rm, divisor, elem)
        if op == "floordiv":
            adj = self.cast(adj, elem)
            r = self.op(f"arith.subi {q.ssa}, {adj.ssa} : {elem}", elem)
        else:
            rb = self.op(f"arith.addi {rm.ssa}, {divisor.ssa} : {elem}", elem)
            r = self.op(f"arith.select {adj.ssa}, {rb.ssa}, {rm.ssa} : {elem}", elem)
        if is_minus_one is None:
            return r
        # x // -1 is -x (wrapping), x % -1 is 0
        zero = self.const(0, elem)
        special = self.op(f"arith.subi {zero.ssa}, {a.ssa} : {elem}", elem) \
            if op == "floordiv" else zero
        r = self.op(f"arith.select {is_minus_one.ssa}, {special.ssa}, {r.ssa} : {elem}", elem)
        if is_zero is None:
            return r
        return self.op(f"arith.select {is_zero.ssa}, {zero.ssa}, {r.ssa} : {elem}", elem)

    def unsigned_pow(self, a, b, elem):
        """a ** b of unsigned scalars by squaring, one step per bit of b
        (math.ipowi reads the exponent as signed)."""
        one, r, base = self.const(1, elem), None, a
        for k in range(bits(elem)):
            if b.const is not None and not (int(b.const) >> k):
                break
            sh = self.op(f"arith.shrui {b.ssa}, {self.const(k, elem).ssa} : {elem}", elem)
            bit = self.op(f"arith.andi {sh.ssa}, {one.ssa} : {elem}", elem)
            on = self.op(f"arith.cmpi ne, {bit.ssa}, {self.const(0, elem).ssa} : {elem}", "i1")
            prod = base if r is None else \
                self.op(f"arith.muli {r.ssa}, {base.ssa} : {elem}", elem)
            r = self.op(f"arith.select {on.ssa}, {prod.ssa}, {(r or one).ssa} : {elem}", elem)
            if k + 1 < bits(elem):
                base = self.op(f"arith.muli {base.ssa}, {base.ssa} : {elem}", elem)
        return r if r is not None else one

    def unsigned_divrem(self, fn, a, b, elem):
        """Unsigned a // b or a % b; a zero divisor gives NumPy's array
        result, 0 (scalars raise before: int_floordiv_mod)."""
        zero, one = self.const(0, elem), self.const(1, elem)
        if b.const not in (None, 0):
            return self.op(f"arith.{fn} {a.ssa}, {b.ssa} : {elem}", elem)
        is_zero = self.cmp_scalar("eq", b, zero)
        safe = self.op(f"arith.select {is_zero.ssa}, {one.ssa}, {b.ssa} : {elem}", elem)
        r = self.op(f"arith.{fn} {a.ssa}, {safe.ssa} : {elem}", elem)
        return self.op(f"arith.select {is_zero.ssa}, {zero.ssa}, {r.ssa} : {elem}", elem)

    def needs_adjust(self, r, b, elem):
        """(r != 0) and ((r < 0) != (b < 0)): floor-division correction."""
        z = self.const(0, elem)
        nz = self.compare("ne", r, z)
        rn = self.compare("lt", r, z)
        bn = self.compare("lt", b, z)
        if nz.is_array or bn.is_array:
            d = self.vbinary("xor", rn, bn, "i1") if True else None
            return self.vbinary("and", nz, d, "i1")
        d = self.op(f"arith.xori {rn.ssa}, {bn.ssa} : i1", "i1")
        return self.op(f"arith.andi {nz.ssa}, {d.ssa} : i1", "i1")

    def matmul(self, a, b):
        if not (a.is_array and b.is_array):
            self.error("@ / np.dot need arrays (np.dot of scalars: use *)")
        elem = promote_strong(a.ty.elem, b.ty.elem)
        if elem == "i1":
            # NumPy's boolean product is `or` of `and`s: a nonzero count
            return self.cast(self.matmul(self.cast(a, "i64"), self.cast(b, "i64")), "i1")
        a, b = self.cast(a, elem), self.cast(b, elem)
        ra, rb = a.ty.rank, b.ty.rank
        if ra == 1 and rb == 1:
            p = self.vbinary("mul", a, b, elem)
            return self.op(f"vrir.reduce sum {p.ssa} : {p.ty.mlir()} -> {elem}", elem)
        if ra == 2 and rb == 2:
            t = ArrT(elem, 2)
            return self.op(f"vrir.matmul {a.ssa}, {b.ssa} : {a.ty.mlir()}, {b.ty.mlir()} -> {t.mlir()}", t)
        if ra == 2 and rb == 1:
            t = ArrT(elem, 1)
            return self.op(f"vrir.matvec {a.ssa}, {b.ssa} : {a.ty.mlir()}, {b.ty.mlir()} -> {t.mlir()}", t)
        if ra == 1 and rb == 2:
            bt = self.transpose(b)
            t = ArrT(elem, 1)
            return self.op(f"vrir.matvec {bt.ssa}, {a.ssa} : {bt.ty.mlir()}, {a.ty.mlir()} -> {t.mlir()}", t)
        return self.batched_matmul(a, b, elem)

    def batched_matmul(self, a, b, elem):
        """@ with an operand of rank 3 or more: a stack of matrices (or
        vectors) multiplied item by item over the leading (batch)
        dimensions, which the other operand has too or lacks (a matrix or a
        vector, used for every item). Batch dimensions broadcast as NumPy's:
        equal, or 1 in one operand (that item is used all along)."""
        ra, rb = a.ty.rank, b.ty.rank
        if ra > 2 and rb > 2 and ra != rb:
            self.error(f"matrix product of rank {ra} and rank {rb} arrays: stacks of "
                       "different ranks are not supported")
        batch_of = a if ra > 2 else b
        nbatch = batch_of.ty.rank - 2
        sizes = [self.dim(batch_of, d) for d in range(nbatch)]
        if ra > 2 and rb > 2:
            one = self.const(1, "index").ssa
            for d in range(nbatch):
                da, db = self.dim(a, d), self.dim(b, d)
                differ = self.op(f"arith.cmpi ne, {da}, {db} : index", "i1")
                a_one = self.op(f"arith.cmpi eq, {da}, {one} : index", "i1")
                b_one = self.op(f"arith.cmpi eq, {db}, {one} : index", "i1")
                either = self.op(f"arith.ori {a_one.ssa}, {b_one.ssa} : i1", "i1")
                keep = self.op(f"arith.xori {either.ssa}, {self.const(True, 'i1').ssa} : i1",
                               "i1")
                bad = self.op(f"arith.andi {differ.ssa}, {keep.ssa} : i1", "i1")
                self.error_if(bad, "ValueError",
                              f"matmul: batch dimension {d} of the operands cannot be "
                              "broadcast together (sizes differ and neither is 1)")
                sizes[d] = self.op(f"arith.select {a_one.ssa}, {db}, {da} : index",
                                   "index").ssa
        if ra >= 2:
            sizes.append(self.dim(a, ra - 2))
        if rb >= 2:
            sizes.append(self.dim(b, rb - 1))
        t = ArrT(elem, len(sizes))
        out = self.op(f"vrir.empty({', '.join(sizes)}) : {t.mlir()}", t)

        def item(name, rank):
            # i % size is i, or 0 along a broadcast dimension of size 1
            if rank <= 2:
                return name
            return f"{name}[{', '.join(f'i{d} % {name}.shape[{d}]' for d in range(nbatch))}]"
        return self.inline(self.loop_nest_source(
            "out", nbatch, [f"out[ix] = {item('a', ra)} @ {item('b', rb)}"]),
            {"a": a, "b": b, "out": out}, "out")
