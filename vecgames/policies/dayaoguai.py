"""Da Yaoguai baseline policies: njit functions ``(state, i, rules) -> action``.

- ``shed`` (simulate's default): plays to empty its hand. It beats whenever it can, with the
  weakest card that beats (the earliest rank in J, Q, K, 3, 8, 5, 10), so it picks up only
  when nothing beats; it leads the card that the fewest cards outside its own hand beat (a 5
  first: only the four 10s take it), so the next player is the likeliest to pick up a single
  card; ties are drawn at random, and one lead in 8 is a uniformly drawn card. Both draws come
  from the env's random stream and keep a table of ``shed`` players out of cycles: a
  deterministic table repeats a position for ever (see ``weakest``; without the 1-in-8 draw, 8
  of 100,000 games still cycled).
- ``random``: uniform over the legal actions.
- ``weakest``: always beat with the weakest card that beats; lead the weakest card held; pick
  up only when nothing beats. Deterministic: about 80% of its 4-player games enter a cycle of
  positions between the last two seats and never end (docs/dayaoguai.md).
- ``pickup``: like ``weakest``, but picks up a small pile early (one or two cards on the
  table) rather than spend a strong card on it: when the weakest card that beats is a 5 (悟空)
  or a 10 (唐僧). (Picking up every small pile makes a table of such players hand single
  cards back and forth for ever.)
"""

from __future__ import annotations

import numpy as np

from ..core.bits import lowest_bit, pick_set_bit, popcount
from ..core.jit import jit
from ..core.rng import next_u64
from ..games.dayaoguai.rules import (
    BEATEN_BY,
    HAND,
    NUM_CARDS,
    PASS,
    PLAYER,
    TABLE_N,
    legal_bits,
    random_legal,
)

POLICIES = ("random", "weakest", "pickup", "shed")
RANDOM, WEAKEST, PICKUP, SHED = range(4)
SMALL_PILE = 2
ALL_CARDS = (1 << NUM_CARDS) - 1
RANDOM_LEAD = 8  # shed: one lead in RANDOM_LEAD is drawn uniformly


@jit
def weakest(s, i, r):
    """The lowest card id among the legal plays (ids go up with rank), else pass."""
    cards = legal_bits(s.table[i], r) & ~(1 << PASS)
    return lowest_bit(cards) if cards != 0 else PASS


STRONG_RANK = 5  # 5 and 10: rank index 5 and 6


@jit
def pickup(s, i, r):
    t = s.table[i]
    a = weakest(s, i, r)
    if a != PASS and 0 < t[TABLE_N] <= SMALL_PILE and a // 4 >= STRONG_RANK:
        return PASS  # keep the strong card; the pile is still small
    return a


@jit
def shed(s, i, r):
    t = s.table[i]
    cards = legal_bits(t, r) & ~(np.int64(1) << PASS)
    if cards == 0:
        return PASS
    if t[TABLE_N] > 0 or cards & (cards - 1) == 0:  # a reply, or one card to lead
        return lowest_bit(cards)  # (the weakest card that beats: ids go up with rank)
    if next_u64(s.rng, i) % np.uint64(RANDOM_LEAD) == 0:
        return pick_set_bit(cards, next_u64(s.rng, i))
    # A lead: the cards with the fewest beaters among the cards it does not hold (public
    # knowledge only: who holds them is hidden), one drawn at random.
    outside = ALL_CARDS & ~t[HAND + t[PLAYER]]
    fewest = NUM_CARDS + 1
    pool = np.int64(0)
    for c in range(NUM_CARDS):
        if (cards >> c) & 1:
            k = popcount(BEATEN_BY[c] & outside)
            if k < fewest:
                fewest = k
                pool = np.int64(0)
            if k == fewest:
                pool |= np.int64(1) << c
    return pick_set_bit(pool, next_u64(s.rng, i))


@jit
def policy_action(policy, s, i, r):
    if policy == WEAKEST:
        return weakest(s, i, r)
    if policy == PICKUP:
        return pickup(s, i, r)
    if policy == SHED:
        return shed(s, i, r)
    return random_legal(s, i, r)
