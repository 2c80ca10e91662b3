"""What the player to act sees, and the discrete action set.

Observation (float32, ``OBS_DIM`` = 222), seats counted from the viewer (0 = the viewer, 1 =
the next seat clockwise, ...); chip amounts are divided by the chips on the table (the sum of
the starting stacks):

| slice | content |
|---|---|
| 0:52 | own hole cards, one-hot by card id |
| 52:104 | board cards dealt so far, one-hot |
| 104:108 | street one-hot (preflop, flop, turn, river) |
| 108:178 | 10 seats x 7: stack, bet this street, chips put in this hand, folded, all-in, |
|         | is the button, seat is in the game |
| 178:182 | pot (all chips put in), amount to call, minimum and maximum raise-to (0 when no |
|         | raise is allowed) |
| 182:222 | betting history: 4 streets x 10 seats, bets/raises made (capped at 3, divided by 3) |

This is the ``observation="default"`` layout; ``observation="history"`` appends the chip
scale, the blinds, the raise fractions and the hand's actions in order (``history``).

Discrete actions: 0 fold, 1 check/call, then one "raise to a fraction of the pot" per entry of
``raise_fractions`` (raise to: current bet + fraction x (pot + amount to call), rounded), then
min-raise, then all-in. A fraction is legal when its amount lies within the raise bounds.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.jit import jit
from .rules import (
    ALL_IN,
    BET,
    BUTTON,
    CUR_BET,
    FOLDED,
    HAND_OVER,
    MAX_PLAYERS,
    PAID,
    PLAYER,
    RAISES,
    STACK,
    START,
    STREET,
    raise_bounds,
)

CARDS, BOARD, STREETS, SEATS, AMOUNTS, HISTORY = 0, 52, 104, 108, 178, 182
SEAT_FEATURES = 7
OBS_DIM = HISTORY + 4 * MAX_PLAYERS
FOLD_ACTION, CALL_ACTION = 0, 1


def action_names(fractions) -> tuple[str, ...]:
    return (("fold", "check/call") + tuple(f"raise {f:g} pot" for f in fractions)
            + ("min-raise", "all-in"))


@jit
def fraction_raise_to(t, to_call, fraction):
    pot = 0
    for p in range(MAX_PLAYERS):
        pot += t[PAID + p]
    return t[CUR_BET] + np.int64(np.floor(fraction * (pot + to_call) + 0.5))


@jit
def discrete_to_amount(s, i, r, action, fractions):
    """(kind, raise_to) of a discrete action for the player to act."""
    t = s.table[i]
    if action == FOLD_ACTION:
        return 0, 0
    if action == CALL_ACTION:
        return 1, 0
    to_call, lo, hi = raise_bounds(s, i, r)
    k = action - 2
    if k < fractions.shape[0]:
        return 2, fraction_raise_to(t, to_call, fractions[k])
    if k == fractions.shape[0]:
        return 2, lo
    return 2, hi


@jit
def legal_bounds(s, i, r):
    """``raise_bounds`` of the player to act, or no raise once the hand is over."""
    if s.table[i, STREET] == HAND_OVER:
        return np.int64(0), np.int64(1), np.int64(0)
    return raise_bounds(s, i, r)


@jit
def write_mask(s, i, fractions, bounds, mask):
    """The discrete mask from the player's ``legal_bounds``."""
    t = s.table[i]
    for a in range(mask.shape[0]):
        mask[a] = False
    if t[STREET] == HAND_OVER:
        return
    to_call, lo, hi = bounds
    p = t[PLAYER]
    mask[FOLD_ACTION] = t[CUR_BET] > t[BET + p]
    mask[CALL_ACTION] = True
    if lo <= hi:
        for k in range(fractions.shape[0]):
            amount = fraction_raise_to(t, to_call, fractions[k])
            mask[2 + k] = lo <= amount <= hi
        mask[2 + fractions.shape[0]] = True
        mask[3 + fractions.shape[0]] = True


@jit
def table_chips(t, n):
    """The chips on the table (the sum of the starting stacks): every observed chip amount is
    divided by it."""
    total = 0
    for p in range(n):
        total += t[START + p]
    return total


@jit
def observe_one(s, i, r, bounds, out):
    """The observation of the player to act (``bounds``: its ``legal_bounds``)."""
    t = s.table[i]
    d = s.deck[i]
    n = r.num_players
    for k in range(out.shape[0]):
        out[k] = 0.0
    viewer = t[PLAYER]
    if viewer < 0:
        return
    scale = 1.0 / table_chips(t, n)
    out[CARDS + d[2 * viewer]] = 1.0
    out[CARDS + d[2 * viewer + 1]] = 1.0
    street = t[STREET]
    shown = 0 if street == 0 else street + 2
    for k in range(shown):
        out[BOARD + d[2 * n + k]] = 1.0
    out[STREETS + street] = 1.0
    pot = 0
    for rel in range(n):
        p = (viewer + rel) % n
        base = SEATS + SEAT_FEATURES * rel
        out[base] = t[STACK + p] * scale
        out[base + 1] = t[BET + p] * scale
        out[base + 2] = t[PAID + p] * scale
        out[base + 3] = (t[FOLDED] >> p) & 1
        out[base + 4] = (t[ALL_IN] >> p) & 1
        out[base + 5] = p == t[BUTTON]
        out[base + 6] = 1.0
        pot += t[PAID + p]
        for st in range(4):
            out[HISTORY + st * MAX_PLAYERS + rel] = min(t[RAISES + st * MAX_PLAYERS + p], 3) / 3
    to_call, lo, hi = bounds
    out[AMOUNTS] = pot * scale
    out[AMOUNTS + 1] = to_call * scale
    if lo <= hi:
        out[AMOUNTS + 2] = lo * scale
        out[AMOUNTS + 3] = hi * scale


def exact_action(s: Any, env: Any, action: Any) -> tuple[int, int]:
    """(kind, raise-to) of a one-env state's action id, or of an exact pair (a built-in
    player's) as it is."""
    if isinstance(action, tuple):
        return action
    kind, amount = discrete_to_amount(s, 0, env.rules, action, env.fractions)
    return int(kind), int(amount)
