"""Liar's Dice as every layer sees it (``vecgames.games.spec``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from ..spec import GameSpec


def _points(df: pd.DataFrame, n: int, rules: Mapping[str, Any]) -> np.ndarray:
    """The zero-sum result of each round summed over the match: the loser of a round -1,
    every other seat +1/(P-1), a truncated round nothing (per-round rows, ``num_rounds`` per
    match, in match order). Heads-up with one round per match, a mean of m points is a win
    rate of (1 + m) / 2."""
    rounds = int(rules["num_rounds"])
    loser = df["loser"].to_numpy(np.int64).reshape(-1, rounds)
    lost = loser[:, :, None] == np.arange(n)  # [match, round, seat]
    played = (loser >= 0)[:, :, None]
    points = np.where(lost, -1.0, np.where(played, 1.0 / (n - 1), 0.0))
    return points.sum(axis=1)


def _duplicate_deals(rules: Mapping[str, Any]) -> str | None:
    if int(rules["num_rounds"]) > 1:
        return ("Liar's Dice rolls the dice of rounds after the first from the stream its "
                "players also draw from: duplicate deals need num_rounds=1")
    return None


SPEC = GameSpec(
    name="liars_dice", title="Liar's Dice", gym_name="LiarsDice",
    payoffs=_points, payoff_unit="points", unit="matches", aliases=("liars-dice",),
    duplicate_deals=_duplicate_deals, network="q_net",
    observation=("observation", "vecgames.games.liars_dice.observe:OBSERVATIONS"),
    web_limits={"num_rounds": 100, "max_round_steps": 1000},
    parts={
        "env": "vecgames.games.liars_dice:LiarsDiceEnv",
        "rules": "vecgames.games.liars_dice.rules",
        "guide": "vecgames.games.liars_dice.guide",
        "players": "vecgames.games.liars_dice.players",
        "simulate": "vecgames.games.liars_dice.simulate",
        "record": "vecgames.games.liars_dice.record",
        "view": "vecgames.games.liars_dice.view:VIEW",
        "table_view": "vecgames.games.liars_dice.table_view",
        "summary": "vecgames.games.liars_dice.report:print_summary",
        "report": "vecgames.games.liars_dice.report",
        "trainer": "vecgames.games.liars_dice.train",
        "best_response": "vecgames.games.liars_dice.train:best_response_args",
        "tree": "vecgames.games.liars_dice.tree:build_tree",
        "action_heads": "vecgames.games.liars_dice.bids:head_layout",
        "checkpoint": "vecgames.games.liars_dice.players_checkpoint",
        "strategy": "vecgames.games.liars_dice.solver_strategy:load_strategy_player",
        "judge": "vecgames.games.liars_dice.solver_judge:exploitability",
    },
)
