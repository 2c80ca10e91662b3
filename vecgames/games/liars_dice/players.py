"""Liar's Dice baseline policies: njit functions ``(state, i, rules, ...) -> action``.

- ``random``: uniform over the legal actions (the challenge is one of them).
- ``heuristic``: the seed's challenger. With own dice known and the other dice unknown, it
  challenges when the last bid holds with probability below ``threshold`` (default 0.5);
  otherwise it makes the legal bid most likely to hold (the lowest such bid on ties, 飞 first).
- ``odds``: exact bid odds conditioned on the bidding history through a model of the last
  bidder's dice (a posterior over its hands given its bids and the bids it let pass), with a
  one-bid lookahead heads-up (``liars_dice_odds``). Deterministic; ignores ``threshold``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import prange

from ...core.jit import jit

# A module, not a name: it imports the rules, whose package imports this module.
from . import players_odds as liars_dice_odds
from .bids import B_FEI_START, B_ZHAI_START, FEI_FACES
from .odds import bid_holds_probability
from .rules import DICE, LAST, PLAYER, bid_made, random_legal

POLICIES = ("random", "heuristic", "odds")
# One line each on how the built-in players play (``vecgames.players("liars_dice")``).
DESCRIPTIONS: dict[str, str] = {
    "random": "uniform over the legal actions (the challenge is one of them)",
    "heuristic": "the original's challenger: challenges a bid that holds with probability below "
                 "0.5 given its own dice, else makes the legal bid most likely to hold",
    "odds": "exact bid odds given its dice and a posterior over the last bidder's dice from "
            "the round's bids; heads-up it weighs each bid by the chance it is challenged",
}
RANDOM, HEURISTIC, ODDS = range(3)
DEFAULT_THRESHOLD = 0.5


@jit
def heuristic(s, i, r, threshold):
    t = s.table[i]
    seat = t[DICE + t[PLAYER]]
    total = r.total_dice
    last = t[LAST]
    if last > 0 and bid_holds_probability(last - 1, seat, r.dice, total) < threshold:
        return 0
    fei_start = r.bids[last, B_FEI_START]
    zhai_start = r.bids[last, B_ZHAI_START]
    best = -1.0
    action = 0
    for index in range(fei_start, r.num_actions - 1):
        if index == FEI_FACES * total:  # the 飞 block ends: jump to the 斋 start
            break
        if not (r.forbid_repeat and bid_made(t, index)):
            q = bid_holds_probability(index, seat, r.dice, total)
            if q > best:
                best, action = q, index + 1
    for index in range(zhai_start, r.num_actions - 1):
        if not (r.forbid_repeat and bid_made(t, index)):
            q = bid_holds_probability(index, seat, r.dice, total)
            if q > best:
                best, action = q, index + 1
    return action  # 0 (challenge) only when no bid is left


@jit
def policy_action(policy, s, i, r, threshold):
    """Dispatch on a policy id (RANDOM, HEURISTIC, ODDS)."""
    if policy == HEURISTIC:
        return heuristic(s, i, r, threshold)
    if policy == ODDS:
        return liars_dice_odds.odds(s, i, r)
    return random_legal(s, i, r)


@jit(parallel=True)
def _actions_kernel(s, r, policy, threshold, out):
    for i in prange(s.rng.shape[0]):
        out[i] = policy_action(policy, s, i, r, threshold)


def check_threshold(threshold: Any) -> float:
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float, np.floating)):
        raise TypeError(f"threshold must be a number, got {type(threshold).__name__}")
    value = float(threshold) if -1 <= threshold <= 1 else 2.0  # a huge int: no OverflowError
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"threshold must be in [0, 1], got {threshold}")
    return value


def env_actions(env: Any, policy: str = "heuristic",
                threshold: float = DEFAULT_THRESHOLD) -> np.ndarray:
    """The policy's action for the player to act in every env of a ``LiarsDiceEnv`` (int64
    ``[B]``). ``random`` draws from the envs' own streams, so it changes later rolls."""
    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {POLICIES}, got {policy!r}")
    out = np.empty(env.num_envs, np.int64)
    _actions_kernel(env.state, env.rules, POLICIES.index(policy), check_threshold(threshold),
                    out)
    return out


@jit(parallel=True)
def rows_actions_kernel(s, r, policy, threshold, rows, out):
    """``out[k]`` = the action of built-in ``policy`` for the player to act in env ``rows[k]``,
    drawn from that env's stream as in ``simulate`` (``BuiltinPlayer.act_env``)."""
    for k in prange(rows.shape[0]):
        out[k] = policy_action(policy, s, rows[k], r, threshold)
