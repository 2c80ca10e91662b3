"""Play no-limit Hold'em in the terminal: ``vecgames play holdem``.

    vecgames play holdem                           # you and five strength players (6 seats)
    vecgames play holdem --num-players 2               # heads-up against the strength player
    vecgames play holdem --num-players 6 --games 10 --agent strength,call,raise,random,check
    vecgames play holdem --watch --seed 3 --rule stack=200

You see your hole cards and the board as it is dealt. Moves: 'f' fold, 'c' check or call,
'h'/'p'/'2p' raise half/one/two pots (the env's ``raise_fractions``), 'm' the minimum raise,
'a' all-in. Every hand starts from the starting stacks. The loop, the options and the players
are ``vecgames.play.terminal``'s.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.cards import format_cards
from ...poker.describe import describe
from ...poker.seven_card import evaluate
from ..view import Move, View
from .observe import exact_action as _exact
from .rules import STREET_NAMES, field, raise_bounds

SHORT_FRACTIONS = {0.5: "h", 1.0: "p", 2.0: "2p"}


def _f(s: Any, name: str) -> Any:
    return field(s, name)[0]


def _hole(s: Any, p: int) -> np.ndarray:
    return s.deck[0, 2 * p:2 * p + 2]


def _board(s: Any, n: int, street: int) -> np.ndarray:
    return s.deck[0, 2 * n:2 * n + (0 if street == 0 else min(street + 2, 5))]


def _hand(s: Any, n: int, p: int) -> str:
    """Seat p's hole cards and what they make with the whole board (a showdown)."""
    cards = np.concatenate([_hole(s, p), s.deck[0, 2 * n:2 * n + 5]])
    return f"{format_cards(_hole(s, p))} ({describe(int(evaluate(cards[None])[0]))})"


POT_NAMES = {0.5: "½ pot", 1.0: "pot"}


def _raise_size(env: Any, action: int) -> tuple[str, str]:
    """A raise action's key to type and the name of its size: the minimum raise, a pot
    fraction, or all-in."""
    k = action - 2
    if k < len(env.fractions):
        f = float(env.fractions[k])
        return SHORT_FRACTIONS.get(f, f"{f:g}p"), POT_NAMES.get(f, f"{f:g}× pot")
    return ("m", "min raise") if k == len(env.fractions) else ("a", "all-in")


class HoldemView(View):
    game = "holdem"
    title = "Hold'em"
    default_agent = "strength"
    example = "c"

    def rules_text(self, env: Any) -> str:
        r = env.rules
        return (f"No-limit Texas Hold'em: {r.num_players} players, blinds {r.small_blind}/"
                f"{r.big_blind}, every hand from stacks of {', '.join(map(str, env.stacks))}.\n"
                "Two hole cards each; five board cards come in three streets (flop 3, turn 1, "
                "river 1), with a betting round before each and after the last. Fold ('f'), "
                "check or call ('c'), or raise: 'h', 'p', '2p' raise by half, one or two pots, "
                "'m' the minimum raise, 'a' all-in.\n"
                "The best five-card hand of the players still in at the end wins the pot. "
                "Type '?' for these rules, 'q' to quit.")

    def table(self, s: Any, env: Any, seat: int | None) -> str:
        n = env.rules.num_players
        street = int(_f(s, "street"))
        to_call, _, _ = raise_bounds(s, 0, env.rules)
        player = int(_f(s, "player"))
        lines = [f"{STREET_NAMES[street].capitalize()}, board "
                 f"{format_cards(_board(s, n, street)) or '-'}, pot "
                 f"{int(_f(s, 'paid')[:n].sum())}; seat {player} to act, to call {to_call}."]
        for p in range(n):
            status = ("folded" if (int(_f(s, "folded")) >> p) & 1 else
                      "all-in" if (int(_f(s, "all_in")) >> p) & 1 else "in")
            button = " (button)" if p == int(_f(s, "button")) else ""
            line = (f"  seat {p}{' (you)' if p == seat else ''}{button}: stack "
                    f"{int(_f(s, 'stack')[p])}, bet {int(_f(s, 'bet')[p])}, {status}")
            if seat is None or p == seat:
                line += f"; cards {format_cards(_hole(s, p))}"
            lines.append(line)
        return "\n".join(lines)

    def moves(self, s: Any, env: Any, mask: np.ndarray) -> list[Move]:
        to_call, _, high = raise_bounds(s, 0, env.rules)
        verb = "bet" if int(_f(s, "cur_bet")) == 0 else "raise to"
        out = [Move(0, "f", "fold", bool(mask[0])),
               Move(1, "c", f"call {to_call}" if to_call else "check", bool(mask[1]))]
        k = len(env.fractions)  # the minimum raise first, then the pot fractions, all-in last
        for a in (2 + k, *range(2, 2 + k), 3 + k):
            amount = _exact(s, env, a)[1] if mask[a] else 0
            short, size = _raise_size(env, a)
            size = "all-in" if amount == high else size
            out.append(Move(a, short, f"{verb} {amount} ({size})", bool(mask[a])))
        return out

    def narrate(self, before: Any, after: Any, env: Any, action: Any, reward: np.ndarray,
                done: bool) -> list[str]:
        n = env.rules.num_players
        p = int(_f(before, "player"))
        to_call, _, high = raise_bounds(before, 0, env.rules)
        kind, amount = _exact(before, env, action)
        if kind == 0:
            lines = [f"seat {p} folds"]
        elif kind == 1:
            lines = [f"seat {p} calls {to_call}" if to_call else f"seat {p} checks"]
        else:
            verb = "bets" if int(_f(before, "cur_bet")) == 0 else "raises to"
            lines = [f"seat {p} {verb} {amount}" + (" (all-in)" if amount == high else "")]
        street = int(_f(after, "street"))
        if not done and street > int(_f(before, "street")):
            lines.append(f"--- {STREET_NAMES[street]}: board "
                         f"{format_cards(_board(after, n, street))} ---")
        return lines

    def game_over(self, before: Any, env: Any, action: Any, total: np.ndarray,
                  seat: int | None, truncated: bool) -> str:
        n = env.rules.num_players
        fold = _exact(before, env, action)[0] == 0
        folded = int(_f(before, "folded")) | ((1 << int(_f(before, "player"))) if fold else 0)
        left = [p for p in range(n) if not (folded >> p) & 1]
        if len(left) > 1:
            lines = [f"Showdown, board {format_cards(before.deck[0, 2 * n:2 * n + 5])}:"]
            lines += [f"  seat {p}{' (you)' if p == seat else ''}: {_hand(before, n, p)}"
                      for p in left]
        else:
            lines = [f"Everyone else folded: seat {left[0]} takes the pot."]
        lines.append("Chips this hand: " + ", ".join(
            f"seat {q}{' (you)' if q == seat else ''} {total[q]:+g}" for q in range(n)))
        return "\n".join(lines)


VIEW = HoldemView()
