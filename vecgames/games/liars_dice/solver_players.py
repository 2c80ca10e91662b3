"""Other Liar's Dice players as strategies on a solved variant's tree, for their exploitability.

A built-in player's choice at an information set (a seat's roll, the round's bids) is read by
building the env state of that information set: a table row whose seat holds the roll and
whose bids were replayed through the rules' own ``play_legal``; the player then acts on that
row exactly as inside ``simulate`` (``rows_actions_kernel``), or a checkpoint acts on the
row's observation and legal-action mask. The other seat's dice in the row are left empty: a
legal player never reads them.

Seats with different dice (``dice=(2, 1)``) are not an env option; a seat's player is given
the rules of the variant with its own dice (``Rules.dice``) and the table's total
(``Rules.total_dice``), the numbers the heuristic's odds read.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import numpy as np

from ...core.jit import jit
from ...core.tree import Tree
from ...core.validation import check_int
from ...solve.cfr import edge_shape, uniform_strategy
from .observe import observe_one
from .rules import (
    BIDDER,
    CHALLENGER,
    DICE,
    FIRST,
    LOSER,
    NUM_FIELDS,
    PLAYER,
    Rules,
    State,
    make_rules,
    play_legal,
    roll_plan,
    write_mask,
)
from .tree import Variant, packed, rolls, rules_table

CHUNK_ROWS = 1 << 18  # information sets evaluated per batch (a row is ~0.5 KB)
InfosetRows = tuple[np.ndarray, np.ndarray, State, Rules]  # nodes, packed rolls, rows, rules


def seat_rules(v: Variant, seat: int) -> Rules:
    """The env rules a player at ``seat`` of variant ``v`` plays by (see the module doc)."""
    seat = check_int(seat, "seat", 0, 1)
    options = {"num_players": 2, "variant": v.variant, "forbid_repeat_bids": v.forbid_repeat_bids,
               "max_round_steps": v.max_round_steps or 2**31 - 1,
               "min_first_count": v.min_first_count}
    if v.dice[0] == v.dice[1]:
        rules = make_rules(dice=v.dice[0], **options)
    else:  # an env of 1 die each, then the seat's dice and the table's total put in
        d, total = v.dice[seat], v.total_dice
        rules = make_rules(dice=1, **{**options, "min_first_count": 1})._replace(
            dice=d, total_dice=total, num_actions=1 + 11 * total, bids=rules_table(v),
            roll_sizes=roll_plan(d))
    assert np.array_equal(rules.bids, rules_table(v))  # the tree's bid order is the env's
    return rules


@jit(alloc=True)
def _fill_rows(s, r, parent, action, nodes, packs, seat, opener):
    """Row j of ``s`` = information set (nodes[j // R], roll packs[j % R]) of ``seat``."""
    num = packs.shape[0]
    path = np.zeros(64, np.int64)
    for j in range(s.table.shape[0]):
        t = s.table[j]
        for f in range(NUM_FIELDS):
            t[f] = 0
        t[LOSER] = -1
        t[CHALLENGER] = -1
        t[BIDDER] = -1
        t[PLAYER] = opener
        t[FIRST] = opener
        t[DICE + seat] = packs[j % num]
        h = nodes[j // num]
        n = 0
        while parent[h] >= 0:
            path[n] = action[h]
            n += 1
            h = parent[h]
        for k in range(n - 1, -1, -1):
            play_legal(s, j, path[k], r)


@jit
def _mark(first_child, num_children, action, nodes, num, picks, column0, out):
    """out[child of nodes[j // num] with action picks[j], column0 + j % num] = 1; returns
    the first j whose pick is not a child (-1: none)."""
    for j in range(picks.shape[0]):
        h = nodes[j // num]
        found = False
        for c in range(first_child[h], first_child[h] + num_children[h]):
            if action[c] == picks[j]:
                out[c, column0 + j % num] = 1.0
                found = True
        if not found:
            return j
    return -1


@jit
def _spread(first_child, num_children, action, nodes, num, probs, out):
    """out[child of nodes[j // num] with action a, j % num] = probs[j, a]; returns the first
    j whose probabilities do not sum to 1 over the node's children, or put weight on another
    action (-1: none)."""
    for j in range(probs.shape[0]):
        h = nodes[j // num]
        total = 0.0
        for c in range(first_child[h], first_child[h] + num_children[h]):
            total += probs[j, action[c]]
        if abs(total - 1.0) > 1e-6 or abs(probs[j].sum() - total) > 1e-6:
            return j
        for c in range(first_child[h], first_child[h] + num_children[h]):
            out[c, j % num] = probs[j, action[c]] / total
    return -1


def infoset_rows(tree: Tree, v: Variant, seat: int,
                 opener: int | None = None) -> Iterator[InfosetRows]:
    """The information sets of ``seat`` as env rows, in chunks: (the chunk's nodes, the
    seat's rolls packed, rows ``state``, the seat's rules); row j is node ``chunk[j // R]``
    with roll ``packs[j % R]``. ``opener`` (default the tree's): the env seat that opens; with
    the other one, the tree's seats are laid out swapped (equal dice: the same rules)."""
    opener = v.opener if opener is None else opener
    env_seat = seat if opener == v.opener else 1 - seat
    rules = seat_rules(v, seat)
    packs = np.array([packed(roll) for roll in rolls(v.dice[seat])[0]], np.int64)
    nodes = np.flatnonzero(tree.player == seat)
    per_chunk = max(1, CHUNK_ROWS // len(packs))
    for lo in range(0, len(nodes), per_chunk):
        chunk = nodes[lo:lo + per_chunk]
        rows = len(chunk) * len(packs)
        state = State(table=np.zeros((rows, NUM_FIELDS), np.int64),
                      rng=np.zeros(rows, np.uint64))
        _fill_rows(state, rules, tree.parent, tree.action, chunk, packs, env_seat, opener)
        yield chunk, packs, state, rules


def strategy_of(tree: Tree, v: Variant, act: Any) -> np.ndarray:
    """A player's strategy at every information set of ``tree``: ``act(state, rules, seat)``
    returns for every row of ``state`` its action (int ``[rows]``: a pure strategy) or the
    chance of each action (float ``[rows, num_actions]``, 0 on illegal actions)."""
    strategy = np.zeros(edge_shape(tree))
    for seat in (0, 1):
        for chunk, packs, state, rules in infoset_rows(tree, v, seat):
            chosen = np.asarray(act(state, rules, seat))
            rows = state.table.shape[0]
            if chosen.shape == (rows, rules.num_actions):
                probs = np.ascontiguousarray(chosen, np.float64)
                if not np.isfinite(probs).all() or (probs < 0).any():
                    raise ValueError("the player's action probabilities must be finite and "
                                     "non-negative")
                bad = _spread(tree.first_child, tree.num_children, tree.action, chunk,
                              len(packs), probs, strategy)
                if bad >= 0:
                    h = chunk[bad // len(packs)]
                    legal = tree.action[tree.first_child[h]:tree.first_child[h]
                                        + tree.num_children[h]]
                    raise ValueError(f"the player's action probabilities at node {h} sum to "
                                     f"{probs[bad, legal].sum():.6g} over its legal actions "
                                     f"and {probs[bad].sum():.6g} over all: they must be 1 and "
                                     f"1 (0 on illegal actions)")
                continue
            if chosen.shape != (rows,) or not np.issubdtype(chosen.dtype, np.integer):
                raise ValueError(f"the player must return {rows} integer actions or "
                                 f"probabilities of shape {(rows, rules.num_actions)}; got an "
                                 f"array of shape {chosen.shape} ({chosen.dtype})")
            picks = chosen.astype(np.int64)
            bad = _mark(tree.first_child, tree.num_children, tree.action, chunk, len(packs),
                        picks, 0, strategy)
            if bad >= 0:
                raise ValueError(f"the player chose action {picks[bad]}, not legal at "
                                 f"node {chunk[bad // len(packs)]}")
    return strategy


def heuristic_strategy(tree: Tree, v: Variant, threshold: float = 0.5) -> np.ndarray:
    """The built-in ``heuristic`` player (the seed's challenger) at every information set, as
    ``vecgames.exploitability`` reads it (its kernel, with this challenge ``threshold``)."""
    from ...policies.builtin import BuiltinPlayer
    from .solver_judge import strategy

    return strategy(BuiltinPlayer("liars_dice", "heuristic", threshold), v, tree)[0]


def random_strategy(tree: Tree) -> np.ndarray:
    """The built-in ``random`` player: uniform over the legal actions, the challenge one of
    them (``rules.random_legal``); the tree's children are exactly the legal actions."""
    return uniform_strategy(tree)


def checkpoint_strategy(tree: Tree, v: Variant, path: str | os.PathLike) -> np.ndarray:
    """A trained checkpoint (``vecgames.load_player``) at every information set, as
    ``vecgames.exploitability`` reads it. It must have been trained on these rules: 2 seats
    with ``v``'s dice each and variant, the first-bid rule of the env default (count > 2)
    unless ``v`` says otherwise."""
    from ...policies.checkpoint import load_player
    from .solver_judge import strategy

    return strategy(load_player(path), v, tree)[0]


@jit
def _observe_rows(table, r, observation, obs, mask):
    for j in range(table.shape[0]):
        observe_one(table[j], r, observation, obs[j])
        write_mask(table[j], r, mask[j])
