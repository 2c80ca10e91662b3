"""The observation of the player to act (seats relative to it: own seat first).

| offset     | size | content                                                              |
|------------|------|----------------------------------------------------------------------|
| 0          | 28   | own hand                                                             |
| 28         | 28   | the table in order: (position + 1) / 28 for each card on it, else 0  |
| 56         | 28   | the top card, one-hot (all 0 when leading)                           |
| 84         | P    | cards held by each seat / 7                                          |
| 84 + P     | 28P  | per seat, the cards it picked up and still holds (public knowledge)  |
| 84 + 29P   | P    | beans won so far this game, x / (abs(x) + 20)                        |
| 84 + 30P   | P    | finishing place / P (0 while holding cards)                          |
| 84 + 31P   | P    | own seat, one-hot (absolute)                                         |
| 84 + 32P   | 3    | leading (table empty), the forced 方块J lead, cards on the table / 28 |

215 values for 4 players.
"""

from __future__ import annotations

from ...core.bits import popcount
from ...core.jit import jit
from .rules import (
    BEANS,
    FIRST,
    HAND,
    HAND_SIZE,
    KNOWN,
    NUM_CARDS,
    PLACE,
    PLAYER,
    TABLE_N,
    TOP,
)


def obs_dim(num_players: int) -> int:
    return 3 * NUM_CARDS + 32 * num_players + 3


@jit
def observe_one(s, i, r, out):
    t = s.table[i]
    n = r.num_players
    p = t[PLAYER]
    out[:] = 0.0
    hand = t[HAND + p]
    for c in range(NUM_CARDS):
        out[c] = (hand >> c) & 1
    for k in range(t[TABLE_N]):
        out[NUM_CARDS + s.table_cards[i, k]] = (k + 1) / NUM_CARDS
    if t[TOP] >= 0:
        out[2 * NUM_CARDS + t[TOP]] = 1.0
    o = 3 * NUM_CARDS
    for k in range(n):
        q = p + k
        if q >= n:
            q -= n
        out[o + k] = popcount(t[HAND + q]) / HAND_SIZE
        known = t[KNOWN + q]
        for c in range(NUM_CARDS):
            out[o + n + NUM_CARDS * k + c] = (known >> c) & 1
        beans = t[BEANS + q]
        out[o + 29 * n + k] = beans / (abs(beans) + 20.0)
        out[o + 30 * n + k] = t[PLACE + q] / n
    out[o + 31 * n + p] = 1.0
    out[o + 32 * n] = t[TOP] < 0
    out[o + 32 * n + 1] = t[FIRST]
    out[o + 32 * n + 2] = t[TABLE_N] / NUM_CARDS
