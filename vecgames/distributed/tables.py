"""The poker tables on a Ray cluster: the exact preflop matrix's board counts, sharded by
(hero, villain) pair. Every pair is counted exactly and alone, so the sharded counts are the
one-machine counts."""

from __future__ import annotations

import numpy as np

from ..core.validation import check_int
from ..poker.preflop import count_boards
from .cluster import cluster_cpus, connect, run_sharded

SHARDS_PER_CPU = 4


def count_boards_ray(assignments: np.ndarray, *, address: str | None = None,
                     num_shards: int | None = None, cpus_per_shard: int = 1,
                     max_retries: int = 3, progress: bool = False) -> np.ndarray:
    """``vecgames.poker.preflop.count_boards`` over shards of the rows, run by Ray tasks."""
    assignments = np.asarray(assignments, np.int64)
    if assignments.ndim != 3 or assignments.shape[1:] != (2, 2) or not len(assignments):
        raise ValueError(f"assignments must be a non-empty [T, 2, 2] array of hole cards, "
                         f"got shape {assignments.shape}")
    cpus_per_shard = check_int(cpus_per_shard, "cpus_per_shard", 1)
    connect(address)
    if num_shards is None:
        num_shards = SHARDS_PER_CPU * max(cluster_cpus() // cpus_per_shard, 1)
    parts = min(check_int(num_shards, "num_shards", 1), len(assignments))
    bounds = [len(assignments) * k // parts for k in range(parts + 1)]
    shards = [assignments[lo:hi] for lo, hi in zip(bounds[:-1], bounds[1:], strict=True)]
    count_boards(assignments[:1])  # compile here; workers on this machine load the cache
    counts = run_sharded(count_boards, shards, sizes=[len(s) for s in shards],
                         cpus_per_shard=cpus_per_shard, max_retries=max_retries,
                         progress=progress, unit="pairs")
    return np.concatenate(counts, axis=0)
