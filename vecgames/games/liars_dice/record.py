"""``simulate``'s per-round frame from Liar's Dice matches played through the env (see
``vecgames.core.recording``). A challenge leaves its round's fields in the table (they stay
through the next round and match), so only the round's opener and number are snapshotted."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ...core.recording import GameRecorder, Snapshot
from .bids import B_COUNT, B_FACE, B_MODE
from .players import DEFAULT_THRESHOLD
from .rules import ACTUAL, CHALLENGED, CHALLENGER, FIRST, LOSER, ROUND, ROUND_BIDS
from .simulate import (
    C_ACTUAL,
    C_BIDS,
    C_CHALLENGER,
    C_COUNT,
    C_END,
    C_FACE,
    C_LOSER,
    C_MODE,
    C_OPENER,
    END_CHALLENGE,
    END_TRUNCATED,
    END_UNPLAYED,
    NUM_COLS,
    frame,
)


class Recorder(GameRecorder):
    """One row per round (``num_rounds`` per match), as ``vecgames.simulate("liars_dice",
    ...)``; the ``threshold`` attr is the heuristic's default unless ``frame`` is given one."""

    game = "liars_dice"
    simulate_frame = staticmethod(frame)

    def outputs(self) -> dict[str, np.ndarray]:
        cols = np.full((self.num_games * self.rules.num_rounds, NUM_COLS), -1, np.int32)
        cols[:, C_END] = END_UNPLAYED
        return {"cols": cols}

    def params(self) -> dict[str, Any]:
        return {**super().params(), "threshold": DEFAULT_THRESHOLD}

    def snapshot(self, env: Any, rows: np.ndarray) -> Snapshot:
        t = env.state.table
        return {"opener": t[rows, FIRST], "round": t[rows, ROUND]}

    def moved(self, env: Any, rows: np.ndarray, games: np.ndarray, actions: np.ndarray,
              snap: Snapshot, info: Mapping[str, Any]) -> None:
        over = np.flatnonzero(info["round_over"][rows])
        if over.size == 0:
            return
        t = env.state.table[rows[over]]
        bid = self.rules.bids[t[:, CHALLENGED]]
        at = games[over] * self.rules.num_rounds + snap["round"][over]
        cols = self.out["cols"]
        cols[at, C_OPENER] = snap["opener"][over]
        cols[at, C_BIDS] = t[:, ROUND_BIDS]
        cols[at, C_CHALLENGER] = t[:, CHALLENGER]
        cols[at, C_MODE] = bid[:, B_MODE]
        cols[at, C_COUNT] = bid[:, B_COUNT]
        cols[at, C_FACE] = bid[:, B_FACE]
        cols[at, C_ACTUAL] = t[:, ACTUAL]
        cols[at, C_LOSER] = t[:, LOSER]
        cols[at, C_END] = END_CHALLENGE

    def ended(self, env: Any, rows: np.ndarray, games: np.ndarray, cut: np.ndarray,
              snap: Snapshot, info: Mapping[str, Any]) -> None:
        """A match cut by ``max_round_steps`` marks its round (the later ones stay unplayed)."""
        at = games[cut] * self.rules.num_rounds + snap["round"][cut]
        self.out["cols"][at, C_END] = END_TRUNCATED
