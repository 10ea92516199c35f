"""variants.nrt.unmanaged: the same memory, shape and strides, without reference counts."""

import sys

import numpy as np
from numba import njit

from variants.nrt import unmanaged


@njit(cache=True)
def _fill_rows(a):
    u = unmanaged(a)
    for i in range(u.shape[0]):
        row = u[i]                 # a view: counted on `a`, not on `u`
        for j in range(row.shape[0]):
            row[j] = i * 10 + j
    return u.sum()


@njit(cache=True)
def _strided_sum(a):
    return unmanaged(a[::2, 1]).sum()


def test_writes_go_to_the_original_array():
    a = np.zeros((4, 3), dtype=np.int64)
    refs = sys.getrefcount(a)
    total = _fill_rows(a)
    assert a.tolist() == [[0, 1, 2], [10, 11, 12], [20, 21, 22], [30, 31, 32]]
    assert total == a.sum()
    assert sys.getrefcount(a) == refs


def test_non_contiguous_views_keep_their_strides():
    a = np.arange(30, dtype=np.float64).reshape(6, 5)
    assert _strided_sum(a) == a[::2, 1].sum()
