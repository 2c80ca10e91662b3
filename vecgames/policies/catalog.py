"""The built-in players of each game, by name, with one line on how each plays."""

from __future__ import annotations

import importlib

from ..games.catalog import game_module


def players(name: str) -> dict[str, str]:
    """The built-in players of game ``name`` (``simulate``'s ``policy`` names), each with one
    line on how it plays, in the order of ``list_games()``'s ``policies``."""
    game_module(name)
    module = importlib.import_module(f"vecgames.policies.{name}")
    return {player: module.DESCRIPTIONS[player] for player in module.POLICIES}
