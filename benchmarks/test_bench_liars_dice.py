"""Liar's Dice under pytest-benchmark (quick tests in CI with --benchmark-disable).

    python -m pytest benchmarks/test_bench_liars_dice.py --benchmark-enable
"""

import numba
import pytest

import vecgames
from benchmarks.bench_liars_dice import openspiel_cpp_games, openspiel_python_games
from benchmarks.env_stepper import EnvStepper


@pytest.fixture(scope="module", params=["full", "seed"])
def stepper(request):
    return EnvStepper("liars_dice", observation=request.param)


@pytest.mark.parametrize("threads", [1, 2])
def test_simulate_random_rounds(benchmark, threads):
    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    try:
        df = benchmark(vecgames.simulate, "liars_dice", 500_000, seed=1, summary=True)
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    assert df.attrs["rounds"] == 500_000


def test_env_step_batch_4096(benchmark, stepper):
    assert benchmark(stepper.run, 10) > 0


def test_openspiel_peer(benchmark):
    pytest.importorskip("pyspiel")
    assert benchmark(openspiel_python_games, 200) > 0
    assert openspiel_cpp_games(200) > 0
