"""Hold'em range notation: parse_range, combo indexing, hand classes, dead cards."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vecgames.core.cards import format_card, parse_cards
from vecgames.poker.ranges import (
    ALL_COMBOS,
    CLASS_NAMES,
    CLASS_SIZES,
    COMBO_CLASS,
    class_combos,
    combo_index,
    hand_class,
    parse_range,
    remove_cards,
)


def names(combos):
    return {format_card(a) + format_card(b) for a, b in combos}


def test_all_combos_index_order():
    assert ALL_COMBOS.shape == (1326, 2) and ALL_COMBOS.dtype == np.int8
    assert np.all(ALL_COMBOS[:, 0] > ALL_COMBOS[:, 1])
    for k, (hi, lo) in enumerate(ALL_COMBOS.tolist()):
        assert combo_index(hi, lo) == combo_index(lo, hi) == k
    assert len({tuple(r) for r in ALL_COMBOS.tolist()}) == 1326


def test_combo_index_rejects_bad_cards():
    with pytest.raises(ValueError):
        combo_index(5, 5)
    with pytest.raises(ValueError):
        combo_index(0, 52)


@pytest.mark.parametrize(
    "text, count",
    [("QQ+", 18), ("AKs", 4), ("AKo", 12), ("AK", 16), ("A5s-A2s", 16), ("22-55", 24),
     ("random", 1326), ("any", 1326), ("XxXx", 1326), ("22+", 78), ("A2s+", 48),
     ("KTo+", 36), ("K9+", 64), ("AA", 6), ("AhKh", 1), ("AsKd", 1), ("ATs-A7s", 16),
     ("aks", 4), ("KAs", 4), ("A10s", 4), ("1010", 6), ("10h9h", 1), ("AKs+", 4), ("AA+", 6)],
)
def test_counts(text, count):
    combos, weights = parse_range(text)
    assert combos.shape == (count, 2) and combos.dtype == np.int8
    assert weights.dtype == np.float64 and np.all(weights == 1.0)


def test_output_sorted_by_index_and_higher_card_first():
    combos, _ = parse_range("76s, AA, 2c3d, QJo:0.3")
    idx = [combo_index(a, b) for a, b in combos.tolist()]
    assert idx == sorted(idx)
    assert np.all(combos[:, 0] > combos[:, 1])


def test_mixed_range_with_weights():
    combos, weights = parse_range(" QQ+, AKs ,A5s-A2s,KQo , 76s:0.5 ")
    assert len(combos) == 18 + 4 + 16 + 12 + 4
    half = combos[weights == 0.5]
    assert names(half) == {"7c6c", "7d6d", "7h6h", "7s6s"}
    assert np.count_nonzero(weights == 1.0) == 50


def test_specific_sets():
    assert names(parse_range("AKs")[0]) == {"AcKc", "AdKd", "AhKh", "AsKs"}
    assert names(parse_range("KdAs")[0]) == {"AsKd"}
    assert {hand_class(*c) for c in parse_range("A2s+")[0]} == {
        "A" + r + "s" for r in "23456789TJQK"
    }
    assert {hand_class(*c) for c in parse_range("KTo+")[0]} == {"KTo", "KJo", "KQo"}
    assert {hand_class(*c) for c in parse_range("K9+")[0]} == {
        f"K{r}{s}" for r in "9TJQ" for s in "so"
    }


@pytest.mark.parametrize(
    "a, b", [("22-55", "55-22"), ("ATs-A7s", "A7s-ATs"), ("A5o-A2o", "A2o - A5o"),
             ("K9-K7", "K7-K9"), ("KAs", "AKs"), ("T9", "109"),
             ("ahkh", "AhKh"), ("RANDOM", "xxxx")],
)
def test_equivalent_spellings(a, b):
    ca, wa = parse_range(a)
    cb, wb = parse_range(b)
    assert np.array_equal(ca, cb) and np.array_equal(wa, wb)


def test_later_weight_wins():
    combos, weights = parse_range("AK, AKs:0.5")
    assert len(combos) == 16
    assert set(hand_class(*c) for c in combos[weights == 0.5]) == {"AKs"}
    combos, weights = parse_range("AKs:0.5, AK")
    assert np.all(weights == 1.0)
    combos, weights = parse_range("QQ+:0.25, AhAs:0.75, AA")
    assert len(combos) == 18
    assert np.all(weights[[hand_class(*c) == "AA" for c in combos]] == 1.0)
    combos, weights = parse_range("QQ+:0.25, AhAs:0.75")
    assert names(combos[weights == 0.75]) == {"AsAh"}


@pytest.mark.parametrize(
    "text, token, k",
    [("QQ+, AKx", "AKx", 2), ("AAs", "AAs", 1), ("QQ, AAo", "AAo", 2), ("A2s-K5s", "A2s-K5s", 1),
     ("76s:1.5", "76s:1.5", 1), ("76s:0", "76s:0", 1), ("76s:-0.5", "76s:-0.5", 1),
     ("76s:abc", "76s:abc", 1), ("76s:nan", "76s:nan", 1), ("76s:", "76s:", 1),
     ("QQ,,AK", "", 2), ("QQ,", "", 2), ("AhAh", "AhAh", 1), ("AhKh+", "AhKh+", 1),
     ("AhKh-AhQh", "AhKh-AhQh", 1), ("ZZ", "ZZ", 1), ("AKq", "AKq", 1), ("AhKx", "AhKx", 1),
     ("ATs-A7o", "ATs-A7o", 1), ("22-AKs", "22-AKs", 1), ("QQ-", "QQ-", 1), ("A", "A", 1),
     ("AKs++", "AKs++", 1), ("11", "11", 1), ("AK:0.5:0.5", "AK:0.5:0.5", 1)],
)
def test_malformed_tokens(text, token, k):
    with pytest.raises(ValueError) as info:
        parse_range(text)
    msg = str(info.value)
    assert f"bad range token {token!r}" in msg
    assert f"token {k} of" in msg


@pytest.mark.parametrize("text", ["", "   "])
def test_empty_text(text):
    with pytest.raises(ValueError, match="empty"):
        parse_range(text)


def test_non_str_rejected():
    with pytest.raises(TypeError):
        parse_range(["AA"])


def test_classes_partition_all_combos():
    assert len(CLASS_NAMES) == len(set(CLASS_NAMES)) == 169
    assert CLASS_SIZES.sum() == 1326
    seen = np.concatenate([[combo_index(*c) for c in class_combos(n)] for n in CLASS_NAMES])
    assert np.array_equal(np.sort(seen), np.arange(1326))
    for k, n in enumerate(CLASS_NAMES):
        assert CLASS_SIZES[k] == {2: 6, 3: 4 if n.endswith("s") else 12}[len(n)]
        assert all(hand_class(*c) == n for c in class_combos(n))
        assert np.all(COMBO_CLASS[[combo_index(*c) for c in class_combos(n)]] == k)


def test_class_grid_order():
    grid = np.array(CLASS_NAMES).reshape(13, 13)
    assert grid[0, 0] == "AA" and grid[12, 12] == "22"
    assert grid[0, 1] == "AKs" and grid[1, 0] == "AKo"
    assert grid[0, 12] == "A2s" and grid[12, 0] == "A2o"
    assert grid[4, 5] == "T9s" and grid[5, 4] == "T9o"
    assert all(grid[i, i] == grid[i, i][0] * 2 for i in range(13))


def test_hand_class_examples():
    assert hand_class(*parse_cards("AhKh")) == "AKs"
    assert hand_class(*parse_cards("2cAd")) == "A2o"
    assert hand_class(*parse_cards("QsQc")) == "QQ"
    for bad in ["AKx", "AA s", "AK", "AAs", "", "AhKh"]:
        with pytest.raises(ValueError):
            class_combos(bad)


def test_remove_cards():
    combos, weights = parse_range("AA, AKs:0.5, 72o")
    kept, kw = remove_cards(combos, weights, parse_cards("Ah 2c"))
    assert len(kept) == 3 + 3 + 9
    assert not np.isin(kept, parse_cards("Ah 2c")).any()
    assert kept.dtype == np.int8 and kw.dtype == np.float64
    assert np.count_nonzero(kw == 0.5) == 3
    same, _ = remove_cards(combos, weights, "Ah2c")
    assert np.array_equal(same, kept)
    assert len(remove_cards(combos, weights, np.array([], dtype=np.int64))[0]) == len(combos)
    assert len(remove_cards(*parse_range("random"), parse_cards("AhKd7c"))[0]) == 1176
    with pytest.raises(ValueError):
        remove_cards(combos, weights[:-1], [0])
    with pytest.raises(ValueError):
        remove_cards(combos, weights, [52])


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from(CLASS_NAMES), min_size=1, max_size=30),
    st.sampled_from([",", ", ", " , "]),
)
def test_class_names_roundtrip(picked, sep):
    combos, weights = parse_range(sep.join(picked))
    expected = set(itertools.chain.from_iterable(
        (combo_index(*c) for c in class_combos(n)) for n in picked
    ))
    assert [combo_index(*c) for c in combos] == sorted(expected)
    assert np.all(weights == 1.0)
