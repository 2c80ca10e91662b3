"""The built-in players of each game, by name, with one line on how each plays."""

from __future__ import annotations

from ..games.catalog import spec_of


def players(name: str) -> dict[str, str]:
    """The built-in players of game ``name`` (``simulate``'s ``policy`` names), each with one
    line on how it plays, in the order of ``list_games()``'s ``policies``."""
    module = spec_of(name).load("players")
    return {player: module.DESCRIPTIONS[player] for player in module.POLICIES}
