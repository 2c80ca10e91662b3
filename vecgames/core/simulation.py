"""What every game's ``simulate`` needs besides its kernels: seat policies by name, a
temporary Numba thread count, and the job/outputs shape that lets a run be split into shards.

Every game's ``simulate`` module has three steps, so a backend can run the middle one anywhere:

- ``plan(num_games, policy, seed, summary, first_game, **options) -> SimJob``: validate;
- ``run(job) -> dict[str, np.ndarray]``: the kernels (game g uses stream g only);
- ``frame(job, outputs) -> pd.DataFrame``: the user's table.

Outputs named in ``SUMMED_OUTPUTS`` are totals over games (added across shards); every other
output has one row per game (or round) and is concatenated in game order.

``run_with_progress`` uses the same split to show a progress bar on one machine: the job runs
in consecutive chunks, merged into the result of one run, bit for bit.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

import numba
import numpy as np

from .validation import check_bool, check_int

SUMMED_OUTPUTS = frozenset({"totals", "action_counts", "seat_action_counts"})


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
        bounds = even_bounds(self.num_games, parts)
        return [replace(self, first_game=self.first_game + lo, num_games=hi - lo)
                for lo, hi in zip(bounds[:-1], bounds[1:], strict=True)]


def even_bounds(total: int, parts: int) -> list[int]:
    """``parts + 1`` increasing bounds splitting ``range(total)`` into ``parts`` consecutive
    pieces whose sizes differ by at most one (the later ones are the larger)."""
    return [total * k // parts for k in range(parts + 1)]


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
        raise ValueError(f"policy must be one policy name or a list of {num_players} "
                         f"(one per seat), got {len(seats)}")
    for name in seats:
        if not isinstance(name, str):
            raise TypeError(f"policy must hold policy names (str), one per seat, got "
                            f"{type(name).__name__} {name!r}")
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


# Progress bars (stderr, tqdm). A bar appears only for a run that lasts longer than
# PROGRESS_DELAY seconds, so short runs print nothing. The run goes in chunks that grow to
# about PROGRESS_CHUNK_SECONDS each: every chunk ends with all threads joining, which costs
# little when it happens twice a second (with 100 fixed chunks, a 20 M-match Liar's Dice run on
# a loaded 2-core machine took up to 1.5x longer).
PROGRESS_DELAY = 1.0
PROGRESS_CHUNK_SECONDS = 0.5
PROGRESS_MIN_CHUNK = 100_000
PROGRESS_CHUNKS = 100  # progress_slices: fixed slices of independent rows


def show_progress(progress: bool | None) -> bool:
    """Whether to show a bar: ``progress`` if given, else when stderr is a terminal (so that
    piped or logged output stays free of bar redraws)."""
    if progress is None:
        return is_terminal(sys.stderr)
    return check_bool(progress, "progress")


def is_terminal(stream: Any) -> bool:
    """Whether ``stream`` is a terminal (False for None, a pipe, a file or a StringIO)."""
    isatty = getattr(stream, "isatty", None)
    return callable(isatty) and bool(isatty())


def progress_bar(total: int, unit: str, enabled: bool) -> Any:
    """A tqdm bar on stderr counting ``total`` ``unit``s (a disabled one when not ``enabled``),
    shown once the work has taken ``PROGRESS_DELAY`` seconds and erased when it is done."""
    from tqdm import tqdm

    return tqdm(total=total, unit=f" {unit}", unit_scale=True, dynamic_ncols=True,
                file=sys.stderr, delay=PROGRESS_DELAY, disable=not enabled, leave=False)


def run_with_progress(run: Callable[[SimJob], dict[str, np.ndarray]], job: SimJob,
                      progress: bool, unit: str = "games") -> dict[str, np.ndarray]:
    """``run(job)``, or with ``progress`` the job in consecutive chunks under a progress bar,
    merged: the same outputs bit for bit (any split of a job is, see ``merge_outputs``).
    Chunks start at ``PROGRESS_MIN_CHUNK`` games and grow (at most 4x a step) towards
    ``PROGRESS_CHUNK_SECONDS`` of work each; their sizes depend on timing, the result does not.
    """
    if not progress or job.num_games < 2 * PROGRESS_MIN_CHUNK:
        return run(job)
    parts, done, size = [], 0, PROGRESS_MIN_CHUNK
    with progress_bar(job.num_games, unit, True) as bar:
        while done < job.num_games:
            n = min(size, job.num_games - done)
            start = time.perf_counter()
            parts.append(run(replace(job, first_game=job.first_game + done, num_games=n)))
            seconds = time.perf_counter() - start
            done += n
            bar.update(n)
            size = max(PROGRESS_MIN_CHUNK,
                       min(4 * n, int(n * PROGRESS_CHUNK_SECONDS / max(seconds, 1e-6))))
    return merge_outputs(parts)


def progress_slices(total: int, unit: str, enabled: bool,
                    chunks: int = PROGRESS_CHUNKS) -> Iterator[slice]:
    """Slices covering ``range(total)`` in order: one when not ``enabled``, else up to
    ``chunks`` under a progress bar that advances as each slice's work is done (for work whose
    rows are independent, so that any split gives the same result)."""
    if not enabled or total < 2:
        yield slice(0, total)
        return
    bounds = even_bounds(total, min(chunks, total))
    with progress_bar(total, unit, True) as bar:
        for lo, hi in zip(bounds[:-1], bounds[1:], strict=True):
            yield slice(lo, hi)
            bar.update(hi - lo)
