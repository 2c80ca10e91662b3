"""Kuhn poker: what one seat may see of a table, as JSON (the web app's view;
``vecgames.web.views`` adds what every game shares)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from ..seat_view import sees
from .rules import PASS, RANK_NAMES, field


def card(c: int) -> dict[str, Any]:
    return {"card": int(c), "r": RANK_NAMES[c], "s": ""}


def table(s: Any, env: Any, seat: int | None, reveal: bool,
          shown: Collection[int]) -> dict[str, Any]:
    visible = sees(seat, reveal, shown)
    paid = field(s, "paid")[0]
    seats = [{"paid": int(paid[p]), "cards": [card(int(field(s, "card")[0, p]))]
              if visible(p) else None, "count": 1} for p in range(env.rules.num_players)]
    bettor = int(field(s, "bettor")[0])
    return {"pot": int(paid.sum()), "bettor": bettor if bettor >= 0 else None, "seats": seats}


def shown(before: Any, env: Any, action: Any) -> list[int]:
    """A showdown shows both cards; a fold (a pass facing the bet) shows none."""
    folded = int(field(before, "bettor")[0]) >= 0 and int(action) == PASS
    return [] if folded else list(range(env.rules.num_players))


def group(env: Any, move: Any) -> str:
    return "bet"
