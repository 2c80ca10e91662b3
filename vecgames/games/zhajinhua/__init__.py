"""Zha Jin Hua 扎金花: rules, observation and the batched env (its ``simulate`` is
``vecgames.games.zhajinhua.simulate``)."""

from .env import OBSERVATIONS, ZhaJinHuaEnv
from .observe import OBS_DIM
from .observe_seed import SEED_OBS_DIM
from .rules import ACTION_NAMES, DEFAULT_OPTIONS, NUM_ACTIONS, Rules, State, make_rules

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
]
