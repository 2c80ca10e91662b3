"""Liar's Dice's judge (its spec's ``judge`` part, ``vecgames.exploitability("liars_dice",
...)``): how much any player gives away to a best response, exactly, on a variant whose whole
tree fits (``tree.build_tree``).

The player is read at every information set (a seat's roll, the round's bids) as it would
act there in a game (``solver_players.strategy_of``): a built-in through its own kernel (``random``
exactly as the uniform strategy it draws from); a player with ``action_probs(obs,
action_mask)`` (a checkpoint, a zoo player) through its probabilities; any other callable
``(obs, action_mask) -> actions`` as deterministic, or, with ``samples=k``, as the share of k
calls on each information set that chose each action (an estimate of a stochastic player's
strategy, said so in the result). The best responses then walk the whole tree
(``cfr.best_response_value``).
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from ...core.tree import Tree
from ...core.validation import check_int
from ...policies.builtin import BuiltinPlayer
from ...policies.checkpoint import CheckpointPlayer
from ...policies.protocol import default_label, resolve_player
from ...solve.cfr import best_response_value, game_value, uniform_strategy
from ...solve.judge import Exploitability
from .observe import OBSERVATIONS, obs_dim
from .rules import Rules, State
from .solver_players import _observe_rows, strategy_of
from .tree import Variant, build_tree, check_tree, make_variant

GAME = "liars_dice"


def _observation_of(player: Any) -> int:
    """The observation layout a network player reads (its ``env_options``; default full)."""
    options = getattr(player, "env_options", None) or {}
    name = options.get("observation", OBSERVATIONS[0])
    if name not in OBSERVATIONS:
        raise ValueError(f"player: observation {name!r} is not one of {OBSERVATIONS}")
    return OBSERVATIONS.index(name)


def _check_fit(player: Any, v: Variant) -> None:
    """Refuse a player that cannot play ``v``: another game's, a checkpoint trained on other
    rules, or a built-in that assumes every seat holds the same dice."""
    if isinstance(player, BuiltinPlayer):
        if player.game != "liars_dice":
            raise ValueError(f"player: {player.name} is a {player.game} built-in, not "
                             f"liars_dice")
        if player.builtin == "odds" and v.dice[0] != v.dice[1]:
            raise ValueError("player: odds models the other seat as holding as many dice as "
                             f"its own; it cannot play {v.label()} (unequal dice exist only "
                             f"in the solver)")
        return
    if getattr(player, "game", "liars_dice") != "liars_dice":
        raise ValueError(f"player: {default_label(player)} plays {player.game}, not liars_dice")
    options = getattr(player, "env_options", None) or {}
    wanted = {"dice": v.dice[0], "variant": v.variant, "min_first_count": v.min_first_count}
    if isinstance(player, CheckpointPlayer):  # a network: trained on the env's defaults
        defaults = {"variant": "zhai_fei", "min_first_count": 3, "dice": 5}  # unless recorded
        got = {k: options.get(k) or defaults[k] for k in wanted}
    else:  # a user's function: held to what it declares
        got = {k: options.get(k, wanted[k]) for k in wanted}
    actions = getattr(player, "num_actions", 1 + 11 * v.total_dice)
    unequal = v.dice[0] != v.dice[1] and isinstance(player, CheckpointPlayer)
    if unequal or got != wanted or actions != 1 + 11 * v.total_dice:
        raise ValueError(f"player: {default_label(player)} was trained on {got} "
                         f"({actions} actions); it cannot play {v.label()}")


def _reader(player: Any, samples: int) -> tuple[Any, str]:
    """``act(state, rules, seat)`` for ``strategy_of``, and how it reads the player."""
    if isinstance(player, BuiltinPlayer):
        def by_kernel(state: State, rules: Rules, seat: int) -> np.ndarray:
            env = _Rows(state, rules)
            return player.act_env(env, np.arange(state.table.shape[0], dtype=np.int64))
        return by_kernel, "kernel"
    if not callable(player) and not callable(getattr(player, "action_probs", None)):
        raise TypeError(f"player: exploitability reads a player through action_probs(obs, "
                        f"action_mask) or a call (obs, action_mask) -> actions; "
                        f"{default_label(player)} has neither")
    observation = _observation_of(player)

    def inputs(state: State, rules: Rules) -> tuple[np.ndarray, np.ndarray]:
        rows = state.table.shape[0]
        obs = np.zeros((rows, obs_dim(observation, 2, rules.num_actions)), np.float32)
        mask = np.zeros((rows, rules.num_actions), np.bool_)
        _observe_rows(state.table, rules, observation, obs, mask)
        return obs, mask

    if callable(getattr(player, "action_probs", None)) and not samples:
        def by_probs(state: State, rules: Rules, seat: int) -> np.ndarray:
            probs = np.asarray(player.action_probs(*inputs(state, rules)), np.float64)
            if probs.shape != (state.table.shape[0], rules.num_actions):
                raise ValueError(f"player: action_probs returned shape {probs.shape}, not "
                                 f"{(state.table.shape[0], rules.num_actions)}")
            return probs
        return by_probs, "action_probs"
    if not samples:
        return lambda state, rules, seat: _actions(player, *inputs(state, rules)), "deterministic"

    def by_samples(state: State, rules: Rules, seat: int) -> np.ndarray:
        obs, mask = inputs(state, rules)
        counts = np.zeros(mask.shape)
        rows = np.arange(mask.shape[0])
        for _ in range(samples):
            np.add.at(counts, (rows, _actions(player, obs, mask)), 1.0)
        return counts / samples
    return by_samples, f"sampled {samples}x"


def _actions(player: Any, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    out = player(obs, mask)
    if hasattr(out, "detach"):
        out = out.detach().cpu().numpy()
    actions = np.asarray(out)
    if actions.shape != (mask.shape[0],) or not np.issubdtype(actions.dtype, np.integer):
        raise ValueError(f"player: must return {mask.shape[0]} integer actions, got an array "
                         f"of shape {actions.shape} ({actions.dtype})")
    if ((actions < 0) | (actions >= mask.shape[1])).any():
        raise ValueError(f"player: returned an action outside 0..{mask.shape[1] - 1}")
    return actions.astype(np.int64)


class _Rows:
    """The two fields a built-in player's ``act_env`` reads, over the information sets."""

    def __init__(self, state: State, rules: Rules):
        self.state, self.rules = state, rules


def strategy(player: Any, v: Variant, tree: Tree, samples: int = 0) -> tuple[np.ndarray, str]:
    """``player``'s strategy on ``tree`` (a resolved Player) and how it was read."""
    _check_fit(player, v)
    if samples and (isinstance(player, BuiltinPlayer) or not callable(player)):
        raise TypeError(f"samples: reads a callable (obs, action_mask) -> actions by calling "
                        f"it; {default_label(player)} is "
                        + ("a built-in, read exactly" if isinstance(player, BuiltinPlayer)
                           else "not callable"))
    if isinstance(player, BuiltinPlayer) and player.builtin == "random":
        return uniform_strategy(tree), "uniform"  # rules.random_legal: uniform over the legal
    act, read = _reader(player, samples)
    return strategy_of(tree, v, act), read


def exploitability(player: Any, *, dice: Any = 1, variant: str = "basic",
                   min_first_count: int = 1, forbid_repeat_bids: bool = True,
                   max_round_steps: int = 0, opener: int = 0, samples: int = 0,
                   tree: Tree | None = None) -> Exploitability:
    """The exact exploitability (NashConv / 2) of ``player`` on a small Liar's Dice game
    (``vecgames.exploitability("liars_dice", player, ...)``).

    ``player``: a built-in name, a zoo name or checkpoint path, a Player with
    ``action_probs``, or a callable ``(obs, action_mask) -> actions`` read as deterministic,
    or with ``samples=k`` as the share of k calls per information set. The variant options
    are ``tree.make_variant``'s; ``tree`` reuses a tree built for that variant.
    """
    samples = check_int(samples, "samples", 0)
    v = make_variant(dice, variant, min_first_count, forbid_repeat_bids, max_round_steps, opener)
    if tree is not None:
        check_tree(tree, v)
    if isinstance(player, str) and player == "human":
        raise ValueError("player: a person cannot be read at every information set")
    probs_only = callable(getattr(player, "action_probs", None)) and not isinstance(player, str)
    resolved = player if probs_only else resolve_player(GAME, player)
    start = time.perf_counter()
    tree = build_tree(v) if tree is None else tree
    s, read = strategy(resolved, v, tree, samples)
    br = (best_response_value(tree, s, 0), best_response_value(tree, s, 1))
    return Exploitability(default_label(resolved), v.label(), 0.5 * (br[0] + br[1]), br,
                          game_value(tree, s), read, time.perf_counter() - start)
