"""What a person sees of a game: the terminal view every game brings (its spec's ``view``
part), used by the terminal (``vecgames play``), the web app and the human player.

A view reads a one-env state (:func:`row_state`) and the env (its rules and mask); it names
the moves a seat may type (:class:`Move`), says what a seat may see, and narrates what every
seat saw happen.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np


class Move(NamedTuple):
    """One action of the seat to act: its id, what to type, what it does, whether it is
    legal now."""

    action: int
    short: str
    text: str
    legal: bool


def row_state(state: Any, i: int) -> Any:
    """A copy of env i's state as a batch of one (the same NamedTuple of arrays): a view
    renders from it, and it outlives the same-step auto-reset that deals the next game."""
    return type(state)(*(np.array(a[i:i + 1]) for a in state))


class View:
    """A game's terminal face. ``s`` below is a one-env state (:func:`row_state`), ``env``
    the live env (its rules and mask); ``seat`` None means a spectator, who sees everything."""

    game: str = ""  # the registry name
    title: str = ""
    default_agent: str = ""  # the built-in player the computer seats get by default
    # --watch without --agent: these players in turn over the seats (empty: default_agent)
    watch_agents: tuple[str, ...] = ()
    example: str = ""  # a typed move, for the help line

    def rules_text(self, env: Any) -> str:  # pragma: no cover - every game has its own
        raise NotImplementedError

    def table(self, s: Any, env: Any, seat: int | None) -> str:  # pragma: no cover
        """What ``seat`` may see now (everything for a spectator)."""
        raise NotImplementedError

    def moves(self, s: Any, env: Any, mask: np.ndarray) -> list[Move]:  # pragma: no cover
        """Every action of the seat to act, with short names; ``legal`` from ``mask``."""
        raise NotImplementedError

    def narrate(self, before: Any, after: Any, env: Any, action: Any, reward: np.ndarray,
                done: bool) -> list[str]:  # pragma: no cover
        """What everyone saw happen: ``before`` the state the move was made in, ``after`` the
        state it left (the next game's when ``done``); ``action`` an action id, or a Hold'em
        built-in's exact (kind, raise-to) pair."""
        raise NotImplementedError

    def game_over(self, before: Any, env: Any, action: Any, total: np.ndarray,
                  seat: int | None, truncated: bool) -> str:  # pragma: no cover
        """The end of a game: what is shown, and everyone's result (``total``: the game's
        summed rewards per seat)."""
        raise NotImplementedError

    def menu(self, moves: list[Move], s: Any, env: Any, mask: np.ndarray) -> str:
        """The legal moves as shown at the prompt."""
        return menu(moves)

    def parse(self, text: str, s: Any, env: Any) -> int | None:
        """The action typed ``text`` names in a spelling that no :class:`Move` has (legal now
        or not), or None: the moves' short names and texts are read without this."""
        return None

    def explain(self, text: str, s: Any, env: Any, mask: np.ndarray) -> str | None:
        """Why typed ``text`` is not a legal move now (the rule it breaks), or None for the
        prompt's own answer (an unknown move, or one not allowed now)."""
        return None


def menu(moves: Sequence[Move]) -> str:
    """The legal moves as listed to the person: ``Moves: f fold | c call 2 | ...``."""
    return "Moves: " + " | ".join(f"{m.short} {m.text}" for m in moves if m.legal)
