"""Liar's Dice odds: the exact probability that a bid holds, tables of it, and a check of both
the formula and the simulator's dice by simulation.

Given one's own dice, the other ``unknown`` dice each count for a bid independently with
probability 1/3 in 飞 (the face or a wild one) and 1/6 in 斋 (the face alone), so a bid of
``count`` that one's own dice cover ``m`` times holds with P(Binomial(unknown, p) >= count - m).

>>> from vecgames.games.liars_dice.report_odds import bid_probability
>>> bid_probability(("fei", 4, 5), own_dice=[2, 5, 3, 4, 6], unknown_dice=5, exact=True)
Fraction(17, 81)
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import numpy as np
import pandas as pd

from vecgames.core.validation import check_int
from vecgames.games.liars_dice.bids import FEI, MODE_NAMES, Bid, check_bid
from vecgames.games.liars_dice.env import LiarsDiceEnv
from vecgames.games.liars_dice.odds import MATCH_PROBABILITY, tail_probability
from vecgames.games.liars_dice.rules import field


def _mode(mode: str) -> int:
    return check_bid((mode, 1, 2), name="mode")[0]


def own_matches(bid: Bid, own_dice: Sequence[int]) -> int:
    """How many of one's own dice count for ``bid`` (ones are wild in 飞)."""
    mode, _, face = check_bid(bid)
    for d in own_dice:
        check_int(d, "own_dice value", 1, 6)
    return sum(d == face or (mode == FEI and d == 1) for d in own_dice)


def bid_probability(bid: Bid, own_dice: Sequence[int], unknown_dice: int,
                    exact: bool = False) -> float | Fraction:
    """P(bid holds | own dice) with ``unknown_dice`` other dice on the table; a Fraction with
    ``exact=True``."""
    mode, count, _ = check_bid(bid)
    unknown_dice = check_int(unknown_dice, "unknown_dice", 0, 10_000)
    p = tail_probability(mode, unknown_dice, count - own_matches(bid, own_dice))
    return p if exact else float(p)


def odds_table(mode: str, own_dice: int = 5, unknown_dice: int = 5) -> pd.DataFrame:
    """P(bid of ``count`` holds) by how many of one's ``own_dice`` count for it (rows, 0 ..
    own_dice) and the bid's count (columns, 1 .. own_dice + unknown_dice)."""
    m = _mode(mode)
    own_dice = check_int(own_dice, "own_dice", 0, 10_000)
    unknown_dice = check_int(unknown_dice, "unknown_dice", 0, 10_000)
    counts = range(1, own_dice + unknown_dice + 1)
    table = [[float(tail_probability(m, unknown_dice, c - k)) for c in counts]
             for k in range(own_dice + 1)]
    return pd.DataFrame(table, index=pd.Index(range(own_dice + 1), name="own matches"),
                        columns=pd.Index(list(counts), name="count"))


def check_by_simulation(bid: Bid, num_players: int = 2, dice: int = 5, games: int = 200_000,
                        seed: int = 0) -> pd.DataFrame:
    """Roll ``games`` tables with the simulator and compare, for every number m of seat 0's
    dice that count for ``bid``, the share of tables where the bid holds with the exact
    probability. Columns: ``tables``, ``exact``, ``estimate``, ``std_error`` (of the exact
    probability at that many tables) and ``z`` ((estimate - exact) / std_error)."""
    mode, count, face = check_bid(bid, num_players * dice)
    env = LiarsDiceEnv(num_envs=check_int(games, "games", 1), seed=seed,
                       num_players=num_players, dice=dice)
    env.reset()
    seat0 = field(env.state, "dice")[:, 0]
    total = field(env.state, "total")
    own = (seat0 >> (4 * (face - 1))) & 15
    counted = (total >> (8 * (face - 1))) & 255
    if mode == FEI:
        own = own + (seat0 & 15)
        counted = counted + (total & 255)
    unknown = (num_players - 1) * dice
    rows = []
    for m in range(dice + 1):
        tables = int((own == m).sum())
        if tables == 0:
            continue
        exact = float(tail_probability(mode, unknown, count - m))
        estimate = float((counted[own == m] >= count).mean())
        se = float(np.sqrt(exact * (1 - exact) / tables))
        rows.append({"own matches": m, "tables": tables, "exact": exact, "estimate": estimate,
                     "std_error": se, "z": (estimate - exact) / se if se > 0 else 0.0})
    df = pd.DataFrame(rows).set_index("own matches")
    df.attrs.update(bid=(MODE_NAMES[mode], count, face), num_players=num_players, dice=dice,
                    games=games, seed=seed, p_match=float(MATCH_PROBABILITY[mode]))
    return df

