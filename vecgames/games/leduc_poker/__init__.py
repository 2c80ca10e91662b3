"""Leduc Hold'em (OpenSpiel's ``leduc_poker``, two players): rules, observation, the batched
env, built-in players, ``simulate`` and its recorder."""

from .env import LeducPokerEnv
from .observe import OBS_DIM
from .rules import (
    ACTION_NAMES,
    DEFAULT_OPTIONS,
    NUM_ACTIONS,
    NUM_CARDS,
    Rules,
    State,
    card_name,
    field,
    make_rules,
    rules_to_options,
)

__all__ = [
    "ACTION_NAMES",
    "DEFAULT_OPTIONS",
    "NUM_ACTIONS",
    "NUM_CARDS",
    "OBS_DIM",
    "LeducPokerEnv",
    "Rules",
    "State",
    "card_name",
    "field",
    "make_rules",
    "rules_to_options",
]
