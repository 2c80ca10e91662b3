"""The arena: players against each other with seats rotated, duplicate deals where a game
allows them, 95% confidence intervals and ratings (``vecgames.arena``)."""

from .api import FewUnitsWarning, arena
from .result import ArenaResult

__all__ = ["ArenaResult", "FewUnitsWarning", "arena"]
