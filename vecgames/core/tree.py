"""A two-player zero-sum game with private types as flat arrays: the public tree.

Each player holds a private type (a roll, a card) drawn once at the start; everything after is
public. A node of the public tree is a public history; a decision node belongs to one player,
who chooses among its children knowing its own type only, so an information set is (node, own
type) and a strategy is a row ``[R_p]`` of probabilities per edge. This is the form of Liar's
Dice (private rolls, public bids) and of Kuhn and Leduc poker (private cards, public bets and,
in Leduc, a public board card).

Layout (index = node, breadth-first, so a parent comes before its children and the children
of a node are contiguous):

- ``player``: 0 or 1 for a decision node, ``TERMINAL`` (-1) for a terminal, ``CHANCE`` (2)
  for a public chance event (Leduc's board card) whose children are its outcomes;
- ``first_child``, ``num_children``: the children ``first_child .. first_child + n - 1``;
- ``parent``, ``action``: the edge into the node (-1 at the root), with the game's action id
  (at a chance node's child: the outcome's id);
- ``payoff``, ``scale``: at a terminal, player 0's value for types (r0, r1) is
  ``scale * matrices[payoff, r0, r1]``; the matrices hold the chance weights already (the
  deal P(r0, r1) times the probability of every chance outcome on the way given both types,
  which may depend on them: card removal), so a value summed over the types is an
  expectation. A solver therefore treats a chance node as a node of neither player: the
  reaches pass through unchanged and its value is the sum of its children's.
- ``chance_edge``, ``chance_probs``: what a sampler needs to draw a chance outcome, the
  probability of each outcome given both types: the child c of a chance node is drawn with
  probability ``chance_probs[chance_edge[c], r0, r1]`` (-1 at other nodes). Both are None
  in a tree without chance nodes.

Edge arrays (regrets, strategies) are ``[N, R]`` with ``R = max(R0, R1)``: row c holds the
probability of edge c for each type of the player acting at c's parent (unused below a
chance node).
"""

from __future__ import annotations

import numbers
from typing import Any, NamedTuple

import numpy as np

TERMINAL = -1
CHANCE = 2


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
    chance_edge: np.ndarray | None = None  # int32 [N]; None without chance nodes
    chance_probs: np.ndarray | None = None  # float64 [C, R0, R1]

    @property
    def num_nodes(self) -> int:
        return int(self.player.shape[0])

    @property
    def num_types(self) -> tuple[int, int]:
        return int(self.matrices.shape[1]), int(self.matrices.shape[2])

    @property
    def has_chance(self) -> bool:
        return bool((self.player == CHANCE).any())


def tree_sizes(tree: Tree) -> dict[str, int]:
    """Public decision nodes, terminals, chance nodes, information sets (decision node x own
    type) and edges (the strategy's entries per type)."""
    decision = (tree.player == 0) | (tree.player == 1)
    types = np.array(tree.num_types)
    owners = tree.player[decision].astype(np.int64)
    return {
        "decision_nodes": int(decision.sum()),
        "terminals": int((tree.player == TERMINAL).sum()),
        "chance_nodes": int((tree.player == CHANCE).sum()),
        "infosets": int(types[owners].sum()),
        "infoset_actions": int((tree.num_children[decision] * types[owners]).sum()),
    }


def _check_node(node: Any, k: int, kinds: int, outcomes: int) -> None:
    """Refuse a malformed node of ``from_nested`` with a message naming it (breadth-first
    index ``k``)."""
    if not isinstance(node, dict):
        raise TypeError(f"node {k}: expected a dict, got {type(node).__name__}")
    if "children" not in node:
        if not isinstance(node.get("payoff"), numbers.Integral) or not isinstance(
                node.get("scale"), numbers.Real):
            raise ValueError(f"node {k}: a terminal needs an int 'payoff' and a number 'scale'"
                             f", got {node!r}")
        if not 0 <= node["payoff"] < kinds:
            raise ValueError(f"node {k}: payoff {node['payoff']} is not one of the {kinds} "
                             "matrices")
        return
    player, children = node.get("player"), node["children"]
    if player not in (0, 1, CHANCE):
        raise ValueError(f"node {k}: player must be 0, 1 or CHANCE ({CHANCE}), got {player!r}")
    if not isinstance(children, list | tuple) or not children:
        raise ValueError(f"node {k}: 'children' must be a non-empty list of (action, node)")
    for child in children:
        if not (isinstance(child, tuple | list) and len(child) == 2
                and isinstance(child[0], numbers.Integral)):
            raise ValueError(f"node {k}: a child must be an (int action, node) pair, got "
                             f"{child!r}")
    if player == CHANCE:
        if not outcomes:
            raise ValueError(f"node {k}: a tree with chance nodes needs chance_probs")
        probs = node.get("probs")
        if not isinstance(probs, list | tuple) or len(probs) != len(children):
            raise ValueError(f"node {k}: a chance node needs 'probs', one chance_probs index "
                             "per child")
        for j in probs:
            if not isinstance(j, numbers.Integral) or not 0 <= int(j) < outcomes:
                raise ValueError(f"node {k}: chance_probs index {j!r} is not one of the "
                                 f"{outcomes} given")


def from_nested(root: dict, matrices: np.ndarray, chance_probs: np.ndarray | None = None
                ) -> Tree:
    """A small tree from nested dicts (for hand-built games such as Kuhn and Leduc poker),
    laid out breadth-first:

    - a decision ``{"player": p, "children": [(action, node), ...]}`` (p = 0 or 1);
    - a chance event ``{"player": CHANCE, "children": [(outcome, node), ...], "probs": [j,
      ...]}``: child i is drawn with probability ``chance_probs[probs[i], r0, r1]`` given the
      types (``chance_probs`` ``[C, R0, R1]``; over a chance node's children the
      probabilities sum to 1, or to 0 for a pair of types that never reaches it);
    - a terminal ``{"payoff": k, "scale": x}``: player 0 gets ``x * matrices[k, r0, r1]``.
    """
    matrices = np.ascontiguousarray(matrices, np.float64)
    if matrices.ndim != 3 or 0 in matrices.shape:
        raise ValueError(f"matrices must be [K, R0, R1] with no empty axis, got shape "
                         f"{matrices.shape}")
    if chance_probs is not None:
        chance_probs = np.ascontiguousarray(chance_probs, np.float64)
        if chance_probs.ndim != 3 or chance_probs.shape[1:] != matrices.shape[1:]:
            raise ValueError(f"chance_probs must be [C, {matrices.shape[1]}, "
                             f"{matrices.shape[2]}] (the types of the matrices), got shape "
                             f"{chance_probs.shape}")
        if (chance_probs < 0).any():
            raise ValueError("chance_probs must be probabilities (>= 0)")
    outcomes = 0 if chance_probs is None else chance_probs.shape[0]
    order: list[dict] = [root]
    parents, actions, depth, edge = [-1], [-1], [0], [-1]
    k = 0
    while k < len(order):
        node = order[k]
        _check_node(node, k, matrices.shape[0], outcomes)
        for i, (action, child) in enumerate(node.get("children", [])):
            depth.append(depth[k] + 1)
            order.append(child)
            parents.append(k)
            actions.append(int(action))
            edge.append(int(node["probs"][i]) if node["player"] == CHANCE else -1)
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
    chance_edge = None
    if chance_probs is not None and (player == CHANCE).any():
        chance_edge = np.array(edge, np.int32)
        for h in np.flatnonzero(player == CHANCE):
            total = chance_probs[chance_edge[first[h]:first[h] + count[h]]].sum(axis=0)
            if not (np.isclose(total, 1.0) | (total == 0.0)).all():
                raise ValueError(f"node {h}: the chance probabilities of its children must "
                                 f"sum to 1 for every pair of types (or 0), got {total}")
    elif chance_probs is not None:
        chance_probs = None  # nothing to draw: keep "None without chance nodes"
    return Tree(player, first, count, np.array(parents, np.int32), np.array(actions, np.int32),
                payoff, scale, matrices, max(depth), int(count.max()), chance_edge,
                chance_probs)
