"""The 3-card evaluator: exact category counts, order, rule options, input checks."""

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from vecgames import parse_cards
from vecgames.poker import beats_3, category_3, evaluate_3

ALL_HANDS = np.array(list(itertools.combinations(range(52), 3)), dtype=np.int8)
RANKS = "23456789TJQKA"


def reference_key(cards, a23_second=False):
    """A plain-Python ranking written from RULES.md §2: (category, tie-break ranks)."""
    ranks = sorted((c >> 2 for c in cards), reverse=True)
    flush = len({c & 3 for c in cards}) == 1
    if ranks[0] == ranks[2]:
        return (5, ranks[0])
    straight = ranks[0] - ranks[2] == 2 and len(set(ranks)) == 3
    wheel = ranks == [12, 1, 0]
    if straight or wheel:
        top = (11.5 if a23_second else 0.5) if wheel else ranks[0]  # A23: lowest or second
        return (4 if flush else 2, top)
    if flush:
        return (3, *ranks)
    if len(set(ranks)) == 2:
        pair = ranks[1]
        kicker = ranks[0] if ranks[0] != pair else ranks[2]
        return (1, pair, kicker)
    return (0, *ranks)


@pytest.fixture(scope="module")
def strengths():
    return evaluate_3(ALL_HANDS)


def test_exact_category_counts(strengths):
    counts = np.bincount(category_3(strengths), minlength=6)
    # high card, pair, straight, flush, straight flush, three of a kind
    assert counts.tolist() == [16440, 3744, 720, 1096, 48, 52]


@pytest.mark.parametrize("a23", ["lowest", "second"])
def test_order_matches_reference_on_all_hands(a23):
    s = evaluate_3(ALL_HANDS, a23=a23)
    keys = [reference_key(h.tolist(), a23 == "second") for h in ALL_HANDS]
    distinct = sorted(set(keys))
    rank_of = {k: r for r, k in enumerate(distinct)}
    ref = np.array([rank_of[k] for k in keys])
    # same ties and same order: the strengths sorted by reference rank never decrease
    order = np.argsort(ref, kind="stable")
    assert np.all(np.diff(s[order]) >= 0)
    assert np.all((np.diff(s[order]) > 0) == (np.diff(ref[order]) > 0))
    assert len(np.unique(s)) == len(distinct)


def test_known_hands():
    hand = lambda text: evaluate_3(parse_cards(text))  # noqa: E731
    assert hand("2c2d2h") > hand("AhKhQh")  # 豹子 beats 顺金
    assert hand("AhKhQh") > hand("KhQhJh")
    assert hand("3h4h5h") > hand("Ah2h3h")  # A-2-3 lowest by default
    assert evaluate_3(parse_cards("Ah2h3h"), a23="second") > evaluate_3(parse_cards("KhQhJh"))
    assert evaluate_3(parse_cards("Ah2h3h"), a23="second") < evaluate_3(parse_cards("AhKhQh"))
    assert hand("AcAdKh") > hand("AhAsQc")  # pair, then kicker
    assert hand("KcKd2h") < hand("AhAs2c")
    assert hand("AcKdJh") == hand("AsKcJd")  # suits never rank
    assert category_3(hand("AhKhQh")) == 4
    assert category_3(hand("2h5c9d")) == 0


def test_special_235_beats_only_trips():
    s235 = evaluate_3(parse_cards("2h3c5d"))
    trips = evaluate_3(parse_cards("AhAcAd"))
    pair = evaluate_3(parse_cards("2c2d4h"))
    suited_235 = evaluate_3(parse_cards("2h3h5h"))
    assert not beats_3(s235, trips)
    assert beats_3(s235, trips, special_235=True)
    assert not beats_3(trips, s235, special_235=True)
    assert beats_3(pair, s235, special_235=True)
    assert beats_3(trips, suited_235, special_235=True)  # a flush 2-3-5 is not special


@given(st.lists(st.integers(0, 51), min_size=3, max_size=3, unique=True))
def test_any_order_of_cards_gives_the_same_strength(cards):
    perms = np.array(list(itertools.permutations(cards)))
    assert len(set(evaluate_3(perms).tolist())) == 1


def test_leading_shape_is_kept():
    cards = ALL_HANDS[:24].reshape(2, 3, 4, 3)
    assert evaluate_3(cards).shape == (2, 3, 4)


@pytest.mark.parametrize(
    "cards, error, fragment",
    [([[0, 1]], ValueError, "last axis of 3"), ([[0, 0, 1]], ValueError, "repeated card"),
     ([[0, 1, 52]], ValueError, "outside"), ([[0.0, 1.0, 2.0]], TypeError, "integer array")],
)
def test_bad_cards(cards, error, fragment):
    with pytest.raises(error, match=fragment):
        evaluate_3(cards)


def test_bad_a23():
    with pytest.raises(ValueError, match="a23"):
        evaluate_3([[0, 1, 2]], a23="high")
