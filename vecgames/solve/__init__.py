"""Exact equilibrium solving of small two-player zero-sum games with private types: the game
as a public tree of flat arrays (``vecgames.core.tree``; each game builds its own in its
package, named by its spec: ``game_tree(game, **options)``), CFR+ with exact best responses
(``cfr``), sampled CFR (``sampled``) and a player's exact exploitability (``judge``, by the
game's spec). A game's solver-backed players live in its package (Liar's Dice:
``vecgames.games.liars_dice.solver_players``, ``solver_judge``, ``solver_strategy``).
Manual: docs/liars_dice_solver.md, docs/small_poker.md."""

from ..core.tree import Tree, tree_sizes
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

__all__ = [
    "Exploitability",
    "Solution",
    "Tree",
    "best_response_value",
    "exploitability",
    "game_tree",
    "game_value",
    "normalize",
    "solve",
    "tree_sizes",
    "uniform_strategy",
]
