"""The env-step workload shared by the benchmarks: a batch env stepped with uniform legal
actions, timing only the time inside ``env.step``."""

from __future__ import annotations

import time
from typing import Any

import numpy as np
from numba import prange

import vecgames
from vecgames.core.jit import jit
from vecgames.core.rng import below, next_u64, seed_streams

BATCH = 4096


@jit(parallel=True)
def sample_mask(mask, rng, out):
    """A uniform legal action per row of a mask batch (the policy side of the benchmark)."""
    for i in prange(mask.shape[0]):
        n = 0
        for a in range(mask.shape[1]):
            n += mask[i, a]
        k = below(next_u64(rng, i), n)
        for a in range(mask.shape[1]):
            if mask[i, a]:
                if k == 0:
                    out[i] = a
                    break
                k -= 1


class EnvStepper:
    """``vecgames.make(game, num_envs, seed, **options)`` plus a sampler; ``run(k)`` takes k
    steps and returns the seconds spent in ``step()``."""

    def __init__(self, game: str, num_envs: int = BATCH, seed: int = 0, **options: Any):
        self.env = vecgames.make(game, num_envs=num_envs, seed=seed, **options)
        self.obs, self.info = self.env.reset()
        self.actions = np.zeros(num_envs, np.int64)
        self.rng = np.zeros(num_envs, np.uint64)
        seed_streams(self.rng, np.uint64(seed + 1), 0)
        self.run(2)

    def run(self, steps: int) -> float:
        in_step = 0.0
        for _ in range(steps):
            sample_mask(self.info["action_mask"], self.rng, self.actions)
            t = time.perf_counter()
            self.env.step(self.actions)
            in_step += time.perf_counter() - t
        return in_step
