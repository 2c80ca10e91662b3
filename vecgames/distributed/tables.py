"""The poker tables on a Ray cluster: the exact preflop matrix's board counts, sharded by
(hero, villain) pair, and the Monte Carlo cells of ``equity_vs_random``, sharded by cell. Every
pair and every cell is computed alone from its own inputs, so the sharded tables are the
one-machine tables."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

import numpy as np

from ..core.rng import check_seed
from ..core.validation import check_int
from ..poker.preflop import count_boards, random_equities
from .cluster import run_sharded, shard_count, split_evenly


def count_boards_ray(assignments: np.ndarray, *, address: str | None = None,
                     num_shards: int | None = None, cpus_per_shard: int = 1,
                     max_retries: int = 3, progress: bool = False) -> np.ndarray:
    """``vecgames.poker.preflop.count_boards`` over shards of the rows, run by Ray tasks."""
    assignments = np.asarray(assignments, np.int64)
    if assignments.ndim != 3 or assignments.shape[1:] != (2, 2) or not len(assignments):
        raise ValueError(f"assignments must be a non-empty [T, 2, 2] array of hole cards, "
                         f"got shape {assignments.shape}")
    shards = _shards(assignments, address, num_shards, cpus_per_shard)
    count_boards(assignments[:1])  # compile here; workers on this machine load the cache
    counts = run_sharded(count_boards, shards, sizes=[len(s) for s in shards],
                         cpus_per_shard=cpus_per_shard, max_retries=max_retries,
                         progress=progress, unit="pairs")
    return np.concatenate(counts, axis=0)


def random_equities_ray(cells: Sequence[tuple[str, int]], samples: int, seed: int, *,
                        address: str | None = None, num_shards: int | None = None,
                        cpus_per_shard: int = 1, max_retries: int = 3,
                        progress: bool = False) -> list[tuple[float, float]]:
    """``vecgames.poker.preflop.random_equities`` over shards of the cells, run by Ray tasks."""
    samples = check_int(samples, "samples", 1, 10**12)
    seed = int(check_seed(seed))
    cells = list(cells)
    if not cells:
        return []
    shards = _shards(cells, address, num_shards, cpus_per_shard)
    random_equities(cells[:1], 1, seed)  # compile here; workers on this machine load the cache
    results = run_sharded(partial(random_equities, samples=samples, seed=seed), shards,
                          sizes=[len(s) for s in shards], cpus_per_shard=cpus_per_shard,
                          max_retries=max_retries, progress=progress, unit="cells")
    return [cell for shard in results for cell in shard]


def _shards(items, address: str | None, num_shards: int | None, cpus_per_shard: int):
    """Check the options, connect, and split ``items`` into the requested (or default)
    shards."""
    return split_evenly(items, shard_count(address, num_shards, cpus_per_shard)[0])
