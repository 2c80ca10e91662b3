"""Liar's Dice with 斋/飞: bids, odds, rules, observations and the batched
env (its ``simulate`` is ``vecgames.games.liars_dice.simulate``)."""

from .bids import action_to_bid, bid_beats, bid_to_action, format_bid, num_actions, parse_bid
from .env import LiarsDiceEnv
from .rules import DEFAULT_OPTIONS, Rules, State, make_rules

__all__ = [
    "DEFAULT_OPTIONS",
    "LiarsDiceEnv",
    "Rules",
    "State",
    "action_to_bid",
    "bid_beats",
    "bid_to_action",
    "format_bid",
    "make_rules",
    "num_actions",
    "parse_bid",
]
