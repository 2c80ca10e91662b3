"""Zha Jin Hua as every layer sees it (``vecgames.games.spec``)."""

from __future__ import annotations

from ..spec import GameSpec, seat_columns

SPEC = GameSpec(
    name="zhajinhua", title='Zha Jin Hua', gym_name="ZhaJinHua",
    payoffs=seat_columns("chips"), payoff_unit="chips", network="policy_net",
    observation=("obs", "vecgames.games.zhajinhua.env:OBSERVATIONS"),
    web_limits={"max_rounds": 100},
    parts={
        "env": "vecgames.games.zhajinhua:ZhaJinHuaEnv",
        "rules": "vecgames.games.zhajinhua.rules",
        "guide": "vecgames.games.zhajinhua.guide",
        "players": "vecgames.games.zhajinhua.players",
        "simulate": "vecgames.games.zhajinhua.simulate",
        "record": "vecgames.games.zhajinhua.record",
        "view": "vecgames.games.zhajinhua.view:VIEW",
        "table_view": "vecgames.games.zhajinhua.table_view",
        "summary": "vecgames.games.zhajinhua.report:print_summary",
        "report": "vecgames.games.zhajinhua.report",
        "trainer": "vecgames.games.zhajinhua.train",
        "best_response": "vecgames.games.zhajinhua.train:best_response_args",
    },
)
