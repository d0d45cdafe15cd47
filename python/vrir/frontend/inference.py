"""Types of values: NEP 50's weak (Python) and strong (NumPy) scalars, the
element type operands promote to, conversions and casts, and the unification
of a variable's or a return's types (which widens them and restarts
emission: the type inference fixed point)."""
import numpy as np

from ..types import (ArrT, ELEM_TO_NP, ListArrT, ListT, SCALARS, TupT, bits, int_range,
                     is_complex, is_int, is_unsigned, kind, mlir_elem, promote_strong, promote_weak, real_of)
from .values import V


class TypeInference:
    """Type rules: promotion, conversion, casts and unification."""

    def check_int64(self, value, what):
        """A Python int known while compiling must be an int64: Python's
        value beyond it would silently wrap at run time."""
        if not -2**63 <= value < 2**63:
            self.error(f"{what} {value} does not fit in int64 (VRIR's integers are 64-bit)")

    def to_int(self, v):
        if not v.is_scalar:
            self.error("expected an integer")
        if is_int(v.ty):
            return v
        if v.ty == "i1":
            return self.cast(v, "i64")
        self.error(f"expected an integer, got a {'complex' if is_complex(v.ty) else 'float'} number")

    @staticmethod
    def weak(v, weak=True):
        """`v` as a Python scalar (NEP 50's weak scalars: len(), shapes, loop
        counters, int(), math.*), or with weak=False as a NumPy scalar (a
        copy: `v` may be a variable's value)."""
        if not v.is_scalar or v.weak == weak:
            return v
        return V(v.ty, v.ssa, const=v.const, weak=weak)

    def cast(self, v, elem):
        """Scalar or array element-type conversion."""
        if v.is_array:
            if v.ty.elem == elem:
                return v
            if is_unsigned(v.ty.elem) or is_unsigned(elem):
                # vrir.cast converts integers as signed: a vrir.map body of
                # the unsigned conversions instead
                return self.emap([v], elem, lambda x: self.cast(x[0], elem))
            t = ArrT(elem, v.ty.rank, "row_major")
            return self.op(f"vrir.cast {v.ssa} : {v.ty.mlir()} to {t.mlir()}", t)
        if v.ty == elem:
            return v
        if v.ty not in SCALARS:
            self.error(f"cannot convert {self.tyname(v)} to {elem}")
        if v.weak and v.ty == "i64" and is_int(elem):
            self.check_weak_int_fits(v, elem)
        if v.const is not None and kind(elem) >= 2 and kind(v.ty) <= kind(elem) \
                and not (kind(v.ty) == 1 and abs(v.const) >= 2**53):
            # a constant of the wider type directly (int/float -> float/complex)
            r = self.const(complex(v.const) if is_complex(elem) else float(v.const), elem)
            r.weak = v.weak
            return r
        if elem == "i1" and v.const is not None:
            # known while compiling (`x if -0.75 else y` takes one branch)
            return self.const(bool(v.const), "i1")
        if elem == "i1" and not is_complex(v.ty):
            z = self.const(0, v.ty)
            return self.cmp_scalar("ne", v, z)
        if is_unsigned(v.ty) or is_unsigned(elem):
            r = self.unsigned_cast(v, elem)
            r.weak = v.weak
            return r
        r = self.op(f"vrir.cast {v.ssa} : {v.ty} to {elem}", elem)
        r.weak = v.weak
        return r

    def unsigned_cast(self, v, elem):
        """A scalar conversion from or to an unsigned integer type, with
        arith's unsigned operations (VRIR's vrir.cast is signed)."""
        src = v.ty
        if is_complex(src):  # NumPy takes the real part
            return self.unsigned_cast(self.cast(v, "i64"), elem)
        if is_complex(elem):
            return self.cast(self.unsigned_cast(v, real_of(elem)), elem)
        if kind(src) <= 1 and kind(elem) <= 1:
            ext = "extui" if is_unsigned(src) or src == "i1" else "extsi"
            if bits(src) == bits(elem):
                r = V(elem, v.ssa)  # the same bits
            elif bits(src) > bits(elem):
                r = self.op(f"arith.trunci {v.ssa} : {src} to {elem}", elem)
            else:
                # (a signed source to an unsigned type: written signless)
                r = self.op(f"arith.{ext} {v.ssa} : {src} to {mlir_elem(elem)}", elem)
            if v.const is not None:
                lo, hi = int_range(elem)
                r.const = (int(v.const) - lo) % (hi - lo + 1) + lo
            return r
        if kind(src) <= 1:  # integer to float
            conv = "uitofp" if is_unsigned(src) or src == "i1" else "sitofp"  # (float results)
            return self.op(f"arith.{conv} {v.ssa} : {src} to {elem}", elem)
        # float to unsigned: through int64, as NumPy's C casts do on x86
        # (a negative value wraps); uint64 beyond 2**63 by an offset
        if elem != "ui64":
            w = self.op(f"arith.fptosi {v.ssa} : {src} to i64", "i64")
            return self.op(f"arith.trunci {w.ssa} : i64 to {elem}", elem)
        big = self.const(2.0 ** 63, src)
        high = self.op(f"arith.cmpf oge, {v.ssa}, {big.ssa} : {src}", "i1")
        low = self.op(f"arith.subf {v.ssa}, {big.ssa} : {src}", src)
        x = self.op(f"arith.select {high.ssa}, {low.ssa}, {v.ssa} : {src}", src)
        w = self.op(f"arith.fptosi {x.ssa} : {src} to i64", "i64")
        sign = self.const(-2 ** 63, "i64")
        flipped = self.op(f"arith.xori {w.ssa}, {sign.ssa} : i64", "i64")
        w = self.op(f"arith.select {high.ssa}, {flipped.ssa}, {w.ssa} : i64", "i64")
        return V(elem, w.ssa)

    def check_weak_int_fits(self, v, elem):
        """NEP 50: a Python int taking a narrower NumPy integer type must fit
        in it (NumPy raises OverflowError: `int8_array + 300`), never wrap."""
        lo, hi = int_range(elem)
        if lo <= -2 ** 63 and hi >= 2 ** 63 - 1:
            return
        name = np.dtype(ELEM_TO_NP[elem]).name
        if v.const is not None:
            if not lo <= int(v.const) <= hi:
                self.error(f"Python integer {int(v.const)} out of bounds for {name} "
                           "(NumPy raises OverflowError)")
            return
        out = self.op(f"arith.cmpi slt, {v.ssa}, {self.const(lo, 'i64').ssa} : i64", "i1")
        if hi < 2 ** 63 - 1:
            above = self.op(f"arith.cmpi sgt, {v.ssa}, {self.const(hi, 'i64').ssa} : i64", "i1")
            out = self.op(f"arith.ori {out.ssa}, {above.ssa} : i1", "i1")
        self.error_if(out, "OverflowError", f"Python integer out of bounds for {name}")

    def weak_int_exceeds(self, a, b, elem):
        """Whether a Python int operand of a comparison may lie outside the
        integer type `elem` the operands promote to: NumPy 2 compares it by
        value then (`int8_array < 1000` is all True)."""
        if not is_int(elem) or bits(elem) >= 64:
            return False  # uint64: see compare
        lo, hi = int_range(elem)
        return any(v.is_scalar and v.weak and v.ty == "i64" and
                   (v.const is None or not lo <= int(v.const) <= hi) for v in (a, b))

    def tyname(self, v):
        if v.kind == "tuple":
            return "list" if self.is_static_list(v) else "tuple"
        if v.kind in ("pyfn", "jitfn", "func"):
            return "function"
        if v.kind:
            return v.kind
        return str(v.ty)

    def convert(self, v, ty, what="value"):
        """Convert v to exactly type ty (assignments, returns, calls)."""
        if isinstance(ty, ListT):
            return self.convert_list(v, ty, what)
        if isinstance(ty, TupT):
            if v.kind != "tuple" or len(v.items) != len(ty.items):
                self.error(f"{what}: expected a {'list' if ty.is_list else 'tuple'} of "
                           f"{len(ty.items)}")
            return V(ty, kind="tuple", items=[self.convert(x, t, what) for x, t in zip(v.items, ty.items)])
        if isinstance(ty, ArrT):
            if not v.is_array or v.ty.elem != ty.elem or v.ty.rank != ty.rank:
                self.error(f"{what}: cannot convert {self.tyname(v)} to {ty}")
            if v.ty == ty:
                return v
            if ty.layout == "strided":
                return self.to_strided(v)
            return self.op(f"vrir.copy {v.ssa} : {v.ty.mlir()} to {ty.mlir()}", ty)
        if not v.is_scalar:
            self.error(f"{what}: cannot convert {self.tyname(v)} to {ty}")
        return self.cast(v, ty)

    def unify(self, a, b, what):
        if a == b:
            return a
        if isinstance(a, ListArrT) != isinstance(b, ListArrT):
            self.error(f"{what} is a list on one path and an array on another")
        if isinstance(a, ListT) and isinstance(b, ListT):
            return self.unify_lists(a, b, what)
        if isinstance(a, str) and isinstance(b, str) and a in SCALARS and b in SCALARS:
            return promote_strong(a, b)
        if isinstance(a, ArrT) and isinstance(b, ArrT) and a.elem == b.elem and a.rank == b.rank:
            return ArrT(a.elem, a.rank, "strided")
        if isinstance(a, TupT) and isinstance(b, TupT) and len(a.items) == len(b.items) \
                and a.is_list == b.is_list:
            return TupT(tuple(self.unify(x, y, what) for x, y in zip(a.items, b.items)),
                        a.is_list)
        self.error(f"{what} changes type from {a} to {b}; VRIR variables have one type")

    def need_scalar(self, v):
        if not v.is_scalar:
            self.error(f"expected a number, got {self.tyname(v)}")

    def check_same_value_type(self, what, a, b):
        """The value of `and`/`or` and of `x if c else y` is one of two
        operands chosen when it runs: its type is static, so they must agree
        (widening int to float would change Python's result type)."""
        if a.kind is not None or b.kind is not None:
            return  # tuples, None ...: assign_name decides
        same = a.ty == b.ty if not (a.is_array and b.is_array) else \
            (a.ty.elem, a.ty.rank) == (b.ty.elem, b.ty.rank)
        if not same:
            self.error(f"{what} of values of different types ({self.tyname(a)} and "
                       f"{self.tyname(b)}): its value is one of them, chosen when it "
                       f"runs; convert them to one type")

    # --- typing of operations
    def common_elem(self, a, b):
        if a.is_array and b.is_array:
            return promote_strong(a.ty.elem, b.ty.elem)
        # NEP 50: a NumPy scalar (an element, a reduction, np.float32(x))
        # promotes with an array as an array would; a Python scalar takes
        # the array's type unless its kind is higher
        if a.is_array:
            return promote_weak(a.ty.elem, b.ty) if b.weak else promote_strong(a.ty.elem, b.ty)
        if b.is_array:
            return promote_weak(b.ty.elem, a.ty) if a.weak else promote_strong(b.ty.elem, a.ty)
        if a.weak and not b.weak:
            return promote_weak(b.ty, a.ty)
        if b.weak and not a.weak:
            return promote_weak(a.ty, b.ty)
        return promote_strong(a.ty, b.ty)

    def check_operands(self, a, b, what):
        for v in (a, b):
            if not (v.is_array or v.is_scalar):
                self.error(f"unsupported operand {self.tyname(v)} for {what}")

    def result_arr(self, a, b, elem):
        rank = max(x.ty.rank for x in (a, b) if x.is_array)
        return ArrT(elem, rank, "row_major")

    def cast_value(self, v, elem):
        if v.is_array:
            return self.cast(v, elem)
        self.need_scalar(v)
        if is_complex(v.ty) and not is_complex(elem) and elem != "i1":
            self.error(f"cannot convert a complex number to {elem} (take .real or abs())")
        if elem == "i64" and v.ty.startswith("f"):
            return self.cast(v, elem)  # truncation toward zero, like int()
        return self.cast(v, elem)

    def check_float_to_int(self, a, to):
        """int(x) of a float scalar: NaN and values out of range raise.
        True when checks were emitted (`a` is then in range for `to`)."""
        if not (a.is_scalar and a.ty in ("f32", "f64") and is_int(to)):
            return False
        top = 2.0 ** bits(to) if is_unsigned(to) else 2.0 ** (bits(to) - 1)
        if a.const is not None and abs(a.const) < top:
            return False  # NaN fails the test: checked below
        nan = self.op(f"arith.cmpf uno, {a.ssa}, {a.ssa} : {a.ty}", "i1")
        self.error_if(nan, "ValueError", "cannot convert float NaN to integer")
        limit = self.const(top, a.ty)
        big = self.op(f"arith.cmpf oge, {a.ssa}, {limit.ssa} : {a.ty}", "i1")
        # (a negative float wraps to an unsigned type, as NumPy's C cast;
        # a signed one takes down to -top, so x <= -top - 1 is out where
        # that is a float of a's type, else x < -top)
        if not is_unsigned(to):
            exact = top <= 2.0 ** (53 if a.ty == "f64" else 24)
            low = self.const(-top - 1 if exact else -top, a.ty)
            pred = "ole" if exact else "olt"
            small = self.op(f"arith.cmpf {pred}, {a.ssa}, {low.ssa} : {a.ty}", "i1")
            big = self.op(f"arith.ori {big.ssa}, {small.ssa} : i1", "i1")
        self.error_if(big, "OverflowError",
                      f"cannot convert float infinity or a float beyond {to} to integer")
        return True

    def checked_float_to_int(self, a, to):
        """int(x), np.int32(x)... of a float scalar: the checks, then the
        conversion itself, which after them needs no care for NaN and
        values out of range (the cast's selects would lengthen the path
        from x to, say, an index computed from it)."""
        if self.check_float_to_int(a, to) and not is_unsigned(to):
            return self.op(f"arith.fptosi {a.ssa} : {a.ty} to {to}", to)
        return None
