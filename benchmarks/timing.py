"""Shared timing for the benchmark scripts."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

REPEATS = 3  # each rate is the best of this many runs: the machine's speed drifts by 10%


def best_seconds(work: Callable[[], object], repeats: int = REPEATS) -> float:
    """The fastest of ``repeats`` timed calls of ``work``."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def print_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    """A plain-text table: the first column left-aligned, the others right-aligned, each as
    wide as its widest cell."""
    table = [list(header), *[list(r) for r in rows]]
    widths = [max(len(r[k]) for r in table) for k in range(len(header))]
    for n, row in enumerate(table):
        cells = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:],
                                                                          strict=True)]
        print(" | ".join(cells))
        if n == 0:
            print("-+-".join("-" * w for w in widths))
