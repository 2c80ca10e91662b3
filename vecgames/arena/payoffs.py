"""What one game pays each seat, read from a ``simulate`` frame, and whether a game's deals can
be shared between seat assignments (duplicate deals).

Payoffs per game (one value per seat, the arena's ``unit``):

- Zha Jin Hua: chips won or lost (``chips_<seat>``), unit ``chips``.
- Hold'em: chips won or lost in big blinds x 100 (``100 * chips_<seat> / big_blind``): their
  mean over hands is ``bb/100``, the unit.
- Liar's Dice: ``points``, the zero-sum result of each round summed over the match: the loser
  of a round -1, every other seat +1/(P-1) (a truncated round pays nothing). Heads-up with one
  round per match, a mean of m points is a win rate of (1 + m) / 2.
- Hanabi (cooperative): the team's ``score`` (0 when the lives ran out), the same for every seat.
- Da Yaoguai: ``beans`` won or paid (``beans_<seat>``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pandas as pd


def _chips(df: pd.DataFrame, n: int, rules: Mapping[str, Any]) -> np.ndarray:
    return np.stack([df[f"chips_{p}"].to_numpy(np.float64) for p in range(n)], axis=1)


def _holdem(df: pd.DataFrame, n: int, rules: Mapping[str, Any]) -> np.ndarray:
    return _chips(df, n, rules) * (100.0 / float(rules["big_blind"]))


def _liars_dice(df: pd.DataFrame, n: int, rules: Mapping[str, Any]) -> np.ndarray:
    """Per-round rows (``num_rounds`` per match, in match order) summed into match points."""
    rounds = int(rules["num_rounds"])
    loser = df["loser"].to_numpy(np.int64).reshape(-1, rounds)
    lost = loser[:, :, None] == np.arange(n)  # [match, round, seat]
    played = (loser >= 0)[:, :, None]
    points = np.where(lost, -1.0, np.where(played, 1.0 / (n - 1), 0.0))
    return points.sum(axis=1)


def _hanabi(df: pd.DataFrame, n: int, rules: Mapping[str, Any]) -> np.ndarray:
    score = df["score"].to_numpy(np.float64)
    return np.repeat(score[:, None], n, axis=1)


def _dayaoguai(df: pd.DataFrame, n: int, rules: Mapping[str, Any]) -> np.ndarray:
    return np.stack([df[f"beans_{p}"].to_numpy(np.float64) for p in range(n)], axis=1)


Payoffs = Callable[[pd.DataFrame, int, Mapping[str, Any]], np.ndarray]
PAYOFFS: dict[str, tuple[str, Payoffs]] = {
    "zhajinhua": ("chips", _chips),
    "holdem": ("bb/100", _holdem),
    "liars_dice": ("points", _liars_dice),
    "hanabi": ("score", _hanabi),
    "dayaoguai": ("beans", _dayaoguai),
}
COOPERATIVE = frozenset({"hanabi"})


def unit_of(game: str) -> str:
    """The unit of the arena's payoffs for ``game``."""
    return PAYOFFS[game][0]


def seat_payoffs(game: str, df: pd.DataFrame, num_seats: int) -> np.ndarray:
    """``[games, num_seats]`` float64 payoffs of a per-game ``simulate`` frame (the same
    columns whether the kernels or ``play_games`` played it)."""
    attrs = df.attrs
    df.attrs = {}  # else pandas deep-copies the attrs into every column taken (ms each)
    try:
        return PAYOFFS[game][1](df, num_seats, attrs.get("rules", {}))
    finally:
        df.attrs = attrs


def no_duplicate_reason(game: str, rules: Mapping[str, Any]) -> str | None:
    """Why ``game`` under ``rules`` cannot share deals between seat assignments (None when
    it can). A shared deal needs game g's cards to be drawn from its stream before any player
    draws from it (the random and equity-sampling players use the same stream), so that the
    cards do not depend on who sits where."""
    if game == "hanabi":
        return ("Hanabi draws its deck lazily from the stream its players also draw from, so a "
                "deal depends on who plays")
    if game == "liars_dice" and int(rules["num_rounds"]) > 1:
        return ("Liar's Dice rolls the dice of rounds after the first from the stream its "
                "players also draw from: duplicate deals need num_rounds=1")
    return None
