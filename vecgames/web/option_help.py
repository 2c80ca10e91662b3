"""What the lobby shows beside the rule options: the legal table size per game."""

from __future__ import annotations

import importlib

# The fewest seats each game's rules accept (``check_int`` in its rules.py); the most is the
# rules module's MAX_PLAYERS.
MIN_PLAYERS = {"dayaoguai": 3}


def player_range(game: str) -> tuple[int, int]:
    """The table sizes ``num_players`` may take in ``game``, both ends included."""
    rules = importlib.import_module(f"vecgames.games.{game}.rules")
    return MIN_PLAYERS.get(game, 2), int(rules.MAX_PLAYERS)
