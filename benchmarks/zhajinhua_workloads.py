"""The Zha Jin Hua workloads measured by the benchmark script and the pytest-benchmark suite."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

import numpy as np
from numba import prange

import vecgames
from vecgames.core.bits import pick_set_bit
from vecgames.core.jit import jit
from vecgames.core.rng import next_u64, seed_streams

BATCH = 4096
_ACTIONS = np.arange(15)


@jit(parallel=True)
def sample_legal(mask, rng, out):
    """Uniform legal actions from a mask batch (the policy side of an env-step benchmark)."""
    for i in prange(mask.shape[0]):
        bits = 0
        for a in range(mask.shape[1]):
            bits |= np.int64(mask[i, a]) << a
        out[i] = pick_set_bit(bits, next_u64(rng, i))


class EnvStepper:
    """A batch env plus a sampler; ``run(k)`` takes k steps and returns the seconds in step()."""

    def __init__(self, num_envs: int = BATCH, seed: int = 0):
        self.env = vecgames.make("zhajinhua", num_envs=num_envs, seed=seed)
        self.obs, self.info = self.env.reset()
        self.actions = np.zeros(num_envs, np.int64)
        self.rng = np.zeros(num_envs, np.uint64)
        seed_streams(self.rng, np.uint64(seed + 1), 0)
        self.run(2)

    def run(self, steps: int) -> float:
        in_step = 0.0
        for _ in range(steps):
            sample_legal(self.info["action_mask"], self.rng, self.actions)
            t = time.perf_counter()
            self.env.step(self.actions)
            in_step += time.perf_counter() - t
        return in_step


def pure_python_games(num_games: int, seed: int = 0) -> float:
    """Random-legal six-player games in the pure-Python reference engine; returns seconds."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if root not in sys.path:
        sys.path.insert(0, root)
    from tests.zhajinhua_reference import Stream, new_game_from_stream

    t = time.perf_counter()
    for g in range(num_games):
        stream = Stream(seed, g)
        game = new_game_from_stream(stream)
        while not game.done:
            game.step(stream.random_legal(game.legal()))
    return time.perf_counter() - t


_COMPILE_PROBE = (
    "import time; t = time.perf_counter(); import vecgames, numpy as np; "
    "vecgames.simulate('zhajinhua', 10); "
    "env = vecgames.make('zhajinhua', num_envs=8); env.reset(); env.step(np.zeros(8, int)); "
    "print(time.perf_counter() - t)"
)


def compile_times() -> tuple[float, float]:
    """Seconds to import, compile and run the kernels once: with an empty cache, then warm."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        runs = [
            float(subprocess.run([sys.executable, "-c", _COMPILE_PROBE], env=env, check=True,
                                 capture_output=True, text=True).stdout.strip().splitlines()[-1])
            for _ in range(2)
        ]
    return runs[0], runs[1]
