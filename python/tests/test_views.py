"""Views: .T, np.transpose, reshape and np.newaxis / None in subscripts,
compared with NumPy in C, F and strided layouts, writes through views
included. Each function runs compiled and as plain Python on separately
built inputs of the same layout (NumPy's copy-or-view choice of reshape
depends on the layout)."""
import numpy as np
import pytest

import vrir
from conftest import variants1, variants2
from helpers import assert_same

LAYOUTS2 = ["C", "F", "strided", "negstrided"]
LAYOUTS1 = ["C", "strided", "negstrided"]
M = np.arange(1.0, 13.0).reshape(3, 4) / 7.0
V = np.arange(1.0, 7.0) / 3.0


def check_layout(jf, make_args):
    """Runs `jf` compiled and in Python on fresh arguments from
    `make_args()`, compares the results and the arguments afterwards."""
    args, py_args = make_args(), make_args()
    got = jf(*args)
    want = jf.py_func(*py_args)
    assert_same(got, want)
    for x, y in zip(args, py_args):
        if isinstance(x, np.ndarray):
            np.testing.assert_array_equal(x, y)


@vrir.jit
def transposes(A):
    return A.T, np.transpose(A), A.transpose(), A.transpose(1, 0), \
        A.transpose((1, 0)), np.transpose(A, (1, 0)), A.T.T, A.T[1, 2]


@pytest.mark.parametrize("layout", LAYOUTS2)
def test_transposes(layout):
    check_layout(transposes, lambda: [variants2(M)[layout]])


@vrir.jit
def write_through_transpose(A, x):
    A.T[0, 1] = x
    B = A.T
    B[1:, 0] = -x
    np.transpose(A)[3] += 1.0
    C = A.transpose()
    C[2, 2] *= 2.0
    return B.sum()


@pytest.mark.parametrize("layout", LAYOUTS2)
def test_write_through_transpose(layout):
    check_layout(write_through_transpose, lambda: [variants2(M)[layout], 5.0])


@vrir.jit
def permute3(T, x):
    P = T.transpose(2, 0, 1)
    P[1] = x
    Q = np.transpose(T, (1, 0, 2))
    Q[0, 1, 2] = -x
    return P, Q, T.transpose((0, 2, 1)), np.transpose(T, axes=(-1, 0, 1)), T.T


@pytest.mark.parametrize("layout", ["C", "F", "strided"])
def test_permute3(layout):
    def make():
        T = np.arange(24.0).reshape(2, 3, 4)
        if layout == "F":
            T = np.asfortranarray(T)
        elif layout == "strided":
            big = np.zeros((4, 3, 8))
            big[::2, :, ::2] = T
            T = big[::2, :, ::2]
        return [T, 9.0]
    check_layout(permute3, make)


@vrir.jit
def reshapes(A, n):
    return (A.reshape(-1), A.reshape(2, 6), A.reshape((4, -1)),
            np.reshape(A, (6, 2)), np.reshape(A, -1), A.reshape(n, 12 // n),
            A.reshape(2, 3, 2, order="C"))


@pytest.mark.parametrize("layout", LAYOUTS2)
def test_reshapes(layout):
    check_layout(reshapes, lambda: [variants2(M)[layout], 3])


@vrir.jit
def write_through_reshape(A, x):
    # Merging all dimensions: a view of C arrays (and of contiguous views),
    # a copy of F and strided ones, in NumPy and in VRIR alike.
    F = A.reshape(-1)
    F[5] = x
    G = A.reshape(2, 6)
    G[1, :3] = -x
    return F[0] + G[0, 0]


@pytest.mark.parametrize("layout", LAYOUTS2)
def test_write_through_reshape(layout):
    check_layout(write_through_reshape, lambda: [variants2(M)[layout], 4.0])


@vrir.jit
def reshape_vector(v, x):
    # Splitting one dimension is a view of any 1-D array (stepped, reversed).
    R = v.reshape(2, 3)
    R[1, 0] = x
    S = v[::-1].reshape(3, -1)
    S[0, 1] = -x
    W = v[::2].reshape(3, 1)
    W[2, 0] = 2 * x
    return R, S, W


@pytest.mark.parametrize("layout", LAYOUTS1)
def test_reshape_vector(layout):
    check_layout(reshape_vector, lambda: [variants1(V)[layout], 8.0])


@vrir.jit
def rows_reshape(A, x):
    R = A[1:3].reshape(-1)   # contiguous rows of a C array: a view
    R[0] = x
    return R


def test_rows_reshape_view():
    check_layout(rows_reshape, lambda: [M.copy(), 3.5])


@vrir.jit
def reshape_sizes(v, m, n):
    return v.reshape(m, n)


def test_reshape_errors():
    v = np.arange(6.0)
    np.testing.assert_array_equal(reshape_sizes(v, -1, 2), v.reshape(-1, 2))
    with pytest.raises(ValueError, match="the new sizes do not hold as many elements"):
        reshape_sizes(v, 4, 2)
    with pytest.raises(ValueError, match="only one size can be -1"):
        reshape_sizes(v, -1, -1)
    # NumPy takes any negative size as the unknown one (fuzzer case
    # s11_01407: reshape(3, ~1) was a compile failure).
    np.testing.assert_array_equal(reshape_sizes(v, 3, -2), v.reshape(3, -2))
    with pytest.raises(ValueError, match="only one size can be -1"):
        reshape_sizes(v, -3, -2)


@vrir.jit
def reshape_two_unknowns(v):
    return v.reshape(-1, -1)


@vrir.jit
def reshape_fortran(v):
    return v.reshape(2, 3, order="F")


def test_reshape_compile_errors():
    with pytest.raises(vrir.CompileError, match="one unknown dimension"):
        reshape_two_unknowns(np.arange(6.0))
    with pytest.raises(vrir.CompileError, match="order='C' only"):
        reshape_fortran(np.arange(6.0))


@vrir.jit
def pairwise(X):
    return X[:, None, :] - X[None, :, :]


@pytest.mark.parametrize("layout", LAYOUTS2)
def test_pairwise_differences(layout):
    X = np.random.default_rng(0).random((5, 3))
    check_layout(pairwise, lambda: [variants2(X)[layout]])


@vrir.jit
def newaxes(A, v, i):
    return (v[:, np.newaxis], v[None, :], v[np.newaxis], v[None, 1:4, None],
            A[None], A[:, None], A[i, None], A[None, i, 1:], A[1:, None, ::-1],
            A[:, :, None].shape[2], np.expand_dims(v, 0), np.expand_dims(A, (0, -1)),
            v[:, None] * v[None, :])


@pytest.mark.parametrize("layout", LAYOUTS2)
def test_newaxis(layout):
    check_layout(newaxes, lambda: [variants2(M)[layout], V.copy(), 1])


@vrir.jit
def write_through_newaxis(A, v, x):
    c = v[:, None]
    c[1, 0] = x
    A[None, 1] = -x          # assignment through a view with a new axis
    A[:, None, 2] += 1.0
    v[None, ::2] = 0.5
    return c


@pytest.mark.parametrize("layout", LAYOUTS2)
def test_write_through_newaxis(layout):
    check_layout(write_through_newaxis,
                 lambda: [variants2(M)[layout], V.copy(), 6.0])


@vrir.jit
def newaxis_scalar(A):
    return A[0, 0, None]


def test_newaxis_scalar_unsupported():
    with pytest.raises(vrir.CompileError, match="0-d view"):
        newaxis_scalar(M.copy())


@vrir.jit
def outer_via_views(u, v):
    return u.reshape(-1, 1) @ v.reshape(1, -1) + u[:, None] * v.T[None, :]


def test_outer_via_views():
    check_layout(outer_via_views, lambda: [V.copy(), V[::-1].copy()])


# The parts of complex arrays: NumPy's .real / .imag / np.real / np.imag of a
# complex array are views of it (writes either way are seen both ways).

Z = (np.arange(1.0, 13.0) + 1j * np.arange(13.0, 1.0, -1.0)).reshape(3, 4) / 5.0


@vrir.jit
def part_views(Z, w):
    re, im = Z.real, np.imag(Z)
    Z[1, 2] = w              # seen by re and im
    im[0, :] = -1.0          # writes Z's imaginary parts
    np.real(Z)[2, 0] = 9.0
    return re.sum() + 2 * im.sum(), re[1, 2], im[1, 2], re.copy()


@pytest.mark.parametrize("layout", LAYOUTS2)
def test_complex_part_views(layout):
    check_layout(part_views, lambda: [variants2(Z)[layout], 7.0 - 3.0j])


@vrir.jit
def part_assignments(Z, v, x):
    Z.real = v               # broadcast over the rows
    Z.imag[1] = x
    Z.imag += 0.5
    Z.real *= 2.0
    x.real = x + 1.0         # a real array's .real is the array
    return Z


@pytest.mark.parametrize("layout", LAYOUTS2)
def test_assignments_to_complex_parts(layout):
    check_layout(part_assignments,
                 lambda: [variants2(Z)[layout], np.arange(4.0), np.arange(4.0) / 3])


@vrir.jit
def parts_of_temporary(Z):
    W = Z * Z
    im = W.imag
    W[0, 0] = 100.0j
    return im, W.real[1:, ::2]


def test_parts_of_a_temporary():
    check_layout(parts_of_temporary, lambda: [Z.copy()])


@vrir.jit
def parts_f32(z):
    im = z.imag
    im[::2] = 3.0
    return z, z.real * z.imag


def test_complex64_parts():
    z = (np.arange(6.0) - 2j * np.arange(6.0)).astype(np.complex64)
    check_layout(parts_f32, lambda: [z.copy()])
    got, _ = parts_f32(z.copy())
    assert got.dtype == np.complex64


def test_complex_part_assignment_errors():
    def imag_of_real(x):
        x.imag = 1.0

    def complex_into_real_part(Z):
        Z.real += 1j

    def other_attribute(Z):
        Z.shape = (4, 3)

    for f, message in [(imag_of_real, "does not have imaginary part"),
                       (complex_into_real_part, "cannot update a f64 array in place"),
                       (other_attribute, "assignment to attribute 'shape'")]:
        with pytest.raises(vrir.CompileError, match=message):
            vrir.jit(f)(Z.copy().real.copy() if f is imag_of_real else Z.copy())


@vrir.jit
def temporary_with_its_views(A, Z, swap):
    W = A * 2.0
    P = Z * 1j
    B, C = A + 1.0, A - 1.0
    for _ in range(swap):
        B, C = C, B
    return W, W.T, W, P, P.imag, B, C


def test_returned_temporary_with_its_views():
    # Results sharing a buffer come back as views of one array, as NumPy's.
    A = np.arange(6.0).reshape(2, 3)
    Z = A + 2j
    for swap in (0, 1, 2):
        got = temporary_with_its_views(A, Z, swap)
        assert_same(got, temporary_with_its_views.py_func(A, Z, swap))
        W, WT, W2, P, Pim = got[:5]
        W[0, 1] = -5.0
        assert WT[1, 0] == -5.0 and W2[0, 1] == -5.0
        P.imag[1, 2] = 7.0
        assert Pim[1, 2] == 7.0


@vrir.jit
def prange_writes_through_views(A, Z):
    n = A.shape[0]
    for i in vrir.prange(n):
        A.T[0, i] = 2.0 * i      # was refused: "not in its 'shared' list"
        Z.imag[i] = Z.real[i] * 3.0
    return A, Z


def test_prange_writes_through_views():
    check_layout(prange_writes_through_views,
                 lambda: [np.ones((5, 2)), np.arange(5.0) + 1j])


@vrir.jit
def reshape_negative_constant(v):
    return v[::-2].reshape(3, ~1)


def test_reshape_to_a_negative_constant_size():
    # Case s11_01407: ~1 (-2) folded into the view's static sizes and
    # failed to compile; NumPy takes it as the unknown size.
    v = np.arange(6.0)
    np.testing.assert_array_equal(reshape_negative_constant(v), v[::-2].reshape(3, -2))


@vrir.jit
def returned_views(A, B, k):
    return A[1:], B.T, A[::-1], B[k], A


def _returned_views_check(layout1, layout2):
    A, B = variants1(V)[layout1], variants2(M)[layout2]
    a_view, b_view, a_reversed, b_row, a_itself = returned_views(A, B, 1)
    want = returned_views.py_func(A.copy(), B.copy(), 1)
    for got, expected in zip((a_view, b_view, a_reversed, b_row, a_itself), want):
        np.testing.assert_array_equal(got, expected)
    # As in NumPy: views of the arguments, and the argument itself.
    assert a_itself is A
    for got, numpy_view, base in ((a_view, A[1:], A), (b_view, B.T, B),
                                  (a_reversed, A[::-1], A), (b_row, B[1], B)):
        assert np.shares_memory(got, base)
        assert got.strides == numpy_view.strides
        assert got.ctypes.data == numpy_view.ctypes.data
    a_view[0] = 100.0
    b_view[2, 1] = -7.0
    assert A[1] == 100.0 and B[1, 2] == -7.0


@pytest.mark.parametrize("layout1", LAYOUTS1)
@pytest.mark.parametrize("layout2", ["C", "F", "negstrided"])
def test_returned_views_of_arguments(layout1, layout2):
    _returned_views_check(layout1, layout2)


def test_returned_view_keeps_its_argument_alive():
    import gc
    tail = returned_views(np.arange(6.0), np.ones((2, 3)), 0)[0]
    gc.collect()
    np.testing.assert_array_equal(tail, [1.0, 2.0, 3.0, 4.0, 5.0])
    read_only = np.arange(4.0)
    read_only.flags.writeable = False
    view = returned_views(read_only, np.ones((2, 3)), 0)[0]
    assert not view.flags.writeable


@vrir.jit
def returns_itself(A):
    A[0] = -1.0
    return A


@vrir.jit
def returns_its_tail(A):
    return A[1:]


@vrir.jit
def returns_its_transpose(B):
    return B.T


@vrir.jit
def returns_its_row(B, k):
    return B[k]


@pytest.mark.parametrize("layout1", LAYOUTS1)
@pytest.mark.parametrize("layout2", ["C", "F", "negstrided"])
def test_single_returned_view_of_an_argument(layout1, layout2):
    # One array result, built by the C caller (no context block for the
    # Python side): the argument itself, or a view of it, as in NumPy.
    import gc
    A, B = variants1(V)[layout1], variants2(M)[layout2]
    assert returns_itself(A) is A and A[0] == -1.0
    for got, want in ((returns_its_tail(A), A[1:]), (returns_its_transpose(B), B.T),
                      (returns_its_row(B, -2), B[-2])):
        assert got.base is want.base  # NumPy's: the array owning the memory
        assert got.shape == want.shape and got.strides == want.strides
        assert got.ctypes.data == want.ctypes.data and got.flags.writeable
    returns_its_row(B, 0)[1] = 42.0
    assert B[0, 1] == 42.0
    tail = returns_its_tail(np.arange(4.0))
    gc.collect()
    np.testing.assert_array_equal(tail, [1.0, 2.0, 3.0])
    read_only = np.arange(4.0)
    read_only.flags.writeable = False
    assert not returns_its_tail(read_only).flags.writeable


@vrir.jit
def view_or_new(A, c):
    if c:
        return A[1:]
    return np.zeros(3)


def test_view_on_some_paths_is_a_copy():
    # The kernel cannot know which it returns: that result stays a copy.
    A = np.arange(4.0)
    r = view_or_new(A, True)
    np.testing.assert_array_equal(r, [1.0, 2.0, 3.0])
    assert not np.shares_memory(r, A)
    np.testing.assert_array_equal(view_or_new(A, False), np.zeros(3))


# ------------------------------------------------------------ Ellipsis
T3 = np.arange(24.0).reshape(2, 3, 4) / 5.0


@vrir.jit
def ellipsis_reads(A, T):
    return (A[..., 0], A[0, ...], A[...], A[..., None, 1], T[..., 2],
            T[1, ..., 3], T[:, ..., ::-1], T[..., 1, :], A[1, ..., 2:])


@vrir.jit
def ellipsis_writes(A, T, x):
    A[..., 1] = x
    T[0, ...] = T[1, ...] * 2.0
    T[..., -1] += 1.0


@vrir.jit
def ellipsis_fill(A):
    A[...] = 3.0


@pytest.mark.parametrize("layout", LAYOUTS2)
@pytest.mark.parametrize("order", ["C", "F"])
def test_ellipsis(layout, order):
    # `...` stands for the bare `:`s of the dimensions the other indices
    # leave, as in NumPy; writes go through the views.
    def args():
        return variants2(M)[layout], np.asarray(T3, order=order).copy(order=order)
    check_layout(ellipsis_reads, args)
    check_layout(ellipsis_writes, lambda: args() + (7.5,))
    check_layout(ellipsis_fill, lambda: (variants2(M)[layout],))


def two_ellipses(A):
    return A[..., 0, ...]


def ellipsis_too_many(A):
    return A[0, 1, ..., 2]


@pytest.mark.parametrize("fn,message", [
    (two_ellipses, "an index can only have a single ellipsis ('...')"),
    (ellipsis_too_many, "too many indices for a 2-dimensional array"),
])
def test_bad_ellipsis(fn, message):
    with pytest.raises(vrir.CompileError) as info:
        vrir.jit(fn)(M)
    assert message in str(info.value)
    assert f"{__file__}:{fn.__code__.co_firstlineno + 1}" in str(info.value)
