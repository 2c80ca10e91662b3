"""A strategy on a solved variant's tree (``solve(...).strategy``) as a player of the env.

Every information set (a seat's roll, the round's bids) is laid out as an env row
(``solver_players._fill_rows``) and observed with the env's ``full`` observation; the player then
looks each row it is given up by its observation. The tree's seats are roles (the opener and
the other); the env draws who opens, so the table holds both. The ``full`` observation holds
the seat's dice, the seat to act and the bids made, which tells the information sets of the
飞-only variants apart (checked while the table is built: two information sets with one
observation and different strategies are refused).
"""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import numpy as np

from ...core.tree import Tree
from ...core.validation import check_bool, check_int
from ...solve.cfr import _check_strategy, normalize
from .observe import FULL, obs_dim
from .solver_players import _observe_rows, infoset_rows
from .tree import Variant, build_tree, check_tree, make_variant


class StrategyPlayer:
    """Plays ``strategy`` (``[nodes, rolls]`` edge probabilities on ``tree``, the tree of
    ``variant``) in the env: ``action_probs(obs, action_mask)`` looks the rows up, and a call
    draws from them with the player's own stream (``seed``), or plays the most likely action
    (``greedy``). A row whose observation is not one of the tree's information sets is a
    ValueError."""

    game = "liars_dice"

    def __init__(self, tree: Tree, variant: Variant, strategy: np.ndarray,
                 name: str = "strategy", seed: int = 0, greedy: bool = False):
        if not isinstance(variant, Variant):
            raise TypeError(f"variant must be a vecgames.games.liars_dice.tree.Variant, got "
                            f"{type(variant).__name__}")
        check_tree(tree, variant)
        strategy = _check_strategy(tree, strategy)
        if variant.dice[0] != variant.dice[1]:
            raise ValueError("variant: the env deals every seat the same dice; a strategy "
                             "of unequal dice has no env to play in")
        self.name = name
        self.greedy = check_bool(greedy, "greedy")
        self.variant = variant
        self.num_actions = 1 + 11 * variant.total_dice
        self.obs_dim = obs_dim(FULL, 2, self.num_actions)
        self.env_options = {"num_players": 2, "dice": variant.dice[0],
                            "variant": variant.variant,
                            "min_first_count": variant.min_first_count,
                            "forbid_repeat_bids": variant.forbid_repeat_bids,
                            "observation": "full"}
        if variant.max_round_steps:
            self.env_options["max_round_steps"] = variant.max_round_steps
        self._rng = np.random.default_rng(check_int(seed, "seed", 0))
        self._table = self._lay_out(tree, variant, strategy)

    def _lay_out(self, tree: Tree, v: Variant, strategy: np.ndarray) -> dict[bytes, np.ndarray]:
        table: dict[bytes, np.ndarray] = {}
        # the env draws who opens: the tree's seats are roles, laid out for either opener
        for opener, seat in itertools.product((0, 1), (0, 1)):
            for chunk, packs, state, rules in infoset_rows(tree, v, seat, opener):
                rows = state.table.shape[0]
                obs = np.zeros((rows, self.obs_dim), np.float32)
                mask = np.zeros((rows, self.num_actions), np.bool_)
                _observe_rows(state.table, rules, FULL, obs, mask)
                for j in range(rows):
                    h, r = chunk[j // len(packs)], j % len(packs)
                    kids = slice(tree.first_child[h], tree.first_child[h] + tree.num_children[h])
                    probs = np.zeros(self.num_actions)
                    probs[tree.action[kids]] = strategy[kids, r]
                    key = obs[j].tobytes()
                    if key in table and not np.array_equal(table[key], probs):
                        raise ValueError(f"{v.label()}: two information sets share an "
                                         f"observation; the strategy cannot be played from it")
                    table[key] = probs
        return table

    def action_probs(self, obs: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        """float64 ``[rows, num_actions]``: the strategy at each row's information set."""
        obs = np.ascontiguousarray(obs, np.float32)
        if obs.ndim != 2 or obs.shape[1] != self.obs_dim:
            raise ValueError(f"obs must have shape [rows, {self.obs_dim}], got {obs.shape}")
        out = np.empty((obs.shape[0], self.num_actions))
        for j in range(obs.shape[0]):
            probs = self._table.get(obs[j].tobytes())
            if probs is None:
                raise ValueError(f"row {j}: not an information set of {self.variant.label()}")
            out[j] = probs
        return out

    def __call__(self, obs: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        probs = self.action_probs(obs, action_mask)
        if self.greedy:
            return probs.argmax(1).astype(np.int64)
        cum = probs.cumsum(1)
        draws = self._rng.random((probs.shape[0], 1)) * cum[:, -1:]
        return np.minimum((cum <= draws).sum(1), self.num_actions - 1).astype(np.int64)

    def __repr__(self) -> str:
        return f"StrategyPlayer({self.name!r}, {self.variant.label()!r})"


FORMAT = "vecgames-strategy-1"


def save_strategy(path: str | os.PathLike, variant: Variant, strategy: np.ndarray,
                  half: bool = True) -> Path:
    """Write ``strategy`` (on ``build_tree(variant)``) and its variant to an ``.npz`` file
    (float16 probabilities with ``half``; renormalised on loading). Returns the path."""
    if not isinstance(variant, Variant):
        raise TypeError(f"variant must be a vecgames.games.liars_dice.tree.Variant, got "
                        f"{type(variant).__name__}")
    out = Path(path)
    table = np.asarray(strategy, np.float16 if half else np.float32)
    with out.open("wb") as f:  # a file object: np.savez adds no suffix
        np.savez_compressed(f, format=np.array(FORMAT), game=np.array("liars_dice"),
                            strategy=table,
                            dice=np.array(variant.dice), variant=np.array(variant.variant),
                            options=np.array([variant.min_first_count,
                                              int(variant.forbid_repeat_bids),
                                              variant.max_round_steps]))
    return out


def load_strategy(path: str | os.PathLike) -> tuple[Variant, Tree, np.ndarray]:
    """The variant, its tree and the strategy (float64, renormalised on the tree) of a file
    written by ``save_strategy``; a ValueError for any other file (no pickles are read)."""
    try:
        with np.load(path, allow_pickle=False) as f:
            if "format" not in f or str(f["format"]) != FORMAT:
                raise ValueError(f"{os.fspath(path)!r} is not a vecgames strategy file")
            min_first, forbid, cap = (int(x) for x in f["options"])
            v = make_variant(tuple(int(x) for x in f["dice"]), str(f["variant"]), min_first,
                             bool(forbid), cap)
            weights = np.asarray(f["strategy"], np.float64)
    except (OSError, KeyError, EOFError, ValueError) as exc:  # ValueError: not an npz
        raise ValueError(f"cannot read a strategy from {os.fspath(path)!r}: {exc}") from None
    tree = build_tree(v)
    if weights.shape != (tree.num_nodes, max(tree.num_types)):
        raise ValueError(f"{os.fspath(path)!r}: a strategy of shape {weights.shape}, not "
                         f"{(tree.num_nodes, max(tree.num_types))} ({v.label()})")
    return v, tree, normalize(tree, np.maximum(weights, 0.0))


def load_strategy_player(path: str | os.PathLike, name: str | None = None, seed: int = 0,
                         greedy: bool = False) -> StrategyPlayer:
    """A :class:`StrategyPlayer` from a ``save_strategy`` file."""
    v, tree, strategy = load_strategy(path)
    return StrategyPlayer(tree, v, strategy, name=name or Path(path).stem, seed=seed,
                          greedy=greedy)
