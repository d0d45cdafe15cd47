"""Sorting and searching (frontend/sorting.py) against NumPy on every
layout: np.sort, np.argsort (stable), A.sort(), A.argsort(), with ties, NaN,
bool and integer arrays and empty arrays; CompileErrors naming the line for
what is refused."""
import numpy as np
import pytest

import vrir

from conftest import variants1, variants2

# Every layout for float64; C and one other layout, in turn, for the other
# dtypes (each dtype and layout is a compile, and a view reaches the sort
# through the same copy whatever its dtype).
FULL = (np.float64,)


def cases(dtypes, ndim):
    every = ["C", "strided", "negstrided"] + (["F"] if ndim == 2 else [])
    out = []
    for k, dt in enumerate(dtypes):
        layouts = every if dt in FULL else ["C", every[1 + k % (len(every) - 1)]]
        out += [(dt, layout) for layout in layouts]
    return out


def lay(a, name):
    return (variants1 if a.ndim == 1 else variants2)(a)[name]

RNG = np.random.default_rng(41)
DTYPES = [np.float64, np.float32, np.int64, np.int32, np.bool_]


def data(shape, dt, nan=True):
    a = RNG.integers(0, 6, shape).astype(dt)
    if np.issubdtype(dt, np.floating):
        a = a + RNG.random(shape).astype(dt) * (RNG.random(shape) < 0.5)
        if nan and a.size:
            a.reshape(-1)[RNG.choice(a.size, max(1, a.size // 8), replace=False)] = np.nan
    return a


def assert_nan_equal(got, want):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            assert_nan_equal(g, w)
        return
    if isinstance(want, np.ndarray):
        assert isinstance(got, np.ndarray)
        assert got.shape == want.shape and got.dtype == want.dtype, \
            (got.shape, want.shape, got.dtype, want.dtype)
    else:
        assert np.asarray(got).dtype == np.asarray(want).dtype, (type(got), type(want))
    np.testing.assert_array_equal(got, want)


def compare(jf, *args):
    a2 = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    got = jf(*args)
    want = jf.py_func(*a2)
    assert_nan_equal(got, want)
    for x, y in zip(args, a2):
        if isinstance(x, np.ndarray):
            np.testing.assert_array_equal(x, y)
    return got


# ------------------------------------------------------------ sort, argsort
@vrir.jit
def sorts1(a):
    return (np.sort(a), np.sort(a, axis=None), np.sort(a, 0), np.argsort(a, kind="stable"),
            np.argsort(a, axis=None, kind="stable"), a.argsort(kind="stable"))


@vrir.jit
def sorts2(a):
    return (np.sort(a), np.sort(a, axis=0), np.sort(a, axis=None), np.sort(a, -2),
            np.argsort(a, kind="stable"), np.argsort(a, axis=0, kind="stable"),
            np.argsort(a, axis=None, kind="stable"), a.argsort(axis=0, kind="stable"))


@vrir.jit
def sorts3(a):
    return (np.sort(a), np.sort(a, axis=1), np.sort(a, axis=0), np.sort(a, axis=None),
            np.argsort(a, axis=1, kind="stable"), np.argsort(a, axis=0, kind="stable"))


@vrir.jit
def sort_method(a):
    a.sort(axis=0)


@vrir.jit
def sort_method_last(a):
    a.sort(-1)


@vrir.jit
def sort_method_default(a):
    a.sort()


@pytest.mark.parametrize("dt,layout", cases(DTYPES, 1))
@pytest.mark.parametrize("n", [0, 1, 5, 17, 100])
def test_sort_1d(dt, layout, n):
    compare(sorts1, lay(data(n, dt), layout))


@pytest.mark.parametrize("dt,layout", cases(DTYPES, 2))
@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (6, 5), (33, 4)])
def test_sort_2d(dt, layout, shape):
    compare(sorts2, lay(data(shape, dt), layout))


def test_sort_3d():
    a = data((4, 5, 6), np.float64)
    compare(sorts3, a)
    compare(sorts3, np.asfortranarray(a))
    compare(sorts3, a[::-1, ::2, 1:])
    compare(sorts3, data((3, 4, 5), np.int32)[:, ::-1])


@pytest.mark.parametrize("dt,layout", cases(DTYPES, 2))
def test_sort_method(dt, layout):
    a = data((9, 7), dt)
    compare(sort_method, lay(a, layout))
    compare(sort_method_last, lay(a, layout))
    compare(sort_method_default, lay(a, layout))


def test_sort_method_views():
    a = data(40, np.float64)
    b = a.copy()
    compare(sort_method, b[::3])
    compare(sort_method, b[::-1])
    c = a.copy()
    sort_method(c[::-1])
    np.testing.assert_array_equal(c[::-1], np.sort(a[::-1]))


def test_sort_ties_stable():
    a = RNG.integers(0, 3, 1000).astype(np.float64)
    got = sorts1(a)
    np.testing.assert_array_equal(got[3], np.argsort(a, kind="stable"))


def test_sort_large():
    a = RNG.random(100003)
    a[::1001] = np.nan
    compare(sorts1, a)
    compare(sorts1, -a)


def complex_data(shape, dt):
    a = (RNG.integers(0, 3, shape) + 1j * RNG.integers(0, 3, shape)).astype(dt)
    f = a.reshape(-1)
    for v in (complex(np.nan, 1), complex(1, np.nan), complex(np.nan, np.nan),
              complex(np.nan, 2), complex(2, np.nan)):
        f[RNG.choice(f.size, min(f.size, 2), replace=False)] = v
    return a


@pytest.mark.parametrize("dt,layout", [(np.complex128, "C"), (np.complex128, "F"),
                                       (np.complex64, "strided"), (np.complex64, "negstrided")])
def test_sort_complex(dt, layout):
    """NumPy's order: by real, then imaginary part, NaNs last (R + nanj,
    nan + Rj, nan + nanj)."""
    a = complex_data(50, dt)
    got = compare(sorts1, lay(a, layout if layout != "F" else "C"))
    np.testing.assert_array_equal(got[3], np.argsort(a, kind="stable"))
    compare(sorts2, lay(complex_data((9, 8), dt), layout))
    compare(sort_method, lay(complex_data((9, 8), dt), layout))


@vrir.jit
def sort_complex(a):
    return np.unique(a)


@vrir.jit
def sort_bad_axis(a):
    return np.sort(a, axis=2)


@vrir.jit
def sort_bad_kw(a):
    return np.argsort(a, order="x")


@vrir.jit
def sort_scalar(x):
    return np.sort(x)


def test_sort_refused():
    with pytest.raises(vrir.CompileError, match=r"test_sorting.py:\d+: np.unique of a complex"):
        sort_complex(np.zeros(3, complex))
    with pytest.raises(vrir.CompileError, match=r"test_sorting.py:\d+: .*axis 2 is out of bounds"):
        sort_bad_axis(np.zeros((3, 2)))
    with pytest.raises(vrir.CompileError, match="keyword argument 'order'"):
        sort_bad_kw(np.zeros(3))
    with pytest.raises(vrir.CompileError, match="needs an array"):
        sort_scalar(1.5)


# ------------------------------------------------------------ searchsorted
@vrir.jit
def search(a, v, w):
    return (np.searchsorted(a, v), np.searchsorted(a, v, side="right"), np.searchsorted(a, w),
            np.searchsorted(a, w, "right"), np.searchsorted(a, 2))


@pytest.mark.parametrize("dt", [np.float64, np.int64, np.int32, np.float32])
def test_searchsorted(layout1, dt):
    a = np.sort(data(30, dt))
    w = data((4, 5), np.float64)
    for v in (2.0, 0.0, 9.0, np.nan, -1.0):
        compare(search, layout1(a), v, w)
    compare(search, layout1(a), 3.0, np.asfortranarray(w))
    compare(search, layout1(a), 3.0, w[::-1, ::2])
    compare(search, layout1(a[:0]), 3.0, w[:0])


def test_searchsorted_bool():
    a = np.array([False, False, True, True])
    compare(search, a, 1.0, np.array([[0.0, 0.5], [1.0, 2.0]]))


@vrir.jit
def search_sorter(a, s, v, w):
    return np.searchsorted(a, v, sorter=s), np.searchsorted(a, w, "right", s)


def test_searchsorted_sorter(layout1):
    a = data(25, np.float64)
    s = np.argsort(a, kind="stable")
    w = data((3, 4), np.float64)
    for v in (2.0, np.nan, -1.0, 9.0):
        compare(search_sorter, layout1(a), layout1(s), v, w)
    with pytest.raises(ValueError, match="sorter.size must equal a.size"):
        search_sorter(a, s[:3], 1.0, w)


@vrir.jit
def search_side(a):
    return np.searchsorted(a, 1.0, side="middle")


@vrir.jit
def search_2d(a):
    return np.searchsorted(a, 1.0)


def test_searchsorted_refused():
    with pytest.raises(vrir.CompileError, match=r"test_sorting.py:\d+: .*side must be"):
        search_side(np.zeros(3))
    with pytest.raises(vrir.CompileError, match=r"test_sorting.py:\d+: .*1-D array"):
        search_2d(np.zeros((3, 2)))


# ------------------------------------------------------------ nonzero
@vrir.jit
def nonzero1(a):
    (i,) = np.nonzero(a)
    (j,) = a.nonzero()
    return i, j, np.flatnonzero(a), np.argwhere(a)


@vrir.jit
def nonzero2(a):
    i, j = np.nonzero(a)
    p, q = a.nonzero()
    return i, j, p, q, np.flatnonzero(a), np.argwhere(a)


@vrir.jit
def nonzero3(a):
    i, j, k = np.nonzero(a)
    return i, j, k, np.flatnonzero(a), np.argwhere(a)


@pytest.mark.parametrize("dt,layout", cases([np.float64, np.int32, np.bool_, np.complex128], 2))
def test_nonzero(dt, layout):
    a = (RNG.random(23) < 0.4) * (RNG.integers(1, 5, 23))
    compare(nonzero1, lay(a.astype(dt), layout if layout != "F" else "C"))
    b = (RNG.random((6, 7)) < 0.4) * (RNG.integers(1, 5, (6, 7)))
    b[2, 3] = 0 if dt is np.bool_ else -0.0
    compare(nonzero2, lay(b.astype(dt), layout))


def test_nonzero_empty_and_3d():
    compare(nonzero1, np.zeros(0))
    compare(nonzero1, np.zeros(5))
    compare(nonzero2, np.zeros((0, 4)))
    c = (RNG.random((3, 4, 5)) < 0.5).astype(np.float64)
    compare(nonzero3, c)
    compare(nonzero3, np.asfortranarray(c))
    compare(nonzero3, c[::-1, ::2])


@vrir.jit
def nonzero_scalar(x):
    return np.flatnonzero(x)


def test_nonzero_refused():
    with pytest.raises(vrir.CompileError, match=r"test_sorting.py:\d+: np.flatnonzero needs an"):
        nonzero_scalar(1.0)


# ------------------------------------------------------------ unique
@vrir.jit
def uniques(a):
    u, i, v, c = np.unique(a, return_index=True, return_inverse=True, return_counts=True)
    u2, c2 = np.unique(a, return_counts=True)
    return np.unique(a), u, i, v, c, u2, c2


@vrir.jit
def unique_index(a):
    return np.unique(a, True)


@pytest.mark.parametrize("dt,layout", cases(DTYPES, 2))
def test_unique(dt, layout):
    compare(uniques, lay(data(40, dt), layout if layout != "F" else "C"))
    compare(uniques, lay(data((7, 6), dt), layout))
    compare(unique_index, lay(data(40, dt), layout if layout != "F" else "C"))


def test_unique_empty():
    compare(uniques, np.zeros(0))
    compare(uniques, np.zeros((0, 3)))
    compare(uniques, np.full(5, np.nan))


@vrir.jit
def unique_axis(a):
    return np.unique(a, axis=0)


@vrir.jit
def unique_flag(a, f):
    return np.unique(a, return_counts=f)


def test_unique_refused():
    with pytest.raises(vrir.CompileError, match=r"test_sorting.py:\d+: np.unique: only axis=None"):
        unique_axis(np.zeros((2, 2)))
    with pytest.raises(vrir.CompileError, match=r"test_sorting.py:\d+: .*a constant"):
        unique_flag(np.zeros(2), True)
    with pytest.raises(vrir.CompileError, match=r"test_sorting.py:\d+: np.unique of a complex"):
        uniques(np.zeros(2, complex))


# ------------------------------------------------------------ median, percentile, quantile
@vrir.jit
def stats1(a, qs):
    return (np.median(a), np.percentile(a, 30), np.quantile(a, 0.7), np.percentile(a, qs),
            np.quantile(a, qs / 100), np.median(a, axis=0), np.percentile(a, 100, axis=-1),
            np.quantile(a, 0.0), np.percentile(a, 12.5))


@vrir.jit
def stats2(a, qs):
    return (np.median(a), np.median(a, axis=0), np.median(a, axis=1), np.percentile(a, 30),
            np.percentile(a, 42, axis=0), np.quantile(a, qs / 100, axis=1),
            np.percentile(a, qs, axis=0), np.quantile(a, 0.25, axis=-1), np.percentile(a, qs))


QS = np.array([0.0, 10, 33.3, 50, 99, 100])


def close(jf, *args, rtol=1e-12):
    got = jf(*args)
    want = jf.py_func(*args)
    for g, w in zip(got, want):
        assert np.asarray(g).dtype == np.asarray(w).dtype, (g, w)
        assert np.shape(g) == np.shape(w), (g, w)
        np.testing.assert_allclose(g, w, rtol=rtol, atol=0)


@pytest.mark.parametrize("dt,layout,nan",
                         [(dt, layout, nan)
                          for dt, layout in cases([np.float64, np.int64, np.int32, np.float32], 2)
                          for nan in ([False, True] if np.issubdtype(dt, np.floating) else [False])])
def test_order_statistics(dt, layout, nan):
    rtol = 1e-6 if dt is np.float32 else 1e-12
    for n in (1, 2, 7, 10):
        close(stats1, lay(data(n, dt, nan), layout if layout != "F" else "C"), QS, rtol=rtol)
    close(stats2, lay(data((5, 6), dt, nan), layout), QS, rtol=rtol)
    close(stats2, lay(data((4, 1), dt, nan), layout), QS, rtol=rtol)


@vrir.jit
def medians(a):
    return np.median(a), np.median(a, axis=0), np.median(a, 1)


def test_median_bool(layout2):
    close(medians, layout2(data((5, 4), np.bool_)))
    close(medians, layout2(data((4, 5), np.bool_)))


def test_order_statistics_f32_q():
    a = data(9, np.float32, False)
    close(stats1, a, QS.astype(np.float32), rtol=1e-6)


@vrir.jit
def median_only(a):
    return np.median(a)


@vrir.jit
def percentile_q(a, q):
    return np.percentile(a, q)


@vrir.jit
def quantile_q(a, q):
    return np.quantile(a, q)


@vrir.jit
def percentile_method(a):
    return np.percentile(a, 5, method="nearest")


@vrir.jit
def quantile_2d_q(a, q):
    return np.quantile(a, q)


def test_order_statistics_errors():
    with pytest.warns(RuntimeWarning):
        assert np.isnan(median_only.py_func(np.zeros(0)))
    assert np.isnan(median_only(np.zeros(0)))
    with pytest.raises(IndexError):
        percentile_q(np.zeros(0), 5.0)
    with pytest.raises(ValueError, match=r"Percentiles must be in the range \[0, 100\]"):
        percentile_q(np.zeros(3), 101.0)
    with pytest.raises(ValueError, match=r"Quantiles must be in the range \[0, 1\]"):
        quantile_q(np.zeros(3), np.array([0.5, -0.1]))
    with pytest.raises(ValueError, match=r"Quantiles must be in the range \[0, 1\]"):
        quantile_q(np.zeros(3), np.nan)
    with pytest.raises(vrir.CompileError, match=r"test_sorting.py:\d+: np.percentile: only "
                                                r"method='linear'"):
        percentile_method(np.zeros(3))
    with pytest.raises(vrir.CompileError, match=r"test_sorting.py:\d+: np.quantile: q must be"):
        quantile_2d_q(np.zeros(3), np.zeros((2, 2)))
    with pytest.raises(vrir.CompileError, match=r"test_sorting.py:\d+: np.percentile of a boolean"):
        percentile_q(np.zeros(3, bool), 5.0)
    with pytest.raises(vrir.CompileError, match=r"test_sorting.py:\d+: np.median of a complex"):
        median_only(np.zeros(3, complex))


# ------------------------------------------------------------ interp
@vrir.jit
def interps(x, xp, fp, s):
    return (np.interp(x, xp, fp), np.interp(s, xp, fp), np.interp(x, xp, fp, left=-1.0, right=7),
            np.interp(s, xp, fp, 0.5), np.interp(x, xp, fp, right=np.nan))


XP = np.array([0.0, 1, 1.5, 3, 3.5])
FP = np.array([1.0, 2, 0, 5, -2])
X = np.array([-1, 0, 0.5, 1, 1.2, 1.5, 3, 3.2, 3.5, 4, np.nan])


@pytest.mark.parametrize("s", [0.3, -2.0, 0.0, 3.5, 9.0, 1.0])
def test_interp(layout1, s):
    close(interps, layout1(X), layout1(XP), layout1(FP), s)


def test_interp_kinds(layout2):
    xi = np.array([-1, 0, 2, 3])
    close(interps, xi, XP.astype(np.int64), FP.astype(np.float32), 2)
    close(interps, layout2(RNG.random((5, 4)) * 4 - 0.5), XP, FP, 1.25)
    close(interps, X[:0], XP, FP, 1.25)
    close(interps, X, XP[:1], FP[:1], 1.25)


def test_interp_errors():
    with pytest.raises(ValueError, match="array of sample points is empty"):
        interps(X, XP[:0], FP[:0], 1.0)
    with pytest.raises(ValueError, match="fp and xp are not of the same length"):
        interps(X, XP, FP[:3], 1.0)


@vrir.jit
def interp_period(x, xp, fp):
    return np.interp(x, xp, fp, period=2.0)


@vrir.jit
def interp_complex(x, xp, fp):
    return np.interp(x, xp, fp)


def test_interp_refused():
    with pytest.raises(vrir.CompileError, match=r"test_sorting.py:\d+: unsupported keyword "
                                                r"argument 'period'"):
        interp_period(X, XP, FP)
    with pytest.raises(vrir.CompileError, match=r"test_sorting.py:\d+: np.interp: complex fp"):
        interp_complex(X, XP, FP.astype(complex))
    with pytest.raises(vrir.CompileError, match=r"test_sorting.py:\d+: np.interp: xp must be"):
        interp_complex(X, np.zeros((2, 2)), FP)
