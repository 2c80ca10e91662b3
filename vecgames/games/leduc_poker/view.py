"""Leduc Hold'em at the terminal and in the browser: what a seat may see, its moves and what
each move did (``vecgames play leduc_poker``; the shared loop is ``vecgames.play.terminal``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..view import Move, View
from .rules import (
    CALL,
    FOLD,
    NUM_SUITS,
    RAISE,
    RAISE_SIZES,
    RANK_NAMES,
    card_name,
    field,
)


def _f(s: Any, name: str) -> Any:
    return field(s, name)[0]


def _pot(s: Any) -> int:
    return int(_f(s, "paid").sum())


def _to_call(s: Any, p: int) -> int:
    return int(_f(s, "stakes")) - int(_f(s, "paid")[p])


class LeducView(View):
    game = "leduc_poker"
    title = "Leduc Hold'em"
    default_agent = "rule"
    watch_agents = ("rule", "random")
    example = "r"

    def rules_text(self, env: Any) -> str:
        return ("Leduc Hold'em: six cards (J, Q, K of two suits), one private card each, an "
                "ante of 1. Two betting rounds, the first player opens each: check or call, "
                f"raise ({RAISE_SIZES[0]} in the first round, {RAISE_SIZES[1]} in the second, "
                "at most two raises a round), or fold to a bet. A public card is shown after "
                "the first round; a pair with it beats any single card, else the higher card "
                "wins, equal ranks split. Moves: 'c' check/call, 'r' raise, 'f' fold; '?' "
                "these rules, 'q' quit.")

    def table(self, s: Any, env: Any, seat: int | None) -> str:
        rnd = int(_f(s, "round"))
        public = card_name(int(_f(s, "public"))) if rnd >= 1 else "not shown yet"
        lines = [f"Round {rnd + 1} of 2. Pot {_pot(s)}. Public card: {public}."]
        for p in range(env.rules.num_players):
            card = int(_f(s, "card")[p])
            seen = seat is None or p == seat
            line = (f"  Seat {p}{' (you)' if p == seat else ''}: put in "
                    f"{int(_f(s, 'paid')[p])}")
            if seen:
                line += f"; card {card_name(card)}"
            lines.append(line)
        return "\n".join(lines)

    def moves(self, s: Any, env: Any, mask: np.ndarray) -> list[Move]:
        p = int(_f(s, "player"))
        owe = _to_call(s, p)
        size = RAISE_SIZES[min(int(_f(s, "round")), 1)]
        return [Move(FOLD, "f", "fold", bool(mask[FOLD])),
                Move(CALL, "c", f"call {owe}" if owe else "check", bool(mask[CALL])),
                Move(RAISE, "r", f"raise {size} (put in {owe + size})", bool(mask[RAISE]))]

    def narrate(self, before: Any, after: Any, env: Any, action: Any, reward: np.ndarray,
                done: bool) -> list[str]:
        p = int(_f(before, "player"))
        owe = _to_call(before, p)
        size = RAISE_SIZES[min(int(_f(before, "round")), 1)]
        text = {FOLD: "folds", CALL: f"calls {owe}" if owe else "checks",
                RAISE: f"raises {size}"}.get(int(action), f"plays {action}")
        lines = [f"Seat {p} {text}"]
        if not done and int(_f(after, "round")) > int(_f(before, "round")):
            lines.append(f"--- public card: {card_name(int(_f(after, 'public')))} ---")
        return lines

    def game_over(self, before: Any, env: Any, action: Any, total: np.ndarray,
                  seat: int | None, truncated: bool) -> str:
        n = env.rules.num_players
        if int(action) == FOLD:
            why = f"Seat {int(_f(before, 'player'))} folded."
        else:
            public = int(_f(before, "public"))
            hands = []
            for q in range(n):
                card = int(_f(before, "card")[q])
                rank = RANK_NAMES[card // NUM_SUITS]
                pair = f" (a pair of {rank}s)" if card // NUM_SUITS == public // NUM_SUITS else ""
                hands.append(f"seat {q} {card_name(card)}{pair}")
            why = f"Showdown, public card {card_name(public)}: " + ", ".join(hands) + "."
        return why + "\nChips this game: " + ", ".join(
            f"seat {q}{' (you)' if q == seat else ''} {total[q]:+g}" for q in range(n))


VIEW = LeducView()
