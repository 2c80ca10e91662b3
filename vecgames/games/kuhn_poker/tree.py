"""Kuhn poker as a public tree (``vecgames.core.tree``) for the exact solvers of
``vecgames.solve``: the private types are the cards, everything after the deal is public.

OpenSpiel's ``kuhn_poker``: cards J < Q < K, one dealt to each player, ante 1; player 0
checks or bets 1, and so on; the game value is -1/18 for player 0. Actions (OpenSpiel's
ids): 0 pass (check/fold), 1 bet (bet/call).
"""

from __future__ import annotations

import numpy as np

from ...core.tree import Tree, from_nested

CARDS = ("J", "Q", "K")
PASS, BET = 0, 1
FOLD, SHOWDOWN = 0, 1  # the payoff matrices: the deal, and the deal x who wins


def deal_matrix() -> np.ndarray:
    """``[3, 3]`` P(card of player 0, card of player 1): two distinct cards of three."""
    return np.array([[0.0 if a == b else 1 / 6 for b in range(3)] for a in range(3)])


def public_tree() -> Tree:
    """The whole game: 4 decision nodes (12 information sets), 5 terminals; ``matrices[0]``
    is the deal."""
    deal = deal_matrix()
    wins = np.sign(np.subtract.outer(np.arange(3), np.arange(3)))
    matrices = np.stack([deal, deal * wins])

    def end(kind: int, scale: float) -> dict:
        return {"payoff": kind, "scale": scale}

    def node(player: int, passed: dict, bet: dict) -> dict:
        return {"player": player, "children": [(PASS, passed), (BET, bet)]}

    root = node(0,
                node(1, end(SHOWDOWN, 1.0),
                     node(0, end(FOLD, -1.0), end(SHOWDOWN, 2.0))),
                node(1, end(FOLD, 1.0), end(SHOWDOWN, 2.0)))
    return from_nested(root, matrices)
