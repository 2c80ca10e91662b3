"""A person at the terminal as a player (``"human"`` in a seat spec; ``vecgames play``).

``HumanPlayer(game)`` reads the env itself (``act_env``, the player protocol of
``vecgames.policies.protocol``): for each table where its seat acts it prints what that seat
may see and the legal moves with short names, and reads a move through ``input_fn``,
asking again on anything unknown or illegal without touching the game. 'q' or the end of
input raises :class:`Quit`, which ``vecgames play`` turns into a clean end of the match.

What a game brings is its terminal :class:`View` (its spec's ``view`` part, imported when a
person sits down): the table a seat may see, its moves with short names, and what each move
did; a view may also read other spellings of a move (``View.parse``) and name the rule an
illegal one breaks (``View.explain``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..games.catalog import spec_of, specs
from ..games.view import Move, View, menu, row_state  # noqa: F401  (the prompt's types)

QUIT_WORDS = ("q", "quit", "exit")
HELP_WORDS = ("?", "help", "rules")
PROMPT = "Your move: "



class HumanPlayer:
    """A person typing moves for one seat of ``game``; one table at a time (``rows`` are
    asked in order)."""

    def __init__(self, game: str, input_fn: Callable[[str], str] = input,
                 print_fn: Callable[[str], Any] = print, name: str = "human"):
        playable = [name for name, spec in specs().items() if spec.has("view")]
        if not isinstance(game, str) or game not in playable:
            raise ValueError(f"a human plays one of {', '.join(playable)}, got game {game!r}")
        for what, fn in (("input_fn", input_fn), ("print_fn", print_fn)):
            if not callable(fn):
                raise TypeError(f"{what} must be a function, got {type(fn).__name__}")
        self.game, self.name = game, str(name)
        self.input_fn, self.print_fn = input_fn, print_fn
        self.view = spec_of(game).load("view")

    def act_env(self, env: Any, rows: np.ndarray) -> np.ndarray:
        rows = np.asarray(rows, np.int64).reshape(-1)
        return np.array([ask(self.view, env, int(i), self.input_fn, self.print_fn)
                         for i in rows], np.int64)

    def __call__(self, obs: np.ndarray, action_mask: np.ndarray) -> Any:
        raise TypeError("HumanPlayer reads the table from the env: the runner calls "
                        "act_env(env, rows)")


# ---------------------------------------------------------------- the prompt


class Quit(Exception):
    """The person left: typed 'q' or the input ended."""


def _key(text: str) -> str:
    return "".join(text.lower().split())


def read_move(text: str, moves: Sequence[Move]) -> Move | str:
    """The move ``text`` names (its short name or its text, case and spaces ignored), or why
    none: unknown, or not legal now."""
    key = _key(text)
    found = [m for m in moves if key in (_key(m.short), _key(m.text))]
    legal = [m for m in found if m.legal]
    if legal:
        return legal[0]
    if found:
        return f"{found[0].short} ({found[0].text}) is not allowed now"
    return f"unknown move {text.strip()!r}"


def ask(view: View, env: Any, i: int, input_fn: Callable[[str], str],
        print_fn: Callable[[str], Any]) -> int:
    """Show env i from its acting seat's side, list the legal moves and read one; re-asks on
    anything else without touching the game. Raises :class:`Quit` on 'q' or end of input."""
    s = row_state(env.state, i)
    mask = env.action_mask[i]
    moves = view.moves(s, env, mask)
    legal = [m for m in moves if m.legal]
    if len(legal) == 1:  # nothing to decide: not worth a prompt
        print_fn(f"Your only move: {legal[0].short} ({legal[0].text}).")
        return legal[0].action
    print_fn(view.table(s, env, int(env.current_player[i])))
    listed = view.menu(moves, s, env, mask)
    print_fn(listed)
    while True:
        try:
            text = input_fn(PROMPT)
        except EOFError:
            print_fn("")
            print_fn("End of input: quitting.")
            raise Quit from None
        words = text.strip().lower()
        if words in QUIT_WORDS:
            print_fn("Quitting.")
            raise Quit
        if words in HELP_WORDS:
            print_fn(view.rules_text(env))
            print_fn(listed)
            continue
        if not words:
            print_fn(f"  Type a move from the list (e.g. '{view.example}'), '?' for the "
                     "rules or 'q' to quit.")
            continue
        move = read_move(text, moves)
        if not isinstance(move, str):
            return move.action
        action = view.parse(text, s, env)  # a spelling the move list lacks
        if action is not None and 0 <= action < len(mask) and mask[action]:
            return action
        reason = view.explain(text, s, env, mask)
        print_fn(f"  Not allowed: {reason}." if reason else f"  Not a move: {move}.")
        print_fn("  " + listed)
