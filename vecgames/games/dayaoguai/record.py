"""``simulate``'s per-game frame from Da Yaoguai games played through the env (see
``vecgames.core.recording``): the finished (or truncated) game's table row gives every column."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ...core.recording import GameRecorder, Snapshot
from .rules import BEANS, MAX_PLAYERS, PICKUPS, PLACE, START, STEPS
from .simulate import (
    C_PICKUPS,
    C_SEAT,
    C_STEPS,
    C_TRUNC,
    DISCIPLES,
    MASTER_CARDS,
    MONSTERS,
    NUM_COLS,
    frame,
)


class Recorder(GameRecorder):
    """One row per game, as ``vecgames.simulate("dayaoguai", ...)``."""

    game = "dayaoguai"
    num_cols = NUM_COLS
    simulate_frame = staticmethod(frame)

    def ended(self, env: Any, rows: np.ndarray, games: np.ndarray, cut: np.ndarray,
              snap: Snapshot, info: Mapping[str, Any]) -> None:
        n = self.num_players
        t = env.final_table[rows]
        cols = self.out["cols"]
        cols[games, C_STEPS] = t[:, STEPS]
        cols[games, C_TRUNC] = cut
        cols[games, C_PICKUPS] = t[:, PICKUPS]
        start = t[:, START:START + n]
        seat = C_SEAT + np.arange(n)
        cols[games[:, None], seat] = t[:, BEANS:BEANS + n]
        cols[games[:, None], seat + MAX_PLAYERS] = t[:, PLACE:PLACE + n]
        for k, cards in enumerate((MONSTERS, DISCIPLES, MASTER_CARDS), start=2):
            cols[games[:, None], seat + k * MAX_PLAYERS] = np.bitwise_count(start & cards)
