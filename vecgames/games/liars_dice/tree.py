"""Two-player Liar's Dice under our rules (RULES.md §3) as a public tree
(``vecgames.core.tree``).

Chance: each seat's roll, as the multiset of its faces with its multinomial probability (the
order of the dice does not matter). Public tree: the round's bid histories. The legal bids
after a bid come from the rules' own table (``bids.bid_table``: the 飞 and 斋 ranges that beat
it, the first bid's least count), less the bids already made (``forbid_repeat_bids``); a
challenge ends the round: the challenger loses (-1, the other +1) if the bid holds. With
``max_round_steps`` = k the k-th bid ends the round unresolved (0 to both), as in the env.

Seats may hold different numbers of dice (``dice=(2, 1)``); the env itself deals the same
number to every seat, so such variants exist only here.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations_with_replacement
from math import factorial
from typing import Any, NamedTuple

import numpy as np

from ...core.jit import jit
from ...core.tree import TERMINAL, Tree
from ...core.validation import check_bool, check_choice, check_int
from .bids import (
    FEI,
    FEI_FACES,
    ZHAI_FACES,
    bid_count,
    bid_face,
    bid_mode,
    bid_table,
)
from .rules import VARIANTS

MAX_BIDS = 63  # the bids made so far are one int64 bit set


class Variant(NamedTuple):
    """A two-player Liar's Dice round: dice per seat, rule options (as ``make_rules``) and the
    seat that opens."""

    dice: tuple[int, int]
    variant: str = "basic"
    min_first_count: int = 1
    forbid_repeat_bids: bool = True
    max_round_steps: int = 0  # 0: no cap
    opener: int = 0

    @property
    def total_dice(self) -> int:
        return self.dice[0] + self.dice[1]

    @property
    def num_bids(self) -> int:
        return (FEI_FACES + ZHAI_FACES) * self.total_dice

    def label(self) -> str:
        mode = "fei-only" if self.variant == "basic" else "zhai/fei"
        cap = f", max {self.max_round_steps} steps" if self.max_round_steps else ""
        return (f"{self.dice[0]} vs {self.dice[1]} dice, {mode}, first count >= "
                f"{self.min_first_count}{cap}, seat {self.opener} opens")


def make_variant(dice: Sequence[int] | int = 1, variant: str = "basic", min_first_count: int = 1,
                 forbid_repeat_bids: bool = True, max_round_steps: int = 0,
                 opener: int = 0) -> Variant:
    """A validated :class:`Variant`; ``dice`` an int (each seat) or one per seat."""
    if isinstance(dice, (int, np.integer)) and not isinstance(dice, bool):
        dice = (int(dice), int(dice))
    if not isinstance(dice, (tuple, list)) or len(dice) != 2:
        raise TypeError(f"dice must be an int or two ints (one per seat), got {dice!r}")
    pair = (check_int(dice[0], "dice[0]", 1, 5), check_int(dice[1], "dice[1]", 1, 5))
    total = pair[0] + pair[1]
    if (FEI_FACES + ZHAI_FACES) * total > MAX_BIDS:
        raise ValueError(f"at most {MAX_BIDS} bids (5 dice in all), got {total} dice")
    v = Variant(
        dice=pair,
        variant=check_choice(variant, "variant", VARIANTS),
        min_first_count=check_int(min_first_count, "min_first_count", 1, total),
        forbid_repeat_bids=check_bool(forbid_repeat_bids, "forbid_repeat_bids"),
        max_round_steps=check_int(max_round_steps, "max_round_steps", 0, 2**31 - 1),
        opener=check_int(opener, "opener", 0, 1),
    )
    if v.variant == "zhai_fei" and not v.forbid_repeat_bids and not 1 <= v.max_round_steps <= 60:
        raise ValueError("zhai_fei without forbid_repeat_bids has endless rounds (the cross-mode "
                         "bids form cycles): give max_round_steps in [1, 60]")
    return v


def rolls(dice: int) -> tuple[list[tuple[int, ...]], np.ndarray]:
    """Every roll of ``dice`` dice as sorted faces, and its probability."""
    out = list(combinations_with_replacement(range(1, 7), dice))
    prob = []
    for roll in out:
        ways = factorial(dice)
        for face in set(roll):
            ways //= factorial(roll.count(face))
        prob.append(ways / 6**dice)
    return out, np.array(prob)


def deal_matrix(v: Variant) -> np.ndarray:
    """``[R0, R1]``: the probability of each pair of rolls (seat 0's, seat 1's)."""
    return np.outer(rolls(v.dice[0])[1], rolls(v.dice[1])[1])


def packed(roll: Sequence[int]) -> int:
    """A roll as the env packs a seat's dice: the count of face f in bits 4(f-1) .. 4f-1."""
    return sum(1 << (4 * (f - 1)) for f in roll)


def matches(roll: Sequence[int], mode: int, face: int) -> int:
    """Dice of ``roll`` that count for a bid: the face, plus the ones in 飞 (face 2..6)."""
    return sum(1 for f in roll if f == face or (mode == FEI and f == 1 and face != 1))


def bid_matrices(v: Variant) -> np.ndarray:
    """``[num_bids + 1, R0, R1]``: P(r0) P(r1) x (+1 if bid b holds for those rolls, else -1),
    the bidder's value at a challenge; the last matrix is zero (a round cut by the cap)."""
    (roll0, p0), (roll1, p1) = rolls(v.dice[0]), rolls(v.dice[1])
    total = v.total_dice
    out = np.zeros((v.num_bids + 1, len(roll0), len(roll1)))
    for b in range(v.num_bids):
        mode, count, face = bid_mode(b, total), bid_count(b, total), bid_face(b, total)
        m0 = np.array([matches(r, mode, face) for r in roll0])
        m1 = np.array([matches(r, mode, face) for r in roll1])
        holds = np.add.outer(m0, m1) >= count
        out[b] = np.outer(p0, p1) * np.where(holds, 1.0, -1.0)
    return out


def rules_table(v: Variant) -> np.ndarray:
    """The rules' bid table for the variant (``bids.bid_table`` with its dice in all)."""
    return bid_table(2, v.total_dice, basic=v.variant == "basic",
                     min_first_count=v.min_first_count)


@jit
def _legal(table, last, made, num_bids, forbid, out):
    """Legal bid indices after action ``last`` with bids ``made`` (bit set) into ``out``;
    returns how many."""
    fei_end = FEI_FACES * (num_bids // (FEI_FACES + ZHAI_FACES))
    n = 0
    for index in range(table[last, 0], fei_end):
        if not (forbid and (made >> index) & 1):
            out[n] = index
            n += 1
    for index in range(table[last, 1], num_bids):
        if not (forbid and (made >> index) & 1):
            out[n] = index
            n += 1
    return n


@jit(alloc=True)
def _count(table, num_bids, forbid, cap):
    """Decision nodes and terminals of the public tree, by a depth-first walk."""
    size = max(num_bids, cap) + 2  # the deepest round: every bid, or the cap
    last = np.zeros(size, np.int64)
    made = np.zeros(size, np.int64)
    legal = np.zeros((size, num_bids), np.int64)
    n_legal = np.zeros(size, np.int64)
    k = np.zeros(size, np.int64)
    decisions, terminals = 1, 0
    n_legal[0] = _legal(table, 0, 0, num_bids, forbid, legal[0])
    d = 0
    while d >= 0:
        if k[d] == n_legal[d]:
            d -= 1
            continue
        index = legal[d, k[d]]
        k[d] += 1
        if cap > 0 and d + 1 >= cap:  # the cap-th bid ends the round
            terminals += 1
            continue
        decisions += 1
        terminals += 1  # the challenge of this bid
        last[d + 1] = index + 1
        made[d + 1] = made[d] | (np.int64(1) << index)
        n_legal[d + 1] = _legal(table, index + 1, made[d + 1], num_bids, forbid, legal[d + 1])
        k[d + 1] = 0
        d += 1
    return decisions, terminals


@jit(alloc=True)
def _build(table, num_bids, forbid, cap, opener, player, first_child, num_children, parent,
           action, payoff, scale):
    """Fill the breadth-first arrays; returns the depth and the most children of a node."""
    n = player.shape[0]
    made = np.zeros(n, np.int64)
    depth = np.zeros(n, np.int64)
    legal = np.zeros(num_bids, np.int64)
    parent[0] = -1
    action[0] = -1
    top = 1  # next free node
    max_children = 0
    for h in range(n):
        if h > 0 and action[h] == 0:  # a challenge: the bidder of the parent's last bid
            bidder = 1 - player[parent[h]]
            player[h] = -1
            payoff[h] = action[parent[h]] - 1
            scale[h] = 1.0 if bidder == 0 else -1.0
            continue
        if cap > 0 and depth[h] >= cap:  # cut by the cap: 0 to both
            player[h] = -1
            payoff[h] = num_bids
            scale[h] = 0.0
            continue
        player[h] = (opener + depth[h]) % 2
        last = action[h] if h > 0 else 0
        count = _legal(table, last, made[h], num_bids, forbid, legal)
        first_child[h] = top
        if h > 0:  # the challenge comes first (action 0), then the bids in action order
            parent[top] = h
            action[top] = 0
            depth[top] = depth[h] + 1
            top += 1
        for j in range(count):
            parent[top] = h
            action[top] = legal[j] + 1
            made[top] = made[h] | (np.int64(1) << legal[j])
            depth[top] = depth[h] + 1
            top += 1
        num_children[h] = top - first_child[h]
        max_children = max(max_children, num_children[h])
    return depth.max(), max_children


def tree_size(v: Variant) -> tuple[int, int]:
    """(decision nodes, terminals) of the variant's public tree, counted without building it."""
    decisions, terminals = _count(rules_table(v), v.num_bids, v.forbid_repeat_bids,
                                  v.max_round_steps)
    return int(decisions), int(terminals)


def build_tree(v: Variant | None = None, max_nodes: int = 400_000_000, **options: Any) -> Tree:
    """The variant's public tree (``make_variant(**options)`` unless ``v`` is given); a
    ValueError if it has more than ``max_nodes`` nodes."""
    v = make_variant(**options) if v is None else v
    decisions, terminals = tree_size(v)
    n = decisions + terminals
    if n > check_int(max_nodes, "max_nodes", 1):
        raise ValueError(f"{v.label()}: {n:,} nodes, more than max_nodes={max_nodes:,}")
    player = np.full(n, TERMINAL, np.int8)
    first_child = np.zeros(n, np.int32)
    num_children = np.zeros(n, np.int32)
    parent = np.zeros(n, np.int32)
    action = np.zeros(n, np.int32)
    payoff = np.full(n, -1, np.int32)
    scale = np.zeros(n, np.float64)
    max_depth, max_children = _build(rules_table(v), v.num_bids, v.forbid_repeat_bids,
                                     v.max_round_steps, v.opener, player, first_child,
                                     num_children, parent, action, payoff, scale)
    return Tree(player, first_child, num_children, parent, action, payoff, scale,
                bid_matrices(v), int(max_depth), int(max_children))


def check_tree(tree: Any, v: Variant) -> None:
    """Refuse a tree that is not ``build_tree(v)``'s: a TypeError for another object, a
    ValueError for another variant (its size, rolls, chance and payoffs, or opener)."""
    if not isinstance(tree, Tree):
        raise TypeError(f"tree must be a vecgames.solve.Tree, got {type(tree).__name__}")
    matrices = bid_matrices(v)
    if (tree.num_nodes != sum(tree_size(v)) or tree.matrices.shape != matrices.shape
            or not np.array_equal(tree.matrices, matrices) or int(tree.player[0]) != v.opener):
        raise ValueError(f"tree: not the tree of {v.label()} (build it with "
                         f"build_tree(make_variant(...)) of the same options)")
