"""The compile-time values the emitter computes with (V: an SSA value of a
scalar or array, a tuple, or a module, function or dtype known while
compiling), and Restart, which starts a function's emission again when type
inference widens a variable or a return type."""
from ..types import ArrT, SCALARS


class Restart(Exception):
    """Type inference widened a variable's or a return's type: the function
    is emitted again with the wider type."""


class V:
    """A compile-time value: a runtime SSA value (scalar/array), a tuple,
    or a reference to a module/function/dtype."""

    __slots__ = ("ty", "ssa", "const", "items", "kind", "obj", "weak")

    def __init__(self, ty=None, ssa=None, const=None, items=None, kind=None,
                 obj=None, weak=False):
        self.ty, self.ssa, self.const, self.items = ty, ssa, const, items
        self.kind, self.obj, self.weak = kind, obj, weak

    @property
    def is_array(self):
        return isinstance(self.ty, ArrT)

    @property
    def is_scalar(self):
        return self.kind is None and self.ty in SCALARS


# V.items of the dtype of an array (A.dtype, not callable) as opposed to a
# scalar type (np.float64, A.dtype.type)
DTYPE_OBJECT = ("dtype object",)
# V.items of Python's own bool, int, float and complex: called on an array
# they take its single element (NumPy's size-1 conversion), not cast it
BUILTIN_TYPE = ("builtin type",)


# What literal_value returns for an argument that is not a constant.
NOT_CONSTANT = object()


def literal_value(v):
    """The Python value of a constant argument (a number, a string, None;
    also a missing one, v None), else NOT_CONSTANT."""
    if v is None or v.kind == "none":
        return None
    if v.kind == "str":
        return v.obj
    if v.is_scalar and v.const is not None:
        return v.const
    return NOT_CONSTANT
