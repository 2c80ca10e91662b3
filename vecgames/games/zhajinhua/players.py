"""Zha Jin Hua baseline policies: njit functions ``(state, i, rules) -> action``.

- ``random``: uniform over the legal actions of the current phase.
- ``uniform``: uniform over all 15 actions, the seed's 完全随机策略; illegal picks eliminate.
- ``heuristic``: looks at once, then plays by hand strength: folds weak high cards, calls
  (bets the minimum) with middling hands; with strong hands compares from round 2 (or once
  allowed, if later) and until then bets one step above the minimum with a flush or better.
- ``percentile``: looks at once, then plays by ``w``, its chance of beating every opponent
  still in from its hand's exact percentile q among the 22,100 hands (``zhajinhua_percentile``):
  q per blind opponent, 2q - 1 per one that looked and stayed in (a top-half hand), opponents
  independent (card removal ignored). Folds below the pot odds of a call, bets one step up
  with w >= 0.8, compares (a blind seat first) when it beats the target with >= 0.9, else
  calls. docs/zhajinhua.md has the measured results.
"""

from __future__ import annotations

from numba import prange

from ...core.bits import kth_set_bit, lowest_bit, popcount
from ...core.jit import jit
from ...core.rng import below, next_u64
from ...poker.three_card import FLUSH, HIGH_CARD, PAIR
from .players_percentile import PERCENTILE
from .rules import (
    ALIVE,
    BET0,
    COMPARE0,
    FOLD,
    LAST_ACTION,
    LOOK,
    LOOK_PHASE,
    MIN_BET,
    NOOP,
    NUM_ACTIONS,
    PHASE,
    PLAYER,
    POT,
    ROUND,
    SEEN,
    STRENGTH,
    compare_targets,
)

POLICIES = ("random", "uniform", "heuristic", "percentile")
# ``uniform`` picks illegal moves by design (the kernels put it out), which an env refuses:
# only simulate's kernels seat it (vecgames.policies.builtin).
KERNEL_ONLY = ("uniform",)
# One line each on how the built-in players play (``vecgames.players("zhajinhua")``).
DESCRIPTIONS: dict[str, str] = {
    "random": "uniform over the legal actions of the current phase",
    "uniform": "uniform over all 15 actions (the original's 完全随机); an illegal pick puts it out",
    "heuristic": "looks at once, folds weak high cards, calls with middling hands, bets and "
                 "compares with strong ones",
    "percentile": "looks at once, plays by its hand's exact percentile against the opponents "
                  "still in: folds below the pot odds, raises strong hands, compares sure wins",
}
RANDOM, UNIFORM, HEURISTIC, PERCENTILE_PLAYER = range(4)
_RAISE_WIN = 0.8  # chance of beating every opponent still in from which it raises
_COMPARE_WIN = 0.9  # chance of beating the compare target from which it compares
_KING = 11


@jit
def random_legal(s, i, r):
    """``pick_set_bit(legal_bits(...), next_u64(...))`` decoded by kind: the legal actions in
    bit order are fold, the compares (by seat), then the bets (by size), so the k-th of them
    follows from k and the number of compares. Same pick, but the kind is known a few cycles
    after the draw, which is when a mispredicted branch on it resolves."""
    t = s.table[i]
    bits = next_u64(s.rng, i)
    p = t[PLAYER]
    if t[PHASE] == LOOK_PHASE:
        return below(bits, 2 - ((t[SEEN] >> p) & 1))  # 0 no-op, or 1 look while blind
    m = lowest_bit(t[MIN_BET])  # bets of 2**m .. 32 units
    targets = compare_targets(t, p, r)
    compares = popcount(targets)
    k = below(bits, 1 + compares + 6 - m)
    if k == 0:
        return FOLD
    if k <= compares:
        return COMPARE0 + kth_set_bit(targets, k - 1)
    return BET0 + m + k - 1 - compares


@jit
def uniform_all(s, i, r):
    return below(next_u64(s.rng, i), NUM_ACTIONS)


@jit
def heuristic(s, i, r):
    t = s.table[i]
    p = t[PLAYER]
    if t[PHASE] == LOOK_PHASE:
        return LOOK if ((t[SEEN] >> p) & 1) == 0 else NOOP
    strength = t[STRENGTH + p]
    category = strength >> 12
    top = (strength >> 8) & 15
    m = lowest_bit(t[MIN_BET])  # the minimum bet is 2**m units
    call = BET0 + m
    if category == HIGH_CARD and top < _KING:
        return FOLD
    if category == HIGH_CARD or (category == PAIR and top < 6):
        return call if m <= 1 else FOLD
    if t[ROUND] >= r.no_compare_rounds and t[ROUND] >= 2:
        # compare with the next seat still in
        alive = t[ALIVE] & ~(1 << p)
        higher = alive >> (p + 1)
        j = p + 1 + lowest_bit(higher) if higher != 0 else lowest_bit(alive)
        return COMPARE0 + j
    if category >= FLUSH and m < 5:
        return call + 1
    return call


@jit
def _win_vs(t, j, q):
    """Chance that a hand of percentile q beats seat j: q if j is blind, else
    ``(q - 1/2) / (1/2)`` (0 below the median) once j looked and then stayed in, taken to
    hold a top-half hand."""
    if ((t[SEEN] >> j) & 1) and t[LAST_ACTION + j] >= 0:
        return max(2.0 * q - 1.0, 0.0)
    return q


@jit
def percentile(s, i, r):
    t = s.table[i]
    p = t[PLAYER]
    if t[PHASE] == LOOK_PHASE:
        return LOOK if ((t[SEEN] >> p) & 1) == 0 else NOOP
    q = PERCENTILE[r.a23_second, t[STRENGTH + p]]
    win = 1.0  # beats every other seat still in, independently (ignores card removal)
    others = t[ALIVE] & ~(1 << p)
    while others != 0:
        win *= _win_vs(t, lowest_bit(others), q)
        others &= others - 1
    m = lowest_bit(t[MIN_BET])
    call = BET0 + m
    cost = 2 * t[MIN_BET]  # a seen player's call, and any compare
    if win * (t[POT] + cost) < cost:
        return FOLD
    if win >= _RAISE_WIN and m < 5:
        return call + 1
    targets = compare_targets(t, p, r)
    if targets != 0:
        blind = targets & ~t[SEEN]
        j = lowest_bit(blind if blind != 0 else targets)
        if _win_vs(t, j, q) >= _COMPARE_WIN:
            return COMPARE0 + j
    return call


@jit(inline=True)
def policy_action(policy, s, i, r):
    """Dispatch on a policy id (RANDOM, UNIFORM, HEURISTIC, PERCENTILE_PLAYER)."""
    if policy == RANDOM:
        return random_legal(s, i, r)
    if policy == UNIFORM:
        return uniform_all(s, i, r)
    if policy == PERCENTILE_PLAYER:
        return percentile(s, i, r)
    return heuristic(s, i, r)


@jit
def heuristic_actions(s, r, out):
    """``out[i]`` = the ``heuristic`` player's action in env i (for a trainer's evaluation
    against it in a VecEnv; it draws nothing from the env's streams)."""
    for i in range(out.shape[0]):
        out[i] = heuristic(s, i, r)


@jit(parallel=True)
def rows_actions_kernel(s, r, policy, rows, out):
    """``out[k]`` = the action of built-in ``policy`` for the player to act in env ``rows[k]``,
    drawn from that env's stream as in ``simulate`` (``BuiltinPlayer.act_env``)."""
    for k in prange(rows.shape[0]):
        out[k] = policy_action(policy, s, rows[k], r)
