"""The call path of a compiled function (vrir._call, in C): a key of the
argument types finds the compiled kernel, and the arguments are written
into a context block on the C stack of each call, so calls from several
threads, calls after a failed call, keyword arguments, every kind of
argument and types that change between calls must still reach the kernel
intact, and arguments the fast path does not describe must get the
frontend's own TypeError."""
import threading

import numpy as np
import pytest

import vrir
from vrir import runtime


@vrir.jit
def weighted_sum(a, w, shift, flag):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * w
    if flag:
        s += shift
    return s


@vrir.jit
def pick(a, i):
    return a[i]


@vrir.jit
def scale_rows(A, z):
    B = np.empty((A.shape[0], A.shape[1]), dtype=np.complex128)
    for i in range(A.shape[0]):
        for j in range(A.shape[1]):
            B[i, j] = A[i, j] * z
    return B, A.shape[0] + A.shape[1]


def test_keyword_and_positional_calls_agree():
    a = np.arange(10.0)
    expected = float((a * 0.5).sum() + 3)
    assert weighted_sum(a, 0.5, 3.0, True) == expected
    assert weighted_sum(a, w=0.5, shift=3.0, flag=True) == expected
    assert weighted_sum(a, 0.5, flag=True, shift=3.0) == expected
    assert weighted_sum(a, 0.5, 3.0, False) == float((a * 0.5).sum())


def test_every_argument_kind_and_several_results():
    A = np.arange(6.0).reshape(2, 3)
    for layout in (A, np.asfortranarray(A), np.zeros((4, 6))[::2, ::2] + A,
                   A[:, :1]):  # size-1 dimension: NumPy's strides differ
        B, n = scale_rows(layout, 1 + 2j)
        np.testing.assert_array_equal(B, layout * (1 + 2j))
        assert n == sum(layout.shape)


def test_a_failed_call_leaves_the_next_one_intact():
    a = np.arange(5.0)
    with pytest.raises(IndexError):
        pick(a, 7)
    assert pick(a, 4) == 4.0
    assert pick(a, -1) == 4.0


def test_threads_calling_one_kernel_at_once():
    arrays = [np.arange(1000.0) * k for k in range(8)]
    expected = [float((x * 2.0).sum()) for x in arrays]
    weighted_sum(arrays[0], 2.0, 0.0, False)  # compiled before the race
    results = [[] for _ in arrays]

    def work(k):
        for _ in range(200):
            results[k].append(weighted_sum(arrays[k], 2.0, 0.0, False))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(len(arrays))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k, got in enumerate(results):
        assert got == [expected[k]] * 200


@vrir.jit
def axpy(alpha, x, y):
    for i in range(x.shape[0]):
        y[i] += alpha * x[i]


@vrir.jit
def corner_sum(A):
    return A[0, 0] + A[-1, -1] + A[0, -1]


def test_types_changing_between_calls_compile_once_each():
    base = np.arange(20.0).reshape(4, 5)
    layouts = [base, np.asfortranarray(base), base[:, ::2], base[::-1, ::-2],
               base.astype(np.float32), base.astype(np.int16)[::2]]
    before = runtime.COMPILE_COUNT
    for _ in range(3):
        for A in layouts:
            assert corner_sum(A) == A[0, 0] + A[-1, -1] + A[0, -1]
    distinct = {vrir.types.arg_type(A) for A in layouts}
    assert len(distinct) == 5  # the two strided float64 views share one
    assert runtime.COMPILE_COUNT - before <= len(distinct)
    assert distinct <= {types[0] for types in corner_sum.signatures}


def test_scalar_argument_kinds():
    x = np.arange(4.0)
    for alpha in (2, 2.5, np.float32(0.5), np.int8(-3), np.uint16(7), True, np.bool_(True)):
        y = np.ones(4)
        axpy(alpha, x, y)
        np.testing.assert_array_equal(y, 1 + alpha * x)
    y32 = np.ones(4, np.float32)
    axpy(np.float32(1.5), x.astype(np.float32), y32)
    np.testing.assert_array_equal(y32, 1 + np.float32(1.5) * np.arange(4, dtype=np.float32))


def test_signature_keys_name_the_types():
    key = runtime.signature_key
    a = np.zeros((3, 4))
    assert key(a, 1.0) == key(np.ones((5, 6)), 2.0)
    assert key(a) != key(np.asfortranarray(a)) != key(a[:, ::2])
    assert key(a) != key(a.astype(np.float32))
    assert key(1.0) != key(np.float64(1.0)) != key(1) != key(True) != key(1j)
    assert key(a, 1) != key(1, a)
    # what the Python path must describe (and refuse with its message)
    for odd in ([1.0], "s", None, 2**70, np.zeros(3).astype(">f8"), np.float64(1.0).reshape(())):
        assert key(odd) is None or not isinstance(odd, list)
    assert key(2**70) is None and key([1.0]) is None and key(np.zeros(3, ">f8")) is None


@pytest.mark.parametrize("bad, message", [
    (np.zeros(4, ">f8"), "unsupported array dtype >f8"),
    (2**70, "does not fit in int64"),
    ([1.0, 2.0], "unsupported argument type"),
    (np.zeros(4, object), "unsupported array dtype"),
    (np.array(1.0), "0-dimensional"),
])
def test_arguments_the_fast_path_does_not_describe(bad, message):
    x = np.arange(4.0)
    axpy(1.0, x, np.ones(4))  # a kernel is compiled and keyed
    with pytest.raises(TypeError, match=message):
        axpy(1.0, bad, np.ones(4))


def test_a_kernel_called_with_other_types_raises():
    # Kernel objects check what they get (a caller bypassing the dispatch).
    x = np.arange(4.0)
    axpy(1.0, x, np.ones(4))
    kernel = next(k for k in axpy._kernels.values() if k.argtypes[0] == "f64")
    with pytest.raises(TypeError, match="argument 2"):
        kernel((1.0, x.astype(np.float32), np.ones(4)))
    with pytest.raises(TypeError, match="argument 2"):
        kernel((1.0, np.ones((2, 2)), np.ones(4)))
    with pytest.raises(TypeError, match="argument 3: expected a NumPy array"):
        kernel((1.0, x, [1.0]))
    with pytest.raises(TypeError, match="takes 3 arguments"):
        kernel((1.0, x))
    with pytest.raises(TypeError, match="argument 1: expected f64, got str"):
        kernel(("1.0", x, np.ones(4)))
    with pytest.raises(TypeError):
        kernel((1.0, x[::2], np.ones(2)))  # compiled for contiguous arrays
    y = np.ones(4)
    kernel((1.0, x, y))
    np.testing.assert_array_equal(y, 1 + x)


def test_declared_integer_parameter_out_of_range():
    @vrir.jit("f64[::1], i32")
    def get(a, i):
        return a[i]

    a = np.arange(5.0)
    assert get(a, 3) == 3.0
    with pytest.raises((TypeError, OverflowError)):
        get(a, 2**40)


def test_array_subclasses_and_readonly_arrays():
    class Tagged(np.ndarray):
        pass

    A = np.arange(12.0).reshape(3, 4).view(Tagged)
    assert corner_sum(A) == 0.0 + 11.0 + 3.0
    R = np.arange(12.0).reshape(3, 4)
    R.flags.writeable = False
    assert corner_sum(R) == 14.0


@vrir.jit
def to_int(x):
    return int(x), np.int64(x * 0.5), np.int32(x)


def test_int_of_a_float_truncates_and_checks():
    for x in (-3.7, 0.0, 3.99, 2.0**31 - 1, -2.0**31, -2.0**31 - 0.5, 1e9):
        assert to_int(x) == (int(x), int(x * 0.5), int(np.int32(x)))
    with pytest.raises(ValueError, match="NaN"):
        to_int(float("nan"))
    with pytest.raises(OverflowError):
        to_int(float("inf"))
    with pytest.raises(OverflowError):
        to_int(2.0**63)
    with pytest.raises(OverflowError):
        to_int(3e9)  # int() fits, np.int32() does not
    with pytest.raises(OverflowError):
        to_int(-2.0**31 - 1)


@vrir.jit
def doubled(A):
    return A * 2.0


@vrir.jit
def reversed_rows(A):
    B = A + 1.0
    return B[::-1, ::2]


@vrir.jit
def same_array(A):
    return A


@vrir.jit
def empty_rows(A):
    return np.zeros((0, A.shape[1]))


@vrir.jit
def flags_of(n):
    return np.ones(n) > 0.5


def test_one_array_result_built_in_c(layout2):
    # A single array result becomes a NumPy array in C that owns the
    # kernel's allocation (a capsule as its base frees it).
    A = layout2(np.arange(12.0).reshape(3, 4))
    r = doubled(A)
    np.testing.assert_array_equal(r, A * 2.0)
    assert type(r.base).__name__ == "PyCapsule"
    assert r.flags.writeable and r.flags.owndata is False
    r[0, 0] = -1.0  # writable, and not the argument
    assert A[0, 0] == 0.0
    # A strided view of a local array, negative strides included.
    v = reversed_rows(A)
    np.testing.assert_array_equal(v, (A + 1.0)[::-1, ::2])
    assert v.strides[0] < 0
    assert flags_of(3).dtype == np.bool_ and flags_of(3).all()


def test_array_results_the_python_side_builds():
    # An argument returned as is, and an empty array, go the Python way.
    A = np.arange(6.0).reshape(2, 3)
    r = same_array(A)
    np.testing.assert_array_equal(r, A)
    assert empty_rows(A).shape == (0, 3)


def _resident_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096


def test_array_results_are_freed():
    A = np.ones((512, 512))  # 2 MiB per result
    doubled(A)
    before = _resident_bytes()
    for _ in range(200):
        r = doubled(A)
        del r
    # 400 MiB if nothing were freed.
    assert _resident_bytes() - before < 64 * 2**20
