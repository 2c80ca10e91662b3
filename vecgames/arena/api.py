"""``vecgames.arena``: every pairing or seat assignment of a list of players, played for a
number of games each, reduced to pairwise results with confidence intervals and ratings (or,
for cooperative Hanabi, self-play and cross-play tables)."""

from __future__ import annotations

import inspect
import time
import warnings
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any

import numba
import numpy as np
import pandas as pd

from ..core.rng import check_seed
from ..core.simulation import even_bounds, numba_threads, progress_bar, show_progress
from ..core.validation import check_bool, check_int, check_list, check_number
from ..games.catalog import make, rules_module, spec_of
from ..simulators import simulation_module
from .matches import MatchJob, play_match, play_matches_together
from .payoffs import is_cooperative, no_duplicate_reason, unit_of
from .players import (
    Entrant,
    check_tables,
    players_rule_options,
    resolve_entrants,
)
from .result import ArenaResult
from .schedule import (
    MAX_ASSIGNMENTS,
    assignments,
    balanced_assignments,
    count_assignments,
    first_deal,
    hanabi_assignments,
)
from .stats import MIN_UNITS
from .tables import (
    crossplay_table,
    pair_units,
    pairwise_table,
    ratings_table,
    selfplay_table,
)

# keywords of every env that are not options of the game (the runner and make set them)
ENV_COMMON = frozenset({"self", "num_envs", "seed", "env_offset", "options"})
MAX_GAMES = 50_000_000  # games in all (their per-game rows must fit in memory)
# total_games: a balanced schedule of at most one seat assignment per this many games
GAMES_PER_ASSIGNMENT = 100
# simulate's keywords the arena sets itself
RESERVED = frozenset({"policy", "players", "summary", "first_game", "num_games", "seed",
                      "record_actions"})


def arena(game: str, players: Sequence[Any], num_games: int | None = None, seed: int = 0, *,
          total_games: int | None = None, duplicate: bool | None = None,
          backend: str = "local", num_threads: int | None = None,
          progress: bool | None = None, minutes: float | None = None,
          **options: Any) -> ArenaResult:
    """Play ``players`` against each other in ``game`` and return an ``ArenaResult``.

    ``players``: two or more (Hanabi: one or more) built-in names, checkpoint paths, Player
    objects or plain callables ``(obs, action_mask) -> actions``. Built-in players play inside
    the simulate kernels; a table with any other kind runs through ``play_games``.
    ``num_games``: games per seat assignment of the exhaustive schedule (``schedule``: every
    pairing in both seat orders at two seats, every seat assignment at more); or
    ``total_games``: about that many games in all, spread by a balanced schedule (each player
    equally often in each seat, each pair equally often at a table; the exhaustive one when
    it fits, see ``schedule.balanced_assignments``) of at most one assignment per
    ``GAMES_PER_ASSIGNMENT`` games (duplicate deals: every deal is played by every
    assignment, so the deals, the independent units, are the games per assignment), the same
    number of games per assignment. ``duplicate``: share deals
    between the seat assignments (the same cards with seats swapped; None: where the game
    allows it, see ``payoffs.no_duplicate_reason``). ``backend="ray"``: the matches in shards
    on a Ray cluster (keywords ``address``, ``num_shards``, ``cpus_per_shard``, ``max_retries``; see
    ``vecgames.arena.ray``), the same tables bit for bit. ``num_threads``: Numba threads
    (results do not depend on it). ``progress``: a bar on stderr (None: when it is a terminal).
    ``minutes``: stop cleanly after about that long (local backend): the games are played in
    ``ROUNDS`` rounds, each the next slice of every assignment's deals, and the arena stops
    after the round that passes the time, so every assignment has played the same deals; the
    result's ``num_games`` is what they played, ``stopped`` says it stopped early.
    Further keywords are those ``simulate`` takes: the game's rule options (``num_players``
    is the table size), ``simulate``'s own (Liar's Dice ``threshold``) and the env's options
    (Hold'em ``raise_fractions``, ``observation``...; they reach the tables with a player that
    is not built-in, since the built-ins play from the state and never read them).
    """
    module = simulation_module(game)  # refuses an unknown game
    specs = check_list(players, "players", "players (names, paths or Player objects)")
    fewest = 1 if is_cooperative(game) else 2
    if len(specs) < fewest:
        raise ValueError(f"an arena of {game} needs at least {fewest} players, got {len(specs)}")
    if (num_games is None) == (total_games is None):
        raise ValueError("give num_games (games per seat assignment) or total_games (games "
                         "in all, a balanced schedule), not both")
    if minutes is not None:
        minutes = check_number(minutes, "minutes", 0.0)
        if minutes <= 0 or backend != "local":
            raise ValueError("minutes must be > 0, with the local backend")
    if total_games is not None:
        total_games = check_int(total_games, "total_games", 1, MAX_GAMES)
    else:
        num_games = check_int(num_games, "num_games", 1, MAX_GAMES)
    seed = int(check_seed(seed))
    if not isinstance(backend, str) or backend not in ("local", "ray"):
        raise ValueError(f"backend must be 'local' or 'ray', got {backend!r}")
    ray_options = _split_ray_options(options, backend)
    if num_threads is not None and backend == "ray":
        raise ValueError("num_threads sets local threads; with backend='ray' give "
                         "cpus_per_shard (CPUs and Numba threads per shard) instead")
    reserved = sorted(RESERVED & set(options))
    if reserved:
        raise ValueError(f"the arena sets {reserved} itself; give players and num_games")
    entrants = resolve_entrants(game, specs)
    rule_keys = rules_module(game).DEFAULT_OPTIONS
    env_options = env_only_options(game, options, rule_keys)  # taken out of options
    options.update(players_rule_options(game, entrants, options, rule_keys))
    rules = module.plan(1, "random", seed, **options).params["rules"]  # checks the options
    check_env_options(game, options, env_options, rule_keys)
    reason = no_duplicate_reason(game, {"num_rounds": getattr(rules, "num_rounds", 1)})
    if duplicate is None:
        duplicate = reason is None
    elif check_bool(duplicate, "duplicate") and reason is not None:
        raise ValueError(f"duplicate=True is not possible here: {reason}")
    show = show_progress(progress)
    seats = int(rules.num_players)
    schedule = _schedule(game, len(entrants), seats, total_games)
    if total_games is not None:
        num_games = max(1, total_games // len(schedule))
    assert num_games is not None
    if len(schedule) * num_games > MAX_GAMES:
        raise ValueError(f"{len(schedule):,} seat assignments x {num_games:,} games exceed "
                         f"{MAX_GAMES:,} games in all; give fewer games or players")
    jobs = [MatchJob(game, tuple(entrants[p] for p in seat_players), seed,
                     first_deal(a, num_games, duplicate), num_games, dict(options),
                     dict(env_options))
            for a, seat_players in enumerate(schedule)]
    check_tables(game, [job.seats for job in jobs], {**options, **env_options})
    if backend == "ray":
        from .ray import play_matches_ray

        payoffs = play_matches_ray(jobs, progress=show, **ray_options)
    else:
        with numba_threads(num_threads):
            payoffs, played = _play_rounds(jobs, show, spec_of(game).unit,
                                           None if minutes is None else 60.0 * minutes)
        jobs = [replace(job, num_games=played) for job in jobs]
    stopped = jobs[0].num_games < num_games
    result = _result(game, entrants, schedule, jobs, payoffs, seats, jobs[0].num_games, seed,
                     duplicate, {**options, **env_options}, stopped)
    if result.few_units:
        warnings.warn(f"arena: some 95% intervals rest on only {result.min_units} independent "
                      f"{result.ci_unit}s (fewer than {MIN_UNITS}); they are Student's t "
                      f"intervals, but read them as rough: play more games",
                      FewUnitsWarning, stacklevel=2)
    return result


class FewUnitsWarning(UserWarning):
    """An arena interval rests on fewer than ``stats.MIN_UNITS`` independent units."""


def env_only_options(game: str, options: dict[str, Any], rule_keys: Any) -> dict[str, Any]:
    """Take the env's own keywords (those of ``make`` that are not rule options, e.g.
    Hold'em's ``raise_fractions``) out of ``options``; the runner's are refused."""
    from ..simulators.mixed import RUNNER_KEYWORDS

    runner = sorted(set(RUNNER_KEYWORDS) & set(options))
    if runner:
        raise ValueError(f"the arena sets {runner} itself (illegal actions raise; each player "
                         f"sees its own seat)")
    env_class = spec_of(game).load("env")
    keys = set(inspect.signature(env_class.__init__).parameters) - ENV_COMMON - set(rule_keys)
    return {key: options.pop(key) for key in sorted(keys & set(options))}


def check_env_options(game: str, options: dict[str, Any], env_options: dict[str, Any],
                      rule_keys: Any) -> None:
    """Refuse bad env option values before any game: build one env with them."""
    if env_options:
        make(game, num_envs=1, **{k: v for k, v in options.items() if k in rule_keys},
             **env_options)


RAY_KEYWORDS = ("address", "num_shards", "cpus_per_shard", "max_retries", "cache", "warm")


def _split_ray_options(options: dict[str, Any], backend: str) -> dict[str, Any]:
    """Take the Ray keywords out of ``options`` (refused with the local backend)."""
    given = {key: options.pop(key) for key in RAY_KEYWORDS if key in options}
    if given and backend != "ray":
        raise ValueError(f"{sorted(given)} are options of backend='ray'")
    return given


def _schedule(game: str, num_players: int, seats: int, total_games: int | None
              ) -> list[tuple[int, ...]]:
    if is_cooperative(game):
        return hanabi_assignments(num_players, seats)
    if total_games is not None:  # enough games per assignment for an interval over deals
        return balanced_assignments(num_players, seats,
                                    max(1, total_games // GAMES_PER_ASSIGNMENT))
    count = count_assignments(num_players, seats)
    if count > MAX_ASSIGNMENTS:
        raise ValueError(f"{num_players} players at {seats} seats make {count:,} seat "
                         f"assignments, above {MAX_ASSIGNMENTS:,}; give fewer players")
    return assignments(num_players, seats)


# envs of the tables with other players, played together: a network's forward pass covers
# the rows where it acts at any of them
TOGETHER_ENVS = 8192
ROUNDS = 20  # with ``minutes``: the slices of every assignment's deals, played in turn


def _play_rounds(jobs: list[MatchJob], show: bool, unit: str, seconds: float | None
                 ) -> tuple[list[np.ndarray], int]:
    """Every job's payoffs and the games each played: all of them, or with ``seconds`` the
    rounds (the same slice of every job's games) until one ends past that time."""
    total = sum(job.num_games for job in jobs)
    if seconds is None:
        with progress_bar(total, unit, show) as bar:
            return _play_local(jobs, bar), jobs[0].num_games
    bounds = even_bounds(jobs[0].num_games, min(ROUNDS, jobs[0].num_games))
    parts: list[list[np.ndarray]] = [[] for _ in jobs]
    start, played = time.perf_counter(), 0
    with progress_bar(total, unit, show) as bar:
        for lo, hi in zip(bounds[:-1], bounds[1:], strict=True):
            pieces = [replace(job, first_game=job.first_game + lo, num_games=hi - lo)
                      for job in jobs]
            for k, payoffs in enumerate(_play_local(pieces, bar)):
                parts[k].append(payoffs)
            played = hi
            if time.perf_counter() - start > seconds:
                break
    return [np.concatenate(p, axis=0) for p in parts], played


def _play_local(jobs: list[MatchJob], bar: Any) -> list[np.ndarray]:
    """Every job's payoffs, in order. Tables of built-in players run side by side, one per
    Numba thread, each kernel on one thread: one launch of a parallel kernel waits for all its
    threads, which on a busy machine costs more than a small table's games (300 six-seat Zha
    Jin Hua tables of 500 games on a loaded 2-core machine: 3.9-6.3 s one after another,
    0.8-1.2 s side by side). The other tables play together in one env on this thread (a
    Python player need not be thread-safe), so that each of their players answers for all
    its tables in one call (``matches.play_matches_together``)."""
    threads = numba.get_num_threads()
    builtin = [k for k, job in enumerate(jobs)
               if all(seat.builtin is not None for seat in job.seats)]
    out: list[np.ndarray | None] = [None] * len(jobs)
    if threads > 1 and len(builtin) > 1:
        with ThreadPoolExecutor(threads) as pool:
            for k, payoffs in zip(builtin, pool.map(
                    _play_on_one_thread, [jobs[k] for k in builtin]), strict=True):
                out[k] = payoffs
                bar.update(jobs[k].num_games)
    for k in builtin:
        if out[k] is None:  # (one thread)
            out[k] = play_match(jobs[k])
            bar.update(jobs[k].num_games)
    others = [k for k in range(len(jobs)) if out[k] is None]
    if others:
        for k, payoffs in zip(others, play_matches_together([jobs[k] for k in others],
                                                             bar.update, TOGETHER_ENVS),
                              strict=True):
            out[k] = payoffs
    return [payoffs for payoffs in out if payoffs is not None]


def _play_on_one_thread(job: MatchJob) -> np.ndarray:
    numba.set_num_threads(1)  # (thread-local: the pool's threads only)
    return play_match(job)


def _result(game: str, entrants: list[Entrant], schedule: list[tuple[int, ...]],
            jobs: list[MatchJob], payoffs: list[np.ndarray], seats: int, num_games: int,
            seed: int, duplicate: bool, options: dict[str, Any], stopped: bool = False
            ) -> ArenaResult:
    labels = [e.label for e in entrants]
    per_player = np.concatenate([_by_player(p, s, len(labels))
                                 for p, s in zip(payoffs, schedule, strict=True)])
    deals = np.concatenate([np.arange(job.first_game, job.first_game + job.num_games)
                            for job in jobs])
    assignment = np.repeat(np.arange(len(schedule)), num_games)
    names = [" | ".join(labels[p] for p in s) for s in schedule]
    matches = pd.DataFrame({"assignment": pd.Categorical.from_codes(assignment, names),
                            "deal": deals})
    for k, label in enumerate(labels):
        matches[f"payoff_{label}"] = per_player[:, k]
    unit = unit_of(game)
    common = dict(game=game, players=tuple(labels), seats=seats, num_games=num_games, seed=seed,
                  duplicate=duplicate, unit=unit, matches=matches, options=dict(options),
                  stopped=stopped)
    if is_cooperative(game):
        scores = np.nanmax(per_player, axis=1)  # every seated player has the team's score
        perfect = scores >= 25
        return ArenaResult(ci_unit="game", **common,
                           selfplay=selfplay_table(scores, perfect, assignment, labels),
                           crossplay=crossplay_table(scores, assignment, schedule, labels))
    pairs = pair_units(per_player, deals)
    pairwise = pairwise_table(pairs, labels, unit)
    ratings = ratings_table(pairwise, per_player, pairs, labels)
    return ArenaResult(ci_unit="deal" if duplicate else "game", **common,
                       pairwise=pairwise, ratings=ratings)


def _by_player(payoffs: np.ndarray, seats: tuple[int, ...], num_players: int) -> np.ndarray:
    """``[games, num_players]``: each player's mean payoff over the seats it held (NaN if
    none)."""
    out = np.full((payoffs.shape[0], num_players), np.nan)
    for player in set(seats):
        held = [s for s, p in enumerate(seats) if p == player]
        out[:, player] = payoffs[:, held].mean(axis=1)
    return out
