"""The Ray backend on a real single-node cluster: sharded results equal the one-machine results
bit for bit, a killed worker's shard is rerun and counted once, unreachable clusters fail fast."""

from __future__ import annotations

import os
import time
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

import vecgames
from vecgames.api import simulation_module
from vecgames.core.simulation import SimJob, merge_outputs
from vecgames.poker.preflop import count_boards

ray = pytest.importorskip("ray")
from vecgames.distributed import run_sharded, simulate_ray  # noqa: E402
from vecgames.distributed.tables import count_boards_ray  # noqa: E402

GAMES = {"zhajinhua": {"record_actions": True}, "holdem": {"num_players": 3},
         "liars_dice": {"num_rounds": 3}, "hanabi": {"num_players": 3}, "dayaoguai": {}}


@pytest.fixture(scope="module")
def cluster():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def assert_same(local: pd.DataFrame, sharded: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(local, sharded, check_exact=True)
    assert local.attrs.keys() == sharded.attrs.keys()
    for key, value in local.attrs.items():
        np.testing.assert_array_equal(np.asarray(value, object), np.asarray(sharded.attrs[key],
                                                                           object), key)


@pytest.mark.parametrize("summary", [False, True])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_sharded_equals_one_machine(cluster, game, summary):
    options = dict(seed=11, summary=summary, **GAMES[game])
    local = vecgames.simulate(game, 3_001, **options)
    sharded = vecgames.simulate(game, 3_001, backend="ray", num_shards=4, **options)
    assert_same(local, sharded)


def test_offset_run_and_uneven_shards(cluster):
    """A run that starts at game 10**9 split into 7 uneven shards is the same run."""
    local = vecgames.simulate("liars_dice", 1_000, seed=3, first_game=10**9)
    sharded = simulate_ray("liars_dice", 1_000, seed=3, first_game=10**9, num_shards=7,
                           progress=True)
    assert_same(local, sharded)
    assert sharded["game"].iloc[0] == 10**9


def _dies_once(marker_dir: str, victim_first_game: int):
    """A shard runner whose worker process dies the first time it is given the victim shard."""
    def run(job: SimJob):
        marker = os.path.join(marker_dir, f"attempt-{job.first_game}")
        with open(marker, "a") as attempts:
            attempts.write("x")
        if job.first_game == victim_first_game and os.path.getsize(marker) == 1:
            os._exit(1)  # no exception: the worker is gone, as if killed
        return simulation_module(job.game).run(job)
    return run


def test_killed_worker_shard_is_rerun_and_counted_once(cluster, tmp_path):
    module = simulation_module("dayaoguai")
    job = module.plan(4_000, "pickup", seed=5, summary=True)
    shards = job.split(4)
    outputs = run_sharded(_dies_once(str(tmp_path), shards[1].first_game), shards,
                          sizes=[s.num_games for s in shards], max_retries=2, progress=False)
    attempts = {p.name: p.stat().st_size for p in tmp_path.iterdir()}
    assert attempts == {f"attempt-{s.first_game}": 1 + (k == 1) for k, s in enumerate(shards)}
    merged = module.frame(job, merge_outputs(outputs))
    assert merged["games"].iloc[0] == 4_000
    assert_same(vecgames.simulate("dayaoguai", 4_000, policy="pickup", seed=5, summary=True),
                merged)


def test_shard_lost_for_good_is_an_error(cluster, tmp_path):
    module = simulation_module("dayaoguai")
    shards = module.plan(100, seed=5, summary=True).split(2)
    with pytest.raises(ray.exceptions.WorkerCrashedError):
        run_sharded(_dies_once(str(tmp_path), shards[0].first_game), shards,
                    sizes=[50, 50], max_retries=0, progress=False)


def test_preflop_counts_sharded(cluster):
    rng = np.random.default_rng(0)
    assignments = np.array([rng.permutation(52)[:4].reshape(2, 2) for _ in range(30)])
    np.testing.assert_array_equal(count_boards(assignments),
                                  count_boards_ray(assignments, num_shards=4))


def test_unreachable_cluster_fails_fast_and_clearly():
    start = time.perf_counter()
    with pytest.raises(ConnectionError, match="127.0.0.1:9"):
        simulate_ray("liars_dice", 10, address="127.0.0.1:9")
    assert time.perf_counter() - start < 30


@pytest.mark.parametrize("kwargs, message", [
    ({"num_threads": 2}, "cpus_per_shard"),
    ({"num_shards": 0}, "num_shards"),
    ({"cpus_per_shard": 0}, "cpus_per_shard"),
    ({"progress": "yes"}, "progress"),
    ({"address": "nowhere"}, "address"),
])
def test_bad_ray_options_are_named_before_connecting(kwargs, message):
    with pytest.raises((ValueError, TypeError), match=message):
        simulate_ray("liars_dice", 10, **kwargs)


def test_unknown_backend():
    with pytest.raises(ValueError, match="backend"):
        vecgames.simulate("liars_dice", 10, backend="spark")


def test_split_covers_the_run_in_order():
    job = simulation_module("hanabi").plan(10, seed=2, first_game=5)
    shards = job.split(4)
    assert [(s.first_game, s.num_games) for s in shards] == [(5, 2), (7, 3), (10, 2), (12, 3)]
    assert [s.num_games for s in job.split(50)] == [1] * 10
    assert shards[0] == replace(job, num_games=2)


def test_equity_vs_random_sharded(cluster):
    from vecgames.distributed import equity_vs_random_ray
    from vecgames.poker.preflop import equity_vs_random

    local = equity_vs_random([1, 3], samples=500, seed=2)
    sharded = equity_vs_random_ray([1, 3], samples=500, seed=2, num_shards=5)
    pd.testing.assert_frame_equal(local, sharded, check_exact=True)
    assert sharded["3_std_error"].gt(0).all()


# ---------------------------------------------------------------- the arena (vecgames.arena)


@pytest.mark.parametrize("game, players, options", [
    ("holdem", ["random", "call", "strength"], {"num_players": 2}),
    ("hanabi", ["random", "rules"], {}),
    ("liars_dice", ["heuristic", "first_legal"], {}),  # a callable: through play_games
])
def test_arena_ray_tables_equal_local(cluster, game, players, options):
    """backend="ray": matches cut into uneven shards give the one-machine tables bit for bit."""
    def first_legal(obs, action_mask):  # defined here: Ray's workers get it by value
        return action_mask.argmax(axis=1)

    players = [first_legal if p == "first_legal" else p for p in players]
    local = vecgames.arena(game, players, 301, seed=5, **options)
    sharded = vecgames.arena(game, players, 301, seed=5, backend="ray", num_shards=7, **options)
    for name, table in local.tables().items():
        pd.testing.assert_frame_equal(table, sharded.tables()[name], check_exact=True)
    pd.testing.assert_frame_equal(local.matches, sharded.matches, check_exact=True)
    with pytest.raises(ValueError, match="cpus_per_shard"):
        vecgames.arena(game, players, 10, backend="ray", num_threads=1, **options)
