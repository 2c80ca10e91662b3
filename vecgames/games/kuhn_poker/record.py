"""``simulate``'s per-game frame from Kuhn poker games played through the env (see
``vecgames.core.recording``): the finished game's table row (``env.final_table``) gives every
column, written by the same ``write_row`` as ``simulate``'s kernel."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ...core.recording import GameRecorder, Snapshot
from .rules import GAME
from .simulate import NUM_COLS, frame, write_rows


class Recorder(GameRecorder):
    """One row per game, as this game's ``simulate``."""

    game = GAME
    num_cols = NUM_COLS
    simulate_frame = staticmethod(frame)

    def ended(self, env: Any, rows: np.ndarray, games: np.ndarray, cut: np.ndarray,
              snap: Snapshot, info: Mapping[str, Any]) -> None:
        write_rows(env.final_table, np.ascontiguousarray(rows, np.int64),
                   np.ascontiguousarray(games, np.int64), self.out["cols"])
