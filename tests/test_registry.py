"""``vecgames.list_games()``: every game's options, players and sizes, read from its modules."""

from __future__ import annotations

import importlib

import pandas as pd
import pytest

import vecgames
from vecgames.core.registry import GAMES, game_info


@pytest.fixture(scope="module")
def infos() -> dict[str, vecgames.GameInfo]:
    return {g.name: g for g in vecgames.list_games()}


def test_every_game_listed(infos):
    assert list(infos) == list(GAMES)
    table = pd.DataFrame(list(infos.values()))
    assert list(table["name"]) == list(GAMES) and "obs_dim" in table.columns


@pytest.mark.parametrize("name", list(GAMES))
def test_sizes_match_a_made_env(infos, name):
    info = infos[name]
    env = vecgames.make(name, num_envs=2)
    obs, inf = env.reset()
    assert info.num_players == env.num_players
    assert info.num_actions == inf["action_mask"].shape[1] == env.num_actions
    assert list(info.obs_dim.values())[0] == obs.shape[1]


@pytest.mark.parametrize("name", list(GAMES))
def test_options_are_the_games_own(infos, name):
    info = infos[name]
    rules = importlib.import_module(f"vecgames.games.{name}.rules")
    assert info.rule_options == rules.DEFAULT_OPTIONS
    assert info.policies == importlib.import_module(f"vecgames.policies.{name}").POLICIES
    df = vecgames.simulate(name, 3, policy=list(info.policies[-1:]) * info.num_players)
    assert len(df) >= 3
    with pytest.raises(ValueError, match="policy"):
        vecgames.simulate(name, 3, policy="no-such-player")
    for option in info.env_options:
        assert option not in ("num_envs", "seed", "env_offset")


def test_observation_variants(infos):
    assert set(infos["liars_dice"].obs_dim) == {"full", "seed"}
    assert set(infos["hanabi"].obs_dim) >= {"jaxmarl", "seed1680"}
    assert infos["hanabi"].obs_dim["seed1680"] == 1680
    for variant, dim in infos["liars_dice"].obs_dim.items():
        obs, _ = vecgames.make("liars_dice", observation=variant).reset()
        assert obs.shape[1] == dim
    assert infos["zhajinhua"].simulate_options == {"record_actions": False}


def test_unknown_game():
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        game_info("chess")
