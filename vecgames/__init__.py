"""vecgames: batched card and dice game simulators.

>>> import vecgames
>>> env = vecgames.make("zhajinhua", num_envs=4096, num_players=6, seed=0)
>>> df = vecgames.simulate("zhajinhua", 100_000, players="random", seed=0)
>>> [g.name for g in vecgames.games()]  # the same as vecgames.list_games()
['zhajinhua', 'holdem', 'liars_dice', 'hanabi', 'dayaoguai']
"""

from typing import TYPE_CHECKING, Any

from vecgames import games
from vecgames.adapters import register_gymnasium_ids
from vecgames.api import CallableGames, GameInfo, list_games, simulate
from vecgames.arena import ArenaResult, arena
from vecgames.core import VecEnv, format_cards, parse_cards
from vecgames.games.catalog import make
from vecgames.policies.catalog import players
from vecgames.policies.checkpoint import load_player
from vecgames.policies.protocol import Player
from vecgames.zoo import zoo

if TYPE_CHECKING:  # imported on first use below (__getattr__)
    from vecgames.solve.judge import Exploitability, exploitability

__version__ = "0.2.0"  # the one place it is set (pyproject reads it); see CHANGELOG.md
__all__ = ["ArenaResult", "Exploitability", "GameInfo", "Player", "VecEnv", "__version__", "arena",
           "exploitability", "format_cards", "games", "list_games", "load_player", "make",
           "parse_cards", "players", "simulate", "zoo"]


def __getattr__(name: str) -> Any:
    """``exploitability`` and ``Exploitability`` import the solver on first use only."""
    if name in ("exploitability", "Exploitability"):
        from vecgames.solve import judge

        return getattr(judge, name)
    raise AttributeError(f"module 'vecgames' has no attribute {name!r}")


games.__class__ = CallableGames  # vecgames.games() is list_games()
register_gymnasium_ids()  # gymnasium.make("vecgames/Holdem-v0"); never imports Gymnasium
