"""The observation of the player to act. Its first 30 values are OpenSpiel's
``information_state_tensor`` of that player (the test checks them equal), then what a
network would otherwise have to add up from the history.

| offset | size | content                                                                |
|--------|------|------------------------------------------------------------------------|
| 0      | 2    | the seat to act, one-hot (absolute)                                    |
| 2      | 6    | own private card, one-hot over card ids 0..5 (rank = id // 2)          |
| 8      | 6    | the public card, one-hot (all 0 in the first round)                    |
| 14     | 16   | betting: round r's k-th action at 14 + 8r + 2k: (1, 0) call, (0, 1) raise |
| 30     | 2    | chips each seat has put in (absolute seats), / 13 (the most possible)  |
| 32     | 1    | the round: 0 first, 1 second                                           |

33 values.
"""

from __future__ import annotations

from ...core.jit import jit
from .rules import (
    CALL,
    CARD,
    HISTORY,
    MAX_PAID,
    MAX_PLAYERS,
    MAX_ROUND_ACTIONS,
    NUM_CARDS,
    NUM_ROUNDS,
    PAID,
    PLAYER,
    PUBLIC,
    RAISE,
    ROUND,
)

O_PRIVATE = MAX_PLAYERS
O_PUBLIC = O_PRIVATE + NUM_CARDS
O_BETTING = O_PUBLIC + NUM_CARDS
INFO_STATE_DIM = O_BETTING + 2 * NUM_ROUNDS * MAX_ROUND_ACTIONS  # OpenSpiel's 30
O_PAID = INFO_STATE_DIM
O_ROUND = O_PAID + MAX_PLAYERS
OBS_DIM = O_ROUND + 1


@jit
def observe_one(s, i, r, out):
    t = s.table[i]
    p = t[PLAYER]
    out[:] = 0.0
    out[p] = 1.0
    out[O_PRIVATE + t[CARD + p]] = 1.0
    if t[ROUND] > 0:
        out[O_PUBLIC + t[PUBLIC]] = 1.0
    for k in range(NUM_ROUNDS * MAX_ROUND_ACTIONS):  # slot k = 4 x round + action index
        a = t[HISTORY + k]
        if a == CALL:
            out[O_BETTING + 2 * k] = 1.0
        elif a == RAISE:
            out[O_BETTING + 2 * k + 1] = 1.0
    for q in range(MAX_PLAYERS):
        out[O_PAID + q] = t[PAID + q] / MAX_PAID
    out[O_ROUND] = t[ROUND]
