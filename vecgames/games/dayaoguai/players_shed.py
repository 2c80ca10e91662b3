"""What the ``shed`` Da Yaoguai player and the ``plan`` player's rollouts share: which card is
least useful later. A module without the dispatch, so that ``dayaoguai_plan`` imports it
without importing ``vecgames.games.dayaoguai.players`` (which imports the planner)."""

from __future__ import annotations

import numpy as np

from ...core.bits import lowest_bit, popcount
from ...core.jit import jit
from .rules import BEATEN_BY, NUM_CARDS

ALL_CARDS = (1 << NUM_CARDS) - 1
RANDOM_LEAD = 8  # shed: one lead in RANDOM_LEAD is drawn uniformly
# BEATS[c]: the set of cards that card c beats.
BEATS = np.array([sum(1 << b for b in range(NUM_CARDS) if (BEATEN_BY[b] >> a) & 1)
                  for a in range(NUM_CARDS)], np.int64)


@jit
def least_useful(cards, outside):
    """The cards of ``cards`` that beat the fewest of the ``outside`` cards (shed's choice
    is among them)."""
    fewest = NUM_CARDS + 1
    pool = np.int64(0)
    rest = cards
    while rest != 0:
        c = lowest_bit(rest)
        rest &= rest - 1
        k = popcount(BEATS[c] & outside)
        if k < fewest:
            fewest = k
            pool = np.int64(0)
        if k == fewest:
            pool |= np.int64(1) << c
    return pool
