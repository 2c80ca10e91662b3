"""Da Yaoguai ``plan`` player: Monte Carlo lookahead over determinized deals.

At a decision with more than one legal move the player

1. works out what its seat may know: its own hand, the table, the hand sizes, and for every
   other seat the cards it picked up and has not played since (``KNOWN``: public). The
   cards never seen since the deal (``unknown``: all cards but its hand, the table and the
   known cards) are held by the other seats, ``size - known`` each; with 3, 5 or 6 players
   the rest of them are out of play;
2. draws ``SAMPLES`` deals of the unknown cards into those slots (uniform: the deal is, and
   the player does not model why an opponent played or passed);
3. for each candidate move (one card per rank: suits never matter) plays the move and then
   the rest of the game with every seat a ``shed`` player, one reply in ``RANDOM_REPLY`` a
   random beating card (the same draws for every move: common random numbers), for at most
   ``HORIZON`` steps;
4. plays the move with the best mean of its own bean transfers over the samples.

It passes only when no card beats (``PASS_MARGIN``: ``plan_move`` can weigh the pass too).

All the draws come from one 64-bit draw of the env's stream per decision, so games are the
same at any thread count. The rollouts keep their state in registers (a tuple of hands):
the kernels run without Numba's runtime and cannot allocate.
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.tuple import tuple_setitem

from ...core.bits import lowest_bit, pick_set_bit, popcount
from ...core.jit import jit
from ...core.rng import GOLDEN, mix64, next_u64

# A module, not names: it imports the rules, whose package imports the dispatch, which
# imports this module.
from . import players_shed as dayaoguai_shed
from .rules import (
    BEATEN_BY,
    HAND,
    IN_PLAY,
    KNOWN,
    MAX_PLAYERS,
    ON_TABLE,
    PASS,
    PLAYER,
    STEPS,
    TABLE_N,
    TOP,
    _next_in_play,
    legal_bits,
)

SAMPLES = 24  # determinized deals per decision
HORIZON = 100  # rollout steps at most (measured: as strong as 300 against shed, 48 and 47)
# Never pass while a card beats. Rollouts of shed players never pass either, so they
# overrate the pass: with other planners at the table, piles stay small (measured: a margin
# of 4 or 12 beans lost to the no-pass rule against shed, 22 and 33 against 50 per game).
PASS_MARGIN = -1
# Rollout shed: one reply in 5 is a uniformly drawn beating card. The search is only as good
# as its model of the opponents; noise keeps it from trusting shed's exact replies (measured
# against the trained checkpoint: -2.8 beans per game [-9.5, +4.0] without, +14.4
# [+3.6, +25.2] with; against shed +48.0 and +49.8).
RANDOM_REPLY = 5
RANK_MASK = 0xF  # the four cards of rank 0; rank k is RANK_MASK << 4k


@jit
def _draw(x):
    """The next state and 64 bits of a local splitmix64 stream."""
    x = x + GOLDEN
    return x, mix64(x)


@jit
def _shed(hand, top, x):
    """The built-in ``shed`` player's move on a rollout position, with noisy replies (its own
    draws from x)."""
    cards = hand if top < 0 else hand & BEATEN_BY[top]
    if cards == 0:
        return PASS, x
    if cards & (cards - 1) == 0:
        return lowest_bit(cards), x
    pool = dayaoguai_shed.least_useful(cards, dayaoguai_shed.ALL_CARDS & ~hand)
    if top >= 0:
        x, bits = _draw(x)
        if bits % np.uint64(RANDOM_REPLY) == 0:  # noise: the opponents may not be shed
            x, bits = _draw(x)
            return pick_set_bit(cards, bits), x
        return lowest_bit(pool), x
    x, bits = _draw(x)
    if bits % np.uint64(dayaoguai_shed.RANDOM_LEAD) == 0:
        x, bits = _draw(x)
        return pick_set_bit(cards, bits), x
    x, bits = _draw(x)
    return pick_set_bit(pool, bits), x


@jit
def _rollout(hands, p, top, on_table, table_n, in_play, a, me, n, limit, x):
    """Play move ``a`` of seat p, then shed players for every seat until the game ends or
    ``limit`` steps were taken; the bean transfers to seat ``me`` (in units of base)."""
    gain = 0
    for _ in range(limit):
        if a == PASS:
            if p == me:
                gain -= table_n * (n - 1)
            else:
                gain += table_n
            hands = tuple_setitem(hands, p, hands[p] | on_table)
            on_table = 0
            table_n = 0
            top = -1
        else:
            bit = np.int64(1) << a
            h = hands[p] & ~bit
            hands = tuple_setitem(hands, p, h)
            on_table |= bit
            table_n += 1
            top = a
            if h == 0:
                in_play &= ~(1 << p)
                if in_play & (in_play - 1) == 0:
                    break  # at most one seat holds cards: the game is over
            p = _next_in_play(in_play, p, n)
        a, x = _shed(hands[p], top, x)
    return gain


@jit
def _candidates(legal):
    """One card per rank among the legal cards (the lowest id), and the pass if legal."""
    out = legal & (np.int64(1) << PASS)
    for k in range(7):
        ranks = legal & (np.int64(RANK_MASK) << (4 * k))
        if ranks != 0:
            out |= ranks & -ranks
    return out


@jit
def plan(s, i, r):
    return plan_move(s, i, r, SAMPLES, HORIZON, PASS_MARGIN)


@jit
def plan_move(s, i, r, samples, horizon, pass_margin):
    """``plan`` with its settings: ``samples`` deals, rollouts of at most ``horizon`` steps,
    and a pass while a card beats taken only when its mean beats every card's by
    ``pass_margin`` beans (per unit of base; negative: never)."""
    t = s.table[i]
    legal = legal_bits(t, r)
    if legal & (legal - 1) == 0:
        return lowest_bit(legal)  # one legal move (the forced 方块J among them)
    cands = _candidates(legal)
    if pass_margin < 0 and cands != np.int64(1) << PASS:
        cands &= ~(np.int64(1) << PASS)  # never a voluntary pass
    if cands & (cands - 1) == 0:
        return lowest_bit(cands)  # cards of one rank only: the same move
    me = t[PLAYER]
    n = r.num_players
    # What this seat may know: its hand, the table, every seat's size and known cards.
    seen = t[HAND + me] | t[ON_TABLE]
    for q in range(n):
        if q != me:
            seen |= t[KNOWN + q]
    unknown = dayaoguai_shed.ALL_CARDS & ~seen
    base = (np.int64(0), np.int64(0), np.int64(0), np.int64(0), np.int64(0), np.int64(0))
    for q in range(n):
        base = tuple_setitem(base, q, t[HAND + me] if q == me else t[KNOWN + q])
    limit = min(horizon, r.max_steps - t[STEPS])
    seed = next_u64(s.rng, i)
    best = np.int64(PASS)
    best_total = np.int64(-(1 << 62))
    z = np.int64(0)
    totals = (z, z, z, z, z, z, z, z)  # per rank, then the pass
    for k in range(samples):
        x = mix64(seed + np.uint64(k) * np.uint64(0x9E3779B97F4A7C15))
        hands = base
        pool = unknown
        for q in range(n):  # fill each other seat's unseen slots from the unknown cards
            if q != me:
                for _ in range(popcount(t[HAND + q]) - popcount(t[KNOWN + q])):
                    x, bits = _draw(x)
                    c = pick_set_bit(pool, bits)
                    pool &= ~(np.int64(1) << c)
                    hands = tuple_setitem(hands, q, hands[q] | (np.int64(1) << c))
        rest = cands
        while rest != 0:
            a = lowest_bit(rest)
            rest &= rest - 1
            g = _rollout(hands, me, t[TOP], t[ON_TABLE], t[TABLE_N], t[IN_PLAY], a, me, n,
                         limit, x)
            j = min(a // 4, 7)
            totals = tuple_setitem(totals, j, totals[j] + g)
    rest = cands
    while rest != 0:
        a = lowest_bit(rest)
        rest &= rest - 1
        j = min(a // 4, 7)
        total = totals[j] - (pass_margin * samples if a == PASS else 0)
        if total > best_total:
            best_total = total
            best = a
    return best


# MAX_PLAYERS seats fit the rollout's tuple of hands.
assert MAX_PLAYERS == 6
