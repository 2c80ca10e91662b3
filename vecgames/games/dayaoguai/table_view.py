"""Da Yaoguai: what one seat may see of a table, as JSON (the web app's view;
``vecgames.web.views`` adds what every game shares)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from ..seat_view import sees

DYG_SUITS = "hscd"  # the order of the game's SUIT_SYMBOLS: ♥ ♠ ♣ ♦


def dyg_card(c: int) -> dict[str, Any]:
    from .rules import RANK_NAMES

    return {"card": int(c), "r": RANK_NAMES[c // 4], "s": DYG_SUITS[c % 4]}


def _bits(cards: int) -> list[dict[str, Any]]:
    from .rules import NUM_CARDS

    return [dyg_card(c) for c in range(NUM_CARDS) if (cards >> c) & 1]


def table(s: Any, env: Any, seat: int | None, reveal: bool,
               shown: Collection[int]) -> dict[str, Any]:
    from .names import seat_label
    from .rules import field

    def f(name: str) -> Any:
        return field(s, name)[0]

    visible = sees(seat, reveal, shown)
    seats = []
    for p in range(env.rules.num_players):
        hand = int(f("hand")[p])
        seats.append({"name": seat_label(p, env.seat_names), "count": bin(hand).count("1"),
                      "beans": int(f("beans")[p]), "place": int(f("place")[p]),
                      "hand": _bits(hand) if visible(p) else None,
                      # cards it picked up from the table (everyone saw them) and still holds
                      "known": _bits(int(f("known")[p]))})
    return {"step": int(f("steps")),
            "table": [dyg_card(int(c)) for c in s.table_cards[0, :int(f("table_n"))]],
            "seats": seats}


def group(env: Any, move: Any) -> str:
    return "pass" if move.short == "p" else "card"


KEEP_AFTER = ("table_cards",)  # the cards on the table: a new deal does not touch them
