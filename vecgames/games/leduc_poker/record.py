"""``simulate``'s per-game frame from Leduc Hold'em games played through the env (see
``vecgames.core.recording``): the finished game's table row (``env.final_table``) gives every
column."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ...core.recording import GameRecorder, Snapshot
from .rules import CARD, FOLDED, GAME, MAX_PLAYERS, PUBLIC, RESULT, ROUND, STEPS, WINNER
from .simulate import (
    C_PUBLIC,
    C_ROUNDS,
    C_SEAT,
    C_SHOWDOWN,
    C_STEPS,
    C_WINNER,
    NUM_COLS,
    frame,
)


class Recorder(GameRecorder):
    """One row per game, as this game's ``simulate``."""

    game = GAME
    num_cols = NUM_COLS
    simulate_frame = staticmethod(frame)

    def ended(self, env: Any, rows: np.ndarray, games: np.ndarray, cut: np.ndarray,
              snap: Snapshot, info: Mapping[str, Any]) -> None:
        n = self.num_players
        t = env.final_table[rows]
        cols = self.out["cols"]
        cols[games, C_STEPS] = t[:, STEPS]
        cols[games, C_ROUNDS] = t[:, ROUND] + 1
        cols[games, C_SHOWDOWN] = t[:, FOLDED] < 0
        cols[games, C_WINNER] = t[:, WINNER]
        cols[games, C_PUBLIC] = t[:, PUBLIC]
        seat = C_SEAT + np.arange(n)
        cols[games[:, None], seat] = t[:, RESULT:RESULT + n]
        cols[games[:, None], seat + MAX_PLAYERS] = t[:, CARD:CARD + n]
