"""Shared timing for the benchmark scripts."""

from __future__ import annotations

import time
from collections.abc import Callable

REPEATS = 3  # each rate is the best of this many runs: the machine's speed drifts by 10%


def best_seconds(work: Callable[[], object], repeats: int = REPEATS) -> float:
    """The fastest of ``repeats`` timed calls of ``work``."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best
