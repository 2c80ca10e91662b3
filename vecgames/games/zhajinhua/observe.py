"""The observation of the player to act: the seed's attributes c1..c12, in [0, 1].

Seats are absolute (seat s is always block entry s); entries for seats >= num_players stay 0.
Chip amounts x are squashed to x / (x + scale), so they stay in [0, 1) without a cap.

| offset | size | content (seed attribute)                                                    |
|--------|------|------------------------------------------------------------------------------|
| 0      | 5    | number of players one-hot, 2..6 (c1)                                         |
| 5      | 6    | seat of the player to act, one-hot (c8)                                      |
| 11     | 6    | seat that opened the game, one-hot: the seating order (c12)                  |
| 17     | 1    | 1 in the action phase, 0 in the look phase                                   |
| 18     | 1    | 1 if the player to act has looked at its cards                               |
| 19     | 52   | own cards, one-hot by card id; all 0 while blind (c3)                        |
| 71     | 6    | own hand category one-hot (0 high card .. 5 豹子); all 0 while blind (c3)     |
| 77     | 6    | seats still in the game (c6)                                                 |
| 83     | 6    | seats out of the game (c5)                                                   |
| 89     | 6    | seats that have looked (public: looking is seen by the table)                |
| 95     | 36   | per seat, the category one-hot of its hand if the player to act saw it by    |
|        |      | comparing with that seat (c4)                                                |
| 131    | 6    | chips each seat paid this game, x / (x + 64)                                 |
| 137    | 90   | per seat, one-hot of its last action other than a legal look-phase choice (c2)|
| 227    | 1    | pot, x / (x + 256) (c7)                                                      |
| 228    | 20   | round one-hot, rounds >= 19 in the last entry (c9)                           |
| 248    | 1    | rounds left / max_rounds (c10)                                               |
| 249    | 6    | minimum bet one-hot over 1, 2, 4, 8, 16, 32 blind units (c11)                |
| 255    | 1    | 1 if comparing is allowed this round (rule r1)                               |
"""

from __future__ import annotations

from ...core.bits import lowest_bit
from ...core.jit import jit
from .rules import (
    ACTION_PHASE,
    ALIVE,
    FIRST,
    KNOWN,
    LAST_ACTION,
    MAX_PLAYERS,
    MIN_BET,
    NUM_ACTIONS,
    PAID,
    PHASE,
    PLAYER,
    POT,
    ROUND,
    SEEN,
    STRENGTH,
)

OBS_DIM = 256
O_PLAYERS, O_SEAT, O_OPENER, O_PHASE, O_SEEN_SELF = 0, 5, 11, 17, 18
O_CARDS, O_CATEGORY, O_IN, O_OUT, O_LOOKED = 19, 71, 77, 83, 89
O_KNOWN, O_PAID, O_LAST, O_POT, O_ROUND = 95, 131, 137, 227, 228
O_ROUNDS_LEFT, O_MIN_BET, O_CAN_COMPARE = 248, 249, 255
ROUND_SLOTS = 20


@jit(inline=True)
def start_observation(r, out):
    """Zero ``out`` and set the number of players one-hot (c1), the block both layouts
    (``obs="default"`` and ``"seed"``) start with."""
    for k in range(out.shape[0]):
        out[k] = 0.0
    out[O_PLAYERS + r.num_players - 2] = 1.0


@jit
def observe_one(s, i, r, out):
    """Write env i's observation for its player to act into ``out`` (length OBS_DIM)."""
    start_observation(r, out)
    t = s.table[i]
    n = r.num_players
    p = t[PLAYER]
    out[O_SEAT + p] = 1.0
    out[O_OPENER + t[FIRST]] = 1.0
    if t[PHASE] == ACTION_PHASE:
        out[O_PHASE] = 1.0
    seen = t[SEEN]
    if (seen >> p) & 1:
        out[O_SEEN_SELF] = 1.0
        for c in range(3):
            out[O_CARDS + s.deck[i, 3 * p + c]] = 1.0
        out[O_CATEGORY + (t[STRENGTH + p] >> 12)] = 1.0
    alive = t[ALIVE]
    known = t[KNOWN + p]
    for q in range(n):
        if (alive >> q) & 1:
            out[O_IN + q] = 1.0
        else:
            out[O_OUT + q] = 1.0
        if (seen >> q) & 1:
            out[O_LOOKED + q] = 1.0
        if (known >> q) & 1:
            out[O_KNOWN + 6 * q + (t[STRENGTH + q] >> 12)] = 1.0
        paid = t[PAID + q]
        out[O_PAID + q] = paid / (paid + 64.0)
        last = t[LAST_ACTION + q]
        if last >= 0:
            out[O_LAST + NUM_ACTIONS * q + last] = 1.0
    pot = t[POT]
    out[O_POT] = pot / (pot + 256.0)
    rnd = t[ROUND]
    out[O_ROUND + min(rnd, ROUND_SLOTS - 1)] = 1.0
    out[O_ROUNDS_LEFT] = (r.max_rounds - rnd) / r.max_rounds
    out[O_MIN_BET + lowest_bit(t[MIN_BET])] = 1.0
    if rnd >= r.no_compare_rounds:
        out[O_CAN_COMPARE] = 1.0


@jit
def write_mask(bits, out):
    for k in range(NUM_ACTIONS):
        out[k] = (bits >> k) & 1


assert O_CAN_COMPARE + 1 == OBS_DIM and O_LAST + NUM_ACTIONS * MAX_PLAYERS == O_POT
