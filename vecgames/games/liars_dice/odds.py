"""Exact odds of a bid: each unknown die matches a 飞 bid with probability 1/3 (its face or a
wild one) and a 斋 bid with 1/6, independently, so the matches among n unknown dice are
Binomial(n, p) and a bid needing k more matches holds with P(Binomial(n, p) >= k).

``TAIL[mode, n, k]`` holds that probability for n up to ``MAX_TOTAL_DICE`` and k clipped to
0..n+1 (1 for k <= 0, 0 for k > n); the kernels read it for the seed's plausibility feature and
the heuristic policy. Entries are computed with exact rational arithmetic, then rounded.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import numpy as np

from ...core.jit import jit
from .bids import FEI, ZHAI, bid_count, bid_face, bid_mode

MAX_TOTAL_DICE = 60
MATCH_PROBABILITY = {FEI: Fraction(1, 3), ZHAI: Fraction(1, 6)}


def tail_probability(mode: int, unknown: int, need: int) -> Fraction:
    """P(Binomial(unknown, p_mode) >= need), exactly."""
    if need <= 0:
        return Fraction(1)
    if need > unknown:
        return Fraction(0)
    p = MATCH_PROBABILITY[mode]
    return sum((comb(unknown, j) * p**j * (1 - p) ** (unknown - j)
                for j in range(need, unknown + 1)), Fraction(0))


def _tail_table() -> np.ndarray:
    table = np.zeros((2, MAX_TOTAL_DICE + 1, MAX_TOTAL_DICE + 2), np.float64)
    for mode in (FEI, ZHAI):
        p = float(MATCH_PROBABILITY[mode])
        for n in range(MAX_TOTAL_DICE + 1):
            # P(X = j) by the stable recurrence, then suffix sums (exact to float rounding)
            pmf = np.array([comb(n, j) * p**j * (1 - p) ** (n - j) for j in range(n + 1)])
            tail = np.cumsum(pmf[::-1])[::-1]
            table[mode, n, : n + 1] = np.minimum(tail, 1.0)
            table[mode, n, 0] = 1.0
    return table


TAIL = _tail_table()


@jit
def own_matches(packed_counts, mode, face):
    """Dice among one seat's ``packed_counts`` (4 bits per face 1..6) that count for a bid."""
    n = (packed_counts >> (4 * (face - 1))) & 15
    if mode == FEI and face != 1:
        n += packed_counts & 15  # ones are wild in 飞
    return n


@jit
def bid_holds_probability(index, packed_counts, dice, total_dice):
    """P(bid index holds | own dice ``packed_counts``) with the other total_dice - dice unknown."""
    mode = bid_mode(index, total_dice)
    need = bid_count(index, total_dice) - own_matches(packed_counts, mode, bid_face(index,
                                                                                   total_dice))
    unknown = total_dice - dice
    if need <= 0:
        return 1.0
    if need > unknown:
        return 0.0
    return TAIL[mode, unknown, need]
