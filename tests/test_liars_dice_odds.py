"""Liar's Dice odds (vecgames/games/liars_dice/report_odds.py): exact values, tables, and
agreement with the simulator's own rolls."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import numpy as np
import pytest

from vecgames.games.liars_dice.report_odds import bid_probability, check_by_simulation, odds_table


def brute_force(bid, own, unknown):
    """P(bid holds) by enumerating every roll of the unknown dice."""
    mode, count, face = bid
    hits = 0
    for roll in product(range(1, 7), repeat=unknown):
        dice = list(own) + list(roll)
        n = sum(d == face or (mode == "fei" and d == 1) for d in dice)
        hits += n >= count
    return Fraction(hits, 6**unknown)


@pytest.mark.parametrize("bid", [("fei", 4, 5), ("fei", 2, 2), ("zhai", 3, 1), ("zhai", 2, 6),
                                 ("fei", 8, 6), ("zhai", 1, 3)])
@pytest.mark.parametrize("own", [(1, 5, 5, 2, 3), (2, 3, 4, 6, 6), (1, 1, 1, 1, 1)])
def test_exact_probability_matches_enumeration(bid, own):
    assert bid_probability(bid, own, 4, exact=True) == brute_force(bid, own, 4)


def test_known_values():
    # one 5 of one's own, 飞 4x5, five unknown dice: P(Bin(5, 1/3) >= 3) = 51/243
    assert bid_probability(("fei", 4, 5), [2, 5, 3, 4, 6], 5, exact=True) == Fraction(17, 81)
    assert bid_probability(("zhai", 1, 1), [1, 2, 3, 4, 5], 5) == 1.0
    assert bid_probability(("zhai", 11, 1), [1] * 5, 5) == 0.0


def test_odds_table_shape_and_monotone():
    t = odds_table("zhai", own_dice=5, unknown_dice=10)
    assert t.shape == (6, 15) and t.index.name == "own matches"
    values = t.to_numpy()
    assert (np.diff(values, axis=1) <= 1e-15).all()  # a higher count is less likely
    assert (np.diff(values, axis=0) >= -1e-15).all()  # more own matches help
    assert t.loc[0, 1] == pytest.approx(1 - (5 / 6) ** 10)


def test_simulation_agrees_with_the_formula():
    for bid, players, dice in ((("fei", 4, 5), 2, 5), (("zhai", 3, 1), 3, 3)):
        df = check_by_simulation(bid, num_players=players, dice=dice, games=100_000, seed=1)
        assert df["tables"].sum() == 100_000
        assert (df["z"].abs() < 4.5).all(), df
        assert (df["z"] ** 2).mean() < 6


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="own_dice value"):
        bid_probability(("fei", 3, 4), [0, 2], 5)
    with pytest.raises(ValueError, match="mode"):
        odds_table("wild")
    with pytest.raises(ValueError, match="unknown_dice"):
        bid_probability(("fei", 3, 4), [2], -1)
