"""No-limit Texas Hold'em (RULES.md §1): rules, observation and the batched env."""

from .env import HoldemEnv  # noqa: I001  (rules first)
from .facade import TexasPoker
from .observe import OBS_DIM
from .rules import DEFAULT_OPTIONS, MAX_PLAYERS, Rules, State, make_rules
from .simulate import simulate

__all__ = ["DEFAULT_OPTIONS", "MAX_PLAYERS", "OBS_DIM", "HoldemEnv", "Rules", "State",
           "TexasPoker", "make_rules", "simulate"]
