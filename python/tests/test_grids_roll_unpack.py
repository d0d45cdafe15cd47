"""np.mgrid and np.ogrid (integer, float and n*1j steps), np.roll (flat,
along axes, tuples), and unpacking an array into targets (`x, y = A`),
against NumPy on every layout; NumPy's errors for wrong lengths, and
CompileErrors naming what is not supported."""
import numpy as np
import pytest

import vrir

from helpers import check

RNG = np.random.default_rng(29)
A = RNG.random((4, 5))


# ------------------------------------------------------------ grids
@vrir.jit
def grids(n):
    x, y = np.mgrid[0:n, 0:3]
    u, v = np.ogrid[0:n, 1:7:2]
    p, q = np.ogrid[0:1:3j, 0:n]
    return (np.mgrid[0:n, 0:3], np.mgrid[0:n], np.mgrid[n:0:-1], np.mgrid[0:1:5j, 0:n],
            np.mgrid[1:2:0.25, 0:n, -1:1], x * 10 + y, u + v, p, q, np.ogrid[:n])


@pytest.mark.parametrize("n", [0, 1, 4])
def test_grids(n):
    check(grids, n)


@vrir.jit
def grid_points(n):
    return np.mgrid[0:1:n * 1j]


@vrir.jit
def grid_index(n):
    return np.mgrid[n]


def test_grids_refused():
    with pytest.raises(vrir.CompileError, match="number of points .* must be a constant"):
        grid_points(3)
    with pytest.raises(vrir.CompileError, match="takes slices"):
        grid_index(3)


# ------------------------------------------------------------ roll
@vrir.jit
def rolls(a, s):
    return (np.roll(a, s), np.roll(a, s, axis=1), np.roll(a, (s, 1), axis=(0, 1)),
            np.roll(a, s, 0), np.roll(a, (s, -1), axis=1), np.roll(a, s, axis=-1))


@pytest.mark.parametrize("shift", [0, 1, -2, 5, 23])
def test_roll(layout2, shift):
    got = check(rolls, layout2(A), shift)
    # np.empty_like's layout, as NumPy
    assert got[1].flags.f_contiguous == layout2(A).flags.f_contiguous


@vrir.jit
def roll_vector(v, s):
    return np.roll(v, s), np.roll(v, -s, axis=0)


def test_roll_vectors_and_empty(layout1):
    check(roll_vector, layout1(np.arange(7)), 3)
    check(roll_vector, np.zeros(0), 2)


@vrir.jit
def roll_float_shift(a):
    return np.roll(a, 1.5)


@vrir.jit
def roll_bad_axis(a):
    return np.roll(a, 1, axis=2)


def test_roll_refused():
    with pytest.raises(vrir.CompileError, match="shifts are integers"):
        roll_float_shift(A)
    with pytest.raises(vrir.CompileError, match="axis 2 is out of bounds"):
        roll_bad_axis(A)


# ------------------------------------------------------------ unpacking
@vrir.jit
def unpack_rows(a):
    x, y, z, w = a
    return x + 2 * y - z, w


@vrir.jit
def unpack_vector(v):
    first, second = v
    return first * second


def test_unpack(layout2):
    check(unpack_rows, layout2(A))
    check(unpack_vector, np.array([3.0, 4.0]))


def test_unpack_rows_are_views():
    @vrir.jit
    def zero_first_row(a):
        x, y, z, w = a
        x[:] = 0.0
        return a
    got = zero_first_row(A.copy())
    assert (got[0] == 0).all() and (got[1:] == A[1:]).all()


@pytest.mark.parametrize("fn,arg,message", [
    (unpack_rows, A[:3], "not enough values to unpack"),
    (unpack_vector, np.zeros(5), "too many values to unpack"),
])
def test_unpack_wrong_length(fn, arg, message):
    with pytest.raises(ValueError):
        fn.py_func(arg)
    with pytest.raises(ValueError, match=message):
        fn(arg)


@vrir.jit
def unpack_starred(v):
    first, *rest = v
    return first


def test_unpack_starred_refused():
    with pytest.raises(vrir.CompileError, match="starred unpacking of an array"):
        unpack_starred(np.zeros(3))
