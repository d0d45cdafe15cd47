"""The NumPy functions of frontend/library.py (templates compiled in place)
against NumPy on every layout: predicates, logical reductions, diff,
round, diagonals and triangles, small products, averages and NaN-ignoring
reductions, shapes, tiling and stacking, np.array of literal lists,
np.take, np.convolve, element-wise functions, np.trapezoid, np.polyval,
np.nan_to_num, np.digitize, np.where of a condition, triangle and diagonal
indices (also as an index tuple); NumPy's errors and
CompileErrors for what is not supported."""
import numpy as np
import pytest

import vrir

from helpers import check

RNG = np.random.default_rng(31)
A = RNG.random(8) - 0.3
A[2], A[5] = np.nan, np.inf
B = RNG.random(8)
M = RNG.random((3, 4))
S = RNG.random((4, 4))
I = RNG.integers(-3, 4, (3, 4))


@vrir.jit
def predicates(a, m, i):
    return (np.isnan(a), np.isinf(a), np.isfinite(a), np.isnan(a[2]), np.isfinite(i),
            np.isclose(a, a + 1e-9), np.isclose(a, a, equal_nan=True),
            np.allclose(m, m + 1e-9), np.array_equal(m, m), np.array_equal(m, m[:2]),
            np.array_equal(a, m), np.array_equal(a, a, equal_nan=True))


def test_predicates(layout1, layout2):
    check(predicates, layout1(A), layout2(M), layout2(I))


@vrir.jit
def logical(m, i):
    return (np.any(m > 0.5), np.all(m > 0), np.any(i > 0, axis=0),
            np.all(i > -5, axis=1, keepdims=True), np.count_nonzero(i),
            np.count_nonzero(i, axis=1), (m > 2).any(), (i > 0).all(axis=0))


def test_logical(layout2):
    check(logical, layout2(M), layout2(I))


@vrir.jit
def differences_and_rounding(b, m, i):
    return (np.diff(b), np.diff(m, 2, axis=1), np.diff(m, axis=0), np.diff(m > 0.5),
            np.diff(m, 0), np.round(m, 2), np.around(b), np.round(m * 1000, -2),
            np.round(i), m.round(1), np.round(2.567, 1))


def test_differences_and_rounding(layout1, layout2):
    check(differences_and_rounding, layout1(B), layout2(M), layout2(I))


@vrir.jit
def diagonals(v, m, s, i, k):
    return (np.diag(v), np.diag(v, 1), np.diag(v, k=-2), np.diag(m), np.diag(m, k),
            np.diag(m, -1), m.diagonal(), np.trace(s), np.trace(i), s.trace(1),
            np.tril(m), np.tril(m, 1), np.triu(m), np.triu(m, -1), np.tril(i, k))


@pytest.mark.parametrize("k", [0, 2, -1, 9])
def test_diagonals(layout1, layout2, k):
    check(diagonals, layout1(B[:3]), layout2(M), layout2(S), layout2(I), k)


@vrir.jit
def products(u, w, a, m, s):
    return (np.cross(u, w), np.inner(a, a), np.inner(m, m), np.vdot(m, m), np.kron(u, w),
            np.kron(s[:2, :2], m), a.dot(a), m.dot(a[:4]), m.dot(2.0))


def test_products(layout1, layout2):
    check(products, layout1(B[:3]), layout1(A[-3:] * 0 + B[3:6]), layout1(B), layout2(M),
          layout2(S))


@vrir.jit
def cross_length(u):
    return np.cross(u, u)


def test_cross_needs_three_components():
    with pytest.raises(ValueError, match="3 components"):
        cross_length(B[:4])


@vrir.jit
def averages(a, m, i):
    clean = np.where(np.isinf(a), 0.0, a)
    return (np.average(m), np.average(m, axis=1), np.average(m, axis=0, weights=m),
            np.ptp(m), np.ptp(m, axis=0), np.nansum(clean), np.nanmax(a), np.nanmin(a),
            np.nanmean(clean), np.nanprod(m), np.nansum(i, axis=0),
            np.nanmax(np.where(m > 0.5, np.nan, m), axis=0), np.nanmean(m, axis=1))


def test_averages(layout1, layout2):
    check(averages, layout1(A), layout2(M), layout2(I))


def test_all_nan_slices_are_nan():
    got = averages(A, np.full((3, 4), np.nan), I)
    assert np.isnan(got[0]) and np.isnan(got[12]).all()


@vrir.jit
def shapes(m, t):
    return (np.ravel(m.T), m.T.ravel(), m.T.flatten(), np.squeeze(m[None, :, 1:2], axis=(0, 2)),
            m[:, None].squeeze(1), np.swapaxes(m, 0, 1), m.swapaxes(1, 0),
            np.moveaxis(t, 0, -1), np.moveaxis(t, -1, 0))


def test_shapes(layout2):
    check(shapes, layout2(M), RNG.random((2, 3, 4)))


@vrir.jit
def squeeze_wrong(m):
    return np.squeeze(m, axis=0)


@vrir.jit
def squeeze_all(m):
    return np.squeeze(m)


def test_squeeze_errors():
    with pytest.raises(ValueError, match="size not equal to one"):
        squeeze_wrong(M)
    with pytest.raises(vrir.CompileError, match="without axis= is not supported"):
        squeeze_all(M)


@vrir.jit
def tiling(b, m, i, n):
    return (np.tile(b, 3), np.tile(m, (2, 3)), np.tile(m, 2), np.tile(b, n),
            np.repeat(b, 2), np.repeat(m, 2, axis=0), np.repeat(i, 3, axis=1), b.repeat(n),
            np.hstack((b, b)), np.hstack((m, m)), np.vstack((b, b)), np.vstack((m, m[:1])),
            np.row_stack((b, b)), np.column_stack((b, b)), np.append(b, b), np.append(b, 2.0),
            np.append(m, m, axis=0))


@pytest.mark.parametrize("n", [0, 2])
def test_tiling(layout1, layout2, n):
    check(tiling, layout1(B), layout2(M), layout2(I), n)


@vrir.jit
def tile_negative(b, n):
    return np.tile(b, n)


def test_tile_negative():
    with pytest.raises(ValueError, match="negative dimensions"):
        tile_negative(B, -1)


@vrir.jit
def literals(b, m):
    return (np.array([1.0, 2.0, 3.0]), np.array([1, 2, 3]), np.array([[1, 2], [3, 4.5]]),
            np.array([1, 2], dtype=np.float32), np.array(m), np.asarray(m),
            np.array([b[0], b[1] * 2]), np.array((True, False)), np.array(m, dtype=np.int64))


def test_literals(layout1, layout2):
    got = check(literals, layout1(B), layout2(M))
    assert got[4] is not M


@vrir.jit
def ragged():
    return np.array([[1.0, 2.0], [3.0]])


@vrir.jit
def zero_dimensional(x):
    return np.array(x)


def test_literals_refused():
    with pytest.raises(vrir.CompileError, match="ragged"):
        ragged()
    with pytest.raises(vrir.CompileError, match="0-dimensional"):
        zero_dimensional(1.0)


@vrir.jit
def taking(b, m, idx):
    return np.take(b, idx), np.take(m, idx[:2], axis=1), m.take(idx), np.take(m, idx, axis=0)


def test_take(layout1, layout2):
    check(taking, layout1(B), layout2(M), np.array([1, -1, 2]))


def test_take_out_of_bounds():
    with pytest.raises(IndexError):
        taking(B, M, np.array([1, 9, 2]))


@vrir.jit
def convolutions(b, u, i):
    return (np.convolve(b, u), np.convolve(u, b, mode="same"), np.convolve(b, u, "valid"),
            np.convolve(u, b, "valid"), np.convolve(i[0], i[1]), np.convolve(b, b[:1]))


def test_convolve(layout1):
    check(convolutions, layout1(B), layout1(B[:3] + 1), I)


@vrir.jit
def convolve_empty(b):
    return np.convolve(b, b[:0])


def test_convolve_empty():
    with pytest.raises(ValueError, match="cannot be empty"):
        convolve_empty(B)


@vrir.jit
def elementwise(a, b, m):
    return (np.square(m), np.exp2(b), np.deg2rad(b), np.radians(m), np.rad2deg(b),
            np.degrees(m), np.sinc(np.array([0.0, 0.5, 1.0, -2.5])), np.fmax(a, b),
            np.fmin(b, a), np.logspace(0, 2, 5), np.logspace(0, 2, 4, base=2.0, endpoint=False),
            np.square(3))


def test_elementwise(layout1, layout2):
    check(elementwise, layout1(A), layout1(B), layout2(M))


@vrir.jit
def round_complex(z):
    return np.round(z)


@vrir.jit
def inner_3d(t):
    return np.inner(t, t)


def test_refused():
    with pytest.raises(vrir.CompileError, match="np.round of complex numbers"):
        round_complex(np.ones(2) * 1j)
    with pytest.raises(vrir.CompileError, match="more than 2 dimensions"):
        inner_3d(np.ones((2, 2, 2)))


@vrir.jit
def covariances(x, y, m):
    return (np.cov(x), np.cov(m), np.cov(x, y), np.cov(m, rowvar=False), np.cov(m, bias=True),
            np.cov(m, ddof=0), np.corrcoef(m), np.corrcoef(x, y), np.corrcoef(x),
            np.cov(m > 0.5))


def test_covariances(layout1, layout2):
    x, y = B, B[::-1] * B
    got = covariances(layout1(x), layout1(y), layout2(M))
    want = covariances.py_func(x, y, M)
    for k, (g, w) in enumerate(zip(got, want)):
        if w.ndim == 0:  # NumPy's 0-d array of one variable is a float here
            assert isinstance(g, float), k
        else:
            assert g.shape == w.shape and g.dtype == w.dtype, k
        np.testing.assert_allclose(g, w, rtol=1e-12)


def test_covariance_of_one_row():
    with pytest.raises(ValueError, match="0-d array in NumPy"):
        covariances(B, B, M[:1])


@vrir.jit
def integrals_and_polynomials(y, x, m, mx, p, i):
    return (np.trapezoid(y), np.trapezoid(y, x), np.trapezoid(m, dx=0.5),
            np.trapezoid(m, x[:3], axis=0), np.trapezoid(m, mx, axis=1),
            np.polyval(p, x), np.polyval(p, 2.5), np.polyval(i[0], i[1]),
            np.polyval(p, m))


def test_integrals_and_polynomials(layout1, layout2):
    x = np.sort(B)
    check(integrals_and_polynomials, layout1(A[:6] * 0 + B[:6]), layout1(x[:6]), layout2(M),
          layout2(np.cumsum(M, axis=1)), layout1(B[:4]), layout2(I))


@vrir.jit
def cleaned(a, a32, i, nan, big):
    return (np.nan_to_num(a), np.nan_to_num(a32), np.nan_to_num(a, nan=nan, posinf=big),
            np.nan_to_num(a, neginf=-big), np.nan_to_num(i), np.nan_to_num(a[5]))


def test_nan_to_num(layout1, layout2):
    a = np.array([1.0, np.nan, np.inf, -np.inf, -2.0, np.nan, 0.5])
    check(cleaned, layout1(a), layout1(a.astype(np.float32)), layout2(I), -1.0, 9.0)


@vrir.jit
def binned(x, up, down, m):
    return (np.digitize(x, up), np.digitize(x, up, right=True), np.digitize(x, down),
            np.digitize(x, down, right=True), np.digitize(0.35, up), np.digitize(m, up),
            np.where(x > 0.5)[0], np.where(m > 0.5)[1])


def test_digitize_and_where(layout1, layout2):
    up = np.array([0.1, 0.3, 0.3, 0.8])
    x = np.concatenate([B, up, [np.nan]])
    check(binned, layout1(x), layout1(up), layout1(up[::-1].copy()), layout2(M))


def test_digitize_of_unordered_bins():
    with pytest.raises(ValueError, match="bins must be monotonically increasing or decreasing"):
        binned(B, np.array([0.1, 0.5, 0.2]), np.array([0.5, 0.1]), M)


@vrir.jit
def where_of_two(a):
    return np.where(a > 0, a)


@vrir.jit
def nan_to_num_complex(z):
    return np.nan_to_num(z)


@vrir.jit
def polyval_of_a_matrix(m, x):
    return np.polyval(m, x)


@pytest.mark.parametrize("fn,args,message", [
    (where_of_two, (B,), "np.where takes the condition alone, or with both x and y"),
    (nan_to_num_complex, (B * 1j,), "np.nan_to_num of complex numbers is not supported"),
    (polyval_of_a_matrix, (M, 1.0), "np.polyval: p must be a 1-D array of coefficients"),
])
def test_new_functions_refused(fn, args, message):
    with pytest.raises(vrir.CompileError, match=message) as info:
        fn(*args)
    assert f"{__file__}:{fn.py_func.__code__.co_firstlineno + 2}" in str(info.value)


@vrir.jit
def triangle_indices(a, n, k):
    r, c = np.triu_indices(n, k)
    upper = np.triu_indices(a.shape[0])
    return (r, c, np.tril_indices(n)[0], np.tril_indices(n, -1, 5)[1], a[upper],
            a[np.tril_indices(a.shape[0], 1)], np.diag_indices(n)[1])


@vrir.jit
def through_index_tuples(a):
    a[np.tril_indices(a.shape[0], -1)] = 0.0
    a[np.diag_indices(a.shape[0])] += 1.0
    return a


def test_triangle_and_diagonal_indices(layout2):
    check(triangle_indices, layout2(S), 4, 1)
    check(triangle_indices, layout2(S), 3, -2)
    check(through_index_tuples, layout2(S))
