"""``play_games`` and ``simulate(players=...)``: any mix of players through batched env.step."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

import vecgames
from vecgames.policies.builtin import BuiltinPlayer
from vecgames.simulators.mixed import play_games

# Per game: a mix of built-in players, one per seat (a deterministic one beside random ones).
# Da Yaoguai's games are cut at 300 steps: deterministic players can cycle for ever. Hold'em
# with a rotating button: simulate gives hand g the button g % n, the env's rotation restarts.
SHORT = {"dayaoguai": {"max_steps": 300}, "holdem": {"button": "rotate"}}
TABLES = {
    "zhajinhua": ["heuristic", "random", "random"],
    "holdem": ["strength", "call", "random"],
    "liars_dice": ["heuristic", "random"],
    "hanabi": ["rules", "random"],
    "dayaoguai": ["shed", "random", "pickup"],
}


def first_legal(obs: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
    """A deterministic Python player: the first legal action of each row."""
    return action_mask.argmax(1)


def hashed(obs: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
    """A deterministic Python player whose choice depends on the observation: the legal
    action at rank (a hash of the row) among the legal ones."""
    key = (obs * np.arange(1, obs.shape[1] + 1)).sum(1).astype(np.int64) & 0xFFFF
    legal = action_mask.sum(1)
    rank = key % legal
    order = np.cumsum(action_mask, axis=1) - 1
    return np.argmax(action_mask & (order == rank[:, None]), axis=1)


@pytest.mark.parametrize("game", sorted(TABLES))
def test_builtins_through_the_env_give_simulates_frame(game):
    """Env i of a wave plays game g from stream g, and built-in players draw from the env's
    stream as the kernels do: the same frame as the in-kernel run, bit for bit."""
    seats = TABLES[game]
    n = len(seats)
    options = {"num_players": n, **SHORT.get(game, {})}
    expected = vecgames.simulate(game, 40, players=seats, seed=7, **options)
    for envs in (40, 7):  # one wave, or several: the frame does not depend on it
        got = play_games(game, [BuiltinPlayer(game, s) for s in seats], 40, seed=7,
                         num_envs=envs, num_threads=1, **options)
        pd.testing.assert_frame_equal(got, expected)
        assert got.attrs == expected.attrs


def test_a_mix_gives_simulates_columns_and_labels():
    got = vecgames.simulate("zhajinhua", 30, players=[hashed, "heuristic", hashed], seed=1,
                            num_players=3, record_actions=True)
    ref = vecgames.simulate("zhajinhua", 30, policy="heuristic", seed=1, num_players=3)
    assert got.attrs["action_counts"].sum() == got["decisions"].sum()
    assert list(got.columns) == list(ref.columns)
    assert (got.dtypes == ref.dtypes).all()
    assert got.attrs["players"] == ["hashed", "heuristic", "hashed"]
    assert got[[f"chips_{p}" for p in range(3)]].sum(axis=1).eq(0).all()  # zero-sum
    assert not got.equals(ref)  # the Python seats did play


@pytest.mark.parametrize("game", ["holdem", "liars_dice"])
def test_same_games_for_any_batch_and_thread_count(game):
    seats = [hashed, TABLES[game][0]]
    frames = [play_games(game, seats, 24, seed=5, num_envs=envs, num_threads=threads,
                         num_players=2)
              for envs, threads in ((24, 1), (5, 2), (11, 1))]
    for other in frames[1:]:
        pd.testing.assert_frame_equal(frames[0], other)


def test_first_game_shards_join_into_the_run():
    whole = play_games("dayaoguai", hashed, 20, seed=2, num_envs=8, num_threads=1,
                       **SHORT["dayaoguai"])
    parts = [play_games("dayaoguai", hashed, k, seed=2, first_game=lo, num_envs=8, num_threads=1,
                        **SHORT["dayaoguai"])
             for lo, k in ((0, 9), (9, 11))]
    pd.testing.assert_frame_equal(pd.concat(parts, ignore_index=True), whole,
                                  check_categorical=False)


def test_illegal_action_falls_under_the_env_contract():
    def cheater(obs, action_mask):
        return (~action_mask).argmax(1)  # an illegal action wherever there is one

    with pytest.raises(ValueError, match=r"player 'cheater': liars_dice env \d+: action \d+ .*"
                                         r"illegal for player \d .*legal actions"):
        play_games("liars_dice", [cheater, "random"], 4, seed=0)


def test_bad_player_output_is_refused():
    with pytest.raises(TypeError, match="player 'floats' must return integer actions"):
        play_games("hanabi", vecgames.policies.protocol.CallablePlayer(
            lambda o, m: np.zeros(len(o)), name="floats"), 2)
    with pytest.raises(ValueError, match="must return 3 actions"):
        play_games("hanabi", lambda o, m: np.zeros(1, np.int64), 3, num_envs=3)


    class Pairs:  # a user's act_env answering with Hold'em (kind, raise-to) pairs: checked
        name = "pairs"

        def act_env(self, env, rows):
            return np.tile([2, 10_000], (rows.size, 1))

        def __call__(self, obs, mask):
            raise AssertionError("act_env is used")

    with pytest.raises(ValueError, match="player 'pairs': .*bet/raise to 10000 is illegal"):
        play_games("holdem", [Pairs(), "call"], 2, num_players=2)


def test_bad_input_raises_before_any_game():
    calls = []

    def spy(obs, action_mask):
        calls.append(len(obs))
        return first_legal(obs, action_mask)

    with pytest.raises(ValueError, match="policy or players, not both"):
        vecgames.simulate("hanabi", 2, policy="random", players=spy)
    hanabi_players = re.escape(str(tuple(vecgames.players("hanabi"))))  # every built-in
    with pytest.raises(ValueError, match=r"unknown player 'bogus'.*" + hanabi_players):
        vecgames.simulate("hanabi", 2, players=[spy, "bogus"])
    with pytest.raises(ValueError, match=r"list of 2 \(one per seat"):
        vecgames.simulate("hanabi", 2, players=[spy, spy, spy])
    with pytest.raises(ValueError, match=r"players must be .* list of 2 .*, got 0"):
        vecgames.simulate("hanabi", 2, players=[])
    with pytest.raises(ValueError, match="'human' sits at 2 seats"):
        vecgames.simulate("hanabi", 2, players="human")
    with pytest.raises(ValueError, match="'uniform' plays only in simulate's kernels"):
        vecgames.simulate("zhajinhua", 2, players=[spy, "uniform"], num_players=2)
    spy.game = "holdem"
    with pytest.raises(ValueError, match="player 'spy' plays holdem, not hanabi"):
        vecgames.simulate("hanabi", 2, players=spy)
    spy.game, spy.obs_dim = "hanabi", 12
    with pytest.raises(ValueError, match=r"12 values, but hanabi .* has 658"):
        vecgames.simulate("hanabi", 2, players=spy)
    spy.obs_dim, spy.env_options = None, {"num_players": 3}
    with pytest.raises(ValueError, match="needs num_players=3, but the call has num_players=2"):
        vecgames.simulate("hanabi", 2, players=spy, num_players=2)
    with pytest.raises(ValueError, match="does not take 'illegal'"):
        play_games("hanabi", spy, 2, illegal="penalty")
    with pytest.raises(ValueError, match="backend='ray' plays built-in players only"):
        vecgames.simulate("hanabi", 2, players=spy, backend="ray")
    assert calls == []


def test_env_options_of_a_player_shape_the_table():
    def three_seats(obs, action_mask):
        return first_legal(obs, action_mask)

    three_seats.env_options = {"num_players": 3}
    df = vecgames.simulate("hanabi", 3, players=three_seats, seed=0)
    assert df.attrs["players"] == ["three_seats"] * 3


def test_stateful_players_hear_when_games_end():
    class Counter:
        name = "counter"

        def __init__(self):
            self.ended = 0

        def __call__(self, obs, action_mask):
            return first_legal(obs, action_mask)

        def reset_games(self, rows):
            self.ended += len(rows)

    player = Counter()
    play_games("liars_dice", [player, "heuristic"], 10, seed=0, num_envs=4)
    assert player.ended == 10


def test_builtin_names_keep_the_kernel_path():
    via_players = vecgames.simulate("liars_dice", 50, players=["heuristic", "random"], seed=4)
    via_policy = vecgames.simulate("liars_dice", 50, policy=["heuristic", "random"], seed=4)
    pd.testing.assert_frame_equal(via_players, via_policy)
    assert via_players.attrs["players"] == ["heuristic", "random"]
