"""Play Hanabi in the terminal: ``vecgames play hanabi``.

    vecgames play hanabi                           # you and the rule-based player
    vecgames play hanabi --num-players 4 --agent rules
    vecgames play hanabi --watch --seed 3 --delay 0.5

You see the other players' cards and what they know of them (``R3[R?]``: they know it is red),
never your own: for your own slots only what the hints told you (``[?3]``: a 3 of an unknown
colour). Moves: 'p0' play slot 0, 'd2' discard slot 2, 'h1r' tell the next player (+1) which
of their cards are red, 'h23' tell the player after them (+2) which are 3s. The loop, the
options and the players are ``vecgames.play.terminal``'s.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..view import Move, View
from .env import card_text
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

COLOR_WORDS = ("red", "yellow", "green", "white", "blue")


def _f(s: Any, name: str) -> Any:
    return field(s, name)[0]


def _known(know: int) -> str:
    """What a holder knows of a card: ``[R?]``, ``[?3]``, ``[??]``, ``[R3]``."""
    colors = [COLOR_NAMES[c] for c in range(5) if (know >> c) & 1]
    ranks = [str(v + 1) for v in range(5) if (know >> (5 + v)) & 1]
    return f"[{colors[0] if len(colors) == 1 else '?'}{ranks[0] if len(ranks) == 1 else '?'}]"


def _hint(env: Any, action: int) -> tuple[int, bool, int]:
    """(seat offset 1.., colour hint?, colour or rank 0..4) of a hint action."""
    r = env.rules
    color = action < r.rank_hints
    k, value = divmod(action - (r.color_hints if color else r.rank_hints), 5)
    return k + 1, color, value


def _fits(s: Any, card: int) -> bool:
    return int(_f(s, "fireworks")[card // 5]) == card % 5


def _touched(cards: np.ndarray, color: bool, value: int) -> list[int]:
    return [k for k, c in enumerate(cards) if c >= 0 and (c // 5 if color else c % 5) == value]


class HanabiView(View):
    game = "hanabi"
    title = "Hanabi"
    default_agent = "rules"
    example = "p0"

    def rules_text(self, env: Any) -> str:
        r = env.rules
        return (f"Hanabi: {r.num_players} players, {r.hand_size} cards each, a team game. "
                "Build five fireworks (R Y G W B), each from 1 up to 5, by playing cards in "
                "order.\n"
                "You see everyone's cards but your own. On your turn: play a card ('p0': slot "
                "0; a card that does not fit costs one of 3 lives), discard one ('d0'; gains "
                f"an information token, at most {MAX_INFO}), or spend a token on a hint "
                "('h1r': tell the next player which of their cards are red; 'h23': tell the "
                "player two seats on which are 3s).\n"
                "The score is the fireworks' total (25 at most), 0 if the lives run out. Type "
                "'?' for these rules, 'q' to quit.")

    def table(self, s: Any, env: Any, seat: int | None) -> str:
        r = env.rules
        fire = " ".join(f"{COLOR_NAMES[c]}{int(h)}" for c, h in enumerate(_f(s, "fireworks")))
        lines = [f"Turn {int(_f(s, 'turn')) + 1}, seat {int(_f(s, 'player'))} to act. "
                 f"Fireworks {fire} (score {int(_f(s, 'score'))}); info "
                 f"{int(_f(s, 'info'))}/{MAX_INFO}, lives {int(_f(s, 'life'))}/{MAX_LIFE}, "
                 f"deck {DECK_SIZE - int(_f(s, 'dealt'))}."]
        t = s.table[0]
        if t[LAST_ACTOR] >= 0:
            lines.append(f"  last move: seat {int(t[LAST_ACTOR])} "
                         f"{env.action_name(int(t[LAST_ACTION]))}")
        cards, know = hands(s)[0], knowledge(s)[0]
        for p in range(r.num_players):
            slots = range(r.hand_size)
            if p == seat:  # never the cards: what the hints told
                shown = " ".join(f"{k}:{_known(int(know[p, k]))}" for k in slots
                                 if cards[p, k] >= 0)
                lines.append(f"  seat {p} (you): {shown}")
            else:
                shown = " ".join(f"{k}:{card_text(int(cards[p, k]), int(know[p, k]))}"
                                 for k in slots if cards[p, k] >= 0)
                lines.append(f"  seat {p}: {shown}")
        pile = s.pile[0, :int(_f(s, "piled"))]
        lines.append("  discards: " + (" ".join(card_text(int(c)) for c in sorted(pile))
                                       or "-"))
        return "\n".join(lines)

    def moves(self, s: Any, env: Any, mask: np.ndarray) -> list[Move]:
        r = env.rules
        h, n = r.hand_size, r.num_players
        p = int(_f(s, "player"))
        cards = hands(s)[0]
        out = [Move(k, f"d{k}", f"discard slot {k}", bool(mask[k])) for k in range(h)]
        out += [Move(h + k, f"p{k}", f"play slot {k}", bool(mask[h + k])) for k in range(h)]
        for a in range(2 * h, r.noop):
            k, color, value = _hint(env, a)
            q = (p + k) % n
            what = COLOR_WORDS[value] if color else f"{value + 1}s"
            code = COLOR_NAMES[value].lower() if color else str(value + 1)
            text = f"tell seat {q} {what}"
            if mask[a]:
                text += f" (slots {' '.join(map(str, _touched(cards[q], color, value)))})"
            out.append(Move(a, f"h{k}{code}", text, bool(mask[a])))
        return out

    def narrate(self, before: Any, after: Any, env: Any, action: int, reward: np.ndarray,
                done: bool) -> list[str]:
        r = env.rules
        h, n = r.hand_size, r.num_players
        p = int(_f(before, "player"))
        if action >= 2 * h:
            k, color, value = _hint(env, action)
            q = (p + k) % n
            slots = _touched(hands(before)[0, q], color, value)
            what = COLOR_WORDS[value] if color else f"{value + 1}s"
            return [f"seat {p} tells seat {q}: {what} in slot(s) {' '.join(map(str, slots))}"]
        slot = action % h
        card = int(hands(before)[0, p, slot])
        if action < h:
            return [f"seat {p} discards {card_text(card)} from slot {slot}"]
        return [f"seat {p} plays {card_text(card)} from slot {slot}: "
                + ("it fits" if _fits(before, card) else "it does not fit, a life is lost")]

    def game_over(self, before: Any, env: Any, action: int, total: np.ndarray,
                  seat: int | None, truncated: bool) -> str:
        h = env.rules.hand_size
        score = int(round(float(total[0])))
        card = int(hands(before)[0, int(_f(before, "player")), action % h])
        bombed = h <= action < 2 * h and not _fits(before, card) and int(_f(before, "life")) == 1
        why = ("the lives ran out: the score is 0" if bombed else
               "a perfect game" if score == 25 else "the deck ran out")
        return f"Game over: {why}. Team score {score}/25."


VIEW = HanabiView()
