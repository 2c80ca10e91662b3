"""Liar's Dice with 斋/飞: bids, odds, rules, observations, the batched env and simulation."""

from .bids import action_to_bid, bid_beats, bid_to_action, format_bid, num_actions, parse_bid
from .env import LiarsDiceEnv
from .rules import DEFAULT_OPTIONS, Rules, State, make_rules
from .simulate import simulate

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
    "simulate",
]
