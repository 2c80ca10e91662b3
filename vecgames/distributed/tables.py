"""The poker tables on a Ray cluster: the exact preflop matrix's board counts, sharded by
(hero, villain) pair, and the Monte Carlo cells of ``equity_vs_random``, sharded by cell. Every
pair and every cell is computed alone from its own inputs, so the sharded tables are the
one-machine tables."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

import numpy as np
import pandas as pd

from ..core.rng import check_seed
from ..core.validation import as_array, check_bool, check_int, check_list
from ..poker.preflop import (
    CLASS_NAMES,
    count_boards,
    matrix_from_counts,
    preflop_tasks,
    random_equities,
    vs_random_cells,
    vs_random_frame,
)
from .cluster import run_sharded, shard_count, split_evenly


def compute_preflop_matrix_ray(**ray_options: Any) -> dict[str, np.ndarray]:
    """``vecgames.poker.preflop.compute_preflop_matrix`` with the (hero, villain) pairs
    counted in shards on a Ray cluster: the same integers. ``ray_options``: those of
    ``count_boards_ray`` (``address``, ``num_shards``, ``cpus_per_shard``, ``max_retries``,
    ``progress``)."""
    assignments, owners = preflop_tasks()
    return matrix_from_counts(owners, count_boards_ray(assignments, **ray_options))


def equity_vs_random_ray(opponents=range(1, 10), samples: int = 200_000, seed: int = 0,
                         **ray_options: Any) -> pd.DataFrame:
    """``vecgames.poker.preflop.equity_vs_random`` with its Monte Carlo cells run in shards
    on a Ray cluster: the same numbers. ``ray_options``: those of ``random_equities_ray``."""
    opponents, samples, cells = vs_random_cells(opponents, samples, seed)
    return vs_random_frame(opponents, cells,
                           random_equities_ray(cells, samples, seed, **ray_options))


def count_boards_ray(assignments: np.ndarray, *, address: str | None = None,
                     num_shards: int | None = None, cpus_per_shard: int = 1,
                     max_retries: int = 3, progress: bool = False) -> np.ndarray:
    """``vecgames.poker.preflop.count_boards`` over shards of the rows, run by Ray tasks."""
    assignments = as_array(assignments, "assignments")
    if assignments.ndim != 3 or assignments.shape[1:] != (2, 2) or not len(assignments):
        raise ValueError(f"assignments must be a non-empty [T, 2, 2] array of hole cards, "
                         f"got shape {assignments.shape}")
    if not np.issubdtype(assignments.dtype, np.integer):
        raise TypeError(f"assignments must be integer card ids, got dtype {assignments.dtype}")
    assignments = assignments.astype(np.int64)
    max_retries = check_int(max_retries, "max_retries", 0, 1000)  # checked before connecting
    progress = check_bool(progress, "progress")
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
    max_retries = check_int(max_retries, "max_retries", 0, 1000)  # checked before connecting
    progress = check_bool(progress, "progress")
    cells = _check_cells(cells)
    if not cells:
        return []
    shards = _shards(cells, address, num_shards, cpus_per_shard)
    random_equities(cells[:1], 1, seed)  # compile here; workers on this machine load the cache
    results = run_sharded(partial(random_equities, samples=samples, seed=seed), shards,
                          sizes=[len(s) for s in shards], cpus_per_shard=cpus_per_shard,
                          max_retries=max_retries, progress=progress, unit="cells")
    return [cell for shard in results for cell in shard]


def _check_cells(cells: Any) -> list[tuple[str, int]]:
    """Cells as (class name, opponents 1..9) pairs, checked here rather than in a worker."""
    out = []
    for cell in check_list(cells, "cells", "(class, opponents) pairs"):
        if (not isinstance(cell, tuple) or len(cell) != 2 or not isinstance(cell[0], str)
                or cell[0] not in CLASS_NAMES):
            raise ValueError(f"cells must hold (class, opponents) pairs with a class such as "
                             f"'AKs', got {cell!r}")
        out.append((cell[0], check_int(cell[1], "cells: opponents", 1, 9)))
    return out


def _shards(items, address: str | None, num_shards: int | None, cpus_per_shard: int):
    """Check the options, connect, and split ``items`` into the requested (or default)
    shards."""
    return split_evenly(items, shard_count(address, num_shards, cpus_per_shard)[0])
