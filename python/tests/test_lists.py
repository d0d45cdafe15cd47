"""Python lists in compiled code (frontend/lists.py): literals,
comprehensions, append/extend, len, indexing, iteration, sum/min/max, the
arrays NumPy makes of lists, lists returned to Python; against plain Python
on C-order, F-order, strided and negative-stride inputs. What stays outside
the subset is a CompileError at the user's line."""
import inspect
import os

import numpy as np
import pytest

import vrir

from helpers import check

HERE = os.path.abspath(__file__)
RNG = np.random.default_rng(14)
BASE = RNG.random((6, 8)) - 0.4


def layouts(a):
    """The same values as a C-order, an F-order, a strided and a
    negative-stride array."""
    return {"C": np.ascontiguousarray(a), "F": np.asfortranarray(a),
            "strided": np.repeat(a, 2, axis=-1)[..., ::2],
            "negative": np.ascontiguousarray(a[..., ::-1])[..., ::-1]}


VECTORS = layouts(BASE[0])
MATRICES = layouts(BASE)


@vrir.jit
def doubled_items(a, n):
    parts = [a[i] * 2 for i in range(n)]
    return np.array(parts)


@vrir.jit
def squares_appended(x):
    out = []
    for i in range(len(x)):
        out.append(x[i] ** 2)
    return np.array(out)


@vrir.jit
def positive_sum(x):
    return sum([x[i] for i in range(len(x)) if x[i] > 0])


@vrir.jit
def generator_sum(x):
    return sum(v * v for v in x)


@vrir.jit
def over_array(x):
    ys = [v + 1.0 for v in x if v < 0.5]
    return len(ys), np.asarray(ys), min(ys), max(ys)


@vrir.jit
def nested(x):
    return np.array([x[i] * x[j] for i in range(3) for j in range(i + 1) if i != j])


@vrir.jit
def enumerate_zip(x, y):
    lst = [v for v in x]
    s = 0.0
    for i, v in enumerate(lst):
        s += i * v
    for a, b in zip(lst, y):
        s += a * b
    return s


@vrir.jit
def stacked_rows(A):
    rows = [A[i] * 2.0 for i in range(A.shape[0])]
    return np.stack(rows), np.stack(rows, axis=1), np.concatenate(rows), len(rows)


@vrir.jit
def rows_copied(A):
    return np.array([A[i] for i in range(A.shape[0]) if A[i, 0] > 0])


@vrir.jit
def appended_rows(A):
    out = []
    for i in range(A.shape[0]):
        out.append(A[i] + 1.0)
    s = out[-1]
    return np.array(out), s.sum(), sum(out)


@vrir.jit
def numpy_of_list(x):
    lst = [v * 3.0 for v in x]
    return np.mean(lst), np.sum(lst), np.max(lst), np.sort(lst), np.std([v for v in lst])


@vrir.jit
def indexing(k):
    coeffs = [1.0, 2.0, 3.0]
    coeffs[1] = 5.0
    coeffs[-1] += 0.5
    return coeffs[0] + coeffs[k] + coeffs[-1]


@vrir.jit
def python_ints(n):
    lst = [i * i for i in range(n)]
    return lst[n - 1] + 1, sum(lst), len(lst)


@vrir.jit
def growing_and_joined(n):
    a = [0.0] * 3
    for i in range(n):
        a.append(i * 0.5)
    a.extend([1.0, 2.0])
    a += [9.0]
    b = a + [7.0]
    c = list(b)
    c[0] = 4.0
    return np.array(b), np.array(c), np.array(b[2:5]), np.array(b[::-2])


@vrir.jit
def fixed_list(y, w1, w2, w3):
    ws = [w1, w2, w3]
    for w in ws:
        y = y @ w
    ws[0][0, 0] = 2.0  # the list holds the arrays themselves
    return y, ws[-1].shape[1], len(ws)


@vrir.jit
def fixed_list_enumerated(a, b):
    total = 0.0
    for k, v in enumerate([a, b]):
        total += k * v.sum()
    return total + sum([a, b]).sum()


@vrir.jit
def repeated_fixed_list(a, b):
    ws = [a] * 2 + [b]
    ws[1][0] = 7.0  # ws[0] is the same array
    return ws[0][0] + ws[2][0], len(ws)


@vrir.jit
def returns_list(n):
    return [i * i for i in range(n)]


@vrir.jit
def returns_numpy_scalars(x):
    out = []
    for v in x:
        if v > 0:
            out.append(v)
    return out, len(out)


@vrir.jit
def returns_rows(A):
    return [A[i] - 1.0 for i in range(A.shape[0])]


@vrir.jit
def empty_list(x):
    out = []
    for v in x:
        if v > 10.0:
            out.append(v)
    return np.array(out), len(out), 1.0 if out else 2.0, 3.0 if [x[0]] else 4.0


@vrir.jit
def comprehension_scope(n):
    i = 5
    lst = [i * 2 for i in range(n)]
    return i, lst[-1]


@vrir.jit
def appended_in_while(n):
    out = []
    k = 0
    while k < n:
        if k % 2 == 0:
            out.append(k)
        k += 1
    return np.array(out), out


@vrir.jit
def read_in_prange(x):
    c = [1.0, 2.0, 3.0]
    y = np.empty_like(x)
    for i in vrir.prange(len(x)):
        y[i] = x[i] * c[i % 3]
    return y


@vrir.jit
def conversions(x, n):
    a = list(range(n))
    b = list(x)
    c = b.copy()
    c[0] = 100.0
    p, q = [x[0], x[1]]
    return np.array(a), np.array(b, dtype=np.float32), np.array(c), p - q


@vrir.jit
def joined(a, b):
    parts = [a, b]
    pair = (a, b)
    rows = [a * k for k in range(3)]
    return (np.concatenate(parts), np.vstack(parts), np.concatenate(pair),
            np.concatenate(rows, axis=1), np.stack(rows, axis=-1), np.array(parts))


@vrir.jit
def extended_by_arrays(x):
    lst = [1, 2]
    lst.extend(x)
    lst += list(x[::-1])
    return np.array(lst), lst[2]


@vrir.jit
def weak_items(a32):
    lst = [k for k in range(3)]
    return lst[1] * a32, sum(lst) * a32


@vrir.jit
def over_tuple(n):
    s = 0.0
    for t in (1, 2.5, n):
        s += t
    return s


@pytest.mark.parametrize("layout", sorted(VECTORS))
def test_vector_lists(layout):
    x = VECTORS[layout]
    check(doubled_items, x, 5)
    check(squares_appended, x)
    check(positive_sum, x)
    check(generator_sum, x)
    check(over_array, x)
    check(nested, x)
    check(enumerate_zip, x, x[::-1])
    check(numpy_of_list, x)
    check(empty_list, x)


@pytest.mark.parametrize("layout", sorted(MATRICES))
def test_lists_of_arrays(layout):
    A = MATRICES[layout]
    check(stacked_rows, A)
    check(rows_copied, A)
    check(appended_rows, A)
    got = returns_rows(A)
    want = returns_rows.py_func(A)
    assert isinstance(got, list) and len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w)


def test_more_constructs():
    check(comprehension_scope, 4)
    check(appended_in_while, 7)
    for x in VECTORS.values():
        check(read_in_prange, x)
        check(conversions, x, 4)
        check(extended_by_arrays, x)
    for A in MATRICES.values():
        check(joined, A, A[::-1] * 2.0)
    check(weak_items, np.ones(3, np.float32))
    check(over_tuple, 3)


def test_lists_of_numbers():
    for k in (0, 1, 2, -1, -3):
        check(indexing, k)
    check(python_ints, 7)
    for n in (0, 3, 20):
        check(growing_and_joined, n)


def test_fixed_lists():
    y = RNG.random((2, 3))
    w1, w2, w3 = RNG.random((3, 4)), RNG.random((4, 4)), RNG.random((4, 5))
    check(fixed_list, y, w1, w2, w3)
    assert w1[0, 0] == 2.0
    check(fixed_list_enumerated, RNG.random(4), RNG.random(4))
    check(repeated_fixed_list, RNG.random(4), RNG.random(4))


def test_returned_lists():
    got = returns_list(5)
    assert got == [0, 1, 4, 9, 16] and all(type(v) is int for v in got)
    x = VECTORS["strided"]
    got, n = returns_numpy_scalars(x)
    want, _ = returns_numpy_scalars.py_func(x)
    assert got == want and n == len(want)
    assert all(type(v) is np.float64 for v in got)


def test_index_errors():
    with pytest.raises(IndexError, match="list index out of range"):
        indexing(3)
    with pytest.raises(IndexError, match="list index out of range"):
        indexing(-4)


@vrir.jit
def empty_min(x):
    return min([v for v in x if v > 10.0])


def test_empty_min():
    with pytest.raises(ValueError, match="empty"):
        empty_min(VECTORS["C"])


# --- outside the subset: a CompileError at the user's line
def aliased(n):
    a = [1.0, 2.0]
    b = a  # line
    b.append(3.0)
    return np.array(a)


def mixed_types(n):
    return len([1.0, True])  # line


def list_of_lists(n):
    return len([[1.0], [2.0]])  # line


def popped(n):
    a = [1.0, 2.0]
    return a.pop()  # line


def inserted(n):
    a = [1.0, 2.0]
    a.insert(0, 3.0)  # line
    return len(a)


def shared_array(x):
    out = []
    for i in range(3):
        out.append(x)  # line
    return np.array(out)


def changed_while_iterating(n):
    a = [1.0, 2.0]
    for v in a:
        a.append(v)  # line
    return len(a)


def fixed_list_grows(x, y):
    ws = [x, y]
    ws.append(x * 2.0)  # line
    return len(ws)


def fixed_list_run_time_index(x, y, k):
    ws = [x, y]
    return ws[k]  # line


def element_written(x):
    rows = [x * 2.0 for _ in range(3)]
    r = rows[0]
    r[0] = 1.0  # line
    return np.array(rows)


def item_changed_after_growing(x):
    rows = [x * 2.0 for _ in range(2)]
    r = rows[0]
    for i in range(10):
        rows.append(x * 3.0)
    rows[0] += 1.0  # line
    return r


def item_replaced(x):
    rows = [x * 2.0 for _ in range(2)]
    r = rows[0]
    rows[0] = x * 5.0  # line
    return r


def view_of_element_written(x):
    rows = [x * 2.0 for _ in range(3)]
    s = rows[0][1:]
    s.T[0] = 1.0  # line
    return np.array(rows)


def reshaped_element_written(x):
    # a view made by a method, a NumPy function or a chain of them: the
    # buffer moves when the list grows, leaving the view behind
    rows = [x * 2.0 for _ in range(1)]
    v = np.transpose(rows[0].reshape(2, 2))
    for i in range(30):
        rows.append(x * 3.0)
    v[0, 0] = 99.0  # line
    return np.array(rows)


def raveled_element_written(x):
    rows = [x * 2.0 for _ in range(1)]
    v = np.ravel(rows[0])
    v[0] = 99.0  # line
    return np.array(rows)


def squeezed_element_written(x):
    rows = [x * 2.0 for _ in range(1)]
    v = np.expand_dims(rows[0], 0).squeeze(0)
    v[0] = 99.0  # line
    return np.array(rows)


def returned_from_helper_list(n):
    return [1.0, 2.0]


def calls_helper_returning_list(n):
    return len(returned_from_helper_list(n))  # line


def list_arithmetic(n):
    a = [1.0, 2.0]
    return np.array(a * 2.5)  # line


def list_in_gpu(n):
    with vrir.gpu():
        a = [1.0, 2.0]  # line
    return n


def unpacked(n):
    a = [1.0, 2.0, 3.0]
    x, y = a  # line
    return x + y


def extended_by_array_op(x):
    lst = [1.0]
    lst += x  # line
    return len(lst)


def list_of_tuples(n):
    return len([(1, 2), (3, 4)])  # line


def repeated_arrays(x, k):
    return np.array([x * 1.0] * k)  # line


def test_unpacking_length():
    with pytest.raises(ValueError, match="does not unpack into 2"):
        vrir.jit(unpacked)(1)


BAD = [
    (aliased, (3,), "binds a second name to the list 'a'"),
    (mixed_types, (3,), "a list mixing"),
    (list_of_lists, (3,), "lists of lists"),
    (popped, (3,), r"list.pop\(\) is not supported"),
    (inserted, (3,), r"list.insert\(\) is not supported"),
    (shared_array, (np.ones(3),), "add a copy"),
    (changed_while_iterating, (3,), "changing the list 'a' inside a for loop"),
    (fixed_list_grows, (np.ones(3), np.ones(2)), "cannot grow"),
    (fixed_list_run_time_index, (np.ones(3), np.ones(2), 1), "integer constants only"),
    (element_written, (np.ones(3),), "read-only"),
    (view_of_element_written, (np.ones(3),), "read-only"),
    (reshaped_element_written, (np.ones(4),), "read-only"),
    (raveled_element_written, (np.ones(4),), "read-only"),
    (squeezed_element_written, (np.ones(4),), "read-only"),
    (item_changed_after_growing, (np.ones(3),), "changing an item of the list 'rows' of arrays"),
    (item_replaced, (np.ones(3),), "changing an item of the list 'rows' of arrays"),
    (calls_helper_returning_list, (3,), "returning a list from a function called"),
    (list_arithmetic, (3,), "a list is repeated by an integer"),
    (list_in_gpu, (3,), "lists are not supported in gpu sections"),
    (list_of_tuples, (3,), "lists of lists or of tuples"),
    (extended_by_array_op, (np.ones(2),), "use lst.extend"),
    (repeated_arrays, (np.ones(3), 2), "repeating a list of arrays takes an integer constant"),
]


@pytest.mark.parametrize("fn,args,message", BAD, ids=[b[0].__name__ for b in BAD])
def test_refused_at_the_users_line(fn, args, message):
    lines, first = inspect.getsourcelines(fn)
    line = first + next(k for k, text in enumerate(lines) if "# line" in text)
    with pytest.raises(vrir.CompileError, match=message) as info:
        vrir.jit(fn)(*args)
    assert f"{HERE}:{line}" in str(info.value)


def test_copies_of_items_stay_writable():
    # only views are read-only: results computed from an item are new arrays
    @vrir.jit
    def copies(x):
        rows = [x * 2.0 for _ in range(3)]
        a = np.sort(rows[0])
        b = rows[1].copy()
        c = rows[2] * 1.0
        d = rows[0][::-1] + 0.0
        a[0] = 1.0
        b[0] = 2.0
        c[0] = 3.0
        d[0] = 4.0
        return a, b, c, d
    x = np.array([3.0, 1.0, 2.0])
    for got, want in zip(copies(x), copies.py_func(x)):
        np.testing.assert_array_equal(got, want)
