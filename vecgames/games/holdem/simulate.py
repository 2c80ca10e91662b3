"""Whole hands inside the kernels: ``vecgames.simulate("holdem", ...)``.

Hand g draws from the random stream of global index g under the seed (its deal, button and
every random choice), so results do not depend on the thread count or on how hands are split.
The policies are in ``vecgames.policies.holdem``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numba
import numpy as np
import pandas as pd
from numba import prange

from ...core.jit import jit
from ...core.rng import check_seed, seed_stream
from ...core.validation import check_int
from ...poker.seven_card import category_of
from ...policies import holdem as policies  # a module: importable mid-cycle
from .rules import (
    BUTTON,
    END_STREET,
    HAND_OVER,
    PAID,
    PAYOUT,
    PFR,
    PLAYER,
    SHOWDOWN,
    STREET,
    STREET_NAMES,
    STRENGTH,
    VPIP,
    apply_action,
    make_rules,
    new_state,
    reset_one,
    starting_stacks,
)

SLOTS = 64  # hand runs per kernel call, each in its own state row

@jit
def _play_hands(s, slot, r, seat_policy, seed, first, lo, hi, chips, button, end_street,
                showdown, pot, vpip, pfr, category):
    t = s.table[slot]
    n = r.num_players
    for g in range(lo, hi):
        seed_stream(s.rng, slot, seed, first + g)
        reset_one(s, slot, r)
        while t[STREET] != HAND_OVER:
            kind, amount = policies.policy_action(seat_policy[t[PLAYER]], s, slot, r)
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
    ``policy``: one of ``policies.POLICIES`` for every seat, or a list with one per seat. Also per
    seat: ``vpip_<seat>`` / ``pfr_<seat>`` (put chips in voluntarily / raised preflop) and
    ``category_<seat>`` (hand category 0..8 shown at showdown, -1 if not shown).
    ``attrs``: ``policies`` (one per seat) and ``rules``."""
    num_games = check_int(num_games, "num_games", 1, 2**31 - 1)
    seed_u64 = check_seed(seed)
    first_game = check_int(first_game, "first_game", 0, 2**62)
    rules = make_rules(**options)
    stacks = starting_stacks(**options)
    n = rules.num_players
    names, seat_policy = policies.seat_policies(policy, n)
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
