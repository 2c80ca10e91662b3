"""Zha Jin Hua: what one seat may see of a table, as JSON (the web app's view;
``vecgames.web.views`` adds what every game shares)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from ...poker.three_card import compare_3
from ..seat_view import poker_card
from .rules import BET0, COMPARE0, field


def compare_loser(s: Any, env: Any, p: int, j: int) -> int:
    """Who a compare of seat p with seat j puts out (a tie: the comparer), from the hands in
    the state before it: not from the rewards, since a compare on the last turn of the last
    round is followed by a showdown that the compare's winner may lose."""
    strength = field(s, "strength")[0]
    won = compare_3(int(strength[p]), int(strength[j]), int(env.rules.special_235)) > 0
    return j if won else p


def table(s: Any, env: Any, seat: int | None, reveal: bool,
               shown: Collection[int]) -> dict[str, Any]:
    from ...poker.three_card import CATEGORY_NAMES
    from .rules import LOOK_PHASE, field

    def f(name: str) -> Any:
        return field(s, name)[0]

    alive, seen = int(f("alive")), int(f("seen"))
    known = int(f("known")[seat]) if seat is not None else 0
    seats = []
    for p in range(env.rules.num_players):
        last = int(f("last_action")[p])
        own = p == seat
        visible = reveal or p in shown or (own and (seen >> p) & 1) or (known >> p) & 1
        row: dict[str, Any] = {"in": bool((alive >> p) & 1), "seen": bool((seen >> p) & 1),
                               "paid": int(f("paid")[p]),
                               "last": env.action_names[last] if last >= 0 else None,
                               "cards": None, "hand": None}
        if visible:
            row["cards"] = [poker_card(c) for c in s.deck[0, 3 * p:3 * p + 3]]
            row["hand"] = CATEGORY_NAMES[int(f("strength")[p]) >> 12]
        seats.append(row)
    return {"round": int(f("round")) + 1, "max_rounds": int(env.rules.max_rounds),
            "pot": int(f("pot")), "min_bet": int(f("min_bet")),
            "phase": "look" if int(f("phase")) == LOOK_PHASE else "bet", "seats": seats}


# A seat that never looked stays blind to its own cards; the end of the game shows them to it.
OWN_CARDS_AT_END = True


def shown(before: Any, env: Any, action: Any) -> list[int]:
    """The seats that show their cards at the end: the seats still in when the rounds ran
    out (as the terminal's game_over says)."""
    from .rules import BET0, COMPARE0, FOLD, field

    alive = [q for q in range(env.rules.num_players) if (int(field(before, "alive")[0]) >> q) & 1]
    p = int(field(before, "player")[0])
    if action == FOLD:
        alive.remove(p)
    elif COMPARE0 <= action < BET0:
        alive.remove(compare_loser(before, env, p, action - COMPARE0))
    return alive if len(alive) > 1 else []


def group(env: Any, move: Any) -> str:
    a = int(move.action)
    return "bet" if a >= BET0 else "compare" if a >= COMPARE0 else "turn"
