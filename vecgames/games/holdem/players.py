"""No-limit Hold'em baseline policies: njit functions ``(state, i, rules) -> (kind, raise_to)``
for the player to act (the seed's four strategies and a hand-strength player).

- ``"random"``: a uniform choice among the legal kinds (fold only when a bet is owed,
  check/call, raise when allowed), a raise-to amount uniform between the minimum and maximum.
- ``"call"``: check/call with probability ``CALL_PROBABILITY`` (1/2), otherwise fold (check
  when that is free); never raises.
- ``"raise"``: raise whenever allowed, to min + ``RAISE_FRACTION`` (1/4) of (max - min);
  otherwise call.
- ``"raise-uniform"``: the seed's form of ``"raise"``: the fraction of (max - min) is drawn
  uniformly for every raise (a raise-to amount uniform between min and max).
- ``"check"``: check when free, fold to any bet.
- ``"strength"``: plays by hand strength from the equity engine's evaluator: a Monte Carlo
  estimate (``STRENGTH_SAMPLES`` deals of the unseen cards) of its share of the pot against the
  players still in, seeing only its own cards and the board. It raises (a pot-size raise,
  within the legal bounds) when that equity is at least 1.6x a fair share (at most 0.85), calls
  when it beats the pot odds, and otherwise checks or folds.
- ``"equity"``: preflop from the exact 169-class heads-up tables, postflop from Monte Carlo
  equity against each opponent's range narrowed by its betting; pot odds for calls, bets and
  raises in pot fractions (``holdem_equity``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import prange

from ...core.jit import jit
from ...core.rng import below, high32, next_u64
from ...core.simulation import resolve_policies

# A module, not a name: it imports the rules, whose package imports this module.
from . import players_equity as holdem_equity
from .hand_equity import estimate_equity
from .observe import discrete_to_amount
from .rules import (
    BET,
    CALL,
    CUR_BET,
    FOLD,
    PAID,
    PLAYER,
    RAISE,
    raise_bounds,
)

POLICIES = ("random", "call", "raise", "check", "strength", "raise-uniform", "equity")
# The players bet exact amounts: rows_actions_kernel writes (kind, raise-to) pairs for
# env.step_amounts (vecgames.policies.builtin).
EXACT_AMOUNTS = True
# One line each on how the built-in players play (``vecgames.players("holdem")``).
DESCRIPTIONS: dict[str, str] = {
    "random": "uniform over the legal kinds (fold, check/call, raise), a raise-to amount "
              "uniform between the minimum and the maximum",
    "call": "checks/calls with probability 1/2, else folds (checks when free); never raises",
    "raise": "raises whenever allowed, to the minimum + 1/4 of (max - min); else calls",
    "check": "checks when free, folds to any bet",
    "strength": "Monte Carlo equity of its hand against the players still in: raises strong "
                "hands, calls when the pot odds allow, else checks or folds",
    "raise-uniform": "the original's raise strategy: raises whenever allowed, to an amount drawn "
                     "uniformly between the minimum and the maximum; else calls",
    "equity": "preflop from the 169-class equity tables, postflop Monte Carlo equity against "
              "ranges narrowed by the betting: pot-odds calls, pot-fraction bets and raises",
}


def seat_policies(policy: str | Sequence[str], num_players: int) -> tuple[list[str], np.ndarray]:
    """Policy names per seat (one name for all, or a list with one per seat) and their codes."""
    codes = resolve_policies(policy, num_players, POLICIES)
    return [POLICIES[k] for k in codes], codes
RANDOM, CALLER, RAISER, CHECKER, STRENGTH_PLAYER, UNIFORM_RAISER, EQUITY_PLAYER = range(7)
CALL_PROBABILITY = 0.5
RAISE_FRACTION = 0.25
STRENGTH_SAMPLES = 48
@jit
def strength_action(s, i, r):
    """The hand-strength player (see the module doc)."""
    t = s.table[i]
    equity, opponents = estimate_equity(s, i, r, STRENGTH_SAMPLES)
    to_call, lo, hi = raise_bounds(s, i, r)
    pot = 0
    for q in range(r.num_players):
        pot += t[PAID + q]
    if lo <= hi and equity >= min(0.85, 1.6 / (opponents + 1)):
        return RAISE, min(max(lo, t[CUR_BET] + pot + to_call), hi)
    if to_call == 0 or equity * (pot + to_call) >= to_call:
        return CALL, 0
    return FOLD, 0


@jit(inline=True)
def random_action(s, i, r):
    """The seed's random player: (kind, raise_to). The kind is picked by arithmetic, without
    a branch (a coin flip the CPU would mispredict; a conditional expression became one)."""
    to_call, lo, hi = raise_bounds(s, i, r)
    can_fold = np.int64(to_call > 0)  # the player to act has chips: to_call > 0 when owing
    can_raise = np.int64(lo <= hi)
    bits = next_u64(s.rng, i)
    # below(bits, m) for m = 1, 2, 3 legal kinds, drawn before m is known
    low = bits & np.uint64(0xFFFFFFFF)
    k2 = np.int64(low >> np.uint64(31))
    k3 = np.int64((low * np.uint64(3)) >> np.uint64(32))
    k = (k2 & -np.int64(can_fold + can_raise == 1)) | (k3 & -np.int64(can_fold + can_raise == 2))
    is_fold = np.int64(k == 1) & can_fold
    is_raise = np.int64(k != 0) & (is_fold ^ 1)
    kind = CALL + is_raise - is_fold  # CALL, FOLD or RAISE
    return kind, lo + below(high32(bits), hi - lo + 1)  # (hi - lo + 1 = 0: no raise, unused)


@jit(inline=True)
def policy_action(policy, s, i, r):
    """(kind, raise_to) of baseline ``policy`` for the player to act in env i."""
    if policy == RANDOM:
        return random_action(s, i, r)
    if policy == STRENGTH_PLAYER:
        return strength_action(s, i, r)
    if policy == EQUITY_PLAYER:
        return holdem_equity.equity_action(s, i, r)
    t = s.table[i]
    owed = t[CUR_BET] > t[BET + t[PLAYER]]
    if policy == CHECKER:
        return (FOLD if owed else CALL), 0
    if policy == CALLER:
        u = (next_u64(s.rng, i) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
        if not owed or u < CALL_PROBABILITY:
            return CALL, 0
        return FOLD, 0
    to_call, lo, hi = raise_bounds(s, i, r)
    if lo <= hi:
        if policy == UNIFORM_RAISER:
            return RAISE, lo + below(next_u64(s.rng, i), hi - lo + 1)
        return RAISE, lo + np.int64(RAISE_FRACTION * (hi - lo))
    return CALL, 0


@jit(parallel=True)
def rows_actions_kernel(s, r, policy, rows, out):
    """``out[k]`` = (kind, raise-to amount) of built-in ``policy`` for the player to act in env
    ``rows[k]``, drawn from that env's stream as in ``simulate`` (``BuiltinPlayer.act_env``)."""
    for k in prange(rows.shape[0]):
        out[k, 0], out[k, 1] = policy_action(policy, s, rows[k], r)


@jit(parallel=True)
def exact_actions_kernel(s, r, fractions, actions, kinds, amounts):
    """The env's discrete ``actions`` as (kind, amount) where given; ``WAIT`` rows keep theirs
    (``play_games`` steps a table mixing discrete and exact players with ``step_amounts``)."""
    for i in prange(actions.shape[0]):
        if actions[i] >= 0:
            kinds[i], amounts[i] = discrete_to_amount(s, i, r, actions[i], fractions)
