import numpy as np


def assert_same(x, y):
    if isinstance(y, tuple):
        assert isinstance(x, tuple) and len(x) == len(y)
        for a, b in zip(x, y):
            assert_same(a, b)
        return
    if isinstance(y, np.ndarray):
        assert isinstance(x, np.ndarray), f"expected an array, got {type(x)}"
        assert x.shape == y.shape, (x.shape, y.shape)
        assert x.dtype == y.dtype, (x.dtype, y.dtype)
        np.testing.assert_allclose(x, y, rtol=1e-12, atol=1e-12)
        return
    if isinstance(y, (float, complex, np.floating, np.complexfloating)):
        np.testing.assert_allclose(x, y, rtol=1e-12, atol=1e-12)
    else:
        assert x == y, (x, y)
        assert type(x) == type(y) or np.asarray(x).dtype == np.asarray(y).dtype, (type(x), type(y))


def check(jf, *args):
    """Runs the compiled function and the plain Python one on copies of the
    same inputs and compares results and the arrays they modified."""
    a2 = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    got = jf(*args)
    want = jf.py_func(*a2)
    assert_same(got, want)
    for x, y in zip(args, a2):
        if isinstance(x, np.ndarray):
            np.testing.assert_allclose(x, y)
    return got
