"""The 5/6/7-card evaluator: exhaustive known tables, eval7 as oracle, invariances, errors."""

import eval7
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vecgames.core.cards import format_card, parse_cards
from vecgames.poker import describe, evaluate, hand_category
from vecgames.poker.distributions import category_distribution
from vecgames.poker.seven_card import (
    CARD_BIT,
    CARD_KEY,
    FLUSH_TABLE,
    RANK_TABLE,
    ROW_OFFSET,
    evaluate_5,
    evaluate_6,
    evaluate_7,
)
from vecgames.poker.seven_card_build import RANK_KEYS, build_tables

SEVEN_CARD_COUNTS = {
    "high card": 23_294_460, "one pair": 58_627_800, "two pair": 31_433_400,
    "three of a kind": 6_461_620, "straight": 6_180_020, "flush": 4_047_644,
    "full house": 3_473_184, "four of a kind": 224_848, "straight flush": 37_260,
    "royal flush": 4_324,
}
FIVE_CARD_COUNTS = {
    "high card": 1_302_540, "one pair": 1_098_240, "two pair": 123_552,
    "three of a kind": 54_912, "straight": 10_200, "flush": 5_108, "full house": 3_744,
    "four of a kind": 624, "straight flush": 36, "royal flush": 4,
}


def test_all_seven_card_hands_match_the_textbook_counts():
    table = category_distribution(7)
    assert table["hands"].to_dict() == SEVEN_CARD_COUNTS
    assert table["distinct"].sum() == 4_824
    assert table["hands"].sum() == 133_784_560


def test_all_five_card_hands_match_the_textbook_counts():
    table = category_distribution(5)
    assert table["hands"].to_dict() == FIVE_CARD_COUNTS
    assert table["distinct"].sum() == 7_462


def test_shipped_tables_are_what_the_builder_makes():
    built = build_tables()
    for name, shipped in [("CARD_KEY", CARD_KEY), ("CARD_BIT", CARD_BIT),
                          ("FLUSH_TABLE", FLUSH_TABLE), ("ROW_OFFSET", ROW_OFFSET),
                          ("RANK_TABLE", RANK_TABLE[:len(built["RANK_TABLE"])])]:
        np.testing.assert_array_equal(built[name], shipped, err_msg=name)
    # the padding that keeps masked reads of garbage keys inside the table
    assert not RANK_TABLE[len(built["RANK_TABLE"]):].any()
    assert len(RANK_TABLE) & (len(RANK_TABLE) - 1) == 0


def test_unchecked_evaluate_reads_no_table_out_of_bounds():
    # ids past the deck and repeated cards give a strength in range, not a crash
    # (hypothesis seed 6 of test_fuzz_poker once found a read past the tables)
    rng = np.random.default_rng(0)
    for n in (5, 6, 7):
        junk = rng.integers(-300, 300, (20_000, n))
        junk[:5] = [[7, 255, 63, 255, 181, 300, 25][:n]] * 5
        got = evaluate(junk, check=False)
        assert ((got >= 0) & (got <= 7462)).all()


def test_rank_keys_give_every_rank_multiset_its_own_sum():
    sums = {0: {0}}  # size -> sums of multisets of ranks seen so far
    sizes = [(0, 0)]
    for key in RANK_KEYS:
        sizes = [(s + c * key, n + c) for s, n in sizes for c in range(5) if n + c <= 7]
    values = [s for s, _ in sizes]
    assert len(values) == len(set(values)) == 76_155
    del sums


def _eval7(hand: np.ndarray) -> int:
    return eval7.evaluate([eval7.Card(format_card(int(c))) for c in hand])


def _same_order(ours: np.ndarray, theirs: np.ndarray) -> None:
    order = np.argsort(ours, kind="stable")
    o, t = ours[order], np.asarray(theirs)[order]
    assert np.all(np.diff(t) >= 0), "eval7 disagrees on which hand is stronger"
    np.testing.assert_array_equal(np.diff(o) == 0, np.diff(t) == 0)


hands_strategy = st.integers(5, 7).flatmap(
    lambda n: st.lists(st.permutations(range(52)).map(lambda p: p[:n]), min_size=2,
                       max_size=40))


@settings(max_examples=60, deadline=None)
@given(hands_strategy)
def test_order_matches_eval7(hands):
    arr = np.array(hands, np.int8)
    _same_order(evaluate(arr).astype(np.int64), [_eval7(h) for h in arr])


def test_order_matches_eval7_on_many_random_hands():
    rng = np.random.default_rng(7)
    for n in (5, 6, 7):
        hands = np.argsort(rng.random((4000, 52)), axis=1)[:, :n]
        _same_order(evaluate(hands).astype(np.int64), [_eval7(h) for h in hands])


@pytest.mark.parametrize("rows", [1, 63, 64, 65, 200])
def test_seven_card_rows_with_runs_of_flushes(rows):
    # The array kernel looks flushes up again after each block of 64 rows: blocks full of
    # flushes, without any, and a short last block must all agree with the scalar form.
    rng = np.random.default_rng(rows)
    hands = np.argsort(rng.random((rows, 52)), axis=1)[:, :7]
    suited = rng.random(rows) < np.where(np.arange(rows) % 128 < 64, 0.9, 0.0)
    for i in np.flatnonzero(suited):  # 5 to 7 cards of suit 0
        ranks = rng.choice(13, size=7, replace=False)
        k = rng.integers(5, 8)
        hands[i, :k] = 4 * ranks[:k]
        others = np.setdiff1d(np.arange(52), np.concatenate([hands[i, :k], 4 * ranks]))
        hands[i, k:] = rng.choice(others, size=7 - k, replace=False)
    assert (evaluate(hands) >= 5864).sum() >= suited.sum()  # the suited rows are flushes
    expected = [evaluate_7(*(int(c) for c in h)) for h in hands]
    np.testing.assert_array_equal(evaluate(hands.astype(np.int8)), expected)


@settings(max_examples=100, deadline=None)
@given(st.permutations(range(52)), st.permutations(range(4)), st.randoms())
def test_card_order_and_suit_relabelling_do_not_matter(deck, suits, rnd):
    hand = np.array(deck[:7])
    shuffled = hand.copy()
    rnd.shuffle(shuffled)
    relabelled = 4 * (hand >> 2) + np.array(suits)[hand & 3]
    assert evaluate(hand) == evaluate(shuffled) == evaluate(relabelled)


@settings(max_examples=50, deadline=None)
@given(st.permutations(range(52)))
def test_scalar_forms_equal_the_array_form(deck):
    c = deck[:7]
    assert evaluate_5(*c[:5]) == evaluate(np.array(c[:5]))
    assert evaluate_6(*c[:6]) == evaluate(np.array(c[:6]))
    assert evaluate_7(*c) == evaluate(np.array(c))
    # the best of the 21 five-card subsets is the 7-card strength
    from itertools import combinations
    assert evaluate_7(*c) == max(evaluate_5(*five) for five in combinations(c, 5))


def test_shapes_and_dtypes():
    hands = np.arange(2 * 3 * 7).reshape(2, 3, 7)
    out = evaluate(hands)
    assert out.shape == (2, 3) and out.dtype == np.int16
    assert evaluate(np.arange(7, dtype=np.uint8)) == evaluate(np.arange(7, dtype=np.int64))


@pytest.mark.parametrize("hand, category, text", [
    ("Ah Kh Qh Jh Th 2c 3d", 8, "royal flush"),
    ("5c 4c 3c 2c Ac Kd", 8, "straight flush, five high"),
    ("9c 9d 9h 9s 2c", 7, "four of a kind, nines"),
    ("As Ad Ac Kh Kd Ks", 6, "full house, aces full of kings"),
    ("Ks Kd 5c 5h 9d 2c 3s", 2, "two pair, kings and fives"),
    ("5h 4d 3c 2s Ah 9c 9d", 4, "straight, five high"),
    ("Ah 9h 7h 4h 2h Kd", 5, "flush, ace high"),
    ("6c 6d Ah 9s 2d", 1, "one pair, sixes"),
    ("7c 7d 7h As 2d", 3, "three of a kind, sevens"),
    ("Ah Kd 9c 7s 4h", 0, "high card, ace"),
])
def test_category_and_description(hand, category, text):
    strength = int(evaluate(parse_cards(hand)))
    assert hand_category(strength) == category
    assert describe(strength) == text


def test_vector_category_and_describe():
    s = evaluate(np.array([[0, 4, 8, 12, 16], [48, 44, 40, 36, 32]]))
    assert hand_category(s).tolist() == [8, 8]
    assert describe(s).tolist() == ["straight flush, six high", "royal flush"]


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="5, 6 or 7 cards"):
        evaluate(np.arange(4))
    with pytest.raises(ValueError, match=r"hand \(1,\).*repeated"):
        evaluate(np.array([[0, 1, 2, 3, 4], [0, 0, 1, 2, 3]]))
    with pytest.raises(ValueError, match="outside"):
        evaluate(np.array([0, 1, 2, 3, 52]))
    with pytest.raises(TypeError, match="integer"):
        evaluate(np.zeros(5))
    with pytest.raises(ValueError, match="1..7462"):
        describe(0)
    with pytest.raises(ValueError, match="1..7462"):
        hand_category(7463)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.int32, np.int64, np.uint64])
@pytest.mark.parametrize("size", [5, 6, 7])
def test_checked_evaluate_names_the_first_bad_hand(dtype, size):
    # The check runs block by block (64 hands) inside the evaluation pass: a defect in any
    # row of any block, first or last, must be found and named.
    rng = np.random.default_rng(size)
    hands = np.array([rng.permutation(52)[:size] for _ in range(300)]).astype(dtype)
    assert np.array_equal(evaluate(hands), evaluate(hands.astype(np.int64), check=False))
    info = np.iinfo(dtype)
    bad_ids = [v for v in (-128, -1, 52, 63, 64, 127, 128, 255, 256, 2**40)
               if info.min <= v <= info.max]
    for row in (0, 1, 63, 64, 130, 255, 256, 299):
        for col in range(size):
            repeated = hands.copy()
            repeated[row, col] = repeated[row, (col + 1 + row % (size - 1)) % size]
            out_of_range = hands.copy()
            out_of_range[row, col] = bad_ids[(row + col) % len(bad_ids)]
            for bad in (repeated, out_of_range):
                with pytest.raises(ValueError, match=rf"hand \({row},\) "):
                    evaluate(bad)
