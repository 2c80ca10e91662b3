"""CFR+ over a whole public tree (``vecgames.core.tree``), exact best responses and exploitability.

One walk of the tree (``_sweep``, depth-first below the split in ``_subtree``) does the three
jobs, with every type of both players at once (vector form): CFR+ for one player (alternating
updates, regret matching+, the average strategy weighted by the iteration; or DCFR), a best
response for one player against a fixed strategy, and the value of a strategy profile.
Counterfactual values at an information set (node, type) are the opponent's reach times
chance times payoff, summed over the opponent's types. A public chance node (``CHANCE``) is
walked as a node of neither player whose strategy is 1 on every edge: its outcome's
probability is in the terminal matrices below it, so the reaches pass through unchanged and
its value is the sum of its children's. The subtrees below the split are
independent and their results are combined in a fixed order, so a solve gives the same bits
at any thread count.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import NamedTuple

import numba
import numpy as np
from numba import prange
from numba.core.registry import CPUDispatcher

from ..core.jit import LockedDispatcher, jit
from ..core.tree import CHANCE, Tree
from ..core.validation import check_choice, check_int, check_number

CFR, BEST_RESPONSE, EVALUATE = 0, 1, 2


@jit
def _terminal(matrices, m, s, p, reach_opp, out):
    """out = p's counterfactual values at a terminal: s x the payoff matrix's row (p = 0) or
    column (p = 1) of each own type, dotted with the opponent's reach."""
    ro = reach_opp.shape[0]
    for r in range(out.shape[0]):
        acc = 0.0
        if s != 0.0:  # (0: a round cut by a cap)
            for o in range(ro):
                x = matrices[m, r, o] if p == 0 else matrices[m, o, r]
                acc += x * reach_opp[o]
        out[r] = s * acc


@jit
def _strategy(table, c0, n, rq, out):
    """out[a, r] = the strategy at a node whose children are c0 .. c0 + n - 1: regret
    matching+ on ``table`` (a strategy is its own normalisation), uniform where all are 0."""
    for r in range(rq):
        total = 0.0
        for a in range(n):
            total += max(table[c0 + a, r], 0.0)
        for a in range(n):
            out[a, r] = max(table[c0 + a, r], 0.0) / total if total > 0 else 1.0 / n


@jit
def _combine(mode, mine, n, sig, cv, v):
    """A node's values from its children's: summed at the opponent's nodes, the strategy's
    mean (or the best, for a best response) at the player's own."""
    for r in range(v.shape[0]):
        acc = 0.0
        if not mine:
            for a in range(n):
                acc += cv[a, r]
        elif mode == BEST_RESPONSE:
            acc = cv[0, r]
            for a in range(1, n):
                acc = max(acc, cv[a, r])
        else:
            for a in range(n):
                acc += sig[a, r] * cv[a, r]
        v[r] = acc


@jit
def _update(table, avg, weight, c0, n, sig, cv, v, reach_own):
    """The update at the player's node. ``weight`` = (discount of positive regrets, of
    negative ones, of the average, the weight of this iteration's reach x strategy in the
    average, 1 to floor regrets at 0): CFR+ is (1, 1, 1, t, 1), DCFR discounts."""
    pos, neg, keep, w, floor = weight[0], weight[1], weight[2], weight[3], weight[4] > 0
    for a in range(n):
        for r in range(v.shape[0]):
            x = table[c0 + a, r]
            x = x * (pos if x > 0 else neg) + cv[a, r] - v[r]
            table[c0 + a, r] = max(x, 0.0) if floor else x
            avg[c0 + a, r] = avg[c0 + a, r] * keep + w * reach_own[r] * sig[a, r]


@jit(alloc=True)
def _subtree(player, first_child, num_children, payoff, scale, matrices, max_depth,
             max_children, mode, p, table, avg, weight, start, reach_opp0, reach_own0, out):
    """Counterfactual values of player ``p``'s types at node ``start`` (reached with the
    given reaches) into ``out``, by a depth-first walk of its subtree.

    ``mode`` CFR: ``table`` holds regrets (both players'), updated in place for ``p``, and
    ``avg`` gains ``weight`` x own reach x the current strategy at ``p``'s nodes. BEST_RESPONSE:
    ``table`` is a strategy; ``p`` maximises per information set. EVALUATE: ``table`` is a
    strategy for both."""
    r0 = matrices.shape[1]
    r1 = matrices.shape[2]
    rp = r0 if p == 0 else r1
    ro = r1 if p == 0 else r0
    sign = 1.0 if p == 0 else -1.0
    if player[start] < 0:
        _terminal(matrices, payoff[start], sign * scale[start], p, reach_opp0, out)
        return
    depth = max_depth + 1
    node = np.zeros(depth, np.int64)
    k = np.zeros(depth, np.int64)
    reach_opp = np.zeros((depth, ro))
    reach_own = np.zeros((depth, rp))
    sig = np.zeros((depth, max_children, max(r0, r1)))
    cv = np.zeros((depth, max_children, rp))
    child_reach = np.zeros(ro)
    v = np.zeros(rp)
    reach_opp[0] = reach_opp0
    reach_own[0] = reach_own0
    node[0] = start
    k[0] = -1
    d = 0
    while True:
        h = node[d]
        q = player[h]
        n = num_children[h]
        c0 = first_child[h]
        if k[d] < 0:  # entering decision node h
            live = mode == CFR
            for o in range(ro):
                if reach_opp[d, o] != 0.0:
                    live = True
            if not live:  # a subtree the opponent never reaches: worth 0
                for r in range(rp):
                    v[r] = 0.0
                if d == 0:
                    for r in range(rp):
                        out[r] = 0.0
                    return
                d -= 1
                for r in range(rp):
                    cv[d, k[d] - 1, r] = v[r]
                continue
            if q == CHANCE:  # the opponent's branch with strategy 1: reaches unchanged
                sig[d, :n] = 1.0
            elif not (mode == BEST_RESPONSE and q == p):
                _strategy(table, c0, n, r0 if q == 0 else r1, sig[d])
            k[d] = 0
        while k[d] < n and player[c0 + k[d]] < 0:  # terminal children, in place
            a = k[d]
            c = c0 + a
            if q == p:
                _terminal(matrices, payoff[c], sign * scale[c], p, reach_opp[d], cv[d, a])
            else:
                for o in range(ro):
                    child_reach[o] = reach_opp[d, o] * sig[d, a, o]
                _terminal(matrices, payoff[c], sign * scale[c], p, child_reach, cv[d, a])
            k[d] += 1
        if k[d] < n:  # the next decision child
            a = k[d]
            k[d] += 1
            if q == p:
                for o in range(ro):
                    reach_opp[d + 1, o] = reach_opp[d, o]
                for r in range(rp):
                    reach_own[d + 1, r] = reach_own[d, r] * sig[d, a, r]
            else:
                for o in range(ro):
                    reach_opp[d + 1, o] = reach_opp[d, o] * sig[d, a, o]
                for r in range(rp):
                    reach_own[d + 1, r] = reach_own[d, r]
            node[d + 1] = c0 + a
            k[d + 1] = -1
            d += 1
            continue
        # every child is done: the node's value, and CFR+'s update at p's nodes
        _combine(mode, q == p, n, sig[d], cv[d], v)
        if mode == CFR and q == p:
            _update(table, avg, weight, c0, n, sig[d], cv[d], v, reach_own[d])
        if d == 0:
            for r in range(rp):
                out[r] = v[r]
            return
        d -= 1
        for r in range(rp):
            cv[d, k[d] - 1, r] = v[r]


@jit(alloc=True, parallel=True)
def _subtrees(player, first_child, num_children, payoff, scale, matrices, max_depth,
              max_children, mode, p, table, avg, weight, order, threads, reach_opp, reach_own,
              values):
    """``_subtree`` at each root of ``order`` (largest first), spread over ``threads``
    round-robin, each into its own row of ``values``."""
    for j in prange(threads):
        for i in range(j, order.shape[0], threads):
            c = order[i]
            _subtree(player, first_child, num_children, payoff, scale, matrices, max_depth,
                     max_children, mode, p, table, avg, weight, c, reach_opp[c], reach_own[c],
                     values[c])


@jit(alloc=True)
def _subtrees_serial(player, first_child, num_children, payoff, scale, matrices, max_depth,
                     max_children, mode, p, table, avg, weight, order, reach_opp, reach_own,
                     values):
    """``_subtrees`` in the calling thread: launching threads costs about 20 us, more than
    a small tree's (Kuhn's, Leduc's) whole walk."""
    for i in range(order.shape[0]):
        c = order[i]
        _subtree(player, first_child, num_children, payoff, scale, matrices, max_depth,
                 max_children, mode, p, table, avg, weight, c, reach_opp[c], reach_own[c],
                 values[c])


@jit(alloc=True)
def _sweep(player, first_child, num_children, payoff, scale, matrices, max_depth,
           max_children, mode, p, table, avg, weight, top_end, item_end, order, threads):
    """One walk of the whole tree for player ``p``: the nodes above the split level (the
    first ``top_end``, breadth-first) serially, the subtrees below it (roots
    ``top_end .. item_end - 1``, in ``order``, largest first) spread over ``threads``
    (none launched for 1). Each subtree is computed alone and the results are combined in a
    fixed order, so the values do not depend on the threads. Returns p's values at the root."""
    r0 = matrices.shape[1]
    r1 = matrices.shape[2]
    rp = r0 if p == 0 else r1
    ro = r1 if p == 0 else r0
    sign = 1.0 if p == 0 else -1.0
    reach_opp = np.ones((item_end, ro))
    reach_own = np.ones((item_end, rp))
    values = np.zeros((item_end, rp))
    sig = np.zeros((top_end, max_children, max(r0, r1)))
    for h in range(top_end):  # forward: the reaches of every node down to the split
        q = player[h]
        if q < 0:
            continue
        n = num_children[h]
        c0 = first_child[h]
        if q == CHANCE:
            sig[h, :n] = 1.0
        elif not (mode == BEST_RESPONSE and q == p):
            _strategy(table, c0, n, r0 if q == 0 else r1, sig[h])
        for a in range(n):
            c = c0 + a
            for o in range(ro):
                reach_opp[c, o] = reach_opp[h, o] * (sig[h, a, o] if q != p else 1.0)
            for r in range(rp):
                reach_own[c, r] = reach_own[h, r] * (sig[h, a, r] if q == p else 1.0)
    if threads > 1:  # the subtrees
        _subtrees(player, first_child, num_children, payoff, scale, matrices, max_depth,
                  max_children, mode, p, table, avg, weight, order, threads, reach_opp,
                  reach_own, values)
    else:
        _subtrees_serial(player, first_child, num_children, payoff, scale, matrices,
                         max_depth, max_children, mode, p, table, avg, weight, order,
                         reach_opp, reach_own, values)
    for h in range(top_end - 1, -1, -1):  # backward: the nodes above the split
        q = player[h]
        if q < 0:
            _terminal(matrices, payoff[h], sign * scale[h], p, reach_opp[h], values[h])
            continue
        n = num_children[h]
        c0 = first_child[h]
        cv = values[c0:c0 + n]
        _combine(mode, q == p, n, sig[h], cv, values[h])
        if mode == CFR and q == p:
            _update(table, avg, weight, c0, n, sig[h], cv, values[h], reach_own[h])
    return values[0].copy()


@jit(alloc=True)
def _iterate(player, first_child, num_children, payoff, scale, matrices, max_depth,
             max_children, table, avg, weights, top_end, item_end, order, threads):
    """CFR iterations, one per row of ``weights`` (``_update``'s), each the two players'
    alternating sweeps: the same sweeps as from Python, in one call (a call from Python
    costs more than a whole iteration on Kuhn poker)."""
    for i in range(weights.shape[0]):
        for p in range(2):
            _sweep(player, first_child, num_children, payoff, scale, matrices, max_depth,
                   max_children, CFR, p, table, avg, weights[i], top_end, item_end, order,
                   threads)


for _kernel in (_sweep, _iterate):  # they launch _subtrees' threads: under the lock of a
    if type(_kernel) is CPUDispatcher:  # parallel kernel (core/jit.py; not with
        _kernel.__class__ = LockedDispatcher  # NUMBA_DISABLE_JIT, a plain function)


@jit
def _subtree_sizes(first_child, num_children, out):
    for h in range(out.shape[0] - 1, -1, -1):
        out[h] = 1
        for c in range(first_child[h], first_child[h] + num_children[h]):
            out[h] += out[c]


class Split(NamedTuple):
    """Where a walk goes parallel: nodes before ``top_end`` serial, subtrees rooted at
    ``top_end .. item_end - 1`` handed out largest first (``order``)."""

    top_end: int
    item_end: int
    order: np.ndarray


def _split(tree: Tree) -> Split:
    """The split two levels below the root (in Liar's Dice: the answers to the first bid).
    Breadth-first, the nodes above it are a prefix and the level's nodes follow."""
    level = min(2, tree.max_depth)
    top_end = 1 if level == 1 else int(tree.first_child[0] + tree.num_children[0])
    item_end = top_end
    for h in range(top_end):
        item_end = max(item_end, int(tree.first_child[h] + tree.num_children[h]))
    sizes = np.zeros(tree.num_nodes, np.int64)
    _subtree_sizes(tree.first_child, tree.num_children, sizes)
    items = np.arange(top_end, item_end)
    return Split(top_end, item_end, items[np.argsort(-sizes[items], kind="stable")])


@jit
def _normalize(player, first_child, num_children, r0, r1, weights, out):
    """out = weights normalised per (decision node, type) over the node's children; uniform
    where the weights are all zero (an information set the strategy never reaches). A
    chance node's edges stay 0."""
    for h in range(player.shape[0]):
        q = player[h]
        if q != 0 and q != 1:
            continue
        n = num_children[h]
        c0 = first_child[h]
        for r in range(r0 if q == 0 else r1):
            total = 0.0
            for a in range(n):
                total += weights[c0 + a, r]
            for a in range(n):
                out[c0 + a, r] = weights[c0 + a, r] / total if total > 0 else 1.0 / n


SERIAL_WORK = 4096  # nodes x types below which a walk runs in one thread


def _threads(tree: Tree) -> int:
    """The threads of a walk: one for a tree too small to pay for launching them (any
    count gives the same bits)."""
    small = tree.num_nodes * max(tree.num_types) < SERIAL_WORK
    return 1 if small else numba.get_num_threads()


def _run(tree: Tree, mode: int, p: int, table: np.ndarray, avg: np.ndarray,
         weight: np.ndarray | None = None, split: Split | None = None) -> np.ndarray:
    weight = np.zeros(5) if weight is None else weight
    split = _split(tree) if split is None else split
    return _sweep(tree.player, tree.first_child, tree.num_children, tree.payoff, tree.scale,
                  tree.matrices, tree.max_depth, tree.max_children, mode, p, table, avg, weight,
                  split.top_end, split.item_end, split.order, _threads(tree))


def edge_shape(tree: Tree) -> tuple[int, int]:
    return tree.num_nodes, max(tree.num_types)


def normalize(tree: Tree, weights: np.ndarray) -> np.ndarray:
    """A behaviour strategy from non-negative edge weights (e.g. CFR's average sums)."""
    out = np.zeros(edge_shape(tree))
    _normalize(tree.player, tree.first_child, tree.num_children, *tree.num_types,
               _check_strategy(tree, weights, "weights"), out)
    return out


def uniform_strategy(tree: Tree) -> np.ndarray:
    """Every information set picks each of its actions with equal probability."""
    return normalize(tree, np.zeros(edge_shape(tree)))


def _check_strategy(tree: Tree, strategy: np.ndarray, name: str = "strategy") -> np.ndarray:
    if not isinstance(strategy, np.ndarray):
        raise TypeError(f"{name} must be a numpy array, got {type(strategy).__name__}")
    if strategy.shape != edge_shape(tree):
        raise ValueError(f"{name} must have shape {edge_shape(tree)} (nodes x types), got "
                         f"{strategy.shape}")
    return np.ascontiguousarray(strategy, np.float64)


def profile(tree: Tree, seat0: np.ndarray, seat1: np.ndarray) -> np.ndarray:
    """One strategy array playing ``seat0``'s rows at seat 0's nodes and ``seat1``'s at seat
    1's (e.g. a player against the equilibrium)."""
    a, b = _check_strategy(tree, seat0, "seat0"), _check_strategy(tree, seat1, "seat1")
    owner = np.where(tree.parent >= 0, tree.player[np.maximum(tree.parent, 0)], 0)
    return np.where((owner == 0)[:, None], a, b)


def best_response_value(tree: Tree, strategy: np.ndarray, player: int) -> float:
    """``player``'s value when it best-responds to ``strategy`` (the other seat's part of it
    is used), by an exact walk of the whole tree."""
    player = check_int(player, "player", 0, 1)
    s = _check_strategy(tree, strategy)
    return float(_run(tree, BEST_RESPONSE, player, s, s).sum())


def game_value(tree: Tree, strategy: np.ndarray) -> float:
    """Player 0's expected payoff when both players follow ``strategy``."""
    s = _check_strategy(tree, strategy)
    return float(_run(tree, EVALUATE, 0, s, s).sum())


def exploitability(tree: Tree, strategy: np.ndarray) -> float:
    """NashConv / 2: the mean over seats of the best response's value against ``strategy``
    (0 exactly at an equilibrium; the game value cancels in the sum)."""
    return 0.5 * (best_response_value(tree, strategy, 0) + best_response_value(tree, strategy, 1))


class Solution(NamedTuple):
    strategy: np.ndarray  # the normalised average strategy [N, R]
    value: float  # player 0's payoff under it
    exploitability: float  # NashConv / 2
    iterations: int
    seconds: float  # wall time of the iterations and checks
    trace: list[tuple[int, float]]  # (iterations, exploitability) at each check


METHODS = ("cfr+", "dcfr")
BATCH = 1024  # the most iterations ``solve`` runs in one call of ``_iterate``


def _weights(method: str, t: int) -> np.ndarray:
    """``_update``'s weights at iteration t (1-based): CFR+ (regrets floored at 0, average
    weighted by t) or DCFR with alpha 1.5, beta 0, gamma 2 (Brown & Sandholm 2019: the sums
    so far discounted by (t-1)^a / ((t-1)^a + 1), 1/2 and ((t-1)/t)^2)."""
    if method == "cfr+":
        return np.array([1.0, 1.0, 1.0, float(t), 1.0])
    s = float(t - 1)
    return np.array([s**1.5 / (s**1.5 + 1), 0.5, (s / t) ** 2, 1.0, 0.0])


def solve(tree: Tree, iterations: int = 1000, target: float | None = None,
          check_every: int = 100, method: str = "cfr+",
          progress: Callable[[int, float], None] | None = None) -> Solution:
    """CFR+ (alternating updates, average weighted by iteration; ``method="dcfr"``:
    Discounted CFR) for up to ``iterations`` iterations, stopping early once the
    exploitability, measured every ``check_every`` iterations, is below ``target``."""
    iterations = check_int(iterations, "iterations", 1)
    check_every = check_int(check_every, "check_every", 1)
    method = check_choice(method, "method", METHODS)
    goal = -1.0 if target is None else check_number(target, "target", 0.0)
    regret = np.zeros(edge_shape(tree))
    avg = np.zeros(edge_shape(tree))
    trace: list[tuple[int, float]] = []
    start = time.perf_counter()
    strategy, expl, t = uniform_strategy(tree), float("inf"), 0
    split = _split(tree)  # once: it walks the whole tree
    while t < iterations:
        # the iterations up to the next check (at most BATCH) in one call
        end = min(iterations, (t // check_every + 1) * check_every, t + BATCH)
        weights = np.array([_weights(method, s) for s in range(t + 1, end + 1)])
        _iterate(tree.player, tree.first_child, tree.num_children, tree.payoff, tree.scale,
                 tree.matrices, tree.max_depth, tree.max_children, regret, avg, weights,
                 split.top_end, split.item_end, split.order, _threads(tree))
        t = end
        if t % check_every == 0 or t == iterations:
            strategy = normalize(tree, avg)
            expl = exploitability(tree, strategy)
            trace.append((t, expl))
            if progress is not None:
                progress(t, expl)
            if expl < goal:
                break
    return Solution(strategy, game_value(tree, strategy), expl, t,
                    time.perf_counter() - start, trace)
