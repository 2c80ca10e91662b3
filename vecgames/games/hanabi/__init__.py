"""Hanabi (JaxMARL rules, RULES.md §4): rules, observations and the batched env
(its ``simulate`` is ``vecgames.games.hanabi.simulate``)."""

from .env import HanabiEnv, action_name, card_text
from .rules import DEFAULT_OPTIONS, END_NAMES, Rules, State, make_rules

__all__ = ["DEFAULT_OPTIONS", "END_NAMES", "HanabiEnv", "Rules", "State", "action_name",
           "card_text", "make_rules"]
