"""pytest-benchmark suite for the Hold'em evaluator (quick tests in CI with --benchmark-disable).

    python -m pytest benchmarks/test_bench_poker.py --benchmark-enable
"""

import numba
import numpy as np
import pytest

from benchmarks.bench_poker import random_hands
from vecgames.poker import evaluate
from vecgames.poker.distributions import strength_histogram
from vecgames.poker.equity import equity
from vecgames.poker.seven_card import evaluate_rows


@pytest.fixture(scope="module")
def hands():
    return random_hands(100_000)


@pytest.mark.parametrize("threads", [1, 2])
def test_evaluate_rows_100k_hands(benchmark, hands, threads):
    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    out = np.zeros(len(hands), np.int16)
    benchmark(evaluate_rows, hands, out)
    assert out.min() >= 1 and out.max() <= 7462


@pytest.mark.parametrize("check", [False, True])
def test_evaluate_100k_hands(benchmark, hands, check):
    numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
    out = benchmark(evaluate, hands, check=check)
    assert out.min() >= 1 and out.max() <= 7462


def test_equity_heads_up_exact(benchmark):
    numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
    frame = benchmark(equity, ["AhKh", "QsQd"])
    assert frame.attrs["method"] == "exact"
    assert frame.attrs["deals"] == 1_712_304


def test_strength_histogram_5(benchmark):
    hist = benchmark(strength_histogram, 5)
    assert hist.sum() == 2_598_960
