"""`vecgames.players(game)`: every built-in player with one line on how it plays."""

from __future__ import annotations

import importlib

import pytest

import vecgames
from vecgames.cli import main
from vecgames.games.catalog import spec_of


@pytest.mark.parametrize("game", [g.name for g in vecgames.list_games()])
def test_every_builtin_player_is_described(game):
    described = vecgames.players(game)
    module = spec_of(game).load("players")
    assert list(described) == list(module.POLICIES)  # no player missing, none extra
    assert set(module.DESCRIPTIONS) == set(module.POLICIES)
    for name, how in described.items():
        assert how.strip() and "\n" not in how, name  # one line each
    default = vecgames.api.default_policy(game)
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


# A player's table module imports the game package (whose simulate imports the dispatch, which
# imports the player) before it is whole: not yet importable first.
NOT_FIRST = {"vecgames.games.liars_dice.players_odds_tables"}


def test_each_player_module_imports_first():
    """Every module of vecgames.policies and every game's players modules import in a fresh
    interpreter before anything else (a game's package imports its dispatch, which imports
    the player modules back)."""
    import pathlib
    import subprocess
    import sys

    root = pathlib.Path(importlib.import_module("vecgames").__file__).parent
    names = sorted([f"vecgames.policies.{p.stem}" for p in (root / "policies").glob("*.py")
                    if p.stem != "__init__"]
                   + [f"vecgames.games.{p.parent.name}.{p.stem}"
                      for p in (root / "games").glob("*/players*.py")])
    assert {"vecgames.games.hanabi.players_search", "vecgames.games.dayaoguai.players_plan",
            "vecgames.games.holdem.players_equity",
            "vecgames.games.liars_dice.players_odds"} <= set(names)
    # One interpreter for all: each module is imported with every vecgames module forgotten
    # first, so it comes first as in a fresh process (numba and numpy, the slow imports, stay).
    script = (
        "import importlib, sys\n"
        f"for name in {[n for n in names if n not in NOT_FIRST]!r}:\n"
        "    for key in [k for k in sys.modules if k == 'vecgames' or k.startswith('vecgames.')]:\n"
        "        del sys.modules[key]\n"
        "    importlib.import_module(name)\n")
    subprocess.run([sys.executable, "-c", script], check=True)
