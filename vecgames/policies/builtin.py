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

# Built-in players that only simulate's kernels can seat: Zha Jin Hua's ``uniform`` picks
# illegal moves by design (the kernels put it out), which an env refuses.
KERNEL_ONLY = frozenset({("zhajinhua", "uniform")})


class BuiltinPlayer:
    """Built-in player ``name`` of ``game`` (``builtin`` = ``name``). Liar's Dice's players
    take the heuristic's challenge ``threshold`` (None: simulate's default, 0.5)."""

    def __init__(self, game: str, name: str, threshold: float | None = None):
        names = players(game)  # refuses an unknown game, listing the games
        if not isinstance(name, str) or name not in names:
            raise ValueError(f"unknown built-in player {name!r} for {game}; the built-in "
                             f"players are {tuple(names)}")
        self._module = spec_of(game).load("players")
        if threshold is not None:
            if game != "liars_dice":
                raise ValueError(f"threshold is a Liar's Dice option; {game}'s players take "
                                 f"none")
            threshold = self._module.check_threshold(threshold)
        self.game = game
        self.builtin = self.name = name
        self.code = list(names).index(name)
        self.threshold = threshold

    @property
    def kernel_only(self) -> bool:
        """Whether only ``simulate``'s kernels can seat this player (see ``KERNEL_ONLY``)."""
        return (self.game, self.builtin) in KERNEL_ONLY

    def act_env(self, env: Any, rows: np.ndarray) -> np.ndarray:
        """Actions of the players to act in envs ``rows`` (int64 ``[n]``; Hold'em: int64
        ``[n, 2]`` of (kind, raise-to amount), for ``env.step_amounts``)."""
        rows = np.ascontiguousarray(rows, dtype=np.int64)
        kernel = self._module.rows_actions_kernel
        if self.game == "holdem":
            pairs = np.empty((rows.shape[0], 2), np.int64)
            kernel(env.state, env.rules, self.code, rows, pairs)
            return pairs
        out = np.empty(rows.shape[0], np.int64)
        if self.game == "liars_dice":
            threshold = self._module.DEFAULT_THRESHOLD if self.threshold is None else self.threshold
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
