"""The lockstep engine (all-random tables, eight hands per vector step) plays the same hands
as the scalar engine, hand for hand, under every rule option."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import vecgames
from vecgames.games.holdem.simulate import plan, run


def _both(num_games, seed, summary, **options):
    results = []
    for lockstep in (True, False):
        job = plan(num_games, "random", seed, summary, **options)
        job.params["lockstep"] = lockstep
        results.append(run(job))
    return results


def _assert_same(a, b):
    assert a.keys() == b.keys()
    for key in a:
        np.testing.assert_array_equal(a[key], b[key], err_msg=key)


@pytest.mark.parametrize("options", [
    {},
    {"num_players": 2},
    {"num_players": 10, "button": "rotate"},
    {"num_players": 3, "stack": [50, 100, 7]},
    {"num_players": 9, "stack": [50, 100, 200, 30, 80, 100, 100, 20, 60]},
    {"short_stack": "fold", "stack": [1, 3, 100, 50, 2, 9]},
    {"num_players": 4, "small_blind": 0, "big_blind": 5, "stack": [5, 4, 60, 2]},
    {"num_players": 2, "stack": [1, 1]},
    {"num_players": 3, "stack": [2, 1, 1], "short_stack": "fold"},
])
@pytest.mark.parametrize("summary", [False, True])
def test_lockstep_plays_the_scalar_engines_hands(options, summary):
    # 3001 hands: 64 runs of 46-47 hands, so lanes go idle at different times in every run
    lockstep, scalar = _both(3001, 11, summary, **options)
    _assert_same(lockstep, scalar)


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 10).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.integers(1, 300), min_size=n, max_size=n), st.integers(0, 4),
    st.integers(1, 8), st.sampled_from(["all-in", "fold"]), st.sampled_from(["random", "rotate"]),
    st.integers(0, 2**64 - 1), st.integers(1, 300))))
def test_lockstep_matches_scalar_on_random_tables(table):
    n, stacks, small, big, short_stack, button, seed, num_games = table
    lockstep, scalar = _both(num_games, seed, False, num_players=n, stack=stacks,
                             small_blind=min(small, big), big_blind=big,
                             short_stack=short_stack, button=button)
    _assert_same(lockstep, scalar)


def test_summary_equals_rows_and_mixed_tables_stay_scalar():
    rows = vecgames.simulate("holdem", 5000, seed=3)
    summary = vecgames.simulate("holdem", 5000, seed=3, summary=True)
    chips = rows[[f"chips_{p}" for p in range(6)]].to_numpy()
    np.testing.assert_allclose(summary["mean_chips"], chips.mean(axis=0))
    assert summary.attrs["showdowns"] == int(rows["showdown"].sum())
    # one seat not random: the scalar engine plays it (the same hands either way)
    mixed = ["random"] * 5 + ["call"]
    job = plan(500, mixed, 3)
    job.params["lockstep"] = True
    a = run(job)
    job.params["lockstep"] = False
    _assert_same(a, run(job))
