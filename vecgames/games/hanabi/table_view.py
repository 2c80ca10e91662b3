"""Hanabi: what one seat may see of a table, as JSON (the web app's view;
``vecgames.web.views`` adds what every game shares)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any


def table(s: Any, env: Any, seat: int | None, reveal: bool,
            shown: Collection[int]) -> dict[str, Any]:
    from .rules import (
        COLOR_NAMES,
        DECK_SIZE,
        LAST_ACTION,
        LAST_ACTOR,
        MAX_INFO,
        MAX_LIFE,
        field,
        hands,
        knowledge,
    )

    def f(name: str) -> Any:
        return field(s, name)[0]

    def card(c: int) -> dict[str, Any]:
        return {"card": int(c), "color": COLOR_NAMES[c // 5], "rank": int(c % 5) + 1}

    def known(k: int) -> dict[str, Any]:
        """What the holder knows (every seat heard the hints): a colour and a rank once
        only one is possible, and the colours and ranks hints ruled out."""
        colors = [COLOR_NAMES[c] for c in range(5) if (k >> c) & 1]
        ranks = [v + 1 for v in range(5) if (k >> (5 + v)) & 1]
        return {"color": colors[0] if len(colors) == 1 else None,
                "rank": ranks[0] if len(ranks) == 1 else None,
                "not_colors": [] if len(colors) == 1 else
                [COLOR_NAMES[c] for c in range(5) if not (k >> c) & 1],
                "not_ranks": [] if len(ranks) == 1 else
                [v + 1 for v in range(5) if not (k >> (5 + v)) & 1]}

    cards, know = hands(s)[0], knowledge(s)[0]
    seats = []
    for p in range(env.rules.num_players):
        # cards face outward: a player sees every hand but their own, an onlooker every hand
        visible = reveal or seat is None or p != seat
        slots = []
        for k in range(env.rules.hand_size):
            if cards[p, k] < 0:
                continue
            slot: dict[str, Any] = {"slot": k, "know": known(int(know[p, k]))}
            if visible:
                slot["card"] = card(int(cards[p, k]))
            slots.append(slot)
        seats.append({"slots": slots})
    t = s.table[0]
    last = None
    if t[LAST_ACTOR] >= 0:
        last = f"seat {int(t[LAST_ACTOR])}: {env.action_name(int(t[LAST_ACTION]))}"
    return {"fireworks": [{"color": COLOR_NAMES[c], "height": int(h)}
                          for c, h in enumerate(f("fireworks"))],
            "score": int(f("score")), "info": int(f("info")), "max_info": MAX_INFO,
            "life": int(f("life")), "max_life": MAX_LIFE,
            "deck": int(DECK_SIZE - int(f("dealt"))), "turn": int(f("turn")) + 1,
            "last": last, "seats": seats,
            "discards": [card(int(c)) for c in sorted(s.pile[0, :int(f("piled"))])]}


def group(env: Any, move: Any) -> str:
    a, h = int(move.action), env.rules.hand_size
    return "discard" if a < h else "play" if a < 2 * h else "hint"


KEEP_AFTER = ("pile",)  # the discard pile: a new deal does not touch it
