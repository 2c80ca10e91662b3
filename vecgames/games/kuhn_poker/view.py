"""Kuhn poker at the terminal and in the browser: what a seat may see, its moves and what each
move did (``vecgames play kuhn_poker``; the shared loop is ``vecgames.play.terminal``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..view import Move, View
from .rules import BET, PASS, card_name, field


def _f(s: Any, name: str) -> Any:
    return field(s, name)[0]


def _facing_bet(s: Any) -> bool:
    return int(_f(s, "bettor")) >= 0


class KuhnView(View):
    game = "kuhn_poker"
    title = "Kuhn poker"
    default_agent = "rule"
    watch_agents = ("rule", "random")
    example = "b"

    def rules_text(self, env: Any) -> str:
        return ("Kuhn poker: three cards (J < Q < K), one each, an ante of 1. The first player "
                "passes (checks) or bets 1; facing a bet, a player passes (folds) or bets "
                "(calls). Two passes, or a bet and a call, show the cards: the higher card "
                "takes the pot. Moves: 'p' pass, 'b' bet; '?' these rules, 'q' quit.")

    def table(self, s: Any, env: Any, seat: int | None) -> str:
        lines = [f"Pot {int(_f(s, 'paid').sum())}."]
        for p in range(env.rules.num_players):
            line = f"  Seat {p}{' (you)' if p == seat else ''}: put in {int(_f(s, 'paid')[p])}"
            if seat is None or p == seat:
                line += f"; card {card_name(int(_f(s, 'card')[p]))}"
            lines.append(line)
        return "\n".join(lines)

    def moves(self, s: Any, env: Any, mask: np.ndarray) -> list[Move]:
        facing = _facing_bet(s)
        return [Move(PASS, "p", "fold" if facing else "check", bool(mask[PASS])),
                Move(BET, "b", "call 1" if facing else "bet 1", bool(mask[BET]))]

    def narrate(self, before: Any, after: Any, env: Any, action: Any, reward: np.ndarray,
                done: bool) -> list[str]:
        facing = _facing_bet(before)
        text = (("folds" if facing else "checks") if int(action) == PASS
                else ("calls" if facing else "bets 1"))
        return [f"Seat {int(_f(before, 'player'))} {text}"]

    def game_over(self, before: Any, env: Any, action: Any, total: np.ndarray,
                  seat: int | None, truncated: bool) -> str:
        n = env.rules.num_players
        if _facing_bet(before) and int(action) == PASS:
            why = f"Seat {int(_f(before, 'player'))} folded."
        else:
            why = "Showdown: " + ", ".join(
                f"seat {q} {card_name(int(_f(before, 'card')[q]))}" for q in range(n)) + "."
        return why + "\nChips this game: " + ", ".join(
            f"seat {q}{' (you)' if q == seat else ''} {total[q]:+g}" for q in range(n))


VIEW = KuhnView()
