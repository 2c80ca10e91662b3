"""Playing the arena's matches: one job per seat assignment (or a piece of one), each giving
the seats' payoffs game by game. A job of built-in players only runs in the game's
``simulate`` kernels; any other runs through ``vecgames.simulators.mixed``: alone
(``play_match``) or with the other such jobs in one env (``play_matches_together``), which
gives the same payoffs. Game g of a job depends on (seed, g) only, so any split of a job gives
the same payoffs."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from ..core.simulation import even_bounds
from ..simulators import simulation_module
from .payoffs import seat_payoffs
from .players import Entrant, seat_spec


@dataclass(frozen=True)
class MatchJob:
    """Games ``first_game .. first_game + num_games - 1`` of ``game`` under ``seed`` with
    ``seats`` (one entrant per seat), the rule ``options`` and the env-only
    ``env_options`` (for tables played through ``play_games``: built-ins do not read them).
    Picklable (for Ray) when its players are."""

    game: str
    seats: tuple[Entrant, ...]
    seed: int
    first_game: int
    num_games: int
    options: Mapping[str, Any]
    env_options: Mapping[str, Any] = field(default_factory=dict)

    def split(self, parts: int) -> list[MatchJob]:
        """Consecutive pieces of the job's games (at most ``parts``, none empty)."""
        bounds = even_bounds(self.num_games, max(1, min(parts, self.num_games)))
        return [replace(self, first_game=self.first_game + lo, num_games=hi - lo)
                for lo, hi in zip(bounds[:-1], bounds[1:], strict=True)]


def play_match(job: MatchJob) -> np.ndarray:
    """``[num_games, seats]`` float64 payoffs of the job's games (``payoffs.seat_payoffs``)."""
    n = len(job.seats)
    if all(seat.builtin is not None for seat in job.seats):
        module = simulation_module(job.game)
        plan = module.plan(job.num_games, [seat.builtin for seat in job.seats], job.seed,
                           first_game=job.first_game, **job.options)
        df = module.frame(plan, module.run(plan))
    else:
        from ..simulators.mixed import play_games

        df = play_games(job.game, [seat_spec(seat) for seat in job.seats], job.num_games,
                        seed=job.seed, first_game=job.first_game, progress=False,
                        **job.options, **job.env_options)
    return seat_payoffs(job.game, df, n)


def play_matches_together(jobs: list[MatchJob], on_games: Callable[[int], None],
                          num_envs: int | None = None) -> list[np.ndarray]:
    """Every job's payoffs (as ``play_match``'s) from ``play_tables``: the jobs whose players'
    env options agree share one env, so a network seated at many of them answers for all its
    rows at once. The jobs share the game, seed, options and game count (an arena's)."""
    from ..simulators.mixed import different_option, merged_env_options, play_tables

    out: list[np.ndarray | None] = [None] * len(jobs)
    groups: list[tuple[dict[str, Any], list[int]]] = []
    for k, job in enumerate(jobs):
        needs = merged_env_options(job.game, [seat_spec(s) for s in job.seats],
                                   {**job.options, **job.env_options})
        group = next((g for g in groups if different_option(g[0], needs) is None), None)
        if group is None:
            groups.append((needs, [k]))
        else:
            group[1].append(k)
    for _, members in groups:
        first = jobs[members[0]]
        frames = play_tables(first.game, [[seat_spec(s) for s in jobs[k].seats]
                                          for k in members],
                             first.num_games, seed=first.seed,
                             first_game=[jobs[k].first_game for k in members],
                             num_envs=num_envs, progress=False, on_games=on_games,
                             **first.options, **first.env_options)
        for k, df in zip(members, frames, strict=True):
            out[k] = seat_payoffs(first.game, df, len(jobs[k].seats))
    return [payoffs for payoffs in out if payoffs is not None]
