"""Argument checks found in review: each names the argument and changes nothing."""

import numpy as np
import pytest

import vecgames


def test_render_and_legal_actions_need_reset():
    env = vecgames.make("zhajinhua", num_envs=2, seed=0)
    with pytest.raises(RuntimeError, match="reset"):
        env.render(0)
    with pytest.raises(RuntimeError, match="reset"):
        env.legal_actions(0)
    env.reset()
    assert "seat 0" in env.render(0)
    assert env.legal_actions(0) == [0, 1]  # a fresh game opens with a blind look phase


@pytest.mark.parametrize("policy", [5, 2.5, b"random"])
def test_simulate_policy_type(policy):
    with pytest.raises(TypeError, match="policy"):
        vecgames.simulate("zhajinhua", 10, policy=policy)


def test_game_simulate_needs_a_policy():
    """None means the default player only in ``vecgames.simulate``, not in a game's module."""
    from vecgames.games.zhajinhua.simulate import simulate

    with pytest.raises(TypeError, match="policy"):
        simulate(10, policy=None)


def test_option_given_as_array():
    with pytest.raises(ValueError, match="a23"):
        vecgames.make("zhajinhua", a23=np.array(["lowest", "second"]))


def test_summary_std_survives_large_totals():
    # with a large ante the sum of squared chips of 2 M games passes 2**63
    big = vecgames.simulate("zhajinhua", 2_000_000, summary=True, ante=10**6, seed=3)
    games = vecgames.simulate("zhajinhua", 100_000, ante=10**6, seed=3)
    per_game = games.filter(like="chips_").to_numpy().std(axis=0)
    assert np.allclose(big["std_chips"].to_numpy(), per_game, rtol=0.02)


@pytest.mark.parametrize("players", [None, "random", 0])
def test_simulate_backend_is_checked_first(players):
    """A backend that is not 'local' or 'ray' is named whatever the players (found by
    tests/test_fuzz_entry_points.py: an array backend with a bad players value)."""
    with pytest.raises(ValueError, match="backend must be 'local' or 'ray'"):
        vecgames.simulate("zhajinhua", 10, players=players, backend=np.array([1, 2]))
