"""Kuhn poker (OpenSpiel's ``kuhn_poker``, two players): rules, observation, the batched
env, built-in players, ``simulate`` and its recorder."""

from .env import KuhnPokerEnv
from .observe import OBS_DIM
from .rules import (
    ACTION_NAMES,
    DEFAULT_OPTIONS,
    HISTORIES,
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
    "HISTORIES",
    "NUM_ACTIONS",
    "NUM_CARDS",
    "OBS_DIM",
    "KuhnPokerEnv",
    "Rules",
    "State",
    "card_name",
    "field",
    "make_rules",
    "rules_to_options",
]
