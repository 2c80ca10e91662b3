"""Liar's Dice for a :class:`~vecgames.policies.human.HumanPlayer` (``"human"`` in a seat of
``vecgames.simulate(players=...)`` or the arena) and for ``terminal.Match``.

``vecgames play liars-dice`` keeps its own loop (``vecgames.play.liars_dice``: rounds, the rule
explanations of a refused bid); this view is the short form every game shares: your dice, the
round's last bid, a bid typed as ``fei 7 4`` / ``zhai 3 1`` or ``c`` to challenge.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..games.liars_dice.bids import action_to_bid, format_bid
from ..games.liars_dice.rules import field, unpack_counts
from ..policies.human import Move, View
from .liars_dice import lowest_legal, rules_text


def _f(s: Any, name: str) -> Any:
    return field(s, name)[0]


def _dice(packed: int) -> str:
    return " ".join(str(f + 1) for f, c in enumerate(unpack_counts(packed)) for _ in range(c))


class LiarsDiceView(View):
    game = "liars_dice"
    title = "Liar's Dice"
    default_agent = "heuristic"
    example = "fei 7 4"

    def rules_text(self, env: Any) -> str:
        r = env.rules
        text = rules_text(r.num_players, r.dice, r.num_rounds, bool(r.forbid_repeat),
                          bool(r.basic), interactive=False)
        return text + " Type '?' for these rules, 'q' to quit."

    def table(self, s: Any, env: Any, seat: int | None) -> str:
        r = env.rules
        last = int(_f(s, "last"))
        opener = (f"last bid {format_bid(self._bid(env, last))} by seat {int(_f(s, 'bidder'))}"
                  if last else f"no bids yet (the first needs a count above {r.num_players})")
        lines = [f"Round {int(_f(s, 'round')) + 1}/{r.num_rounds}, seat "
                 f"{int(_f(s, 'player'))} to act; {opener}."]
        for p in range(r.num_players):
            line = (f"  seat {p}{' (you)' if p == seat else ''}: penalty points "
                    f"{int(_f(s, 'penalty')[p])}")
            if seat is None or p == seat:
                line += f"; dice {_dice(int(_f(s, 'dice')[p]))}"
            lines.append(line)
        return "\n".join(lines)

    @staticmethod
    def _bid(env: Any, action: int) -> Any:
        return action_to_bid(action, env.rules.num_players, env.rules.dice)

    def moves(self, s: Any, env: Any, mask: np.ndarray) -> list[Move]:
        out = [Move(0, "c", "challenge the last bid", bool(mask[0]))]
        for a in range(1, env.num_actions):
            mode, count, face = self._bid(env, a)
            out.append(Move(a, f"{mode} {count} {face}", format_bid((mode, count, face)),
                            bool(mask[a])))
        return out

    def menu(self, moves: list[Move], s: Any, env: Any, mask: np.ndarray) -> str:
        """Too many bids to list: how to type one, and the cheapest of each mode."""
        return (f"Moves: c challenge | fei COUNT FACE | zhai COUNT FACE  "
                f"({lowest_legal(mask, env.rules.num_players, env.rules.dice)})")

    def narrate(self, before: Any, after: Any, env: Any, action: Any, reward: np.ndarray,
                done: bool) -> list[str]:
        p = int(_f(before, "player"))
        if action:
            return [f"seat {p} bids {format_bid(self._bid(env, action))}"]
        bidder = int(_f(before, "bidder"))
        bid = self._bid(env, int(_f(before, "last")))
        lines = [f"seat {p} challenges seat {bidder}'s bid {format_bid(bid)}"]
        revealed = _f(after, "revealed")  # the round just finished, kept into the next
        lines += [f"  seat {q} dice: {_dice(int(revealed[q]))}"
                  for q in range(env.rules.num_players)]
        lines.append(f"  {int(_f(after, 'actual'))} dice count for it: seat "
                     f"{int(_f(after, 'loser'))} loses the round")
        return lines

    def game_over(self, before: Any, env: Any, action: Any, total: np.ndarray,
                  seat: int | None, truncated: bool) -> str:
        rounds = env.rules.num_rounds
        why = ("The round hit the step limit." if truncated else
               f"Game over after {rounds} round{'s' if rounds > 1 else ''}.")
        return why + " Points this game: " + ", ".join(
            f"seat {q}{' (you)' if q == seat else ''} {total[q]:+g}"
            for q in range(env.rules.num_players))


VIEW = LiarsDiceView()
