"""Leduc Hold'em: what one seat may see of a table, as JSON (the web app's view;
``vecgames.web.views`` adds what every game shares)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from ..seat_view import sees
from .rules import FOLD, NUM_SUITS, RANK_NAMES, SUIT_NAMES, field


def card(c: int) -> dict[str, Any]:
    return {"card": int(c), "r": RANK_NAMES[c // NUM_SUITS], "s": SUIT_NAMES[c % NUM_SUITS]}


def table(s: Any, env: Any, seat: int | None, reveal: bool,
          shown: Collection[int]) -> dict[str, Any]:
    def f(name: str) -> Any:
        return field(s, name)[0]

    visible = sees(seat, reveal, shown)
    rnd = int(f("round"))
    stakes = int(f("stakes"))
    seats = [{"paid": int(f("paid")[p]), "to_call": stakes - int(f("paid")[p]),
              "cards": [card(int(f("card")[p]))] if visible(p) else None, "count": 1}
             for p in range(env.rules.num_players)]
    # the public card only once the second round (or a showdown) has shown it
    board = [card(int(f("public")))] if rnd >= 1 or shown else []
    return {"round": rnd + 1, "pot": int(f("paid").sum()), "raises": int(f("raises")),
            "board": board, "seats": seats}


def shown(before: Any, env: Any, action: Any) -> list[int]:
    """A showdown shows both cards; a fold shows none."""
    return [] if int(action) == FOLD else list(range(env.rules.num_players))


def group(env: Any, move: Any) -> str:
    return "fold" if int(move.action) == FOLD else "bet"
