"""Exact equilibrium solving of small two-player zero-sum games with private types: the game
as a public tree of flat arrays (``tree``), CFR+ with exact best responses (``cfr``), two-player
Liar's Dice under our rules (``liars_dice``) and its other players as strategies
(``players``). Manual: docs/liars_dice_solver.md."""

from .cfr import (
    Solution,
    best_response_value,
    exploitability,
    game_value,
    normalize,
    solve,
    uniform_strategy,
)
from .judge import Exploitability
from .judge import strategy as player_strategy
from .liars_dice import Variant, build_tree, make_variant, tree_size
from .players import (
    checkpoint_strategy,
    heuristic_strategy,
    random_strategy,
    seat_rules,
    strategy_of,
)
from .tree import Tree, kuhn_tree, tree_sizes

__all__ = [
    "Exploitability",
    "Solution",
    "Tree",
    "Variant",
    "best_response_value",
    "build_tree",
    "checkpoint_strategy",
    "exploitability",
    "game_value",
    "heuristic_strategy",
    "kuhn_tree",
    "make_variant",
    "normalize",
    "player_strategy",
    "random_strategy",
    "seat_rules",
    "solve",
    "strategy_of",
    "tree_size",
    "tree_sizes",
    "uniform_strategy",
]
