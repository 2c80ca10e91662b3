"""``simulate``'s per-game frame from Hanabi games played through the env (see
``vecgames.core.recording``): the moves are counted by kind as they are made, the rest comes
from the finished game's table row and the env's ``info["score"]``/``info["end"]``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ...core.recording import GameRecorder, Snapshot
from .rules import INFO, LIFE, SCORE, TURN
from .simulate import (
    C_DISCARDS,
    C_END,
    C_FIREWORKS,
    C_HINTS,
    C_INFO,
    C_LIFE,
    C_PLAYS,
    C_SCORE,
    C_TURNS,
    NUM_COLS,
    frame,
)


class Recorder(GameRecorder):
    """One row per game, as ``vecgames.simulate("hanabi", ...)``."""

    game = "hanabi"
    num_cols = NUM_COLS
    simulate_frame = staticmethod(frame)

    def moved(self, env: Any, rows: np.ndarray, games: np.ndarray, actions: np.ndarray,
              snap: Snapshot, info: Mapping[str, Any]) -> None:
        h = self.rules.hand_size  # discards 0..h-1, plays h..2h-1, then hints
        cols = self.out["cols"]
        cols[games, C_DISCARDS] += actions < h  # one game per env: no repeated index
        cols[games, C_PLAYS] += (actions >= h) & (actions < 2 * h)
        cols[games, C_HINTS] += actions >= 2 * h

    def ended(self, env: Any, rows: np.ndarray, games: np.ndarray, cut: np.ndarray,
              snap: Snapshot, info: Mapping[str, Any]) -> None:
        t = env.final_table[rows]
        cols = self.out["cols"]
        cols[games, C_SCORE] = info["score"][rows]
        cols[games, C_FIREWORKS] = t[:, SCORE]
        cols[games, C_TURNS] = t[:, TURN]
        cols[games, C_END] = info["end"][rows]
        cols[games, C_LIFE] = t[:, LIFE]
        cols[games, C_INFO] = t[:, INFO]
