"""Any split of a simulate job into shards, run one by one and merged, is the whole run: the
property the Ray backend stands on, checked here without Ray for every game."""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from vecgames.api import simulation_module
from vecgames.core.simulation import merge_outputs
from vecgames.games.catalog import game_names

GAMES = game_names()
OPTIONS: dict[str, dict] = {"zhajinhua": {"record_actions": True}, "holdem": {"num_players": 3},
           "liars_dice": {"num_rounds": 2}, "hanabi": {}, "dayaoguai": {}}


@settings(max_examples=25, deadline=None)
@given(game=st.sampled_from(sorted(GAMES)), num_games=st.integers(1, 200),
       first_game=st.integers(0, 10**12), shards=st.integers(1, 9), summary=st.booleans(),
       seed=st.integers(0, 2**64 - 1))
def test_any_split_merges_to_the_whole_run(game, num_games, first_game, shards, summary, seed):
    module = simulation_module(game)
    job = module.plan(num_games, seed=seed, summary=summary, first_game=first_game,
                      **OPTIONS.get(game, {}))
    parts = job.split(shards)
    assert [p.first_game for p in parts][0] == first_game
    assert sum(p.num_games for p in parts) == num_games
    ends = [p.first_game + p.num_games for p in parts]
    assert [p.first_game for p in parts[1:]] == ends[:-1]
    whole = module.frame(job, module.run(job))
    merged = module.frame(job, merge_outputs([module.run(p) for p in parts]))
    pd.testing.assert_frame_equal(whole, merged, check_exact=True)
    for key, value in whole.attrs.items():
        np.testing.assert_array_equal(np.asarray(value, object),
                                      np.asarray(merged.attrs[key], object), key)
