"""Built-in Numba players (``vecgames.players(game)``) as Player objects.

A table of built-in players only runs inside the game's ``simulate`` kernels. At a table with
other kinds of players, ``act_env`` plays the same njit ``policy_action`` over the env's state
in a ``prange`` kernel, drawing from each env's own random stream as the kernel does.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..games.catalog import spec_of
from .catalog import players

# What a game's players module may declare (``spec.load("players")``):
# - ``KERNEL_ONLY``: players only simulate's kernels can seat (one that picks illegal moves by
#   design, which the kernels put out and an env refuses);
# - ``DEFAULT_THRESHOLD``/``check_threshold``: its players take a ``threshold`` (its kernel
#   reads it before the rows);
# - ``EXACT_AMOUNTS``: its kernel writes (kind, amount) pairs for ``env.step_amounts``.


def takes_threshold(game: str) -> bool:
    """Whether ``game``'s built-in players take a ``threshold``."""
    return hasattr(spec_of(game).load("players"), "DEFAULT_THRESHOLD")


class BuiltinPlayer:
    """Built-in player ``name`` of ``game`` (``builtin`` = ``name``). The players of a game
    that declares ``DEFAULT_THRESHOLD`` take a ``threshold`` (Liar's Dice: the heuristic's
    challenge threshold; None: the default)."""

    def __init__(self, game: str, name: str, threshold: float | None = None):
        names = players(game)  # refuses an unknown game, listing the games
        if not isinstance(name, str) or name not in names:
            raise ValueError(f"unknown built-in player {name!r} for {game}; the built-in "
                             f"players are {tuple(names)}")
        self._module = spec_of(game).load("players")
        if threshold is not None:
            if not takes_threshold(game):
                raise ValueError(f"threshold: {game}'s players take none (a threshold is an "
                                 f"option of the games whose players declare one)")
            threshold = self._module.check_threshold(threshold)
        self.game = game
        self.builtin = self.name = name
        self.code = list(names).index(name)
        self.threshold = threshold

    @property
    def kernel_only(self) -> bool:
        """Whether only ``simulate``'s kernels can seat this player (its game's
        ``KERNEL_ONLY``)."""
        return self.builtin in getattr(self._module, "KERNEL_ONLY", ())

    def act_env(self, env: Any, rows: np.ndarray) -> np.ndarray:
        """Actions of the players to act in envs ``rows`` (int64 ``[n]``; Hold'em: int64
        ``[n, 2]`` of (kind, raise-to amount), for ``env.step_amounts``)."""
        rows = np.ascontiguousarray(rows, dtype=np.int64)
        kernel = self._module.rows_actions_kernel
        if getattr(self._module, "EXACT_AMOUNTS", False):
            pairs = np.empty((rows.shape[0], 2), np.int64)
            kernel(env.state, env.rules, self.code, rows, pairs)
            return pairs
        out = np.empty(rows.shape[0], np.int64)
        default = getattr(self._module, "DEFAULT_THRESHOLD", None)
        if default is not None:
            threshold = default if self.threshold is None else self.threshold
            kernel(env.state, env.rules, self.code, threshold, rows, out)
        else:
            kernel(env.state, env.rules, self.code, rows, out)
        return out

    def __call__(self, obs: np.ndarray, action_mask: np.ndarray) -> Any:
        raise TypeError(f"the built-in player {self.name!r} reads the env's state: call "
                        f"act_env(env, rows), not the observation interface")

    def __eq__(self, other: object) -> bool:  # the same built-in plays the same way
        return isinstance(other, BuiltinPlayer) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> tuple[str, str, float | None]:
        return self.game, self.builtin, self.threshold

    def __repr__(self) -> str:
        return f"BuiltinPlayer({self.game!r}, {self.name!r})"
