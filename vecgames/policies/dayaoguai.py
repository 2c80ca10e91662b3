"""Da Yaoguai baseline policies: njit functions ``(state, i, rules) -> action``.

- ``random``: uniform over the legal actions.
- ``weakest``: always beat with the weakest card that beats (weakest = the earliest rank in
  J, Q, K, 3, 8, 5, 10); lead the weakest card held; pick up only when nothing beats.
- ``pickup``: like ``weakest``, but picks up a small pile early (one or two cards on the
  table) rather than spend a strong card on it: when the weakest card that beats is a 5 (悟空)
  or a 10 (唐僧). (Picking up every small pile makes a table of such players hand single
  cards back and forth for ever.)
"""

from __future__ import annotations

from ..core.bits import lowest_bit
from ..core.jit import jit
from ..games.dayaoguai.rules import PASS, TABLE_N, legal_bits, random_legal

POLICIES = ("random", "weakest", "pickup")
RANDOM, WEAKEST, PICKUP = range(3)
SMALL_PILE = 2


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
def policy_action(policy, s, i, r):
    if policy == WEAKEST:
        return weakest(s, i, r)
    if policy == PICKUP:
        return pickup(s, i, r)
    return random_legal(s, i, r)
