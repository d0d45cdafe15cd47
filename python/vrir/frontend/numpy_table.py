"""The names the frontend knows of NumPy, math and cmath: the dtypes of
Python's and NumPy's type objects, the binary ufuncs and their
reduce/accumulate forms, the float functions of one argument (and the math
dialect op that computes each), the reductions, and np.issubdtype's abstract
types. Calls are dispatched by these tables and by the `call_<module>_<name>`
methods of the emitter (calls.py)."""
import numpy as np

from ..types import C128, C64


# Python's and NumPy's scalar types as element types
PY_DTYPES = {float: "f64", int: "i64", bool: "i1", complex: C128,
             np.float64: "f64", np.float32: "f32", np.int64: "i64",
             np.int32: "i32", np.int16: "i16", np.int8: "i8", np.uint64: "ui64",
             np.uint32: "ui32", np.uint16: "ui16", np.uint8: "ui8",
             np.bool_: "i1", np.double: "f64",
             np.complex128: C128, np.complex64: C64}

# NumPy's binary ufuncs written as operators: name -> ("op", binop name) or
# ("cmp", comparison) or ("fn", np.minimum-like binary_values name).
BINARY_UFUNCS = {
    "add": ("op", "add"), "subtract": ("op", "sub"), "multiply": ("op", "mul"),
    "divide": ("op", "truediv"), "true_divide": ("op", "truediv"),
    "floor_divide": ("op", "floordiv"), "remainder": ("op", "mod"), "mod": ("op", "mod"),
    "bitwise_and": ("op", "and"), "bitwise_or": ("op", "or"), "bitwise_xor": ("op", "xor"),
    "equal": ("cmp", "eq"), "not_equal": ("cmp", "ne"), "less": ("cmp", "lt"),
    "less_equal": ("cmp", "le"), "greater": ("cmp", "gt"), "greater_equal": ("cmp", "ge"),
    "power": ("fn", "pow"), "maximum": ("fn", "max"), "minimum": ("fn", "min"),
}
# ufunc.reduce / ufunc.accumulate as the reductions and cumulative functions.
UFUNC_REDUCE = {"add": "sum", "multiply": "prod", "maximum": "max", "minimum": "min"}
UFUNC_ACCUMULATE = {"add": "cumsum", "multiply": "cumprod", "maximum": "maximum",
                    "minimum": "minimum"}
UNARY_FLOAT_FNS = {"sqrt", "exp", "log", "sin", "cos", "tan", "tanh",
                   "floor", "ceil"}
# defined on complex numbers too (cmath and NumPy)
COMPLEX_FNS = {"sqrt", "exp", "log", "sin", "cos", "tan", "tanh"}
# float functions of one argument computed by a `math` dialect op in a
# vrir.map body (NumPy name -> op); math.* names them without the "arc"
MAP_FLOAT_FNS = {"arctan": "atan", "arcsin": "asin", "arccos": "acos", "sinh": "sinh",
                 "cosh": "cosh", "arcsinh": "asinh", "arccosh": "acosh", "arctanh": "atanh",
                 "log10": "log10", "log2": "log2", "log1p": "log1p", "expm1": "expm1",
                 "cbrt": "cbrt", "trunc": "trunc", "rint": "roundeven"}
MATH_MAP_FNS = {"atan": "atan", "asin": "asin", "acos": "acos", "sinh": "sinh",
                "cosh": "cosh", "asinh": "asinh", "acosh": "acosh", "atanh": "atanh",
                "log10": "log10", "log2": "log2", "log1p": "log1p", "expm1": "expm1",
                "cbrt": "cbrt"}
REDUCTIONS = {"sum": "sum", "prod": "prod", "min": "min", "max": "max",
              "amin": "min", "amax": "max", "mean": "mean"}

# np.issubdtype's abstract types: the kinds (types.kind) they contain, "u"
# for the unsigned integers
ABSTRACT_DTYPES = {"generic": (0, 1, 2, 3, "u"), "number": (1, 2, 3, "u"),
                   "integer": (1, "u"), "signedinteger": (1,), "unsignedinteger": ("u",),
                   "inexact": (2, 3), "floating": (2,),
                   "complexfloating": (3,), "bool": (0,), "bool_": (0,)}
