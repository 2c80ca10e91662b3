"""``simulate``'s per-hand frame from Hold'em hands played through the env (see
``vecgames.core.recording``): the finished hand's table row gives every column."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ...core.recording import GameRecorder, Snapshot
from ...poker.seven_card import CATEGORY_START
from .rules import BUTTON, END_STREET, PAID, PAYOUT, PFR, SHOWDOWN, STRENGTH, VPIP
from .simulate import frame


class Recorder(GameRecorder):
    """One row per hand, as ``vecgames.simulate("holdem", ...)``."""

    game = "holdem"
    policy_attr = "policies"
    simulate_frame = staticmethod(frame)

    def __init__(self, env: Any, num_games: int, record_actions: bool = False, *,
                 first_game: int = 0, seed: int = 0):
        super().__init__(env, num_games, record_actions, first_game=first_game, seed=seed)
        self.stacks: list[int] = list(env.stacks)  # the rules attr of the frame names them

    def outputs(self) -> dict[str, np.ndarray]:
        g, n = self.num_games, self.num_players
        return {"chips": np.zeros((g, n), np.int32), "button": np.zeros(g, np.int8),
                "end_street": np.zeros(g, np.int8), "showdown": np.zeros(g, np.bool_),
                "pot": np.zeros(g, np.int32), "vpip": np.zeros(g, np.int16),
                "pfr": np.zeros(g, np.int16), "category": np.zeros((g, n), np.int8)}

    def params(self) -> dict[str, Any]:
        return {**super().params(), "stacks": self.stacks, "names": []}

    def ended(self, env: Any, rows: np.ndarray, games: np.ndarray, cut: np.ndarray,
              snap: Snapshot, info: Mapping[str, Any]) -> None:
        n, out = self.num_players, self.out
        t = env.final_table[rows]
        paid = t[:, PAID:PAID + n]
        strength = t[:, STRENGTH:STRENGTH + n]
        out["chips"][games] = t[:, PAYOUT:PAYOUT + n] - paid
        out["pot"][games] = paid.sum(axis=1)
        # category_of's table lookup; -1 for the hands not shown (strength 0)
        shown = np.searchsorted(CATEGORY_START, strength, side="right") - 1
        out["category"][games] = np.where(strength > 0, shown, -1)
        out["button"][games] = t[:, BUTTON]
        out["end_street"][games] = t[:, END_STREET]
        out["showdown"][games] = t[:, SHOWDOWN] != 0
        out["vpip"][games] = t[:, VPIP]
        out["pfr"][games] = t[:, PFR]
