"""Hand strength as the player to act sees it (its own cards and the board), and the
``observation="equity"`` layout built on it.

``estimate_equity``: a Monte Carlo share of the pot against the players still in, each holding
a random hand, over deals of their cards and the rest of the board drawn from the env's own
random stream. The ``"strength"`` player plays by it, and the equity layout shows it.

The ``observation="equity"`` layout: values ``0:222`` are the default layout (``observe``),
then:

| slice | content |
|---|---|
| 222 | the viewer's share of the pot against the players still in, each with a random hand |
|     | (``estimate_equity``, ``EQUITY_SAMPLES`` deals) |
| 223 | the same against one random hand (hand strength, whatever the number still in) |
| 224 | pot odds: amount to call / (pot + amount to call), 0 when nothing is owed |
| 225 | players still in besides the viewer, divided by 9 |

The deals come from the env's own stream (as the ``equity`` and ``strength`` players' do), so
after the first hand an env's deals differ from the default layout's; the first hand of each
env (the arena's games) is the same.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ...core.jit import jit
from ...core.rng import below, next_u64
from ...poker.seven_card import CARD_BIT, CARD_KEY, KEY_BASE, strength_of
from .observe import OBS_DIM as DEFAULT_DIM
from .rules import FOLDED, PAID, PLAYER, STREET, raise_bounds

EQUITY_SAMPLES = 128  # Monte Carlo deals per value (standard error <= 0.045)
W_FIELD, W_ONE, POT_ODDS, IN_HAND = range(DEFAULT_DIM, DEFAULT_DIM + 4)
EQUITY_DIM = DEFAULT_DIM + 4
BOARD_SEEN = (0, 3, 4, 5)  # board cards visible on each street


@jit
def draw_unseen(s, i, used):
    """A uniform card (int64) not in ``used`` (a 52-bit mask), from env i's stream."""
    while True:
        c = np.int64(below(next_u64(s.rng, i), 52))
        if not (used >> c) & 1:
            return c


@jit
def visible_cards(s, i, r):
    """What the player to act sees: (its cards and the board so far as a 52-bit mask, the
    board's evaluator key and flush bits, the number of board cards dealt)."""
    t = s.table[i]
    d = s.deck[i]
    n = r.num_players
    p = t[PLAYER]
    seen = BOARD_SEEN[t[STREET]]
    used = (np.int64(1) << np.int64(d[2 * p])) | (np.int64(1) << np.int64(d[2 * p + 1]))
    key = KEY_BASE
    bits = np.int64(0)
    for k in range(seen):
        c = np.int64(d[2 * n + k])
        used |= np.int64(1) << c
        key += CARD_KEY[c]
        bits |= CARD_BIT[c]
    return used, key, bits, seen


@jit
def deal_board(s, i, used, key, bits, seen):
    """The rest of the board after ``seen`` cards, drawn from env i's stream avoiding
    ``used``: (the mask, key and flush bits with it)."""
    for _k in range(seen, 5):
        c = draw_unseen(s, i, used)
        used |= np.int64(1) << c
        key += CARD_KEY[c]
        bits |= CARD_BIT[c]
    return used, key, bits


@jit
def estimate_equity(s, i, r, samples):
    """Monte Carlo share of the pot for the player to act against the others still in, from
    its own cards and the visible board only."""
    opponents = players_in(s, i, r)
    return hand_equity(s, i, r, samples, opponents), opponents


@jit
def players_in(s, i, r):
    """The players still in besides the one to act."""
    t = s.table[i]
    p = t[PLAYER]
    opponents = 0
    for q in range(r.num_players):
        if q != p and not (t[FOLDED] >> q) & 1:
            opponents += 1
    return opponents


@jit
def hand_equity(s, i, r, samples, opponents):
    """Monte Carlo share of the pot for the player to act against ``opponents`` random hands,
    from its own cards and the visible board only."""
    d = s.deck[i]
    p = s.table[i, PLAYER]
    base_used, base_key, base_bits, seen = visible_cards(s, i, r)
    total = 0.0
    for _ in range(samples):
        used, key, bits = deal_board(s, i, base_used, base_key, base_bits, seen)
        mine = strength_of(key + CARD_KEY[d[2 * p]] + CARD_KEY[d[2 * p + 1]],
                           bits | CARD_BIT[d[2 * p]] | CARD_BIT[d[2 * p + 1]])
        best_other = 0
        ties = 1
        for _q in range(opponents):
            a = draw_unseen(s, i, used)
            used |= np.int64(1) << a
            b = draw_unseen(s, i, used)
            used |= np.int64(1) << b
            other = strength_of(key + CARD_KEY[a] + CARD_KEY[b], bits | CARD_BIT[a] | CARD_BIT[b])
            if other > best_other:
                best_other = other
            if other == mine:
                ties += 1
        if mine > best_other:
            total += 1.0
        elif mine == best_other:
            total += 1.0 / ties
    return total / samples


@jit(parallel=True)
def observe_kernel(s, r, obs, moved):
    """Write the equity block of the observation (after the default block) of every env that
    ``moved`` (the others keep theirs, and their streams)."""
    for i in prange(s.table.shape[0]):
        if not moved[i]:
            continue
        out = obs[i]
        for k in range(DEFAULT_DIM, EQUITY_DIM):
            out[k] = 0.0
        t = s.table[i]
        if t[PLAYER] < 0:
            continue
        opponents = players_in(s, i, r)
        out[W_FIELD] = hand_equity(s, i, r, EQUITY_SAMPLES, opponents)
        out[W_ONE] = (out[W_FIELD] if opponents == 1
                      else hand_equity(s, i, r, EQUITY_SAMPLES, 1))
        to_call, _, _ = raise_bounds(s, i, r)
        pot = 0
        for q in range(r.num_players):
            pot += t[PAID + q]
        out[POT_ODDS] = to_call / (pot + to_call) if to_call > 0 else 0.0
        out[IN_HAND] = opponents / 9.0
