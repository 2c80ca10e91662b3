"""Leduc Hold'em as every layer sees it (``vecgames.games.spec``)."""

from __future__ import annotations

from ..spec import GameSpec, seat_columns

_PACKAGE = "vecgames.games.leduc_poker"

SPEC = GameSpec(
    name="leduc_poker", title="Leduc Hold'em", gym_name="LeducPoker",
    payoffs=seat_columns("chips"), payoff_unit="chips",
    parts={
        "env": f"{_PACKAGE}:LeducPokerEnv",
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
