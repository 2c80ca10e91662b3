"""Texas Hold'em as every layer sees it (``vecgames.games.spec``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from ..spec import GameSpec, seat_columns

_chips = seat_columns("chips")


def _bb_per_100(df: pd.DataFrame, n: int, rules: Mapping[str, Any]) -> np.ndarray:
    """Chips won in big blinds x 100: their mean over hands is bb/100."""
    return _chips(df, n, rules) * (100.0 / float(rules["big_blind"]))


SPEC = GameSpec(
    name="holdem", title="Texas Hold'em", gym_name="Holdem",
    payoffs=_bb_per_100, payoff_unit="bb/100", unit="hands", network="policy_net",
    observation=("observation", "vecgames.games.holdem.history:OBSERVATIONS"),
    web_limits={"stack": 100_000},
    parts={
        "env": "vecgames.games.holdem:HoldemEnv",
        "rules": "vecgames.games.holdem.rules",
        "guide": "vecgames.games.holdem.guide",
        "players": "vecgames.games.holdem.players",
        "simulate": "vecgames.games.holdem.simulate",
        "record": "vecgames.games.holdem.record",
        "view": "vecgames.games.holdem.view:VIEW",
        "table_view": "vecgames.games.holdem.table_view",
        "summary": "vecgames.games.holdem.report:print_summary",
        "report": "vecgames.games.holdem.report",
        "trainer": "vecgames.games.holdem.train",
        "best_response": "vecgames.games.holdem.train:best_response_args",
    },
)
