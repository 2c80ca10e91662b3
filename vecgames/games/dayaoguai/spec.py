"""Da Yaoguai as every layer sees it (``vecgames.games.spec``)."""

from __future__ import annotations

from ..spec import GameSpec, seat_columns

SPEC = GameSpec(
    name="dayaoguai", title='Da Yaoguai', gym_name="DaYaoguai",
    payoffs=seat_columns("beans"), payoff_unit="beans", network="policy_net",
    web_limits={"max_steps": 5000},
    parts={
        "env": "vecgames.games.dayaoguai:DaYaoguaiEnv",
        "rules": "vecgames.games.dayaoguai.rules",
        "guide": "vecgames.games.dayaoguai.guide",
        "players": "vecgames.games.dayaoguai.players",
        "simulate": "vecgames.games.dayaoguai.simulate",
        "record": "vecgames.games.dayaoguai.record",
        "view": "vecgames.games.dayaoguai.view:VIEW",
        "table_view": "vecgames.games.dayaoguai.table_view",
        "summary": "vecgames.games.dayaoguai.report:print_summary",
        "report": "vecgames.games.dayaoguai.report",
        "trainer": "vecgames.games.dayaoguai.train",
    },
)
