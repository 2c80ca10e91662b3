"""``play_tables``: several tables' games in one env, each table's frame that of
``play_games``, and a player seated at many tables asked once per step; ``VecEnv.deal``."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from test_play_games import SHORT, TABLES, hashed

import vecgames
from vecgames.policies.human import HumanPlayer
from vecgames.simulators.mixed import play_games, play_tables

FIRSTS = [0, 50, 0, 7]  # tables 0 and 2 share their deals (duplicate), the others do not


def tables_of(game: str, player) -> list[list]:
    """Four seatings of the game's built-in mix with ``player`` moved round the seats."""
    seats = TABLES[game]
    out = []
    for t in range(len(FIRSTS)):
        table = [seats[(t + s) % len(seats)] for s in range(len(seats))]
        table[t % len(seats)] = player
        out.append(table)
    return out


@pytest.mark.parametrize("game", sorted(TABLES))
def test_each_table_gives_play_games_frame(game):
    """Table t's frame is play_games' for its players and games, bit for bit, whatever the
    wave size (7 envs: waves cut across tables)."""
    options = {"num_players": len(TABLES[game]), **SHORT.get(game, {})}
    tables = tables_of(game, hashed)
    for envs in (None, 7):
        frames = play_tables(game, tables, 20, seed=5, first_game=FIRSTS, num_envs=envs,
                             **options)
        for table, first, got in zip(tables, FIRSTS, frames, strict=True):
            expected = play_games(game, table, 20, seed=5, first_game=first, **options)
            pd.testing.assert_frame_equal(got, expected)
            assert got.attrs == expected.attrs


class Counting:
    """A deterministic player that counts its calls and rows."""

    name = "counting"

    def __init__(self) -> None:
        self.calls = self.rows = 0

    def __call__(self, obs: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        self.calls += 1
        self.rows += len(obs)
        return hashed(obs, action_mask)


def test_a_player_at_many_tables_answers_once_per_step():
    """Eight tables, one env: the player is asked once per step for all its rows, not once
    per table; it answers the same rows as at the tables one by one."""
    tables_player, alone = Counting(), Counting()
    tables = [[tables_player, "heuristic", "random"][t % 3:] + [tables_player, "heuristic",
                                                                "random"][:t % 3]
              for t in range(8)]
    play_tables("zhajinhua", tables, 50, seed=2, first_game=0, num_players=3)
    for table in tables:
        play_games("zhajinhua", [alone if p is tables_player else p for p in table], 50,
                   seed=2, num_players=3)
    assert tables_player.rows == alone.rows
    assert tables_player.calls * 4 < alone.calls


def test_bad_input_raises_before_any_game():
    called = Counting()
    with pytest.raises(ValueError, match="first_game must be one int or one per table"):
        play_tables("zhajinhua", [[called] * 3, [called] * 3], 5, first_game=[0],
                    num_players=3)
    with pytest.raises(ValueError, match="at least one table"):
        play_tables("zhajinhua", [], 5)
    with pytest.raises(TypeError, match="tables must be a list"):
        play_tables("zhajinhua", "random", 5)
    with pytest.raises(ValueError, match="human player"):
        play_tables("zhajinhua", [[HumanPlayer("zhajinhua"), "random"]], 5, num_players=2)

    class Wants:  # a player that needs another observation layout than its neighbours
        name, game = "wants", "holdem"
        env_options = {"observation": "history"}

        def __call__(self, obs, mask):  # pragma: no cover - never asked
            raise AssertionError

    with pytest.raises(ValueError, match="different 'observation'"):
        play_tables("holdem", [[called, "call"], [Wants(), "call"]], 5, num_players=2)
    assert called.calls == 0


def test_deal_gives_each_env_the_stream_of_its_game():
    """``deal(games)`` deals env i what an env with ``env_offset = games[i]`` deals env 0."""
    env = vecgames.make("zhajinhua", num_envs=3, seed=9)
    obs, _ = env.deal(np.array([40, 3, 40]))
    for i, game in enumerate((40, 3, 40)):
        one = vecgames.make("zhajinhua", num_envs=1, seed=9, env_offset=game)
        expected, _ = one.reset()
        np.testing.assert_array_equal(obs[i], expected[0])
        np.testing.assert_array_equal(env.state.table[i], one.state.table[0])


def test_deal_refuses_bad_games_before_anything_changes():
    env = vecgames.make("zhajinhua", num_envs=2, seed=1)
    env.reset()
    before = env.state.table.copy()
    with pytest.raises(TypeError, match="integer game indices"):
        env.deal(np.array([0.0, 1.0]))
    with pytest.raises(ValueError, match="one index per env"):
        env.deal(np.array([0, 1, 2]))
    with pytest.raises(ValueError, match=r"indices in \[0, 2\*\*63\)"):
        env.deal(np.array([-1, 1]))
    np.testing.assert_array_equal(env.state.table, before)


def test_the_last_games_of_the_index_range_play():
    """Games up to 2**62 (the highest first_game) play to the end: the idle envs of the last
    wave are dealt numbers past it, which are never recorded."""
    df = play_games("kuhn_poker", "random", 3, first_game=2**62 - 2, num_envs=2)
    assert len(df) == 3
