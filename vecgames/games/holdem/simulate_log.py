"""Per-hand logs for small batches: ``hand_log(100, seed=0)`` replays the hands that
``vecgames.simulate("holdem", ...)`` plays with the same arguments, action by action."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import pandas as pd

from ...core.cards import format_cards
from ...core.rng import check_seed, seed_stream
from ...core.validation import check_int
from ...poker.describe import describe
from . import players as policies
from .rules import (
    ALL_IN,
    BET,
    BUTTON,
    CUR_BET,
    FOLDED,
    HAND_OVER,
    PAID,
    PAYOUT,
    PLAYER,
    RAISE,
    STREET,
    STREET_NAMES,
    STRENGTH,
    apply_action,
    deal_hand,
    make_rules,
    new_state,
    starting_stacks,
)

MAX_LOGGED_HANDS = 100_000


class HandLog(NamedTuple):
    hands: pd.DataFrame  # one row per hand
    actions: pd.DataFrame  # one row per action


def hand_log(num_games: int, policy: str | Sequence[str] = "random", seed: int = 0,
             first_game: int = 0, **options: Any) -> HandLog:
    """Play hands ``first_game ..`` one by one, recording everything.

    ``hands``: hand, button, ``hole_<seat>``, board, pot, ``chips_<seat>`` (chip change),
    winners (seats that won more than they put in), ``shown_<seat>`` (the hand's name at
    showdown). ``actions``: hand, seq, street, seat, action (fold, check, call, bet, raise;
    a call the seat cannot cover under ``short_stack="fold"`` is logged as the fold it is),
    to (the raise-to amount of a bet or raise, else missing), added (chips put in), pot
    (after it), all_in (the action put the seat's last chip in).
    """
    num_games = check_int(num_games, "num_games", 1, MAX_LOGGED_HANDS)
    seed_u64 = check_seed(seed)
    first_game = check_int(first_game, "first_game", 0, 2**62)
    rules = make_rules(**options)
    n = rules.num_players
    _, codes = policies.seat_policies(policy, n)
    state = new_state(1, starting_stacks(**options))
    t = state.table[0]
    hands, actions = [], []
    for g in range(first_game, first_game + num_games):
        seed_stream(state.rng, 0, seed_u64, g)
        deal_hand(state, 0, rules, g)
        seq = 0
        while t[STREET] != HAND_OVER:
            p = int(t[PLAYER])
            street = int(t[STREET])
            owed = int(t[CUR_BET] - t[BET + p])
            paid_before = int(t[PAID + p])
            kind, amount = policies.policy_action(int(codes[p]), state, 0, rules)
            apply_action(state, 0, kind, amount, rules)
            added = int(t[PAID + p]) - paid_before
            if (t[FOLDED] >> p) & 1:  # a fold, or a call the seat could not cover (fold mode)
                name = "fold"
            elif kind == RAISE:
                name = "bet" if owed == 0 and street > 0 else "raise"
            else:
                name = "call" if owed > 0 else "check"
            actions.append((g, seq, STREET_NAMES[street], p, name,
                            int(amount) if kind == RAISE else None, added,
                            int(t[PAID:PAID + n].sum()), bool((t[ALL_IN] >> p) & 1)
                            and added > 0))
            seq += 1
        row: dict[str, Any] = {"hand": g, "button": int(t[BUTTON])}
        for p in range(n):
            row[f"hole_{p}"] = format_cards(state.deck[0, 2 * p:2 * p + 2])
        row["board"] = format_cards(state.deck[0, 2 * n:2 * n + 5])
        row["pot"] = int(t[PAID:PAID + n].sum())
        for p in range(n):
            row[f"chips_{p}"] = int(t[PAYOUT + p] - t[PAID + p])
        row["winners"] = [p for p in range(n) if t[PAYOUT + p] > t[PAID + p]]
        for p in range(n):
            row[f"shown_{p}"] = describe(int(t[STRENGTH + p])) if t[STRENGTH + p] else ""
        hands.append(row)
    action_frame = pd.DataFrame(actions, columns=["hand", "seq", "street", "seat", "action",
                                                  "to", "added", "pot", "all_in"])
    action_frame["to"] = action_frame["to"].astype("Int64")
    return HandLog(pd.DataFrame(hands), action_frame)


__all__ = ["HandLog", "hand_log"]
