"""The Zha Jin Hua ``percentile`` player: its exact percentile table, legality, determinism,
and that it beats ``heuristic`` heads-up (small duplicate-deal arena, fixed seed)."""

from __future__ import annotations

import numpy as np
import pandas as pd

import vecgames
import vecgames.games.zhajinhua  # noqa: F401  # before its policies (they import its rules)
from vecgames.games.zhajinhua import players as zhajinhua
from vecgames.games.zhajinhua.players_percentile import PERCENTILE, _all_strengths
from vecgames.poker.three_card import MAX_STRENGTH


def test_existing_players_keep_their_codes():
    assert zhajinhua.POLICIES[:3] == ("random", "uniform", "heuristic")
    assert zhajinhua.POLICIES[zhajinhua.PERCENTILE_PLAYER] == "percentile"


def test_percentile_table_is_exact():
    for second in (0, 1):
        s = _all_strengths(second)
        assert s.size == 22_100
        share = PERCENTILE[second, s]
        assert abs(share.mean() - 0.5) < 1e-12  # ties half: every pair of hands splits 1
        # three aces: beats all but the 3 other hands of three aces (itself among the 4)
        assert PERCENTILE[second, MAX_STRENGTH] == 1 - 0.5 * 4 / 22_100
        order = np.argsort(s, kind="stable")
        assert np.all(np.diff(share[order]) >= 0)  # stronger hands, higher percentile
        weakest = s.min()
        assert PERCENTILE[second, weakest] == 0.5 * np.count_nonzero(s == weakest) / 22_100


def test_percentile_plays_legally_and_deterministically():
    for seats in (2, 6):
        df = vecgames.simulate("zhajinhua", 3000, policy="percentile", seed=3, num_players=seats)
        assert not (df["end"] == "illegal").any()
        again = vecgames.simulate("zhajinhua", 3000, policy="percentile", seed=3,
                                  num_players=seats)
        pd.testing.assert_frame_equal(df, again)
    mixed = vecgames.simulate("zhajinhua", 3000, policy=["percentile", "heuristic", "random"],
                              seed=4, num_players=3)
    assert not (mixed["end"] == "illegal").any()


def test_percentile_beats_heuristic_heads_up():
    result = vecgames.arena("zhajinhua", ["percentile", "heuristic"], 4000, seed=7,
                            num_players=2)
    row = result.pairwise.set_index(["player", "opponent"]).loc[("percentile", "heuristic")]
    assert row["ci_low"] > 0
