"""Whole hands inside the kernels: ``vecgames.simulate("holdem", ...)``.

Hand g draws from the random stream of global index g under the seed (its deal, button and
every random choice), so results do not depend on the thread count or on how hands are split.
Policies (the seed's baseline strategies; one name for every seat or a list with one per seat):

- ``"random"``: a uniform choice among the legal kinds (fold only when a bet is owed,
  check/call, raise when allowed), a raise-to amount uniform between the minimum and maximum.
- ``"call"``: check/call with probability ``CALL_PROBABILITY`` (1/2), otherwise fold (check
  when that is free); never raises.
- ``"raise"``: raise whenever allowed, to min + ``RAISE_FRACTION`` (1/4) of (max - min);
  otherwise call.
- ``"check"``: check when free, fold to any bet.
- ``"strength"``: plays by hand strength from the equity engine's evaluator: a Monte Carlo
  estimate (``STRENGTH_SAMPLES`` deals of the unseen cards) of its share of the pot against the
  players still in, seeing only its own cards and the board. It raises (a pot-size raise,
  within the legal bounds) when that equity is at least 1.6x a fair share (at most 0.85), calls
  when it beats the pot odds, and otherwise checks or folds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numba
import numpy as np
import pandas as pd
from numba import prange

from ...core.jit import jit
from ...core.rng import below, check_seed, high32, next_u64, seed_stream
from ...core.validation import check_int
from ...poker.seven_card import CARD_BIT, CARD_KEY, KEY_BASE, category_of, strength_of
from .rules import (
    BET,
    BUTTON,
    CALL,
    CUR_BET,
    END_STREET,
    FOLD,
    FOLDED,
    HAND_OVER,
    PAID,
    PAYOUT,
    PFR,
    PLAYER,
    RAISE,
    SHOWDOWN,
    STREET,
    STREET_NAMES,
    STRENGTH,
    VPIP,
    apply_action,
    make_rules,
    new_state,
    raise_bounds,
    reset_one,
    starting_stacks,
)

SLOTS = 64  # hand runs per kernel call, each in its own state row
POLICIES = ("random", "call", "raise", "check", "strength")
RANDOM, CALLER, RAISER, CHECKER, STRENGTH_PLAYER = range(5)
CALL_PROBABILITY = 0.5
RAISE_FRACTION = 0.25
STRENGTH_SAMPLES = 48
BOARD_SEEN = (0, 3, 4, 5)  # board cards visible on each street


@jit
def _draw_unseen(s, i, used):
    # A uniform card not in ``used`` (a 52-bit mask), from env i's stream.
    while True:
        c = below(next_u64(s.rng, i), 52)
        if not (used >> c) & 1:
            return c


@jit
def estimate_equity(s, i, r, samples):
    """Monte Carlo share of the pot for the player to act against the others still in, from
    its own cards and the visible board only."""
    t = s.table[i]
    d = s.deck[i]
    n = r.num_players
    p = t[PLAYER]
    opponents = 0
    for q in range(n):
        if q != p and not (t[FOLDED] >> q) & 1:
            opponents += 1
    seen = BOARD_SEEN[t[STREET]]
    base_used = (np.int64(1) << d[2 * p]) | (np.int64(1) << d[2 * p + 1])
    base_key = KEY_BASE
    base_bits = np.int64(0)
    for k in range(seen):
        c = d[2 * n + k]
        base_used |= np.int64(1) << c
        base_key += CARD_KEY[c]
        base_bits |= CARD_BIT[c]
    total = 0.0
    for _ in range(samples):
        used = base_used
        key, bits = base_key, base_bits
        for _k in range(seen, 5):
            c = _draw_unseen(s, i, used)
            used |= np.int64(1) << c
            key += CARD_KEY[c]
            bits |= CARD_BIT[c]
        mine = strength_of(key + CARD_KEY[d[2 * p]] + CARD_KEY[d[2 * p + 1]],
                           bits | CARD_BIT[d[2 * p]] | CARD_BIT[d[2 * p + 1]])
        best_other = 0
        ties = 1
        for _q in range(opponents):
            a = _draw_unseen(s, i, used)
            used |= np.int64(1) << a
            b = _draw_unseen(s, i, used)
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
    return total / samples, opponents


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
    """The seed's random player: (kind, raise_to)."""
    t = s.table[i]
    to_call, lo, hi = raise_bounds(s, i, r)
    can_fold = t[CUR_BET] > t[BET + t[PLAYER]]
    can_raise = lo <= hi
    bits = next_u64(s.rng, i)
    k = below(bits, 1 + can_fold + can_raise)
    if k == 0:
        return CALL, 0
    if k == 1 and can_fold:
        return FOLD, 0
    return RAISE, lo + below(high32(bits), hi - lo + 1)


@jit(inline=True)
def policy_action(policy, s, i, r):
    """(kind, raise_to) of baseline ``policy`` for the player to act in env i."""
    if policy == RANDOM:
        return random_action(s, i, r)
    if policy == STRENGTH_PLAYER:
        return strength_action(s, i, r)
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
        return RAISE, lo + np.int64(RAISE_FRACTION * (hi - lo))
    return CALL, 0


@jit
def _play_hands(s, slot, r, seat_policy, seed, first, lo, hi, chips, button, end_street,
                showdown, pot, vpip, pfr, category):
    t = s.table[slot]
    n = r.num_players
    for g in range(lo, hi):
        seed_stream(s.rng, slot, seed, first + g)
        reset_one(s, slot, r)
        while t[STREET] != HAND_OVER:
            kind, amount = policy_action(seat_policy[t[PLAYER]], s, slot, r)
            apply_action(s, slot, kind, amount, r)
        total = 0
        for p in range(n):
            chips[g, p] = t[PAYOUT + p] - t[PAID + p]
            total += t[PAID + p]
            category[g, p] = category_of(t[STRENGTH + p]) if t[STRENGTH + p] > 0 else -1
        button[g] = t[BUTTON]
        end_street[g] = t[END_STREET]
        showdown[g] = t[SHOWDOWN]
        pot[g] = total
        vpip[g] = t[VPIP]
        pfr[g] = t[PFR]


@jit(parallel=True)
def _simulate_kernel(s, r, seat_policy, seed, first, chips, button, end_street, showdown, pot,
                     vpip, pfr, category):
    num = chips.shape[0]
    for slot in prange(SLOTS):
        _play_hands(s, slot, r, seat_policy, seed, first, num * slot // SLOTS,
                    num * (slot + 1) // SLOTS, chips, button, end_street, showdown, pot, vpip,
                    pfr, category)


def simulate(num_games: int, policy: str | Sequence[str] = "random", seed: int = 0,
             first_game: int = 0, num_threads: int | None = None,
             **options: Any) -> pd.DataFrame:
    """Play ``num_games`` independent hands; one row per hand: ``chips_<seat>`` (chip change),
    ``button``, ``end_street`` (where the hand ended), ``showdown``, ``pot``.
    ``policy``: one of ``POLICIES`` for every seat, or a list with one per seat. Also per
    seat: ``vpip_<seat>`` / ``pfr_<seat>`` (put chips in voluntarily / raised preflop) and
    ``category_<seat>`` (hand category 0..8 shown at showdown, -1 if not shown).
    ``attrs``: ``policies`` (one per seat) and ``rules``."""
    num_games = check_int(num_games, "num_games", 1, 2**31 - 1)
    seed_u64 = check_seed(seed)
    first_game = check_int(first_game, "first_game", 0, 2**62)
    rules = make_rules(**options)
    stacks = starting_stacks(**options)
    n = rules.num_players
    names = [policy] * n if isinstance(policy, str) else list(policy)
    if len(names) != n or any(name not in POLICIES for name in names):
        raise ValueError(f"policy must be one of {POLICIES} or a list of {n} of them, got "
                         f"{policy!r}")
    seat_policy = np.array([POLICIES.index(name) for name in names], np.int64)
    state = new_state(SLOTS, stacks)
    chips = np.zeros((num_games, n), np.int32)
    button = np.zeros(num_games, np.int8)
    end_street = np.zeros(num_games, np.int8)
    showdown = np.zeros(num_games, np.bool_)
    pot = np.zeros(num_games, np.int32)
    vpip = np.zeros(num_games, np.int16)
    pfr = np.zeros(num_games, np.int16)
    category = np.zeros((num_games, n), np.int8)
    before = numba.get_num_threads()
    if num_threads is not None:
        numba.set_num_threads(check_int(num_threads, "num_threads", 1,
                                        numba.config.NUMBA_NUM_THREADS))
    try:
        _simulate_kernel(state, rules, seat_policy, seed_u64, first_game, chips, button,
                         end_street, showdown, pot, vpip, pfr, category)
    finally:
        numba.set_num_threads(before)
    frame = pd.DataFrame({f"chips_{p}": chips[:, p] for p in range(n)})
    frame["button"] = button
    frame["end_street"] = pd.Categorical.from_codes(end_street, STREET_NAMES[:4])
    frame["showdown"] = showdown
    frame["pot"] = pot
    for p in range(n):
        frame[f"vpip_{p}"] = (vpip >> p) & 1 == 1
    for p in range(n):
        frame[f"pfr_{p}"] = (pfr >> p) & 1 == 1
    for p in range(n):
        frame[f"category_{p}"] = category[:, p]
    frame.attrs["policies"] = names
    frame.attrs["rules"] = {"num_players": n, "stacks": stacks,
                            "small_blind": rules.small_blind, "big_blind": rules.big_blind}
    return frame
