"""Zha Jin Hua 扎金花: rules, observation, the batched env and whole-game simulation."""

from .env import OBSERVATIONS, ZhaJinHuaEnv  # noqa: I001  (rules first: the policies import them)
from .observe import OBS_DIM
from .observe_seed import SEED_OBS_DIM
from .rules import ACTION_NAMES, DEFAULT_OPTIONS, NUM_ACTIONS, Rules, State, make_rules
from .simulate import simulate

__all__ = [
    "ACTION_NAMES",
    "DEFAULT_OPTIONS",
    "NUM_ACTIONS",
    "OBSERVATIONS",
    "OBS_DIM",
    "Rules",
    "SEED_OBS_DIM",
    "State",
    "ZhaJinHuaEnv",
    "make_rules",
    "simulate",
]
