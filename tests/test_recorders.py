"""The recorders (``vecgames.games.<game>.record``): simulate's frame from env-driven games.

Env i reset with ``env_offset = g`` deals game g from simulate's stream of game g, and a
built-in player's ``act_env`` draws from that env's stream as the kernel does, so built-in
players stepping the env reproduce ``simulate`` bit for bit: every column, dtype, row and attr.
The loop here is the smallest runner (one wave, finished envs wait) so that these tests check
the recorders alone.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pandas as pd
import pytest

import vecgames
from vecgames.core.simulation import numba_threads
from vecgames.games.catalog import spec_of
from vecgames.policies.builtin import BuiltinPlayer

GAMES = 40


@pytest.fixture(autouse=True)
def one_thread() -> Iterator[None]:
    """Each step launches a few small parallel kernels; on a loaded 2-core machine a launch
    on 2 threads took 20 ms against well under 1 ms on one (results do not depend on it)."""
    with numba_threads(1):
        yield


def recorder(game: str, env: Any, num_games: int, **kwargs: Any) -> Any:
    return spec_of(game).load("record").Recorder(
        env, num_games, **kwargs)


def play(game: str, policies: list[str], num_games: int = GAMES, seed: int = 0,
         first_game: int = 0, record_actions: bool = False, illegal_first: int | None = None,
         **options: Any) -> pd.DataFrame:
    """Games first_game .. first_game + num_games - 1 with built-in ``policies`` (one per
    seat) in one wave of envs; ``illegal_first``: first give every env that illegal action
    (under ``illegal="penalty"``: nothing moves, nothing may be recorded)."""
    illegal = "raise" if illegal_first is None else "penalty"
    env = vecgames.make(game, num_envs=num_games, seed=seed, env_offset=first_game,
                        illegal=illegal, **options)
    players = [BuiltinPlayer(game, name) for name in policies]
    rec = recorder(game, env, num_games, record_actions=record_actions, first_game=first_game,
                   seed=seed)
    env.reset(seed=seed)
    ids = np.arange(num_games)
    if illegal_first is not None:
        actions = np.full(num_games, illegal_first)
        rec.before_step(env, actions, ids)
        _, reward, terminated, truncated, info = env.step(actions)
        assert info["illegal"].all()
        rec.after_step(env, reward, terminated, truncated, info, ids)
    while (ids >= 0).any():
        current = env.current_player
        actions = np.full(num_games, -1, np.int64)
        amounts = np.zeros(num_games, np.int64)
        for seat, player in enumerate(players):
            # Hold'em's exact actions have no WAIT: finished envs play on, unrecorded
            rows = np.flatnonzero((current == seat) & ((ids >= 0) | (game == "holdem")))
            chosen = player.act_env(env, rows)
            if game == "holdem":
                actions[rows], amounts[rows] = chosen[:, 0], chosen[:, 1]
            else:
                actions[rows] = chosen
        rec.before_step(env, np.where(ids >= 0, actions, -1), ids)
        if game == "holdem":
            _, reward, terminated, truncated, info = env.step_amounts(actions, amounts)
        else:
            _, reward, terminated, truncated, info = env.step(actions)
        rec.after_step(env, reward, terminated, truncated, info, ids)
        ids[terminated | truncated] = -1
    return rec.frame(players=policies)


def assert_same(df: pd.DataFrame, ref: pd.DataFrame, policies: list[str]) -> None:
    pd.testing.assert_frame_equal(df, ref)
    assert set(df.attrs) == set(ref.attrs) | {"players"}
    for key, value in ref.attrs.items():
        if isinstance(value, np.ndarray):
            np.testing.assert_array_equal(df.attrs[key], value, err_msg=key)
        else:
            assert df.attrs[key] == value, key
    assert df.attrs["players"] == policies


# One table per game, chosen to reach the columns' rarer values: mixed players, ends by
# truncation (Liar's Dice, Da Yaoguai), several rounds per match, Zha Jin Hua's action counts.
CASES = [
    ("zhajinhua", ["heuristic", "random", "random"], {"num_players": 3}),
    ("holdem", ["call", "random", "strength"], {"num_players": 3}),
    ("liars_dice", ["random", "heuristic"],
     {"num_rounds": 3, "forbid_repeat_bids": False, "max_round_steps": 4}),
    ("hanabi", ["rules", "random"], {}),
    ("dayaoguai", ["shed", "random", "weakest"], {"num_players": 3, "max_steps": 100}),
]


@pytest.mark.parametrize(("game", "policies", "options"), CASES, ids=[c[0] for c in CASES])
def test_env_games_give_simulates_frame(game: str, policies: list[str],
                                        options: dict[str, Any]) -> None:
    kwargs: dict[str, Any] = {"record_actions": True} if game == "zhajinhua" else {}
    df = play(game, policies, seed=7, first_game=3, **kwargs, **options)
    ref = vecgames.simulate(game, GAMES, policy=policies, seed=7, first_game=3, **kwargs,
                            **options)
    assert_same(df, ref, policies)
    if game == "liars_dice":  # the case reaches every way a round can end
        assert set(ref["end"]) == {"challenge", "truncated", "unplayed"}
    if game == "dayaoguai":
        assert 0 < ref["truncated"].sum() < GAMES


def test_illegal_moves_under_penalty_are_not_recorded() -> None:
    """An illegal action moves nothing (and draws nothing): the games and the action counts
    are those of simulate, as if it had not been tried."""
    policies = ["random", "random"]
    bet_32 = 14  # illegal in the look phase that starts every game
    df = play("zhajinhua", policies, seed=2, record_actions=True, illegal_first=bet_32,
              num_players=2)
    ref = vecgames.simulate("zhajinhua", GAMES, policy=policies, seed=2, record_actions=True,
                            num_players=2)
    assert_same(df, ref, policies)
    assert df.attrs["action_counts"].sum() == df["decisions"].sum()


def test_bad_input() -> None:
    env = vecgames.make("holdem", num_envs=2, num_players=2)
    with pytest.raises(ValueError, match="zhajinhua recorder needs a zhajinhua env"):
        recorder("zhajinhua", env, 2)
    with pytest.raises(ValueError, match="record_actions is a Zha Jin Hua option"):
        recorder("holdem", env, 2, record_actions=True)
    with pytest.raises(TypeError, match="num_games must be an int"):
        recorder("holdem", env, 2.0)
    rec = recorder("holdem", env, 2)
    env.reset()
    with pytest.raises(ValueError, match="game_ids must be below num_games"):
        rec.before_step(env, np.array([1, 1]), np.array([0, 2]))
    with pytest.raises(ValueError, match="2 of 2 holdem games never ended"):
        rec.frame()
