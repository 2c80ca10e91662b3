"""Self-play learners that approach equilibrium from sampled games: Monte Carlo CFR
(Lanctot et al. 2009) over a public tree (``vecgames.core.tree``), tabular because these
trees fit.

Each episode deals the private types from the chance distribution and plays the round with
both seats drawing from their current regret-matching strategies; the seat being updated
(alternating, episode by episode) learns from the payoffs it sees, and the other seat adds
its current strategy to its average, whose normalisation converges to a Nash equilibrium.

- ``external`` (default): the other seat's actions and the deal are sampled; the updated
  seat tries each of its actions from every state it reaches (a simulator that can be
  restored to a state), so its regrets are the sampled payoffs' differences.
- ``outcome``: one trajectory per episode, as an RL agent sees it; the updated seat explores
  (``epsilon`` of its draws uniform) and learns from the single payoff, importance-weighted
  by its own sampling probabilities; the average uses the other seat's reach over the
  sampling reach (stochastically weighted averaging). It needs no restores, and many more
  steps: on 2 dice against 1, 0.21 after 30 M env steps where ``external`` is at 0.044.

A public chance node (Leduc's board card) is sampled on-policy from its outcomes'
probabilities given the dealt types (the tree's ``chance_probs``), and a terminal's payoff
is divided by the probability of the whole deal drawn (types and chance outcomes).

An env step is one action played (a chance outcome is not one). Episodes run in blocks,
each drawn from the Numba stream ``(seed, block)`` in one thread, so a run is the same for
the same arguments.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from ..core.jit import jit
from ..core.tree import CHANCE, Tree
from ..core.validation import check_choice, check_int, check_number
from .cfr import edge_shape, exploitability, game_value, normalize


@jit
def _regret_matching(regrets, c0, n, t, out):
    """out[a] = the current strategy at the information set (children c0.., type t)."""
    total = 0.0
    for a in range(n):
        total += max(regrets[c0 + a, t], 0.0)
    for a in range(n):
        out[a] = max(regrets[c0 + a, t], 0.0) / total if total > 0 else 1.0 / n


@jit
def _deal(deal_cdf, r1n):
    """A pair of types drawn from the chance distribution (its cumulative sums, flat)."""
    k = np.searchsorted(deal_cdf, np.random.random() * deal_cdf[-1], side="right")
    k = min(k, deal_cdf.shape[0] - 1)
    return k // r1n, k % r1n


@jit
def _draw(probs, n):
    """An action drawn from ``probs[:n]``."""
    x = np.random.random()
    a = 0
    acc = probs[0]
    while a < n - 1 and x >= acc:
        a += 1
        acc += probs[a]
    return a


@jit
def _payoff(scale, matrices, payoff, h, types, chance, me):
    """The updated seat's payoff at terminal ``h`` for the dealt ``types`` (the matrices hold
    the chance weight ``chance`` already: the deal's, times the chance outcomes' on the way)."""
    u = scale[h] * matrices[payoff[h], types[0], types[1]] / chance
    return u if me == 0 else -u


@jit
def _chance(chance_edge, chance_probs, c0, n, types, out):
    """out[a] = the probability of chance outcome a (children c0..) given the dealt types."""
    for a in range(n):
        out[a] = chance_probs[chance_edge[c0 + a], types[0], types[1]]


@jit(alloc=True)
def _outcome(player, first_child, num_children, payoff, scale, matrices, deal, deal_cdf,
              max_depth, max_children, chance_edge, chance_probs, regrets, avg, epsilon, first,
              count, seed):
    """Play episodes ``first .. first + count - 1`` (seat ``e % 2`` updates in episode e),
    updating ``regrets`` and ``avg`` in place; returns the env steps taken."""
    np.random.seed(seed)
    r1n = matrices.shape[2]
    path_node = np.zeros(max_depth + 1, np.int64)
    path_type = np.zeros(max_depth + 1, np.int64)
    path_action = np.zeros(max_depth + 1, np.int64)
    sigma = np.zeros(max_children)
    sample = np.zeros(max_children)
    reach = np.ones(2)
    steps = 0
    for e in range(first, first + count):
        me = e % 2
        types = _deal(deal_cdf, r1n)
        reach[0] = 1.0
        reach[1] = 1.0
        q = 1.0  # the sampling probability of the prefix (both seats; chance is on-policy)
        q_me = 1.0  # the updated seat's own part of it
        chance = deal[types[0], types[1]]  # the deal's probability, and the outcomes' on the way
        h = 0
        d = 0
        while player[h] >= 0:
            p = player[h]
            c0 = first_child[h]
            n = num_children[h]
            if p == CHANCE:  # not on the path: nobody's regrets or reach
                _chance(chance_edge, chance_probs, c0, n, types, sample)
                a = _draw(sample, n)
                chance *= sample[a]
                h = c0 + a
                continue
            t = types[p]
            _regret_matching(regrets, c0, n, t, sigma)
            for a in range(n):
                sample[a] = epsilon / n + (1.0 - epsilon) * sigma[a] if p == me else sigma[a]
            if p != me:
                w = reach[p] / q
                for a in range(n):
                    avg[c0 + a, t] += w * sigma[a]
            a = _draw(sample, n)
            path_node[d] = h
            path_type[d] = t
            path_action[d] = a
            reach[p] *= sigma[a]
            q *= sample[a]
            if p == me:
                q_me *= sample[a]
            h = c0 + a
            d += 1
        steps += d
        weight = _payoff(scale, matrices, payoff, h, types, chance, me) / q_me
        tail = 1.0  # the updated seat's own probability of the rest of the game
        for j in range(d - 1, -1, -1):
            h = path_node[j]
            if player[h] != me:
                continue
            t = path_type[j]
            c0 = first_child[h]
            n = num_children[h]
            _regret_matching(regrets, c0, n, t, sigma)
            chosen = path_action[j]
            tail_here = tail * sigma[chosen]
            for a in range(n):
                if a == chosen:
                    regrets[c0 + a, t] += weight * (tail - tail_here)
                else:
                    regrets[c0 + a, t] -= weight * tail_here
            tail = tail_here
    return steps


@jit(alloc=True)
def _external(player, first_child, num_children, payoff, scale, matrices, deal, deal_cdf,
              max_depth, max_children, chance_edge, chance_probs, regrets, avg, first, count,
              seed):
    """External-sampling episodes ``first .. first + count - 1``: the deal and the other
    seat's actions are sampled, the updated seat (``e % 2``) tries each of its actions from
    the states it reaches; returns the env steps taken (every action played from a state)."""
    np.random.seed(seed)
    r1n = matrices.shape[2]
    depth = max_depth + 1
    node = np.zeros(depth, np.int64)
    k = np.zeros(depth, np.int64)
    sig = np.zeros((depth, max_children))
    val = np.zeros((depth, max_children))
    chance = np.zeros(depth)  # the probability of the deal and the chance outcomes to depth d
    steps = 0
    for e in range(first, first + count):
        me = e % 2
        types = _deal(deal_cdf, r1n)
        chance[0] = deal[types[0], types[1]]
        node[0] = 0
        k[0] = -1
        d = 0
        while d >= 0:
            h = node[d]
            c0 = first_child[h]
            n = num_children[h]
            p = player[h]
            if k[d] < 0 and p < 0:  # a terminal: the updated seat's payoff
                d -= 1
                val[d, k[d]] = _payoff(scale, matrices, payoff, h, types, chance[d + 1], me)
                continue
            if p == CHANCE:  # one outcome drawn; its value passes up unchanged
                if k[d] < 0:
                    _chance(chance_edge, chance_probs, c0, n, types, sig[d])
                    k[d] = _draw(sig[d], n)
                    node[d + 1] = c0 + k[d]
                    k[d + 1] = -1
                    chance[d + 1] = chance[d] * sig[d, k[d]]
                    d += 1
                else:
                    d -= 1
                    if d >= 0:
                        val[d, k[d]] = val[d + 1, k[d + 1]]
                continue
            t = types[p]
            if k[d] < 0:  # arriving: the current strategy; explore all, or sample one
                _regret_matching(regrets, c0, n, t, sig[d])
                if p == me:
                    k[d] = 0
                else:
                    for a in range(n):
                        avg[c0 + a, t] += sig[d, a]
                    k[d] = _draw(sig[d], n)
            elif p == me and k[d] < n - 1:  # the next of my actions
                k[d] += 1
            else:  # done here: back up the value (and my regrets)
                if p == me:
                    v = 0.0
                    for a in range(n):
                        v += sig[d, a] * val[d, a]
                    for a in range(n):
                        regrets[c0 + a, t] += val[d, a] - v
                else:
                    v = val[d, k[d]]
                d -= 1
                if d >= 0:
                    val[d, k[d]] = v
                continue
            node[d + 1] = c0 + k[d]
            k[d + 1] = -1
            chance[d + 1] = chance[d]
            d += 1
            steps += 1
    return steps


class Learned(NamedTuple):
    strategy: np.ndarray  # the normalised average strategy [N, R]
    value: float  # seat 0's payoff in its self-play
    exploitability: float  # NashConv / 2, exact
    env_steps: int
    episodes: int
    seconds: float  # wall time of the episodes (the exact checks not counted)
    trace: list[tuple[int, float]]  # (env steps, exploitability) at each check


METHODS = ("external", "outcome")


def _chance_arrays(tree: Tree) -> tuple[np.ndarray, np.ndarray]:
    """The tree's chance edges and probabilities for the kernels (placeholders, never read,
    without chance nodes); a tree with chance nodes but no probabilities is refused."""
    if not tree.has_chance:
        return np.full(tree.num_nodes, -1, np.int32), np.zeros((1, *tree.num_types))
    if tree.chance_edge is None or tree.chance_probs is None:
        raise ValueError("tree has chance nodes but no chance_edge/chance_probs to sample "
                         "them from (build it with vecgames.core.tree.from_nested)")
    return (np.ascontiguousarray(tree.chance_edge, np.int32),
            np.ascontiguousarray(tree.chance_probs, np.float64))


def learn(tree: Tree, deal: np.ndarray, env_steps: int, *, method: str = "external",
          epsilon: float = 0.6, seed: int = 0, checks: int = 20, block: int = 1_000,
          progress: Callable[[int, float], None] | None = None) -> Learned:
    """Monte Carlo CFR (``method``: ``external`` or ``outcome`` sampling; ``epsilon``: the
    latter's exploration) on ``tree`` until ``env_steps`` actions have been played.

    ``deal``: ``[R0, R1]`` the chance probability of each pair of types (it must agree with
    the tree's payoff matrices, which hold it already). Public chance nodes are drawn from
    the tree's ``chance_probs``. The average strategy's exact
    exploitability is measured ``checks`` times, at steps spaced evenly on a log scale (the
    trace to plot against env steps). Episodes run in blocks of ``block``, each drawn from
    the stream ``(seed, block number)``."""
    env_steps = check_int(env_steps, "env_steps", 1)
    method = check_choice(method, "method", METHODS)
    epsilon = check_number(epsilon, "epsilon", 0.0)
    if not 0.0 < epsilon <= 1.0:  # 0 would leave some actions never tried
        raise ValueError(f"epsilon must be in (0, 1], got {epsilon}")
    seed = check_int(seed, "seed", 0, 2**31 - 1)
    checks = check_int(checks, "checks", 1)
    block = check_int(block, "block", 1)
    if not isinstance(deal, np.ndarray):
        raise TypeError(f"deal must be a numpy array, got {type(deal).__name__}")
    if deal.shape != tree.num_types:
        raise ValueError(f"deal must have shape {tree.num_types} (types of seat 0 x seat 1), "
                         f"got {deal.shape}")
    if (deal < 0).any() or not np.isclose(deal.sum(), 1.0):
        raise ValueError(f"deal must be probabilities summing to 1, got sum {deal.sum():.6g}")
    deal = np.ascontiguousarray(deal, np.float64)
    cdf = np.cumsum(deal.ravel())
    chance_edge, chance_probs = _chance_arrays(tree)
    regrets = np.zeros(edge_shape(tree))
    avg = np.zeros(edge_shape(tree))
    marks = sorted(set(np.unique(np.geomspace(max(1, env_steps / 1000), env_steps, checks)
                                 .astype(np.int64)).tolist()) | {env_steps})
    trace: list[tuple[int, float]] = []
    steps = episodes = 0
    seconds = 0.0
    blocks = 0
    for mark in marks:
        while steps < mark:
            start = time.perf_counter()
            stream = (seed * 1_000_003 + blocks) % 2**32
            arrays = (tree.player, tree.first_child, tree.num_children, tree.payoff,
                      tree.scale, tree.matrices, deal, cdf, tree.max_depth,
                      tree.max_children, chance_edge, chance_probs, regrets, avg)
            if method == "outcome":
                steps += int(_outcome(*arrays, epsilon, episodes, block, stream))
            else:
                steps += int(_external(*arrays, episodes, block, stream))
            seconds += time.perf_counter() - start
            episodes += block
            blocks += 1
        if trace and trace[-1][0] == steps:  # a block went past several marks
            continue
        strategy = normalize(tree, avg)
        trace.append((steps, exploitability(tree, strategy)))
        if progress is not None:
            progress(*trace[-1])
    strategy = normalize(tree, avg)
    return Learned(strategy, game_value(tree, strategy), trace[-1][1], steps, episodes,
                   seconds, trace)
