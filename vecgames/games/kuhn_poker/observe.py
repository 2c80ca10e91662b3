"""The observation of the player to act. Its first 11 values are OpenSpiel's
``information_state_tensor`` of that player (tests/test_kuhn_poker.py checks them equal), then
the chips in the pot, which a network would otherwise have to add up from the history.

| offset | size | content                                                              |
|--------|------|----------------------------------------------------------------------|
| 0      | 2    | the seat to act, one-hot (absolute)                                  |
| 2      | 3    | own card, one-hot over card ids 0 J, 1 Q, 2 K                        |
| 5      | 6    | betting: the game's k-th action at 5 + 2k: (1, 0) pass, (0, 1) bet   |
| 11     | 2    | chips each seat has put in (absolute seats), / 2 (the most possible) |

13 values.
"""

from __future__ import annotations

from ...core.jit import jit
from .rules import (
    CARD,
    HISTORY,
    MAX_PAID,
    MAX_PLAYERS,
    MAX_STEPS,
    NUM_CARDS,
    PAID,
    PLAYER,
    STEPS,
)

O_CARD = MAX_PLAYERS
O_BETTING = O_CARD + NUM_CARDS
INFO_STATE_DIM = O_BETTING + 2 * MAX_STEPS  # OpenSpiel's 11 (6 x players - 1)
O_PAID = INFO_STATE_DIM
OBS_DIM = O_PAID + MAX_PLAYERS


@jit
def observe_one(s, i, r, out):
    t = s.table[i]
    p = t[PLAYER]
    out[:] = 0.0
    out[p] = 1.0
    out[O_CARD + t[CARD + p]] = 1.0
    for k in range(t[STEPS]):
        out[O_BETTING + 2 * k + t[HISTORY + k]] = 1.0
    for q in range(MAX_PLAYERS):
        out[O_PAID + q] = t[PAID + q] / MAX_PAID
