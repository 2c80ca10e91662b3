"""What one game pays each seat, read from a ``simulate`` frame, and whether a game's deals can
be shared between seat assignments (duplicate deals): each game's spec says both
(``GameSpec.payoffs``, ``payoff_unit``, ``cooperative``, ``duplicate_deals``).

A cooperative game pays every seat the team's result; the others are zero-sum, in the game's
``payoff_unit`` per game (Hold'em: bb/100, so their mean over hands reads as bb/100).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from ..games.catalog import spec_of


def unit_of(game: str) -> str:
    """The unit of the arena's payoffs for ``game``."""
    return spec_of(game).payoff_unit


def is_cooperative(game: str) -> bool:
    """Whether every seat of ``game`` scores the team's result."""
    return spec_of(game).cooperative


def seat_payoffs(game: str, df: pd.DataFrame, num_seats: int) -> np.ndarray:
    """``[games, num_seats]`` float64 payoffs of a per-game ``simulate`` frame (the same
    columns whether the kernels or ``play_games`` played it)."""
    attrs = df.attrs
    df.attrs = {}  # else pandas deep-copies the attrs into every column taken (ms each)
    try:
        return spec_of(game).payoffs(df, num_seats, attrs.get("rules", {}))
    finally:
        df.attrs = attrs


def no_duplicate_reason(game: str, rules: Mapping[str, Any]) -> str | None:
    """Why ``game`` under ``rules`` cannot share deals between seat assignments (None when
    it can). A shared deal needs game g's cards to be drawn from its stream before any player
    draws from it (the random and equity-sampling players use the same stream), so that the
    cards do not depend on who sits where."""
    return spec_of(game).no_duplicate_reason(rules)
