"""One package per game; ``vecgames.games()`` lists them (``vecgames.list_games``).

The package is callable because ``vecgames.games`` cannot be both a function and the package
that Python binds to that name once any ``vecgames.games.<game>`` module is imported.
"""

from __future__ import annotations

import sys
import types
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from ..core.registry import GameInfo


class _GamesPackage(types.ModuleType):
    def __call__(self) -> list[GameInfo]:
        """Every game with its rule options, players and sizes (``vecgames.list_games()``)."""
        from ..core.registry import list_games

        return list_games()


sys.modules[__name__].__class__ = _GamesPackage
