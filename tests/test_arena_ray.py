"""vecgames.arena(..., backend="ray") on a real single-node cluster: the same tables bit for
bit as the one-machine run, with matches cut into shards of uneven sizes."""

from __future__ import annotations

import pandas as pd
import pytest

import vecgames

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def cluster():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


@pytest.mark.parametrize("game, players, options", [
    ("holdem", ["random", "call", "strength"], {"num_players": 2}),
    ("hanabi", ["random", "rules"], {}),
])
def test_ray_tables_equal_local(cluster, game, players, options):
    local = vecgames.arena(game, players, 301, seed=5, **options)
    sharded = vecgames.arena(game, players, 301, seed=5, backend="ray", num_shards=7, **options)
    for name, table in local.tables().items():
        pd.testing.assert_frame_equal(table, sharded.tables()[name], check_exact=True)
    pd.testing.assert_frame_equal(local.matches, sharded.matches, check_exact=True)


def test_ray_refuses_local_threads(cluster):
    with pytest.raises(ValueError, match="cpus_per_shard"):
        vecgames.arena("liars_dice", ["random", "heuristic"], 10, backend="ray", num_threads=1)
