"""Da Yaoguai baseline policies: njit functions ``(state, i, rules) -> action``.

- ``shed`` (simulate's default): plays to empty its hand. It never passes while a card
  beats, and it plays the card least useful later: the one that beats the fewest of the cards
  outside its own hand (a J takes only the 10s, a 5 takes J, Q, K, 3 and 8), keeping the
  versatile ones for the replies to come. A lead picks among the tied cards at random, and
  one lead in 8 is a uniformly drawn card: both draws come from the env's random stream and
  keep a table of ``shed`` players out of cycles (a deterministic table repeats a position
  for ever, see ``weakest``).
- ``random``: uniform over the legal actions.
- ``weakest``: always beat with the weakest card that beats; lead the weakest card held; pick
  up only when nothing beats. Deterministic: about 80% of its 4-player games enter a cycle of
  positions between the last two seats and never end (docs/dayaoguai.md).
- ``pickup``: like ``weakest``, but picks up a small pile early (one or two cards on the
  table) rather than spend a strong card on it: when the weakest card that beats is a 5 (悟空)
  or a 10 (唐僧), unless ``must_beat`` forbids it. (Picking up every small pile makes a
  table of such players hand single cards back and forth for ever.)
- ``plan``: Monte Carlo lookahead (``dayaoguai_plan``): for each move (a card per rank, or
  the pass) it plays out the game from deals of the cards it has not seen, drawn consistent
  with the hand sizes and the publicly picked-up cards, with ``shed`` players in every seat,
  and takes the move with the best mean of its own bean transfers.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ...core.bits import lowest_bit, pick_set_bit
from ...core.jit import jit
from ...core.rng import next_u64

# Modules, not names: each imports the rules, whose package imports this module.
from . import players_plan as dayaoguai_plan
from . import players_shed as dayaoguai_shed
from .rules import (
    HAND,
    PASS,
    PLAYER,
    TABLE_N,
    legal_bits,
    random_legal,
)

POLICIES = ("random", "weakest", "pickup", "shed", "plan")
# One line each on how the built-in players play (``vecgames.players("dayaoguai")``).
DESCRIPTIONS: dict[str, str] = {
    "random": "uniform over the legal actions",
    "weakest": "beats with the weakest card that beats, leads its weakest card, picks up only "
               "when nothing beats (deterministic: most 4-player games cycle)",
    "pickup": "like weakest, but picks up a pile of one or two cards rather than spend a 5 "
              "or a 10 on it",
    "shed": "never passes while a card beats; plays the card least useful later, with a "
            "little randomness in its leads (simulate's default)",
    "plan": "Monte Carlo lookahead: plays out each move from deals of the unseen cards with "
            "shed players, takes the move that loses the fewest beans",
}
RANDOM, WEAKEST, PICKUP, SHED, PLAN = range(5)
SMALL_PILE = 2


@jit
def weakest(s, i, r):
    """The lowest card id among the legal plays (ids go up with rank), else pass."""
    cards = legal_bits(s.table[i], r) & ~(1 << PASS)
    return lowest_bit(cards) if cards != 0 else PASS


STRONG_RANK = 5  # 5 and 10: rank index 5 and 6


@jit
def pickup(s, i, r):
    t = s.table[i]
    a = weakest(s, i, r)
    if (a != PASS and 0 < t[TABLE_N] <= SMALL_PILE and a // 4 >= STRONG_RANK
            and not r.must_beat):
        return PASS  # keep the strong card; the pile is still small
    return a


@jit
def shed(s, i, r):
    t = s.table[i]
    cards = legal_bits(t, r) & ~(np.int64(1) << PASS)
    if cards == 0:
        return PASS
    if cards & (cards - 1) == 0:  # one card to play (also the forced 方块J)
        return lowest_bit(cards)
    # What a card is worth later: how many of the cards it does not hold it could beat
    # (public knowledge only: who holds them is hidden). Play the least useful one.
    outside = dayaoguai_shed.ALL_CARDS & ~t[HAND + t[PLAYER]]
    if t[TABLE_N] > 0:  # a reply: the first such card
        return lowest_bit(dayaoguai_shed.least_useful(cards, outside))
    if next_u64(s.rng, i) % np.uint64(dayaoguai_shed.RANDOM_LEAD) == 0:
        return pick_set_bit(cards, next_u64(s.rng, i))
    return pick_set_bit(dayaoguai_shed.least_useful(cards, outside), next_u64(s.rng, i))


@jit
def policy_action(policy, s, i, r):
    if policy == WEAKEST:
        return weakest(s, i, r)
    if policy == PICKUP:
        return pickup(s, i, r)
    if policy == SHED:
        return shed(s, i, r)
    if policy == PLAN:
        return dayaoguai_plan.plan(s, i, r)
    return random_legal(s, i, r)


@jit(parallel=True)
def rows_actions_kernel(s, r, policy, rows, out):
    """``out[k]`` = the action of built-in ``policy`` for the player to act in env ``rows[k]``,
    drawn from that env's stream as in ``simulate`` (``BuiltinPlayer.act_env``)."""
    for k in prange(rows.shape[0]):
        out[k] = policy_action(policy, s, rows[k], r)
