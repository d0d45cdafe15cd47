"""np.histogram and np.bincount against NumPy: counts and edges equal on
every layout and dtype, the range rules (default, given, equal ends, empty
input, NaN), explicit edges (duplicates, the closed last bin), weights,
density, and NumPy's errors."""
import numpy as np
import pytest

import vrir
from vrir import CompileError


@vrir.jit
def hist_default(a):
    return np.histogram(a)


@vrir.jit
def hist_range(a, n, lo, hi):
    return np.histogram(a, bins=n, range=(lo, hi))


@vrir.jit
def hist_edges(a, edges):
    return np.histogram(a, edges)


@vrir.jit
def hist_weights(a, n, w):
    return np.histogram(a, n, weights=w)


@vrir.jit
def hist_density(a, n):
    return np.histogram(a, n, density=True)


@vrir.jit
def count(x):
    return np.bincount(x)


@vrir.jit
def count_weighted(x, w, n):
    return np.bincount(x, weights=w, minlength=n)


def same(got, want):
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_array_equal(g, w)


RNG = np.random.default_rng(7)
BASE = RNG.normal(size=(40, 30))


@pytest.mark.parametrize("a", [BASE, np.asfortranarray(BASE), BASE[::2, 1::3],
                               BASE[::-1, ::-2], BASE.ravel()], ids=["C", "F", "strided",
                                                                     "negative", "1-D"])
def test_layouts(a):
    same(hist_default(a), np.histogram(a))
    same(hist_range(a, 7, -1.0, 2.5), np.histogram(a, 7, range=(-1.0, 2.5)))


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.int8, np.uint8, np.int32])
def test_dtypes(dtype):
    a = (BASE * 20).astype(dtype)
    same(hist_default(a), np.histogram(a))
    same(hist_range(a, 9, -5, 30), np.histogram(a, 9, range=(-5, 30)))


def test_values_on_the_edges_and_the_last_bin():
    a = np.linspace(0.0, 1.0, 1001)  # many values exactly on bin edges
    for n in (1, 3, 7, 10, 64):
        same(hist_range(a, n, 0.0, 1.0), np.histogram(a, n, range=(0.0, 1.0)))
        same(hist_default(a * 0.1 + 0.2), np.histogram(a * 0.1 + 0.2))
    f = np.linspace(-3, 3, 777, dtype=np.float32)
    same(hist_range(f, 13, -3.0, 3.0), np.histogram(f, 13, range=(-3.0, 3.0)))


def test_range_rules():
    same(hist_default(np.full(5, 3.0)), np.histogram(np.full(5, 3.0)))  # equal ends
    same(hist_default(np.zeros(0)), np.histogram(np.zeros(0)))  # empty: (0, 1)
    same(hist_default(np.full(4, 7, np.int64)), np.histogram(np.full(4, 7, np.int64)))
    a = np.array([0.5, np.nan, 1.5, 2.5, -1.0, 9.0])
    same(hist_range(a, 3, 0.0, 3.0), np.histogram(a, 3, range=(0.0, 3.0)))  # NaN not counted
    with pytest.raises(ValueError, match="autodetected range"):
        hist_default(a)
    with pytest.raises(ValueError, match="max must be larger than min"):
        hist_range(a, 3, 2.0, 1.0)
    with pytest.raises(ValueError, match="supplied range"):
        hist_range(a, 3, 0.0, np.inf)
    with pytest.raises(ValueError, match="must be positive"):
        hist_range(a, 0, 0.0, 1.0)


def test_explicit_edges():
    a = BASE.ravel()
    for edges in (np.array([-3, -1, 0, 0.5, 1, 4.0]), np.array([-1.0, 0.0, 0.0, 1.0, 1.0]),
                  np.array([0.0]), np.array([-2, 0, 2])):
        same(hist_edges(a, edges), np.histogram(a, edges))
    many = np.sort(RNG.normal(size=200))  # bisection (more than 64 edges)
    many[50:53] = many[50]
    same(hist_edges(a, many), np.histogram(a, many))
    ints = np.array([0, 1, 2, 2, 3, 5, 5])
    same(hist_edges(ints, np.array([0, 2, 5])), np.histogram(ints, np.array([0, 2, 5])))
    with pytest.raises(ValueError, match="monotonically"):
        hist_edges(a, np.array([0.0, 2.0, 1.0]))


@pytest.mark.parametrize("name", ["uniform", "quantile", "geometric", "duplicates",
                                  "clustered", "infinite ends", "huge range", "equal ends",
                                  "float32 data", "integers"])
def test_many_explicit_edges(name):
    # More than 64 edges: each element's cell in a table over [first, last]
    # bounds the search, except where the ends are infinite, equal or too
    # far apart (a bisection over all edges then). Values on edges, NaN and
    # values outside the edges included.
    rng = np.random.default_rng(7)
    a = rng.normal(0.5, 0.3, 5000)
    edges = {
        "uniform": lambda: np.linspace(0.0, 1.0, 101),
        "quantile": lambda: np.quantile(a, np.linspace(0.05, 0.95, 300)),
        "geometric": lambda: np.geomspace(1e-4, 2.0, 90),
        "duplicates": lambda: np.repeat(np.linspace(0.0, 1.0, 40), 3),
        "clustered": lambda: np.concatenate([np.linspace(0.4, 0.4 + 1e-9, 80),
                                             np.linspace(0.5, 9.0, 10)]),
        "infinite ends": lambda: np.concatenate([[-np.inf], np.linspace(0, 1, 80), [np.inf]]),
        "huge range": lambda: np.concatenate([[-1.5e308], np.linspace(0, 1, 80), [1.5e308]]),
        "equal ends": lambda: np.zeros(70),
        "float32 data": lambda: np.linspace(0.0, 1.0, 77),
        "integers": lambda: np.arange(-5, 200, 2),
    }[name]()
    if name == "float32 data":
        a = a.astype(np.float32)
    if name == "integers":
        a = rng.integers(-10, 210, 5000)
    else:
        a[:100] = edges[rng.integers(0, edges.shape[0], 100)]  # on the edges
        a[100] = np.nan
        a[101] = edges[-1]  # the closed last bin
    same(hist_edges(a, edges), np.histogram(a, edges))


def test_weights_and_density():
    a = BASE.ravel()
    for w in (RNG.random(a.size), RNG.random(a.size).astype(np.float32),
              RNG.integers(0, 5, a.size)):
        got, want = hist_weights(a, 11, w), np.histogram(a, 11, weights=w)
        assert got[0].dtype == want[0].dtype
        np.testing.assert_allclose(got[0], want[0], rtol=1e-6)
        np.testing.assert_array_equal(got[1], want[1])
    got, want = hist_density(a, 8), np.histogram(a, 8, density=True)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-14)
    np.testing.assert_array_equal(got[1], want[1])
    with pytest.raises(ValueError, match="same shape"):
        hist_weights(a, 4, np.ones(3))


def test_bincount():
    x = RNG.integers(0, 9, 200)
    np.testing.assert_array_equal(count(x), np.bincount(x))
    np.testing.assert_array_equal(count(x[::-3]), np.bincount(x[::-3]))
    np.testing.assert_array_equal(count(np.zeros(0, np.int64)), np.bincount(np.zeros(0, np.int64)))
    np.testing.assert_array_equal(count(x.astype(np.uint8)), np.bincount(x.astype(np.uint8)))
    top = np.array([255, 3, 255], np.uint8)  # 255 + 1 must not wrap
    np.testing.assert_array_equal(count(top), np.bincount(top))
    w = RNG.random(200)
    np.testing.assert_allclose(count_weighted(x, w, 20), np.bincount(x, w, 20), rtol=1e-14)
    np.testing.assert_allclose(count_weighted(x, w, 2), np.bincount(x, w, 2), rtol=1e-14)
    with pytest.raises(ValueError, match="negative"):
        count(np.array([1, -1, 2]))
    with pytest.raises(ValueError, match="same length"):
        count_weighted(x, w[:5], 0)


def test_refused_forms():
    def by_name(a):
        return np.histogram(a, bins="auto")

    def complex_data(a):
        return np.histogram(a)

    def float_counts(x):
        return np.bincount(x)

    def weights_of_other_rank(a, w):
        return np.histogram(a, 5, weights=w)

    with pytest.raises(CompileError, match="estimator name"):
        vrir.jit(by_name)(np.ones(3))
    with pytest.raises(CompileError, match="complex"):
        vrir.jit(complex_data)(np.ones(3, np.complex128))
    with pytest.raises(CompileError, match="1-D array of integers"):
        vrir.jit(float_counts)(np.ones(3))
    with pytest.raises(CompileError, match="weights must be a real array"):
        vrir.jit(weights_of_other_rank)(np.ones((2, 2)), np.ones(4))
