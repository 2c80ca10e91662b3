"""The seed's observation (``obs="seed"``): attributes c1..c12 of seed 003, in that order.

Unlike the default layout (``observe.py``), c2 is the whole action history and c4 the compared
seats' actual cards. Seats are absolute; entries for seats >= num_players stay 0. All values
are in [0, 1]. The history holds the seed's 20 rounds, so ``obs="seed"`` needs
``max_rounds <= 20``.

| offset | size | content (seed attribute)                                                     |
|--------|------|-------------------------------------------------------------------------------|
| 0      | 5    | c1: number of players one-hot, 2..6                                           |
| 5      | 3600 | c2: every decision of the game: [round 0..19][seat 0..5][look, action phase]  |
|        |      | -> one-hot of the 15 actions (all 0 where that decision was not taken)        |
| 3605   | 52   | c3: own cards, one-hot by card id; all 0 while blind                          |
| 3657   | 312  | c4: per seat, one-hot of its 3 cards by card id if the player to act compared |
|        |      | with that seat (either side of the compare)                                   |
| 3969   | 6    | c5: seats out of the game                                                     |
| 3975   | 6    | c6: seats still in the game                                                   |
| 3981   | 1    | c7: pot, x / (x + 256)                                                        |
| 3982   | 6    | c8: seat of the player to act, one-hot                                        |
| 3988   | 20   | c9: round one-hot (0-based round k at entry k)                                |
| 4008   | 20   | c10: rounds left one-hot, the current one included (k + 1 left at entry k)    |
| 4028   | 6    | c11: minimum bet one-hot over 1, 2, 4, 8, 16, 32 blind units                  |
| 4034   | 36   | c12: 6 x 6 matrix, row = seat (player id), column = its place in this game's  |
|        |      | turn order counted from the opener (座次号); one 1 per row and column of a    |
|        |      | seat in the game                                                              |
"""

from __future__ import annotations

from ...core.bits import lowest_bit
from ...core.jit import jit
from .observe import O_PLAYERS, start_observation
from .rules import (
    ALIVE,
    FIRST,
    KNOWN,
    MAX_PLAYERS,
    MIN_BET,
    NUM_ACTIONS,
    PHASE,
    PLAYER,
    POT,
    ROUND,
    SEEN,
)

SEED_ROUNDS = 20  # the seed's round one-hot is 20 wide; the history keeps as many rounds
HISTORY_SLOTS = SEED_ROUNDS * MAX_PLAYERS * 2  # one decision per (round, seat, phase)
S_PLAYERS, S_HISTORY = O_PLAYERS, 5  # c1 first, as in the default layout
S_CARDS = S_HISTORY + HISTORY_SLOTS * NUM_ACTIONS
S_KNOWN = S_CARDS + 52
S_OUT = S_KNOWN + 52 * MAX_PLAYERS
S_IN = S_OUT + MAX_PLAYERS
S_POT = S_IN + MAX_PLAYERS
S_SEAT = S_POT + 1
S_ROUND = S_SEAT + MAX_PLAYERS
S_ROUNDS_LEFT = S_ROUND + SEED_ROUNDS
S_MIN_BET = S_ROUNDS_LEFT + SEED_ROUNDS
S_ORDER = S_MIN_BET + 6
SEED_OBS_DIM = S_ORDER + MAX_PLAYERS * MAX_PLAYERS


@jit(inline=True)
def history_slot(rnd, seat, phase):
    """Index of a decision in the history (and of its 15-wide block in c2)."""
    return (rnd * MAX_PLAYERS + seat) * 2 + phase


@jit
def clear_history(hist):
    for k in range(HISTORY_SLOTS):
        hist[k] = -1


@jit
def record_decision(s, i, a, hist):
    """Note the action ``a`` the player to act in env i is about to take (before the step)."""
    t = s.table[i]
    hist[history_slot(t[ROUND], t[PLAYER], t[PHASE])] = a


@jit
def observe_seed(s, i, r, hist, out):
    """Write env i's seed observation for its player to act into ``out`` (SEED_OBS_DIM)."""
    start_observation(r, out)
    t = s.table[i]
    n = r.num_players
    p = t[PLAYER]
    for k in range(HISTORY_SLOTS):
        if hist[k] >= 0:
            out[S_HISTORY + NUM_ACTIONS * k + hist[k]] = 1.0
    if (t[SEEN] >> p) & 1:
        for c in range(3):
            out[S_CARDS + s.deck[i, 3 * p + c]] = 1.0
    alive = t[ALIVE]
    known = t[KNOWN + p]
    first = t[FIRST]
    for q in range(n):
        if (known >> q) & 1:
            for c in range(3):
                out[S_KNOWN + 52 * q + s.deck[i, 3 * q + c]] = 1.0
        if (alive >> q) & 1:
            out[S_IN + q] = 1.0
        else:
            out[S_OUT + q] = 1.0
        place = q - first
        if place < 0:
            place += n
        out[S_ORDER + MAX_PLAYERS * q + place] = 1.0
    pot = t[POT]
    out[S_POT] = pot / (pot + 256.0)
    out[S_SEAT + p] = 1.0
    rnd = t[ROUND]
    out[S_ROUND + rnd] = 1.0
    out[S_ROUNDS_LEFT + r.max_rounds - rnd - 1] = 1.0
    out[S_MIN_BET + lowest_bit(t[MIN_BET])] = 1.0


assert SEED_OBS_DIM == 4070
