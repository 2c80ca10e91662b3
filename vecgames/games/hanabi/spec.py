"""Hanabi as every layer sees it (``vecgames.games.spec``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..spec import GameSpec, team_score


def _duplicate_deals(rules: Mapping[str, Any]) -> str | None:
    return ("Hanabi draws its deck lazily from the stream its players also draw from, so a "
            "deal depends on who plays")


SPEC = GameSpec(
    name="hanabi", title="Hanabi", gym_name="Hanabi",
    payoffs=team_score("score"), payoff_unit="score", cooperative=True,
    duplicate_deals=_duplicate_deals, network="actor_critic",
    observation=("obs", "vecgames.games.hanabi.observe:ENCODERS"),
    parts={
        "env": "vecgames.games.hanabi:HanabiEnv",
        "rules": "vecgames.games.hanabi.rules",
        "guide": "vecgames.games.hanabi.guide",
        "players": "vecgames.games.hanabi.players",
        "simulate": "vecgames.games.hanabi.simulate",
        "record": "vecgames.games.hanabi.record",
        "view": "vecgames.games.hanabi.view:VIEW",
        "table_view": "vecgames.games.hanabi.table_view",
        "summary": "vecgames.games.hanabi.report:print_summary",
        "report": "vecgames.games.hanabi.report",
        "trainer": "vecgames.games.hanabi.train",
        "checkpoint": "vecgames.games.hanabi.players_checkpoint",
    },
)
