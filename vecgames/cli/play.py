"""``vecgames play GAME``: a game in the terminal."""

from __future__ import annotations

import argparse

from ..games.catalog import spec_of, specs
from .common import _forward


def play_names() -> list[str]:
    """The names ``vecgames play`` takes: each game with a terminal view, its aliases first."""
    return [name for spec in specs().values() if spec.has("view")
            for name in (*spec.aliases, spec.name)]


def _play(args: argparse.Namespace) -> int:
    spec = spec_of(args.game, aliases=True)
    from ..play import terminal  # the shared loop, over the game's view

    return _forward(lambda argv: terminal.main(spec.load("view"), argv), args.args)
