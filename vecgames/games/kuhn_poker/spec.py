"""Kuhn poker as every layer sees it (``vecgames.games.spec``)."""

from __future__ import annotations

from ..spec import GameSpec, seat_columns

_PACKAGE = "vecgames.games.kuhn_poker"

SPEC = GameSpec(
    name="kuhn_poker", title="Kuhn poker", gym_name="KuhnPoker",
    payoffs=seat_columns("chips"), payoff_unit="chips",
    parts={
        "env": f"{_PACKAGE}:KuhnPokerEnv",
        "rules": f"{_PACKAGE}.rules",
        "guide": f"{_PACKAGE}.guide",
        "players": f"{_PACKAGE}.players",
        "simulate": f"{_PACKAGE}.simulate",
        "record": f"{_PACKAGE}.record",
        "view": f"{_PACKAGE}.view:VIEW",
        "table_view": f"{_PACKAGE}.table_view",
        "tree": f"{_PACKAGE}.tree:public_tree",
    },
)
