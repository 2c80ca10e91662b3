"""Da Yaoguai 打妖怪 / 西游记: rules, observation, the batched env and simulation."""

from .env import DaYaoguaiEnv
from .rules import DEFAULT_OPTIONS, NUM_ACTIONS, Rules, beats, card_name, make_rules
from .simulate import simulate

__all__ = ["DEFAULT_OPTIONS", "NUM_ACTIONS", "DaYaoguaiEnv", "Rules", "beats", "card_name",
           "make_rules", "simulate"]
