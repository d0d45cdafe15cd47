"""Frontend types: scalars are MLIR type names, arrays are ArrT."""
from dataclasses import dataclass

import numpy as np

C64, C128 = "complex<f32>", "complex<f64>"
SCALARS = ("i1", "i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64", "f32", "f64",
           C64, C128)
# NumPy's integer types: iN signed, uiN unsigned. MLIR (and VRIR) integers
# are signless: an unsigned type is written as the signless integer of its
# width (mlir_elem), and the frontend picks the unsigned operations itself.
INTS = ("i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64")
UNSIGNED = ("ui8", "ui16", "ui32", "ui64")


def mlir_elem(elem):
    """The MLIR type of an element type (ui8 -> i8)."""
    return elem[1:] if elem in UNSIGNED else elem


def is_unsigned(elem):
    return elem in UNSIGNED

NP_TO_ELEM = {
    np.dtype(np.float64): "f64",
    np.dtype(np.float32): "f32",
    np.dtype(np.int64): "i64",
    np.dtype(np.int32): "i32",
    np.dtype(np.int16): "i16",
    np.dtype(np.int8): "i8",
    np.dtype(np.uint8): "ui8",
    np.dtype(np.uint16): "ui16",
    np.dtype(np.uint32): "ui32",
    np.dtype(np.uint64): "ui64",
    np.dtype(np.bool_): "i1",
    np.dtype(np.complex128): C128,
    np.dtype(np.complex64): C64,
}
ELEM_TO_NP = {v: k for k, v in NP_TO_ELEM.items()}


@dataclass(frozen=True)
class ArrT:
    elem: str
    rank: int
    layout: str = "row_major"  # row_major | col_major | strided

    def mlir(self):
        # unsigned elements stay uiN here: signless_text writes the module's
        # text (the emitter checks the operations on them, check_unsigned_op)
        return f"!vrir.array<{self.elem}, {self.rank}, {self.layout}>"

    def __str__(self):
        return f"array({self.elem}, {self.rank}, {self.layout})"


@dataclass(frozen=True)
class TupT:
    items: tuple
    # a list written out of arrays (`[w1, w2]`): a fixed list of values,
    # stored as a tuple's items are
    is_list: bool = False

    def __str__(self):
        return ("list(" if self.is_list else "tuple(") + ", ".join(str(t) for t in self.items) + ")"


@dataclass(frozen=True)
class ListT:
    """A list built at run time: its items (numbers of one type, or arrays of
    one rank and shape, stacked) are the first `len` rows of a buffer with
    room to grow. `item` is None for `[]` before anything is added."""
    item: object  # a scalar type, an ArrT (row_major), or None
    weak: bool = False  # the items are Python numbers (NEP 50)

    def buffer(self):
        if isinstance(self.item, ArrT):
            return ArrT(self.item.elem, self.item.rank + 1)
        return ArrT(self.item or "f64", 1)

    def __str__(self):
        return f"list({self.item or 'empty'})"


@dataclass(frozen=True)
class ListArrT(ArrT):
    """A kernel's result that is a list: returned as the array of its items,
    which the runtime turns into a Python list (of Python numbers when
    `weak`, else of NumPy scalars or of arrays)."""
    weak: bool = False


def mlir_type(t):
    return t.mlir() if isinstance(t, ArrT) else t


_UNSIGNED_WORD = None


def signless_text(text):
    """MLIR text with the frontend's unsigned element types (ui8 ... ui64,
    which the emitter writes where it formats a scalar type) as the
    signless integers VRIR has, outside string literals (locations,
    messages); SSA names, block labels and symbols are left alone."""
    global _UNSIGNED_WORD
    if "ui" not in text:
        return text
    if _UNSIGNED_WORD is None:
        import re
        _UNSIGNED_WORD = re.compile(r"(?<![\w%@^#$.])ui(8|16|32|64)(?![\w.])")
    parts = text.split('"')
    for k in range(0, len(parts), 2):
        parts[k] = _UNSIGNED_WORD.sub(r"i\1", parts[k])
    return '"'.join(parts)


def kind(elem):
    """0 bool, 1 int, 2 float, 3 complex"""
    return {"i1": 0, "i8": 1, "i16": 1, "i32": 1, "i64": 1, "ui8": 1, "ui16": 1, "ui32": 1,
            "ui64": 1, "f32": 2, "f64": 2, C64: 3, C128: 3}[elem]


def bits(elem):
    return {"i1": 1, "i8": 8, "i16": 16, "i32": 32, "i64": 64, "ui8": 8, "ui16": 16,
            "ui32": 32, "ui64": 64, "f32": 32, "f64": 64, C64: 64, C128: 128}[elem]


def is_int(elem):
    """A NumPy integer type (not bool)."""
    return elem in INTS


def int_range(elem):
    """The values an integer type holds: (lowest, highest)."""
    n = bits(elem)
    if is_unsigned(elem):
        return 0, 2 ** n - 1
    return -2 ** (n - 1), 2 ** (n - 1) - 1


def sum_type(elem):
    """NumPy's type of sum/prod/cumsum/cumprod: booleans and integers
    narrower than 64 bits widen to int64, unsigned ones to uint64
    (np.add.reduce's default)."""
    if is_unsigned(elem):
        return "ui64"
    return "i64" if elem == "i1" or is_int(elem) else elem


def is_float(elem):
    return elem in ("f32", "f64")


def is_complex(elem):
    return elem in (C64, C128)


def real_of(elem):
    """The real type of a complex type (its part), the type itself otherwise."""
    return {C64: "f32", C128: "f64"}.get(elem, elem)


def complex_of(elem):
    """The complex type whose parts hold `elem` as NumPy promotes it."""
    return C64 if elem in ("f32", C64) else C128


def promote_strong(a, b):
    """NumPy promotion of two typed (non-weak) element types."""
    if a == b:
        return a
    ka, kb = kind(a), kind(b)
    if ka == kb == 1 and is_unsigned(a) != is_unsigned(b):
        # mixed signedness: the signed type that holds both, float64 past 64 bits
        s, u = (b, a) if is_unsigned(a) else (a, b)
        if bits(s) > bits(u):
            return s
        return {8: "i16", 16: "i32", 32: "i64"}.get(bits(u), "f64")
    if ka == kb:
        return a if bits(a) >= bits(b) else b
    if ka == 0:
        return b
    if kb == 0:
        return a
    if ka == 3 or kb == 3:
        # complex64 keeps single precision with float32 and the integers
        # float32 holds exactly (8 and 16 bits)
        c, o = (a, b) if ka == 3 else (b, a)
        return C64 if c == C64 and (o == "f32" or (kind(o) == 1 and bits(o) <= 16)) else C128
    # int with float: float32 holds 8- and 16-bit integers exactly
    f, i = (a, b) if ka == 2 else (b, a)
    if f == "f32" and bits(i) <= 16:
        return "f32"
    return "f64"


def promote_weak(strong, weak):
    """`strong` typed, `weak` a Python scalar's kind-default type."""
    if kind(weak) <= kind(strong):
        return strong
    if kind(weak) == 3:  # a Python complex keeps float32's precision
        return C64 if strong == "f32" else C128
    return "f64" if kind(weak) == 2 else "i64"


def describe_value(x):
    if isinstance(x, np.ndarray):
        return f"ndarray[{x.dtype}, ndim={x.ndim}]"
    return type(x).__name__


@dataclass(frozen=True)
class NumPyScalarArg:
    """The type of a NumPy scalar argument whose element type is also a
    Python number's (np.float64, np.int64, np.bool_, np.complex128): a NumPy
    scalar is strong under NEP 50, where a Python number is weak, so the two
    compile apart. The kernel receives `elem`."""
    elem: str

    def __str__(self):
        return f"numpy.{self.elem}"


_NUMPY_SCALAR_ARGS = {}


# The element types a Python number (bool, int, float, complex) has: a
# scalar argument of one of them is weak (NEP 50) unless it is a NumPy scalar.
PYTHON_NUMBER_TYPES = ("i1", "i64", "f64", C128)


def numpy_scalar_arg(elem):
    """The argument type of a NumPy scalar of element type `elem`."""
    if elem not in PYTHON_NUMBER_TYPES:
        return elem  # no Python number has this type: strong anyway
    t = _NUMPY_SCALAR_ARGS.get(elem)
    if t is None:
        t = _NUMPY_SCALAR_ARGS[elem] = NumPyScalarArg(elem)
    return t


# Array types of arguments, by (dtype, rank, layout): a call's signature is
# looked up on every call, and building the dataclass costs more than this.
_ARRAY_TYPES = {}


def arg_type(x):
    """Frontend type of a Python argument, or raise TypeError."""
    if isinstance(x, np.ndarray):
        flags = x.flags
        if flags.c_contiguous:
            layout = "row_major"
        elif flags.f_contiguous:
            layout = "col_major"
        else:
            layout = "strided"
        t = _ARRAY_TYPES.get((x.dtype, x.ndim, layout))
        if t is not None and (layout != "strided" or
                              not any(s % x.itemsize for s in x.strides)):
            return t
        elem = NP_TO_ELEM.get(x.dtype)
        if elem is None:
            raise TypeError(f"vrir: unsupported array dtype {x.dtype} "
                            "(supported: float64, float32, int64, int32, int16, "
                            "int8, uint64, uint32, uint16, uint8, bool, complex128, "
                            "complex64)")
        if x.ndim == 0:
            raise TypeError("vrir: 0-dimensional arrays are not supported; pass a scalar")
        if not x.dtype.isnative:
            raise TypeError("vrir: byte-swapped arrays are not supported")
        if any(s % x.itemsize for s in x.strides):
            raise TypeError("vrir: array strides must be multiples of the element size")
        return _ARRAY_TYPES.setdefault((x.dtype, x.ndim, layout), ArrT(elem, x.ndim, layout))
    if isinstance(x, (bool, np.bool_)):
        return "i1" if type(x) is bool else numpy_scalar_arg("i1")
    if isinstance(x, int) and not isinstance(x, np.generic):
        if not -(2**63) <= x < 2**63:
            raise TypeError(f"vrir: integer argument {x} does not fit in int64")
        return "i64"
    if isinstance(x, float):  # np.float64 too
        return "f64" if type(x) is float else numpy_scalar_arg("f64")
    if isinstance(x, complex):  # np.complex128 too
        return C128 if type(x) is complex else numpy_scalar_arg(C128)
    if isinstance(x, np.generic):
        elem = NP_TO_ELEM.get(x.dtype)
        if elem is None:
            raise TypeError(f"vrir: unsupported scalar type {x.dtype}")
        return numpy_scalar_arg(elem)
    raise TypeError(f"vrir: unsupported argument type {describe_value(x)} "
                    "(expected a NumPy array, int, float, complex, bool or NumPy scalar)")


# ---------------------------------------------------------------- signatures
# Ahead-of-time signatures name the frontend types in Numba's notation:
# `f64` a scalar, `f64[:, :]` a 2-D array of any layout (compiled for
# `strided`), `f64[:, ::1]` C-contiguous (`row_major`), `f64[::1, :]`
# Fortran-contiguous (`col_major`).

LAYOUT_NAMES = {
    "C": "row_major", "RowMajor": "row_major", "row_major": "row_major",
    "F": "col_major", "ColMajor": "col_major", "col_major": "col_major",
    "A": "strided", "Strided": "strided", "strided": "strided", "any": "strided",
}


class ScalarSpec:
    """A VRIR element type in signatures and annotations: `vrir.f64` is a
    float64 scalar, `vrir.f64[:, ::1]` a C-contiguous 2-D array of them."""

    __slots__ = ("name", "elem")

    def __init__(self, name, elem):
        self.name, self.elem = name, elem

    def __getitem__(self, index):
        items = index if isinstance(index, tuple) else (index,)
        steps = []
        for s in items:
            if not isinstance(s, slice) or s.start is not None or s.stop is not None \
                    or s.step not in (None, 1):
                raise TypeError(f"vrir: array dimensions in a signature are ':' or '::1', "
                                f"got {s!r} in {self.name}[...]")
            steps.append(s.step)
        return ArrT(self.elem, len(items), layout_of_steps(steps, self.name))

    def __repr__(self):
        return f"vrir.{self.name}"


def layout_of_steps(steps, what="array"):
    unit = [k for k, s in enumerate(steps) if s == 1]
    if not unit:
        return "strided"
    if unit == [len(steps) - 1]:
        return "row_major"
    if unit == [0]:
        return "col_major"
    raise TypeError(f"vrir: '::1' marks the contiguous dimension of {what}[...]: "
                    "the last one (C order) or the first one (Fortran order), once")


SPEC_NAMES = {
    "f64": "f64", "f32": "f32", "i64": "i64", "i32": "i32", "i16": "i16", "i8": "i8",
    "u64": "ui64", "u32": "ui32", "u16": "ui16", "u8": "ui8",
    "b1": "i1", "c128": C128, "c64": C64,
    "float64": "f64", "float32": "f32", "int64": "i64", "int32": "i32", "int16": "i16",
    "int8": "i8", "uint64": "ui64", "uint32": "ui32", "uint16": "ui16", "uint8": "ui8",
    "bool_": "i1", "complex128": C128, "complex64": C64, "double": "f64",
}
SPECS = {name: ScalarSpec(name, elem) for name, elem in SPEC_NAMES.items()}
# builtin names that mean the same in a signature string
PLAIN_NAMES = {"float": "f64", "int": "i64", "bool": "i1", "complex": C128}
ELEM_SPEC_NAME = {"f64": "f64", "f32": "f32", "i64": "i64", "i32": "i32", "i16": "i16",
                  "i8": "i8", "ui64": "u64", "ui32": "u32", "ui16": "u16", "ui8": "u8",
                  "i1": "b1",
                  C128: "c128", C64: "c64"}


def Array(elem, ndim, layout="A"):
    """The thesis's `PyArray(PyFloat64(), 2, 'RowMajor')`:
    `vrir.Array(vrir.f64, 2, "C")` (layouts C/RowMajor, F/ColMajor, A/strided)."""
    e = to_type(elem)
    if not isinstance(e, str):
        raise TypeError(f"vrir.Array: element type {elem!r} is not a scalar type")
    if not isinstance(ndim, int) or ndim < 1:
        raise TypeError("vrir.Array: ndim must be a positive integer")
    if layout not in LAYOUT_NAMES:
        raise TypeError(f"vrir.Array: unknown layout {layout!r} (C, F or A)")
    return ArrT(e, ndim, LAYOUT_NAMES[layout])


def spec_str(t):
    """A frontend type in signature notation."""
    if isinstance(t, NumPyScalarArg):
        return spec_str(t.elem)
    if isinstance(t, ArrT):
        dims = [":"] * t.rank
        if t.layout == "row_major":
            dims[-1] = "::1"
        elif t.layout == "col_major":
            dims[0] = "::1"
        return f"{ELEM_SPEC_NAME[t.elem]}[{', '.join(dims)}]"
    return ELEM_SPEC_NAME.get(t, str(t))


def to_type(obj):
    """A frontend type from a signature item: `vrir.f64`, `vrir.f64[:]`,
    `vrir.Array(...)`, int/float/bool/complex, a NumPy scalar type, or a
    string in signature notation. TypeError otherwise."""
    if isinstance(obj, ArrT):
        return obj
    if isinstance(obj, ScalarSpec):
        return obj.elem
    if isinstance(obj, str) and obj in SCALARS:  # a frontend type name
        return obj
    if isinstance(obj, str):
        types = parse_signature(obj)
        if len(types) != 1:
            raise TypeError(f"vrir: {obj!r} names {len(types)} types, expected one")
        return types[0]
    if isinstance(obj, type):
        if obj in PLAIN_TYPES:
            return PLAIN_TYPES[obj]
        try:
            dt = np.dtype(obj)
        except TypeError:
            dt = None
        if dt is not None and issubclass(obj, np.generic) and dt in NP_TO_ELEM:
            return NP_TO_ELEM[dt]
    if isinstance(obj, np.dtype) and obj in NP_TO_ELEM:
        return NP_TO_ELEM[obj]
    raise TypeError(f"vrir: {obj!r} is not a VRIR type (use vrir.f64, vrir.f64[:, ::1], "
                    "vrir.Array(...), int, float, bool, complex or a signature string)")


PLAIN_TYPES = {float: "f64", int: "i64", bool: "i1", complex: C128}


def parse_signature(text):
    """`"f64[:, ::1], i64"` -> (ArrT('f64', 2, 'row_major'), 'i64')."""
    import ast
    try:
        tree = ast.parse(text.strip() or "()", mode="eval").body
    except SyntaxError as e:
        raise TypeError(f"vrir: cannot parse the signature {text!r}: {e.msg}") from None
    items = tree.elts if isinstance(tree, ast.Tuple) else [tree]

    def name_of(node):
        if isinstance(node, ast.Name):
            return node.id
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id in ("vrir", "np", "numpy"):
            return node.attr
        return None

    def elem_of(node):
        name = name_of(node)
        if name in SPEC_NAMES:
            return SPEC_NAMES[name]
        if name in PLAIN_NAMES:
            return PLAIN_NAMES[name]
        if isinstance(node, ast.Call):
            raise TypeError(f"vrir: signature {text!r}: write the argument types only "
                            "(result types are inferred)")
        raise TypeError(f"vrir: signature {text!r}: unknown type {ast.unparse(node)!r} "
                        f"(known: {', '.join(sorted(set(SPEC_NAMES) | set(PLAIN_NAMES)))})")

    def dim_step(node):
        if isinstance(node, ast.Slice) and node.lower is None and node.upper is None:
            if node.step is None:
                return None
            if isinstance(node.step, ast.Constant) and node.step.value == 1:
                return 1
        raise TypeError(f"vrir: signature {text!r}: array dimensions are ':' or '::1', "
                        f"got {ast.unparse(node)!r}")

    out = []
    for it in items:
        if isinstance(it, ast.Subscript):
            elem = elem_of(it.value)
            dims = it.slice.elts if isinstance(it.slice, ast.Tuple) else [it.slice]
            steps = [dim_step(d) for d in dims]
            out.append(ArrT(elem, len(steps), layout_of_steps(steps, ast.unparse(it.value))))
        else:
            out.append(elem_of(it))
    return tuple(out)
