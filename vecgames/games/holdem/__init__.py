"""No-limit Texas Hold'em (RULES.md §1): rules, observation, the batched env and the
seed-style facade (``TexasPoker``, with the seed's ``Card``, ``Agent`` and
sample strategies in ``seed_agents``). Its ``simulate`` and hand logs are in
``vecgames.games.holdem.simulate`` and ``holdem_log``."""

from .env import HoldemEnv  # noqa: I001  (rules first)
from .facade import TexasPoker
from .observe import OBS_DIM
from .rules import DEFAULT_OPTIONS, MAX_PLAYERS, Rules, State, make_rules

__all__ = ["DEFAULT_OPTIONS", "MAX_PLAYERS", "OBS_DIM", "HoldemEnv", "Rules",
           "State", "TexasPoker", "make_rules"]
