"""Kuhn poker built-in players: njit functions ``(state, i, rules) -> action``.

- ``random`` (simulate's default): uniform over the legal actions.
- ``rule``: bets or calls with the K, and with a J or a Q passes (checks, or folds to a
  bet). It never bluffs, so it is easy to exploit: a stand-in opponent, not a strong one.
  Deterministic: it draws nothing from the env's stream.
"""

from __future__ import annotations

from numba import prange

from ...core.jit import jit
from .rules import BET, CARD, PASS, PLAYER, random_legal

POLICIES = ("random", "rule")
# One line each on how the built-in players play.
DESCRIPTIONS: dict[str, str] = {
    "random": "uniform over the legal actions (simulate's default)",
    "rule": "bets or calls with the K, passes (checks or folds) with a J or a Q; never bluffs",
}
RANDOM, RULE = range(2)
KING = 2  # card id


@jit
def rule(s, i, r):
    t = s.table[i]
    return BET if t[CARD + t[PLAYER]] == KING else PASS


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
