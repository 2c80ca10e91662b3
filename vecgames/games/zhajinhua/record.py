"""``simulate``'s per-game frame from Zha Jin Hua games played through the env (see
``vecgames.core.recording``): the finished game's table row gives every column;
``record_actions`` counts each move by (round, phase, looked, action), and by (seat, phase,
looked, action), from the state before it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ...core.recording import GameRecorder, Snapshot
from .rules import (
    DECISIONS,
    END,
    FIRST,
    NUM_ACTIONS,
    PAID,
    PAYOUT,
    PHASE,
    PLAYER,
    POT,
    ROUND,
    SEEN,
    STRENGTH,
    WINNERS,
)
from .simulate import frame


class Recorder(GameRecorder):
    """One row per game, as ``vecgames.simulate("zhajinhua", ...)``."""

    game = "zhajinhua"
    records_actions = True
    simulate_frame = staticmethod(frame)

    def outputs(self) -> dict[str, np.ndarray]:
        g, n = self.num_games, self.num_players
        out: dict[str, np.ndarray] = {
            "chips": np.zeros((g, n), np.int32), "pot": np.zeros(g, np.int32),
            "rounds": np.zeros(g, np.int32), "decisions": np.zeros(g, np.int32),
            "end": np.zeros(g, np.int8), "winners": np.zeros(g, np.int32),
            "opener": np.zeros(g, np.int8), "category": np.zeros((g, n), np.int8),
            "looked": np.zeros((g, n), np.int8)}
        if self.record_actions:
            out["action_counts"] = np.zeros((self.rules.max_rounds, 2, 2, NUM_ACTIONS), np.int64)
            out["seat_action_counts"] = np.zeros((n, 2, 2, NUM_ACTIONS), np.int64)
        return out

    def params(self) -> dict[str, Any]:
        return {**super().params(), "record": self.record_actions}

    def snapshot(self, env: Any, rows: np.ndarray) -> Snapshot:
        if not self.record_actions:
            return {}
        t = env.state.table[rows]
        return {"round": np.minimum(t[:, ROUND], self.rules.max_rounds - 1),
                "phase": t[:, PHASE], "seat": t[:, PLAYER],
                "seen": (t[:, SEEN] >> t[:, PLAYER]) & 1}

    def moved(self, env: Any, rows: np.ndarray, games: np.ndarray, actions: np.ndarray,
              snap: Snapshot, info: Mapping[str, Any]) -> None:
        if self.record_actions:
            phase, seen = snap["phase"], snap["seen"]
            np.add.at(self.out["action_counts"], (snap["round"], phase, seen, actions), 1)
            np.add.at(self.out["seat_action_counts"], (snap["seat"], phase, seen, actions), 1)

    def ended(self, env: Any, rows: np.ndarray, games: np.ndarray, cut: np.ndarray,
              snap: Snapshot, info: Mapping[str, Any]) -> None:
        n, out = self.num_players, self.out
        t = env.final_table[rows]
        out["chips"][games] = t[:, PAYOUT:PAYOUT + n] - t[:, PAID:PAID + n]
        out["category"][games] = t[:, STRENGTH:STRENGTH + n] >> 12
        out["looked"][games] = (t[:, SEEN, None] >> np.arange(n)) & 1
        out["pot"][games] = t[:, POT]
        out["rounds"][games] = np.minimum(t[:, ROUND] + 1, self.rules.max_rounds)
        out["decisions"][games] = t[:, DECISIONS]
        out["end"][games] = t[:, END]
        out["winners"][games] = t[:, WINNERS]
        out["opener"][games] = t[:, FIRST]
