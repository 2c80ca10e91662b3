"""``VecEnv.WAIT``: an env that waits does not move, and its games are the games it plays when
it never waits (the adapters rely on this to step some tables while others wait)."""

from __future__ import annotations

import numpy as np
import pytest

import vecgames

GAMES = [("zhajinhua", {}), ("holdem", {}), ("liars_dice", {"num_rounds": 2}),
         ("hanabi", {}), ("hanabi", {"observers": "all"}), ("dayaoguai", {}), ("kuhn_poker", {}),
         ("leduc_poker", {})]


@pytest.mark.parametrize("game, options", GAMES)
def test_waiting_envs_stand_still_and_play_the_same_games(game, options):
    envs, steps = 24, 200
    waits = vecgames.make(game, num_envs=envs, seed=3, **options)
    plain = vecgames.make(game, num_envs=envs, seed=3, **options)
    waits.reset()
    plain.reset()
    rng = np.random.default_rng(0)
    moves: list[list[int]] = [[] for _ in range(envs)]
    results: list[list[tuple]] = [[] for _ in range(envs)]
    for _ in range(steps):
        wait = rng.random(envs) < 0.5
        acts = np.array([rng.choice(np.flatnonzero(row)) for row in waits.action_mask])
        obs_before = np.array(waits._obs)
        mask_before = waits.action_mask.copy()
        obs, reward, terminated, truncated, info = waits.step(np.where(wait, waits.WAIT, acts))
        np.testing.assert_array_equal(obs[wait], obs_before[wait])
        np.testing.assert_array_equal(info["action_mask"][wait], mask_before[wait])
        assert not reward[wait].any() and not terminated[wait].any()
        assert not truncated[wait].any()
        if "illegal" in info:
            assert not info["illegal"][wait].any()
        for i in np.flatnonzero(~wait):
            moves[i].append(int(acts[i]))
            results[i].append((reward[i].copy(), bool(terminated[i]), obs[i].copy()))
    for k in range(min(len(m) for m in moves)):
        obs, reward, terminated, _, _ = plain.step(np.array([m[k] for m in moves]))
        for i in range(envs):
            r, t, o = results[i][k]
            np.testing.assert_array_equal(reward[i], r)
            assert terminated[i] == t
            np.testing.assert_array_equal(obs[i], o)


def test_wait_is_the_only_negative_action():
    env = vecgames.make("zhajinhua", num_envs=2)
    env.reset()
    with pytest.raises(ValueError, match=r"or -1 \(wait\); env 1 got -2"):
        env.step([0, -2])
