"""np.argmax/argmin (axis, keepdims), np.cumsum/cumprod along an axis and
np.add/multiply/maximum/minimum.accumulate on arrays of any rank, against
NumPy on every layout and with NumPy's dtypes; NumPy's ValueError for an
empty axis; CompileErrors naming what is refused."""
import numpy as np
import pytest

import vrir

RNG = np.random.default_rng(5)


def same(got, want):
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert np.asarray(g).dtype == np.asarray(w).dtype, (np.asarray(g).dtype,
                                                           np.asarray(w).dtype)
        assert np.shape(g) == np.shape(w), (np.shape(g), np.shape(w))
        np.testing.assert_allclose(g, w, rtol=1e-12)


@vrir.jit
def extremes(a):
    return (np.argmax(a, axis=0), np.argmin(a, 1), a.argmax(axis=-1), a.argmin(0),
            np.argmax(a, axis=0, keepdims=True), np.argmin(a, keepdims=True), np.argmax(a))


@vrir.jit
def cumulative(a):
    return (np.cumsum(a, axis=0), np.cumprod(a, 1), a.cumsum(axis=-1), a.cumprod(0),
            np.cumsum(a), np.add.accumulate(a, axis=1), np.multiply.accumulate(a),
            np.maximum.accumulate(a), np.minimum.accumulate(a, axis=1))


def with_nans(shape):
    a = RNG.random(shape)
    a[1, 2] = np.nan
    a[3, 0] = np.nan
    return a


def test_extremes(layout2):
    """The first index of the extreme; a NaN counts as the extreme."""
    for a in (RNG.random((5, 4)), with_nans((5, 4)), RNG.integers(0, 3, (4, 6)) * 1.0):
        same(extremes(layout2(a)), extremes.py_func(a))


def test_cumulative(layout2):
    for a in (RNG.random((5, 4)) + 0.5, with_nans((5, 4))):
        same(cumulative(layout2(a)), cumulative.py_func(a))


@pytest.mark.parametrize("dt", [np.int32, np.int8, np.uint8, np.uint64, np.float32, np.bool_])
def test_dtypes(dt):
    """cumsum/cumprod widen small integers and booleans as NumPy; argmax
    compares unsigned integers as unsigned."""
    a = RNG.integers(0, 4, (4, 5)).astype(dt)
    if dt in (np.uint8, np.uint64):
        a[2, 3] = np.iinfo(dt).max
    want_extremes = extremes.py_func(a)
    same(extremes(a), want_extremes)
    same(cumulative(a), cumulative.py_func(a))


@vrir.jit
def three_d(a):
    return (np.argmax(a, axis=1), np.argmin(a, axis=2, keepdims=True), np.cumsum(a, axis=2),
            np.cumprod(a, axis=1), np.maximum.accumulate(a, axis=0))


def test_three_dimensions():
    a = RNG.random((3, 4, 5)) + 0.5
    for x in (a, np.asfortranarray(a), a[:, ::-1, ::2]):
        same(three_d(x), three_d.py_func(x.copy()))


@vrir.jit
def argmax0(a):
    return np.argmax(a, axis=0)


@vrir.jit
def cumsum0(a):
    return np.cumsum(a, axis=0), np.minimum.accumulate(a, axis=1)


def test_empty():
    with pytest.raises(ValueError, match="attempt to get argmax of an empty sequence"):
        argmax0.py_func(np.zeros((0, 3)))
    with pytest.raises(ValueError, match="attempt to get argmax of an empty sequence"):
        argmax0(np.zeros((0, 3)))
    same(argmax0(np.zeros((2, 0))), argmax0.py_func(np.zeros((2, 0))))
    for shape in ((0, 3), (3, 0)):
        same(cumsum0(np.zeros(shape)), cumsum0.py_func(np.zeros(shape)))


@vrir.jit
def axis_out_of_bounds(a):
    return np.argmax(a, axis=2)


@vrir.jit
def complex_cumsum(a):
    return np.cumsum(a, axis=0)


@vrir.jit
def variable_axis(a, k):
    return np.cumprod(a, axis=k)


@vrir.jit
def subtract_accumulate(a):
    return np.subtract.accumulate(a)


def test_errors():
    with pytest.raises(vrir.CompileError,
                       match=r"test_axis_functions.py:\d+: axis 2 is out of bounds for a "
                             r"2-dimensional array"):
        axis_out_of_bounds(np.zeros((2, 2)))
    with pytest.raises(vrir.CompileError, match=r"np.cumsum of complex numbers is not supported"):
        complex_cumsum(np.zeros((2, 2), complex))
    with pytest.raises(vrir.CompileError, match=r"np.cumprod's axis must be integer constants"):
        variable_axis(np.zeros((2, 2)), 1)
    with pytest.raises(vrir.CompileError, match=r"np.subtract.accumulate is not supported"):
        subtract_accumulate(np.zeros(3))
