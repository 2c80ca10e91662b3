"""pytest-benchmark suite (runs as quick tests in CI with --benchmark-disable).

    python -m pytest benchmarks --benchmark-enable
"""

import numba
import pytest

import vecgames
from benchmarks.zhajinhua_workloads import pure_python_games, zhajinhua_stepper


@pytest.fixture(scope="module")
def stepper():
    return zhajinhua_stepper(num_envs=4096)


@pytest.mark.parametrize("threads", [1, 2])
def test_simulate_random_six_players(benchmark, threads):
    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    df = benchmark(vecgames.simulate, "zhajinhua", 200_000, seed=1, summary=True)
    assert df["games"].iloc[0] == 200_000


def test_env_step_batch_4096(benchmark, stepper):
    seconds = benchmark(stepper.run, 10)
    assert seconds > 0


def test_pure_python_peer(benchmark):
    seconds = benchmark(pure_python_games, 50)
    assert seconds > 0
