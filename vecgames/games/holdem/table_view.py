"""Texas Hold'em: what one seat may see of a table, as JSON (the web app's view;
``vecgames.web.views`` adds what every game shares)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from ..seat_view import poker_card, sees
from .observe import exact_action as _exact


def table(s: Any, env: Any, seat: int | None, reveal: bool,
            shown: Collection[int]) -> dict[str, Any]:
    from .rules import STREET_NAMES, field, raise_bounds

    def f(name: str) -> Any:
        return field(s, name)[0]

    n = env.rules.num_players
    street = int(f("street"))
    dealt = int(f("end_street")) if street >= 4 else street  # a hand over: where it ended
    board = 0 if dealt == 0 else min(dealt + 2, 5)  # never a card the hand did not deal
    if shown:  # a showdown: the whole board was dealt
        board = 5
    visible = sees(seat, reveal, shown)
    to_call, low, high = raise_bounds(s, 0, env.rules)
    folded, all_in = int(f("folded")), int(f("all_in"))
    seats = [{"stack": int(f("stack")[p]), "bet": int(f("bet")[p]),
              "status": ("folded" if (folded >> p) & 1 else "all-in" if (all_in >> p) & 1
                         else "in"),
              "cards": [poker_card(c) for c in s.deck[0, 2 * p:2 * p + 2]] if visible(p) else None}
             for p in range(n)]
    button = int(f("button"))
    small = button if n == 2 else (button + 1) % n  # as the rules post them (heads-up: button)
    return {"street": STREET_NAMES[min(street, 4)], "button": button,
            "blinds": {"small": small, "big": (small + 1) % n},
            "board": [poker_card(c) for c in s.deck[0, 2 * n:2 * n + board]],
            "pot": int(f("paid")[:n].sum()), "to_call": int(to_call),
            "raise": {"min": int(low), "max": int(high)} if low <= high else None,
            "seats": seats}


# The raise range is the acting seat's business: the others get None.
ACTING_ONLY = ("raise",)


def shown(before: Any, env: Any, action: Any) -> list[int]:
    """The seats at the showdown (none when everyone else folded)."""
    from .rules import field

    fold = _exact(before, env, action)[0] == 0
    folded = int(field(before, "folded")[0]) | (
        (1 << int(field(before, "player")[0])) if fold else 0)
    left = [p for p in range(env.rules.num_players) if not (folded >> p) & 1]
    return left if len(left) > 1 else []


def group(env: Any, move: Any) -> str:
    return "raise" if int(move.action) >= 2 else "call"
