"""np.pad against NumPy: constant and edge modes, every pad_width form
(int, (before, after), one pair per axis, lists), constant_values, integer
arrays, C/F/strided/negative-stride inputs, and the errors."""
import numpy as np
import pytest

import vrir
from conftest import variants1, variants2
from helpers import assert_same

M = np.arange(1.0, 13.0).reshape(3, 4) / 7.0


@vrir.jit
def pads2(a, n):
    return (np.pad(a, 1), np.pad(a, (1, 2)), np.pad(a, ((1, 0), (2, 3))),
            np.pad(a, [(0, 1), (2, 0)], mode="edge"), np.pad(a, 2, mode="edge"),
            np.pad(a, ((1, 1),), constant_values=7), np.pad(a, n),
            np.pad(a, ((n, 0), (0, n)), "edge"))


@pytest.mark.parametrize("layout", ["C", "F", "strided", "negstrided"])
def test_pad_2d(layout):
    a = variants2(M)[layout]
    assert_same(pads2(a, 2), pads2.py_func(a, 2))


@vrir.jit
def pads1(v):
    return np.pad(v, 3), np.pad(v, (0, 2), mode="edge"), np.pad(v, [2, 1], constant_values=-1)


@pytest.mark.parametrize("layout", ["C", "strided", "negstrided"])
def test_pad_1d(layout):
    v = variants1(np.arange(5.0))[layout]
    assert_same(pads1(v), pads1.py_func(v))


def test_pad_integers_and_zero_widths():
    a = np.arange(12, dtype=np.int32).reshape(3, 4)
    assert_same(pads2(a, 0), pads2.py_func(a, 0))


def test_pad_errors():
    with pytest.raises(ValueError, match="index can't contain negative values"):
        pads2(M, -1)

    @vrir.jit
    def edge_of_empty(a):
        return np.pad(a, 1, mode="edge")
    with pytest.raises(ValueError, match="can't extend empty axis"):
        edge_of_empty(np.zeros((0, 3)))

    @vrir.jit
    def reflect(a):
        return np.pad(a, 1, mode="reflect")
    with pytest.raises(vrir.CompileError, match="mode must be the constant 'constant' or 'edge'"):
        reflect(M)

    @vrir.jit
    def three_pairs(a):
        return np.pad(a, ((1, 1), (1, 1), (1, 1)))
    with pytest.raises(vrir.CompileError, match="one \\(before, after\\) per axis of a rank-2"):
        three_pairs(M)

    @vrir.jit
    def float_width(a):
        return np.pad(a, 1.5)
    with pytest.raises(vrir.CompileError, match="pad_width must be integers"):
        float_width(M)
