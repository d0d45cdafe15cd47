"""The call path of a compiled function: arguments are written into one
argument block per thread and kernel, so calls from several threads, calls
after a failed call, keyword arguments and every kind of argument must
still reach the kernel intact."""
import threading

import numpy as np
import pytest

import vrir


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
