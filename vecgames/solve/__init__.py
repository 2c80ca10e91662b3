"""Exact equilibrium solving of small two-player zero-sum games with private types: the game
as a public tree of flat arrays (``vecgames.core.tree``; Kuhn and Leduc poker build theirs in
their game packages, ``public_tree()``), CFR+ with exact best responses (``cfr``), two-player
Liar's Dice under our rules (``liars_dice``) and its other players as strategies
(``players``). Manual: docs/liars_dice_solver.md."""

from ..core.tree import Tree, tree_sizes
from ..games.liars_dice.tree import Variant, build_tree, make_variant, tree_size
from .cfr import (
    Solution,
    best_response_value,
    exploitability,
    game_value,
    normalize,
    solve,
    uniform_strategy,
)
from .game_tree import game_tree
from .judge import Exploitability
from .judge import strategy as player_strategy
from .players import (
    checkpoint_strategy,
    heuristic_strategy,
    random_strategy,
    seat_rules,
    strategy_of,
)

__all__ = [
    "Exploitability",
    "Solution",
    "Tree",
    "Variant",
    "best_response_value",
    "build_tree",
    "checkpoint_strategy",
    "exploitability",
    "game_tree",
    "game_value",
    "heuristic_strategy",
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
