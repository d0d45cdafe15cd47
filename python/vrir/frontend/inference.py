"""Types of values: NEP 50's weak (Python) and strong (NumPy) scalars, the
element type operands promote to, conversions and casts, and the unification
of a variable's or a return's types (which widens them and restarts
emission: the type inference fixed point)."""
from ..types import ArrT, SCALARS, TupT, bits, is_complex, kind, promote_strong, promote_weak
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
        if v.ty in ("i64", "i32"):
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
            t = ArrT(elem, v.ty.rank, "row_major")
            return self.op(f"vrir.cast {v.ssa} : {v.ty.mlir()} to {t.mlir()}", t)
        if v.ty == elem:
            return v
        if v.ty not in SCALARS:
            self.error(f"cannot convert {self.tyname(v)} to {elem}")
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
        r = self.op(f"vrir.cast {v.ssa} : {v.ty} to {elem}", elem)
        r.weak = v.weak
        return r

    def tyname(self, v):
        if v.kind == "tuple":
            return "tuple"
        if v.kind in ("pyfn", "jitfn", "func"):
            return "function"
        if v.kind:
            return v.kind
        return str(v.ty)

    def convert(self, v, ty, what="value"):
        """Convert v to exactly type ty (assignments, returns, calls)."""
        if isinstance(ty, TupT):
            if v.kind != "tuple" or len(v.items) != len(ty.items):
                self.error(f"{what}: expected a tuple of {len(ty.items)}")
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
        if isinstance(a, str) and isinstance(b, str) and a in SCALARS and b in SCALARS:
            return promote_strong(a, b)
        if isinstance(a, ArrT) and isinstance(b, ArrT) and a.elem == b.elem and a.rank == b.rank:
            return ArrT(a.elem, a.rank, "strided")
        if isinstance(a, TupT) and isinstance(b, TupT) and len(a.items) == len(b.items):
            return TupT(tuple(self.unify(x, y, what) for x, y in zip(a.items, b.items)))
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
        """int(x) of a float scalar: NaN and values out of range raise."""
        if not (a.is_scalar and a.ty in ("f32", "f64") and to in ("i32", "i64")):
            return
        if a.const is not None and abs(a.const) < 2.0 ** (bits(to) - 1):
            return  # NaN fails the test: checked below
        nan = self.op(f"arith.cmpf uno, {a.ssa}, {a.ssa} : {a.ty}", "i1")
        self.error_if(nan, "ValueError", "cannot convert float NaN to integer")
        mag = self.op(f"math.absf {a.ssa} : {a.ty}", a.ty)
        limit = self.const(2.0 ** (bits(to) - 1), a.ty)
        big = self.op(f"arith.cmpf oge, {mag.ssa}, {limit.ssa} : {a.ty}", "i1")
        self.error_if(big, "OverflowError",
                      f"cannot convert float infinity or a float beyond {to} to integer")
