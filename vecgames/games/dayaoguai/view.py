"""Play Da Yaoguai 打妖怪 in the terminal: ``vecgames play dayaoguai``.

    vecgames play dayaoguai                        # you against three shed players
    vecgames play dayaoguai --num-players 3 --agent shed,weakest
    vecgames play dayaoguai --watch --seed 3 --rule must_beat=true

You see your hand, the cards on the table, how many cards each player holds and the cards
they picked up (everyone saw those). Moves: a card by rank and suit letter ('Jd' for J♦, '10h'
for 10♥; suits h s c d = ♥ ♠ ♣ ♦), or 'p' to pass and pick up the table. The loop, the
options and the players are ``vecgames.play.terminal``'s.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..view import Move, View
from .names import seat_label
from .rules import (
    NUM_CARDS,
    PASS,
    RANK_NAMES,
    card_name,
    field,
    hand_text,
)

SUIT_LETTERS = "hscd"  # the order of rules.SUIT_SYMBOLS: ♥ ♠ ♣ ♦


def _f(s: Any, name: str) -> Any:
    return field(s, name)[0]


def _count(cards: int) -> int:
    return bin(cards).count("1")


def _table_cards(s: Any) -> list[int]:
    return [int(c) for c in s.table_cards[0, :int(_f(s, "table_n"))]]


class DaYaoguaiView(View):
    game = "dayaoguai"
    title = "Da Yaoguai"
    default_agent = "shed"
    example = "p"

    def rules_text(self, env: Any) -> str:
        r = env.rules
        return (f"Da Yaoguai 打妖怪: {r.num_players} players, 28 cards (J Q K 3 8 5 10 in four "
                "suits), 7 each; the 方块J (Jd) opens.\n"
                "In turn, play a card that beats the top card of the table, or pass ('p') and "
                f"pick up every card on the table, paying {r.base} bean(s) per card to each "
                "other player; then lead any card. Beating: a later rank in J < Q < K < 3 < 8 < "
                "5; the master 10 beats 3, 8 and 5, and J, Q, K beat the 10.\n"
                "Whoever runs out of cards first places first; the last one holding cards "
                "loses. Type a card as rank and suit letter ('Jd', '10h'; h s c d = ♥ ♠ ♣ ♦), "
                "'?' for these rules, 'q' to quit.")

    def _label(self, env: Any, p: int) -> str:
        return seat_label(p, env.seat_names)

    def table(self, s: Any, env: Any, seat: int | None) -> str:
        table = " ".join(card_name(c) for c in _table_cards(s)) or "(empty: a lead)"
        lines = [f"Step {int(_f(s, 'steps'))}: {self._label(env, int(_f(s, 'player')))} to "
                 f"act. Table: {table}."]
        for p in range(env.rules.num_players):
            hand = int(_f(s, "hand")[p])
            place = int(_f(s, "place")[p])
            line = (f"  {self._label(env, p)}{' (you)' if p == seat else ''}: "
                    f"{_count(hand)} card(s), beans {int(_f(s, 'beans')[p]):+d}")
            if place:
                line += f", finished #{place}"
            if seat is None or p == seat:
                line += f"; hand {hand_text(hand)}"
            elif int(_f(s, "known")[p]):
                line += f"; picked up and still holds {hand_text(int(_f(s, 'known')[p]))}"
            lines.append(line)
        return "\n".join(lines)

    def moves(self, s: Any, env: Any, mask: np.ndarray) -> list[Move]:
        n = len(_table_cards(s))
        out = [Move(c, f"{RANK_NAMES[c // 4]}{SUIT_LETTERS[c % 4]}", f"play {card_name(c)}",
                    bool(mask[c])) for c in range(NUM_CARDS)]
        out.append(Move(PASS, "p", f"pass and pick up {n} card(s)", bool(mask[PASS])))
        return out

    def narrate(self, before: Any, after: Any, env: Any, action: int, reward: np.ndarray,
                done: bool) -> list[str]:
        p = int(_f(before, "player"))
        who = self._label(env, p)
        if action == PASS:
            cards = " ".join(card_name(c) for c in _table_cards(before))
            return [f"{who} passes and picks up {cards} (beans {float(reward[p]):+g})"]
        lines = [f"{who} plays {card_name(action)}"]
        if not done and int(_f(after, "place")[p]):
            lines.append(f"--- {who} has no cards left: place {int(_f(after, 'place')[p])} ---")
        return lines

    def game_over(self, before: Any, env: Any, action: int, total: np.ndarray,
                  seat: int | None, truncated: bool) -> str:
        n = env.rules.num_players
        why = (f"Cut at the step limit (max_steps {env.rules.max_steps})." if truncated else
               "Game over: one player is left holding cards.")
        return why + "\nBeans this game: " + ", ".join(
            f"{self._label(env, q)}{' (you)' if q == seat else ''} {total[q]:+g}"
            for q in range(n))


VIEW = DaYaoguaiView()
