"""What every game's ``simulate`` needs besides its kernels: seat policies by name and a
temporary Numba thread count."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import numba
import numpy as np

from .validation import check_int


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


@contextmanager
def numba_threads(num_threads: int | None) -> Iterator[None]:
    """Run the block on ``num_threads`` Numba threads (checked first; None: as set), then
    restore the previous count. Results never depend on it: only speed does."""
    previous = numba.get_num_threads()
    if num_threads is not None:
        numba.set_num_threads(check_int(num_threads, "num_threads", 1,
                                        numba.config.NUMBA_NUM_THREADS))
    try:
        yield
    finally:
        numba.set_num_threads(previous)
