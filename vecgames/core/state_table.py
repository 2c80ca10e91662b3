"""Named views into a game's packed state table (one row of int columns per env)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np


def table_field(table: np.ndarray, name: str, scalar_fields: Sequence[str],
                seat_fields: Mapping[str, int], max_players: int) -> np.ndarray:
    """``[B]`` for a scalar field (column = its position in ``scalar_fields``), ``[B,
    max_players]`` for a per-seat block starting at ``seat_fields[name]``."""
    if name in scalar_fields:
        return table[:, list(scalar_fields).index(name)]
    if name in seat_fields:
        col = seat_fields[name]
        return table[:, col:col + max_players]
    known = (*scalar_fields, *seat_fields)
    raise ValueError(f"unknown state field {name!r}; fields: {known}")
