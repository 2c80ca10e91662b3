"""Who sits in which seat: the player label of every seat of a simulate frame, and the seats
grouped by player, so that the reports give strategy statistics per player, not per seat.

A frame names its seats in ``attrs["players"]`` (frames of ``vecgames.simulators.mixed.
play_games``: any mix of built-in, callable and checkpoint players), else in
``attrs["policies"]`` (Hold'em) or ``attrs["policy"]`` (the other games: one name for every
seat, a list with one per seat, or a comma label such as ``"rules,random"``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from vecgames.analysis.report_kit import Z95


def seat_labels(df: pd.DataFrame, num_seats: int) -> list[str]:
    """The label of the player in each of the ``num_seats`` seats (``"?"`` where unknown)."""
    a = df.attrs
    names = a.get("players", a.get("policies", a.get("policy", "?")))
    if isinstance(names, str):
        names = names.split(",") if names.count(",") == num_seats - 1 else [names] * num_seats
    names = [str(p) for p in names]
    return names if len(names) == num_seats else ["?"] * num_seats


def player_seats(labels: Sequence[str]) -> dict[str, np.ndarray]:
    """Seat indices of every distinct player, in the order players first sit."""
    labels = list(labels)
    return {name: np.flatnonzero(np.array(labels) == name) for name in dict.fromkeys(labels)}


def distinct_players(labels: Sequence[str]) -> list[str]:
    """The distinct labels in seat order (the players an arena among them would pair)."""
    return list(dict.fromkeys(str(p) for p in labels))


def mean_ci95(x: np.ndarray) -> tuple[float, float]:
    """Mean and the half-width of its 95% CI (normal approximation, sample std; NaN when
    fewer than two values)."""
    x = np.asarray(x, np.float64).ravel()
    if x.size == 0:
        return float("nan"), float("nan")
    half = Z95 * float(x.std(ddof=1)) / np.sqrt(x.size) if x.size > 1 else float("nan")
    return float(x.mean()), half


def ratio(num: float, den: float) -> float:
    """num / den, NaN for an empty denominator (a share of no decisions is unknown)."""
    return float(num) / float(den) if den else float("nan")
