"""The Hanabi env against JaxMARL 0.2.0's golden games (tests/fixtures/hanabi, written by
tools/make_hanabi_fixtures.py; no JAX needed here), and its contract."""

from __future__ import annotations

import sys
from pathlib import Path

import numba
import numpy as np
import pytest

import vecgames
from vecgames.games.hanabi import action_name
from vecgames.games.hanabi.rules import field, hands

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
from make_hanabi_fixtures import deck_onehot, load_game  # noqa: E402

FIXTURES = sorted((ROOT / "tests" / "fixtures" / "hanabi").glob("*.npz"))


def test_fixtures_cover_every_player_count_and_ending():
    games = [load_game(p) for p in FIXTURES]
    assert sorted({int(g["num_players"]) for g in games}) == [2, 3, 4, 5]
    assert {str(g["end_reason"]) for g in games} == {"lives", "deck", "won"}


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_same_game_as_jaxmarl(path):
    g = load_game(path)
    players = int(g["num_players"])
    env = vecgames.make("hanabi", num_envs=2, num_players=players, observers="all", seed=1)
    assert env.obs_dim == int(g["obs_dim"]) and env.num_actions == int(g["num_actions"])
    # card ids on a fresh env, then JaxMARL's one-hot deck: the same game
    obs, info = env.reset_from_deck(np.stack([g["deck"], g["deck"]]).astype(np.int64))
    np.testing.assert_array_equal(obs[0], g["obs"][0])
    obs, info = env.reset_from_deck(np.stack([deck_onehot(g["deck"])] * 2))
    steps = len(g["actions"])
    for t in range(steps):
        for i in range(2):
            np.testing.assert_array_equal(obs[i], g["obs"][t], err_msg=f"obs, step {t}")
            np.testing.assert_array_equal(info["legal_moves"][i], g["legal"][t])
            assert info["current_player"][i] == g["current_player"][t]
        obs, reward, term, trunc, info = env.step(np.stack([g["actions"][t]] * 2))
        assert not info["illegal"].any() and not trunc.any()
        np.testing.assert_array_equal(reward, np.stack([g["rewards"][t, :players]] * 2))
        assert (term == g["dones"][t, -1]).all()
    assert term.all()  # the final observation is the next game's (same-step auto-reset)
    final = int(g["score"][-1])
    assert (info["score"] == final).all()
    assert vecgames.games.hanabi.END_NAMES[info["end"][0]] == {
        "lives": "lives", "deck": "deck", "won": "perfect"}[str(g["end_reason"])]


def test_observation_options():
    env = vecgames.make("hanabi", num_envs=3, num_players=4, seed=2)
    obs, info = env.reset()
    assert obs.shape == (3, 1041) and info["action_mask"].shape == (3, 4 * 2 + 31)
    everyone = vecgames.make("hanabi", num_envs=3, num_players=4, seed=2, observers="all")
    all_obs, _ = everyone.reset()
    np.testing.assert_array_equal(all_obs[:, 0], obs)  # seat 0 acts first
    hle = vecgames.make("hanabi", num_envs=3, num_players=4, seed=2, obs="hle")
    hle_obs, _ = hle.reset()
    belief = slice(1041 - 4 * 4 * 35, 1041)
    np.testing.assert_array_equal(hle_obs[:, :belief.start], obs[:, :belief.start])
    np.testing.assert_array_equal(hle_obs[:, belief] > 0, obs[:, belief] > 0)
    assert set(np.unique(hle_obs)) <= {0.0, 1.0}


def test_seed1680_layout():
    env = vecgames.make("hanabi", num_envs=1, seed=3, obs="seed1680")
    obs, info = env.reset()
    deck = env.state.deck[0].astype(np.int64)
    o = obs[0]
    assert o.shape == (1680,)
    assert (o[:125] == 1).all() and not o[125:175].any()  # nothing known, nothing hinted
    other = o[175:300].reshape(5, 25)
    np.testing.assert_array_equal(other.argmax(axis=1), deck[5:10])  # seat 1's hand
    assert not o[300:325].any() and o[325:333].sum() == 8 and o[333:336].sum() == 3
    assert not o[336:378].any() and o[378] == 1 and o[379] == 0
    assert not o[380:1630].any() and o[1630:].sum() == 40
    # seat 0 hints the colour of seat 1's first card (at 8 tokens discarding is illegal)
    hint = 10 + deck[5] // 5
    obs, *_ = env.step([hint])
    o = obs[0]  # seat 1's view now
    assert o[378 + 1] == 1 and o[336 + hint] == 1 and o[336 + 21 + 20] == 1  # seat 1: no-op
    colors = o[125:175].reshape(5, 10)[:, :5]
    touched = [k for k in range(5) if deck[5 + k] // 5 == deck[5] // 5]
    assert sorted(np.flatnonzero(colors.any(axis=1))) == touched
    obs, *_ = env.step([0])  # seat 1 discards slot 0
    o = obs[0]
    np.testing.assert_array_equal(o[380:405], np.eye(25)[deck[5]])
    assert o[1630:].sum() == 39 and o[325:333].sum() == 8


def test_illegal_actions_and_bad_input():
    env = vecgames.make("hanabi", num_envs=2, seed=4)
    obs, info = env.reset()
    before = env.state.table.copy()
    with pytest.raises(ValueError, match=r"hanabi env 0: action 0 \(discard"):
        env.step([0, 20])  # discard at 8 tokens; the no-op
    np.testing.assert_array_equal(env.state.table, before)
    env = vecgames.make("hanabi", num_envs=2, seed=4, illegal="penalty")
    obs, info = env.reset()
    obs, reward, term, trunc, info = env.step([0, 20])
    assert info["illegal"].all() and not reward.any()
    np.testing.assert_array_equal(env.state.table, before)
    with pytest.raises(ValueError, match="actions must be in"):
        env.step([0, 21])
    with pytest.raises(ValueError, match="num_players"):
        vecgames.make("hanabi", num_players=6)
    with pytest.raises(ValueError, match="seed1680"):
        vecgames.make("hanabi", num_players=3, obs="seed1680")
    with pytest.raises(ValueError, match="obs"):
        vecgames.make("hanabi", obs="pixels")
    with pytest.raises(ValueError, match="not a full Hanabi deck"):
        env.reset_from_deck(np.zeros((2, 50), int))
    with pytest.raises(ValueError, match="shape"):
        env.reset_from_deck(np.zeros((3, 50), int))


def test_same_games_on_one_and_two_threads():
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("needs 2 Numba threads")
    traces = []
    for threads in (1, 2):
        numba.set_num_threads(threads)
        try:
            env = vecgames.make("hanabi", num_envs=65, num_players=3, seed=8)
            obs, info = env.reset()
            rng = np.random.default_rng(0)
            trace = [obs.copy()]
            for _ in range(120):
                actions = [rng.choice(np.flatnonzero(m)) for m in info["action_mask"]]
                obs, reward, *_, info = env.step(actions)
                trace += [obs.copy(), reward.copy()]
            df = vecgames.simulate("hanabi", 2000, seed=8, num_players=3, policy="rules")
            traces.append((trace, df))
        finally:
            numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    for a, b in zip(traces[0][0], traces[1][0], strict=True):
        np.testing.assert_array_equal(a, b)
    assert traces[0][1].equals(traces[1][1])


def test_render_and_names():
    env = vecgames.make("hanabi", num_envs=1, seed=5)
    env.reset()
    text = env.render(0)
    assert "seat 1:" in text and "info 8, lives 3, deck 40" in text
    r = env.rules
    assert action_name(0, r) == "discard 0" and action_name(5, r) == "play 0"
    assert action_name(10, r) == "hint +1 R" and action_name(19, r) == "hint +1 rank 5"
    assert action_name(20, r) == "no-op"
    assert hands(env.state)[0, 0, 0] == env.state.deck[0, 0]
    assert field(env.state, "info")[0] == 8


def test_jaxmarl_facade_replays_a_golden_game():
    from vecgames.games.hanabi import jaxmarl

    g = load_game(next(p for p in FIXTURES if p.stem == "p3_mixed0"))
    env = jaxmarl.make("hanabi", num_agents=3, num_envs=1)
    assert env.agents == ["agent_0", "agent_1", "agent_2"]
    assert env.action_space(env.agents[0]).n == int(g["num_actions"])
    assert env.observation_space(env.agents[0]).shape == (int(g["obs_dim"]),)
    obs, state = env.reset_from_deck(deck_onehot(g["deck"]))
    for t in range(len(g["actions"])):
        legal = env.get_legal_moves(state)
        for k, agent in enumerate(env.agents):
            np.testing.assert_array_equal(obs[agent][0], g["obs"][t, k])
            np.testing.assert_array_equal(legal[agent][0], g["legal"][t, k])
        actions = {a: np.array([g["actions"][t, k]]) for k, a in enumerate(env.agents)}
        obs, state, rewards, dones, infos = env.step(None, state, actions)
        assert rewards["__all__"][0] == g["rewards"][t, -1]
        assert dones["__all__"][0] == g["dones"][t, -1]
        assert all(rewards[a][0] == rewards["__all__"][0] for a in env.agents)
    with pytest.raises(ValueError, match="missing"):
        env.step(None, state, {"agent_0": np.array([0])})
