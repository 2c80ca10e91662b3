"""Equity: exact known results, Monte Carlo inside its error, thread independence, ranges."""

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vecgames.core.cards import format_card
from vecgames.poker.equity import equity
from vecgames.poker.preflop import category_odds
from vecgames.poker.seven_card import evaluate


def test_ak_suited_vs_queens_to_the_last_board():
    result = equity(["AhKh", "QsQd"])
    assert result.attrs == {"method": "exact", "deals": 1_712_304}
    assert result[["wins", "ties", "losses"]].iloc[0].tolist() == [787_966, 6_732, 917_606]
    assert result[["wins", "ties", "losses"]].iloc[1].tolist() == [917_606, 6_732, 787_966]
    assert result["equity"].sum() == pytest.approx(1.0)


def _brute_force(hands, board, dead=()):
    """Every board completion scored with the array evaluator (independent of the kernels)."""
    from itertools import combinations

    known = [c for h in hands for c in h] + list(board) + list(dead)
    deck = [c for c in range(52) if c not in known]
    boards = np.array([list(board) + list(extra)
                       for extra in combinations(deck, 5 - len(board))], np.int64)
    strengths = np.stack([evaluate(np.hstack([np.tile(h, (len(boards), 1)), boards]))
                          for h in hands], axis=1)
    best = strengths.max(axis=1, keepdims=True)
    winners = strengths == best
    shares = winners / winners.sum(axis=1, keepdims=True)
    return shares.mean(axis=0), (winners & (winners.sum(1, keepdims=True) == 1)).sum(0)


@settings(max_examples=25, deadline=None)
@given(st.permutations(range(52)), st.integers(2, 5), st.sampled_from([3, 4, 5]))
def test_exact_equity_equals_brute_force_on_random_flops_turns_rivers(deck, players, board_n):
    hands = [deck[2 * p:2 * p + 2] for p in range(players)]
    board = deck[2 * players:2 * players + board_n]
    text = ["".join(format_card(c) for c in h) for h in hands]
    result = equity(text, board="".join(format_card(c) for c in board))
    shares, wins = _brute_force(hands, board)
    np.testing.assert_allclose(result["equity"], shares, atol=1e-12)
    assert result["wins"].tolist() == wins.tolist()


@settings(max_examples=6, deadline=None)
@given(st.permutations(range(52)), st.sampled_from([1, 2]))
def test_exact_heads_up_equals_brute_force_with_one_or_two_board_cards(deck, board_n):
    # 4 or 3 cards to come: the heads-up kernel scores the last two as one loop over pairs
    hands = [deck[0:2], deck[2:4]]
    board = deck[4:4 + board_n]
    text = ["".join(format_card(c) for c in h) for h in hands]
    result = equity(text, board="".join(format_card(c) for c in board))
    shares, wins = _brute_force(hands, board)
    np.testing.assert_allclose(result["equity"], shares, atol=1e-12)
    assert result["wins"].tolist() == wins.tolist()


@pytest.mark.parametrize("hands, board", [
    (["AhKh", "QsQd", "7c7d"], "2c9h"),
    (["AhKh", "QQ, 99:0.3", "random"], "2c9h7d"),  # weights, and a uniform 'random' player
    (["random", "JJ+", "AhKd"], "2c9h7d3s"),
])
def test_monte_carlo_is_within_its_error_of_exact(hands, board):
    exact = equity(hands, board=board)
    sampled = equity(hands, board=board, samples=400_000, seed=3)
    assert exact.attrs["method"] == "exact"
    assert sampled.attrs["method"] == "monte carlo"
    z = (sampled["equity"] - exact["equity"]).abs() / sampled["std_error"]
    assert (z < 4.5).all(), z


def test_same_seed_same_result_on_one_and_two_threads():
    before = numba.get_num_threads()
    try:
        runs = []
        for threads in (1, 2):
            numba.set_num_threads(threads)
            runs.append(equity(["QQ+, AKs", "random", "random"], samples=100_000, seed=9))
            runs.append(equity(["AhKh", "KK:0.5, QQ"], board="2c3d4h"))
    finally:
        numba.set_num_threads(before)
    assert runs[0].equals(runs[2]) and runs[1].equals(runs[3])


def test_ranges_are_dealt_jointly():
    # AA vs AA: only the two-pairs-of-aces splits exist; equity is exactly 1/2 each.
    result = equity(["AA", "AA"])
    assert result["equity"].tolist() == pytest.approx([0.5, 0.5])
    # Card removal: a range vs a hand holding one of its cards loses those combos.
    assert equity(["AhKh", "AA"])["combos"].tolist() == [1, 6]
    weighted = equity(["AhKh", "KK:0.5, QQ"])
    kk = equity(["AhKh", "KK"])
    qq = equity(["AhKh", "QQ"])
    # KK has 3 combos left at weight 0.5, QQ 6 at weight 1: the weighted mix of the two.
    mix = (1.5 * kk["equity"][0] + 6 * qq["equity"][0]) / 7.5
    assert weighted["equity"][0] == pytest.approx(mix, abs=1e-12)


def test_river_and_board_handling():
    result = equity(["AhAd", "KhKd"], board="Ac Kc 2h 3s 4d")
    assert result.attrs["deals"] == 1 and result["win"].tolist() == [1.0, 0.0]
    result = equity(["AhKd", "AcKh"], board="2c 7d 9s Jh")
    assert result["tie"].iloc[0] == pytest.approx(1.0)


@pytest.mark.parametrize("kwargs, error, match", [
    ({"hands": ["AhKh"]}, ValueError, "2..10 hands"),
    ({"hands": "AhKh QsQd"}, TypeError, "list"),
    ({"hands": ["AhKh", "QsQd"], "board": "2c 7d 9h Jc Qd Ks"}, ValueError, "at most 5"),
    ({"hands": ["AhKh", "QsQx"]}, ValueError, "hand 1"),
    ({"hands": ["AhKh", "AhQd"]}, ValueError, "without sharing a card"),
    ({"hands": ["AhKh", "QsQd"], "board": "Ah"}, ValueError, "hand 0"),
    ({"hands": ["AhKh", "QsQd"], "board": "2c", "dead": "2c"}, ValueError, "board and dead"),
    ({"hands": ["AhKh", "QsQd"], "samples": 0}, ValueError, "samples"),
    ({"hands": ["AhKh", "QsQd"], "seed": -1}, ValueError, "seed"),
    ({"hands": ["AA", "AA", "AA"]}, ValueError, "without sharing a card"),
])
def test_bad_input_is_named(kwargs, error, match):
    with pytest.raises(error, match=match):
        equity(**kwargs)


def test_category_odds_counts_every_completion():
    odds = category_odds("AhKh")
    assert odds["boards"].sum() == 2_118_760  # C(50, 5)
    assert odds.loc["royal flush", "boards"] == 1_084
    flop = category_odds("AhKh", board="QhJh2c")
    assert flop.loc["royal flush", "boards"] == 46 and flop["boards"].sum() == 1_081
    assert category_odds("2c3d", board="4h5s6d7c8c").loc["straight", "probability"] == 1.0
