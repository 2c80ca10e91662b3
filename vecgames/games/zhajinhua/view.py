"""Play Zha Jin Hua 扎金花 in the terminal: ``vecgames play zhajinhua``.

    vecgames play zhajinhua                        # you (seat 0) against 5 heuristic players
    vecgames play zhajinhua --num-players 3 --agent heuristic,random
    vecgames play zhajinhua --watch --num-players 4 --seed 3 --delay 1

You see your cards only after you look ('l'); a seat that compared with you has seen yours,
and you theirs. Moves: 'go' (act without looking), 'l' look, 'f' fold, 'b1'..'b32' bet that
many units (a seen player pays double), 'c2' compare with seat 2. The loop, the options and the
players are ``vecgames.play.terminal``'s.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.cards import format_cards
from ...poker.three_card import CATEGORY_NAMES
from ..view import Move, View
from .rules import (
    BET0,
    BET_UNITS,
    COMPARE0,
    FOLD,
    LOOK,
    LOOK_PHASE,
    NOOP,
    field,
)
from .table_view import compare_loser


def _f(s: Any, name: str) -> Any:
    return field(s, name)[0]


def _cards(s: Any, p: int) -> str:
    return format_cards(s.deck[0, 3 * p:3 * p + 3])


def _category(s: Any, p: int) -> str:
    return CATEGORY_NAMES[int(_f(s, "strength")[p]) >> 12]


def _in(s: Any, p: int) -> bool:
    return bool((int(_f(s, "alive")) >> p) & 1)


def _seen(s: Any, p: int) -> bool:
    return bool((int(_f(s, "seen")) >> p) & 1)


class ZhaJinHuaView(View):
    game = "zhajinhua"
    title = "Zha Jin Hua"
    default_agent = "heuristic"
    # two heuristic players alone make minimum bets for every round: mix styles to watch
    watch_agents = ("percentile", "heuristic", "random")
    example = "b2"

    def rules_text(self, env: Any) -> str:
        r = env.rules
        return (f"Zha Jin Hua 扎金花: {r.num_players} players, 3 cards each, ante {r.ante}, at "
                f"most {r.max_rounds} rounds.\n"
                "Each turn: first look at your cards or not ('l' / 'go'), then fold ('f'), bet "
                "('b1'..'b32': units, at least the current minimum; a player who looked pays "
                "double), or compare with a seat still in ('c2': pay twice the minimum, the "
                "weaker hand is out, a tie puts you out) from round "
                f"{r.no_compare_rounds + 1} on.\n"
                "The last seat in takes the pot; after the last round the best hand still in "
                "does. Hands: three of a kind > straight flush > flush > straight > pair > "
                "high card. Type '?' for these rules, 'q' to quit.")

    def table(self, s: Any, env: Any, seat: int | None) -> str:
        phase = "look" if _f(s, "phase") == LOOK_PHASE else "bet"
        units = int(_f(s, "min_bet"))
        lines = [f"Round {int(_f(s, 'round')) + 1}/{env.rules.max_rounds}, pot "
                 f"{int(_f(s, 'pot'))}, minimum bet {units} unit(s) (blind pays {units}, "
                 f"seen pays {2 * units}); seat {int(_f(s, 'player'))} to act ({phase})."]
        known = int(_f(s, "known")[seat]) if seat is not None else 0
        for p in range(env.rules.num_players):
            last = int(_f(s, "last_action")[p])
            state = f"{'in' if _in(s, p) else 'out'}, {'seen' if _seen(s, p) else 'blind'}"
            line = (f"  seat {p}{' (you)' if p == seat else ''}: {state}, paid "
                    f"{int(_f(s, 'paid')[p])}, last {env.action_names[last] if last >= 0 else '-'}")
            if seat is None or (p == seat and _seen(s, p)):
                line += f"; cards {_cards(s, p)} ({_category(s, p)})"
            elif p == seat:
                line += "; cards face down (look to see them)"
            elif (known >> p) & 1:
                line += f"; cards {_cards(s, p)} ({_category(s, p)}, seen by comparing)"
            lines.append(line)
        return "\n".join(lines)

    def moves(self, s: Any, env: Any, mask: np.ndarray) -> list[Move]:
        p = int(_f(s, "player"))
        pays = 2 if _seen(s, p) else 1
        least = int(_f(s, "min_bet"))  # the bet at the minimum is the call, a larger one raises
        compare = 2 * least
        out = [Move(NOOP, "go", "act without looking" if not _seen(s, p) else "go on",
                    bool(mask[NOOP])),
               Move(LOOK, "l", "look at your cards", bool(mask[LOOK])),
               Move(FOLD, "f", "fold", bool(mask[FOLD]))]
        out += [Move(COMPARE0 + j, f"c{j}", f"compare with seat {j} (pay {compare})",
                     bool(mask[COMPARE0 + j])) for j in range(env.rules.num_players)]
        out += [Move(BET0 + k, f"b{u}", f"{'call' if u == least else 'raise'}: bet {u} "
                     f"(pay {u * pays})", bool(mask[BET0 + k])) for k, u in enumerate(BET_UNITS)]
        return out

    def narrate(self, before: Any, after: Any, env: Any, action: int, reward: np.ndarray,
                done: bool) -> list[str]:
        p = int(_f(before, "player"))
        who = f"seat {p}"
        if action == NOOP:
            return [] if _seen(before, p) else [f"{who} plays on blind"]
        if action == LOOK:
            return [f"{who} looks at their cards"]
        if action == FOLD:
            return [f"{who} folds"]
        if action >= BET0:
            units = BET_UNITS[action - BET0]
            return [f"{who} bets {units} (pays {units * (2 if _seen(before, p) else 1)})"]
        j = action - COMPARE0
        loser = compare_loser(before, env, p, j)
        return [f"{who} compares with seat {j} (pays {2 * int(_f(before, 'min_bet'))}): "
                f"seat {loser} has the weaker hand and is out"]

    def game_over(self, before: Any, env: Any, action: int, total: np.ndarray,
                  seat: int | None, truncated: bool) -> str:
        n = env.rules.num_players
        p = int(_f(before, "player"))
        alive = [q for q in range(n) if _in(before, q)]
        if action == FOLD:
            alive.remove(p)
        elif COMPARE0 <= action < BET0:
            alive.remove(compare_loser(before, env, p, action - COMPARE0))
        lines = []
        if len(alive) > 1:  # the rounds ran out: the seats still in show their cards
            lines.append("Showdown after the last round:")
            lines += [f"  seat {q}: {_cards(before, q)} ({_category(before, q)})" for q in alive]
        winners = [q for q in range(n) if total[q] > 0]
        lines.append(f"The pot goes to {' and '.join(f'seat {q}' for q in winners)}.")
        if seat is not None:
            lines.append(f"Your cards: {_cards(before, seat)} ({_category(before, seat)}).")
        lines.append("Chips this game: " + ", ".join(
            f"seat {q}{' (you)' if q == seat else ''} {total[q]:+g}" for q in range(n)))
        return "\n".join(lines)


VIEW = ZhaJinHuaView()
