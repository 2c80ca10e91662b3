"""The ``observation="history"`` layout: the default observation, then the chip scale, the
blinds, the raise fractions and the hand's actions in order, as poker bots read them.

Values ``0:222`` are the default layout (``observe``); then, chip amounts divided by the
chips on the table as there, seats counted from the viewer (0 = the viewer):

| slice | content |
|---|---|
| 222 | chips on the table (the sum of the starting stacks), in chips: the divisor of every |
|     | chip amount in the observation (a stack in big blinds is stack / big blind) |
| 223, 224 | small blind, big blind |
| 225 | actions taken in this hand so far (all of them: also those before the window) |
| 226 | F, the number of raise fractions |
| 227:515 | the hand's last ``HISTORY_ACTIONS`` (48) actions, oldest first, 6 values each: |
|         | in use (1, or 0 for an empty slot), seat, street (0 preflop .. 3 river), kind |
|         | (``KIND_NAMES``: 0 fold, 1 check, 2 call, 3 bet, 4 raise, 5 all-in), chips the |
|         | action put in, the seat's bet on the street after it |
| 515:515+F | the raise fractions (action ``2 + k`` raises to a fraction ``k`` of the pot) |

Blinds are not actions (the hand's first action is the first player's after them). A bet is
the first chips of a street after the flop; every bet over one before it (preflop: over the
big blind) is a raise; an action that puts in the seat's last chips is an all-in (a call, a
bet or a raise). A hand with more than 48 actions (a long raising war) shows its last 48, and
slot 225 counts them all. The kinds and amounts replay the hand: blinds plus each seat's
"chips put in" give every seat's chips in the pot.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.jit import jit
from .hand_equity import EQUITY_DIM
from .observe import OBS_DIM as DEFAULT_DIM
from .observe import table_chips
from .rules import ACTIONS, BET, CALL, CUR_BET, FOLD, PLAYER, STACK, STREET

OBSERVATIONS = ("default", "history", "equity")  # the ``observation`` layouts of HoldemEnv
HISTORY_ACTIONS = 48  # actions in the window (a six-seat hand rarely has more)
ACTION_FEATURES = 6
SCALE, SMALL_BLIND, BIG_BLIND, COUNT, NUM_FRACTIONS = range(DEFAULT_DIM, DEFAULT_DIM + 5)
WINDOW = DEFAULT_DIM + 5
FRACTIONS = WINDOW + HISTORY_ACTIONS * ACTION_FEATURES
KIND_NAMES = ("fold", "check", "call", "bet", "raise", "all-in")
K_FOLD, K_CHECK, K_CALL, K_BET, K_RAISE, K_ALL_IN = range(6)
# the log's columns per action (absolute seat; chips): what the observation shows, per viewer
SEAT, STREET_OF, KIND, ADDED, BET_TO = range(5)
WAIT_KIND = -1


def obs_dim(observation: str, num_fractions: int) -> int:
    """The observation size of a layout."""
    sizes = {"default": DEFAULT_DIM, "history": FRACTIONS + num_fractions,
             "equity": EQUITY_DIM}
    return sizes[observation]


def new_log(num_envs: int) -> np.ndarray:
    """Per env, the hand's actions (a ring of ``HISTORY_ACTIONS``; ``ACTIONS`` counts them)."""
    return np.zeros((num_envs, HISTORY_ACTIONS, 5), np.int64)


@jit
def classify(t, kind, raise_to, short_stack_fold):
    """(kind code, chips put in) of the legal action (kind, raise_to) of the player to act."""
    p = t[PLAYER]
    stack = t[STACK + p]
    owed = t[CUR_BET] - t[BET + p]
    if kind == FOLD:
        return K_FOLD, 0
    if kind == CALL:
        if owed <= 0:
            return K_CHECK, 0
        if short_stack_fold and stack < owed:  # the seed's rule: a short call folds
            return K_FOLD, 0
        if stack <= owed:
            return K_ALL_IN, stack
        return K_CALL, owed
    added = raise_to - t[BET + p]
    if added >= stack:
        return K_ALL_IN, stack
    return (K_BET if t[CUR_BET] == 0 else K_RAISE), added


@jit
def record_kernel(s, r, kinds, amounts, log):
    """Log each env's action (``kinds[i]`` != ``WAIT_KIND``: legal, about to be applied)."""
    for i in range(s.table.shape[0]):
        if kinds[i] == WAIT_KIND:
            continue
        t = s.table[i]
        code, added = classify(t, kinds[i], amounts[i], r.short_stack_fold)
        slot = log[i, t[ACTIONS] % HISTORY_ACTIONS]
        slot[SEAT] = t[PLAYER]
        slot[STREET_OF] = t[STREET]
        slot[KIND] = code
        slot[ADDED] = added
        slot[BET_TO] = t[BET + t[PLAYER]] + added


@jit
def observe_kernel(s, r, fractions, log, obs):
    """Write the history block of every env's observation (after the default block)."""
    n = r.num_players
    for i in range(s.table.shape[0]):
        t = s.table[i]
        out = obs[i]
        for k in range(DEFAULT_DIM, out.shape[0]):
            out[k] = 0.0
        viewer = t[PLAYER]
        if viewer < 0:
            continue
        total = table_chips(t, n)
        scale = 1.0 / total
        out[SCALE] = total
        out[SMALL_BLIND] = r.small_blind * scale
        out[BIG_BLIND] = r.big_blind * scale
        count = t[ACTIONS]
        out[COUNT] = count
        out[NUM_FRACTIONS] = fractions.shape[0]
        shown = min(count, HISTORY_ACTIONS)
        for k in range(shown):
            slot = log[i, (count - shown + k) % HISTORY_ACTIONS]
            base = WINDOW + ACTION_FEATURES * k
            out[base] = 1.0
            out[base + 1] = (slot[SEAT] - viewer) % n
            out[base + 2] = slot[STREET_OF]
            out[base + 3] = slot[KIND]
            out[base + 4] = slot[ADDED] * scale
            out[base + 5] = slot[BET_TO] * scale
        for k in range(fractions.shape[0]):
            out[FRACTIONS + k] = fractions[k]


def read_history(obs: Any) -> list[dict[str, Any]]:
    """The actions in one ``observation="history"`` row, oldest first, as dicts: ``seat``
    (from the viewer), ``street``, ``kind`` (a ``KIND_NAMES`` name), ``added`` and ``bet_to``
    in chips (rounded from the scaled values)."""
    row = np.asarray(obs, np.float64)
    if row.ndim != 1 or row.shape[0] < FRACTIONS:
        raise ValueError(f"read_history takes one observation row of the history layout "
                         f"(at least {FRACTIONS} values), got shape {row.shape}")
    scale = row[SCALE]
    out = []
    for k in range(HISTORY_ACTIONS):
        base = WINDOW + ACTION_FEATURES * k
        if row[base] != 1.0:
            break
        out.append({"seat": int(row[base + 1]), "street": int(row[base + 2]),
                    "kind": KIND_NAMES[int(row[base + 3])],
                    "added": int(round(row[base + 4] * scale)),
                    "bet_to": int(round(row[base + 5] * scale))})
    return out
