"""NumPy functions and array methods written as Python templates that the
frontend compiles in place (Calls.inline): element-wise predicates
(isnan, isinf, isfinite), logical reductions (any, all, count_nonzero),
differences, rounding, diagonals and triangles, small products (cross,
inner, vdot, kron), averages, tiling and stacking, and the NaN-ignoring
reductions. A `call_np_<name>` method handles np.<name>(...), a
`method_<name>` method the array method A.<name>(...)."""


class NumPyLibrary:
    """NumPy functions compiled from templates."""
