"""`vecgames.players(game)`: every built-in player with one line on how it plays."""

from __future__ import annotations

import importlib

import pytest

import vecgames
from vecgames.cli import main


@pytest.mark.parametrize("game", [g.name for g in vecgames.list_games()])
def test_every_builtin_player_is_described(game):
    described = vecgames.players(game)
    module = importlib.import_module(f"vecgames.policies.{game}")
    assert list(described) == list(module.POLICIES)  # no player missing, none extra
    assert set(module.DESCRIPTIONS) == set(module.POLICIES)
    for name, how in described.items():
        assert how.strip() and "\n" not in how, name  # one line each
    default = vecgames.core.registry.default_policy(game)
    assert default in described


def test_unknown_game_lists_the_games():
    with pytest.raises(ValueError, match="unknown game 'chess'.*holdem"):
        vecgames.players("chess")


def test_list_prints_each_players_line(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    for game in ("holdem", "dayaoguai"):
        for name, how in vecgames.players(game).items():
            assert f"{name}" in out and how in out
