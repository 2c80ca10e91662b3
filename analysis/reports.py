"""``write_report(df, path)`` for any game: the report of the frame's own game, by its
``attrs["game"]`` (every ``vecgames.simulate`` frame says its game)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from vecgames.games.catalog import spec_of, specs


def frame_game(data: Any) -> str:
    """The game of a ``simulate`` frame (or of the first frame of a mapping of them)."""
    frame = next(iter(data.values()), None) if isinstance(data, Mapping) else data
    game = getattr(frame, "attrs", {}).get("game")
    if not isinstance(game, str):
        raise ValueError("the frame does not say its game (attrs['game']): give the frame "
                         "vecgames.simulate returned")
    return game


def write_report(data: Any, path_md: str | Path, **options: Any) -> Any:
    """Write the report of the frame's game (Markdown at ``path_md``, CSV tables and plots
    beside it) and return what that game's ``write_report`` returns (the files written);
    ``options`` go to it. A game without a report is a ValueError naming the games that have
    one."""
    spec = spec_of(frame_game(data))
    if not spec.has("report"):
        have = [name for name, s in specs().items() if s.has("report")]
        raise ValueError(f"no report for {spec.title} yet; the games with one: {have}")
    return spec.load("report").write_report(data, path_md, **options)
