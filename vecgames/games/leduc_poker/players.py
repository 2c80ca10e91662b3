"""Leduc Hold'em built-in players: njit functions ``(state, i, rules) -> action``.

- ``random`` (simulate's default): uniform over the legal actions.
- ``rule``: raises with a pair (its card of the public card's rank) or a K, calls or checks
  with a Q, and with a J checks, but folds to a bet. Where the raise cap is reached it calls.
  Deterministic: it draws nothing from the env's stream.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ...core.jit import jit
from .rules import (
    CALL,
    CARD,
    FOLD,
    NUM_SUITS,
    PLAYER,
    PUBLIC,
    RAISE,
    ROUND,
    Rules,
    State,
    legal_bits,
    random_legal,
)

POLICIES = ("random", "rule")
# One line each on how the built-in players play.
DESCRIPTIONS: dict[str, str] = {
    "random": "uniform over the legal actions (simulate's default)",
    "rule": "raises with a pair or a K, calls with a Q, checks a J but folds it to a bet",
}
RANDOM, RULE = range(2)
KING = 2  # rank index


@jit
def rule(s, i, r):
    t = s.table[i]
    bits = legal_bits(t)
    rank = t[CARD + t[PLAYER]] // NUM_SUITS
    pair = t[ROUND] > 0 and rank == t[PUBLIC] // NUM_SUITS  # the public card is shown
    if pair or rank == KING:
        return RAISE if (bits >> RAISE) & 1 else CALL
    if rank == 0 and (bits >> FOLD) & 1:  # a J facing a bet
        return FOLD
    return CALL


@jit
def policy_action(policy, s, i, r):
    if policy == RULE:
        return rule(s, i, r)
    return random_legal(s, i, r)


@jit(parallel=True)
def rows_actions_kernel(s, r, policy, rows, out):
    """``out[k]`` = the action of built-in ``policy`` for the player to act in env ``rows[k]``,
    drawn from that env's stream as in ``simulate``."""
    for k in prange(rows.shape[0]):
        out[k] = policy_action(policy, s, rows[k], r)


def policy_code(name: str) -> int:
    """The kernel id of built-in player ``name``; ValueError naming the players."""
    if not isinstance(name, str) or name not in POLICIES:
        raise ValueError(f"policy must be one of {POLICIES}, got {name!r}")
    return POLICIES.index(name)


def rows_actions(state: State, rules: Rules, policy: str, rows: np.ndarray) -> np.ndarray:
    """The actions of built-in ``policy`` in envs ``rows`` of ``state`` (int64 ``[n]``)."""
    code = policy_code(policy)
    rows = np.ascontiguousarray(rows, dtype=np.int64)
    out = np.empty(rows.shape[0], np.int64)
    rows_actions_kernel(state, rules, code, rows, out)
    return out
