"""What every game's ``simulate`` needs besides its kernels: seat policies by name, a
temporary Numba thread count, and the job/outputs shape that lets a run be split into shards.

Every game's ``simulate`` module has three steps, so a backend can run the middle one anywhere:

- ``plan(num_games, policy, seed, summary, first_game, **options) -> SimJob``: validate;
- ``run(job) -> dict[str, np.ndarray]``: the kernels (game g uses stream g only);
- ``frame(job, outputs) -> pd.DataFrame``: the user's table.

Outputs named in ``SUMMED_OUTPUTS`` are totals over games (added across shards); every other
output has one row per game (or round) and is concatenated in game order.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

import numba
import numpy as np

from .validation import check_int

SUMMED_OUTPUTS = frozenset({"totals", "action_counts"})


@dataclass(frozen=True)
class SimJob:
    """A validated ``simulate`` call: games ``first_game .. first_game + num_games - 1`` of
    ``game`` under ``seed``, with the game's own validated ``params`` (rules, seat policy ids,
    ...). Picklable, so it can be sent to another process or machine."""

    game: str
    num_games: int
    first_game: int
    seed: int
    summary: bool
    params: Mapping[str, Any]

    def split(self, num_shards: int) -> list[SimJob]:
        """Contiguous shards of the game range, in order, none empty; sizes differ by at most
        one game (the later shards are the larger ones when it does not divide)."""
        parts = min(check_int(num_shards, "num_shards", 1), self.num_games)
        bounds = [self.num_games * k // parts for k in range(parts + 1)]
        return [replace(self, first_game=self.first_game + lo, num_games=hi - lo)
                for lo, hi in zip(bounds[:-1], bounds[1:], strict=True)]


def merge_outputs(parts: Sequence[Mapping[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """The outputs of consecutive shards as one run's: totals added, rows concatenated."""
    if not parts:
        raise ValueError("merge_outputs needs at least one shard's outputs")
    merged: dict[str, np.ndarray] = {}
    for key in parts[0]:
        arrays = [part[key] for part in parts]
        if key in SUMMED_OUTPUTS:
            merged[key] = np.sum(arrays, axis=0, dtype=arrays[0].dtype)
        else:
            merged[key] = np.concatenate(arrays, axis=0)
    return merged


def resolve_policies(policy: str | Sequence[str], num_players: int,
                     names: Sequence[str]) -> np.ndarray:
    """One policy name for every seat, or one list entry per seat, as kernel policy ids (the
    positions in ``names``)."""
    if isinstance(policy, str):
        seats = [policy] * num_players
    elif isinstance(policy, (Sequence, np.ndarray)):
        seats = list(policy)
    else:
        raise TypeError(f"policy must be a policy name or a list of names, one per seat, "
                        f"got {type(policy).__name__}")
    if len(seats) != num_players:
        raise ValueError(f"policy must name one policy or {num_players} (one per seat), "
                         f"got {len(seats)}")
    for name in seats:
        if name not in names:
            raise ValueError(f"policy must be one of {tuple(names)}, got {name!r}")
    return np.array([list(names).index(name) for name in seats], dtype=np.int64)


def max_threads() -> int:
    """Numba's thread pool size (``NUMBA_NUM_THREADS``; set when numba is imported)."""
    return int(getattr(numba.config, "NUMBA_NUM_THREADS"))  # noqa: B009 (no stub for it)


@contextmanager
def numba_threads(num_threads: int | None) -> Iterator[None]:
    """Run the block on ``num_threads`` Numba threads (checked first; None: as set), then
    restore the previous count. Results never depend on it: only speed does."""
    previous = numba.get_num_threads()
    if num_threads is not None:
        numba.set_num_threads(check_int(num_threads, "num_threads", 1, max_threads()))
    try:
        yield
    finally:
        numba.set_num_threads(previous)
