"""The Zha Jin Hua workloads measured by the benchmark script and the pytest-benchmark suite."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

from benchmarks.env_stepper import BATCH, EnvStepper


def zhajinhua_stepper(num_envs: int = BATCH, seed: int = 0) -> EnvStepper:
    """Six-player Zha Jin Hua tables stepped with uniform legal actions."""
    return EnvStepper("zhajinhua", num_envs, seed)


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
