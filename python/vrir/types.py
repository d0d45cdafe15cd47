"""Frontend types: scalars are MLIR type names, arrays are ArrT."""
from dataclasses import dataclass

import numpy as np

SCALARS = ("i1", "i32", "i64", "f32", "f64")

NP_TO_ELEM = {
    np.dtype(np.float64): "f64",
    np.dtype(np.float32): "f32",
    np.dtype(np.int64): "i64",
    np.dtype(np.int32): "i32",
    np.dtype(np.bool_): "i1",
}
ELEM_TO_NP = {v: k for k, v in NP_TO_ELEM.items()}


@dataclass(frozen=True)
class ArrT:
    elem: str
    rank: int
    layout: str = "row_major"  # row_major | col_major | strided

    def mlir(self):
        return f"!vrir.array<{self.elem}, {self.rank}, {self.layout}>"

    def __str__(self):
        return f"array({self.elem}, {self.rank}, {self.layout})"


@dataclass(frozen=True)
class TupT:
    items: tuple

    def __str__(self):
        return "tuple(" + ", ".join(str(t) for t in self.items) + ")"


def mlir_type(t):
    return t.mlir() if isinstance(t, ArrT) else t


def kind(elem):
    """0 bool, 1 int, 2 float"""
    return {"i1": 0, "i32": 1, "i64": 1, "f32": 2, "f64": 2}[elem]


def bits(elem):
    return {"i1": 1, "i32": 32, "i64": 64, "f32": 32, "f64": 64}[elem]


def promote_strong(a, b):
    """NumPy promotion of two typed (non-weak) element types."""
    if a == b:
        return a
    ka, kb = kind(a), kind(b)
    if ka == kb:
        return a if bits(a) >= bits(b) else b
    if ka == 0:
        return b
    if kb == 0:
        return a
    # int with float
    f, i = (a, b) if ka == 2 else (b, a)
    if f == "f64":
        return "f64"
    return "f64"  # f32 with any int promotes to f64 in NumPy


def promote_weak(strong, weak):
    """`strong` typed, `weak` a Python scalar's kind-default type."""
    if kind(weak) <= kind(strong):
        return strong
    return "f64" if kind(weak) == 2 else "i64"


def describe_value(x):
    if isinstance(x, np.ndarray):
        return f"ndarray[{x.dtype}, ndim={x.ndim}]"
    return type(x).__name__


def arg_type(x):
    """Frontend type of a Python argument, or raise TypeError."""
    if isinstance(x, np.ndarray):
        elem = NP_TO_ELEM.get(x.dtype)
        if elem is None:
            raise TypeError(f"vrir: unsupported array dtype {x.dtype} "
                            "(supported: float64, float32, int64, int32, bool)")
        if x.ndim == 0:
            raise TypeError("vrir: 0-dimensional arrays are not supported; pass a scalar")
        if not x.dtype.isnative:
            raise TypeError("vrir: byte-swapped arrays are not supported")
        if any(s % x.itemsize for s in x.strides):
            raise TypeError("vrir: array strides must be multiples of the element size")
        if x.flags.c_contiguous:
            layout = "row_major"
        elif x.flags.f_contiguous:
            layout = "col_major"
        else:
            layout = "strided"
        return ArrT(elem, x.ndim, layout)
    if isinstance(x, (bool, np.bool_)):
        return "i1"
    if isinstance(x, int) and not isinstance(x, np.generic):
        if not -(2**63) <= x < 2**63:
            raise TypeError(f"vrir: integer argument {x} does not fit in int64")
        return "i64"
    if isinstance(x, float):
        return "f64"
    if isinstance(x, np.generic):
        elem = NP_TO_ELEM.get(x.dtype)
        if elem is None:
            raise TypeError(f"vrir: unsupported scalar type {x.dtype}")
        return elem
    raise TypeError(f"vrir: unsupported argument type {describe_value(x)} "
                    "(expected a NumPy array, int, float, bool or NumPy scalar)")
