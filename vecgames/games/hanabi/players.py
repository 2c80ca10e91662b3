"""Hanabi baseline policies: njit functions ``(state, i, rules) -> action``.

- ``random``: uniform over the legal actions of the player to act.
- ``rules``: the simple rule-based agent of issue 6: play a card known to be playable (its
  knowledge allows only cards that fit the fireworks; the oldest such card); else, with an
  information token, hint a playable card a next player holds that its holder does not yet
  know to be playable (next player first, oldest card first): its rank if the rank was not
  hinted, else its colour; else discard the oldest card without a hint (the oldest card if
  all were hinted); with 8 tokens and nothing to hint, give the first legal hint.
  Under the seed's rules it hints the next player only (``hint_target="next"``) and still
  hints rather than discards at 8 tokens (``discard_at_max="capped"``: the token would be lost).
"""

from __future__ import annotations

from numba import prange

from ...core.jit import jit

# Modules, not names: each imports the rules, whose package imports this module.
from . import players_conventions as hanabi_conventions
from . import players_hat as hanabi_hat
from . import players_rules as hanabi_rules_player
from . import players_search as hanabi_search
from .rules import random_legal

POLICIES = ("random", "rules", "hat", "search", "conventions")
# One line each on how the built-in players play (``vecgames.players("hanabi")``).
DESCRIPTIONS: dict[str, str] = {
    "random": "uniform over the legal actions",
    "rules": "plays a card known to be playable, else hints a playable card another player "
             "does not know, else discards its oldest unhinted card",
    "hat": "hat-guessing information player (3-5 players): each hint answers a question "
           "about every other player's hand; plays known playable cards",
    "search": "single-agent search (SPARTA-style) over the best blueprint (conventions "
              "with 2 players, hat with 3-5): rolls every legal move out over sampled deals "
              "of its own hand with the blueprint playing on; the blueprint's move unless "
              "another is clearly better",
    "conventions": "convention player (2 players): play clues on the newest new card, saves "
                   "of critical cards on the chop, card counting; discards its chop",
}
RANDOM, RULES, HAT, SEARCH, CONVENTIONS = range(5)


@jit
def policy_action(policy, s, i, r):
    """Dispatch on a policy id (RANDOM, RULES, HAT, SEARCH, CONVENTIONS)."""
    if policy == RULES:
        return hanabi_rules_player.rule_based(s, i, r)
    if policy == HAT:
        return hanabi_hat.hat_action(s, i, r)
    if policy == SEARCH:
        return hanabi_search.search_player(s, i, r)
    if policy == CONVENTIONS:
        return hanabi_conventions.conventions(s, i, r)
    return random_legal(s, i, r)


@jit(parallel=True)
def rows_actions_kernel(s, r, policy, rows, out):
    """``out[k]`` = the action of built-in ``policy`` for the player to act in env ``rows[k]``,
    drawn from that env's stream as in ``simulate`` (``BuiltinPlayer.act_env``)."""
    for k in prange(rows.shape[0]):
        out[k] = policy_action(policy, s, rows[k], r)
