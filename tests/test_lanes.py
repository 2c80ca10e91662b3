"""The eight-lane vector type of lockstep kernels against numpy, lane by lane."""

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from vecgames.core.lanes import (
    WIDTH,
    lane,
    lane_bits,
    lane_index,
    lane_table,
    popcount,
    select,
    splat,
    srl,
    trailing_zeros,
    vgather,
    vload,
    vmax,
    vmin,
    vscatter,
    vstore,
    vstore_masked,
)

NUM_OPS = 20


@njit
def _all_ops(a, b, s, out):
    x = vload(a, 0)
    y = vload(b, 0)
    k = vload(s, 0)  # shift counts in [0, 63]
    results = (x + y, x - y, x * y, x & y, x | y, x ^ y, ~x, -x, x << k, x >> k, srl(x, k),
               x == y, x != y, x < y, x <= y, x > y, x >= y, vmin(x, y), vmax(x, y),
               select(x < y, x, y))
    for m in range(NUM_OPS):
        vstore(out, m * WIDTH, results[m])


def _expected(x, y, k):
    with np.errstate(over="ignore"):
        u = x.view(np.uint64)
        return [x + y, x - y, x * y, x & y, x | y, x ^ y, ~x, -x, x << k, x >> k,
                (u >> k.view(np.uint64)).view(np.int64), -(x == y).astype(np.int64),
                -(x != y).astype(np.int64), -(x < y).astype(np.int64),
                -(x <= y).astype(np.int64), -(x > y).astype(np.int64),
                -(x >= y).astype(np.int64), np.minimum(x, y), np.maximum(x, y),
                np.where(x < y, x, y)]


int64s = st.lists(st.integers(-2**63, 2**63 - 1), min_size=WIDTH, max_size=WIDTH)


@settings(max_examples=200, deadline=None)
@given(int64s, int64s, st.lists(st.integers(0, 63), min_size=WIDTH, max_size=WIDTH))
def test_operators_match_numpy_lane_by_lane(xs, ys, shifts):
    x, y, k = (np.array(v, np.int64) for v in (xs, ys, shifts))
    out = np.zeros(NUM_OPS * WIDTH, np.int64)
    _all_ops(x, y, k, out)
    for m, want in enumerate(_expected(x, y, k)):
        assert out[m * WIDTH:(m + 1) * WIDTH].tolist() == want.tolist(), m


@njit
def _bit_ops(a, b, out):
    x = vload(a, 0)
    vstore(out, 0, popcount(x))
    vstore(out, WIDTH, trailing_zeros(x))
    vstore(out, 2 * WIDTH, lane_index() + splat(np.int64(a[0])) * 0)
    return lane_bits(x & 1), lane(x, 3), lane(x, b)


@settings(max_examples=200, deadline=None)
@given(int64s, st.integers(0, WIDTH - 1))
def test_bit_counts_and_lane_access(xs, k):
    x = np.array(xs, np.int64)
    out = np.zeros(3 * WIDTH, np.int64)
    bits, third, kth = _bit_ops(x, k, out)
    u = [int(v) & (2**64 - 1) for v in xs]
    assert out[:WIDTH].tolist() == [bin(v).count("1") for v in u]
    assert out[WIDTH:2 * WIDTH].tolist() == [(v & -v).bit_length() - 1 if v else 64 for v in u]
    assert out[2 * WIDTH:].tolist() == list(range(WIDTH))
    assert bits == sum(1 << m for m in range(WIDTH) if xs[m] & 1)
    assert (third, kth) == (xs[3], xs[k])


@njit
def _memory_ops(a, index, mask, out, masked):
    g = vgather(a, vload(index, 0))
    vstore(out, 0, g)
    vscatter(out, vload(index, 0) + WIDTH, g + 1, vload(mask, 0))
    vstore_masked(masked, 0, g, vload(mask, 0))


@settings(max_examples=100, deadline=None)
@given(st.permutations(range(WIDTH)), st.lists(st.booleans(), min_size=WIDTH, max_size=WIDTH))
def test_gather_scatter_and_masked_store(perm, on):
    a = np.arange(100, 100 + WIDTH, dtype=np.int64)
    index = np.array(perm, np.int64)
    mask = -np.array(on, np.int64)
    out = np.zeros(2 * WIDTH, np.int64)
    masked = np.full(WIDTH, -7, np.int64)
    _memory_ops(a, index, mask, out, masked)
    assert out[:WIDTH].tolist() == a[index].tolist()
    scattered = np.zeros(WIDTH, np.int64)
    scattered[index[np.array(on)]] = a[index][np.array(on)] + 1
    assert out[WIDTH:].tolist() == scattered.tolist()
    assert masked.tolist() == np.where(on, a[index], -7).tolist()


@njit
def _rows(a, k, f, value):
    table = lane_table(a)
    row = table[k]
    before = row[f]
    row[f] += value
    return before


def test_lane_table_rows_are_columns():
    a = np.arange(5 * WIDTH, dtype=np.int64).reshape(5, WIDTH)
    assert _rows(a, 3, 4, 1000) == a[4, 3] - 1000
    assert a[4, 3] == 4 * WIDTH + 3 + 1000
    assert a.sum() == (5 * WIDTH) * (5 * WIDTH - 1) // 2 + 1000


@pytest.mark.skipif(not numba.config.BOUNDSCHECK, reason="needs NUMBA_BOUNDSCHECK=1")
def test_out_of_range_lanes_raise_under_boundscheck():
    a = np.zeros(WIDTH, np.int64)
    with pytest.raises(IndexError):
        _memory_ops(a, np.full(WIDTH, WIDTH, np.int64), np.zeros(WIDTH, np.int64),
                    np.zeros(2 * WIDTH, np.int64), np.zeros(WIDTH, np.int64))
    with pytest.raises(IndexError):
        _rows(np.zeros((5, WIDTH), np.int64), WIDTH, 0, 1)
    with pytest.raises(IndexError):
        _rows(np.zeros((5, WIDTH), np.int64), 0, 5, 1)


def test_lane_table_needs_eight_columns():
    with pytest.raises(ValueError, match="8 columns"):
        _rows(np.zeros((5, 4), np.int64), 0, 0, 1)
