"""A person at the terminal as a player (``"human"`` in a seat spec; ``vecgames play``).

``HumanPlayer(game)`` reads the env itself (``act_env``, the player protocol of
``vecgames.policies.protocol``): for each table where its seat acts it prints what that seat
may see and the legal moves with short names, and reads a move through ``input_fn``,
asking again on anything unknown or illegal without touching the game. 'q' or the end of
input raises ``vecgames.play.terminal.Quit``, which ``vecgames play`` turns into a clean
end of the match.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import numpy as np

# game -> the module of its terminal view (``VIEW``), imported when a person sits down
VIEWS: dict[str, str] = {"zhajinhua": "vecgames.play.zhajinhua",
                         "holdem": "vecgames.play.holdem",
                         "liars_dice": "vecgames.play.liars_dice_view",
                         "hanabi": "vecgames.play.hanabi",
                         "dayaoguai": "vecgames.play.dayaoguai"}


class HumanPlayer:
    """A person typing moves for one seat of ``game``; one table at a time (``rows`` are
    asked in order)."""

    def __init__(self, game: str, input_fn: Callable[[str], str] = input,
                 print_fn: Callable[[str], Any] = print, name: str = "human"):
        if not isinstance(game, str) or game not in VIEWS:
            raise ValueError(f"a human plays one of {', '.join(VIEWS)}, got game {game!r}")
        for what, fn in (("input_fn", input_fn), ("print_fn", print_fn)):
            if not callable(fn):
                raise TypeError(f"{what} must be a function, got {type(fn).__name__}")
        self.game, self.name = game, str(name)
        self.input_fn, self.print_fn = input_fn, print_fn
        self.view = importlib.import_module(VIEWS[game]).VIEW

    def act_env(self, env: Any, rows: np.ndarray) -> np.ndarray:
        from ..play.terminal import ask

        rows = np.asarray(rows, np.int64).reshape(-1)
        return np.array([ask(self.view, env, int(i), self.input_fn, self.print_fn)
                         for i in rows], np.int64)

    def __call__(self, obs: np.ndarray, action_mask: np.ndarray) -> Any:
        raise TypeError("HumanPlayer reads the table from the env: the runner calls "
                        "act_env(env, rows)")
