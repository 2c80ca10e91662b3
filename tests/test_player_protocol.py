"""The player protocol: what counts as a player, how specs resolve, built-ins over an env."""

from __future__ import annotations

import re

import numpy as np
import pytest

import vecgames
from vecgames.policies.builtin import BuiltinPlayer
from vecgames.policies.protocol import CallablePlayer, resolve_players, unique_labels


class MyPlayer:
    """A user's own class: no vecgames import needed, only ``__call__``."""

    name = "mine"

    def __call__(self, obs, action_mask):
        return action_mask.argmax(1)


def test_anything_batched_and_callable_is_a_player():
    assert isinstance(MyPlayer(), vecgames.Player)
    assert isinstance(lambda obs, mask: mask.argmax(1), vecgames.Player)
    assert not isinstance("random", vecgames.Player)
    named = CallablePlayer(lambda o, m: m.argmax(1), name="argmax")
    assert named.name == "argmax"
    assert named(np.zeros((2, 3), np.float32), np.eye(2, 3, 1, dtype=bool)).tolist() == [1, 2]


def test_resolve_one_for_every_seat_or_one_per_seat():
    me = MyPlayer()
    seats = resolve_players("hanabi", me, 3)
    assert seats == [me] * 3
    seats = resolve_players("zhajinhua", ["random", me, "random"], 3)
    assert isinstance(seats[0], BuiltinPlayer) and seats[0].builtin == "random"
    assert seats[0] is seats[2]  # the same name: one player, one batched call
    assert unique_labels([seats[0], me, CallablePlayer(me)]) == ["random", "mine", "mine#2"]
    with pytest.raises(ValueError, match=r"list of 3 \(one per seat\), got 2"):
        resolve_players("zhajinhua", ["random", me], 3)
    with pytest.raises(ValueError, match=r"unknown player 'nope' for holdem.*'strength'.*"
                                         r"'human'.*existing checkpoint"):
        resolve_players("holdem", ["random", "nope"], 2)
    assert type(resolve_players("hanabi", "human", 2)[0]).__name__ == "HumanPlayer"
    with pytest.raises(TypeError, match="a player must be"):
        resolve_players("holdem", [1, "random"], 2)
    with pytest.raises(ValueError, match="unknown game"):
        resolve_players("chess", "random", 2)


def test_builtin_player_acts_like_the_kernel_policy():
    """``act_env`` on a subset of rows draws from those envs' streams only, as the kernels'
    policies do: the liars_dice helper over all envs gives the same actions."""
    env = vecgames.make("liars_dice", num_envs=6, seed=3)
    env.reset()
    streams = env.state.rng.copy()
    player = BuiltinPlayer("liars_dice", "random")
    rows = np.array([1, 4])
    got = player.act_env(env, rows)
    assert env.action_mask[rows, got].all()
    moved = np.flatnonzero(env.state.rng != streams)
    assert moved.tolist() == [1, 4]  # the other envs' streams untouched
    env.state.rng[:] = streams
    from vecgames.games.liars_dice.players import env_actions

    np.testing.assert_array_equal(env_actions(env, "random")[rows], got)
    with pytest.raises(TypeError, match="reads the env's state"):
        player(np.zeros((1, 1)), np.ones((1, 1), bool))


def test_builtin_player_bad_input():
    hanabi_players = re.escape(str(tuple(vecgames.players("hanabi"))))  # every built-in
    with pytest.raises(ValueError, match=r"unknown built-in player 'x'.*" + hanabi_players):
        BuiltinPlayer("hanabi", "x")
    with pytest.raises(ValueError, match="threshold: hanabi's players take none"):
        BuiltinPlayer("hanabi", "rules", threshold=0.3)
    with pytest.raises(ValueError, match=r"threshold must be in \[0, 1\]"):
        BuiltinPlayer("liars_dice", "heuristic", threshold=3)
    assert BuiltinPlayer("holdem", "call") == BuiltinPlayer("holdem", "call")
    assert BuiltinPlayer("zhajinhua", "uniform").kernel_only
