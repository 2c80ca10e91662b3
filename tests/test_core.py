"""Core pieces: card parsing, random streams, bit tricks, dealing."""

import itertools

import numba
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from vecgames import format_cards, make, parse_cards
from vecgames.core.bits import (
    kth_set_bit,
    kth_set_bit_bytes,
    lowest_bit,
    opaque,
    pick_set_bit,
    popcount,
)
from vecgames.core.deal import deal_batch, deal_prefix
from vecgames.core.rng import below, check_seed, next_u64, seed_streams
from vecgames.core.simd import write_fields, write_thermometer


def test_parse_known_cards():
    assert parse_cards("AhKh 10d").tolist() == [4 * 12 + 2, 4 * 11 + 2, 4 * 8 + 1]
    assert parse_cards("2c,3d, Ts  js").tolist() == [0, 5, 35, 39]
    assert parse_cards("").tolist() == []


@pytest.mark.parametrize(
    "text, fragment",
    [("AhKx", "malformed"), ("1h", "malformed"), ("Ah Ah", "duplicate card 'Ah'"),
     ("AhKh10", "malformed"), ("Ah 11c", "malformed")],
)
def test_parse_rejects_bad_cards(text, fragment):
    with pytest.raises(ValueError, match=fragment):
        parse_cards(text)


def test_parse_rejects_non_string():
    with pytest.raises(TypeError, match="cards must be a str"):
        parse_cards(["Ah"])


@given(st.lists(st.integers(0, 51), unique=True, max_size=20))
def test_format_parse_round_trip(cards):
    assert parse_cards(format_cards(cards)).tolist() == cards


def test_format_rejects_bad_ids():
    with pytest.raises(ValueError, match="card id"):
        format_cards([52])


@pytest.mark.parametrize("seed", [-1, 2**64])
def test_seed_range(seed):
    with pytest.raises(ValueError, match="seed"):
        check_seed(seed)


@pytest.mark.parametrize("seed", [1.5, "1", True])
def test_seed_type(seed):
    with pytest.raises(TypeError, match="seed"):
        check_seed(seed)


def test_streams_depend_on_global_index_only():
    a = np.zeros(8, np.uint64)
    b = np.zeros(4, np.uint64)
    seed_streams(a, np.uint64(7), 0)
    seed_streams(b, np.uint64(7), 4)
    assert np.array_equal(a[4:], b)
    assert len(set(a.tolist())) == 8


@given(st.integers(1, 2**31), st.integers(0, 2**32 - 1))
def test_below_in_range(n, bits):
    assert 0 <= below(np.uint64(bits), n) < n


def test_stream_is_uniform_enough():
    rng = np.zeros(1, np.uint64)
    seed_streams(rng, np.uint64(3), 0)
    draws = np.array([below(np.uint64(next_u64(rng, 0)), 10) for _ in range(20_000)])
    counts = np.bincount(draws, minlength=10)
    # chi-square with 9 degrees of freedom: 27.9 is the 0.1% tail
    chi2 = ((counts - 2000) ** 2 / 2000).sum()
    assert chi2 < 27.9


@given(st.integers(1, 2**40))
def test_bit_helpers_match_python(x):
    bits = [k for k in range(41) if (x >> k) & 1]
    assert popcount(x) == len(bits)
    assert lowest_bit(x) == bits[0]
    for k, b in enumerate(bits):
        assert kth_set_bit(x, k) == b
        assert kth_set_bit_bytes(x, k) == b
    assert (x >> pick_set_bit(x, np.uint64(12345))) & 1
    assert opaque(x) == x and opaque(-x) == -x and opaque(~x) == ~x


def test_deal_is_a_uniform_prefix_of_a_permutation():
    deck = np.zeros(52, np.int8)
    rng = np.zeros(1, np.uint64)
    seed_streams(rng, np.uint64(11), 0)
    firsts = np.zeros(52, np.int64)
    pairs = set()
    for _ in range(20_000):
        deal_prefix(deck, rng, 0, 6)
        assert sorted(deck.tolist()) == list(range(52))
        firsts[deck[0]] += 1
        pairs.add((int(deck[0]), int(deck[1])))
    chi2 = ((firsts - 20_000 / 52) ** 2 / (20_000 / 52)).sum()
    assert chi2 < 90.0  # 51 degrees of freedom: 0.1% tail at about 87
    assert len(pairs) > 0.99 * len(list(itertools.permutations(range(52), 2))) * (
        1 - np.exp(-20_000 / 2652)
    )


def test_make_rejects_unknown_game():
    with pytest.raises(ValueError, match="unknown game 'poker'"):
        make("poker")


def test_deal_batch_is_reproducible_and_split_independent():
    numba.set_num_threads(1)
    one = deal_batch(1000, 7, seed=5)
    numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
    two = deal_batch(1000, 7, seed=5)
    assert one.shape == (1000, 7) and one.dtype == np.int8
    assert np.array_equal(one, two)
    assert np.array_equal(deal_batch(400, 7, seed=5, first_deal=600), one[600:])
    assert not np.array_equal(deal_batch(1000, 7, seed=6), one)
    assert all(len(set(row.tolist())) == 7 for row in one)
    counts = np.bincount(one.ravel(), minlength=52)
    expected = 7000 / 52
    assert ((counts - expected) ** 2 / expected).sum() < 90.0  # 51 dof, 0.1% tail about 87


@pytest.mark.parametrize("kwargs, fragment", [
    ({"num_deals": -1, "num_cards": 5}, "num_deals"),
    ({"num_deals": 3, "num_cards": 53}, "num_cards"),
    ({"num_deals": 3, "num_cards": 5, "seed": -2}, "seed"),
])
def test_deal_batch_rejects_bad_arguments(kwargs, fragment):
    with pytest.raises(ValueError, match=fragment):
        deal_batch(**kwargs)


def test_format_card_rejects_non_integers():
    with pytest.raises(TypeError, match="card id"):
        format_cards([1.7])


@numba.njit(cache=True)
def _simd_rows(out, start, x, scale, k):
    write_fields(out, start, x, scale, 25, 2)
    write_fields(out, start + 25, x, scale, 10, 1)
    write_thermometer(out, start + 35, k, 50)


@given(st.integers(0, 2**63 - 1), st.floats(0.0, 4.0, width=32), st.integers(-3, 60),
       st.integers(0, 6))
def test_simd_writers_match_python(x, scale, k, start):
    out = np.full(100, -7.0, np.float32)
    _simd_rows(out, start, np.int64(x), np.float32(scale), k)
    want = out.copy()
    want[start:start + 25] = [np.float32((x >> (2 * m)) & 3) * np.float32(scale)
                              for m in range(25)]
    want[start + 25:start + 35] = [np.float32((x >> m) & 1) * np.float32(scale)
                                   for m in range(10)]
    want[start + 35:start + 85] = [float(m < k) for m in range(50)]
    np.testing.assert_array_equal(out, want)
    assert (out[:start] == -7).all() and (out[start + 85:] == -7).all()  # nothing outside


def test_simd_writers_need_constant_sizes():
    @numba.njit
    def bad(out, n):
        write_thermometer(out, 0, 1, n)

    with pytest.raises(numba.TypingError, match="integer constant"):
        bad(np.zeros(8, np.float32), 4)


@pytest.mark.skipif(not numba.config.BOUNDSCHECK, reason="checked under NUMBA_BOUNDSCHECK=1")
def test_simd_writers_check_bounds():
    with pytest.raises(IndexError):
        _simd_rows(np.zeros(60, np.float32), 0, np.int64(1), np.float32(1.0), 2)
