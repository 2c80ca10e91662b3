"""Observations of the player to act, two layouts (``observation=`` option of the env).

``"full"`` (default), for P players and D = dice x P dice, B = 11 D bids:

| offset      | size | content                                                          |
|-------------|------|------------------------------------------------------------------|
| 0           | 6    | own dice: count of faces 1..6 / dice                             |
| 6           | P    | own seat, one-hot (whose turn it is)                             |
| 6 + P       | P    | penalty points / num_rounds, by seat relative to the observer    |
|             |      | (own first, then the next seats in turn order)                   |
| 6 + 2P      | 1    | round of the match / num_rounds                                  |
| 7 + 2P      | 1    | bids made this round / B                                         |
| 8 + 2P      | B    | bid history: 1 for every bid made this round (by bid index)      |
| 8 + 2P + B  | B    | the last bid, one-hot (all 0 before the round's first bid)       |

The last bid was always made by the previous seat, so no bidder field is needed.

``"seed"``: the seed project's 22 values (its DQN input), in its order:

| offset | size | content                                                                  |
|--------|------|--------------------------------------------------------------------------|
| 0      | 6    | own dice: count of faces 1..6 (not scaled)                               |
| 6      | 1    | number of players                                                        |
| 7      | 1    | last bid's count / D                                                     |
| 8      | 6    | last bid's face, one-hot over 1..6                                       |
| 14     | 2    | last bid's mode, one-hot 飞, 斋                                          |
| 16     | 1    | bids so far this round / D                                               |
| 17     | 2    | mean and max bid count this round / D                                    |
| 19     | 1    | probability that the last bid holds given own dice (``odds.py``)         |
| 20     | 1    | last bid's count minus the bid before it, / D (0 with one bid)           |
| 21     | 1    | 1 if the last bid switched mode from the bid before it                   |

All bid features are 0 before the round's first bid.
"""

from __future__ import annotations

from ...core.bits import lowest_bit
from ...core.jit import jit
from .bids import bid_count, bid_face, bid_mode
from .odds import bid_holds_probability
from .rules import BIDS, DICE, LAST, MADE, MAX_COUNT, PENALTY, PLAYER, PREV, ROUND, SUM_COUNT

OBSERVATIONS = ("full", "seed")
FULL, SEED = 0, 1
SEED_OBS_DIM = 22


def obs_dim(observation: int, num_players: int, num_actions: int) -> int:
    if observation == SEED:
        return SEED_OBS_DIM
    return 8 + 2 * num_players + 2 * (num_actions - 1)


@jit
def observe_full(t, r, out):
    n = r.num_players
    p = t[PLAYER]
    seat = t[DICE + p]
    for f in range(6):
        out[f] = ((seat >> (4 * f)) & 15) / r.dice
    for q in range(n):
        out[6 + q] = q == p
        rel = p + q
        if rel >= n:
            rel -= n
        out[6 + n + q] = t[PENALTY + rel] / r.num_rounds
    out[6 + 2 * n] = t[ROUND] / r.num_rounds
    bids = r.num_actions - 1
    out[7 + 2 * n] = t[BIDS] / bids
    made = 8 + 2 * n
    last = made + bids
    for k in range(made, last + bids):
        out[k] = 0.0
    for w in range((bids + 63) // 64):
        word = t[MADE + w]
        while word != 0:  # a round has few bids
            out[made + 64 * w + lowest_bit(word)] = 1.0
            word &= word - 1
    if t[LAST] > 0:
        out[last + t[LAST] - 1] = 1.0


@jit
def observe_seed(t, r, out):
    p = t[PLAYER]
    seat = t[DICE + p]
    total = r.total_dice
    for f in range(6):
        out[f] = (seat >> (4 * f)) & 15
    out[6] = r.num_players
    for k in range(7, 22):
        out[k] = 0.0
    last = t[LAST]
    if last == 0:
        return
    index = last - 1
    count = bid_count(index, total)
    mode = bid_mode(index, total)
    out[7] = count / total
    out[8 + bid_face(index, total) - 1] = 1.0
    out[14 + mode] = 1.0
    bids = t[BIDS]
    out[16] = bids / total
    out[17] = t[SUM_COUNT] / bids / total
    out[18] = t[MAX_COUNT] / total
    out[19] = bid_holds_probability(index, seat, r.dice, total)
    prev = t[PREV]
    if prev > 0:
        out[20] = (count - bid_count(prev - 1, total)) / total
        out[21] = mode != bid_mode(prev - 1, total)


@jit
def observe_one(t, r, observation, out):
    if observation == SEED:
        observe_seed(t, r, out)
    else:
        observe_full(t, r, out)
