"""``vecgames.arena(..., backend="ray")``: the arena's matches cut into shards of consecutive
games, each played in a Ray task (``vecgames.distributed.run_sharded``), then put back in
order. Game g of a match depends on (seed, g) only, so the tables are the one-machine tables
bit for bit."""

from __future__ import annotations

from dataclasses import replace
from math import ceil

import numpy as np

from ..core.validation import check_bool, check_int
from .matches import MatchJob, play_match

NO_CACHE = {"VECGAMES_NO_CACHE": "1"}  # see vecgames.core.jit
MIN_SHARD_GAMES = 20_000  # smaller shards spend more on Ray's overhead than on games


def play_matches_ray(jobs: list[MatchJob], *, address: str | None = None,
                     num_shards: int | None = None, cpus_per_shard: int = 1,
                     max_retries: int = 3, progress: bool = False, cache: bool = True,
                     warm: bool = True) -> list[np.ndarray]:
    """``[play_match(job) for job in jobs]`` on Ray. ``num_shards``: default a few per task
    slot, at most one per ``MIN_SHARD_GAMES`` games; each job is cut into its share of them
    (at least one piece per job). The other keywords are those of
    ``vecgames.distributed.simulate_ray``."""
    from ..distributed.cluster import run_sharded, shard_count

    progress, cache, warm = (check_bool(value, label) for value, label in
                             ((progress, "progress"), (cache, "cache"), (warm, "warm")))
    max_retries = check_int(max_retries, "max_retries", 0, 1000)  # checked before connecting
    total = sum(job.num_games for job in jobs)
    num_shards, cpus_per_shard = shard_count(address, num_shards, cpus_per_shard,
                                             most=total // MIN_SHARD_GAMES)
    pieces = [(k, piece) for k, job in enumerate(jobs)
              for piece in job.split(ceil(num_shards * job.num_games / total))]
    if warm and cache:  # compile here: workers on this machine load the kernels from the cache
        for job in {job.seats: job for job in jobs}.values():
            play_match(replace(job, num_games=1))
    results = run_sharded(play_match, [piece for _, piece in pieces],
                          sizes=[piece.num_games for _, piece in pieces],
                          cpus_per_shard=cpus_per_shard, max_retries=max_retries,
                          progress=progress, unit="games", env_vars=None if cache else NO_CACHE)
    parts: list[list[np.ndarray]] = [[] for _ in jobs]
    for (k, _), result in zip(pieces, results, strict=True):
        parts[k].append(result)
    return [np.concatenate(p, axis=0) for p in parts]
