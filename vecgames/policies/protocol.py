"""The player protocol: anything that chooses actions for a batch of decisions.

A player is called as ``player(obs, action_mask) -> actions``: ``obs`` float32 ``[n, obs_dim]``,
each row the observation of the seat to act (the env's own layout), ``action_mask`` bool
``[n, num_actions]``; it returns ``n`` integer actions (numpy, torch or a list), or in
Hold'em, to bet an exact amount, int ``[n, 2]`` (kind, amount) pairs: kind 0 fold, 1
check/call, 2 bet/raise to ``amount`` chips (the street's total bet), checked by the rules
as the env's ``step_amounts`` checks them (both forms, from ``__call__`` or ``act_env``). The runner
(``vecgames.simulators.mixed.play_games``) calls it once per env step with every row where its
seat acts. Optional attributes, all read with ``getattr``:

- ``name``: its label in tables (default: the class or function name);
- ``game``: the game it plays (another game is refused before any game starts);
- ``obs_dim``: the observation size it reads (checked against the env's);
- ``env_options``: env keywords it needs (``{"obs": "seed"}``, ``{"num_players": 2}``...);
- ``act_env(env, rows)``: a player that reads the env itself (built-in Numba players, a
  human at the terminal, a bot reading ``env.raise_bounds(i)``); called instead of
  ``__call__`` (an object with ``act_env`` need not be callable); ``rows`` int64 env indices;
- ``reset_games(rows)``: called with the envs whose games just ended (stateful players).

This module is the one resolver of what a user writes for a player (a built-in name, a zoo
name, a checkpoint path, "human", a Player or a plain callable; one for every seat or one per
seat): ``resolve_player`` (one item), ``resolve_items``/``resolve_players`` (a seat spec) and
``builtin_name`` (whether an item plays inside the simulate kernels). ``simulate``, the
arena, the terminal and the web all seat players through it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from ..zoo import is_zoo_name
from .builtin import BuiltinPlayer
from .catalog import players as builtin_players


@runtime_checkable
class Player(Protocol):
    """Chooses one action for each row: ``(obs [n, D] float32, action_mask [n, A] bool) ->
    n integer actions``. See the module docstring for the optional attributes."""

    def __call__(self, obs: np.ndarray, action_mask: np.ndarray) -> Any: ...


class CallablePlayer:
    """A plain batched function ``fn(obs, action_mask) -> actions`` as a named player."""

    def __init__(self, fn: Callable[[np.ndarray, np.ndarray], Any], name: str | None = None):
        if not callable(fn):
            raise TypeError(f"a player must be callable, got {type(fn).__name__}")
        if name is not None and not isinstance(name, str):
            raise TypeError(f"name must be a str, got {type(name).__name__}")
        self.fn = fn
        self.name = name or default_label(fn)
        for attr in ("game", "obs_dim", "env_options"):  # a wrapped player keeps its needs
            if getattr(fn, attr, None) is not None:
                setattr(self, attr, getattr(fn, attr))

    def __call__(self, obs: np.ndarray, action_mask: np.ndarray) -> Any:
        return self.fn(obs, action_mask)

    def __repr__(self) -> str:
        return f"CallablePlayer({self.name!r})"


def default_label(player: Any) -> str:
    """``player.name`` if it has one, else its function or class name."""
    name = getattr(player, "name", None)
    if isinstance(name, str) and name:
        return name
    return str(getattr(player, "__name__", type(player).__name__))


def unique_labels(players: Sequence[Any]) -> list[str]:
    """One label per distinct player object, in order; a repeated label gets ``#2``, ``#3``."""
    labels: list[str] = []
    seen: dict[str, int] = {}
    for player in players:
        base = default_label(player)
        seen[base] = seen.get(base, 0) + 1
        labels.append(base if seen[base] == 1 else f"{base}#{seen[base]}")
    return labels


def _is_item(spec: Any) -> bool:
    """Whether ``spec`` is one player (not a per-seat sequence)."""
    return isinstance(spec, (str, os.PathLike)) or callable(spec) or _acts_on_env(spec)


def _acts_on_env(item: Any) -> bool:
    """Whether ``item`` is a player through ``act_env`` alone (it need not be callable)."""
    return not isinstance(item, type) and callable(getattr(item, "act_env", None))


def builtin_name(game: str, item: Any) -> str | None:
    """The built-in player of ``game`` that ``item`` is, when it can play inside the simulate
    kernels: its name, or a ``BuiltinPlayer`` of this game without a threshold of its own;
    else None (it plays through env steps, or is not a player of this game)."""
    if isinstance(item, str):
        return item if item in builtin_players(game) else None
    if (isinstance(item, BuiltinPlayer) and item.game == game and item.threshold is None
            and item.builtin in builtin_players(game)):
        return item.builtin
    return None


def resolve_player(game: str, item: Any) -> Any:
    """One seat's spec as a Player: a built-in name, a checkpoint path (an existing file),
    ``"human"``, a Player object or a plain callable."""
    if isinstance(item, (str, os.PathLike)):
        text = os.fspath(item)
        names = builtin_players(game)  # also refuses an unknown game
        if isinstance(item, str) and text in names:
            return BuiltinPlayer(game, text)
        if text == "human":
            try:
                from .human import HumanPlayer
            except ImportError:  # pragma: no cover - part of every release since issue 23
                raise ValueError("human players need vecgames.policies.human") from None
            return HumanPlayer(game)
        if is_zoo_name(item):
            return load_zoo_player(game, text)
        if Path(text).is_file():
            from .checkpoint import load_player

            return load_player(text)
        raise ValueError(f"players: unknown player {text!r} for {game}: a player is one of "
                         f"the built-in players {tuple(names)}, 'human', a zoo player "
                         f"(vecgames.zoo(game)), or the path of an existing checkpoint file")
    if isinstance(item, (bool, np.bool_)) or not (callable(item) or _acts_on_env(item)):
        raise TypeError(f"players: a player must be a built-in name, a checkpoint path, "
                        f"'human' or a callable (obs, action_mask) -> actions; got "
                        f"{type(item).__name__}")
    return item  # a Player as it is: its label comes from ``name`` or its function name


def load_zoo_player(game: str, name: str) -> Any:
    """The zoo player ``name`` (``"zoo:..."``) of ``game``, labelled by that name."""
    from ..zoo import card_of
    from .checkpoint import load_player

    card = card_of(name)
    if card["game"] != game:
        raise ValueError(f"players: {name!r} is a {card['game']} player, not a {game} one")
    return load_player(name)  # it plays as its card measured it (a table or a network)


def resolve_items(game: str, spec: Any) -> tuple[list[Any], bool]:
    """The Players of ``spec`` and whether it was one item for every seat (then the list holds
    that one player). The same name or path twice gives one object: one batched call."""
    if _is_item(spec):
        return [resolve_player(game, spec)], True
    if not isinstance(spec, Sequence) or isinstance(spec, bytes):
        raise TypeError(f"players must be one player for every seat or a list of one per seat, "
                        f"got {type(spec).__name__}")
    cache: dict[str, Any] = {}
    seats = []
    for item in spec:
        key = os.fspath(item) if isinstance(item, (str, os.PathLike)) else None
        if key is None:
            seats.append(resolve_player(game, item))
            continue
        if key not in cache:
            cache[key] = resolve_player(game, item)
        seats.append(cache[key])
    return seats, False


def resolve_players(game: str, spec: Any, num_players: int) -> list[Any]:
    """One Player per seat from ``spec``: one item for every seat (resolved once: the same
    object sits at every seat, so the runner calls it once per step for all of them), or a
    sequence of one per seat (see ``resolve_player``)."""
    seats, single = resolve_items(game, spec)
    if single:
        return seats * num_players
    if len(seats) != num_players:
        raise ValueError(f"players must be one player or a list of {num_players} (one per "
                         f"seat), got {len(seats)}")
    return seats
