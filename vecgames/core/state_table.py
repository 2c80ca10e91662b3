"""Named views into a game's packed state table (one row of int columns per env)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from .jit import jit


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


@jit
def keep_row(table, i, out):
    """``out[i] = table[i]``, element by element (a slice copy needs Numba's runtime, which
    the kernels run without); the step kernels keep a finished game's row this way."""
    for k in range(table.shape[1]):
        out[i, k] = table[i, k]
