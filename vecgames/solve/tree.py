"""A two-player zero-sum game with private types as flat arrays: the public tree.

Each player holds a private type (a roll, a card) drawn once at the start; everything after is
public. A node of the public tree is a public history; a decision node belongs to one player,
who chooses among its children knowing its own type only, so an information set is (node, own
type) and a strategy is a row ``[R_p]`` of probabilities per edge. This is the form of Liar's
Dice (private rolls, public bids) and of Kuhn poker (private cards, public bets).

Layout (index = node, breadth-first, so a parent comes before its children and the children
of a node are contiguous):

- ``player``: 0 or 1 for a decision node, -1 for a terminal;
- ``first_child``, ``num_children``: the children ``first_child .. first_child + n - 1``;
- ``parent``, ``action``: the edge into the node (-1 at the root), with the game's action id;
- ``payoff``, ``scale``: at a terminal, player 0's value for types (r0, r1) is
  ``scale * matrices[payoff, r0, r1]``; the matrices hold the chance weights P(r0, r1)
  already, so a value summed over the types is an expectation.

Edge arrays (regrets, strategies) are ``[N, R]`` with ``R = max(R0, R1)``: row c holds the
probability of edge c for each type of the player acting at c's parent.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

TERMINAL = -1


class Tree(NamedTuple):
    player: np.ndarray  # int8 [N]
    first_child: np.ndarray  # int32 [N]
    num_children: np.ndarray  # int32 [N]
    parent: np.ndarray  # int32 [N]
    action: np.ndarray  # int32 [N]
    payoff: np.ndarray  # int32 [N]
    scale: np.ndarray  # float64 [N]
    matrices: np.ndarray  # float64 [K, R0, R1]
    max_depth: int
    max_children: int

    @property
    def num_nodes(self) -> int:
        return int(self.player.shape[0])

    @property
    def num_types(self) -> tuple[int, int]:
        return int(self.matrices.shape[1]), int(self.matrices.shape[2])


def tree_sizes(tree: Tree) -> dict[str, int]:
    """Public decision nodes, terminals, information sets (decision node x own type) and
    edges (the strategy's entries per type)."""
    decision = tree.player >= 0
    types = np.array(tree.num_types)
    owners = tree.player[decision].astype(np.int64)
    return {
        "decision_nodes": int(decision.sum()),
        "terminals": int((~decision).sum()),
        "infosets": int(types[owners].sum()),
        "infoset_actions": int((tree.num_children[decision] * types[owners]).sum()),
    }


def from_nested(root: dict, matrices: np.ndarray) -> Tree:
    """A small tree from nested dicts (for hand-built games such as Kuhn poker): a decision
    ``{"player": p, "children": [(action, node), ...]}``, a terminal ``{"payoff": k,
    "scale": x}``. Laid out breadth-first."""
    order: list[dict] = [root]
    parents, actions = [-1], [-1]
    depth = {0: 0}
    k = 0
    while k < len(order):
        node = order[k]
        for action, child in node.get("children", []):
            depth[len(order)] = depth[k] + 1
            order.append(child)
            parents.append(k)
            actions.append(action)
        k += 1
    n = len(order)
    player = np.full(n, TERMINAL, np.int8)
    first = np.zeros(n, np.int32)
    count = np.zeros(n, np.int32)
    payoff = np.full(n, -1, np.int32)
    scale = np.zeros(n, np.float64)
    for i, node in enumerate(order):
        if "children" in node:
            player[i] = node["player"]
            count[i] = len(node["children"])
        else:
            payoff[i], scale[i] = node["payoff"], node["scale"]
    for i in range(n - 1, 0, -1):  # a node's first child is its lowest-numbered child
        first[parents[i]] = i
    return Tree(player, first, count, np.array(parents, np.int32), np.array(actions, np.int32),
                payoff, scale, np.ascontiguousarray(matrices, np.float64),
                max(depth.values()), int(count.max()))


KUHN_CARDS = ("J", "Q", "K")
KUHN_FOLD, KUHN_SHOWDOWN = 0, 1
KUHN_PASS, KUHN_BET = 0, 1


def kuhn_tree() -> Tree:
    """Kuhn poker: cards J < Q < K dealt one to each player, ante 1; player 0 checks or bets
    1, and so on (game value -1/18 for player 0). Actions: 0 pass (check/fold), 1 bet/call."""
    deal = np.array([[0.0 if a == b else 1 / 6 for b in range(3)] for a in range(3)])
    wins = np.sign(np.subtract.outer(np.arange(3), np.arange(3)))
    matrices = np.stack([deal, deal * wins])

    def end(kind: int, scale: float) -> dict:
        return {"payoff": kind, "scale": scale}

    def node(player: int, passed: dict, bet: dict) -> dict:
        return {"player": player, "children": [(KUHN_PASS, passed), (KUHN_BET, bet)]}

    root = node(0,
                node(1, end(KUHN_SHOWDOWN, 1.0),
                     node(0, end(KUHN_FOLD, -1.0), end(KUHN_SHOWDOWN, 2.0))),
                node(1, end(KUHN_FOLD, 1.0), end(KUHN_SHOWDOWN, 2.0)))
    return from_nested(root, matrices)
