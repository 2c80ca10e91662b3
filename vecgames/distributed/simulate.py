"""``vecgames.simulate(..., backend="ray")``: the same games, split into shards of global game
indices, each played by the same kernels in a Ray task, then merged. Game g draws from stream g
of the seed only, so the merged result is the one-machine result, bit for bit."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from ..core.simulation import SimJob, merge_outputs
from ..core.validation import check_bool, check_int
from ..simulators import default_policy, simulation_module
from .cluster import run_sharded, shard_count

NO_CACHE = {"VECGAMES_NO_CACHE": "1"}  # see vecgames.core.jit
MIN_SHARD_GAMES = 100_000  # below this a shard's Ray overhead (about 1 ms) starts to show


def simulate_ray(name: str, num_games: int, policy: Any = None, seed: int = 0, *,
                 address: str | None = None, num_shards: int | None = None,
                 cpus_per_shard: int = 1, max_retries: int = 3, progress: bool = False,
                 cache: bool = True, warm: bool = True, **options: Any) -> pd.DataFrame:
    """``vecgames.simulate`` on a Ray cluster; the same frame as the one-machine run.

    ``address``: see ``connect``. ``num_shards``: default ``SHARDS_PER_SLOT`` per task slot
    (cluster CPUs / ``cpus_per_shard``), and at most one per ``MIN_SHARD_GAMES`` games.
    ``cpus_per_shard``: CPUs (and Numba threads) per task.
    ``max_retries``: reruns of a shard whose worker died. ``progress``: a bar in the driver.
    ``cache=False``: workers compile without Numba's on-disk cache. ``warm``: compile the
    kernels here first, so workers sharing this machine's cache load them instead.
    """
    if "num_threads" in options:
        raise ValueError("num_threads sets local threads; with backend='ray' give "
                         "cpus_per_shard (CPUs and Numba threads per shard) instead")
    module = simulation_module(name)
    if policy is None:
        policy = default_policy(name)
    job: SimJob = module.plan(num_games, policy, seed, **options)
    progress, cache, warm = (check_bool(value, label) for value, label in
                             ((progress, "progress"), (cache, "cache"), (warm, "warm")))
    max_retries = check_int(max_retries, "max_retries", 0, 1000)  # checked before connecting
    num_shards, cpus_per_shard = shard_count(address, num_shards, cpus_per_shard,
                                             most=job.num_games // MIN_SHARD_GAMES)
    shards = job.split(num_shards)
    if warm and cache:
        module.run(replace(job, num_games=1))
    outputs = run_sharded(_run_job, shards, sizes=[s.num_games for s in shards],
                          cpus_per_shard=cpus_per_shard, max_retries=max_retries,
                          progress=progress, unit="games", env_vars=None if cache else NO_CACHE)
    return module.frame(job, merge_outputs(outputs))


def _run_job(job: SimJob) -> dict[str, np.ndarray]:
    return simulation_module(job.game).run(job)
