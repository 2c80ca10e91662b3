"""Replays of arena games: one game as a compact JSON record that plays back move by move.

A game of the arena depends on (seed, deal) and its players only, so a replay stores those and
the actions, not the states: ``{"format": "vecgames-replay", "version": 1, "game", "options"
(the env's keywords), "seed", "deal", "players" (seat labels), "actions" (action ids; a Hold'em
built-in's exact bet as ``[kind, raise_to]``), "rewards" (per seat, summed over the game),
"draws" (optional: ``[move, stream]`` where a player drew from the game's random stream
before that move, e.g. ``random``: the stream as it left it, since the game draws its later
cards and dice from the same stream)}``, a few hundred bytes. :func:`replay_env` deals the
game again and :func:`apply_action` plays each recorded action through the env's
illegal-action contract, so a replay that does not match its game is refused, never shown
wrong.

    result = vecgames.arena("holdem", ["strength", "call"], 100, num_players=2)
    replay = arena_replay(result, ["strength", "call"], row=7)   # game 7 of result.matches
    save_replay(replay, "game7.json")
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..core.rng import check_seed
from ..core.validation import check_int
from .payoffs import is_cooperative
from .players import resolve_entrants, seat_spec
from .schedule import assignments, hanabi_assignments

FORMAT, VERSION = "vecgames-replay", 1
MAX_ACTIONS = 100_000  # a longer record is refused on load
# env keywords a replay's options may not set (replay_env sets them; the contract is "raise")
RESERVED = frozenset({"num_envs", "seed", "env_offset", "illegal", "illegal_penalty"})
Action = int | tuple[int, int]


def replay_env(game: str, options: Mapping[str, Any], seed: int, deal: int) -> Any:
    """A one-table env dealt game ``deal`` under ``seed``, as the arena dealt it (the env's
    stream of global game ``deal``; Hold'em's rotating button where simulate puts it)."""
    from ..games.catalog import make, spec_of

    env = make(game, num_envs=1, seed=int(check_seed(seed)),
               env_offset=check_int(deal, "deal", 0, 2**62), **dict(options))
    env.reset()
    begin = getattr(spec_of(game).load("simulate"), "wave_start", None)
    if begin is not None:
        begin(env, np.array([deal], np.int64))
    return env


def seek(env: Any, draws: Mapping[int, int], move: int) -> None:
    """Put the stream where the recorded player left it before ``move`` (if one drew)."""
    if move in draws:
        env._rng[0] = np.uint64(draws[move])


def draws_of(replay: Mapping[str, Any]) -> dict[int, int]:
    """A replay's ``draws`` as ``{move: stream}``."""
    return {int(k): int(v) for k, v in replay.get("draws", [])}


def apply_action(env: Any, action: Action) -> tuple[Any, ...]:
    """One step of a one-table env: an action id, or Hold'em's exact ``(kind, raise_to)``.
    Returns ``(obs, reward, terminated, truncated, info)``; an illegal action raises the env's
    ValueError before anything changes."""
    if isinstance(action, tuple):
        return env.step_amounts(np.array([action[0]]), np.array([action[1]]))  # type: ignore[no-any-return]
    return env.step(np.array([action], np.int64))  # type: ignore[no-any-return]


def record_game(game: str, players: Sequence[Any], seed: int, deal: int,
                **options: Any) -> dict[str, Any]:
    """Play game ``deal`` under ``seed`` with one player per seat (built-in names, Player
    objects, checkpoints) through ``env.step`` and return its replay. Built-in players draw
    from the game's stream as the simulate kernels do, so this is the arena's game."""
    from ..core.simulation import numba_threads
    from ..simulators.mixed import Table, choose

    table = Table(game, list(players), options)
    env = replay_env(game, table.env_options, seed, deal)
    table.check_env(env)
    obs, info = env._obs, env._info
    actions: list[Any] = []
    draws: list[list[int]] = []
    total = np.zeros(env.num_players)
    with numba_threads(1):
        for move in range(MAX_ACTIONS):
            stream = int(env._rng[0])
            ids, exact = choose(env, table, obs, info, np.ones(1, np.bool_))
            if int(env._rng[0]) != stream:  # the player drew: the game's later draws follow
                draws.append([move, int(env._rng[0])])
            action: Action = (int(ids[0]) if exact is None else
                              (int(exact[0][0]), int(exact[1][0])))
            obs, reward, terminated, truncated, info = apply_action(env, action)
            actions.append(list(action) if isinstance(action, tuple) else action)
            total += reward[0, :env.num_players]
            if terminated[0] or truncated[0]:
                break
        else:  # pragma: no cover - every game ends far sooner (the envs cap their steps)
            raise ValueError(f"game {deal} did not end within {MAX_ACTIONS} actions")
    return {"format": FORMAT, "version": VERSION, "game": game,
            "options": _plain(table.env_options), "seed": int(seed), "deal": int(deal),
            "players": list(table.labels), "actions": actions,
            "rewards": [float(r) for r in total], **({"draws": draws} if draws else {})}


def arena_replay(result: Any, players: Sequence[Any], row: int) -> dict[str, Any]:
    """The replay of game ``row`` of ``result.matches`` (an ``ArenaResult``), given the
    ``players`` the arena was called with (the same specs, in the same order)."""
    entrants = resolve_entrants(result.game, list(players))
    if tuple(e.label for e in entrants) != tuple(result.players):
        raise ValueError(f"players: the arena's players were {list(result.players)}, got "
                         f"{[e.label for e in entrants]}")
    row = check_int(row, "row", 0, len(result.matches) - 1)
    match = result.matches.iloc[row]
    schedule = (hanabi_assignments if is_cooperative(result.game) else assignments)(
        len(entrants), result.seats)
    seats = schedule[int(result.matches["assignment"].cat.codes.iloc[row])]
    replay = record_game(result.game, [seat_spec(entrants[p]) for p in seats], result.seed,
                         int(match["deal"]), **result.options)
    replay["assignment"] = str(match["assignment"])
    return replay


def save_replay(replay: Mapping[str, Any], path: str | os.PathLike[str]) -> None:
    """Write a replay as compact JSON."""
    with open(path, "w", encoding="utf-8") as out:
        json.dump(check_replay(replay), out, separators=(",", ":"))


def load_replay(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read and check a replay file (:func:`check_replay`)."""
    with open(path, encoding="utf-8") as src:
        try:
            data = json.load(src)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{os.fspath(path)}: not a replay (invalid JSON: {exc})") from None
    return check_replay(data)


def check_replay(data: Any) -> dict[str, Any]:
    """``data`` if it has a replay's fields and types; a ValueError naming the first wrong
    one otherwise. (Whether its actions fit its game is checked as it plays back.)"""
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise ValueError(f"not a replay: the format field must be {FORMAT!r}")
    if data.get("version") != VERSION:
        raise ValueError(f"replay version {data.get('version')!r}: this release reads "
                         f"version {VERSION}")
    kinds = {"game": str, "options": Mapping, "seed": int, "deal": int, "players": list,
             "actions": list, "rewards": list}
    for key, kind in kinds.items():
        if not isinstance(data.get(key), kind) or isinstance(data.get(key), bool):
            raise ValueError(f"replay field {key!r} must be a {kind.__name__}")
    fixed = sorted(set(data["options"]) & RESERVED)
    if fixed:
        raise ValueError(f"replay options {fixed}: a replay is dealt from its seed and deal "
                         "and refused on an illegal action, whatever it says")
    if len(data["actions"]) > MAX_ACTIONS:
        raise ValueError(f"replay has {len(data['actions'])} actions, above {MAX_ACTIONS}")
    for a in data["actions"]:
        pair = isinstance(a, list) and len(a) == 2 and all(_small(x) for x in a)
        if not (_small(a) or pair):
            raise ValueError(f"replay action {a!r}: an action is an integer or [kind, amount] "
                             f"(integers of at most {MAX_INT})")
    draws = data.get("draws", [])
    if not isinstance(draws, list) or not all(
            isinstance(d, list) and len(d) == 2 and all(type(x) is int for x in d)
            and 0 <= d[0] < len(data["actions"]) and 0 <= d[1] < 2**64 for d in draws):
        raise ValueError("replay field 'draws' must be a list of [move, stream] integer pairs "
                         "(0 <= move < the number of actions, 0 <= stream < 2**64)")
    if not all(isinstance(p, str) for p in data["players"]):
        raise ValueError("replay field 'players' must be a list of seat labels (strings)")
    if not all(type(r) in (int, float) and abs(r) < 1e300 for r in data["rewards"]):
        raise ValueError("replay field 'rewards' must be a list of numbers")
    return dict(data)


MAX_INT = 2**31  # the largest action id or bet amount a replay may hold


def _small(x: Any) -> bool:
    return type(x) is int and abs(x) <= MAX_INT


def replay_action(item: Any) -> Action:
    """A stored action as :func:`apply_action` takes it."""
    return (int(item[0]), int(item[1])) if isinstance(item, list) else int(item)


def _plain(options: Mapping[str, Any]) -> dict[str, Any]:
    """Env keywords as JSON values (numbers, strings, lists)."""
    out: dict[str, Any] = {}
    for key, value in options.items():
        if isinstance(value, np.generic):
            value = value.item()
        elif isinstance(value, (tuple, np.ndarray)):
            value = [v.item() if isinstance(v, np.generic) else v for v in value]
        out[str(key)] = value
    return out
