"""CFR+ over a whole public tree (``tree.py``), exact best responses and exploitability.

One depth-first walk (``_walk``) does the three jobs, with every type of both players at once
(vector form): CFR+ for one player (alternating updates, regret matching+, the average
strategy weighted by the iteration), a best response for one player against a fixed strategy,
and the value of a strategy profile. Counterfactual values at an information set (node, type)
are the opponent's reach times chance times payoff, summed over the opponent's types.
Everything is serial and in a fixed order, so a solve is deterministic.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from ..core.jit import jit
from ..core.validation import check_int, check_number
from .tree import Tree

CFR, BEST_RESPONSE, EVALUATE = 0, 1, 2


@jit(alloc=True)
def _walk(player, first_child, num_children, payoff, scale, matrices, max_depth, max_children,
          mode, p, table, avg, weight):
    """Counterfactual values of player ``p``'s types at the root (summed: ``p``'s value).

    ``mode`` CFR: ``table`` holds regrets (both players'), updated in place for ``p``, and
    ``avg`` gains ``weight`` x own reach x the current strategy at ``p``'s nodes. BEST_RESPONSE:
    ``table`` is a strategy; ``p`` maximises per information set. EVALUATE: ``table`` is a
    strategy for both."""
    r0 = matrices.shape[1]
    r1 = matrices.shape[2]
    rp = r0 if p == 0 else r1
    ro = r1 if p == 0 else r0
    rmax = max(r0, r1)
    depth = max_depth + 1
    node = np.zeros(depth, np.int64)
    k = np.zeros(depth, np.int64)
    reach_opp = np.ones((depth, ro))
    reach_own = np.ones((depth, rp))
    sig = np.zeros((depth, max_children, rmax))
    cv = np.zeros((depth, max_children, rp))
    v = np.zeros(rp)
    sign = 1.0 if p == 0 else -1.0
    d = 0
    k[0] = -1
    while True:
        h = node[d]
        q = player[h]
        if k[d] < 0:  # entering h
            live = mode == CFR
            for o in range(ro):
                if reach_opp[d, o] != 0.0:
                    live = True
            if q < 0 or not live:  # a terminal, or a subtree the opponent never reaches
                for r in range(rp):
                    v[r] = 0.0
                if q < 0 and live and scale[h] != 0.0:  # (0: a round cut by a cap)
                    s = sign * scale[h]
                    m = payoff[h]
                    for r in range(rp):
                        acc = 0.0
                        for o in range(ro):
                            x = matrices[m, r, o] if p == 0 else matrices[m, o, r]
                            acc += x * reach_opp[d, o]
                        v[r] = s * acc
                if d == 0:
                    return v.copy()
                d -= 1
                a = k[d] - 1
                for r in range(rp):
                    cv[d, a, r] = v[r]
                continue
            n = num_children[h]
            c0 = first_child[h]
            if not (mode == BEST_RESPONSE and q == p):
                rq = r0 if q == 0 else r1
                for r in range(rq):
                    total = 0.0
                    for a in range(n):
                        total += max(table[c0 + a, r], 0.0)
                    for a in range(n):
                        sig[d, a, r] = max(table[c0 + a, r], 0.0) / total if total > 0 else 1.0 / n
            k[d] = 0
        if k[d] < num_children[h]:
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
            node[d + 1] = first_child[h] + a
            k[d + 1] = -1
            d += 1
            continue
        # every child is done: the node's value, and CFR+'s update at p's nodes
        n = num_children[h]
        c0 = first_child[h]
        for r in range(rp):
            acc = 0.0
            if q != p:
                for a in range(n):
                    acc += cv[d, a, r]
            elif mode == BEST_RESPONSE:
                acc = cv[d, 0, r]
                for a in range(1, n):
                    acc = max(acc, cv[d, a, r])
            else:
                for a in range(n):
                    acc += sig[d, a, r] * cv[d, a, r]
            v[r] = acc
        if mode == CFR and q == p:
            for a in range(n):
                for r in range(rp):
                    table[c0 + a, r] = max(table[c0 + a, r] + cv[d, a, r] - v[r], 0.0)
                    avg[c0 + a, r] += weight * reach_own[d, r] * sig[d, a, r]
        if d == 0:
            return v.copy()
        d -= 1
        a = k[d] - 1
        for r in range(rp):
            cv[d, a, r] = v[r]


@jit
def _normalize(player, first_child, num_children, r0, r1, weights, out):
    """out = weights normalised per (decision node, type) over the node's children; uniform
    where the weights are all zero (an information set the strategy never reaches)."""
    for h in range(player.shape[0]):
        q = player[h]
        if q < 0:
            continue
        n = num_children[h]
        c0 = first_child[h]
        for r in range(r0 if q == 0 else r1):
            total = 0.0
            for a in range(n):
                total += weights[c0 + a, r]
            for a in range(n):
                out[c0 + a, r] = weights[c0 + a, r] / total if total > 0 else 1.0 / n


def _run(tree: Tree, mode: int, p: int, table: np.ndarray, avg: np.ndarray,
         weight: float = 0.0) -> np.ndarray:
    return _walk(tree.player, tree.first_child, tree.num_children, tree.payoff, tree.scale,
                 tree.matrices, tree.max_depth, tree.max_children, mode, p, table, avg, weight)


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


def solve(tree: Tree, iterations: int = 1000, target: float | None = None,
          check_every: int = 100,
          progress: Callable[[int, float], None] | None = None) -> Solution:
    """CFR+ (alternating updates, average weighted by iteration) for up to ``iterations``
    iterations, stopping early once the exploitability, measured every ``check_every``
    iterations, is below ``target``."""
    iterations = check_int(iterations, "iterations", 1)
    check_every = check_int(check_every, "check_every", 1)
    goal = -1.0 if target is None else check_number(target, "target", 0.0)
    regret = np.zeros(edge_shape(tree))
    avg = np.zeros(edge_shape(tree))
    trace: list[tuple[int, float]] = []
    start = time.perf_counter()
    strategy, expl, t = uniform_strategy(tree), float("inf"), 0
    while t < iterations:
        t += 1
        for p in (0, 1):
            _run(tree, CFR, p, regret, avg, float(t))
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
