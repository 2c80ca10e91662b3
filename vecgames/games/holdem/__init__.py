"""No-limit Texas Hold'em (RULES.md §1): rules, observation, the batched env, simulation,
hand logs and the seed-style facade (``TexasPoker``, with the seed's ``Card``, ``Agent`` and
sample strategies in ``seed_agents``)."""

from .env import HoldemEnv  # noqa: I001  (rules first)
from .facade import TexasPoker
from .log import HandLog, hand_log
from .observe import OBS_DIM
from .rules import DEFAULT_OPTIONS, MAX_PLAYERS, Rules, State, make_rules
from .simulate import simulate

__all__ = ["DEFAULT_OPTIONS", "MAX_PLAYERS", "OBS_DIM", "HandLog", "HoldemEnv", "Rules",
           "State", "TexasPoker", "hand_log", "make_rules", "simulate"]
