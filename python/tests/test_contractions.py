"""np.einsum and np.tensordot against NumPy: every kind of subscripts (plain
contractions that become matrix products, transposed outputs, traces and
diagonals, sums, batch indices, three operands), C/F/strided/negative-
stride operands, integer and complex element types, sizes of 1 that
broadcast, and the errors (bad subscripts, wrong operand counts and ranks,
sizes that disagree at run time)."""
import linecache

import numpy as np
import pytest

import vrir
from conftest import variants1, variants2
from helpers import assert_same

RNG = np.random.default_rng(11)
A = RNG.random((3, 4))
B = RNG.random((4, 5))
SQ = RNG.random((4, 4))
V4 = RNG.random(4)
V3 = RNG.random(3)
T = RNG.random((2, 3, 4))
U = RNG.random((4, 3, 2))
BA = RNG.random((2, 3, 4))
BB = RNG.random((2, 4, 5))


def _einsum_kernel(spec, count):
    """A jit function computing np.einsum(spec, x0, ..., x{count-1}) (its
    source registered with linecache, where the frontend reads it)."""
    names = ", ".join(f"x{k}" for k in range(count))
    source = f"def einsum_{count}({names}):\n    return np.einsum({spec!r}, {names})\n"
    filename = f"<einsum {spec!r}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {"np": np}
    exec(compile(source, filename, "exec"), namespace)
    return vrir.jit(namespace[f"einsum_{count}"])


CASES = [
    # two operands, one matrix product
    ("ij,jk->ik", A, B), ("ij,jk", A, B), ("ij,j->i", A, V4), ("i,i->", V4, V4),
    ("i,i", V4, V4), ("ij,kj->ik", A, A), ("ji,jk->ik", A, A[:, :2]), ("i,j->ij", V3, V4),
    ("ij,jk->ki", A, B), ("ijk,kji->", T, U), ("ijk,jkl->il", T, U.transpose(1, 0, 2)),
    # loop nests
    ("ij->ji", A), ("ij->", A), ("ii->i", SQ), ("ii", SQ), ("ij->j", A), ("ijk->kj", T),
    ("bij,bjk->bik", BA, BB), ("ij,jk,kl->il", A, B, B.T), ("ij,ij->i", A, A),
    ("ii,i->", SQ, V4),
    # '...': the dimensions it covers, aligned on the right
    ("...ij,jk->...ik", T, B), ("...i,...i->...", T, T), ("...i,...i", T, A),
    ("i...->...", T), ("...", T), ("ij...,ij...->ij...", T, T), ("...ii->...i", T[:, :, :3]),
    ("...j,jk", A, B),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("layout", ["C", "F", "strided", "negstrided"])
def test_einsum(case, layout):
    spec, operands = case[0], case[1:]

    def laid_out(x):
        if x.ndim == 2:
            return variants2(x)[layout]
        if x.ndim == 1:
            return variants1(x)[layout if layout != "F" else "C"]
        return np.asfortranarray(x) if layout == "F" else x.copy()

    operands = [laid_out(x) for x in operands]
    got = _einsum_kernel(spec, len(operands))(*operands)
    want = np.einsum(spec, *operands)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    assert np.shape(got) == np.shape(want)


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.float32, np.complex128])
def test_einsum_element_types(dtype):
    a = (RNG.random((3, 4)) * 10).astype(dtype)
    b = (RNG.random((4, 2)) * 10).astype(dtype)
    if dtype == np.complex128:
        a = a + 1j * a[::-1, ::-1]
    for spec, operands in (("ij,jk->ik", (a, b)), ("ij->j", (a,)), ("ij,ij->", (a, a)),
                           ("ij,ij->i", (a, a))):
        got = _einsum_kernel(spec, len(operands))(*operands)
        want = np.einsum(spec, *operands)
        assert np.asarray(got).dtype == np.asarray(want).dtype
        np.testing.assert_allclose(got, want, rtol=1e-5)


def test_einsum_mixed_types():
    a = np.arange(12, dtype=np.int32).reshape(3, 4)
    got = _einsum_kernel("ij,jk->ik", 2)(a, B)
    assert_same(got, np.einsum("ij,jk->ik", a, B))


@vrir.jit
def tensordots(a, b, c, d):
    return (np.tensordot(a, b), np.tensordot(c, d, axes=1), np.tensordot(c[0], d[:, 0], axes=0),
            np.tensordot(a, b.transpose(1, 0, 2), axes=((1, 2), (1, 0))),
            np.tensordot(a, b, axes=([1, 2], [0, 1])))


@pytest.mark.parametrize("layout", ["C", "F", "strided", "negstrided"])
def test_tensordot(layout):
    a = T if layout != "F" else np.asfortranarray(T)
    b = RNG.random((3, 4, 5))
    c, d = variants2(A)[layout], variants2(B)[layout]
    got = tensordots(a, b, c, d)
    want = tensordots.py_func(a, b, c, d)
    assert_same(got, want)


def test_tensordot_over_everything():
    @vrir.jit
    def full(a, b):
        return np.tensordot(a, b, axes=2)
    # NumPy gives a 0-d array; VRIR a scalar of the same value
    np.testing.assert_allclose(full(A, A), np.tensordot(A, A, axes=2))


BROADCASTS = [
    # a subscript of size 1 repeats against any size in the other operands,
    # in a '...', a named subscript, a summed one, three operands
    ("...ij,...jk->...ik", (1, 2, 3), (4, 3, 2)), ("...ij,...jk->...ik", (4, 2, 3), (1, 3, 2)),
    ("ij,ij->ij", (1, 3), (2, 3)), ("ij,ij->ij", (2, 1), (2, 3)), ("ij,jk", (2, 1), (3, 4)),
    ("ij,jk", (2, 3), (1, 4)), ("bij,bjk->bki", (1, 2, 4), (3, 4, 5)),
    ("bij,bjk->bki", (3, 2, 1), (3, 4, 5)), ("i,i,i", (3,), (1,), (3,)),
    ("i,i->i", (0,), (1,)), ("ij,jj->i", (2, 3), (1, 1)), ("...i,...i", (2, 1, 3), (4, 3)),
]


@pytest.mark.parametrize("case", BROADCASTS, ids=[f"{c[0]}-{k}" for k, c in enumerate(BROADCASTS)])
def test_einsum_broadcasts_size_one(case):
    spec, shapes = case[0], case[1:]
    operands = [RNG.random(shape) for shape in shapes]
    # negative strides too: the repeated index is 0 whatever the stride
    for ops in (operands, [np.ascontiguousarray(x[::-1])[::-1] if x.ndim else x
                           for x in operands]):
        got = _einsum_kernel(spec, len(ops))(*ops)
        want = np.einsum(spec, *ops)
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
        assert np.shape(got) == np.shape(want)


def test_size_mismatch_raises():
    with pytest.raises(ValueError, match="could not be broadcast together .subscript 'j'"):
        _einsum_kernel("ij,jk->ik", 2)(A, A)
    with pytest.raises(ValueError, match="could not be broadcast together .subscript 'j'"):
        _einsum_kernel("ij,ij->i", 2)(A, B[:3])
    with pytest.raises(ValueError, match="could not be broadcast together .subscript 'i'"):
        _einsum_kernel("ii,i->", 2)(SQ, V3)
    with pytest.raises(ValueError, match="could not be broadcast together"):
        _einsum_kernel("i,i,i", 3)(V3, V4, V3)
    # within one operand (a diagonal) the sizes must agree, also sizes of 1
    with pytest.raises(ValueError, match="operand 0 for the repeated subscript 'i' differ"):
        _einsum_kernel("ii->i", 1)(RNG.random((1, 3)))
    with pytest.raises(ValueError, match="operand 1 for the repeated subscript 'j' differ"):
        _einsum_kernel("ij,jj->i", 2)(A, RNG.random((1, 4)))
    # np.tensordot does not broadcast
    with pytest.raises(ValueError, match="shape-mismatch for sum"):
        tensordots(T, RNG.random((3, 5, 5)), A, B)


@pytest.mark.parametrize("spec, operands, message", [
    ("ij,jk->ik", (A,), "2 operands in the subscripts 'ij,jk->ik', 1 given"),
    ("ijk,jk->ik", (A, B), "'ijk' names 3 dimensions of an array of 2"),
    ("...i,i->", (A, V4), r"the output needs '\.\.\.'"),
    ("...i...,i", (A, V4), r"'\.\.\.' at most once"),
    ("...ijk", (A,), "names more dimensions than an array of 2 has"),
    ("ij,jk->iq", (A, B), "output subscript 'q' is not in the inputs"),
    ("ij,jk->ii", (A, B), "bad output subscripts 'ii'"),
    ("i1,jk->ik", (A, B), "subscripts are letters, not 'i1'"),
])
def test_einsum_errors(spec, operands, message):
    with pytest.raises(vrir.CompileError, match=message):
        _einsum_kernel(spec, len(operands))(*operands)


def test_einsum_non_constant_and_boolean_errors():
    @vrir.jit
    def from_argument(s, a):
        return np.einsum(s, a)
    with pytest.raises(vrir.CompileError, match="subscripts must be a constant string"):
        from_argument(1.0, A)

    @vrir.jit
    def booleans(a):
        return np.einsum("ij->", a > 0.5)
    with pytest.raises(vrir.CompileError, match="np.einsum of boolean arrays"):
        booleans(A)

    @vrir.jit
    def bad_axes(a, b):
        return np.tensordot(a, b, axes=3)
    with pytest.raises(vrir.CompileError, match="cannot sum over 3 axes"):
        bad_axes(A, B)

    @vrir.jit
    def three_axes(a, b):
        return np.tensordot(a, b, axes=(0, 1, 2))
    with pytest.raises(vrir.CompileError, match="axes must be an int or two sequences"):
        three_axes(A, B)


@vrir.jit
def multi_dots(a, b, c, d, u, v):
    return (np.linalg.multi_dot([a, b]), np.linalg.multi_dot([a, b, c]),
            np.linalg.multi_dot((u, b, c)), np.linalg.multi_dot([a, b, c, d]),
            np.linalg.multi_dot([b.T, a.T, v]))


@pytest.mark.parametrize("layout", ["C", "F", "strided", "negstrided"])
def test_multi_dot(layout):
    # Both orders of three: (AB)C for the first shapes, A(BC) for the second.
    for m, k, n, p in ((6, 30, 4, 20), (30, 4, 30, 2)):
        args = [variants2(x)[layout] for x in (RNG.random((m, k)), RNG.random((k, n)),
                                                RNG.random((n, p)), RNG.random((p, 3)))]
        args += [RNG.random(k), RNG.random(m)]
        assert_same(multi_dots(*args), multi_dots.py_func(*args))


def test_multi_dot_errors():
    @vrir.jit
    def not_a_list(a):
        return np.linalg.multi_dot(a)
    with pytest.raises(vrir.CompileError, match="one list or tuple written in the call"):
        not_a_list(A)

    @vrir.jit
    def vector_inside(a, v):
        return np.linalg.multi_dot([a, v, a])
    with pytest.raises(vrir.CompileError, match="array 1 has 1 dimensions"):
        vector_inside(A, V4)
