"""``obs="seed"``: the seed's attributes c1..c12 (issue 22), against the reference engine.

The env's seed observation must equal ``Game.seed_observation()`` (built from the reference's
own list of decisions) at every step of random play, and must not depend on any card the player
to act has not seen (its own while blind, every other seat's unless it compared with it).
"""

from __future__ import annotations

import numpy as np
import pytest
from zhajinhua_reference import SEED_OBS_DIM, Game

import vecgames
from vecgames.games.zhajinhua.observe_seed import observe_seed
from vecgames.games.zhajinhua.rules import field


def reference_game(env, i: int, opts: dict) -> Game:
    n = env.num_players
    deck = env.state.deck[i]
    rules = {k: v for k, v in opts.items() if k != "first_player"}
    return Game([deck[3 * p:3 * p + 3] for p in range(n)], int(field(env.state, "first")[i]),
                **rules)


def random_actions(rng: np.random.Generator, mask: np.ndarray, illegal_p: float) -> np.ndarray:
    """Random legal actions, now and then any action (refused in penalty mode)."""
    legal = (rng.random(mask.shape) * mask).argmax(1)
    anything = rng.integers(0, mask.shape[1], mask.shape[0])
    return np.where(rng.random(mask.shape[0]) < illegal_p, anything, legal)


def assert_same(got: np.ndarray, want: np.ndarray, where: str) -> None:
    bad = np.flatnonzero(got != want)
    assert bad.size == 0, f"{where}: differs at {bad[:10].tolist()}"


@pytest.mark.parametrize("opts, seed", [
    ({}, 0),
    ({"num_players": 3, "max_rounds": 4, "no_compare_rounds": 0, "ante": 0}, 7),
    ({"num_players": 2, "max_rounds": 20, "first_player": 1, "special_235": True}, 11),
    ({"num_players": 5, "max_rounds": 2, "no_compare_rounds": 0, "a23": "second"}, 12),
])
def test_seed_obs_matches_reference(opts, seed):
    num_envs = 6
    env = vecgames.make("zhajinhua", num_envs=num_envs, seed=seed, obs="seed",
                        illegal="penalty", **opts)
    assert env.obs_dim == SEED_OBS_DIM
    obs, info = env.reset()
    games = [reference_game(env, i, opts) for i in range(num_envs)]
    rng = np.random.default_rng(seed)
    ended = 0
    for step in range(200):
        for i, g in enumerate(games):
            assert_same(obs[i], g.seed_observation(), f"step {step} env {i}")
        actions = random_actions(rng, info["action_mask"], 0.05)
        obs, reward, terminated, _, info = env.step(actions)
        for i in range(num_envs):
            if info["illegal"][i]:
                continue
            res = games[i].step(int(actions[i]))
            np.testing.assert_array_equal(reward[i], res.reward.astype(np.float32))
            assert terminated[i] == res.done
            if res.done:  # the history starts over with the next deal
                ended += 1
                games[i] = reference_game(env, i, opts)
    assert ended >= num_envs
    assert obs.min() >= 0.0 and obs.max() <= 1.0


def test_seed_obs_never_shows_unseen_cards():
    """Redeal every card the player to act has not seen: its seed observation stays the same
    (and its own cards are visible once it looked, a compared seat's after the compare)."""
    env = vecgames.make("zhajinhua", num_envs=64, seed=5, obs="seed", no_compare_rounds=0)
    obs, info = env.reset()
    rng = np.random.default_rng(5)
    n, own, compared = env.num_players, 0, 0
    out = np.zeros(SEED_OBS_DIM, np.float32)
    for _ in range(60):
        obs, _, _, _, info = env.step(random_actions(rng, info["action_mask"], 0.0))
        for i in range(0, env.num_envs, 4):
            p = int(info["current_player"][i])
            seen = int(field(env.state, "seen")[i])
            visible = int(field(env.state, "known")[i, p]) | (((seen >> p) & 1) << p)
            deck, table = env.state.deck[i].copy(), env.state.table[i].copy()
            others = [q for q in range(n) if not (visible >> q) & 1]
            hidden = [c for q in others for c in range(3 * q, 3 * q + 3)]
            spare = list(range(3 * n, 52))
            env.state.deck[i, hidden] = deck[rng.choice(spare, len(hidden), replace=False)]
            field(env.state, "strength")[i, others] = rng.integers(0, 6 << 12, len(others))
            observe_seed(env.state, i, env.rules, env._history[i], out)
            env.state.deck[i], env.state.table[i] = deck, table
            assert_same(out, obs[i], f"env {i}")
            own += (visible >> p) & 1
            compared += (visible & ~(1 << p)) != 0
    assert own > 50 and compared > 50  # seen cards were in play: not a vacuous check


def test_obs_choice_and_its_limits():
    default = vecgames.make("zhajinhua", num_envs=2)
    assert default.obs == "default" and default.obs_dim == 256
    assert vecgames.make("zhajinhua", num_envs=2, obs="seed").obs_dim == SEED_OBS_DIM
    with pytest.raises(ValueError, match="obs"):
        vecgames.make("zhajinhua", obs="seed1680")
    with pytest.raises(ValueError, match="obs"):
        vecgames.make("zhajinhua", obs=1)
    with pytest.raises(ValueError, match="max_rounds <= 20"):
        vecgames.make("zhajinhua", obs="seed", max_rounds=21)
    info = {g.name: g for g in vecgames.list_games()}["zhajinhua"]
    assert info.obs_dim == {"default": 256, "seed": SEED_OBS_DIM}
