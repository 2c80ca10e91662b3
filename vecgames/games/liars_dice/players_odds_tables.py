"""Tables for the Liar's Dice ``odds`` player (``liars_dice_odds``).

- Every hand of d dice (d = 0 .. ``MAX_DICE``) as a vector of face counts, with its exact
  multinomial probability ``d! / (c1! ... c6!) / 6**d`` and, per bid column, how many of its
  dice count for a bid of that column: ``COLUMNS`` = 11 columns in the bid index order, 飞 faces
  2..6 (the face plus the ones), then 斋 faces 2, 3, 4, 5, 6, 1 (the face alone). Hands of d
  dice are rows ``HAND_START[d] .. HAND_START[d + 1] - 1`` (252 rows for 5 dice).
"""

from __future__ import annotations

from math import factorial

import numpy as np

from .bids import FEI_FACES, ZHAI_FACE_OF_RANK
from .rules import MAX_DICE

COLUMNS = FEI_FACES + len(ZHAI_FACE_OF_RANK)  # 11


def _compositions(d: int, parts: int) -> list[tuple[int, ...]]:
    """Every vector of ``parts`` non-negative ints summing to ``d`` (lexicographic order)."""
    if parts == 1:
        return [(d,)]
    return [(k, *rest) for k in range(d + 1) for rest in _compositions(d - k, parts - 1)]


def _hand_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    starts = [0]
    matches: list[list[int]] = []
    prior: list[float] = []
    for d in range(MAX_DICE + 1):
        for counts in _compositions(d, 6):  # counts[f - 1]: dice showing face f
            ways = factorial(d)
            for c in counts:
                ways //= factorial(c)
            prior.append(ways / 6**d)
            fei = [counts[face - 1] + counts[0] for face in range(2, 7)]
            zhai = [counts[face - 1] for face in ZHAI_FACE_OF_RANK]
            matches.append(fei + zhai)
        starts.append(len(prior))
    hand_matches = np.array(matches, np.int8)
    hand_prior = np.array(prior, np.float64)
    hand_start = np.array(starts, np.int64)
    for a in (hand_matches, hand_prior, hand_start):
        a.setflags(write=False)
    return hand_start, hand_matches, hand_prior


HAND_START, HAND_MATCHES, HAND_PRIOR = _hand_tables()
